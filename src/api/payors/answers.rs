//! The answers of the registry's operations on one record: [`Answer`] is
//! what a handler returns (an actix `Responder`: the status, the strong
//! `ETag` of the record's version, `Location` for a creation, the record as
//! JSON) and what documents it in the OpenAPI document (`IntoResponses`),
//! so that what is sent and what is documented cannot drift apart.
//!
//! Contract: the kind of operation ([`Shown`], [`Changed`], [`Closed`],
//! [`Created`]) chooses the status and the descriptions; the record
//! ([`Record`]: a payor or an establishment) its schema, its noun and its
//! path. The answers every operation shares (401, 403, 404, 412, 428, ...)
//! are added by `api::framework_answers`.

use std::{collections::BTreeMap, marker::PhantomData};

use actix_web::{
    HttpRequest, HttpResponse, Responder,
    body::BoxBody,
    http::{StatusCode, header},
};
use serde::Serialize;
use utoipa::{
    IntoResponses, ToSchema,
    openapi::{Content, Ref, RefOr, Response, ResponseBuilder, ResponsesBuilder, header::Header},
};

use super::{Establishment, Payor, precondition::etag};
use crate::error::Problem;

/// A record of the registry as an operation answers with it.
pub trait Record: Serialize + ToSchema {
    /// What the descriptions call it.
    const NOUN: &'static str;
    /// The description of its creation's 201.
    const CREATED: &'static str;
    /// The description of its close's 422: why `closed_on` is refused.
    const CLOSE_REFUSED: &'static str;
    /// Its version: the `ETag` is `"<version>"`.
    fn version(&self) -> i64;
    /// Its path in the municipality `slug`.
    fn location(&self, slug: &str) -> String;
}

/// `/v1/municipalities/{slug}/payors/{id}`.
fn payor_location(slug: &str, payor_id: &str) -> String {
    format!("/v1/municipalities/{slug}/payors/{payor_id}")
}

impl Record for Payor {
    const NOUN: &'static str = "payor";
    const CREATED: &'static str = "Registered; the body is the new payor";
    const CLOSE_REFUSED: &'static str = "`closed_on` is missing";
    fn version(&self) -> i64 {
        self.version
    }
    fn location(&self, slug: &str) -> String {
        payor_location(slug, &self.id)
    }
}

impl Record for Establishment {
    const NOUN: &'static str = "establishment";
    const CREATED: &'static str =
        "Added; the body is the new establishment (the payor's version moves on too)";
    const CLOSE_REFUSED: &'static str = "`closed_on` is missing or before the opening date";
    fn version(&self) -> i64 {
        self.version
    }
    fn location(&self, slug: &str) -> String {
        let payor = payor_location(slug, &self.payor_id);
        format!("{payor}/establishments/{}", self.id)
    }
}

/// A kind of operation on a record: its status and what the document says of it.
pub trait Kind {
    /// The status of success.
    const STATUS: StatusCode;
    /// The responses it documents for a record `R`.
    fn responses<R: Record>() -> ResponsesBuilder;
}

/// A read: 200 with the record and its `ETag`.
pub enum Shown {}
/// A change: 200 with the record as now stored and its new `ETag`.
pub enum Changed {}
/// A close: 200 like a change; a close also documents its own refusals.
pub enum Closed {}
/// A creation: 201 with `Location` and the `ETag` of version 1.
pub enum Created {}

/// A kind of operation that answers where the record already was (no `Location`).
pub trait InPlace: Kind {}
impl InPlace for Shown {}
impl InPlace for Changed {}
impl InPlace for Closed {}

fn string_header(description: String) -> Header {
    let mut header = Header::default();
    header.description = Some(description);
    header
}

fn json(schema: std::borrow::Cow<'static, str>) -> Content {
    Content::new(Some(Ref::from_schema_name(schema)))
}

/// The success response: the record `R` with its `ETag`.
fn tagged<R: Record>(description: String, etag: String) -> ResponseBuilder {
    ResponseBuilder::new()
        .description(description)
        .content("application/json", json(R::name()))
        .header("ETag", string_header(etag))
}

/// A problem+json response.
fn problem(description: String) -> Response {
    ResponseBuilder::new()
        .description(description)
        .content("application/problem+json", json(Problem::name()))
        .build()
}

impl Kind for Shown {
    const STATUS: StatusCode = StatusCode::OK;
    fn responses<R: Record>() -> ResponsesBuilder {
        let noun = R::NOUN;
        let etag = format!("Strong entity tag of the {noun}'s version, e.g. `\"3\"`");
        ResponsesBuilder::new().response("200", tagged::<R>(format!("The {noun}"), etag))
    }
}

/// The record as now stored after `verb` (`Changed`, `Closed`), with its new `ETag`.
fn stored<R: Record>(verb: &str) -> ResponseBuilder {
    let noun = R::NOUN;
    let body = format!("{verb}; the body is the {noun} as now stored");
    tagged::<R>(
        body,
        format!("Strong entity tag of the {noun}'s new version"),
    )
}

impl Kind for Changed {
    const STATUS: StatusCode = StatusCode::OK;
    fn responses<R: Record>() -> ResponsesBuilder {
        ResponsesBuilder::new().response("200", stored::<R>("Changed"))
    }
}

impl Kind for Closed {
    const STATUS: StatusCode = StatusCode::OK;
    fn responses<R: Record>() -> ResponsesBuilder {
        let unreadable = "Malformed JSON, unknown field or a date that does not parse";
        let closed_twice = format!("The {} already has a closing date", R::NOUN);
        ResponsesBuilder::new()
            .response("200", stored::<R>("Closed"))
            .response("400", problem(unreadable.to_owned()))
            .response("409", problem(closed_twice))
            .response("422", problem(R::CLOSE_REFUSED.to_owned()))
    }
}

impl Kind for Created {
    const STATUS: StatusCode = StatusCode::CREATED;
    fn responses<R: Record>() -> ResponsesBuilder {
        let noun = R::NOUN;
        let etag = format!("Strong entity tag of the new {noun}'s version, `\"1\"`");
        let location = string_header(format!("Path of the new {noun}"));
        let created = tagged::<R>(R::CREATED.to_owned(), etag).header("Location", location);
        ResponsesBuilder::new().response("201", created)
    }
}

/// A record answered by an operation of kind `K`.
pub struct Answer<K, R> {
    record: R,
    location: Option<String>,
    kind: PhantomData<fn() -> K>,
}

impl<K: InPlace, R: Record> Answer<K, R> {
    /// The record, where it was.
    pub fn new(record: R) -> Self {
        Self {
            record,
            location: None,
            kind: PhantomData,
        }
    }
}

impl<R: Record> Answer<Created, R> {
    /// The new record, created in the municipality `slug`.
    pub fn created(slug: &str, record: R) -> Self {
        Self {
            location: Some(record.location(slug)),
            record,
            kind: PhantomData,
        }
    }
}

impl<K: Kind, R: Record> Responder for Answer<K, R> {
    type Body = BoxBody;

    fn respond_to(self, _: &HttpRequest) -> HttpResponse {
        let mut response = HttpResponse::build(K::STATUS);
        response.insert_header((header::ETAG, etag(self.record.version())));
        if let Some(location) = self.location {
            response.insert_header((header::LOCATION, location));
        }
        response.json(&self.record)
    }
}

impl<K: Kind, R: Record> IntoResponses for Answer<K, R> {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        K::responses::<R>().build().into()
    }
}

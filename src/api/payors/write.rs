//! The one skeleton of every registry write: authorise `WritePayors`, take
//! the body and parse it into domain values, judge `If-Match` when the write
//! is conditional, name the actor, run the use case; and the response with
//! the new version's `ETag`.
//!
//! Contract: the order of answers is the registry's (module docs of
//! `payors`): 404/403 first, then the body (400/415/422), then `If-Match`
//! (428), then the actor (a person or a client; `Actor::of`); the use case's
//! own answers (404, 412, 409) come last. Handlers only choose the use case
//! and the shape of the record they answer with.

use actix_web::{HttpResponse, HttpResponseBuilder, http::header};
use serde::Serialize;

use super::{CloseRequest, EstablishmentPatch, IfMatch, NewEstablishment, NewPayor, PayorPatch};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiJson,
        payors::precondition::etag,
    },
    app::AppState,
    db::DbConn,
    domain::registry,
    error::ApiError,
    tenancy::{Action, MunicipalityContext},
    usecases::payors::{Actor, Precondition},
};

/// A registry request body and the domain value it parses into.
pub trait Parse: Send + 'static {
    /// What the use case takes.
    type Into: Send;
    /// Every field parsed, every fault reported at once (422).
    fn parse_body(self) -> Result<Self::Into, ApiError>;
}

macro_rules! parse_as {
    ($($body:ty => $into:ty),* $(,)?) => {$(
        impl Parse for $body {
            type Into = $into;
            fn parse_body(self) -> Result<$into, ApiError> {
                Ok(self.parse()?)
            }
        }
    )*};
}

parse_as! {
    NewPayor => registry::NewPayor,
    PayorPatch => registry::PayorChanges,
    CloseRequest => chrono::NaiveDate,
    NewEstablishment => registry::NewEstablishment,
    EstablishmentPatch => registry::EstablishmentChanges,
}

/// An authorised registry write, its input parsed, ready for the use case.
pub struct PayorWrite<'c, I, P> {
    /// The open transaction.
    pub conn: &'c mut DbConn,
    /// The caller in the municipality (allowed `WritePayors`).
    pub ctx: MunicipalityContext,
    /// Who the write is recorded as.
    pub actor: Actor,
    /// The parsed body.
    pub input: I,
    /// The `If-Match` precondition (`()` for an unconditional write).
    pub precondition: P,
}

/// A write that needs `If-Match` (PATCH, close).
pub async fn conditional<B, T, F>(
    state: &AppState,
    here: InMunicipality,
    if_match: IfMatch,
    body: Result<ApiJson<B>, ApiError>,
    work: F,
) -> Result<T, ApiError>
where
    B: Parse,
    T: Send + 'static,
    F: for<'c> FnOnce(PayorWrite<'c, B::Into, Precondition>) -> Result<T, ApiError>
        + Send
        + 'static,
{
    run(state, here, body, move || if_match.required(), work).await
}

/// A write that creates (no `If-Match`).
pub async fn unconditional<B, T, F>(
    state: &AppState,
    here: InMunicipality,
    body: Result<ApiJson<B>, ApiError>,
    work: F,
) -> Result<T, ApiError>
where
    B: Parse,
    T: Send + 'static,
    F: for<'c> FnOnce(PayorWrite<'c, B::Into, ()>) -> Result<T, ApiError> + Send + 'static,
{
    run(state, here, body, || Ok(()), work).await
}

async fn run<B, P, T, F>(
    state: &AppState,
    here: InMunicipality,
    body: Result<ApiJson<B>, ApiError>,
    precondition: impl FnOnce() -> Result<P, ApiError> + Send + 'static,
    work: F,
) -> Result<T, ApiError>
where
    B: Parse,
    T: Send + 'static,
    F: for<'c> FnOnce(PayorWrite<'c, B::Into, P>) -> Result<T, ApiError> + Send + 'static,
{
    here.write(state, move |MunicipalUnit { conn, ctx, .. }| {
        ctx.require(Action::WritePayors)?;
        let ApiJson(body) = body?;
        let input = body.parse_body()?;
        let precondition = precondition()?;
        let actor = Actor::of(&ctx)?;
        work(PayorWrite {
            conn,
            ctx,
            actor,
            input,
            precondition,
        })
    })
    .await
}

/// `response` with the strong `ETag` of `version` and `body` as JSON.
pub fn tagged<T: Serialize>(
    mut response: HttpResponseBuilder,
    version: i64,
    body: &T,
) -> HttpResponse {
    response
        .insert_header((header::ETAG, etag(version)))
        .json(body)
}

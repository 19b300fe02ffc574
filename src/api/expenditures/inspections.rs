//! `/v1/zones/{zone}/inspection-requests`: a member municipality asks to
//! inspect the tourism entity's or the commission's records; the answer is
//! recorded with its date.
//!
//! Contract: thin handlers over `usecases::expenditures::inspections` (which
//! authorises: the member's clerk-treasurer requests, the tourism entity or
//! a commission member answers; the zone's readers and the requesting
//! member read). Montello room tax, distribution ¶B: inspections "upon
//! request of the municipalities, at reasonable times".

use actix_web::{HttpResponse, get, post, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    api::{
        caller::{InZone, ZoneUnit},
        extract::ApiJson,
    },
    app::AppState,
    error::{ApiError, Problem},
    usecases::expenditures::inspections::{
        self, INSPECTION_CITATION, Inspection, NewAnswer, NewRequest, RecordsOf,
    },
};

/// A request to inspect records.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InspectionIn {
    /// Slug of the requesting member municipality (the caller is its clerk-treasurer).
    pub municipality: String,
    /// Whose records: `tourism_entity` or `commission`.
    pub records_of: RecordsOf,
    /// Which records, in words (1 to 2000 characters).
    pub records: String,
    /// The day the request was made (default today; not after today).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<String>, format = Date)]
    pub requested_on: Option<NaiveDate>,
}

/// The answer to a request.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InspectionAnswerIn {
    /// The day answered (not after today, not before the request).
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date)]
    pub answered_on: NaiveDate,
    /// The day of the inspection, if one was arranged.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<String>, format = Date)]
    pub inspection_on: Option<NaiveDate>,
    /// The answer, in words (1 to 2000 characters).
    pub answer: String,
}

/// The answer, as recorded.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InspectionAnswerOut {
    /// The day answered.
    #[schema(value_type = String, format = Date)]
    pub answered_on: NaiveDate,
    /// The day of the inspection, if arranged.
    #[schema(value_type = Option<String>, format = Date)]
    pub inspection_on: Option<NaiveDate>,
    /// The answer.
    pub answer: String,
    /// Who recorded it (`user:<id>`).
    pub answered_by: String,
    /// When (RFC 3339, UTC).
    pub recorded_at: DateTime<Utc>,
}

/// A request to inspect records, with its answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InspectionRequest {
    /// Request id.
    pub id: String,
    /// Slug of the requesting member municipality.
    pub municipality: String,
    /// Whose records.
    pub records_of: RecordsOf,
    /// Which records.
    pub records: String,
    /// The day requested.
    #[schema(value_type = String, format = Date)]
    pub requested_on: NaiveDate,
    /// Who requested (`user:<id>`).
    pub requested_by: String,
    /// The duty to allow it.
    pub citation: String,
    /// The answer, once recorded.
    pub answer: Option<InspectionAnswerOut>,
}

/// Inspection requests, newest first.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct InspectionRequestList {
    /// The requests.
    pub items: Vec<InspectionRequest>,
}

fn shape((row, answered, slug): Inspection) -> InspectionRequest {
    InspectionRequest {
        id: row.id,
        municipality: slug,
        records_of: if row.records_of == "commission" {
            RecordsOf::Commission
        } else {
            RecordsOf::TourismEntity
        },
        records: row.records,
        requested_on: row.requested_on,
        requested_by: row.requested_by,
        citation: INSPECTION_CITATION.to_owned(),
        answer: answered.map(|a| InspectionAnswerOut {
            answered_on: a.answered_on,
            inspection_on: a.inspection_on,
            answer: a.answer,
            answered_by: a.answered_by,
            recorded_at: a.created_at.and_utc(),
        }),
    }
}

/// Request to inspect the tourism entity's or the commission's records.
///
/// Only the clerk-treasurer of a current member municipality, as a person, for that
/// municipality (other users related to the zone 403, anyone else 404). Both must allow
/// it "at reasonable times" (Montello room tax, distribution ¶B).
#[utoipa::path(
    operation_id = "request_inspection",
    tag = "expenditures",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath),
    request_body = InspectionIn,
    responses(
        (status = 201, description = "Recorded", body = InspectionRequest),
        (status = 422, description = "`municipality` not a current member (`zone_member`), `records` not text, `requested_on` in the future", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/inspection-requests")]
pub async fn request(
    state: web::Data<AppState>,
    here: InZone,
    body: Result<ApiJson<InspectionIn>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let now = crate::api::stamp::now(&state);
    let out = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            let new = body.map(|b| NewRequest {
                municipality: b.0.municipality,
                records_of: b.0.records_of,
                records: b.0.records,
                requested_on: b.0.requested_on,
            });
            inspections::request(conn, &ctx, new, today, now)
        })
        .await?;
    Ok(HttpResponse::Created().json(shape(out)))
}

/// Record the answer to an inspection request.
///
/// Only the tourism entity or a commission member, as a person; once per request (409
/// `already_answered`).
#[utoipa::path(
    operation_id = "answer_inspection_request",
    tag = "expenditures",
    security(("bearer" = [])),
    params(
        crate::api::params::ZonePath,
        ("id" = String, Path, description = "Inspection request id")
    ),
    request_body = InspectionAnswerIn,
    responses(
        (status = 201, description = "The request with its answer", body = InspectionRequest),
        (status = 409, description = "`already_answered`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Dates in the future or before the request, `answer` not text", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/inspection-requests/{id}/answer")]
pub async fn answer(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
    body: Result<ApiJson<InspectionAnswerIn>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (_, id) = path.into_inner();
    let today = state.clock.today();
    let now = crate::api::stamp::now(&state);
    let out = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            let new = body.map(|b| NewAnswer {
                answered_on: b.0.answered_on,
                inspection_on: b.0.inspection_on,
                answer: b.0.answer,
            });
            inspections::answer(conn, &ctx, &id, new, today, now)
        })
        .await?;
    Ok(HttpResponse::Created().json(shape(out)))
}

/// The zone's inspection requests with their answers.
///
/// Only commission members, the tourism entity and the zone's API clients see all; a member
/// municipality's clerk-treasurer sees its own; other users related to the zone 403,
/// anyone else 404.
#[utoipa::path(
    operation_id = "list_inspection_requests",
    tag = "expenditures",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath),
    responses(
        (status = 200, description = "The requests, newest first", body = InspectionRequestList)
    )
)]
#[get("/v1/zones/{zone}/inspection-requests")]
pub async fn list(
    state: web::Data<AppState>,
    here: InZone,
) -> Result<web::Json<InspectionRequestList>, ApiError> {
    let today = state.clock.today();
    let rows = here
        .read(&state, move |ZoneUnit { conn, ctx, .. }| {
            inspections::list(conn, &ctx, today)
        })
        .await?;
    Ok(web::Json(InspectionRequestList {
        items: rows.into_iter().map(shape).collect(),
    }))
}

//! `POST /v1/municipalities/{municipality}/payors`: register a payor.
//!
//! Contract: clerk-treasurer, municipal staff or an API client with
//! `payors:write` (others related to the municipality 403, unrelated 404);
//! every field validated (422 naming field and rule), the annual election
//! against the municipality's policy (Hayward: calendar only); the new payor
//! has a fresh UUID and version 1; answers 201 with `Location` and `ETag`.
//! The write is logged (action `create`).

use actix_web::post;

use super::{
    NewPayor, Payor,
    answers::{Answer, Created},
    today,
    write::Create,
};
use crate::{
    error::{ApiError, Problem},
    usecases::payors::registry,
};

/// Register a payor (a business that owes the tax) in the municipality.
///
/// Clerk-treasurer, municipal staff or an API client with `payors:write`. Fields are
/// checked by the registry rules; the annual election must be one the municipality's
/// policy allows (Hayward room tax: the calendar year only). Written to the access log
/// (`payor`, `create`).
#[utoipa::path(
    operation_id = "create_payor",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath),
    request_body = NewPayor,
    responses(
        Answer<Created, Payor>,
        (status = 422, description = "A field breaks a rule (a fiscal `annual_election` where the ordinance allows only a calendar year included); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors")]
pub async fn create(request: Create<NewPayor>) -> Result<Answer<Created, Payor>, ApiError> {
    let slug = request.slug().to_owned();
    let today = today();
    let record = request
        .write(move |call| registry::create(call, today))
        .await?;
    Ok(Answer::created(&slug, Payor::from_record(record, today)?))
}

//! `PATCH /v1/municipalities/{municipality}/payors/{payor}`: change a payor.
//!
//! Contract: clerk-treasurer, municipal staff or an API client with
//! `payors:write` (an operator 403, even for its own payor; unrelated callers
//! 404). The body is any subset of the create fields (unknown fields refused;
//! `null` clears an optional field, and is refused for a required one); a
//! change of the annual election is judged against the municipality's
//! policy. `If-Match` is required (428) and must match the current version
//! (412; `*` matches any); the update matches that version in the database
//! and bumps it, so a concurrent writer loses with 412 rather than being
//! overwritten. Answers 200 with the payor and its new `ETag`; the write is
//! logged (action `update`).

use actix_web::{patch, web};

use super::{
    IfMatch, Payor, PayorKey, PayorPatch,
    answers::{Answer, Changed},
    today,
    write::Change,
};
use crate::{error::ApiError, usecases::payors::registry};

/// Change a payor's fields (needs `If-Match`).
///
/// Clerk-treasurer, municipal staff or an API client with `payors:write`. Only the
/// fields sent change; required fields cannot be cleared. Written to the access log
/// (`payor`, `update`). Needs `If-Match` with the payor's current ETag.
#[utoipa::path(
    operation_id = "update_payor",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, IfMatch),
    request_body = PayorPatch,
    responses(Answer<Changed, Payor>)
)]
#[patch("/v1/municipalities/{municipality}/payors/{payor}")]
pub async fn update(
    path: web::Path<PayorKey>,
    request: Change<PayorPatch>,
) -> Result<Answer<Changed, Payor>, ApiError> {
    let PayorKey { payor } = path.into_inner();
    let today = today();
    let record = request
        .write(move |call| registry::update(call, &payor, today))
        .await?;
    Ok(Answer::new(Payor::from_record(record, today)?))
}

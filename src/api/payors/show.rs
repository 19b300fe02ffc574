//! `GET /v1/municipalities/{municipality}/payors/{payor}`: one payor with its establishments.
//!
//! Contract: readable by whoever `payor_filter` lets see this payor (a payor
//! outside the caller's view is 404, exactly like a missing one: an operator
//! asking for another payor of its municipality included). Every successful
//! read appends one access-log entry (record type `payor`) in the same
//! transaction. The `ETag` is the payor's version (which its establishments'
//! writes bump too).

use actix_web::{get, web};

use super::{
    Payor, PayorKey,
    answers::{Answer, Shown},
    today,
    write::Read,
};
use crate::{error::ApiError, usecases::payors::registry};

/// One payor with its establishments (each read is written to the access log).
///
/// Whoever may read it: clerk-treasurer, municipal staff, an API client with
/// `payors:read` or `payors:write`, the payor's own operator, or a disclosure grantee
/// for that payor (read-only); anyone else gets 404, as for a payor that does not
/// exist. Written to the access log (`payor`, `read`; Montello room tax,
/// confidentiality ¶).
#[utoipa::path(
    operation_id = "get_payor",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath),
    responses(Answer<Shown, Payor>)
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}")]
pub async fn show(
    path: web::Path<PayorKey>,
    request: Read,
) -> Result<Answer<Shown, Payor>, ApiError> {
    let PayorKey { payor } = path.into_inner();
    let record = request
        .read(move |call| registry::show(call, &payor))
        .await?;
    Ok(Answer::new(Payor::from_record(record, today())?))
}

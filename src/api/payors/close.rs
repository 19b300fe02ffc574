//! `POST /v1/municipalities/{municipality}/payors/{payor}/close`: record that a payor closes or closed.
//!
//! Contract: authorised like an update (clerk-treasurer, staff, `payors:write`)
//! and conditional like one (`If-Match` required, 428 / 412). `closed_on` is
//! required; a future date shows the payor `closing` until that date, then
//! `closed`. Closing a payor that already has a closing date is 409. Its
//! establishments are not closed with it (each has its own close). Answers
//! 200 with the payor and its new `ETag`; the write is logged (action `close`).

use actix_web::{post, web};

use super::{
    CloseRequest, IfMatch, Payor, PayorKey,
    answers::{Answer, Closed},
    today,
    write::Change,
};
use crate::{error::ApiError, usecases::payors::registry};

/// Record the date a payor closes or closed (needs `If-Match`).
///
/// Clerk-treasurer, municipal staff or an API client with `payors:write`. `closed_on`
/// may be in the future: the payor is `closing` until that day, `closed` from it.
/// Written to the access log (`payor`, `close`). Needs `If-Match` with the payor's
/// current ETag.
#[utoipa::path(
    operation_id = "close_payor",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, IfMatch),
    request_body = CloseRequest,
    responses(Answer<Closed, Payor>)
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/close")]
pub async fn close(
    path: web::Path<PayorKey>,
    request: Change<CloseRequest>,
) -> Result<Answer<Closed, Payor>, ApiError> {
    let PayorKey { payor } = path.into_inner();
    let record = request
        .write(move |call| registry::close(call, &payor))
        .await?;
    Ok(Answer::new(Payor::from_record(record, today())?))
}

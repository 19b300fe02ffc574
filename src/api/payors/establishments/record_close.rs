//! `POST .../payors/{payor}/establishments/{establishment}/close`: record that an establishment closes or closed.

use actix_web::{post, web};

use crate::{
    api::payors::{
        CloseRequest, Establishment, EstablishmentKey, IfMatch,
        answers::{Answer, Closed},
        today,
        write::Change,
    },
    error::ApiError,
    usecases::payors::establishments,
};

/// Record the date an establishment closes or closed (needs `If-Match` with its version).
///
/// Clerk-treasurer, municipal staff or an API client with `payors:write`. `closed_on`
/// may be in the future and not before the opening date. The payor's ETag changes too.
/// Written to the access log (`establishment`, `close`).
#[utoipa::path(
    operation_id = "close_establishment",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::EstablishmentPath, IfMatch),
    request_body = CloseRequest,
    responses(Answer<Closed, Establishment>)
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/establishments/{establishment}/close")]
pub async fn close(
    path: web::Path<EstablishmentKey>,
    request: Change<CloseRequest>,
) -> Result<Answer<Closed, Establishment>, ApiError> {
    let key = path.into_inner();
    let row = request
        .write(move |call| establishments::close(call, &key.payor, &key.establishment))
        .await?;
    Ok(Answer::new(Establishment::from_row(row, today())?))
}

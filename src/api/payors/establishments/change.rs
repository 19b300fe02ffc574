//! `PATCH .../payors/{payor}/establishments/{establishment}`: change an establishment.

use actix_web::{patch, web};

use crate::{
    api::payors::{
        Establishment, EstablishmentKey, EstablishmentPatch, IfMatch,
        answers::{Answer, Changed},
        today,
        write::Change,
    },
    error::ApiError,
    usecases::payors::establishments,
};

/// Change an establishment (needs `If-Match` with its version).
///
/// Clerk-treasurer, municipal staff or an API client with `payors:write`. Only the
/// fields sent change; the payor's ETag changes too. Written to the access log
/// (`establishment`, `update`).
#[utoipa::path(
    operation_id = "update_establishment",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::EstablishmentPath, IfMatch),
    request_body = EstablishmentPatch,
    responses(Answer<Changed, Establishment>)
)]
#[patch("/v1/municipalities/{municipality}/payors/{payor}/establishments/{establishment}")]
pub async fn update(
    path: web::Path<EstablishmentKey>,
    request: Change<EstablishmentPatch>,
) -> Result<Answer<Changed, Establishment>, ApiError> {
    let key = path.into_inner();
    let row = request
        .write(move |call| establishments::update(call, &key.payor, &key.establishment))
        .await?;
    Ok(Answer::new(Establishment::from_row(row, today())?))
}

//! `GET .../payors/{payor}/establishments/{establishment}`: one establishment.

use actix_web::{get, web};

use crate::{
    api::payors::{
        Establishment, EstablishmentKey,
        answers::{Answer, Shown},
        today,
        write::Read,
    },
    error::ApiError,
    usecases::payors::establishments,
};

/// One establishment of a payor (the read is written to the access log as a read of the payor).
///
/// Whoever may read the payor: clerk-treasurer, municipal staff, an API client with
/// `payors:read` or `payors:write`, the payor's own operator, or a disclosure grantee
/// for that payor (read-only). Written to the access log as a read of the payor
/// (Montello room tax, confidentiality ¶).
#[utoipa::path(
    operation_id = "get_establishment",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::EstablishmentPath),
    responses(Answer<Shown, Establishment>)
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/establishments/{establishment}")]
pub async fn show(
    path: web::Path<EstablishmentKey>,
    request: Read,
) -> Result<Answer<Shown, Establishment>, ApiError> {
    let key = path.into_inner();
    let row = request
        .read(move |call| establishments::show(call, &key.payor, &key.establishment))
        .await?;
    Ok(Answer::new(Establishment::from_row(row, today())?))
}

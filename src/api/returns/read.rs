//! `GET .../payors/{payor}/returns/{return}` and `.../versions`.
//!
//! Contract: whoever may read the payor (its operator, the clerk-treasurer,
//! staff, a disclosure grantee for it) reads its returns; API clients and
//! everyone else 404. Each read is written to the access log.

use actix_web::{HttpResponse, get, http::header, web};

use super::{ReturnVersionList, TaxReturn};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        payors::precondition::etag,
    },
    app::AppState,
    error::ApiError,
    usecases::returns::reading,
};

/// One return, as its latest version (each read is written to the access log).
///
/// Whoever may read the payor: its operator, the clerk-treasurer, staff, or a
/// disclosure grantee for the payor; anyone else gets 404. The `ETag` names the latest version (an amendment's
/// `If-Match`). Written to the access log (`return`, `read`).
#[utoipa::path(
    operation_id = "get_return",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::ReturnPath),
    responses(
        (status = 200, description = "The return", body = TaxReturn,
            headers(("ETag" = String, description = "Strong entity tag of the latest version, e.g. `\"2\"`")))
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/returns/{return}")]
pub async fn show(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id, return_id) = path.into_inner();
    let record = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            reading::show(conn, &ctx, &payor_id, &return_id)
        })
        .await?;
    let body = TaxReturn::latest(&record);
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(body.latest_version)))
        .json(body))
}

/// Every version of a return, the original first (each is written to the access log).
///
/// Whoever may read the return may read its versions: nothing filed is ever overwritten.
/// Written to the access log (`return_version`, `read`, one entry per version).
#[utoipa::path(
    operation_id = "list_return_versions",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::ReturnPath),
    responses(
        (status = 200, description = "The versions, oldest first", body = ReturnVersionList)
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/returns/{return}/versions")]
pub async fn versions(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
) -> Result<web::Json<ReturnVersionList>, ApiError> {
    let (_, payor_id, return_id) = path.into_inner();
    let record = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            reading::versions(conn, &ctx, &payor_id, &return_id)
        })
        .await?;
    let items = (0..record.versions.len())
        .map(|i| TaxReturn::of_version(&record, i))
        .collect();
    Ok(web::Json(ReturnVersionList { items }))
}

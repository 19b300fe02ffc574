//! `GET .../payors/{payor}/establishments/{establishment}`: one establishment.

use actix_web::{HttpResponse, get, http::header, web};

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        payors::{Establishment, precondition::etag, today},
    },
    app::AppState,
    error::ApiError,
    usecases::payors::{Actor, establishments},
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
    params(
        crate::api::params::EstablishmentPath
    ),
    responses(
        (status = 200, description = "The establishment", body = Establishment,
            headers(("ETag" = String, description = "Strong entity tag of the establishment's version, e.g. `\"2\"`")))
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/establishments/{establishment}")]
pub async fn show(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id, id) = path.into_inner();
    let row = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            let actor = Actor::of(&ctx)?;
            establishments::show(conn, &ctx, &actor, &payor_id, &id)
        })
        .await?;
    let establishment = Establishment::from_row(row, today())?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(establishment.version)))
        .json(establishment))
}

//! `PATCH .../payors/{payor}/establishments/{establishment}`: change an establishment.

use actix_web::{HttpResponse, patch, web};

use crate::{
    api::{
        caller::InMunicipality,
        extract::ApiJson,
        payors::{
            Establishment, EstablishmentPatch, IfMatch,
            precondition::IF_MATCH_DOC,
            today,
            write::{self, PayorWrite},
        },
    },
    app::AppState,
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
    params(
        crate::api::params::EstablishmentPath,
        ("If-Match" = String, Header, description = IF_MATCH_DOC)
    ),
    request_body = EstablishmentPatch,
    responses(
        (status = 200, description = "Changed; the body is the establishment as now stored", body = Establishment,
            headers(("ETag" = String, description = "Strong entity tag of the establishment's new version")))
    )
)]
#[patch("/v1/municipalities/{municipality}/payors/{payor}/establishments/{establishment}")]
pub async fn update(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
    if_match: IfMatch,
    body: Result<ApiJson<EstablishmentPatch>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id, id) = path.into_inner();
    let row = write::conditional(&state, here, if_match, body, move |w| {
        let PayorWrite {
            conn,
            ctx,
            actor,
            input,
            precondition,
        } = w;
        establishments::update(conn, &ctx, &actor, &payor_id, &id, &precondition, input)
    })
    .await?;
    let establishment = Establishment::from_row(row, today())?;
    Ok(write::tagged(
        HttpResponse::Ok(),
        establishment.version,
        &establishment,
    ))
}

//! `PATCH .../payors/{payor}/establishments/{establishment}`: change an establishment.

use actix_web::{HttpResponse, http::header, patch, web};

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiJson,
        payors::{
            Establishment, EstablishmentPatch, IfMatch,
            precondition::{IF_MATCH_DOC, etag},
            today,
        },
    },
    app::AppState,
    error::ApiError,
    tenancy::Action,
    usecases::payors::{Actor, establishments},
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
    let row = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ctx.require(Action::WritePayors)?;
            let ApiJson(body) = body?;
            let changes = body.parse()?;
            let precondition = if_match.required()?;
            let actor = Actor::of(&ctx)?;
            establishments::update(conn, &ctx, &actor, &payor_id, &id, &precondition, changes)
        })
        .await?;
    let establishment = Establishment::from_row(row, today())?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(establishment.version)))
        .json(establishment))
}

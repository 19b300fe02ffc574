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
    error::{ApiError, Problem},
    usecases::payors::establishments,
};

/// Change an establishment (needs `If-Match` with its version).
#[utoipa::path(
    operation_id = "update_establishment",
    tag = "payors",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        ("payor" = String, Path, description = "Payor id (UUID)"),
        ("establishment" = String, Path, description = "Establishment id (UUID)"),
        ("If-Match" = String, Header, description = IF_MATCH_DOC)
    ),
    request_body = EstablishmentPatch,
    responses(
        (status = 200, description = "Changed; the body is the establishment as now stored", body = Establishment,
            headers(("ETag" = String, description = "Strong entity tag of the establishment's new version"))),
        (status = 400, description = "Malformed JSON, unknown field or wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here does not allow changing payors", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, payor or establishment of that payor, or the caller has no role in the municipality", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` names another version: read the establishment again", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over 256 KiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule; `errors` names field and rule", body = Problem, content_type = "application/problem+json"),
        (status = 428, description = "`If-Match` is missing", body = Problem, content_type = "application/problem+json")
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

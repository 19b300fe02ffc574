//! `POST .../payors/{payor}/establishments/{establishment}/close`: record that an establishment closes or closed.

use actix_web::{HttpResponse, post, web};

use crate::{
    api::{
        caller::InMunicipality,
        extract::ApiJson,
        payors::{
            CloseRequest, Establishment, IfMatch,
            precondition::IF_MATCH_DOC,
            today,
            write::{self, PayorWrite},
        },
    },
    app::AppState,
    error::{ApiError, Problem},
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
    params(
        crate::api::params::EstablishmentPath,
        ("If-Match" = String, Header, description = IF_MATCH_DOC)
    ),
    request_body = CloseRequest,
    responses(
        (status = 200, description = "Closed; the body is the establishment as now stored", body = Establishment,
            headers(("ETag" = String, description = "Strong entity tag of the establishment's new version"))),
        (status = 400, description = "Malformed JSON, unknown field or a date that does not parse", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The establishment already has a closing date", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`closed_on` is missing or before the opening date", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/establishments/{establishment}/close")]
pub async fn close(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
    if_match: IfMatch,
    body: Result<ApiJson<CloseRequest>, ApiError>,
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
        establishments::close(conn, &ctx, &actor, &payor_id, &id, &precondition, input)
    })
    .await?;
    let establishment = Establishment::from_row(row, today())?;
    Ok(write::tagged(
        HttpResponse::Ok(),
        establishment.version,
        &establishment,
    ))
}

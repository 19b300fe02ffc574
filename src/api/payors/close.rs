//! `POST /v1/municipalities/{municipality}/payors/{payor}/close`: record that a payor closes or closed.
//!
//! Contract: authorised like an update (clerk-treasurer, staff, `payors:write`)
//! and conditional like one (`If-Match` required, 428 / 412). `closed_on` is
//! required; a future date shows the payor `closing` until that date, then
//! `closed`. Closing a payor that already has a closing date is 409. Its
//! establishments are not closed with it (each has its own close). Answers
//! 200 with the payor and its new `ETag`; the write is logged (action `close`).

use actix_web::{HttpResponse, post, web};

use super::{
    CloseRequest, IfMatch, Payor,
    precondition::IF_MATCH_DOC,
    today,
    write::{self, PayorWrite},
};
use crate::{
    api::{caller::InMunicipality, extract::ApiJson},
    app::AppState,
    error::{ApiError, Problem},
    usecases::payors::registry,
};

/// Record the date a payor closes or closed (needs `If-Match`).
#[utoipa::path(
    operation_id = "close_payor",
    tag = "payors",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        ("payor" = String, Path, description = "Payor id (UUID)"),
        ("If-Match" = String, Header, description = IF_MATCH_DOC)
    ),
    request_body = CloseRequest,
    responses(
        (status = 200, description = "Closed; the body is the payor as now stored", body = Payor,
            headers(("ETag" = String, description = "Strong entity tag of the new version"))),
        (status = 400, description = "Malformed JSON, unknown field or a date that does not parse", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here does not allow closing payors", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality or payor, or the caller has no role in it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The payor already has a closing date", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` names another version: read the payor again", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over 256 KiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`closed_on` is missing", body = Problem, content_type = "application/problem+json"),
        (status = 428, description = "`If-Match` is missing", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/close")]
pub async fn close(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    if_match: IfMatch,
    body: Result<ApiJson<CloseRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id) = path.into_inner();
    let record = write::conditional(&state, here, if_match, body, move |w| {
        let PayorWrite {
            conn,
            ctx,
            actor,
            input,
            precondition,
        } = w;
        registry::close(conn, &ctx, &actor, &payor_id, &precondition, input)
    })
    .await?;
    let payor = Payor::from_record(record, today())?;
    Ok(write::tagged(HttpResponse::Ok(), payor.version, &payor))
}

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
///
/// Clerk-treasurer, municipal staff or an API client with `payors:write`. `closed_on`
/// may be in the future: the payor is `closing` until that day, `closed` from it.
/// Written to the access log (`payor`, `close`). Needs `If-Match` with the payor's
/// current ETag.
#[utoipa::path(
    operation_id = "close_payor",
    tag = "payors",
    security(("bearer" = [])),
    params(
        crate::api::params::PayorPath,
        ("If-Match" = String, Header, description = IF_MATCH_DOC)
    ),
    request_body = CloseRequest,
    responses(
        (status = 200, description = "Closed; the body is the payor as now stored", body = Payor,
            headers(("ETag" = String, description = "Strong entity tag of the new version"))),
        (status = 400, description = "Malformed JSON, unknown field or a date that does not parse", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The payor already has a closing date", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`closed_on` is missing", body = Problem, content_type = "application/problem+json")
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

//! `PATCH /v1/municipalities/{municipality}/payors/{payor}`: change a payor.
//!
//! Contract: clerk-treasurer, municipal staff or an API client with
//! `payors:write` (an operator 403, even for its own payor; unrelated callers
//! 404). The body is any subset of the create fields (unknown fields refused;
//! `null` clears an optional field, and is refused for a required one); a
//! change of the annual election is judged against the municipality's
//! policy. `If-Match` is required (428) and must match the current version
//! (412; `*` matches any); the update matches that version in the database
//! and bumps it, so a concurrent writer loses with 412 rather than being
//! overwritten. Answers 200 with the payor and its new `ETag`; the write is
//! logged (action `update`).

use actix_web::{HttpResponse, patch, web};

use super::{
    IfMatch, Payor, PayorPatch,
    precondition::IF_MATCH_DOC,
    today,
    write::{self, PayorWrite},
};
use crate::{
    api::{caller::InMunicipality, extract::ApiJson},
    app::AppState,
    error::ApiError,
    usecases::payors::registry,
};

/// Change a payor's fields (needs `If-Match`).
///
/// Clerk-treasurer, municipal staff or an API client with `payors:write`. Only the
/// fields sent change; required fields cannot be cleared. Written to the access log
/// (`payor`, `update`). Needs `If-Match` with the payor's current ETag.
#[utoipa::path(
    operation_id = "update_payor",
    tag = "payors",
    security(("bearer" = [])),
    params(
        crate::api::params::PayorPath,
        ("If-Match" = String, Header, description = IF_MATCH_DOC)
    ),
    request_body = PayorPatch,
    responses(
        (status = 200, description = "Changed; the body is the payor as now stored", body = Payor,
            headers(("ETag" = String, description = "Strong entity tag of the new version")))
    )
)]
#[patch("/v1/municipalities/{municipality}/payors/{payor}")]
pub async fn update(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    if_match: IfMatch,
    body: Result<ApiJson<PayorPatch>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id) = path.into_inner();
    let today = today();
    let record = write::conditional(&state, here, if_match, body, move |w| {
        let PayorWrite {
            conn,
            ctx,
            actor,
            input,
            precondition,
        } = w;
        registry::update(conn, &ctx, &actor, &payor_id, &precondition, input, today)
    })
    .await?;
    let payor = Payor::from_record(record, today)?;
    Ok(write::tagged(HttpResponse::Ok(), payor.version, &payor))
}

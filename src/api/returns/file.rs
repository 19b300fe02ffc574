//! `POST .../payors/{payor}/returns` (file) and
//! `POST .../payors/{payor}/returns/{return}/amendments` (amend).
//!
//! Contract: the payor's operator for its own payor, the clerk-treasurer or
//! staff for any (a paper return, with `received_on`); anyone else 404. The
//! body is a [`ReturnFiling`] (every fault at once, 422 naming the field and
//! rule); the filing date is today's local date (America/Chicago). Filing a
//! period already on file is 409 (`period`, `return_already_filed`) naming
//! the amendments path. An amendment needs `If-Match` with the latest
//! version's `ETag` (428 without, 412 when stale). Both answer 201 with the
//! new version, `Location` of the return and its new `ETag`.

use actix_web::{HttpResponse, http::header, post, web};

use super::{TaxReturn, return_location};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiJson,
        payors::precondition::{IfMatch, etag},
    },
    app::AppState,
    domain::returns::ReturnFiling,
    error::{ApiError, Problem},
    usecases::returns::filing,
};

fn created(slug: &str, body: &TaxReturn) -> HttpResponse {
    HttpResponse::Created()
        .insert_header((
            header::LOCATION,
            return_location(slug, &body.payor_id, &body.id),
        ))
        .insert_header((header::ETAG, etag(body.latest_version)))
        .json(body)
}

/// File a room-tax return for a payor (quarterly or annual).
///
/// Whoever files for the payor: its operator, online, for its own payor; the
/// clerk-treasurer or staff, for any payor, entering a paper return with `received_on`
/// (the postmark or counter date); anyone else gets 404. The engine computes the tax, the late filing fee when filed after the filing
/// due date (the municipality's local date counts: a return sent 23:30 on the due
/// date is on time), interest and forfeiture when the tax (which accompanies the return)
/// is late; an annual return reconciles the year's quarters and owes only their
/// adjustments. The signer must attest the return (both ordinances require a signed
/// return). Written to the access log (`return`, `create`).
#[utoipa::path(
    operation_id = "file_return",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath),
    request_body = ReturnFiling,
    responses(
        (status = 201, description = "Filed; the body is the return's first version", body = TaxReturn,
            headers(
                ("Location" = String, description = "Path of the return"),
                ("ETag" = String, description = "Strong entity tag of the version, `\"1\"`")
            )),
        (status = 409, description = "A return for this period is on file (`period`, `return_already_filed`): amend it", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (unknown exemption code, establishments not adding up, not attested, period not ended, `received_on` from an operator); `errors` names each", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/returns")]
pub async fn file(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    body: Result<ApiJson<ReturnFiling>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id) = path.into_inner();
    let today = state.clock.today();
    let record = here
        .write(
            &state,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                ctx.return_filer(&payor_id)?;
                filing::file(conn, &ctx, &municipality.slug, &payor_id, body?.0, today)
            },
        )
        .await?;
    Ok(created(&slug, &TaxReturn::latest(&record)))
}

/// Amend a return: a new version that supersedes the latest (nothing is overwritten).
///
/// Whoever may file for the payor (its operator, the clerk-treasurer, staff). Same body
/// as filing, for the same period, with `If-Match` naming the latest version. The new version is assessed on the original filing's dates (its fee and
/// lateness stay); the response shows the difference in tax: an increase is owed from
/// the original due date, with interest from there; a decrease is a credit. Written to
/// the access log (`return`, `amend`).
#[utoipa::path(
    operation_id = "amend_return",
    tag = "returns",
    security(("bearer" = [])),
    params(
        crate::api::params::ReturnPath,
        ("If-Match" = String, Header, description = "The `ETag` of the latest version, e.g. `\"1\"` (required; stale: 412)")
    ),
    request_body = ReturnFiling,
    responses(
        (status = 201, description = "Amended; the body is the new version", body = TaxReturn,
            headers(
                ("Location" = String, description = "Path of the return"),
                ("ETag" = String, description = "Strong entity tag of the new version")
            )),
        (status = 412, description = "`If-Match` does not name the latest version", body = Problem, content_type = "application/problem+json"),
        (status = 428, description = "`If-Match` is missing", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (another `period` than the return's included)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/returns/{return}/amendments")]
pub async fn amend(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
    if_match: IfMatch,
    body: Result<ApiJson<ReturnFiling>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id, return_id) = path.into_inner();
    let today = state.clock.today();
    let record = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            // Authorise, then judge the body, then `If-Match` (as payor writes do).
            ctx.return_filer(&payor_id)?;
            let body = body?.0;
            let precondition = if_match.required()?;
            filing::amend_return(conn, &ctx, &payor_id, &return_id, precondition, body, today)
        })
        .await?;
    Ok(created(&slug, &TaxReturn::latest(&record)))
}

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
//! new version, `Location` of the return and its new `ETag`. Both honour
//! `Idempotency-Key` (`api::idempotency`): a retry gets the first 201 again.

use actix_web::{HttpResponse, post, web};

use super::{TaxReturn, may_file, return_location};
use crate::{
    api::{
        caller::MunicipalUnit,
        idempotency::{Creating, Reply},
        payors::precondition::{IfMatch, etag},
    },
    domain::returns::ReturnFiling,
    error::{ApiError, Problem},
    usecases::returns::filing,
};

fn created(slug: &str, body: &TaxReturn) -> Result<Reply, ApiError> {
    Ok(
        Reply::created(return_location(slug, &body.payor_id, &body.id), body)?
            .with_etag(etag(body.latest_version)),
    )
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
    params(crate::api::params::PayorPath, crate::api::idempotency::KeyHeader),
    request_body = ReturnFiling,
    responses(
        (status = 201, description = "Filed; the body is the return's first version", body = TaxReturn,
            headers(
                ("Location" = String, description = "Path of the return"),
                ("ETag" = String, description = "Strong entity tag of the version, `\"1\"`")
            )),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key` (`invalid-parameter` naming the header)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A return for this period is on file (`period`, `return_already_filed`): amend it; or a request with this `Idempotency-Key` is still being processed (`Idempotency-Key`, `idempotency_key_in_progress`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (unknown exemption code, establishments not adding up, not attested, period not ended, `received_on` from an operator); `errors` names each; or the `Idempotency-Key` was used for another request (`Idempotency-Key`, `idempotency_key_reused`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/returns")]
pub async fn file(
    path: web::Path<(String, String)>,
    creating: Creating<ReturnFiling>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id) = path.into_inner();
    creating
        .run(
            may_file(&payor_id),
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  },
                  body,
                  today| {
                let record = filing::file(conn, &ctx, &municipality.slug, &payor_id, body, today)?;
                created(&slug, &TaxReturn::latest(&record))
            },
        )
        .await
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
        ("If-Match" = String, Header, description = "The `ETag` of the latest version, e.g. `\"1\"` (required; stale: 412)"),
        crate::api::idempotency::KeyHeader
    ),
    request_body = ReturnFiling,
    responses(
        (status = 201, description = "Amended; the body is the new version", body = TaxReturn,
            headers(
                ("Location" = String, description = "Path of the return"),
                ("ETag" = String, description = "Strong entity tag of the new version")
            )),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key` (`invalid-parameter` naming the header)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this `Idempotency-Key` is still being processed (`Idempotency-Key`, `idempotency_key_in_progress`)", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` does not name the latest version", body = Problem, content_type = "application/problem+json"),
        (status = 428, description = "`If-Match` is missing", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (another `period` than the return's included); or the `Idempotency-Key` was used for another request (`Idempotency-Key`, `idempotency_key_reused`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/returns/{return}/amendments")]
pub async fn amend(
    path: web::Path<(String, String, String)>,
    if_match: IfMatch,
    creating: Creating<ReturnFiling>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id, return_id) = path.into_inner();
    creating
        .run(
            may_file(&payor_id),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                // Authorised; now the body, then `If-Match` (as payor writes do).
                let precondition = if_match.required()?;
                let record = filing::amend_return(
                    conn,
                    &ctx,
                    &payor_id,
                    &return_id,
                    precondition,
                    body,
                    today,
                )?;
                created(&slug, &TaxReturn::latest(&record))
            },
        )
        .await
}

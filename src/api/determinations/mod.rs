//! `POST .../payors/{payor}/determinations` (make a determination: an audit,
//! a non-filer estimate, a fraud finding), `GET .../payors/{payor}/determinations`
//! and `GET .../payors/{payor}/determinations/{determination}`.
//!
//! Contract: thin handlers over `usecases::ledger::determinations`
//! (authorise before the body is judged, one use-case call in the request's
//! unit of work, shape). Making: the clerk-treasurer only, a person (staff
//! and other related roles 403, anyone else 404), `Idempotency-Key`
//! honoured (`api::idempotency`). Reading: the clerk-treasurer, staff and
//! the payor's own operator; anyone else 404; each determination read is in
//! the access log. Dates are the municipality's local calendar date, read
//! from the application's clock.

mod types;

pub use types::*;

use actix_web::{HttpResponse, get, post, web};

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        idempotency::{Creating, Reply, allowed_to},
    },
    app::AppState,
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::ledger::determinations::{self, NewDetermination},
};

/// `/v1/municipalities/{slug}/payors/{payor}/determinations/{id}`.
pub fn determination_location(slug: &str, payor_id: &str, id: &str) -> String {
    format!("/v1/municipalities/{slug}/payors/{payor_id}/determinations/{id}")
}

/// `{municipality}/payors/{payor}/determinations/{determination}`.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct DeterminationPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Payor id (UUID).
    payor: String,
    /// Determination id (UUID).
    determination: String,
}

/// Make a determination: an office or field audit, a non-filer estimate, or a fraud finding.
///
/// Only the clerk-treasurer, a person (the ordinances give the determination to the
/// Clerk-Treasurer); staff and other related roles get 403, anyone else 404. An audit of a
/// quarter with a return on file charges the tax found (from the audited `gross_receipts` and
/// `exempt_receipts`, or `tax_found`) less the tax already assessed; a `non_filer_estimate` of
/// a quarter with no return, after its due date, charges the tax on `estimated_receipts` and
/// the 10 % penalty (Hayward: at most 5,000.00 of such penalties per calendar year across the
/// payor's estimates); `fraud` charges 50 % of the quarter's tax as assessed and audited,
/// exclusive of interest and other penalties. Audits and fraud findings are refused more than
/// 4 years after the return's due date (`determined_on`, rule `four_year_limit`, Wis. Stat.
/// § 66.0615(2)(a)). Interest is computed from the due date, never posted ahead. One ledger
/// journal (kind `determination`) and one written notice (kind `determination` or `estimate`)
/// in the same transaction. A return filed later for an estimated quarter takes back the
/// estimate's tax (journal `estimate_replaced`); the penalty stands. Written to the access
/// log (`determination`, `create`).
#[utoipa::path(
    operation_id = "make_determination",
    tag = "payments",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, crate::api::idempotency::KeyHeader),
    request_body = DeterminationRequest,
    responses(
        (status = 201, description = "Made; its charges, computation, citations, journal and notice", body = Determination,
            headers(("Location" = String, description = "Path of the determination"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The quarter is already estimated (`period`, `already_estimated`); or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Every fault at once: `basis` blank or too long, `period` not a quarter, `determined_on` in the future, before the quarter's end, before the payor's latest payment, before the return's due date (estimate) or beyond the 4-year limit (`four_year_limit`), a figure missing or not of the kind, a return on file for an estimate (`return_filed`) or none for an audit or fraud (`no_return_filed`); or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/determinations")]
pub async fn make(
    path: web::Path<(String, String)>,
    creating: Creating<DeterminationRequest>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id) = path.into_inner();
    creating
        .run(
            allowed_to(Action::MakeDeterminations),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let made = determinations::make(
                    conn,
                    &ctx,
                    &slug,
                    &payor_id,
                    NewDetermination {
                        kind: body.kind,
                        period: body.period,
                        determined_on: body.determined_on,
                        basis: body.basis,
                        gross_receipts: body.gross_receipts,
                        exempt_receipts: body.exempt_receipts,
                        tax_found: body.tax_found,
                        estimated_receipts: body.estimated_receipts,
                    },
                    today,
                )?;
                let location = determination_location(&slug, &payor_id, &made.row.id);
                Reply::created(location, &Determination::from(made))
            },
        )
        .await
}

/// A payor's determinations, oldest first.
///
/// Whoever may see the payor's account: the clerk-treasurer, staff, or the payor's own
/// operator; anyone else gets 404. Each
/// determination listed is written to the access log (`determination`, `read`).
#[utoipa::path(
    operation_id = "list_determinations",
    tag = "payments",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath),
    responses(
        (status = 200, description = "The payor's determinations", body = DeterminationList),
        (status = 404, description = "No such payor, or the caller may not see it", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/determinations")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id) = path.into_inner();
    let items = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            determinations::list(conn, &ctx, &payor_id)
        })
        .await?;
    Ok(HttpResponse::Ok().json(DeterminationList {
        items: items.into_iter().map(Determination::from).collect(),
    }))
}

/// One determination of a payor.
///
/// Whoever may see the payor's account: the clerk-treasurer, staff, or the payor's own
/// operator; anyone else gets 404. Written
/// to the access log (`determination`, `read`).
#[utoipa::path(
    operation_id = "get_determination",
    tag = "payments",
    security(("bearer" = [])),
    params(DeterminationPath),
    responses(
        (status = 200, description = "The determination", body = Determination),
        (status = 404, description = "No such determination, or the caller may not see it", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/determinations/{determination}")]
pub async fn show(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id, id) = path.into_inner();
    let made = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            determinations::get(conn, &ctx, &payor_id, &id)
        })
        .await?;
    Ok(HttpResponse::Ok().json(Determination::from(made)))
}

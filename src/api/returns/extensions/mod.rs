//! Extensions of the time to file a return:
//! `POST|GET .../payors/{payor}/extensions` (ask, list the payor's),
//! `GET /v1/municipalities/{municipality}/extensions` (the clerk's queue),
//! `GET .../extensions/{extension}` and its `/grant` and `/refuse`.
//!
//! Contract: thin handlers over `usecases::returns::extensions` (authorise
//! before judging a body or query, one use-case call in the request's unit
//! of work, shape). A granted extension moves the filing due date (late
//! filing fee, Montello's late-payment forfeiture), never the due date
//! interest runs from. Confidential like returns: every write and every
//! extension shown is in the access log (`return_extension`).

mod types;

pub use types::*;

use actix_web::{HttpResponse, get, post, web};

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::{ApiJson, ApiQuery},
        idempotency::{Idempotency, Reply},
        returns::may_file,
    },
    app::AppState,
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::{
        self,
        returns::extensions::{self as ext, Decide},
    },
};
/// Ask for an extension of the time to file a return.
///
/// Whoever files for the payor: its operator, for its own payor, or the clerk-treasurer or
/// staff for it; anyone else gets 404. The return must not be on file yet, and one request
/// per return may be open (requested or granted). Only a policy with extensions allows one
/// (Montello: up to one month, for good cause); Hayward's ordinance has none (422 citing
/// it). Written to the access log (`return_extension`, `create`).
#[utoipa::path(
    operation_id = "request_extension",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, crate::api::idempotency::KeyHeader),
    request_body = ExtensionRequestBody,
    responses(
        (status = 201, description = "Asked; the clerk-treasurer decides", body = ReturnExtension,
            headers(("Location" = String, description = "Path of the extension"))),
        (status = 409, description = "The return is on file (`period`, `return_already_filed`) or a request for it is open (`period`, `extension_already_open`); or a request with this `Idempotency-Key` is still being processed (`Idempotency-Key`, `idempotency_key_in_progress`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The policy has no extension (`period`, `extension_not_allowed`), the period is not one the payor owes, or the reason is blank or too long; or the `Idempotency-Key` was used for another request (`Idempotency-Key`, `idempotency_key_reused`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/extensions")]
pub async fn request(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    idempotency: Idempotency,
    body: Result<ApiJson<ExtensionRequestBody>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id) = path.into_inner();
    let now = state.clock.now();
    idempotency
        .write_json(
            &state,
            here,
            body,
            may_file(&payor_id),
            move |MunicipalUnit { conn, ctx, .. }, body| {
                let record = ext::request(conn, &ctx, &payor_id, body.period, &body.reason, now)?;
                let location = extension_location(&slug, &record.row.id);
                Reply::created(location, &ReturnExtension::from(record))
            },
        )
        .await
}

/// The payor's extension requests and decisions, newest first.
///
/// Whoever may read the payor's returns: its operator, the clerk-treasurer, staff, a
/// disclosure grantee for it; anyone else gets 404. Each extension shown is written to
/// the access log (`return_extension`, `read`).
#[utoipa::path(
    operation_id = "list_payor_extensions",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, ExtensionListParams),
    responses((status = 200, description = "A page of the payor's extensions", body = ExtensionList))
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/extensions")]
pub async fn of_payor(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    params: Result<ApiQuery<ExtensionListParams>, ApiError>,
) -> Result<web::Json<ExtensionList>, ApiError> {
    let (_, payor_id) = path.into_inner();
    let list = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            usecases::returns::reading_for(conn, &ctx, &payor_id)?;
            let (page, query) = params?.0.page()?;
            let records = ext::of_payor(conn, &ctx, &payor_id, query)?;
            Ok(listed(&page, records))
        })
        .await?;
    Ok(web::Json(list))
}

/// The municipality's extension requests, newest first: `status=requested` is the queue.
///
/// Clerk-treasurer and staff only (the municipality's reviewers of returns). Each
/// extension shown is written to the access log (`return_extension`, `read`).
#[utoipa::path(
    operation_id = "list_extensions",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, ExtensionListParams),
    responses((status = 200, description = "A page of the municipality's extensions", body = ExtensionList))
)]
#[get("/v1/municipalities/{municipality}/extensions")]
pub async fn of_municipality(
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<ExtensionListParams>, ApiError>,
) -> Result<web::Json<ExtensionList>, ApiError> {
    let list = here
        .read_for(
            &state,
            Action::ReviewReturns,
            move |MunicipalUnit { conn, ctx, .. }| {
                let (page, query) = params?.0.page()?;
                let records = ext::of_municipality(conn, &ctx, query)?;
                Ok(listed(&page, records))
            },
        )
        .await?;
    Ok(web::Json(list))
}

/// One extension request and its decision.
///
/// Whoever may read the payor's returns (its operator, the clerk-treasurer, staff, a
/// disclosure grantee for it); anyone else gets 404. Written to the access log
/// (`return_extension`, `read`).
#[utoipa::path(
    operation_id = "get_extension",
    tag = "returns",
    security(("bearer" = [])),
    params(ExtensionPath),
    responses((status = 200, description = "The extension", body = ReturnExtension))
)]
#[get("/v1/municipalities/{municipality}/extensions/{extension}")]
pub async fn show(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<web::Json<ReturnExtension>, ApiError> {
    let (_, id) = path.into_inner();
    let record = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ext::show(conn, &ctx, &id)
        })
        .await?;
    Ok(web::Json(record.into()))
}

async fn decide(
    state: web::Data<AppState>,
    here: InMunicipality,
    id: String,
    decision: Result<Decide, ApiError>,
) -> Result<web::Json<ReturnExtension>, ApiError> {
    let now = state.clock.now();
    let record = here
        .write_for(
            &state,
            Action::DecideExtensions,
            move |MunicipalUnit { conn, ctx, .. }| ext::decide(conn, &ctx, &id, decision?, now),
        )
        .await?;
    Ok(web::Json(record.into()))
}

/// Grant an extension: the return's filing due date moves to `extended_to`.
///
/// Clerk-treasurer or staff, a person (the decision names who made it). The date must be
/// after the due date and at most the policy's limit past it (Montello: one month); it
/// moves the date the late filing fee and the late-payment forfeiture's 30 days count
/// from, never the due date interest runs from. A request is decided once (409). Written
/// to the access log (`return_extension`, `grant`).
#[utoipa::path(
    operation_id = "grant_extension",
    tag = "returns",
    security(("bearer" = [])),
    params(ExtensionPath),
    request_body = ExtensionGrant,
    responses(
        (status = 200, description = "Granted", body = ReturnExtension),
        (status = 409, description = "Already decided (`status`, `extension_already_decided`) or the return came in meanwhile (`period`, `return_already_filed`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`extended_to` not after the due date or beyond the limit; `note` blank or too long", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/extensions/{extension}/grant")]
pub async fn grant(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    body: Result<ApiJson<ExtensionGrant>, ApiError>,
) -> Result<web::Json<ReturnExtension>, ApiError> {
    let (_, id) = path.into_inner();
    let decision = body.map(|b| Decide::Grant {
        extended_to: b.0.extended_to,
        note: b.0.note,
    });
    decide(state, here, id, decision).await
}

/// Refuse an extension, with the reason.
///
/// Clerk-treasurer or staff, a person (the decision names who made it). The return stays
/// due on its due date. A request is decided once (409). Written to the access log
/// (`return_extension`, `refuse`).
#[utoipa::path(
    operation_id = "refuse_extension",
    tag = "returns",
    security(("bearer" = [])),
    params(ExtensionPath),
    request_body = ExtensionRefusal,
    responses(
        (status = 200, description = "Refused", body = ReturnExtension),
        (status = 409, description = "Already decided (`status`, `extension_already_decided`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`reason` blank or too long", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/extensions/{extension}/refuse")]
pub async fn refuse(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    body: Result<ApiJson<ExtensionRefusal>, ApiError>,
) -> Result<web::Json<ReturnExtension>, ApiError> {
    let (_, id) = path.into_inner();
    let decision = body.map(|b| Decide::Refuse { reason: b.0.reason });
    decide(state, here, id, decision).await
}

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

use actix_web::{HttpResponse, get, post, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::{
        admin::Page,
        caller::{InMunicipality, MunicipalUnit},
        extract::{ApiJson, ApiQuery},
        idempotency::{Idempotency, Reply, json_body},
    },
    app::AppState,
    db::returns::extensions::ExtensionQuery,
    domain::{DateLine, Period, extension::ExtensionStatus},
    error::{ApiError, Problem},
    tenancy::{Action, MunicipalityContext},
    usecases::{
        self,
        returns::extensions::{self as ext, Decide, ExtensionRecord},
    },
};

/// `{municipality}/extensions/{extension}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct ExtensionPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Extension id (UUID).
    extension: String,
}

/// `/v1/municipalities/{slug}/extensions/{id}`.
pub fn extension_location(slug: &str, id: &str) -> String {
    format!("/v1/municipalities/{slug}/extensions/{id}")
}

/// A request for more time to file a return.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtensionRequestBody {
    /// The return's period: "2026-Q1", "2026" or "FY2026-06" (not yet filed).
    pub period: Period,
    /// The good cause, in words (at most 2,000 characters).
    #[schema(max_length = 2000, example = "the bookkeeper is in hospital")]
    pub reason: String,
}

/// The clerk-treasurer's grant.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtensionGrant {
    /// The new filing due date: after the due date, at most the policy's limit past it
    /// (Montello: one month, see `latest_extended_to`).
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub extended_to: NaiveDate,
    /// A note for the record (optional, at most 2,000 characters).
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub note: Option<String>,
}

/// The clerk-treasurer's refusal.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtensionRefusal {
    /// Why the request is refused (at most 2,000 characters).
    #[schema(max_length = 2000, example = "no good cause shown")]
    pub reason: String,
}

/// An extension request and its decision.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReturnExtension {
    /// Extension id.
    pub id: String,
    /// The payor whose return it is.
    pub payor_id: String,
    /// The return's period.
    pub period: Period,
    /// `requested`, `granted` or `refused`.
    #[schema(value_type = String, example = "requested")]
    pub status: ExtensionStatus,
    /// The good cause given.
    pub reason: String,
    /// Who asked: `user:<id>` (the operator, or the clerk-treasurer or staff for it).
    pub requested_by: String,
    /// When it was asked (UTC).
    pub requested_at: DateTime<Utc>,
    /// The return's due date: interest runs from it, whatever is granted.
    pub due_date: NaiveDate,
    /// The latest filing due date a grant may set (null where the policy has no extension).
    pub latest_extended_to: Option<NaiveDate>,
    /// The granted filing due date (null unless granted).
    pub extended_to: Option<NaiveDate>,
    /// The date the return must be filed by: `extended_to` when granted, else the due date.
    pub filing_due_date: NaiveDate,
    /// The refusal's reason, or the grant's note (null when none).
    pub decision_reason: Option<String>,
    /// Who decided: `user:<id>` (null until decided).
    pub decided_by: Option<String>,
    /// When it was decided (UTC; null until decided).
    pub decided_at: Option<DateTime<Utc>>,
    /// The due date and the filing due date explained, with their citations.
    pub dates: Vec<DateLine>,
}

impl From<ExtensionRecord> for ReturnExtension {
    fn from(r: ExtensionRecord) -> Self {
        let row = r.row;
        ReturnExtension {
            id: row.id,
            payor_id: row.payor_id,
            period: r.period,
            status: r.status,
            reason: row.reason,
            requested_by: row.requested_by,
            requested_at: row.requested_at.and_utc(),
            due_date: r.window.due.date,
            latest_extended_to: r.window.limit,
            extended_to: row.extended_to,
            filing_due_date: r.window.filing_due.date,
            decision_reason: row.decision_reason,
            decided_by: row.decided_by,
            decided_at: row.decided_at.map(|at| at.and_utc()),
            dates: vec![r.window.due, r.window.filing_due],
        }
    }
}

/// A page of extensions, newest request first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExtensionList {
    /// The extensions on this page.
    pub items: Vec<ReturnExtension>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// The filter and page of a list of extensions.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExtensionListParams {
    /// Only extensions with this status: `requested` (waiting for a decision), `granted`, `refused`.
    #[param(value_type = Option<String>, example = "requested")]
    pub status: Option<ExtensionStatus>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

impl ExtensionListParams {
    fn page(self) -> Result<(Page, ExtensionQuery), ApiError> {
        let page = Page::parse(self.limit, self.cursor.as_deref())?;
        let query = ExtensionQuery {
            payor_id: None,
            status: self.status.map(|s| s.as_str().to_owned()),
            before: page.before.clone(),
            limit: i64::from(page.limit),
        };
        Ok((page, query))
    }
}

fn listed(page: &Page, records: Vec<ExtensionRecord>) -> ExtensionList {
    let next_cursor = page.next(&records, |r| (r.row.requested_at, r.row.id.clone()));
    ExtensionList {
        items: records.into_iter().map(Into::into).collect(),
        next_cursor,
    }
}

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
    let authorise = {
        let payor_id = payor_id.clone();
        move |ctx: &MunicipalityContext| ctx.return_filer(&payor_id)
    };
    idempotency
        .write(
            &state,
            here,
            json_body(&body),
            authorise,
            move |MunicipalUnit { conn, ctx, .. }| {
                let body = body?.0;
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
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
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
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ctx.require(Action::ReviewReturns)?;
            let (page, query) = params?.0.page()?;
            let records = ext::of_municipality(conn, &ctx, query)?;
            Ok(listed(&page, records))
        })
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
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
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

//! `/v1/zones/{zone}/expenditure-reports`: the tourism entity files and
//! amends its expenditure reports; commission members and the tourism entity
//! read them; the commission reviews (`review`); receipts and invoices
//! (`attachments`); member municipalities' inspection requests
//! (`inspections`).
//!
//! Contract: thin handlers over `usecases::expenditures` (authorise through
//! the zone context before the body is judged, one use-case call in the
//! request's one unit of work, shape the response). Readers: commission
//! members, the tourism entity and the zone's API clients; the zone admin
//! and member municipalities' users are related to the zone (403), anyone
//! else 404. A report's `ETag` is its latest version; an amendment needs
//! `If-Match` naming it (428 without, 412 when stale). No
//! `Idempotency-Key`: a zone has one report per period, so a retried filing
//! answers 409 `one_report_per_period` naming the report filed.

pub mod attachments;
pub mod inspections;
pub mod review;
mod types;

pub use types::*;

use actix_web::{
    HttpResponse, get,
    http::header::{ETAG, LOCATION},
    post, web,
};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::{
    api::{
        caller::{InZone, ZoneUnit},
        extract::{ApiJson, ApiQuery},
        payors::{IfMatch, precondition::etag},
    },
    app::AppState,
    error::{ApiError, Problem},
    tenancy::ZoneAction,
    usecases::expenditures::{self, ReportView, filing},
};

/// `{zone}/expenditure-reports/{report}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub(crate) struct ReportPath {
    /// Zone slug, e.g. `marquette-county`.
    zone: String,
    /// Report id (UUID).
    report: String,
}

/// Which reports to list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListParams {
    /// Only reports whose period starts or ends in this calendar year.
    #[param(minimum = 1990, maximum = 2200)]
    pub year: Option<i32>,
}

/// Which version to show.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ShowParams {
    /// A version number (default: the latest); earlier versions stay readable.
    #[param(minimum = 1)]
    pub version: Option<i64>,
}

/// The path of a report.
pub(crate) fn report_location(zone: &str, id: &str) -> String {
    format!("/v1/zones/{zone}/expenditure-reports/{id}")
}

/// The report as a response with its `ETag` (the latest version) and `Location`.
fn answer(
    mut response: actix_web::HttpResponseBuilder,
    zone: &str,
    view: &ReportView,
) -> Result<HttpResponse, ApiError> {
    let out = ExpenditureReport::of(view)?;
    Ok(response
        .insert_header((LOCATION, report_location(zone, &out.id)))
        .insert_header((ETAG, etag(out.latest_version)))
        .json(out))
}

/// File an expenditure report (version 1).
///
/// Only the tourism entity, as a person (commission members, the zone admin and member
/// municipalities' users 403; anyone else 404). The period covers at most a year; each
/// expenditure of $1,000.00 or more is an item of its own (Form SL-304 lists them),
/// smaller ones may be summed by category (a summed line's amount is less than
/// $1,000.00 × its count). Categories of Wis. Stat. § 66.0615(1)(fm): `marketing_projects`,
/// `tourist_information_services`, `tangible_municipal_development`, plus `administration`
/// and `other` (with an `explanation`). Every line states
/// `constructs_or_develops_lodging_facility`; a lodging facility (that statement `true`,
/// or category `lodging_facility_construction`) is refused with 409
/// `no_lodging_facility`: "No room tax revenue may be used to construct or develop a
/// lodging facility" (Montello room tax, distribution ¶B). The totals show received,
/// spent and carried over (negative: a deficit).
#[utoipa::path(
    operation_id = "file_expenditure_report",
    tag = "expenditures",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath),
    request_body = ReportIn,
    responses(
        (status = 201, description = "Filed", body = ExpenditureReport,
            headers(("Location" = String, description = "Path of the report"), ("ETag" = String, description = "The latest version, e.g. `\"1\"`"))),
        (status = 409, description = "`no_lodging_facility` (Montello room tax, distribution ¶B; Wis. Stat. § 66.0615(1)(fm)) or `one_report_per_period`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule: `at_most_one_year`, `within_period`, `positive`, `summed_items_under_1000`, `explanation_required_for_other`, `no_control_characters`, ...", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/expenditure-reports")]
pub async fn file(
    state: web::Data<AppState>,
    here: InZone,
    body: Result<ApiJson<ReportIn>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let zone = here.slug().to_owned();
    let now = crate::api::stamp::now(&state);
    let view = here
        .write_for(
            &state,
            ZoneAction::FileExpenditureReports,
            move |ZoneUnit { conn, ctx, .. }| filing::file(conn, &ctx, body?.0.into(), now),
        )
        .await?;
    answer(HttpResponse::Created(), &zone, &view)
}

/// Amend a report: a new version (the old ones stay readable).
///
/// Only the tourism entity, as a person. `If-Match` names the latest version (428
/// without, 412 when stale). A report returned for correction is corrected this way; an
/// accepted report cannot be amended (409 `accepted_reports_are_final`). The body and its
/// rules are those of filing.
#[utoipa::path(
    operation_id = "amend_expenditure_report",
    tag = "expenditures",
    security(("bearer" = [])),
    params(ReportPath, IfMatch),
    request_body = ReportIn,
    responses(
        (status = 201, description = "The new version", body = ExpenditureReport,
            headers(("Location" = String, description = "Path of the report"), ("ETag" = String, description = "The new latest version"))),
        (status = 409, description = "`accepted_reports_are_final`, `no_lodging_facility` or `one_report_per_period`", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` does not name the latest version", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule (as for filing)", body = Problem, content_type = "application/problem+json"),
        (status = 428, description = "`If-Match` is missing", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/expenditure-reports/{report}/versions")]
pub async fn amend(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
    if_match: IfMatch,
    body: Result<ApiJson<ReportIn>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (zone, report) = path.into_inner();
    let now = crate::api::stamp::now(&state);
    let view = here
        .write_for(
            &state,
            ZoneAction::FileExpenditureReports,
            move |ZoneUnit { conn, ctx, .. }| {
                let body = body?.0;
                filing::amend(conn, &ctx, &report, if_match.required(), body.into(), now)
            },
        )
        .await?;
    answer(HttpResponse::Created(), &zone, &view)
}

/// The zone's expenditure reports, each at its latest version.
///
/// Only commission members, the tourism entity and the zone's API clients; the zone admin
/// and member municipalities' users 403, anyone else 404. By period; `year` keeps those whose
/// period starts or ends in it.
#[utoipa::path(
    operation_id = "list_expenditure_reports",
    tag = "expenditures",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath, ListParams),
    responses(
        (status = 200, description = "The reports", body = ExpenditureReportList)
    )
)]
#[get("/v1/zones/{zone}/expenditure-reports")]
pub async fn list(
    state: web::Data<AppState>,
    here: InZone,
    query: Result<ApiQuery<ListParams>, ApiError>,
) -> Result<web::Json<ExpenditureReportList>, ApiError> {
    let views = here
        .read_for(
            &state,
            ZoneAction::ReadExpenditureReports,
            move |ZoneUnit { conn, ctx, .. }| expenditures::list(conn, &ctx, query?.0.year),
        )
        .await?;
    Ok(web::Json(ExpenditureReportList {
        items: views
            .iter()
            .map(ExpenditureReport::of)
            .collect::<Result<_, _>>()?,
    }))
}

/// One expenditure report with its review trail (any version).
///
/// Only commission members, the tourism entity and the zone's API clients (as for the list). Items of $1,000.00 or more are flagged
/// `listed_individually_for_sl304`. The `ETag` is the latest version.
#[utoipa::path(
    operation_id = "get_expenditure_report",
    tag = "expenditures",
    security(("bearer" = [])),
    params(ReportPath, ShowParams),
    responses(
        (status = 200, description = "The report", body = ExpenditureReport,
            headers(("ETag" = String, description = "The latest version, e.g. `\"2\"`")))
    )
)]
#[get("/v1/zones/{zone}/expenditure-reports/{report}")]
pub async fn show(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
    query: Result<ApiQuery<ShowParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (zone, report) = path.into_inner();
    let view = here
        .read_for(
            &state,
            ZoneAction::ReadExpenditureReports,
            move |ZoneUnit { conn, ctx, .. }| {
                expenditures::show(conn, &ctx, &report, query?.0.version)
            },
        )
        .await?;
    answer(HttpResponse::Ok(), &zone, &view)
}

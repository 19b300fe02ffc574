//! The zone's pages (issue 11 items 5, 6 and 8): the tourism entity's
//! expenditure reports, the commission's review, the members' remittances,
//! seats, reports back and SL-304 figures, and the charts; the correction
//! of a returned report, the answers to the commission's questions, the
//! members' inspection requests, and the zone admin's roster, membership
//! (invitations) and access log.
//!
//! Contract: every page enters the zone through `api::caller::InZone` with
//! the person's web session (the same grants, tenancy gate and row-level
//! security as the API) and calls the same use-case function as the API's
//! endpoint for the same figures (`usecases::expenditures`,
//! `usecases::remittances::view`, `usecases::reports`); the use case
//! authorises, so a page shows exactly what the API lets the person see in
//! the zone: a role without the action gets the 403 page, a person with no
//! role in the zone the 404 page. No page here reads an operator's figure:
//! the zone's use cases hold totals per municipality only. POST forms carry
//! the CSRF token (checked first) and answer `303 See Other`.

pub mod amend;
pub mod charts;
pub mod draft;
pub mod home;
pub mod inspections;
pub mod log;
pub mod members;
pub mod membership;
pub mod remittances;
pub mod report;
pub mod reports;
pub mod review;
pub mod roster;
pub mod upload;

use actix_web::web;
use chrono::{Datelike, NaiveDate, NaiveDateTime};

use super::{WebError, session::Visit};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    error::ApiError,
};

/// Mount the zone's pages (inside the `/app` scope).
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/z/{zone}/expenditures", web::get().to(reports::list))
        .route("/z/{zone}/expenditures/new", web::get().to(draft::form))
        .route("/z/{zone}/expenditures/new", web::post().to(draft::submit))
        .route(
            "/z/{zone}/expenditures/{report}",
            web::get().to(report::show),
        )
        .route(
            "/z/{zone}/expenditures/{report}/review",
            web::post().to(review::act),
        )
        .route(
            "/z/{zone}/expenditures/{report}/review/{act}/answer",
            web::post().to(review::answer),
        )
        .route(
            "/z/{zone}/expenditures/{report}/amend",
            web::get().to(amend::form),
        )
        .route(
            "/z/{zone}/expenditures/{report}/amend",
            web::post().to(amend::submit),
        )
        .route("/z/{zone}/inspections", web::get().to(inspections::page))
        .route(
            "/z/{zone}/inspections",
            web::post().to(inspections::request),
        )
        .route(
            "/z/{zone}/inspections/{id}/answer",
            web::post().to(inspections::answer),
        )
        .route("/z/{zone}/roster", web::get().to(roster::page))
        .route("/z/{zone}/roster", web::post().to(roster::add))
        .route("/z/{zone}/roster/{member}/end", web::post().to(roster::end))
        .route("/z/{zone}/members", web::get().to(membership::page))
        .route(
            "/z/{zone}/members/invitations",
            web::post().to(membership::invite),
        )
        .route(
            "/z/{zone}/members/invitations/{id}/withdraw",
            web::post().to(membership::withdraw),
        )
        .route(
            "/z/{zone}/members/{municipality}/leave",
            web::post().to(membership::leave),
        )
        .route("/z/{zone}/access-log", web::get().to(log::page))
        .service(
            web::resource("/z/{zone}/expenditures/{report}/attachments")
                .app_data(web::PayloadConfig::new(crate::web::multipart::MAX_BODY))
                .route(web::post().to(upload::attach)),
        )
        .route(
            "/z/{zone}/expenditures/{report}/attachments/{attachment}",
            web::get().to(upload::download),
        )
        .route("/z/{zone}/remittances", web::get().to(remittances::show))
        .route(
            "/z/{zone}/report-back/{municipality}",
            web::get().to(members::report_back),
        )
        .route(
            "/z/{zone}/sl-304/{municipality}",
            web::get().to(members::state_report),
        )
        .route("/z/{zone}/charts", web::get().to(charts::page))
        .route(
            "/z/{zone}/charts/collections.svg",
            web::get().to(charts::collections_svg),
        )
        .route(
            "/z/{zone}/charts/spending.svg",
            web::get().to(charts::spending_svg),
        );
}

pub(crate) use super::caller_of;

/// The path of the zone's pages.
pub(crate) fn base(zone: &str) -> String {
    format!("/app/z/{zone}")
}

/// `?year=` of a page (the current year when absent), parsed as the API parses it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct YearParams {
    year: Option<i32>,
}

/// The year asked for in `query`, or `today`'s.
pub(crate) fn year_of(query: &str, today: NaiveDate) -> Result<i32, WebError> {
    let p: YearParams = crate::api::extract::parse_query(query)?;
    Ok(p.year.unwrap_or(today.year()))
}

/// What a refused form held, shown again with the API's problem: the
/// values by field name, the errors (named as the page names its fields)
/// and the problem's detail.
#[derive(Default)]
pub(crate) struct Entered {
    pub(crate) values: Vec<(String, String)>,
    pub(crate) errors: Vec<crate::error::FieldError>,
    pub(crate) problem: Option<String>,
}

impl Entered {
    /// The value entered in `name` ("" when none).
    pub(crate) fn value(&self, name: &str) -> &str {
        self.values
            .iter()
            .find(|(k, _)| k == name)
            .map_or("", |(_, v)| v.as_str())
    }

    /// The form's `names` as entered in `form`, with `err`'s problem (a 422
    /// or a 409; anything else is the error page), each error's field
    /// renamed by `field`.
    pub(crate) fn refused(
        form: &super::FormData,
        names: &[String],
        err: ApiError,
        field: impl Fn(&str) -> String,
    ) -> Result<(Entered, actix_web::http::StatusCode), WebError> {
        use actix_web::ResponseError as _;
        if !matches!(err, ApiError::Validation(_) | ApiError::RuleConflict(_)) {
            return Err(err.into());
        }
        let problem = err.to_problem();
        let entered = Entered {
            values: names
                .iter()
                .map(|n| (n.clone(), form.shown(n).to_owned()))
                .collect(),
            errors: problem
                .errors
                .iter()
                .map(|e| crate::error::FieldError {
                    field: field(&e.field),
                    ..e.clone()
                })
                .collect(),
            problem: Some(problem.detail),
        };
        Ok((entered, err.status_code()))
    }
}

/// A zone form's `work` in one write unit of the zone `slug`, given the
/// clock: today, and now to the microsecond (what the databases store).
/// The outer error is the page's (no session: the sign-in page); the inner
/// one is the work's, for the form to show.
pub(crate) async fn write<T, W>(
    state: &AppState,
    visit: &Visit,
    slug: &str,
    work: W,
) -> Result<Result<T, ApiError>, WebError>
where
    T: Send + 'static,
    W: for<'c> FnOnce(ZoneUnit<'c>, NaiveDate, NaiveDateTime) -> Result<T, ApiError>
        + Send
        + 'static,
{
    let today = state.clock.today();
    let now = crate::api::stamp::now(state);
    let here = InZone::new(caller_of(visit)?, slug.to_owned());
    Ok(here.write(state, move |unit| work(unit, today, now)).await)
}

/// The date in `form`'s field `name` (`None` when blank); a date that does
/// not parse is a fault of the API's field `field`.
pub(crate) fn date_field(
    form: &super::FormData,
    name: &str,
    field: &str,
    faults: &mut Vec<crate::error::FieldError>,
) -> Option<NaiveDate> {
    let raw = form.get(name)?;
    NaiveDate::parse_from_str(raw, "%Y-%m-%d")
        .map_err(|_| {
            faults.push(crate::error::FieldError::new(
                field,
                "date",
                "a date such as 2026-05-12 (year-month-day)",
            ))
        })
        .ok()
}

/// How a form on a row names its fields for [`Entered::refused`]: the API's
/// `fields` are the row's one field `to` (`term_end-{member}`), any other
/// field keeps its name.
pub(crate) fn row_field(fields: &'static [&'static str], to: String) -> impl Fn(&str) -> String {
    move |f| {
        if fields.contains(&f) {
            to.clone()
        } else {
            f.to_owned()
        }
    }
}

/// Words for a stored snake_case name (`marketing_projects` → `marketing projects`).
pub(crate) fn words(raw: &str) -> String {
    raw.replace('_', " ")
}

//! `GET /v1/zones/{zone}/statistics?year=` and
//! `GET /v1/municipalities/{municipality}/statistics?year=`: public tables of
//! room tax collected by municipality and quarter (issue 10, item 8).
//!
//! Contract: public, no sign-in; thin handlers over `usecases::statistics`.
//! Each cell is an amount or `withheld` with the reason's sentence; column
//! totals likewise; row totals and the grand total always; the rule stated.
//! No payor count and nothing per payor is ever in these answers. JSON, or
//! CSV with `Accept: text/csv` (slugs and names quoted, never read as a
//! formula). `Cache-Control: public, max-age=300`.

use crate::api::csv::field;
use actix_web::{HttpRequest, HttpResponse, get, http::header, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::{
        caller::{PublicMunicipality, PublicZone},
        extract::ApiQuery,
    },
    app::AppState,
    domain::Money,
    error::{ApiError, Problem},
    usecases::statistics::{self, RULE, Statistics},
};

/// Which year to publish.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StatisticsParams {
    /// Calendar year, e.g. 2026 (1990 to 2200); by default the year of the last quarter that has ended.
    pub year: Option<i32>,
}

/// One quarter of one municipality.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StatisticsCell {
    /// The quarter, e.g. "2026-Q1".
    pub period: String,
    /// `submitted` (the member's latest submission to its zone), `ledger` (computed from the municipality's ledger), `not_submitted` or `not_a_member` (counted as nothing collected).
    pub source: String,
    /// Room tax collected, when shown (null when withheld).
    pub tax_collected: Option<Money>,
    /// Whether the figure is withheld.
    pub withheld: bool,
    /// `fewer_than_three_payors` or `complementary`, when withheld.
    pub reason: Option<String>,
    /// The reason's sentence, when withheld.
    pub explanation: Option<String>,
}

/// One municipality's year.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StatisticsRow {
    /// The municipality's slug.
    pub municipality: String,
    /// Its name.
    pub name: String,
    /// One cell per quarter listed.
    pub quarters: Vec<StatisticsCell>,
    /// The municipality's total for the quarters listed (always shown: its annual room tax is public on Form SL-304).
    pub total: Money,
    /// A note when every quarter with payors rests on fewer than three payors (the year is shown all the same).
    pub note: Option<String>,
}

/// A quarter's total over the municipalities.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StatisticsColumnTotal {
    /// The quarter.
    pub period: String,
    /// The total, when shown.
    pub tax_collected: Option<Money>,
    /// Whether the total is withheld (so that no withheld cell can be worked out from it).
    pub withheld: bool,
}

/// The published table.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PublicStatistics {
    /// The zone's or municipality's slug.
    pub of: String,
    /// The year.
    pub year: i32,
    /// The quarters of the year that have ended.
    pub periods: Vec<String>,
    /// One row per municipality, by slug.
    pub rows: Vec<StatisticsRow>,
    /// Per quarter.
    pub quarter_totals: Vec<StatisticsColumnTotal>,
    /// The grand total (always shown).
    pub total: Money,
    /// The rule applied.
    pub rule: String,
}

impl PublicStatistics {
    /// Shape the use case's table for people (the web portal shows the same).
    pub fn of(slug: String, s: Statistics) -> Self {
        PublicStatistics {
            of: slug,
            year: s.year,
            periods: s.periods.iter().map(ToString::to_string).collect(),
            rows: s
                .rows
                .into_iter()
                .map(|r| StatisticsRow {
                    municipality: r.municipality,
                    name: r.name,
                    quarters: r
                        .cells
                        .into_iter()
                        .map(|c| StatisticsCell {
                            period: c.period.to_string(),
                            source: c.source.as_str().to_owned(),
                            tax_collected: c.tax_collected,
                            withheld: c.withheld.is_some(),
                            reason: c.withheld.map(|w| w.as_str().to_owned()),
                            explanation: c.withheld.map(|w| w.explain().to_owned()),
                        })
                        .collect(),
                    total: r.total,
                    note: r.rests_on_few.then(|| {
                        "every quarter with payors rests on fewer than three payors; the year's total is shown because it is public on Form SL-304 (Wis. Stat. § 66.0615(4))".to_owned()
                    }),
                })
                .collect(),
            quarter_totals: s
                .column_totals
                .into_iter()
                .map(|c| StatisticsColumnTotal {
                    period: c.period.to_string(),
                    tax_collected: c.tax_collected,
                    withheld: c.withheld,
                })
                .collect(),
            total: s.total,
            rule: RULE.to_owned(),
        }
    }
}

/// One line per municipality and quarter, then the quarter totals and the
/// grand total (`withheld` in place of a withheld amount).
fn csv(s: &PublicStatistics) -> String {
    let shown = |m: &Option<Money>| m.map_or_else(|| "withheld".to_owned(), |m| m.to_string());
    let mut out = String::from("municipality,name,period,tax_collected,reason\r\n");
    for r in &s.rows {
        for c in &r.quarters {
            out.push_str(&format!(
                "{},{},{},{},{}\r\n",
                field(&r.municipality),
                field(&r.name),
                c.period,
                shown(&c.tax_collected),
                c.reason.as_deref().unwrap_or(""),
            ));
        }
        out.push_str(&format!(
            "{},{},{},{},\r\n",
            field(&r.municipality),
            field(&r.name),
            s.year,
            r.total
        ));
    }
    for c in &s.quarter_totals {
        out.push_str(&format!(
            "total,,{},{},\r\n",
            c.period,
            shown(&c.tax_collected)
        ));
    }
    out.push_str(&format!("total,,{},{},\r\n", s.year, s.total));
    out
}

fn answer(req: &HttpRequest, body: PublicStatistics) -> HttpResponse {
    let mut ok = HttpResponse::Ok();
    ok.insert_header((header::CACHE_CONTROL, "public, max-age=300"));
    crate::api::csv::or_json_in(ok, req, body, csv)
}

/// The zone's room tax collected by member and quarter, with small cells withheld.
///
/// Public, no sign-in. Each member's latest submitted tax collected per quarter of the
/// year that has ended (during its membership). Cells built from fewer than three payors
/// are withheld, and so are others where needed so that none can be worked out by
/// subtraction; members' year totals and the grand total are always shown. No payor
/// count and nothing per payor. `Accept: text/csv` answers CSV.
#[utoipa::path(
    operation_id = "get_zone_statistics",
    tag = "zones",
    params(crate::api::params::ZonePath, StatisticsParams),
    responses(
        (status = 200, description = "The table", content(
            (PublicStatistics = "application/json"),
            (String = "text/csv")
        )),
        (status = 400, description = "Unparseable year", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`year` out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/zones/{zone}/statistics")]
pub async fn of_zone(
    req: HttpRequest,
    state: web::Data<AppState>,
    at: PublicZone,
    ApiQuery(params): ApiQuery<StatisticsParams>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let body = at
        .read(&state, move |conn, zone| {
            let s = statistics::of_zone(conn, &zone, params.year, today)?;
            Ok(PublicStatistics::of(zone.slug, s))
        })
        .await?;
    Ok(answer(&req, body))
}

/// The municipality's room tax collected by quarter, with small cells withheld.
///
/// Public, no sign-in. A quarter in which the municipality remits to a zone shows its
/// latest submission; any other quarter is computed from its ledger (tax principal
/// received in the quarter). The same suppression as the zone's table; the year's total
/// is always shown. No payor count and nothing per payor. `Accept: text/csv` answers CSV.
#[utoipa::path(
    operation_id = "get_municipality_statistics",
    tag = "municipalities",
    params(crate::api::params::MunicipalityPath, StatisticsParams),
    responses(
        (status = 200, description = "The table", content(
            (PublicStatistics = "application/json"),
            (String = "text/csv")
        )),
        (status = 400, description = "Unparseable year", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`year` out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/statistics")]
pub async fn of_municipality(
    req: HttpRequest,
    state: web::Data<AppState>,
    at: PublicMunicipality,
    ApiQuery(params): ApiQuery<StatisticsParams>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let body = at
        .read(&state, move |conn, muni| {
            let s = statistics::of_municipality(conn, &muni, params.year, today)?;
            Ok(PublicStatistics::of(muni.slug, s))
        })
        .await?;
    Ok(answer(&req, body))
}

//! `GET /v1/zones/{zone}/reports/{municipality}?year=` (the commission's
//! report back to a member: JSON, CSV or a printable HTML page) and
//! `GET /v1/municipalities/{municipality}/state-report?year=` (Form SL-304's
//! figures, public: JSON or CSV).
//!
//! Contract: thin handlers over `usecases::reports` (which authorises the
//! report back before the query is judged; the state report is public).
//! Totals per municipality only: no payor is named and no payor's figure is
//! in either answer. CSV fields go through [`field`] (quoted, never read as
//! a formula); every value on the HTML page goes through [`html`] (escaped),
//! and the page loads no external asset (its print stylesheet is inline).

use crate::api::csv::{field, opt};
use actix_web::{HttpRequest, HttpResponse, get, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::{
        caller::{InZone, PublicMunicipality, ZoneUnit},
        extract::ApiQuery,
        remittances::views::YearParams,
    },
    app::AppState,
    domain::{
        Money,
        expenditure::{Category, review::Status},
        remittance::RemittanceStatus,
        state_report::{REPORT_BACK_CITATION, SL304_CITATION},
    },
    error::{ApiError, Problem},
    usecases::reports::{
        self, ReportBack, Spending, measure_totals,
        state::{self, StateReport},
    },
};

/// `{zone}/reports/{municipality}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub(crate) struct ReportBackPath {
    /// Zone slug, e.g. `marquette-county`.
    zone: String,
    /// The member municipality's slug, e.g. `montello`.
    municipality: String,
}

/// One quarter the member contributed.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ContributionOut {
    /// The quarter, e.g. `2026-Q1`.
    pub period: String,
    /// `due`, `submitted`, `paid` or `missing`.
    pub status: RemittanceStatus,
    /// When the quarter's remittance is due.
    #[schema(value_type = String, format = Date)]
    pub due_on: NaiveDate,
    /// Room tax the member collected in the quarter (latest version), if submitted.
    pub tax_collected: Option<Money>,
    /// The commission's share submitted (latest version), if submitted.
    pub commission_share: Option<Money>,
    /// Transferred to the commission so far.
    pub transferred: Money,
    /// The commission's share not yet transferred.
    pub outstanding: Money,
    /// The date of the latest transfer, if any.
    #[schema(value_type = Option<String>, format = Date)]
    pub last_paid_on: Option<NaiveDate>,
}

/// What the member contributed in the year.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ContributedOut {
    /// Each quarter in which the member was in the zone.
    pub quarters: Vec<ContributionOut>,
    /// The commission shares submitted.
    pub submitted: Money,
    /// Transferred.
    pub transferred: Money,
    /// Outstanding.
    pub outstanding: Money,
}

/// An expenditure report counted (accepted by the commission) or pending.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ReportRef {
    /// The report id.
    pub id: String,
    /// The version counted (accepted) or the latest (pending).
    pub version: i64,
    /// `accepted`, `submitted` or `returned`.
    pub status: Status,
    /// First day covered.
    #[schema(value_type = String, format = Date)]
    pub period_start: NaiveDate,
    /// Last day covered.
    #[schema(value_type = String, format = Date)]
    pub period_end: NaiveDate,
}

/// An expenditure of $1,000.00 or more.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LargeItemOut {
    /// When it was spent.
    #[schema(value_type = String, format = Date)]
    pub date: NaiveDate,
    /// Who was paid.
    pub payee: String,
    /// What it cost.
    pub amount: Money,
    /// Its category.
    pub category: Category,
    /// What it was.
    pub description: String,
}

/// A category's spending.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CategoryOut {
    /// The category.
    pub category: Category,
    /// Everything spent in it.
    pub total: Money,
    /// Of it, the expenditures under $1,000.00 (items and summed lines), summed.
    pub under_1000: Money,
    /// How many expenditures.
    pub count: i64,
}

/// The commission's spending of the year.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SpendingOut {
    /// Which reports count: those whose period ends in the year, accepted by the commission; others are pending, listed and not counted.
    pub rule: String,
    /// The accepted reports counted.
    pub counted_reports: Vec<ReportRef>,
    /// Reports not (yet) accepted: not counted.
    pub pending_reports: Vec<ReportRef>,
    /// Everything spent (counted reports).
    pub spent: Money,
    /// Each category's spending.
    pub by_category: Vec<CategoryOut>,
    /// Each expenditure of $1,000.00 or more, by date (Wis. Stat. § 66.0615(4), Form SL-304).
    pub large_items: Vec<LargeItemOut>,
}

const SPENDING_RULE: &str = "the tourism entity's expenditure reports whose period ends in the year, counted once accepted by the commission (a report submitted or returned is listed as pending and not counted)";

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Submitted => "submitted",
        Status::Returned => "returned",
        Status::Accepted => "accepted",
        Status::Superseded => "superseded",
    }
}

impl From<&Spending> for SpendingOut {
    fn from(s: &Spending) -> Self {
        SpendingOut {
            rule: SPENDING_RULE.into(),
            counted_reports: s
                .counted
                .iter()
                .map(|r| ReportRef {
                    id: r.id.clone(),
                    version: r.version,
                    status: Status::Accepted,
                    period_start: r.period_start,
                    period_end: r.period_end,
                })
                .collect(),
            pending_reports: s
                .pending
                .iter()
                .map(|r| ReportRef {
                    id: r.id.clone(),
                    version: r.version,
                    status: r.status,
                    period_start: r.period_start,
                    period_end: r.period_end,
                })
                .collect(),
            spent: s.breakdown.total,
            by_category: s
                .breakdown
                .by_category
                .iter()
                .map(|(category, c)| CategoryOut {
                    category: *category,
                    total: c.total,
                    under_1000: c.small,
                    count: c.count,
                })
                .collect(),
            large_items: s
                .breakdown
                .large
                .iter()
                .map(|e| LargeItemOut {
                    date: e.date,
                    payee: e.payee.clone(),
                    amount: e.amount,
                    category: e.category,
                    description: e.description.clone(),
                })
                .collect(),
        }
    }
}

/// One impact measure of a counted expenditure.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ImpactOut {
    /// The expenditure's payee.
    pub payee: String,
    /// The expenditure's category.
    pub category: Category,
    /// What is counted, e.g. `room_nights`.
    pub measure: String,
    /// The count.
    pub value: i64,
    /// Where the count comes from.
    pub source: String,
}

/// A measure's total.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MeasureTotal {
    /// What is counted.
    pub measure: String,
    /// The sum of its counts.
    pub total: i64,
}

/// The commission's report back to a member municipality.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ReportBackOut {
    /// The zone's slug.
    pub zone: String,
    /// The commission's name.
    pub commission: String,
    /// The member's slug.
    pub municipality: String,
    /// The member's name.
    pub municipality_name: String,
    /// The year reported.
    pub year: i32,
    /// Why the commission reports back.
    pub citation: String,
    /// What this member contributed.
    pub contributed: ContributedOut,
    /// What the commission received in the year from all members: the commission shares whose transfer was marked paid in the year.
    pub commission_received: Money,
    /// How the commission's money was spent.
    pub spending: SpendingOut,
    /// The impact measures of the counted expenditures.
    pub impacts: Vec<ImpactOut>,
    /// Each measure's total.
    pub impact_totals: Vec<MeasureTotal>,
}

impl From<ReportBack> for ReportBackOut {
    fn from(r: ReportBack) -> Self {
        let quarters: Vec<ContributionOut> = r
            .quarters
            .iter()
            .map(|q| ContributionOut {
                period: q.period.to_string(),
                status: q.status,
                due_on: q.due_on,
                tax_collected: q
                    .latest
                    .as_ref()
                    .map(|l| Money::from_cents(l.tax_collected_cents)),
                commission_share: q
                    .latest
                    .as_ref()
                    .map(|l| Money::from_cents(l.commission_cents)),
                transferred: q.transferred,
                outstanding: q.outstanding,
                last_paid_on: q.last_paid_on,
            })
            .collect();
        let contributed = ContributedOut {
            submitted: quarters
                .iter()
                .map(|q| q.commission_share.unwrap_or_default())
                .sum(),
            transferred: quarters.iter().map(|q| q.transferred).sum(),
            outstanding: quarters.iter().map(|q| q.outstanding).sum(),
            quarters,
        };
        ReportBackOut {
            zone: r.zone,
            commission: r.commission,
            municipality: r.municipality.slug.clone(),
            municipality_name: r.municipality.name.clone(),
            year: r.year,
            citation: REPORT_BACK_CITATION.into(),
            contributed,
            commission_received: r.commission_received,
            spending: SpendingOut::from(&r.spending),
            impact_totals: measure_totals(&r.spending.impacts)
                .into_iter()
                .map(|(measure, total)| MeasureTotal { measure, total })
                .collect(),
            impacts: r
                .spending
                .impacts
                .iter()
                .map(|i| ImpactOut {
                    payee: i.payee.clone(),
                    category: i.category,
                    measure: i.measure.clone(),
                    value: i.value,
                    source: i.source.clone(),
                })
                .collect(),
        }
    }
}

/// Text escaped for HTML (element content and quoted attributes).
fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const CSV_HEAD: &str = "section,key,date,payee,category,amount,count,detail\r\n";

/// One CSV row of the common shape.
#[allow(clippy::too_many_arguments)]
fn row(
    section: &str,
    key: &str,
    date: &str,
    payee: &str,
    category: &str,
    amount: &str,
    count: &str,
    detail: &str,
) -> String {
    format!(
        "{},{},{},{},{},{},{},{}\r\n",
        section,
        field(key),
        date,
        field(payee),
        category,
        amount,
        count,
        field(detail)
    )
}

fn spending_csv(out: &mut String, s: &SpendingOut) {
    for r in s.counted_reports.iter().chain(&s.pending_reports) {
        let section = if r.status == Status::Accepted {
            "counted_report"
        } else {
            "pending_report"
        };
        out.push_str(&row(
            section,
            &r.id,
            &format!("{}..{}", r.period_start, r.period_end),
            "",
            "",
            "",
            &r.version.to_string(),
            status_name(r.status),
        ));
    }
    for c in &s.by_category {
        out.push_str(&row(
            "category",
            c.category.as_str(),
            "",
            "",
            c.category.as_str(),
            &c.total.to_string(),
            &c.count.to_string(),
            &format!("under_1000 {}", c.under_1000),
        ));
    }
    for i in &s.large_items {
        out.push_str(&row(
            "large_item",
            "",
            &i.date.to_string(),
            &i.payee,
            i.category.as_str(),
            &i.amount.to_string(),
            "1",
            &i.description,
        ));
    }
    out.push_str(&row("spent", "", "", "", "", &s.spent.to_string(), "", ""));
}

fn report_back_csv(r: &ReportBackOut) -> String {
    let mut out = String::from(CSV_HEAD);
    for q in &r.contributed.quarters {
        out.push_str(&row(
            "contribution",
            &q.period,
            &opt(&q.last_paid_on),
            "",
            "",
            &opt(&q.commission_share),
            "",
            &format!(
                "{} transferred {} outstanding {}",
                q.status.as_str(),
                q.transferred,
                q.outstanding
            ),
        ));
    }
    out.push_str(&row(
        "contributed",
        &r.municipality,
        "",
        "",
        "",
        &r.contributed.submitted.to_string(),
        "",
        &format!("transferred {}", r.contributed.transferred),
    ));
    out.push_str(&row(
        "commission_received",
        &r.zone,
        "",
        "",
        "",
        &r.commission_received.to_string(),
        "",
        "",
    ));
    spending_csv(&mut out, &r.spending);
    for i in &r.impacts {
        out.push_str(&row(
            "impact",
            &i.measure,
            "",
            &i.payee,
            i.category.as_str(),
            "",
            &i.value.to_string(),
            &i.source,
        ));
    }
    out
}

const PRINT_CSS: &str = "body{font-family:Georgia,serif;margin:2em;color:#000}\
table{border-collapse:collapse;width:100%;margin-bottom:1.5em}\
th,td{border:1px solid #555;padding:.25em .5em;text-align:left}\
td.n{text-align:right}\
@media print{body{margin:0;font-size:10pt}h2{page-break-after:avoid}table{page-break-inside:avoid}}";

fn table(head: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = String::from("<table><thead><tr>");
    for h in head {
        out.push_str(&format!("<th>{}</th>", html(h)));
    }
    out.push_str("</tr></thead><tbody>");
    for r in rows {
        out.push_str("<tr>");
        for c in r {
            out.push_str(&format!("<td>{}</td>", html(c)));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

fn report_back_html(r: &ReportBackOut) -> String {
    let title = format!(
        "{}: report back to {}, {}",
        r.commission, r.municipality_name, r.year
    );
    let mut body = format!("<h1>{}</h1><p>{}</p>", html(&title), html(&r.citation));
    body.push_str("<h2>What the municipality contributed</h2>");
    let rows: Vec<Vec<String>> = r
        .contributed
        .quarters
        .iter()
        .map(|q| {
            vec![
                q.period.clone(),
                q.status.as_str().to_owned(),
                opt(&q.commission_share),
                q.transferred.to_string(),
                q.outstanding.to_string(),
                opt(&q.last_paid_on),
            ]
        })
        .collect();
    body.push_str(&table(
        &[
            "Quarter",
            "Status",
            "Commission share",
            "Transferred",
            "Outstanding",
            "Paid on",
        ],
        &rows,
    ));
    body.push_str(&format!(
        "<p>Submitted {}; transferred {}.</p><h2>What the commission received</h2><p>{} from all members (transfers marked paid in {}).</p>",
        html(&r.contributed.submitted.to_string()),
        html(&r.contributed.transferred.to_string()),
        html(&r.commission_received.to_string()),
        r.year
    ));
    let s = &r.spending;
    body.push_str(&format!(
        "<h2>How it was spent</h2><p>{}</p>",
        html(&s.rule)
    ));
    let rows: Vec<Vec<String>> = s
        .by_category
        .iter()
        .map(|c| {
            vec![
                c.category.as_str().to_owned(),
                c.total.to_string(),
                c.under_1000.to_string(),
                c.count.to_string(),
            ]
        })
        .collect();
    body.push_str(&table(
        &["Category", "Spent", "Of it under $1,000", "Expenditures"],
        &rows,
    ));
    body.push_str(&format!(
        "<p>Spent in all: {}.</p>",
        html(&s.spent.to_string())
    ));
    body.push_str("<h2>Expenditures of $1,000 or more</h2>");
    let rows: Vec<Vec<String>> = s
        .large_items
        .iter()
        .map(|i| {
            vec![
                i.date.to_string(),
                i.payee.clone(),
                i.category.as_str().to_owned(),
                i.amount.to_string(),
                i.description.clone(),
            ]
        })
        .collect();
    body.push_str(&table(
        &["Date", "Payee", "Category", "Amount", "Description"],
        &rows,
    ));
    if !s.pending_reports.is_empty() {
        body.push_str("<h2>Reports not yet accepted (not counted)</h2>");
        let rows: Vec<Vec<String>> = s
            .pending_reports
            .iter()
            .map(|p| {
                vec![
                    p.id.clone(),
                    format!("{} to {}", p.period_start, p.period_end),
                    p.version.to_string(),
                    status_name(p.status).to_owned(),
                ]
            })
            .collect();
        body.push_str(&table(&["Report", "Period", "Version", "Status"], &rows));
    }
    body.push_str("<h2>Impact</h2>");
    let rows: Vec<Vec<String>> = r
        .impacts
        .iter()
        .map(|i| {
            vec![
                i.payee.clone(),
                i.measure.clone(),
                i.value.to_string(),
                i.source.clone(),
            ]
        })
        .collect();
    body.push_str(&table(
        &["Expenditure", "Measure", "Count", "Source"],
        &rows,
    ));
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{PRINT_CSS}</style></head><body>{body}</body></html>",
        html(&title)
    )
}

/// The commission's report back to one member municipality for a year.
///
/// Only commission members, the tourism entity, the zone's API clients and the member's
/// own clerk-treasurer (Montello room tax, distribution ¶B: "the commission in turn shall
/// report back to the municipality"); the zone admin and other members' clerks get 403,
/// anyone unrelated to the zone 404. What the member contributed (its commission shares by
/// quarter, submitted and transferred), what the commission received from all members
/// (transfers marked paid in the year), how it was spent by category with each
/// expenditure of $1,000.00 or more listed (from the accepted reports whose period ends
/// in the year; others listed as pending), and the impact measures. `Accept: text/csv`
/// answers CSV, `Accept: text/html` a printable page.
#[utoipa::path(
    operation_id = "get_report_back",
    tag = "expenditures",
    security(("bearer" = [])),
    params(ReportBackPath, YearParams),
    responses(
        (status = 200, description = "The report back", content(
            (ReportBackOut = "application/json"),
            (String = "text/csv"),
            (String = "text/html")
        )),
        (status = 400, description = "Missing or unparseable year", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`year` out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/zones/{zone}/reports/{municipality}")]
pub async fn report_back(
    req: HttpRequest,
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
    params: Result<ApiQuery<YearParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let (_, municipality) = path.into_inner();
    let report = here
        .read(&state, move |ZoneUnit { conn, ctx, zone }| {
            reports::report_back(
                conn,
                &ctx,
                &zone,
                &municipality,
                params.map(|p| p.0.year),
                today,
            )
        })
        .await?;
    let out = ReportBackOut::from(report);
    Ok(if crate::api::csv::wanted(&req) {
        crate::api::csv::ok(report_back_csv(&out))
    } else if crate::api::csv::accepts(&req, "text/html") {
        HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .body(report_back_html(&out))
    } else {
        HttpResponse::Ok().json(out)
    })
}

/// One quarter on the form.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StateQuarterOut {
    /// The quarter.
    pub period: String,
    /// `remittance` (the submission to the zone), `ledger` (tax principal received here, not a zone member), `missing` (a zone member's quarter not submitted: 0.00) or `none` (administered elsewhere).
    pub source: String,
    /// Room tax collected.
    pub collected: Money,
    /// Forwarded to the commission.
    pub forwarded: Money,
    /// Retained by the municipality.
    pub retained: Money,
}

/// A commission member on the form.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StateMemberOut {
    /// The member's name.
    pub name: String,
    /// Their affiliation.
    pub affiliation: String,
    /// Whether they represent the Wisconsin lodging and tourism industry.
    pub represents_lodging_and_tourism_industry: bool,
}

/// The commission's part of the form.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StateCommissionOut {
    /// The zone's slug.
    pub zone: String,
    /// The commission's name.
    pub name: String,
    /// Its tourism expenditures of the year.
    pub expenditures: SpendingOut,
    /// Its members on December 31 of the year.
    pub members: Vec<StateMemberOut>,
    /// Set when fewer than half of the members represent the lodging and tourism industry (Montello room tax, definitions, ZONE).
    pub roster_warning: Option<String>,
}

/// Form SL-304's figures for a municipality and year.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct StateReportOut {
    /// The municipality's slug.
    pub municipality: String,
    /// Its name.
    pub name: String,
    /// The year reported.
    pub year: i32,
    /// Due by (May 1 of the following year).
    #[schema(value_type = String, format = Date)]
    pub due_on: NaiveDate,
    /// Where the form comes from.
    pub citation: String,
    /// The room tax rate of the policy governing the year's last quarter, as a fraction (e.g. "0.045").
    pub rate: Option<String>,
    /// The same rate in percent (e.g. "4.5").
    pub rate_percent: Option<String>,
    /// Each quarter's totals.
    pub quarters: Vec<StateQuarterOut>,
    /// Room tax collected in the year.
    pub collected: Money,
    /// Forwarded to the commission or tourism entity.
    pub forwarded: Money,
    /// Retained by the municipality.
    pub retained: Money,
    /// The commission's part; absent when the municipality is in no zone (see `note`).
    pub commission: Option<StateCommissionOut>,
    /// Where the forwarding rule comes from, or why there is no commission part.
    pub note: String,
}

impl From<StateReport> for StateReportOut {
    fn from(r: StateReport) -> Self {
        StateReportOut {
            municipality: r.municipality.slug.clone(),
            name: r.municipality.name.clone(),
            year: r.year,
            due_on: r.due_on,
            citation: SL304_CITATION.into(),
            rate: r.rate.map(|d| d.to_string()),
            rate_percent: r.rate.map(|d| {
                (d * rust_decimal::Decimal::ONE_HUNDRED)
                    .normalize()
                    .to_string()
            }),
            quarters: r
                .quarters
                .iter()
                .map(|q| StateQuarterOut {
                    period: q.period.to_string(),
                    source: q.source.as_str().into(),
                    collected: q.collected,
                    forwarded: q.forwarded,
                    retained: q.retained,
                })
                .collect(),
            collected: r.totals.collected,
            forwarded: r.totals.forwarded,
            retained: r.totals.retained,
            commission: r.commission.as_ref().map(|c| StateCommissionOut {
                zone: c.zone.clone(),
                name: c.name.clone(),
                expenditures: SpendingOut::from(&c.spending),
                members: c
                    .members
                    .iter()
                    .map(|m| StateMemberOut {
                        name: m.name.clone(),
                        affiliation: m.affiliation.clone(),
                        represents_lodging_and_tourism_industry: m.industry,
                    })
                    .collect(),
                roster_warning: c.warning.clone(),
            }),
            note: r.note,
        }
    }
}

fn state_csv(r: &StateReportOut) -> String {
    let mut out = String::from(CSV_HEAD);
    out.push_str(&row(
        "form",
        &r.municipality,
        &r.due_on.to_string(),
        "",
        "",
        "",
        "",
        &format!("SL-304 {} rate {}", r.year, opt(&r.rate)),
    ));
    for q in &r.quarters {
        out.push_str(&row(
            "quarter",
            &q.period,
            "",
            "",
            "",
            &q.collected.to_string(),
            "",
            &format!(
                "{} forwarded {} retained {}",
                q.source, q.forwarded, q.retained
            ),
        ));
    }
    for (k, v) in [
        ("collected", r.collected),
        ("forwarded", r.forwarded),
        ("retained", r.retained),
    ] {
        out.push_str(&row(k, "", "", "", "", &v.to_string(), "", ""));
    }
    match &r.commission {
        Some(c) => {
            spending_csv(&mut out, &c.expenditures);
            for m in &c.members {
                out.push_str(&row(
                    "commission_member",
                    &m.name,
                    "",
                    "",
                    "",
                    "",
                    "",
                    &format!(
                        "{}; industry {}",
                        m.affiliation, m.represents_lodging_and_tourism_industry
                    ),
                ));
            }
            if let Some(w) = &c.roster_warning {
                out.push_str(&row("roster_warning", "", "", "", "", "", "", w));
            }
        }
        None => out.push_str(&row("no_commission", "", "", "", "", "", "", &r.note)),
    }
    out
}

/// Form SL-304's figures for a municipality and year.
///
/// Public, no sign-in: the state's form is public. Room tax collected in the year and the
/// rate (from the municipality's remittance submissions where it is a zone member; from
/// its ledger, the tax principal received, where it administers its payors here outside a
/// zone), forwarded to the commission, retained, the commission's expenditures of the
/// year with each of $1,000.00 or more listed and the rest summed by category, and the
/// commission's members with their affiliations and industry seats (with the roster
/// warning). Due May 1 of the following year (Wis. Stat. § 66.0615(4)). Only the
/// municipality's totals: never a payor's name or figure. `Accept: text/csv` answers CSV.
#[utoipa::path(
    operation_id = "get_state_report",
    tag = "expenditures",
    params(crate::api::params::MunicipalityPath, YearParams),
    responses(
        (status = 200, description = "The figures", content(
            (StateReportOut = "application/json"),
            (String = "text/csv")
        )),
        (status = 400, description = "Missing or unparseable year", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`year` out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/state-report")]
pub async fn state_report(
    req: HttpRequest,
    state: web::Data<AppState>,
    at: PublicMunicipality,
    params: Result<ApiQuery<YearParams>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let report = at
        .read(&state, move |conn, municipality| {
            state::state_report(conn, &municipality, params.map(|p| p.0.year))
        })
        .await?;
    Ok(crate::api::csv::or_json(
        &req,
        StateReportOut::from(report),
        state_csv,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_escapes_markup_and_quotes() {
        assert_eq!(
            html("<script>\"a\" & 'b'</script>"),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"
        );
    }
}

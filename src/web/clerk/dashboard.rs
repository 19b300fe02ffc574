//! `GET /app/m/{municipality}/clerk[?period=2026-Q3]`: the clerk-treasurer's
//! and staff's dashboard of one quarter.
//!
//! Contract:
//! - the quarter is `period` when given, else the quarter being filed now:
//!   the latest quarter that has ended (its returns fall due in the month
//!   after it, and it is the one whose remittance can be prepared). The
//!   quarter in progress has nothing due, filed or collected yet to chase;
//!   a link leads to it all the same;
//! - the counts (filed, filed late, missing, extended, not yet due,
//!   incomplete) and the amounts (tax on the returns, owed on filing) are
//!   those of `usecases::returns::reading::for_period`, the use case of the
//!   API's `GET .../returns?period=` (every payor and return shown is logged
//!   there), summed over every payor;
//! - collected is the tax principal received in the quarter, the figure the
//!   remittance to the zone is computed from (`usecases::remittances::
//!   tax_receipts`, as `GET .../remittances/preview` sums it); the
//!   remittance's standing is `usecases::remittances::view::of_municipality`
//!   (the API's `GET .../remittances?year=`), and for the clerk-treasurer the
//!   commission's share of the preview (`remittances::preview`; staff may not
//!   submit remittances, so they see the submitted figures only);
//! - only totals: no payor is named on this page.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use chrono::NaiveDate;
use maud::html;

use super::{Menu, enter, gate, href, nav, query_value};
use crate::{
    api::caller::MunicipalUnit,
    app::AppState,
    domain::{Money, Period, obligations::ObligationStatus},
    error::ApiError,
    tenancy::Action,
    usecases::{
        remittances::{self, view},
        returns::reading,
    },
    web::{WebError, layout, render, session::Visit},
};

/// The dashboard's figures for one quarter.
#[derive(Debug, Clone, Default)]
pub struct Figures {
    /// Returns on file by the (extended) filing due date.
    pub filed: usize,
    /// Returns filed after it.
    pub filed_late: usize,
    /// Returns missing (due date passed, none on file).
    pub missing: usize,
    /// Extended and not yet due.
    pub extended: usize,
    /// Not yet due.
    pub not_yet_due: usize,
    /// Returns on file missing a required attachment.
    pub incomplete: usize,
    /// Tax on the returns on file (latest versions).
    pub tax: Money,
    /// What the original filings owed (tax, interest, fees).
    pub due_on_filing: Money,
    /// Tax principal received in the quarter (by date received).
    pub collected: Money,
}

/// The quarter shown when none is asked: the latest that has ended.
pub fn default_quarter(today: NaiveDate) -> Period {
    let current = Period::quarter_containing(today);
    Period::quarter_containing(current.first_day().pred_opt().unwrap_or(today))
}

fn parse_quarter(raw: Option<String>, today: NaiveDate) -> Result<Period, ApiError> {
    let Some(raw) = raw else {
        return Ok(default_quarter(today));
    };
    let period =
        Period::parse(&raw).map_err(|e| ApiError::invalid("period", e.rule(), e.to_string()))?;
    if !period.is_quarter() {
        return Err(ApiError::invalid(
            "period",
            "quarter",
            "the dashboard shows a calendar quarter, e.g. \"2026-Q1\"",
        ));
    }
    Ok(period)
}

struct Remittance {
    zone: bool,
    status: Option<String>,
    due_on: Option<NaiveDate>,
    submitted_share: Option<Money>,
    transferred: Money,
    outstanding: Money,
    preview_share: Option<Money>,
}

/// `GET /app/m/{municipality}/clerk`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let asked = query_value(req.query_string(), "period");
    let (name, period, figures, remittance, menu) = here
        .read(
            &state,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                gate(&ctx)?;
                let period = parse_quarter(asked, today)?;
                let entries =
                    reading::for_period(conn, &ctx, period, None, None, usize::MAX, today)?;
                let mut f = Figures::default();
                for e in &entries {
                    match e.obligation.status {
                        ObligationStatus::Filed => f.filed += 1,
                        ObligationStatus::FiledLate => f.filed_late += 1,
                        ObligationStatus::Missing => f.missing += 1,
                        ObligationStatus::Extended => f.extended += 1,
                        ObligationStatus::NotYetDue => f.not_yet_due += 1,
                    }
                    if let Some(r) = &e.record {
                        if r.status() == "incomplete" {
                            f.incomplete += 1;
                        }
                        f.tax += r.latest().assessed.assessment.tax;
                        f.due_on_filing += Money::from_cents(r.original().row.amount_due_cents);
                    }
                }
                f.collected = remittances::tax_receipts(conn, ctx.municipality_id, &period)?
                    .iter()
                    .map(|r| r.amount)
                    .sum();
                let quarters =
                    view::of_municipality(conn, &ctx, &municipality, Ok(period.year()), today)?;
                let q = quarters.into_iter().find(|q| q.period == period);
                let preview_share = if q.is_some()
                    && ctx.require(Action::SubmitRemittances).is_ok()
                    && period.last_day() < today
                {
                    match remittances::preview(conn, &ctx, Ok(period.to_string()), today) {
                        Ok(c) => Some(c.split.distribution.commission),
                        // Totals entered by the clerk (nothing to compute) or
                        // no policy for the quarter: no preview to show.
                        Err(ApiError::RuleConflict(_) | ApiError::Validation(_)) => None,
                        Err(other) => return Err(other),
                    }
                } else {
                    None
                };
                let remittance = Remittance {
                    zone: q.is_some(),
                    status: q.as_ref().map(|q| q.status.as_str().replace('_', " ")),
                    due_on: q.as_ref().map(|q| q.due_on),
                    submitted_share: q
                        .as_ref()
                        .and_then(|q| q.latest.as_ref())
                        .map(|l| Money::from_cents(l.commission_cents)),
                    transferred: q.as_ref().map(|q| q.transferred).unwrap_or_default(),
                    outstanding: q.as_ref().map(|q| q.outstanding).unwrap_or_default(),
                    preview_share,
                };
                Ok((municipality.name, period, f, remittance, Menu::of(&ctx)))
            },
        )
        .await?;
    let current = Period::quarter_containing(today);
    let previous = Period::quarter_containing(period.first_day().pred_opt().unwrap_or(today));
    let next = Period::quarter_containing(period.last_day().succ_opt().unwrap_or(today));
    let counts = [
        ("filed", "Filed on time", figures.filed),
        ("filed-late", "Filed late", figures.filed_late),
        ("missing", "Missing", figures.missing),
        (
            "incomplete",
            "Incomplete (attachment missing)",
            figures.incomplete,
        ),
        ("extended", "Extended, not yet due", figures.extended),
        ("not-yet-due", "Not yet due", figures.not_yet_due),
    ];
    let body = html! {
        (nav(&slug, "", menu))
        h1 { (name) ": " (period) }
        p { "The returns of " (period) " and the room tax received in it, as of " (today) "." }
        p.no-print {
            a href=(href(&slug, &format!("?period={previous}"))) { "Previous quarter (" (previous) ")" }
            " · "
            a href=(href(&slug, &format!("?period={next}"))) { "Next quarter (" (next) ")" }
            @if period != current {
                " · " a href=(href(&slug, &format!("?period={current}"))) { "The quarter in progress (" (current) ")" }
            }
        }
        h2 { "Returns" }
        table.figures #returns-counts {
            caption { "Returns of " (period) " by status" }
            thead { tr { th scope="col" { "Status" } th.num scope="col" { "Returns" } } }
            tbody {
                @for (id, label, n) in counts {
                    tr #(format!("count-{id}")) { th scope="row" { (label) } td.num { (n) } }
                }
            }
        }
        p { a href=(href(&slug, &format!("/returns?period={period}"))) { "Every payor's return for " (period) }
            " · " a href=(href(&slug, &format!("/returns?period={period}&status=missing"))) { "the missing returns" } }
        h2 { "Amounts" }
        table.figures #amounts {
            caption { "Amounts of " (period) }
            tbody {
                tr #amount-tax { th scope="row" { "Tax on the returns filed" } td.num { (figures.tax) } }
                tr #amount-due { th scope="row" { "Owed on filing (tax, interest, fees)" } td.num { (figures.due_on_filing) } }
                tr #amount-collected { th scope="row" { "Room tax received in the quarter" } td.num { (figures.collected) } }
            }
        }
        p.cite { "Received: the tax principal of payments, credit and security applied, dated in the quarter, whatever period it was charged for: the base of the remittance to the zone (Montello room tax, distribution ¶A)." }
        h2 { "Remittance to the zone" }
        @if remittance.zone {
            table.figures #remittance {
                caption { "Remittance of " (period) }
                tbody {
                    tr { th scope="row" { "Status" } td { (remittance.status.clone().unwrap_or_default()) } }
                    tr { th scope="row" { "Due" } td { @if let Some(d) = remittance.due_on { (d) } } }
                    @if let Some(share) = remittance.preview_share {
                        tr #remittance-preview { th scope="row" { "Commission's share of what was received (preview)" } td.num { (share) } }
                    }
                    tr { th scope="row" { "Commission's share submitted" } td.num { @if let Some(s) = remittance.submitted_share { (s) } @else { "not submitted" } } }
                    tr { th scope="row" { "Transferred" } td.num { (remittance.transferred) } }
                    tr { th scope="row" { "Outstanding" } td.num { (remittance.outstanding) } }
                }
            }
            p { a href=(href(&slug, &format!("/remittances?year={}", period.year()))) { "Remittances of " (period.year()) } }
        } @else {
            p.note { "The municipality is not a member of a tourism zone on the last day of " (period) ": it remits nothing." }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &format!("Dashboard {period}"), body),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_quarter_is_the_latest_ended() {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        assert_eq!(default_quarter(d("2026-12-01")).to_string(), "2026-Q3");
        assert_eq!(default_quarter(d("2026-01-01")).to_string(), "2025-Q4");
        assert_eq!(default_quarter(d("2026-03-31")).to_string(), "2025-Q4");
    }

    #[test]
    fn only_a_quarter_is_shown() {
        let today = NaiveDate::from_ymd_opt(2026, 5, 1).unwrap();
        assert!(parse_quarter(Some("2025".into()), today).is_err());
        assert!(parse_quarter(Some("nonsense".into()), today).is_err());
        assert_eq!(
            parse_quarter(Some("2025-Q2".into()), today)
                .unwrap()
                .to_string(),
            "2025-Q2"
        );
    }
}

//! The commission's report back to each member municipality (issue 10 item
//! 5; Montello room tax, distribution ¶B: "the commission in turn shall
//! report back to the municipality") and Form SL-304's figures ([`state`]).
//!
//! Contract of [`report_back`]:
//! - readers: commission members and the tourism entity
//!   (`ZoneAction::ReadExpenditureReports`: the report lists the tourism
//!   entity's expenditures, which DESIGN §1 shows to the commission and the
//!   entity, and the zone's API clients holding that action) and the
//!   member's own clerk-treasurer ([`ZoneContext::member_clerk_of`]: the
//!   report is addressed to the municipality). The zone admin is refused
//!   (403): DESIGN §1 gives it membership and totals, not the expenditure
//!   reports. A caller unrelated to the zone gets 404; a municipality that
//!   was never a member of the zone is 404 `municipality`;
//! - what that member contributed: its quarters of `year` as the zone's view
//!   shows them (`usecases::remittances::view`: submitted commission share,
//!   transferred, outstanding, status); what the commission received in
//!   total from all members in the year
//!   (`expenditures::filing::commission_received`: transfers marked paid in
//!   the year);
//! - how it was spent: the expenditure reports whose period ends in `year`
//!   (each report counts in exactly one year). Only a report whose latest
//!   version the commission accepted is counted; one submitted or returned
//!   is listed under `pending` with its status and not counted. Spending is
//!   shown by category with each item of $1,000 or more listed
//!   (`domain::state_report::breakdown`), and every impact measure of the
//!   counted items with the measures' totals;
//! - totals per municipality only: no payor is named and no payor's figure
//!   is read. Nothing here logs an amount or a name.

pub mod state;

use std::collections::BTreeMap;

use chrono::{Datelike, NaiveDate};

use super::{
    expenditures::{ReportView, filing::commission_received, load},
    remittances::view::{self, QuarterView, check_year},
};
use crate::{
    db::{self, DbConn, models::MunicipalityRow},
    domain::{
        Money,
        expenditure::{Category, review::Status},
        state_report::{Breakdown, Expenditure, Summed, breakdown},
    },
    error::ApiError,
    tenancy::{ZoneAction, ZoneContext},
};

/// A report not counted: not (yet) accepted.
#[derive(Debug, Clone)]
pub struct PendingReport {
    /// The report.
    pub id: String,
    /// Its latest version.
    pub version: i64,
    /// `submitted` or `returned`.
    pub status: Status,
    /// First day covered.
    pub period_start: NaiveDate,
    /// Last day covered.
    pub period_end: NaiveDate,
}

/// A report counted (accepted).
#[derive(Debug, Clone)]
pub struct CountedReport {
    /// The report.
    pub id: String,
    /// The accepted version.
    pub version: i64,
    /// First day covered.
    pub period_start: NaiveDate,
    /// Last day covered.
    pub period_end: NaiveDate,
}

/// One impact measure of a counted item.
#[derive(Debug, Clone)]
pub struct Impact {
    /// The item's payee.
    pub payee: String,
    /// The item's category.
    pub category: Category,
    /// What is counted, e.g. `room_nights`.
    pub measure: String,
    /// The count.
    pub value: i64,
    /// Where the count comes from.
    pub source: String,
}

/// The zone's expenditure reports of a year.
#[derive(Debug, Clone, Default)]
pub struct Spending {
    /// Reports counted.
    pub counted: Vec<CountedReport>,
    /// Reports listed, not counted.
    pub pending: Vec<PendingReport>,
    /// The counted spending.
    pub breakdown: Breakdown,
    /// Each impact measure of the counted items.
    pub impacts: Vec<Impact>,
}

/// The report back.
#[derive(Debug, Clone)]
pub struct ReportBack {
    /// The zone's slug.
    pub zone: String,
    /// The commission's name.
    pub commission: String,
    /// The member.
    pub municipality: MunicipalityRow,
    /// The year.
    pub year: i32,
    /// The member's quarters.
    pub quarters: Vec<QuarterView>,
    /// What the commission received from all members in the year.
    pub commission_received: Money,
    /// How it was spent.
    pub spending: Spending,
}

/// The expenditure reports of the zone whose period ends in `year` (see the
/// module doc), read without authorising: the caller has.
pub(crate) fn spending_of(
    conn: &mut DbConn,
    zone_id: i64,
    year: i32,
) -> Result<Spending, ApiError> {
    let mut out = Spending::default();
    let mut items = Vec::new();
    let mut summed = Vec::new();
    for v in db::expenditures::latest_versions(conn, zone_id)? {
        if v.period_end.year() != year {
            continue;
        }
        let report: ReportView = load(conn, zone_id, &v.report_id, None)?;
        let latest = report.latest();
        if latest.status != Status::Accepted {
            out.pending.push(PendingReport {
                id: v.report_id.clone(),
                version: latest.row.version,
                status: latest.status,
                period_start: v.period_start,
                period_end: v.period_end,
            });
            continue;
        }
        out.counted.push(CountedReport {
            id: v.report_id.clone(),
            version: latest.row.version,
            period_start: v.period_start,
            period_end: v.period_end,
        });
        for (item, impacts) in &report.items {
            let category = stored_category(&item.category)?;
            items.push(Expenditure {
                date: item.spent_on,
                payee: item.payee.clone(),
                amount: Money::from_cents(item.amount_cents),
                category,
                description: item.description.clone(),
            });
            out.impacts.extend(impacts.iter().map(|m| Impact {
                payee: item.payee.clone(),
                category,
                measure: m.measure.clone(),
                value: m.value,
                source: m.source.clone(),
            }));
        }
        for s in &report.sums {
            summed.push(Summed {
                category: stored_category(&s.category)?,
                amount: Money::from_cents(s.amount_cents),
                count: s.item_count,
            });
        }
    }
    out.breakdown = breakdown(&items, &summed);
    Ok(out)
}

fn stored_category(raw: &str) -> Result<Category, ApiError> {
    Category::from_stored(raw).ok_or_else(|| ApiError::internal("a stored category"))
}

/// The totals of each impact measure, by measure.
pub fn measure_totals(impacts: &[Impact]) -> BTreeMap<String, i64> {
    let mut out = BTreeMap::new();
    for i in impacts {
        *out.entry(i.measure.clone()).or_insert(0) += i.value;
    }
    out
}

/// The commission's report back to the member `slug` for `year` (see the module doc).
pub fn report_back(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    zone: &db::models::ZoneRow,
    slug: &str,
    year: Result<i32, ApiError>,
    today: NaiveDate,
) -> Result<ReportBack, ApiError> {
    let members = db::zones::members(conn, &[ctx.zone_id])?;
    let member = members
        .iter()
        .find(|(_, m)| m.slug == slug)
        .map(|(_, m)| m.clone());
    if let Err(refusal) = ctx.require(ZoneAction::ReadExpenditureReports) {
        match &member {
            Some(m) if ctx.member_clerk_of(m.id) => {}
            _ => return Err(refusal),
        }
    }
    let municipality = member.ok_or(ApiError::NotFound("municipality"))?;
    let year = check_year(year?)?;
    let quarters = view::of_zone(conn, ctx, Ok(year), today)?
        .into_iter()
        .filter(|q| q.municipality == municipality.slug)
        .collect();
    let (first, last) = year_bounds(year)?;
    let received = commission_received(conn, ctx.zone_id, first, last)?;
    let spending = spending_of(conn, ctx.zone_id, year)?;
    Ok(ReportBack {
        zone: zone.slug.clone(),
        commission: zone.commission_name.clone(),
        municipality,
        year,
        quarters,
        commission_received: received,
        spending,
    })
}

/// What the commission received from all members in `year` and how the
/// accepted reports spent it (for the portal's chart of receipts against
/// spending): the figures of [`report_back`], for the zone as a whole;
/// readers of expenditure reports only (`ReadExpenditureReports`).
pub fn zone_spending(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    year: Result<i32, ApiError>,
) -> Result<(Money, Spending), ApiError> {
    ctx.require(ZoneAction::ReadExpenditureReports)?;
    let year = check_year(year?)?;
    let (first, last) = year_bounds(year)?;
    let received = commission_received(conn, ctx.zone_id, first, last)?;
    Ok((received, spending_of(conn, ctx.zone_id, year)?))
}

/// January 1 and December 31 of `year`.
pub(crate) fn year_bounds(year: i32) -> Result<(NaiveDate, NaiveDate), ApiError> {
    match (
        NaiveDate::from_ymd_opt(year, 1, 1),
        NaiveDate::from_ymd_opt(year, 12, 31),
    ) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(ApiError::invalid(
            "year",
            "year_range",
            "not a calendar year",
        )),
    }
}

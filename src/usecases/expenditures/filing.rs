//! Filing and amending expenditure reports (the tourism entity), and the
//! commission's receipts the totals are measured against.
//!
//! Contract: [`file`] and [`amend`] authorise `FileExpenditureReports`
//! first, then judge the draft (`domain::expenditure::judge`: 422 for a
//! field's rule, 409 `no_lodging_facility` citing Montello room tax,
//! distribution ¶B and Wis. Stat. § 66.0615(1)(fm)); a zone has one report
//! per period: a period overlapping another report's latest version is 409
//! `one_report_per_period`, also under concurrency: filing and amending
//! take the zone's report lock (`db::expenditures::lock_reports`) before
//! looking, so of two reports for one period posted at once one lands and
//! the other is that 409. An amendment names the version it amends
//! (`If-Match`, 412 when stale) and is refused once the report is accepted
//! (409 `accepted_reports_are_final`); after a return for correction it is
//! the correction. Each filing is a new, immutable version (the old ones
//! stay readable); two concurrent amendments of one version cannot both
//! land (the version's key is unique: the second is 409).

use chrono::{NaiveDate, NaiveDateTime};

use super::{ReportView, actor, conflict, load};
use crate::{
    db::{
        self, DbConn,
        expenditures::{ImpactRow, ItemRow, ReportRow, SumRow, VersionRow},
    },
    domain::{
        Money, Period,
        expenditure::{
            LODGING_FACILITY_CITATION, Refusal, Report, ReportDraft, judge,
            review::{ReviewFault, may_amend},
        },
        period::{MAX_YEAR, MIN_YEAR},
    },
    error::{ApiError, FieldError},
    tenancy::{ZoneAction, ZoneContext},
    usecases::payors::Precondition,
};

/// The commission's receipts from `from` to `to` (both included).
///
/// The commission shares of the members' remittances whose transfer was
/// marked paid in `from..=to` (by the transfer's `paid_on`, whatever quarter
/// it pays): the money the members actually forwarded (Montello room tax,
/// distribution ¶A, "the municipality shall distribute 75% of the room taxes
/// to the commission"). The figure the tourism entity declares on its report
/// (`received_declared`) is kept beside it as "declared", with the
/// difference, never replacing it. Totals per transfer only: no payor figure is read.
pub fn commission_received(
    conn: &mut DbConn,
    zone_id: i64,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Money, ApiError> {
    use chrono::Datelike;
    // Every quarter a transfer paid by `to` can be for (a quarter is paid
    // after it ends, so none after `to`'s year).
    let periods: Vec<String> = (MIN_YEAR..=to.year().clamp(MIN_YEAR, MAX_YEAR))
        .flat_map(Period::quarters_of_year)
        .map(|p| p.to_string())
        .collect();
    Ok(Money::from_cents(
        db::remittances::transfers_of_zone(conn, zone_id, &periods)?
            .iter()
            .filter(|t| from <= t.paid_on && t.paid_on <= to)
            .map(|t| t.amount_cents)
            .sum(),
    ))
}

/// The API's answer to a refused draft.
fn refused(refusal: Refusal) -> ApiError {
    match refusal {
        Refusal::Invalid(faults) => {
            ApiError::Validation(faults.into_iter().map(FieldError::from).collect())
        }
        Refusal::LodgingFacility(fields) => conflict(
            &fields[0],
            "no_lodging_facility",
            format!(
                "no room tax revenue may be used to construct or develop a lodging facility ({LODGING_FACILITY_CITATION}); refused: {}",
                fields.join(", ")
            ),
        ),
    }
}

/// The API's answer to a refused review rule.
pub(crate) fn review_fault(fault: ReviewFault) -> ApiError {
    match fault {
        ReviewFault::Invalid(e) => ApiError::from(e),
        ReviewFault::Conflict(field, rule, message) => conflict(field, rule, message),
    }
}

/// 409 when `report` overlaps the latest version of another report of the zone.
fn check_overlap(
    conn: &mut DbConn,
    zone_id: i64,
    itself: Option<&str>,
    report: &Report,
) -> Result<(), ApiError> {
    let r = report.get();
    for v in db::expenditures::latest_versions(conn, zone_id)? {
        if Some(v.report_id.as_str()) == itself {
            continue;
        }
        if v.period_start <= r.period_end && r.period_start <= v.period_end {
            return Err(conflict(
                "period_start",
                "one_report_per_period",
                format!(
                    "report {} already covers {} to {}: amend it instead",
                    v.report_id, v.period_start, v.period_end
                ),
            ));
        }
    }
    Ok(())
}

/// Store `report` as `version` of `report_id`.
fn store(
    conn: &mut DbConn,
    zone_id: i64,
    report_id: &str,
    version: i64,
    report: &Report,
    by: &str,
    now: NaiveDateTime,
) -> Result<(), ApiError> {
    let r = report.get();
    let mut items = Vec::new();
    let mut impacts = Vec::new();
    for (i, item) in r.items.iter().enumerate() {
        let line = i as i64 + 1;
        items.push(ItemRow {
            zone_id,
            report_id: report_id.to_owned(),
            version,
            line,
            spent_on: item.date,
            payee: item.payee.clone(),
            amount_cents: item.amount.cents(),
            category: item.category.as_str().to_owned(),
            description: item.description.clone(),
            explanation: item.explanation.clone(),
        });
        for (j, m) in item.impact.iter().enumerate() {
            impacts.push(ImpactRow {
                zone_id,
                report_id: report_id.to_owned(),
                version,
                line,
                seq: j as i64 + 1,
                measure: m.measure.as_str().to_owned(),
                value: m.value,
                source: m.source.clone(),
            });
        }
    }
    let sums: Vec<SumRow> = r
        .summed
        .iter()
        .enumerate()
        .map(|(i, s)| SumRow {
            zone_id,
            report_id: report_id.to_owned(),
            version,
            line: i as i64 + 1,
            category: s.category.as_str().to_owned(),
            amount_cents: s.amount.cents(),
            item_count: s.count,
            description: s.description.clone(),
            explanation: s.explanation.clone(),
        })
        .collect();
    let row = VersionRow {
        zone_id,
        report_id: report_id.to_owned(),
        version,
        period_start: r.period_start,
        period_end: r.period_end,
        received_declared_cents: r.received_declared.cents(),
        filed_by: by.to_owned(),
        filed_at: now,
    };
    db::expenditures::insert_version(conn, &row, &items, &impacts, &sums)?;
    Ok(())
}

/// Judge a draft as [`file`] would, storing nothing: the web portal's
/// report is written item by item, each item checked when added (the same
/// authorisation and the same refusals as filing it).
pub fn check(ctx: &ZoneContext, draft: ReportDraft) -> Result<(), ApiError> {
    ctx.require(ZoneAction::FileExpenditureReports)?;
    judge(draft).map(|_| ()).map_err(refused)
}

/// File a new report (version 1).
pub fn file(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    draft: ReportDraft,
    now: NaiveDateTime,
) -> Result<ReportView, ApiError> {
    ctx.require(ZoneAction::FileExpenditureReports)?;
    let report = judge(draft).map_err(refused)?;
    db::expenditures::lock_reports(conn, ctx.zone_id)?;
    check_overlap(conn, ctx.zone_id, None, &report)?;
    let id = db::identity::new_id();
    let by = actor(ctx);
    db::expenditures::insert_report(
        conn,
        &ReportRow {
            zone_id: ctx.zone_id,
            id: id.clone(),
            created_by: by.clone(),
            created_at: now,
        },
    )?;
    store(conn, ctx.zone_id, &id, 1, &report, &by, now)?;
    load(conn, ctx.zone_id, &id, None)
}

/// Amend a report: a new version (see the module doc).
pub fn amend(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    report_id: &str,
    precondition: Result<Precondition, ApiError>,
    draft: ReportDraft,
    now: NaiveDateTime,
) -> Result<ReportView, ApiError> {
    ctx.require(ZoneAction::FileExpenditureReports)?;
    db::expenditures::lock_reports(conn, ctx.zone_id)?;
    let current = load(conn, ctx.zone_id, report_id, None)?;
    let latest = current.latest();
    precondition?.check(latest.row.version)?;
    may_amend(latest.status).map_err(review_fault)?;
    let report = judge(draft).map_err(refused)?;
    check_overlap(conn, ctx.zone_id, Some(report_id), &report)?;
    let next = latest.row.version + 1;
    store(
        conn,
        ctx.zone_id,
        report_id,
        next,
        &report,
        &actor(ctx),
        now,
    )?;
    load(conn, ctx.zone_id, report_id, None)
}

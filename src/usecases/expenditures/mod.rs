//! The tourism entity's expenditure reports and the commission's review
//! (issue 10 items 3 and 4), inspection requests, and their attachments.
//!
//! Contract: every function takes the zone's context and authorises first
//! through it (`ZoneAction::FileExpenditureReports` for the tourism entity,
//! `ReadExpenditureReports` for the commission, the tourism entity and the
//! zone's API clients, `ReviewExpenditureReports` for the commission); every
//! rule is in `domain::expenditure` (the report) and
//! `domain::expenditure::review` (the acts); rows come from
//! `db::expenditures`. A report is shown as one [`ReportView`]: the version
//! asked for (default: the latest), every version's status, the whole review
//! trail, the attachments' records and the totals (received from
//! [`filing::commission_received`], spent, carried over). Nothing here logs
//! a payee, an amount or a text.

pub mod attachments;
pub mod filing;
pub mod inspections;
pub mod review;

use chrono::NaiveDate;

use crate::{
    db::{
        self, DbConn,
        expenditures::{
            AttachmentMeta, ImpactRow, ItemRow, ReportRow, ReviewRow, SumRow, VersionRow,
        },
    },
    domain::{
        Money,
        expenditure::{
            Totals,
            review::{Act, Status, status_of},
        },
    },
    error::{ApiError, FieldError},
    tenancy::{ZoneAction, ZoneContext},
};

/// One version and where it stands.
#[derive(Debug, Clone)]
pub struct VersionState {
    /// The version.
    pub row: VersionRow,
    /// Its status.
    pub status: Status,
}

/// A report as shown.
#[derive(Debug, Clone)]
pub struct ReportView {
    /// Its identity.
    pub report: ReportRow,
    /// Every version, oldest first.
    pub versions: Vec<VersionState>,
    /// The version shown (an index into `versions`).
    pub shown: usize,
    /// The shown version's items, each with its impact measures.
    pub items: Vec<(ItemRow, Vec<ImpactRow>)>,
    /// The shown version's summed lines.
    pub sums: Vec<SumRow>,
    /// Every act of the review, oldest first.
    pub reviews: Vec<ReviewRow>,
    /// The attachments' records.
    pub attachments: Vec<AttachmentMeta>,
    /// Received, spent, carried over.
    pub totals: Totals,
}

impl ReportView {
    /// The version shown.
    pub fn shown(&self) -> &VersionState {
        &self.versions[self.shown]
    }

    /// The latest version.
    pub fn latest(&self) -> &VersionState {
        self.versions.last().expect("a report has a version")
    }
}

/// The status of each of `versions` given the review.
fn states(versions: Vec<VersionRow>, reviews: &[ReviewRow]) -> Vec<VersionState> {
    let latest = versions.last().map_or(0, |v| v.version);
    versions
        .into_iter()
        .map(|row| {
            let decision = reviews
                .iter()
                .filter(|r| r.version == row.version)
                .filter_map(|r| Act::from_stored(&r.act))
                .find(|a| matches!(a, Act::Accept | Act::Return));
            VersionState {
                status: status_of(row.version, latest, decision),
                row,
            }
        })
        .collect()
}

/// Load a report of the zone as shown at `version` (default: the latest); 404 when missing.
pub(crate) fn load(
    conn: &mut DbConn,
    zone_id: i64,
    report_id: &str,
    version: Option<i64>,
) -> Result<ReportView, ApiError> {
    let report =
        db::expenditures::report(conn, zone_id, report_id)?.ok_or(ApiError::NotFound("report"))?;
    let reviews = db::expenditures::reviews(conn, zone_id, report_id)?;
    let versions = states(
        db::expenditures::versions(conn, zone_id, report_id)?,
        &reviews,
    );
    if versions.is_empty() {
        return Err(ApiError::internal("a report without a version"));
    }
    let shown = match version {
        None => versions.len() - 1,
        Some(n) => versions
            .iter()
            .position(|v| v.row.version == n)
            .ok_or(ApiError::NotFound("version"))?,
    };
    let n = versions[shown].row.version;
    let impacts = db::expenditures::impacts_of(conn, zone_id, report_id, n)?;
    let items = db::expenditures::items_of(conn, zone_id, report_id, n)?
        .into_iter()
        .map(|item| {
            let of: Vec<ImpactRow> = impacts
                .iter()
                .filter(|i| i.line == item.line)
                .cloned()
                .collect();
            (item, of)
        })
        .collect::<Vec<_>>();
    let sums = db::expenditures::sums_of(conn, zone_id, report_id, n)?;
    let spent = items
        .iter()
        .map(|(i, _)| Money::from_cents(i.amount_cents))
        .sum::<Money>()
        + sums
            .iter()
            .map(|s| Money::from_cents(s.amount_cents))
            .sum::<Money>();
    let v = &versions[shown].row;
    let received = filing::commission_received(conn, zone_id, v.period_start, v.period_end)?;
    let attachments = db::expenditures::attachments(conn, zone_id, report_id)?;
    Ok(ReportView {
        report,
        versions,
        shown,
        items,
        sums,
        reviews,
        attachments,
        totals: Totals::of(received, spent),
    })
}

/// One report (see the module doc), for whoever may read reports.
pub fn show(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    report_id: &str,
    version: Option<i64>,
) -> Result<ReportView, ApiError> {
    ctx.require(ZoneAction::ReadExpenditureReports)?;
    load(conn, ctx.zone_id, report_id, version)
}

/// Every report of the zone at its latest version, by period; only those
/// whose period touches `year` when given.
pub fn list(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    year: Option<i32>,
) -> Result<Vec<ReportView>, ApiError> {
    use chrono::Datelike;
    ctx.require(ZoneAction::ReadExpenditureReports)?;
    let mut out = Vec::new();
    for v in db::expenditures::latest_versions(conn, ctx.zone_id)? {
        if year.is_some_and(|y| v.period_start.year() != y && v.period_end.year() != y) {
            continue;
        }
        out.push(load(conn, ctx.zone_id, &v.report_id, None)?);
    }
    Ok(out)
}

/// A 409 naming `field` and `rule`.
pub(crate) fn conflict(field: &str, rule: &str, message: impl Into<String>) -> ApiError {
    ApiError::RuleConflict(FieldError::new(field, rule, message.into()))
}

/// Who acts, as recorded (`user:<id>`).
pub(crate) fn actor(ctx: &ZoneContext) -> String {
    ctx.caller.actor().to_string()
}

/// The zone's members current on `today`: `(municipality id, slug)`.
pub(crate) fn current_members(
    conn: &mut DbConn,
    zone_id: i64,
    today: NaiveDate,
) -> Result<Vec<(i64, String)>, ApiError> {
    Ok(db::zones::members(conn, &[zone_id])?
        .into_iter()
        .filter(|(m, _)| m.joined_on <= today && m.left_on.is_none_or(|l| l >= today))
        .map(|(m, muni)| (m.municipality_id, muni.slug))
        .collect())
}

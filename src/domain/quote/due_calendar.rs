//! The due calendar of a municipality for one calendar year.
//!
//! Contract: every return whose due date falls within `year`, under the policy version
//! governing each return's period: the quarterly returns (in practice Q4 of the year
//! before and Q1..Q3 of the year) and the calendar-year annual return (Montello: the
//! previous year's, due 90 days after it closed; Hayward: due with the Q4 return).
//! Fiscal-year annual returns depend on each payor's election, so they are not listed.
//! Sorted by due date, quarterly before annual on the same day. A year with no policy
//! in force (or outside 1990..=2200) gives fewer items or none.

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::compute::return_due_date;
use crate::domain::period::Period;
use crate::domain::policy::PolicyHistory;

/// The kind of return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DueKind {
    /// A quarterly return and its tax.
    Quarterly,
    /// An annual return reconciling the year's quarterly returns.
    Annual,
}

/// One return due in the year.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DueItem {
    /// The return's period.
    pub period: Period,
    /// "quarterly" or "annual".
    pub kind: DueKind,
    /// The due date (ISO 8601).
    pub due_date: NaiveDate,
    /// The due-date rule id, e.g. "last_business_day_of_following_month".
    pub rule: String,
    /// The ordinance paragraph the rule comes from.
    pub citation: String,
    /// A sentence for people.
    pub explanation: String,
}

/// Every return due in `year` (see module doc).
pub fn due_calendar(history: &PolicyHistory, year: i32) -> Vec<DueItem> {
    let mut candidates: Vec<(Period, DueKind)> = Vec::new();
    for y in [year - 1, year] {
        for quarter in 1..=4 {
            if let Ok(period) = Period::quarter(y, quarter) {
                candidates.push((period, DueKind::Quarterly));
            }
        }
        if let Ok(period) = Period::calendar_year(y) {
            candidates.push((period, DueKind::Annual));
        }
    }
    let mut items: Vec<DueItem> = candidates
        .into_iter()
        .filter_map(|(period, kind)| {
            let policy = history.for_period(&period)?;
            let line = return_due_date(policy, &period).ok()?;
            (line.date.year() == year).then(|| DueItem {
                period,
                kind,
                due_date: line.date,
                rule: line.inputs.get("rule").cloned().unwrap_or_default(),
                citation: line.citation.into(),
                explanation: line.explanation,
            })
        })
        .collect();
    items.sort_by_key(|item| (item.due_date, item.kind, item.period));
    items
}

/// The due date of `period` under `history`, if a policy governs it (a convenience for
/// callers listing returns).
pub fn due_date_of(history: &PolicyHistory, period: &Period) -> Option<NaiveDate> {
    let policy = history.for_period(period)?;
    return_due_date(policy, period).ok().map(|line| line.date)
}

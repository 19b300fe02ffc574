//! A payor's obligations: every return due in a date range, and where each stands.
//!
//! Contract of [`obligations`]:
//! - owed: every calendar quarter, and every annual period of the payor's election
//!   (calendar year, or the fiscal year ending in its month; Montello room tax,
//!   administration ¶; Hayward room tax, returns ¶B), that shares at least one day with
//!   the payor's registration, `opened_on ..= closed_on` (both days counted: the payor
//!   still operates on its closing day) and is governed by a policy version (a period
//!   before the first version owes nothing). Zero returns are returns: a quarter with
//!   no receipts is owed like any other;
//! - in the range: the (original) due date lies within `from ..= to`, with the due date
//!   of the policy governing the period (`compute::return_due_date`, the same as
//!   `quote::due_date_of`); a fiscal election under a policy that allows none is
//!   refused (field `period`, rule `fiscal_year_not_allowed`);
//! - a return on file for a period in range is listed even when the registration would
//!   not owe it (it is on file); when several entries share a period (versions), the
//!   earliest filing date counts: an amendment never makes the original late;
//! - status, with `today` the municipality's local date (`clock::local_date`) and the
//!   filing due date the extended date when an extension was granted, else the due
//!   date: on file by the filing due date `filed`, after it `filed_late`; not on file
//!   with an extension and today on or before the extended date `extended`; not on
//!   file, no extension, today on or before the due date `not_yet_due`; otherwise
//!   `missing`. A return filed late still is `filed_late` whatever today is;
//! - sorted by due date, quarterly before annual on the same day, then by period;
//! - `from` after `to` is refused (field `from`, rule `range_order`).
//!
//! Pure: the caller reads the registration, the returns on file and the granted
//! extensions; nothing here looks anything up. [`obligations_with`] is the same
//! with a [`DueDates`] kept across many payors of one municipality (the clerk's
//! view of a period asks every payor's due date of the same period).

use std::collections::HashMap;

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::compute::return_due_date;
use crate::domain::error::DomainError;
use crate::domain::period::Period;
use crate::domain::policy::{Policy, PolicyHistory};
use crate::domain::quote::DueKind;
use crate::domain::registry::Election;

/// Where a return stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ObligationStatus {
    /// On file by its (extended) filing due date.
    Filed,
    /// On file, filed after its (extended) filing due date.
    FiledLate,
    /// Not on file, and its filing due date has passed.
    Missing,
    /// Not on file, and its due date has not passed.
    NotYetDue,
    /// Not on file, an extension was granted and the extended date has not passed.
    Extended,
}

impl ObligationStatus {
    /// Every status.
    pub const ALL: [ObligationStatus; 5] = [
        ObligationStatus::Filed,
        ObligationStatus::FiledLate,
        ObligationStatus::Missing,
        ObligationStatus::NotYetDue,
        ObligationStatus::Extended,
    ];

    /// A return is on file (filed on time or late); the other statuses are
    /// those of a period with none.
    pub fn is_on_file(self) -> bool {
        matches!(self, ObligationStatus::Filed | ObligationStatus::FiledLate)
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ObligationStatus::Filed => "filed",
            ObligationStatus::FiledLate => "filed_late",
            ObligationStatus::Missing => "missing",
            ObligationStatus::NotYetDue => "not_yet_due",
            ObligationStatus::Extended => "extended",
        }
    }

    /// Parses the value of `field` (a query filter; rule `one_of`).
    pub fn parse(field: &str, raw: &str) -> Result<ObligationStatus, DomainError> {
        ObligationStatus::ALL
            .into_iter()
            .find(|status| status.as_str() == raw.trim())
            .ok_or_else(|| {
                DomainError::invalid(
                    field,
                    "one_of",
                    "must be one of: filed, filed_late, missing, not_yet_due, extended",
                )
            })
    }
}

/// The payor's registration: when it owes returns, and which annual period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Registration {
    /// First day the payor operated (or was registered).
    pub opened_on: NaiveDate,
    /// Its closing day, if one is recorded.
    pub closed_on: Option<NaiveDate>,
    /// Its annual election.
    pub election: Election,
}

/// A return on file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FiledReturn {
    /// The return's id.
    pub return_id: String,
    /// Its period.
    pub period: Period,
    /// Its filing date (the municipality's local date; for a paper return the date it
    /// was received).
    pub filed_on: NaiveDate,
}

/// An extension granted for the return of a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrantedFor {
    /// The return's period.
    pub period: Period,
    /// The extended filing due date.
    pub extended_to: NaiveDate,
}

/// What is on file for the payor: its returns (every version) and granted extensions.
#[derive(Debug, Clone, Copy, Default)]
pub struct OnFile<'a> {
    /// The returns on file, any order, versions included.
    pub returns: &'a [FiledReturn],
    /// The extensions granted (refused requests are not listed).
    pub extensions: &'a [GrantedFor],
}

/// The due dates asked about, `from ..= to`, both days included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DueRange {
    /// First due date listed.
    pub from: NaiveDate,
    /// Last due date listed.
    pub to: NaiveDate,
}

/// One return due in the range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Obligation {
    /// The return's period.
    pub period: Period,
    /// Quarterly or annual.
    pub kind: DueKind,
    /// Its due date (interest runs from it).
    pub due_date: NaiveDate,
    /// The date it must be filed by: the extended date, or the due date.
    pub filing_due_date: NaiveDate,
    /// Where it stands.
    pub status: ObligationStatus,
    /// The return on file, if any.
    pub return_id: Option<String>,
    /// Its filing date, if on file.
    pub filed_on: Option<NaiveDate>,
}

/// Whether `period` shares a day with the registration.
fn registered_during(registration: &Registration, period: &Period) -> bool {
    period.last_day() >= registration.opened_on
        && registration
            .closed_on
            .is_none_or(|closed| period.first_day() <= closed)
}

/// The periods whose due dates may fall in `from ..= to`: quarters and elected years
/// ending from the year before `from` to the year of `to` (every due date the
/// ordinances set falls within a few months of the period's end).
fn candidates(election: Election, from: NaiveDate, to: NaiveDate) -> Vec<Period> {
    let mut periods = Vec::new();
    for year in (from.year() - 1)..=to.year() {
        for quarter in 1..=4 {
            periods.extend(Period::quarter(year, quarter).ok());
        }
        let annual = match election {
            Election::Calendar => Period::calendar_year(year),
            Election::Fiscal { year_end } => {
                Period::fiscal_year(year, u32::try_from(year_end.month()).unwrap_or(12))
            }
        };
        periods.extend(annual.ok());
    }
    periods
}

/// The due date of each period asked, under one policy history: computed once
/// (with its explanation, which a list of obligations does not show).
#[derive(Debug, Default)]
pub struct DueDates(HashMap<Period, NaiveDate>);

impl DueDates {
    /// The due date of `period` under `policy`, the version of the history
    /// this memo is kept for that governs it.
    fn of(&mut self, policy: &Policy, period: &Period) -> Result<NaiveDate, DomainError> {
        if let Some(date) = self.0.get(period) {
            return Ok(*date);
        }
        let date = return_due_date(policy, period)?.date;
        self.0.insert(*period, date);
        Ok(date)
    }
}

/// Every return of the payor due in `from ..= to` (see the module doc).
pub fn obligations(
    history: &PolicyHistory,
    registration: &Registration,
    on_file: OnFile<'_>,
    range: DueRange,
    today: NaiveDate,
) -> Result<Vec<Obligation>, DomainError> {
    obligations_with(
        history,
        registration,
        on_file,
        range,
        today,
        &mut DueDates::default(),
    )
}

/// [`obligations`] with due dates taken from and added to `due`, which must
/// have been kept for this same `history` only.
pub fn obligations_with(
    history: &PolicyHistory,
    registration: &Registration,
    on_file: OnFile<'_>,
    range: DueRange,
    today: NaiveDate,
    due: &mut DueDates,
) -> Result<Vec<Obligation>, DomainError> {
    let DueRange { from, to } = range;
    let OnFile {
        returns: filed,
        extensions,
    } = on_file;
    if from > to {
        return Err(DomainError::invalid(
            "from",
            "range_order",
            format!("from {from} is after to {to}"),
        ));
    }
    let mut periods: Vec<Period> = candidates(registration.election, from, to)
        .into_iter()
        .filter(|period| registered_during(registration, period))
        .chain(filed.iter().map(|f| f.period))
        .collect();
    periods.sort();
    periods.dedup();

    let mut out = Vec::new();
    for period in periods {
        let Some(policy) = history.for_period(&period) else {
            continue;
        };
        let due_date = due.of(policy, &period)?;
        if due_date < from || due_date > to {
            continue;
        }
        let extended_to = extensions
            .iter()
            .filter(|e| e.period == period)
            .map(|e| e.extended_to)
            .max();
        let filing_due_date = extended_to.unwrap_or(due_date).max(due_date);
        let on_file = filed
            .iter()
            .filter(|f| f.period == period)
            .min_by_key(|f| f.filed_on);
        let status = match (on_file, extended_to) {
            (Some(f), _) if f.filed_on <= filing_due_date => ObligationStatus::Filed,
            (Some(_), _) => ObligationStatus::FiledLate,
            (None, Some(_)) if today <= filing_due_date => ObligationStatus::Extended,
            (None, _) if today <= due_date => ObligationStatus::NotYetDue,
            (None, _) => ObligationStatus::Missing,
        };
        out.push(Obligation {
            period,
            kind: if period.is_quarter() {
                DueKind::Quarterly
            } else {
                DueKind::Annual
            },
            due_date,
            filing_due_date,
            status,
            return_id: on_file.map(|f| f.return_id.clone()),
            filed_on: on_file.map(|f| f.filed_on),
        });
    }
    out.sort_by_key(|o| (o.due_date, o.kind, o.period));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::{d, history};
    use crate::domain::presets::{hayward, montello};
    use crate::domain::registry::FiscalYearEnd;
    use proptest::prelude::*;

    fn p(text: &str) -> Period {
        text.parse().unwrap()
    }

    #[test]
    fn only_filed_statuses_have_a_return_on_file() {
        let on_file: Vec<_> = ObligationStatus::ALL
            .into_iter()
            .filter(|s| s.is_on_file())
            .map(ObligationStatus::as_str)
            .collect();
        assert_eq!(on_file, ["filed", "filed_late"]);
    }

    /// `obligations` with plain arguments.
    fn owed(
        h: &PolicyHistory,
        reg: &Registration,
        returns: &[FiledReturn],
        extensions: &[GrantedFor],
        range: (&str, &str),
        today: &str,
    ) -> Result<Vec<Obligation>, DomainError> {
        let on_file = OnFile {
            returns,
            extensions,
        };
        let range = DueRange {
            from: d(range.0),
            to: d(range.1),
        };
        obligations(h, reg, on_file, range, d(today))
    }

    fn calendar(opened: &str, closed: Option<&str>) -> Registration {
        Registration {
            opened_on: d(opened),
            closed_on: closed.map(d),
            election: Election::Calendar,
        }
    }

    fn filed(id: &str, period: &str, on: &str) -> FiledReturn {
        FiledReturn {
            return_id: id.into(),
            period: p(period),
            filed_on: d(on),
        }
    }

    /// (period, due date, filing due date, status, return id) of each obligation.
    fn rows(list: &[Obligation]) -> Vec<(String, String, String, &'static str, Option<String>)> {
        list.iter()
            .map(|o| {
                (
                    o.period.to_string(),
                    o.due_date.to_string(),
                    o.filing_due_date.to_string(),
                    o.status.as_str(),
                    o.return_id.clone(),
                )
            })
            .collect()
    }

    fn row(
        period: &str,
        due: &str,
        filing_due: &str,
        status: &'static str,
        id: Option<&str>,
    ) -> (String, String, String, &'static str, Option<String>) {
        (
            period.into(),
            due.into(),
            filing_due.into(),
            status,
            id.map(Into::into),
        )
    }

    #[test]
    fn a_montello_year_hand_computed() {
        let h = history(montello());
        let reg = calendar("2025-05-15", None);
        let on_file = [
            filed("r-q4", "2025-Q4", "2026-01-31"), // a Saturday: Montello's due date stays
            filed("r-y", "2025", "2026-04-02"),     // due 2026-03-31
            filed("r-q1", "2026-Q1", "2026-05-20"), // within its extension
        ];
        let ext = [GrantedFor {
            period: p("2026-Q1"),
            extended_to: d("2026-05-31"),
        }];
        let list = owed(
            &h,
            &reg,
            &on_file,
            &ext,
            ("2026-01-01", "2026-12-31"),
            "2026-06-15",
        )
        .unwrap();
        assert_eq!(
            rows(&list),
            [
                row("2025-Q4", "2026-01-31", "2026-01-31", "filed", Some("r-q4")),
                row(
                    "2025",
                    "2026-03-31",
                    "2026-03-31",
                    "filed_late",
                    Some("r-y")
                ),
                row("2026-Q1", "2026-04-30", "2026-05-31", "filed", Some("r-q1")),
                row("2026-Q2", "2026-07-31", "2026-07-31", "not_yet_due", None),
                row("2026-Q3", "2026-10-31", "2026-10-31", "not_yet_due", None),
            ]
        );
        assert_eq!(list[1].kind, DueKind::Annual);
        assert_eq!(list[1].filed_on, Some(d("2026-04-02")));

        // On 2026-07-31 Q2 is still not yet due; the next day it is missing.
        let on = |today: &str| {
            owed(
                &h,
                &reg,
                &on_file,
                &ext,
                ("2026-07-01", "2026-07-31"),
                today,
            )
            .unwrap()[0]
                .status
        };
        assert_eq!(on("2026-07-31"), ObligationStatus::NotYetDue);
        assert_eq!(on("2026-08-01"), ObligationStatus::Missing);
    }

    #[test]
    fn an_extension_holds_off_missing_until_the_extended_date() {
        let h = history(montello());
        let reg = calendar("2020-01-01", None);
        let ext = [GrantedFor {
            period: p("2026-Q2"),
            extended_to: d("2026-08-31"),
        }];
        let status = |filed_list: &[FiledReturn], today: &str| {
            owed(
                &h,
                &reg,
                filed_list,
                &ext,
                ("2026-07-31", "2026-07-31"),
                today,
            )
            .unwrap()[0]
                .status
        };
        assert_eq!(status(&[], "2026-07-15"), ObligationStatus::Extended);
        assert_eq!(status(&[], "2026-08-31"), ObligationStatus::Extended);
        assert_eq!(status(&[], "2026-09-01"), ObligationStatus::Missing);
        let late = [filed("r", "2026-Q2", "2026-09-01")];
        assert_eq!(status(&late, "2026-09-01"), ObligationStatus::FiledLate);
        let in_time = [filed("r", "2026-Q2", "2026-08-31")];
        assert_eq!(status(&in_time, "2026-12-01"), ObligationStatus::Filed);
    }

    #[test]
    fn hayward_due_dates_and_the_annual_return_with_the_fourth_quarter() {
        let h = history(hayward());
        let list = owed(
            &h,
            &calendar("2024-01-01", None),
            &[],
            &[],
            ("2026-01-01", "2026-12-31"),
            "2026-05-01",
        )
        .unwrap();
        assert_eq!(
            rows(&list),
            [
                row("2025-Q4", "2026-01-30", "2026-01-30", "missing", None),
                row("2025", "2026-01-30", "2026-01-30", "missing", None),
                row("2026-Q1", "2026-04-30", "2026-04-30", "missing", None),
                row("2026-Q2", "2026-07-31", "2026-07-31", "not_yet_due", None),
                row("2026-Q3", "2026-10-30", "2026-10-30", "not_yet_due", None),
            ]
        );
    }

    #[test]
    fn registration_bounds_what_is_owed_but_not_what_is_on_file() {
        let h = history(montello());
        let range = ("2026-01-01", "2026-12-31");
        // Opened 2026-04-01: nothing of 2025 is owed; closed 2026-07-01: Q3 shares a day.
        let reg = calendar("2026-04-01", Some("2026-07-01"));
        let list = owed(&h, &reg, &[], &[], range, "2026-12-01").unwrap();
        let periods: Vec<String> = list.iter().map(|o| o.period.to_string()).collect();
        assert_eq!(periods, ["2026-Q2", "2026-Q3"]);
        // Closed 2026-06-30: Q3 is not owed.
        let reg = calendar("2026-04-01", Some("2026-06-30"));
        let list = owed(&h, &reg, &[], &[], range, "2026-12-01").unwrap();
        assert_eq!(list.len(), 1);
        // A return on file outside the registration is still listed.
        let on_file = [filed("r", "2025-Q4", "2026-01-10")];
        let list = owed(&h, &reg, &on_file, &[], range, "2026-12-01").unwrap();
        assert_eq!(list[0].period, p("2025-Q4"));
        assert_eq!(list[0].status, ObligationStatus::Filed);
    }

    #[test]
    fn fiscal_elections_and_their_refusal() {
        let fiscal = Registration {
            election: Election::Fiscal {
                year_end: FiscalYearEnd::parse("m", 6).unwrap(),
            },
            ..calendar("2020-01-01", None)
        };
        let list = owed(
            &history(montello()),
            &fiscal,
            &[],
            &[],
            ("2026-01-01", "2026-12-31"),
            "2026-01-01",
        )
        .unwrap();
        let annual: Vec<_> = list.iter().filter(|o| o.kind == DueKind::Annual).collect();
        assert_eq!(annual.len(), 1);
        assert_eq!(
            (annual[0].period, annual[0].due_date),
            (p("FY2026-06"), d("2026-09-28"))
        );
        match owed(
            &history(hayward()),
            &fiscal,
            &[],
            &[],
            ("2026-01-01", "2026-12-31"),
            "2026-01-01",
        ) {
            Err(DomainError::Invalid { field, rule, .. }) => {
                assert_eq!(
                    (field.as_str(), rule.as_str()),
                    ("period", "fiscal_year_not_allowed")
                )
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn amendments_keep_the_original_filing_date() {
        let on_file = [
            filed("r", "2026-Q1", "2026-06-01"), // the amendment
            filed("r", "2026-Q1", "2026-04-20"), // the original
        ];
        let list = owed(
            &history(montello()),
            &calendar("2020-01-01", None),
            &on_file,
            &[],
            ("2026-04-30", "2026-04-30"),
            "2026-07-01",
        )
        .unwrap();
        assert_eq!(list[0].status, ObligationStatus::Filed);
        assert_eq!(list[0].filed_on, Some(d("2026-04-20")));
    }

    #[test]
    fn periods_before_the_first_policy_owe_nothing_and_ranges_are_ordered() {
        let h = history(montello()); // effective 2020-01-01
        let list = owed(
            &h,
            &calendar("2019-01-01", None),
            &[],
            &[],
            ("2020-01-01", "2020-04-30"),
            "2020-05-01",
        )
        .unwrap();
        let periods: Vec<String> = list.iter().map(|o| o.period.to_string()).collect();
        assert_eq!(periods, ["2020-Q1"], "2019-Q4 and 2019 predate the policy");
        match owed(
            &h,
            &calendar("2019-01-01", None),
            &[],
            &[],
            ("2020-02-01", "2020-01-01"),
            "2020-05-01",
        ) {
            Err(DomainError::Invalid { field, rule, .. }) => {
                assert_eq!((field.as_str(), rule.as_str()), ("from", "range_order"))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            ObligationStatus::parse("status", "filed_late"),
            Ok(ObligationStatus::FiledLate)
        );
        assert!(ObligationStatus::parse("status", "late").is_err());
    }

    proptest! {
        /// One memo of due dates kept across many payors (the clerk's view of a
        /// period) changes no payor's obligations, whatever the order asked.
        #[test]
        fn due_dates_kept_across_payors_change_nothing(
            opened in proptest::collection::vec(0u64..2500, 1..6),
            from_offset in 0u64..2500,
            length in 0u64..800,
            fiscal_month in proptest::option::of(1i64..=11),
            hayward_policy: bool,
        ) {
            let base = d("2019-01-01");
            let from = base + chrono::Days::new(from_offset);
            let to = from + chrono::Days::new(length);
            let today = d("2026-12-01");
            let h = history(if hayward_policy { hayward() } else { montello() });
            let mut kept = DueDates::default();
            for (i, offset) in opened.iter().enumerate() {
                let election = match fiscal_month {
                    Some(m) if i % 2 == 1 => Election::Fiscal {
                        year_end: FiscalYearEnd::parse("m", m).unwrap(),
                    },
                    _ => Election::Calendar,
                };
                let reg = Registration {
                    opened_on: base + chrono::Days::new(*offset),
                    closed_on: None,
                    election,
                };
                let range = DueRange { from, to };
                let alone = obligations(&h, &reg, OnFile::default(), range, today);
                let shared = obligations_with(&h, &reg, OnFile::default(), range, today, &mut kept);
                prop_assert_eq!(alone.is_ok(), shared.is_ok());
                if let (Ok(a), Ok(b)) = (alone, shared) {
                    prop_assert_eq!(a, b);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn sorted_in_range_one_per_period_and_filed_only_when_on_file(
            from_offset in 0u64..3000,
            length in 0u64..1500,
            today_offset in 0u64..5000,
            hayward_policy: bool,
        ) {
            let base = d("2020-01-01");
            let from = base + chrono::Days::new(from_offset);
            let to = from + chrono::Days::new(length);
            let today = base + chrono::Days::new(today_offset);
            let h = history(if hayward_policy { hayward() } else { montello() });
            let list = obligations(&h, &calendar("2020-01-01", None), OnFile::default(), DueRange { from, to }, today).unwrap();
            let mut seen = std::collections::BTreeSet::new();
            for pair in list.windows(2) {
                prop_assert!(pair[0].due_date <= pair[1].due_date);
            }
            for o in &list {
                prop_assert!(from <= o.due_date && o.due_date <= to);
                prop_assert!(seen.insert(o.period));
                let expected = if today <= o.due_date { ObligationStatus::NotYetDue } else { ObligationStatus::Missing };
                prop_assert_eq!(o.status, expected);
            }
            // Quarterly due dates are about three months apart, so a range of a year or
            // more (after 2019-Q4's due date, which predates the registration) holds four.
            if length >= 365 && from_offset > 31 {
                let quarters = list.iter().filter(|o| o.kind == DueKind::Quarterly).count();
                prop_assert!(quarters >= 4);
            }
        }
    }
}

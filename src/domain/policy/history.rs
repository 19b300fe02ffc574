//! [`PolicyHistory`]: a municipality's policy versions, ordered by effective date.
//!
//! Contract:
//! - the version in force on a date is the one with the latest `effective_from` on or
//!   before it; the version governing a period is the one in force on the period's last
//!   day (DESIGN §2 "Policy version"; issue 3 item 2), so one version governs a whole
//!   period and a past period computes the same forever;
//! - effective dates are unique; every stored version is valid;
//! - [`PolicyHistory::can_add`] refuses a new effective date that would change the
//!   version governing a period that has already ended. Every period (quarter, calendar
//!   year, fiscal year) ends on a month's last day, so the first period a version
//!   effective on `e` can govern ends on the last day of `e`'s month. A period counts as
//!   ended once its last day is before `today`: on its last day it is still running (the
//!   stays of that day are still taxed under it). So `e` is refused when the last day of
//!   its month (or of the month of the earliest existing version, if later: before that
//!   no period was governed) is before `today`, unless a later version already takes
//!   effect before that day. In practice: an effective date in the current month (even
//!   a past day of it, and even on the month's last day) or later is accepted; one in a
//!   month that has ended is refused. (Until issue 7 the last day itself was refused,
//!   which refused a version effective from the 1st on the month's last day.)

use std::sync::Arc;

use chrono::{Datelike, NaiveDate};

use super::{Policy, PolicyError};
use crate::domain::DomainError;
use crate::domain::calendar::last_day_of_month;
use crate::domain::period::Period;

/// The forward-only rule, shared by policy versions and zone leaving (one rule, written
/// once): a change that takes effect on `first_changed_day` touches every period whose
/// last day is on or after it, and the first of those ends on the last day of that day's
/// month (every period ends on a month's last day). That period has ended when its last
/// day is before `today` (on its last day it is still running): then the change is refused, and this returns that day.
pub fn ended_period_changed(first_changed_day: NaiveDate, today: NaiveDate) -> Option<NaiveDate> {
    let first_period_end = last_day_of_month(first_changed_day.year(), first_changed_day.month());
    (first_period_end < today).then_some(first_period_end)
}

/// A municipality's policy versions, sorted by `effective_from`, each valid.
///
/// The versions are shared: a clone (every unit of work takes one from the
/// parsed histories kept in memory, `db::policies`) is a reference count, and
/// [`PolicyHistory::add`] copies them only when another holder shares them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolicyHistory {
    versions: Arc<Vec<Policy>>,
}

impl PolicyHistory {
    /// Builds a history from versions in any order; validates each and refuses two
    /// versions on the same effective date. No `can_add` check: these are stored versions.
    pub fn new(mut versions: Vec<Policy>) -> Result<PolicyHistory, PolicyError> {
        for policy in &versions {
            policy.validate()?;
        }
        versions.sort_by_key(|p| p.effective_from);
        if let Some(pair) = versions
            .windows(2)
            .find(|w| w[0].effective_from == w[1].effective_from)
        {
            return Err(PolicyError::DuplicateEffectiveDate(pair[0].effective_from));
        }
        Ok(PolicyHistory {
            versions: Arc::new(versions),
        })
    }

    /// A history of one version.
    pub fn single(policy: Policy) -> Result<PolicyHistory, PolicyError> {
        PolicyHistory::new(vec![policy])
    }

    /// The versions, oldest first.
    pub fn versions(&self) -> &[Policy] {
        &self.versions
    }

    /// The version in force now or at the latest date given: the last one.
    pub fn latest(&self) -> Option<&Policy> {
        self.versions.last()
    }

    /// The version in force on `date`: the latest effective on or before it.
    pub fn in_force_on(&self, date: NaiveDate) -> Option<&Policy> {
        self.versions
            .iter()
            .rev()
            .find(|p| p.effective_from <= date)
    }

    /// The version governing `period`: the one in force on its last day.
    pub fn for_period(&self, period: &Period) -> Option<&Policy> {
        self.in_force_on(period.last_day())
    }

    /// The version in force on `date`, or [`DomainError::NoPolicy`] naming the date.
    pub fn governing_on(&self, date: NaiveDate) -> Result<&Policy, DomainError> {
        self.in_force_on(date).ok_or(DomainError::NoPolicy { date })
    }

    /// The version governing `period` ([`Self::for_period`]), or
    /// [`DomainError::NoPolicy`] naming the period's last day.
    pub fn governing(&self, period: &Period) -> Result<&Policy, DomainError> {
        self.governing_on(period.last_day())
    }

    /// Whether a version effective on `effective_from` may be added on `today` (rule in
    /// the module doc).
    pub fn can_add(&self, effective_from: NaiveDate, today: NaiveDate) -> Result<(), PolicyError> {
        if self
            .versions
            .iter()
            .any(|p| p.effective_from == effective_from)
        {
            return Err(PolicyError::DuplicateEffectiveDate(effective_from));
        }
        let Some(earliest) = self.versions.first().map(|p| p.effective_from) else {
            return Ok(());
        };
        let start = effective_from.max(earliest);
        let next_version = self
            .versions
            .iter()
            .map(|p| p.effective_from)
            .find(|&date| date > effective_from);
        if let Some(period_end) = ended_period_changed(start, today)
            && next_version.is_none_or(|next| period_end < next)
        {
            return Err(PolicyError::WouldChangeEndedPeriod {
                effective_from,
                period_end,
                today,
            });
        }
        Ok(())
    }

    /// Validates `policy`, checks [`PolicyHistory::can_add`] and inserts it in order.
    pub fn add(&mut self, policy: Policy, today: NaiveDate) -> Result<(), PolicyError> {
        policy.validate()?;
        self.can_add(policy.effective_from, today)?;
        let index = self
            .versions
            .partition_point(|p| p.effective_from < policy.effective_from);
        Arc::make_mut(&mut self.versions).insert(index, policy);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::d;
    use crate::domain::presets;
    use rust_decimal::Decimal;

    fn version(effective: &str, rate_permille: i64) -> Policy {
        let mut policy = presets::montello();
        policy.effective_from = d(effective);
        policy.rate.value = Decimal::new(rate_permille, 3);
        policy
    }

    #[test]
    fn the_version_in_force_on_the_last_day_governs() {
        let history =
            PolicyHistory::new(vec![version("2026-05-15", 55), version("2020-01-01", 45)]).unwrap();
        let rate = |p: &str| {
            history
                .for_period(&p.parse().unwrap())
                .map(|p| p.rate.value.to_string())
        };
        assert_eq!(rate("2026-Q1").as_deref(), Some("0.045"));
        // 2026-Q2 ends 2026-06-30, after the change on 2026-05-15: the whole quarter at 5.5 %.
        assert_eq!(rate("2026-Q2").as_deref(), Some("0.055"));
        assert_eq!(rate("2026").as_deref(), Some("0.055"));
        assert_eq!(rate("FY2026-04").as_deref(), Some("0.045"));
        assert_eq!(rate("2019-Q4"), None);
        assert_eq!(
            history
                .in_force_on(d("2026-05-14"))
                .map(|p| p.effective_from),
            Some(d("2020-01-01"))
        );
        assert_eq!(
            history
                .in_force_on(d("2026-05-15"))
                .map(|p| p.effective_from),
            Some(d("2026-05-15"))
        );
    }

    #[test]
    fn duplicates_are_refused() {
        let err = PolicyHistory::new(vec![version("2020-01-01", 45), version("2020-01-01", 50)]);
        assert_eq!(
            err,
            Err(PolicyError::DuplicateEffectiveDate(d("2020-01-01")))
        );
    }

    #[test]
    fn can_add_never_changes_an_ended_period() {
        let history = PolicyHistory::single(version("2020-01-01", 45)).unwrap();
        let today = d("2026-05-10");
        let cases = [
            ("2026-05-01", true), // May has not ended: no period ending in May has ended
            ("2026-05-10", true),
            ("2026-06-01", true),
            ("2026-04-30", false), // FY2026-04 ended 2026-04-30
            ("2026-04-01", false),
            ("2025-01-01", false),
            ("2019-06-01", true),  // before the first version: governed nothing
            ("2020-01-01", false), // duplicate
        ];
        for (effective, ok) in cases {
            assert_eq!(
                history.can_add(d(effective), today).is_ok(),
                ok,
                "{effective}"
            );
        }
        // Regression (issue 7): on the last day of a month, that month has not ended,
        // so a version effective from its first day is still accepted; the next day
        // it is refused.
        assert!(history.can_add(d("2026-05-01"), d("2026-05-31")).is_ok());
        assert!(history.can_add(d("2026-05-20"), d("2026-05-31")).is_ok());
        assert!(history.can_add(d("2026-05-01"), d("2026-06-01")).is_err());
        assert!(history.can_add(d("2026-02-01"), d("2026-02-28")).is_ok());
        assert!(
            PolicyHistory::default()
                .can_add(d("1995-01-01"), today)
                .is_ok()
        );
    }

    #[test]
    fn can_add_between_versions_only_where_it_governs_nothing_ended() {
        let history =
            PolicyHistory::new(vec![version("2020-01-01", 45), version("2026-04-10", 50)]).unwrap();
        // 2026-04-05 would govern nothing: the next version starts before April ends.
        assert!(history.can_add(d("2026-04-05"), d("2026-05-10")).is_ok());
        assert!(history.can_add(d("2026-03-05"), d("2026-05-10")).is_err());
    }

    #[test]
    fn add_inserts_in_order() {
        let mut history = PolicyHistory::single(version("2020-01-01", 45)).unwrap();
        history
            .add(version("2027-01-01", 50), d("2026-05-10"))
            .unwrap();
        history
            .add(version("2026-07-01", 48), d("2026-05-10"))
            .unwrap();
        let dates: Vec<NaiveDate> = history
            .versions()
            .iter()
            .map(|p| p.effective_from)
            .collect();
        assert_eq!(dates, [d("2020-01-01"), d("2026-07-01"), d("2027-01-01")]);
        assert!(
            history
                .add(version("2026-01-01", 50), d("2026-05-10"))
                .is_err()
        );
        assert_eq!(
            history.latest().map(|p| p.effective_from),
            Some(d("2027-01-01"))
        );
    }
}

//! Zone membership rules: when a municipality is in a zone, when it may join
//! and leave, and the statute's one-rate rule. Pure: no I/O.
//!
//! Contract:
//! - a [`Stint`] runs from `joined_on` (its first day in the zone) to `left_on`
//!   (its **last** day in the zone), both included; open-ended while `left_on`
//!   is absent. From the day after `left_on` the municipality is outside the
//!   zone and forwards no share to the zone's commission ([`Stint::covers`]);
//! - a municipality belongs to at most one zone at a time: a new stint that
//!   overlaps any other is refused ([`check_no_overlap`], rule `one_zone_at_a_time`);
//! - joining takes both sides: the municipality's acceptance makes the
//!   membership effective from the first day of the acceptance's month at the
//!   earliest; an invitation may propose a later date, never an earlier one
//!   than the month it is sent in ([`check_proposed_date`], [`effective_join_date`]);
//! - leaving is after joining (rule `after_joined_on`) and forward-only: it
//!   may not change a period that has ended, the same rule as policy versions
//!   ([`ended_period_changed`], rule `not_retroactive`);
//! - every member of a zone levies the same rate (Wis. Stat. § 66.0615;
//!   shared/ordinances/README.md): [`check_same_rate`], rule `zone_same_rate`;
//! - an invitation is answered once: only a pending one can be accepted,
//!   declined or withdrawn ([`InvitationStatus::answer`], rule `invitation_pending`).

use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;

use super::policy::ended_period_changed;

/// The statute sentence the one-rate rule cites.
pub const SAME_RATE_CITATION: &str =
    "Wis. Stat. § 66.0615: all municipalities of a tourism zone levy the same room tax rate";

/// One stretch of a municipality's membership in a zone (both ends included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stint {
    /// First day in the zone.
    pub joined_on: NaiveDate,
    /// Last day in the zone; `None` while the membership is open.
    pub left_on: Option<NaiveDate>,
}

impl Stint {
    /// Whether the municipality is in the zone on `date`.
    pub fn covers(&self, date: NaiveDate) -> bool {
        self.joined_on <= date && self.left_on.is_none_or(|left| date <= left)
    }

    /// Whether the two stints share a day.
    pub fn overlaps(&self, other: &Stint) -> bool {
        let ends_before = |a: &Stint, b: &Stint| a.left_on.is_some_and(|l| l < b.joined_on);
        !ends_before(self, other) && !ends_before(other, self)
    }
}

/// Whether any of `stints` covers `date`.
pub fn member_on(stints: &[Stint], date: NaiveDate) -> bool {
    stints.iter().any(|s| s.covers(date))
}

/// A membership rule that was broken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MembershipError {
    /// An input date breaks a rule (a 422 on `field`).
    #[error("{field}: {message} (rule {rule})")]
    Invalid {
        /// The request field, e.g. `left_on`.
        field: &'static str,
        /// Stable rule id.
        rule: &'static str,
        /// A sentence for people.
        message: String,
    },
    /// The request conflicts with the zone's or the municipality's state (a 409).
    #[error("{message} (rule {rule})")]
    Conflict {
        /// The field or subject at fault, e.g. `municipality` or `rate`.
        field: &'static str,
        /// Stable rule id.
        rule: &'static str,
        /// A sentence for people, citing the law where a law sets the rule.
        message: String,
    },
}

fn first_of_month(date: NaiveDate) -> NaiveDate {
    date.with_day(1).expect("every month has a first day")
}

/// An invitation's proposed date may not be before the month it is sent in.
pub fn check_proposed_date(
    proposed: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<(), MembershipError> {
    match proposed {
        Some(date) if date < first_of_month(today) => Err(MembershipError::Invalid {
            field: "joined_on",
            rule: "not_before_acceptance_month",
            message: format!(
                "membership takes effect when the municipality accepts: propose {} or later",
                first_of_month(today)
            ),
        }),
        _ => Ok(()),
    }
}

/// The day an accepted invitation takes effect: the proposed day, but never before the
/// first day of the month the municipality accepts in.
pub fn effective_join_date(proposed: Option<NaiveDate>, accepted_on: NaiveDate) -> NaiveDate {
    let earliest = first_of_month(accepted_on);
    proposed.map_or(earliest, |p| p.max(earliest))
}

/// Refuse `new` when it overlaps one of `others` (`(zone slug, stint)` pairs, any zone).
pub fn check_no_overlap(
    municipality: &str,
    new: &Stint,
    others: &[(String, Stint)],
) -> Result<(), MembershipError> {
    match others.iter().find(|(_, s)| s.overlaps(new)) {
        None => Ok(()),
        Some((zone, s)) => Err(MembershipError::Conflict {
            field: "municipality",
            rule: "one_zone_at_a_time",
            message: format!(
                "{municipality} is a member of zone `{zone}` from {}{}: a municipality belongs to one zone at a time",
                s.joined_on,
                s.left_on.map(|d| format!(" to {d}")).unwrap_or_default()
            ),
        }),
    }
}

/// Refuse a leave on `left_on` (last day in the zone) of `open` on `today`.
pub fn check_leave(
    open: &Stint,
    left_on: NaiveDate,
    today: NaiveDate,
) -> Result<(), MembershipError> {
    if left_on <= open.joined_on {
        return Err(MembershipError::Invalid {
            field: "left_on",
            rule: "after_joined_on",
            message: format!("must be after the day it joined, {}", open.joined_on),
        });
    }
    let first_day_outside = left_on.succ_opt().unwrap_or(left_on);
    if let Some(period_end) = ended_period_changed(first_day_outside, today) {
        return Err(MembershipError::Invalid {
            field: "left_on",
            rule: "not_retroactive",
            message: format!(
                "leaving after {left_on} would change the commission's share of the period ending {period_end}, which has already ended (today is {today}); the same forward-only rule as policy versions: give a last day in the zone no earlier than the last day of the previous month"
            ),
        });
    }
    Ok(())
}

/// Every member of a zone levies the same rate: refuse `rate` of `municipality` when a
/// member in `members` (`(slug, rate)` pairs on the same date, the municipality itself
/// left out) levies another.
pub fn check_same_rate(
    municipality: &str,
    rate: Decimal,
    on: NaiveDate,
    members: &[(String, Decimal)],
) -> Result<(), MembershipError> {
    match members.iter().find(|(_, r)| *r != rate) {
        None => Ok(()),
        Some((other, other_rate)) => Err(MembershipError::Conflict {
            field: "rate",
            rule: "zone_same_rate",
            message: format!(
                "{municipality} would levy {} on {on} while zone member {other} levies {} ({SAME_RATE_CITATION})",
                rate.normalize(),
                other_rate.normalize()
            ),
        }),
    }
}

/// Where an invitation stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvitationStatus {
    /// Sent, not answered.
    Pending,
    /// Accepted by the municipality: a membership was recorded.
    Accepted,
    /// Declined by the municipality.
    Declined,
    /// Withdrawn by the zone before an answer.
    Withdrawn,
}

impl InvitationStatus {
    /// The stored and JSON form.
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Accepted => "accepted",
            Self::Declined => "declined",
            Self::Withdrawn => "withdrawn",
        }
    }

    /// Parses the stored form.
    pub fn parse(s: &str) -> Option<Self> {
        [
            Self::Pending,
            Self::Accepted,
            Self::Declined,
            Self::Withdrawn,
        ]
        .into_iter()
        .find(|v| v.as_str() == s)
    }

    /// The status after `answer`: only a pending invitation can be answered, once.
    pub fn answer(self, answer: InvitationStatus) -> Result<InvitationStatus, MembershipError> {
        match (self, answer) {
            (Self::Pending, Self::Accepted | Self::Declined | Self::Withdrawn) => Ok(answer),
            _ => Err(MembershipError::Conflict {
                field: "invitation",
                rule: "invitation_pending",
                message: format!(
                    "this invitation is {}: only a pending invitation can be {}",
                    self.as_str(),
                    answer.as_str()
                ),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    fn stint(joined: &str, left: Option<&str>) -> Stint {
        Stint {
            joined_on: d(joined),
            left_on: left.map(d),
        }
    }

    fn rule(r: Result<(), MembershipError>) -> &'static str {
        match r {
            Ok(()) => "ok",
            Err(MembershipError::Invalid { rule, .. } | MembershipError::Conflict { rule, .. }) => {
                rule
            }
        }
    }

    #[test]
    fn left_on_is_the_last_day_inside() {
        let s = stint("2026-01-01", Some("2026-06-30"));
        assert!(!s.covers(d("2025-12-31")));
        assert!(s.covers(d("2026-01-01")));
        assert!(s.covers(d("2026-06-30")));
        assert!(
            !s.covers(d("2026-07-01")),
            "from the day after left_on: outside"
        );
        assert!(stint("2026-01-01", None).covers(d("2199-01-01")));
        assert!(member_on(&[s], d("2026-03-31")));
        assert!(!member_on(&[], d("2026-03-31")));
    }

    #[test]
    fn one_zone_at_a_time() {
        let others = vec![("a".to_owned(), stint("2026-01-01", Some("2026-06-30")))];
        for (new, expected) in [
            (stint("2026-07-01", None), "ok"),
            (stint("2026-06-30", None), "one_zone_at_a_time"),
            (stint("2025-01-01", Some("2025-12-31")), "ok"),
            (
                stint("2025-01-01", Some("2026-01-01")),
                "one_zone_at_a_time",
            ),
            (stint("2025-01-01", None), "one_zone_at_a_time"),
        ] {
            assert_eq!(
                rule(check_no_overlap("m", &new, &others)),
                expected,
                "{new:?}"
            );
        }
    }

    #[test]
    fn joining_is_effective_no_earlier_than_the_acceptance_month() {
        let today = d("2026-12-15");
        assert_eq!(rule(check_proposed_date(None, today)), "ok");
        assert_eq!(
            rule(check_proposed_date(Some(d("2026-12-01")), today)),
            "ok"
        );
        assert_eq!(
            rule(check_proposed_date(Some(d("2026-11-30")), today)),
            "not_before_acceptance_month"
        );
        assert_eq!(effective_join_date(None, today), d("2026-12-01"));
        assert_eq!(
            effective_join_date(Some(d("2027-01-01")), today),
            d("2027-01-01")
        );
        // Sent in November, accepted in December: December 1st at the earliest.
        assert_eq!(
            effective_join_date(Some(d("2026-11-01")), today),
            d("2026-12-01")
        );
    }

    #[test]
    fn leaving_is_after_joining_and_forward_only() {
        let open = stint("2020-01-01", None);
        let today = d("2026-12-15");
        for (left_on, expected) in [
            ("2020-01-01", "after_joined_on"),
            ("2026-11-30", "ok"), // December is outside: no ended period changes
            ("2026-11-29", "not_retroactive"), // would take November from the commission
            ("2026-12-15", "ok"),
            ("2027-06-30", "ok"),
        ] {
            assert_eq!(
                rule(check_leave(&open, d(left_on), today)),
                expected,
                "{left_on}"
            );
        }
        // On a month's last day that month is still running (the same rule as policy
        // versions); the day after, it has ended.
        assert_eq!(
            rule(check_leave(&open, d("2026-11-30"), d("2026-12-31"))),
            "ok"
        );
        assert_eq!(
            rule(check_leave(&open, d("2026-11-30"), d("2027-01-01"))),
            "not_retroactive"
        );
    }

    #[test]
    fn members_share_one_rate() {
        let rate = |s: &str| Decimal::from_str(s).unwrap();
        let on = d("2027-01-01");
        let members = vec![("montello".to_owned(), rate("0.045"))];
        assert_eq!(
            rule(check_same_rate("x", rate("0.0450"), on, &members)),
            "ok"
        );
        assert_eq!(rule(check_same_rate("x", rate("0.04"), on, &[])), "ok");
        let err = check_same_rate("hayward", rate("0.04"), on, &members).unwrap_err();
        assert_eq!(rule(Err(err.clone())), "zone_same_rate");
        assert!(err.to_string().contains("Wis. Stat. § 66.0615"), "{err}");
        assert!(err.to_string().contains("0.04") && err.to_string().contains("0.045"));
    }

    #[test]
    fn an_invitation_is_answered_once() {
        use InvitationStatus::*;
        assert_eq!(Pending.answer(Accepted), Ok(Accepted));
        assert_eq!(Pending.answer(Declined), Ok(Declined));
        assert_eq!(Pending.answer(Withdrawn), Ok(Withdrawn));
        for done in [Accepted, Declined, Withdrawn] {
            for answer in [Accepted, Declined, Withdrawn] {
                assert!(done.answer(answer).is_err(), "{done:?} then {answer:?}");
            }
        }
        assert!(Pending.answer(Pending).is_err());
        for s in [Pending, Accepted, Declined, Withdrawn] {
            assert_eq!(InvitationStatus::parse(s.as_str()), Some(s));
        }
    }
}

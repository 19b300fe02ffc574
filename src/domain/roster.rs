//! The commission roster: who sits on the zone's tourism commission, and
//! whether the industry holds its half of the seats.
//!
//! Contract: "Membership of the commission shall include at least 1/2 of its
//! members drawn from representatives of the Wisconsin lodging and tourism
//! industry" (Montello room tax, definitions, ZONE; Wis. Stat.
//! § 66.0615(1m)(c)2). A membership is current on a day from its
//! `term_start` to its `term_end` (both included; none: open-ended).
//! [`roster_warning`] judges the current members: exactly half is enough,
//! fewer than half is a warning; an empty roster is a warning too (nobody
//! represents the industry). A term ends on or after it starts
//! ([`check_term`]). Pure: no I/O.

use chrono::NaiveDate;

use crate::domain::DomainError;

/// The citation of the commission's composition.
pub const COMMISSION_CITATION: &str = "Montello room tax, definitions, ZONE (\"Membership of the commission shall include at least 1/2 of its members drawn from representatives of the Wisconsin lodging and tourism industry\"); Wis. Stat. § 66.0615(1m)(c)2";

/// One membership of the commission, as the rule needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Whether the member represents the Wisconsin lodging and tourism industry.
    pub represents_lodging_and_tourism_industry: bool,
    /// First day of the term.
    pub term_start: NaiveDate,
    /// Last day of the term, once ended.
    pub term_end: Option<NaiveDate>,
}

impl Member {
    /// Whether the membership is current on `on`.
    pub fn is_current(&self, on: NaiveDate) -> bool {
        self.term_start <= on && self.term_end.is_none_or(|end| end >= on)
    }
}

/// The members current on `on`.
pub fn current_on(members: &[Member], on: NaiveDate) -> Vec<Member> {
    members
        .iter()
        .filter(|m| m.is_current(on))
        .cloned()
        .collect()
}

/// A warning when fewer than half of `current` (the current members)
/// represent the lodging and tourism industry; `None` when at least half do.
pub fn roster_warning(current: &[Member]) -> Option<String> {
    let total = current.len();
    let industry = current
        .iter()
        .filter(|m| m.represents_lodging_and_tourism_industry)
        .count();
    if total == 0 {
        return Some(format!(
            "the commission has no current members; at least half must represent the Wisconsin lodging and tourism industry ({COMMISSION_CITATION})"
        ));
    }
    (industry * 2 < total).then(|| {
        format!(
            "only {industry} of the commission's {total} current members represent the Wisconsin lodging and tourism industry; at least half must ({COMMISSION_CITATION})"
        )
    })
}

/// Refuse a term that ends before it starts (`term_end`, rule `term_end_not_before_start`).
pub fn check_term(term_start: NaiveDate, term_end: NaiveDate) -> Result<(), DomainError> {
    if term_end < term_start {
        return Err(DomainError::invalid(
            "term_end",
            "term_end_not_before_start",
            format!("must not be before the term's start ({term_start})"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, m, day).unwrap()
    }

    fn member(industry: bool) -> Member {
        Member {
            represents_lodging_and_tourism_industry: industry,
            term_start: d(1, 1),
            term_end: None,
        }
    }

    #[test]
    fn half_is_enough_and_less_warns() {
        assert_eq!(roster_warning(&[member(true), member(false)]), None);
        assert_eq!(
            roster_warning(&[member(true), member(true), member(false), member(false)]),
            None
        );
        let warned = roster_warning(&[member(true), member(false), member(false)]).unwrap();
        assert!(warned.contains("only 1 of the commission's 3"), "{warned}");
        assert!(warned.contains("definitions, ZONE"), "{warned}");
        assert!(roster_warning(&[]).is_some());
        assert_eq!(roster_warning(&[member(true)]), None);
    }

    #[test]
    fn a_term_is_current_between_its_days() {
        let ended = Member {
            term_end: Some(d(6, 30)),
            ..member(true)
        };
        assert!(ended.is_current(d(6, 30)));
        assert!(!ended.is_current(d(7, 1)));
        assert!(!ended.is_current(NaiveDate::from_ymd_opt(2025, 12, 31).unwrap()));
        let all = [ended, member(false)];
        assert_eq!(current_on(&all, d(7, 1)).len(), 1);
        // After the industry member left, the roster warns.
        assert!(roster_warning(&current_on(&all, d(7, 1))).is_some());
        assert!(roster_warning(&current_on(&all, d(6, 1))).is_none());
        assert!(check_term(d(2, 1), d(1, 31)).is_err());
        assert!(check_term(d(2, 1), d(2, 1)).is_ok());
    }
}

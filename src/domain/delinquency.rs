//! Delinquency: how long an unpaid amount is past due, and whether the
//! municipality's ordinance lets unpaid tax become a special assessment.
//!
//! Contract: pure. Tax "shall become delinquent if not paid by the due date
//! of the return" (Montello room tax, late filing fee ¶; Hayward room tax,
//! due date: "must be received ... on or before the last business day"):
//! an amount is past due the day after the (extended) due date of its
//! return, and [`AgeBucket::of`] sorts the days past due into the usual
//! aging buckets. [`special_assessment`] answers, per municipality, the
//! ordinance provision that makes unpaid tax an assessment on the payor's
//! land, or why there is none.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// An aging bucket of days past the due date.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
pub enum AgeBucket {
    /// 1 to 30 days past due.
    #[serde(rename = "1-30")]
    UpTo30,
    /// 31 to 60 days past due.
    #[serde(rename = "31-60")]
    UpTo60,
    /// 61 to 90 days past due.
    #[serde(rename = "61-90")]
    UpTo90,
    /// More than 90 days past due.
    #[serde(rename = "over-90")]
    Over90,
}

impl AgeBucket {
    /// Every bucket, youngest first.
    pub const ALL: [AgeBucket; 4] = [
        AgeBucket::UpTo30,
        AgeBucket::UpTo60,
        AgeBucket::UpTo90,
        AgeBucket::Over90,
    ];

    /// The bucket of an amount `days` past due; `None` when not past due (0 or fewer).
    pub fn of(days: i64) -> Option<AgeBucket> {
        match days {
            ..=0 => None,
            1..=30 => Some(AgeBucket::UpTo30),
            31..=60 => Some(AgeBucket::UpTo60),
            61..=90 => Some(AgeBucket::UpTo90),
            _ => Some(AgeBucket::Over90),
        }
    }

    /// The shown name (`1-30`, `31-60`, `61-90`, `over-90`).
    pub fn as_str(self) -> &'static str {
        match self {
            AgeBucket::UpTo30 => "1-30",
            AgeBucket::UpTo60 => "31-60",
            AgeBucket::UpTo90 => "61-90",
            AgeBucket::Over90 => "over-90",
        }
    }
}

/// Days from `due` to `as_of` (positive: past due).
pub fn days_past_due(due: NaiveDate, as_of: NaiveDate) -> i64 {
    (as_of - due).num_days()
}

/// Montello's provision.
pub const MONTELLO_SPECIAL_ASSESSMENT: &str = "Montello room tax, administration ¶: \"Any unpaid tax imposed by this article may, in addition to other penalties available herein, be deemed to be an assessment on any land owned by the payor inside the legal boundaries of the municipality\"";

/// Why Hayward has none.
pub const HAYWARD_NO_SPECIAL_ASSESSMENT: &str = "Hayward room tax: the ordinance makes no provision for entering unpaid room tax as an assessment on land; it provides forfeitures and lets the court \"enter, as a judgment, the sums due the City as room taxes\" (violations ¶)";

/// The provision that makes the municipality's unpaid tax a special
/// assessment (`Ok`, its citation), or why there is none (`Err`). Keyed by
/// the municipality's slug: the two ordinances this service implements.
pub fn special_assessment(slug: &str) -> Result<&'static str, &'static str> {
    match slug {
        "montello" => Ok(MONTELLO_SPECIAL_ASSESSMENT),
        "hayward" => Err(HAYWARD_NO_SPECIAL_ASSESSMENT),
        _ => Err(
            "this municipality's ordinance is not known to provide a special assessment for unpaid room tax",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_have_their_edges_where_the_names_say() {
        let cases = [
            (-3, None),
            (0, None),
            (1, Some(AgeBucket::UpTo30)),
            (30, Some(AgeBucket::UpTo30)),
            (31, Some(AgeBucket::UpTo60)),
            (60, Some(AgeBucket::UpTo60)),
            (61, Some(AgeBucket::UpTo90)),
            (90, Some(AgeBucket::UpTo90)),
            (91, Some(AgeBucket::Over90)),
            (4000, Some(AgeBucket::Over90)),
        ];
        for (days, bucket) in cases {
            assert_eq!(AgeBucket::of(days), bucket, "{days}");
        }
    }

    #[test]
    fn days_count_from_the_due_date() {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        // 2026-04-30 to 2026-05-31: 31 days.
        assert_eq!(days_past_due(d("2026-04-30"), d("2026-05-31")), 31);
        assert_eq!(days_past_due(d("2026-04-30"), d("2026-04-30")), 0);
    }

    #[test]
    fn only_montello_has_a_special_assessment() {
        assert!(
            special_assessment("montello")
                .unwrap()
                .contains("assessment on any land")
        );
        assert!(
            special_assessment("hayward")
                .unwrap_err()
                .contains("no provision")
        );
        assert!(special_assessment("elsewhere").is_err());
    }
}

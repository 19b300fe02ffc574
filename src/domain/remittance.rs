//! Remittances: a member municipality's quarterly forwarding of collected room
//! tax to its zone's commission (issue 10, items 1, 2 and 7). Pure: no I/O.
//!
//! Contract:
//! - the figures of a quarter ([`Figures`]) come either from the ledger
//!   ([`ledger_figures`]: the tax principal received in the quarter, by the
//!   date received, per payor and period charged) or as the clerk entered them;
//!   `gross_receipts` from the ledger is the taxable receipts the tax stands
//!   for: per period charged, the tax principal received ÷ that period's rate,
//!   rounded once to the cent (half away from zero), summed. `payor_count` is
//!   the number of payors whose net tax received in the quarter is positive;
//! - the split ([`split_version`]) is the engine's [`distribute`] under the
//!   policy governing the quarter (the one in force on its last day): the
//!   commission's share rounded once, half away from zero, the municipality
//!   keeping the remainder, so the parts sum to the whole (Montello room tax,
//!   distribution ¶A: 75 % to the commission, 25 % to the general fund); a
//!   correction is a new version whose journal posts only the difference of the
//!   commission's share from the previous version's;
//! - a quarter's remittance is due ([`due_date`]) at the end of the month after
//!   the quarter's return due date, i.e. the last day of the second month after
//!   the quarter (2026-Q1 → 2026-05-31): the ordinances set no date for the
//!   distribution ("upon receipt of the room taxes that are collected"), so the
//!   service gives the clerk the month after the returns are due;
//! - a quarter's status ([`status`]): `paid` when submitted and nothing of the
//!   commission's share is outstanding, `submitted` when something is, and
//!   before any submission `due` up to the due date and `missing` after it;
//! - seats ([`seats_from_quarters`]) follow the previous year's submitted tax
//!   collected ([`commission_seats`], Wis. Stat. § 66.0615(1m)(c)), naming the
//!   quarters with no submission.

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::calendar::add_months_month_end;
use crate::domain::compute::{Distribution, SeatAllocation, commission_seats, distribute};
use crate::domain::error::DomainError;
use crate::domain::explain::Line;
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::Policy;

/// Why a municipality outside a zone on the quarter's last day forwards nothing.
pub const NOT_A_MEMBER_CITATION: &str = "Wis. Stat. § 66.0615(1m)(c): room tax is forwarded to the commission of the zone the municipality is a member of; Montello room tax, distribution ¶A (\"the municipality shall distribute 75% of the room taxes to the commission\")";

/// The figures of one quarter's remittance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures {
    /// Taxable receipts behind the tax collected.
    pub gross_receipts: Money,
    /// Room tax principal collected (received) in the quarter.
    pub tax_collected: Money,
    /// Payors who paid tax in the quarter.
    pub payor_count: i64,
}

/// Tax principal received on one payor's period, as the ledger holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxReceipt {
    /// The payor (never shown to a zone caller).
    pub payor_id: String,
    /// The period the tax was charged for.
    pub period: Period,
    /// Received (positive) or given back (negative: a reversal, an amendment down).
    pub amount: Money,
}

/// The figures of a quarter from its tax receipts (see the module doc);
/// `rate_of` gives each period's rate (a 422 on `period` naming the period
/// when none governs it).
pub fn ledger_figures(
    receipts: &[TaxReceipt],
    rate_of: impl Fn(&Period) -> Option<Decimal>,
) -> Result<Figures, DomainError> {
    let mut by_period: BTreeMap<Period, Money> = BTreeMap::new();
    let mut by_payor: BTreeMap<&str, Money> = BTreeMap::new();
    for r in receipts {
        *by_period.entry(r.period).or_default() += r.amount;
        *by_payor.entry(r.payor_id.as_str()).or_default() += r.amount;
    }
    let mut gross_receipts = Money::ZERO;
    for (period, tax) in &by_period {
        let rate = rate_of(period)
            .filter(|r| !r.is_zero())
            .ok_or(DomainError::NoPolicy {
                date: period.last_day(),
            })?;
        gross_receipts += Money::round(tax.amount() / rate);
    }
    let payor_count = by_payor.values().filter(|t| **t > Money::ZERO).count() as i64;
    Ok(Figures {
        gross_receipts,
        tax_collected: by_period.values().copied().sum(),
        payor_count,
    })
}

/// Check entered figures: amounts not negative, tax at most the receipts,
/// a count not negative (every fault at once, each naming its field).
pub fn check_entered(figures: &Figures) -> Vec<DomainError> {
    let mut faults = Vec::new();
    if figures.gross_receipts.is_negative() {
        faults.push(DomainError::invalid(
            "gross_receipts",
            "not_negative",
            "must not be negative",
        ));
    }
    if figures.tax_collected.is_negative() {
        faults.push(DomainError::invalid(
            "tax_collected",
            "not_negative",
            "must not be negative",
        ));
    } else if figures.tax_collected > figures.gross_receipts {
        faults.push(DomainError::invalid(
            "tax_collected",
            "at_most_gross_receipts",
            "the tax collected cannot exceed the gross receipts it was collected on",
        ));
    }
    if figures.payor_count < 0 {
        faults.push(DomainError::invalid(
            "payor_count",
            "not_negative",
            "must not be negative",
        ));
    }
    faults
}

/// A version's split and what its journal posts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionSplit {
    /// The split of the version's tax collected.
    pub distribution: Distribution,
    /// The commission's share less the previous version's (the whole share for
    /// a first version): what this version's journal moves to the payable.
    pub commission_difference: Money,
    /// The explanation (codes `commission_share`, `municipality_share`).
    pub lines: Vec<Line>,
}

/// Split `tax_collected` by `policy` (the quarter's), against the previous
/// version's commission share if there is one.
pub fn split_version(
    policy: &Policy,
    tax_collected: Money,
    previous_commission: Option<Money>,
) -> VersionSplit {
    let (distribution, lines) = distribute(policy, tax_collected);
    VersionSplit {
        commission_difference: distribution.commission - previous_commission.unwrap_or_default(),
        distribution,
        lines,
    }
}

/// When a quarter's remittance is due: the last day of the second month
/// after the quarter (see the module doc).
pub fn due_date(quarter: &Period) -> NaiveDate {
    add_months_month_end(quarter.last_day(), 2)
}

/// Where a member's quarter stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RemittanceStatus {
    /// Not submitted, and its due date has not passed.
    Due,
    /// Submitted; some of the commission's share is still to be transferred.
    Submitted,
    /// Submitted and the commission's share transferred in full.
    Paid,
    /// Not submitted after its due date.
    Missing,
}

impl RemittanceStatus {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            RemittanceStatus::Due => "due",
            RemittanceStatus::Submitted => "submitted",
            RemittanceStatus::Paid => "paid",
            RemittanceStatus::Missing => "missing",
        }
    }
}

/// The status of a quarter due on `due_on`, as of `today`: `outstanding` is
/// the commission's share not yet transferred (`None`: nothing submitted).
pub fn status(outstanding: Option<Money>, due_on: NaiveDate, today: NaiveDate) -> RemittanceStatus {
    match outstanding {
        Some(o) if o > Money::ZERO => RemittanceStatus::Submitted,
        Some(_) => RemittanceStatus::Paid,
        None if today > due_on => RemittanceStatus::Missing,
        None => RemittanceStatus::Due,
    }
}

/// A member's seats for a year from the tax it submitted for the previous
/// year's quarters (`None`: that quarter has no submission).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatsFromQuarters {
    /// The seats and their explanation.
    pub allocation: SeatAllocation,
    /// The previous year's submitted tax collected (quarters submitted).
    pub collections: Money,
    /// The quarters of the previous year with no submission.
    pub missing: Vec<Period>,
}

/// Seats from the previous year's quarters (see the module doc).
pub fn seats_from_quarters(
    quarters: &BTreeMap<Period, Option<Money>>,
) -> Result<SeatsFromQuarters, DomainError> {
    let collections: Money = quarters.values().flatten().copied().sum();
    let missing = quarters
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(p, _)| *p)
        .collect();
    Ok(SeatsFromQuarters {
        allocation: commission_seats(collections.max_zero())?,
        collections,
        missing,
    })
}

/// The distinct payors of `receipts` (for tests and checks).
pub fn payors_of(receipts: &[TaxReceipt]) -> BTreeSet<&str> {
    receipts.iter().map(|r| r.payor_id.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::{d, m, p};
    use crate::domain::presets::montello;
    use proptest::prelude::*;

    fn receipt(payor: &str, period: &str, amount: &str) -> TaxReceipt {
        TaxReceipt {
            payor_id: payor.into(),
            period: p(period),
            amount: m(amount),
        }
    }

    #[test]
    fn due_at_the_end_of_the_month_after_the_returns() {
        assert_eq!(due_date(&p("2026-Q1")), d("2026-05-31"));
        assert_eq!(due_date(&p("2026-Q2")), d("2026-08-31"));
        assert_eq!(due_date(&p("2026-Q3")), d("2026-11-30"));
        assert_eq!(due_date(&p("2026-Q4")), d("2027-02-28"));
        assert_eq!(due_date(&p("2027-Q4")), d("2028-02-29"));
    }

    #[test]
    fn statuses() {
        let due = d("2026-05-31");
        assert_eq!(status(None, due, d("2026-05-31")), RemittanceStatus::Due);
        assert_eq!(
            status(None, due, d("2026-06-01")),
            RemittanceStatus::Missing
        );
        assert_eq!(
            status(Some(m("0.01")), due, d("2026-07-01")),
            RemittanceStatus::Submitted
        );
        assert_eq!(
            status(Some(m("0.00")), due, d("2026-04-01")),
            RemittanceStatus::Paid
        );
    }

    #[test]
    fn ledger_figures_by_payor_and_period() {
        // Two payors; one paid 2026-Q1 tax in part and 2025-Q4 tax late, the
        // other had 20.00 reversed beyond what it paid this quarter.
        let receipts = [
            receipt("a", "2026-Q1", "300.00"),
            receipt("a", "2025-Q4", "90.00"),
            receipt("b", "2026-Q1", "15.00"),
            receipt("b", "2026-Q1", "-20.00"),
        ];
        let f = ledger_figures(&receipts, |_| Some("0.045".parse().unwrap())).unwrap();
        assert_eq!(f.tax_collected, m("385.00"));
        // 295.00 / 0.045 = 6555.555… → 6555.56; 90.00 / 0.045 = 2000.00.
        assert_eq!(f.gross_receipts, m("8555.56"));
        assert_eq!(f.payor_count, 1);
        assert_eq!(payors_of(&receipts).len(), 2);
        assert!(ledger_figures(&receipts, |_| None).is_err());
    }

    #[test]
    fn entered_figures_are_judged() {
        let ok = Figures {
            gross_receipts: m("1000.00"),
            tax_collected: m("45.00"),
            payor_count: 3,
        };
        assert!(check_entered(&ok).is_empty());
        let bad = Figures {
            gross_receipts: m("-1.00"),
            tax_collected: m("45.00"),
            payor_count: -1,
        };
        let fields: Vec<String> = check_entered(&bad)
            .into_iter()
            .map(|e| match e {
                DomainError::Invalid { field, rule, .. } => format!("{field}:{rule}"),
                other => other.to_string(),
            })
            .collect();
        assert_eq!(
            fields,
            [
                "gross_receipts:not_negative",
                "tax_collected:at_most_gross_receipts",
                "payor_count:not_negative"
            ]
        );
    }

    #[test]
    fn a_correction_posts_the_difference() {
        let first = split_version(&montello(), m("1234.57"), None);
        // 1234.57 × 0.75 = 925.9275 → 925.93; retained 308.64.
        assert_eq!(first.distribution.commission, m("925.93"));
        assert_eq!(first.distribution.municipality, m("308.64"));
        assert_eq!(first.commission_difference, m("925.93"));
        let second = split_version(&montello(), m("1334.57"), Some(m("925.93")));
        // 1334.57 × 0.75 = 1000.9275 → 1000.93: 75.00 more.
        assert_eq!(second.commission_difference, m("75.00"));
    }

    #[test]
    fn seats_name_the_missing_quarters() {
        let mut quarters: BTreeMap<Period, Option<Money>> = BTreeMap::new();
        for (q, v) in [
            ("2025-Q1", Some("100000.00")),
            ("2025-Q2", Some("200000.00")),
            ("2025-Q3", None),
            ("2025-Q4", Some("0.01")),
        ] {
            quarters.insert(p(q), v.map(m));
        }
        let s = seats_from_quarters(&quarters).unwrap();
        assert_eq!(s.collections, m("300000.01"));
        assert_eq!(s.allocation.seats, 2);
        assert_eq!(s.missing, [p("2025-Q3")]);
        quarters.insert(p("2025-Q4"), Some(m("0.00")));
        assert_eq!(seats_from_quarters(&quarters).unwrap().allocation.seats, 1);
    }

    fn with_share(share: Decimal) -> Policy {
        let mut policy = montello();
        policy.distribution.value.commission_share = share;
        policy
    }

    proptest! {
        /// Whatever the tax and the commission share, the parts sum to the
        /// whole and the commission's share is the rounded product.
        #[test]
        fn shares_never_lose_a_cent(
            cents in -1_000_000_000_000i64..1_000_000_000_000,
            share_bp in 0u32..=10_000,
        ) {
            let share = Decimal::new(i64::from(share_bp), 4);
            let split = split_version(&with_share(share), Money::from_cents(cents), None);
            prop_assert_eq!(
                split.distribution.commission + split.distribution.municipality,
                Money::from_cents(cents)
            );
            prop_assert_eq!(
                split.distribution.commission,
                Money::round(Money::from_cents(cents).amount() * share)
            );
        }

        /// The differences posted by a chain of versions sum to the last
        /// version's commission share: the payable always holds exactly it.
        #[test]
        fn versions_post_differences_that_sum_to_the_last_share(
            taxes in proptest::collection::vec(0i64..10_000_000_000, 1..6),
        ) {
            let policy = montello();
            let mut previous = None;
            let mut posted = Money::ZERO;
            for cents in &taxes {
                let split = split_version(&policy, Money::from_cents(*cents), previous);
                posted += split.commission_difference;
                previous = Some(split.distribution.commission);
            }
            prop_assert_eq!(Some(posted), previous);
        }

        /// More collections never mean fewer seats; seats are 1 to 3.
        #[test]
        fn seats_grow_with_collections(a in 0i64..500_000_000, b in 0i64..500_000_000) {
            let (lo, hi) = (a.min(b), a.max(b));
            let seats = |c| commission_seats(Money::from_cents(c)).unwrap().seats;
            prop_assert!(seats(lo) <= seats(hi));
            prop_assert!((1..=3).contains(&seats(hi)));
        }
    }
}

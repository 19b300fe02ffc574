//! Distribution of collected room tax between the zone's commission and the municipality.
//!
//! Contract: applies to the tax principal received (the policy's `applies_to`; interest,
//! fees, penalties and forfeitures stay with the municipality); the commission's part is
//! `round(received × commission share)` half away from zero and the municipality keeps
//! the remainder, so the parts always sum to the cent (DESIGN §3 "Splits"). Montello:
//! 75 % to the commission, 25 % to the general fund (Montello room tax, distribution
//! ¶A); Hayward: no zone, 0 % (all stays with the city). A negative amount (a reversal)
//! splits the same way. A municipality that is not a member of a zone on the date that
//! governs (it left, or never joined) has no commission to forward to:
//! [`distribute_outside_zone`] keeps everything with it, whatever its policy's share.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::explain::{Line, percent};
use crate::domain::money::{Money, allocate};
use crate::domain::policy::Policy;

/// The two parts of a distribution; they always sum to the amount distributed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Distribution {
    /// Forwarded to the zone's tourism commission.
    pub commission: Money,
    /// Retained by the municipality (general fund).
    pub municipality: Money,
}

/// Splits `tax_principal_received`; returns the parts and their two lines (codes
/// `commission_share`, `municipality_share`).
pub fn distribute(policy: &Policy, tax_principal_received: Money) -> (Distribution, Vec<Line>) {
    let rule = &policy.distribution;
    let share = rule.value.commission_share;
    let (commission, municipality) = allocate(tax_principal_received, share);
    let lines = vec![
        Line::new(
            "commission_share",
            commission,
            format!("{} of tax principal {tax_principal_received} to the commission = {commission}", percent(share)),
            &rule.citation,
        )
        .input("tax_principal", tax_principal_received)
        .input("commission_share", share),
        Line::new(
            "municipality_share",
            municipality,
            format!("the remainder of tax principal {tax_principal_received} stays with the municipality = {municipality}"),
            &rule.citation,
        )
        .input("tax_principal", tax_principal_received)
        .input("commission", commission),
    ];
    (
        Distribution {
            commission,
            municipality,
        },
        lines,
    )
}

/// The split of a municipality outside any zone on `on`: all of
/// `tax_principal_received` stays with it (lines as [`distribute`]).
pub fn distribute_outside_zone(
    policy: &Policy,
    tax_principal_received: Money,
    on: chrono::NaiveDate,
) -> (Distribution, Vec<Line>) {
    let citation = format!(
        "{}; the municipality is not a member of a tourism zone on {on}, so no share goes to a zone commission (Wis. Stat. § 66.0615)",
        policy.distribution.citation
    );
    let lines = vec![
        Line::new(
            "commission_share",
            Money::ZERO,
            format!("not a member of a zone on {on}: nothing of tax principal {tax_principal_received} goes to a commission"),
            &citation,
        )
        .input("tax_principal", tax_principal_received)
        .input("zone_member_on", on),
        Line::new(
            "municipality_share",
            tax_principal_received,
            format!("all of tax principal {tax_principal_received} stays with the municipality"),
            &citation,
        )
        .input("tax_principal", tax_principal_received)
        .input("commission", Money::ZERO),
    ];
    (
        Distribution {
            commission: Money::ZERO,
            municipality: tax_principal_received,
        },
        lines,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::m;
    use crate::domain::presets::{hayward, montello};
    use proptest::prelude::*;

    #[test]
    fn worked_examples() {
        let cases = [
            (montello(), "555.56", "416.67", "138.89"),
            (montello(), "0.02", "0.02", "0.00"), // 0.015 → 0.02
            (montello(), "0.01", "0.01", "0.00"), // 0.0075 → 0.01
            (montello(), "1000.00", "750.00", "250.00"),
            (montello(), "0.00", "0.00", "0.00"),
            (montello(), "-0.02", "-0.02", "0.00"),
            (hayward(), "493.83", "0.00", "493.83"),
        ];
        for (policy, received, commission, municipality) in cases {
            let (split, lines) = distribute(&policy, m(received));
            assert_eq!(
                split,
                Distribution {
                    commission: m(commission),
                    municipality: m(municipality)
                },
                "{received}"
            );
            assert_eq!(lines.len(), 2);
            assert!(
                lines
                    .iter()
                    .all(|l| l.citation == policy.distribution.citation)
            );
        }
    }

    #[test]
    fn outside_a_zone_nothing_goes_to_a_commission() {
        let on = chrono::NaiveDate::from_ymd_opt(2027, 3, 31).unwrap();
        let (split, lines) = distribute_outside_zone(&montello(), m("1000.00"), on);
        assert_eq!(split.commission, Money::ZERO);
        assert_eq!(split.municipality, m("1000.00"));
        assert_eq!(lines[0].code, "commission_share");
        assert!(
            lines[0]
                .citation
                .contains("not a member of a tourism zone on 2027-03-31")
        );
    }

    proptest! {
        #[test]
        fn parts_always_sum_to_the_whole(cents in -1_000_000_000i64..1_000_000_000) {
            for policy in [montello(), hayward()] {
                let (split, _) = distribute(&policy, Money::from_cents(cents));
                prop_assert_eq!(split.commission + split.municipality, Money::from_cents(cents));
            }
        }
    }
}

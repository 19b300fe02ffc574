//! Non-filer estimate: the tax on the clerk-treasurer's estimate of gross receipts plus
//! a penalty.
//!
//! Contract: tax = the policy's rate on the estimated receipts (rounded once); penalty =
//! round(tax × penalty rate) (both ordinances: 10 %). Where the policy caps these
//! penalties per calendar year (Hayward: $5,000 "for any calendar year"), the penalty is
//! at most the cap minus what was already assessed against the same payor for that
//! calendar year, never below zero; the caller sums the earlier determinations (we read
//! the year as the calendar year of the estimated period). Sources: Montello room tax,
//! non-filer estimate ¶; Hayward room tax, estimate.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::tax::tax_on_taxable;
use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::{Line, percent};
use crate::domain::money::Money;
use crate::domain::policy::Policy;

/// A non-filer determination: the estimated tax and its penalty.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct NonFilerEstimate {
    /// Tax on the estimated receipts (code `tax`).
    pub tax: Line,
    /// The penalty / forfeiture added to it (code `non_filer_penalty`).
    pub penalty: Line,
    /// Tax plus penalty.
    pub total: Money,
}

/// Computes a non-filer determination. Fields `estimated_receipts` and
/// `penalties_already_assessed_in_year` must not be negative.
pub fn non_filer_estimate(
    policy: &Policy,
    estimated_receipts: Money,
    penalties_already_assessed_in_year: Money,
) -> Result<NonFilerEstimate, DomainError> {
    require_not_negative("estimated_receipts", estimated_receipts)?;
    require_not_negative(
        "penalties_already_assessed_in_year",
        penalties_already_assessed_in_year,
    )?;
    let mut tax = tax_on_taxable(policy, estimated_receipts);
    tax.explanation = format!("estimated: {}", tax.explanation);
    let rule = &policy.non_filer_penalty;
    let uncapped = Money::round(tax.amount.amount() * rule.value.rate);
    let base = format!(
        "{} of the estimated tax {} = {uncapped}",
        percent(rule.value.rate),
        tax.amount
    );
    let (amount, explanation) = match rule.value.yearly_cap {
        None => (uncapped, base),
        Some(cap) => {
            let room = (cap - penalties_already_assessed_in_year).max_zero();
            let amount = uncapped.min(room);
            let explanation = if amount < uncapped {
                format!(
                    "{base}, limited to {amount}: at most {cap} of such forfeitures per calendar year and {penalties_already_assessed_in_year} already assessed this year"
                )
            } else {
                format!(
                    "{base} (yearly cap {cap}, {penalties_already_assessed_in_year} already assessed this year)"
                )
            };
            (amount, explanation)
        }
    };
    let mut penalty = Line::new("non_filer_penalty", amount, explanation, &rule.citation)
        .input("estimated_tax", tax.amount)
        .input("rate", rule.value.rate)
        .input(
            "penalties_already_assessed_in_year",
            penalties_already_assessed_in_year,
        );
    if let Some(cap) = rule.value.yearly_cap {
        penalty = penalty.input("yearly_cap", cap);
    }
    let total = tax.amount + penalty.amount;
    Ok(NonFilerEstimate {
        tax,
        penalty,
        total,
    })
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
            // (policy, estimated receipts, already assessed, tax, penalty)
            (montello(), "20000.00", "0", "900.00", "90.00"),
            (montello(), "2000000.00", "99999.00", "90000.00", "9000.00"), // no cap in Montello
            (montello(), "12345.67", "0", "555.56", "55.56"),              // 55.556
            (hayward(), "20000.00", "0", "800.00", "80.00"),
            (hayward(), "1000000.00", "0", "40000.00", "4000.00"),
            (hayward(), "1000000.00", "4000.00", "40000.00", "1000.00"), // second determination hits the cap
            (hayward(), "1000000.00", "5000.00", "40000.00", "0.00"),
            (hayward(), "2000000.00", "0", "80000.00", "5000.00"),
            (hayward(), "1000.00", "4999.99", "40.00", "0.01"),
        ];
        for (policy, receipts, already, tax, penalty) in cases {
            let estimate = non_filer_estimate(&policy, m(receipts), m(already)).unwrap();
            assert_eq!(
                (estimate.tax.amount, estimate.penalty.amount),
                (m(tax), m(penalty)),
                "{receipts} {already}"
            );
            assert_eq!(estimate.total, m(tax) + m(penalty));
            assert_eq!(estimate.penalty.citation, policy.non_filer_penalty.citation);
        }
    }

    #[test]
    fn refuses_negative_inputs() {
        assert!(non_filer_estimate(&hayward(), m("-1"), Money::ZERO).is_err());
        assert!(non_filer_estimate(&hayward(), m("1"), m("-1")).is_err());
    }

    proptest! {
        #[test]
        fn hayward_yearly_cap_is_never_exceeded(estimates in proptest::collection::vec(0i64..500_000_000, 1..12)) {
            let policy = hayward();
            let cap = m("5000.00");
            let mut assessed = Money::ZERO;
            for cents in estimates {
                let estimate = non_filer_estimate(&policy, Money::from_cents(cents), assessed).unwrap();
                prop_assert!(!estimate.penalty.amount.is_negative());
                assessed += estimate.penalty.amount;
                prop_assert!(assessed <= cap, "assessed {} > cap", assessed);
            }
        }
    }
}

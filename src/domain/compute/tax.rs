//! Room tax on taxable receipts.
//!
//! Contract: taxable receipts = gross receipts − exempt receipts (gross ≥ 0, exempt ≥ 0,
//! exempt ≤ gross); tax = round(taxable × rate) once, half away from zero, with the rate
//! of the policy governing the period (DESIGN §3). Sources: Montello room tax,
//! imposition ¶ (4.5 %; no tax on sales to the federal government and Wis. Stat.
//! § 77.54(9a) buyers); Hayward room tax, imposition (4 %) and definitions ("gross
//! receipts" exclude federal and state tax-exempt transactions); Wis. Stat. § 66.0615.

use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::{Line, percent};
use crate::domain::money::Money;
use crate::domain::policy::Policy;

/// Gross minus exempt receipts. Fields `gross_receipts` and `exempt_receipts`; rules
/// `not_negative` and `exempt_not_above_gross`.
pub fn taxable_receipts(gross: Money, exempt: Money) -> Result<Money, DomainError> {
    require_not_negative("gross_receipts", gross)?;
    require_not_negative("exempt_receipts", exempt)?;
    if exempt > gross {
        return Err(DomainError::invalid(
            "exempt_receipts",
            "exempt_not_above_gross",
            format!("exempt receipts {exempt} must not exceed gross receipts {gross}"),
        ));
    }
    Ok(gross - exempt)
}

/// The tax on a return: rate × (gross − exempt), line code `tax`.
pub fn tax(policy: &Policy, gross: Money, exempt: Money) -> Result<Line, DomainError> {
    let taxable = taxable_receipts(gross, exempt)?;
    let line = tax_on_taxable(policy, taxable);
    let explanation = format!(
        "{} of taxable receipts {taxable} (gross {gross} − exempt {exempt}) = {}",
        percent(policy.rate.value),
        line.amount
    );
    Ok(Line {
        explanation,
        ..line
    }
    .input("gross_receipts", gross)
    .input("exempt_receipts", exempt))
}

/// The tax on an amount already known to be taxable (≥ 0), line code `tax`.
pub fn tax_on_taxable(policy: &Policy, taxable: Money) -> Line {
    let rate = policy.rate.value;
    let amount = Money::round(taxable.amount() * rate);
    Line::new(
        "tax",
        amount,
        format!("{} of taxable receipts {taxable} = {amount}", percent(rate)),
        &policy.rate.citation,
    )
    .input("taxable_receipts", taxable)
    .input("rate", rate)
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
            // (policy, gross, exempt, tax)
            (montello(), "12345.67", "0", "555.56"),
            (montello(), "12345.00", "0", "555.53"), // 555.525: half a cent rounds up, not to even
            (montello(), "1.00", "0", "0.05"),       // 0.045 → 0.05
            (montello(), "11.00", "0", "0.50"),      // 0.495 → 0.50
            (montello(), "10000.00", "2500.00", "337.50"),
            (montello(), "0", "0", "0.00"),
            (montello(), "500.00", "500.00", "0.00"),
            (hayward(), "12345.67", "0", "493.83"), // 493.8268
            (hayward(), "8000.00", "1000.00", "280.00"),
            (hayward(), "0.12", "0", "0.00"), // 0.0048
            (hayward(), "0.13", "0", "0.01"), // 0.0052
        ];
        for (policy, gross, exempt, expected) in cases {
            let line = tax(&policy, m(gross), m(exempt)).unwrap();
            assert_eq!(
                line.amount,
                m(expected),
                "{} {gross} − {exempt}",
                policy.municipality
            );
            assert_eq!(line.code, "tax");
            assert_eq!(line.citation, policy.rate.citation);
        }
    }

    #[test]
    fn explanation_writes_out_the_inputs() {
        let line = tax(&montello(), m("12345.67"), m("0")).unwrap();
        assert_eq!(
            line.explanation,
            "4.5 % of taxable receipts 12345.67 (gross 12345.67 − exempt 0.00) = 555.56"
        );
        assert_eq!(line.inputs["rate"], "0.045");
        assert_eq!(line.inputs["taxable_receipts"], "12345.67");
    }

    #[test]
    fn invalid_receipts_name_field_and_rule() {
        let cases = [
            ("-1.00", "0", "gross_receipts", "not_negative"),
            ("100.00", "-0.01", "exempt_receipts", "not_negative"),
            (
                "100.00",
                "100.01",
                "exempt_receipts",
                "exempt_not_above_gross",
            ),
        ];
        for (gross, exempt, field, rule) in cases {
            match tax(&montello(), m(gross), m(exempt)) {
                Err(DomainError::Invalid {
                    field: f, rule: r, ..
                }) => assert_eq!((f.as_str(), r.as_str()), (field, rule)),
                other => panic!("{gross} {exempt}: {other:?}"),
            }
        }
    }

    proptest! {
        #[test]
        fn tax_never_decreases_as_receipts_grow(a in 0i64..10_000_000_000, b in 0i64..10_000_000_000) {
            let (low, high) = (Money::from_cents(a.min(b)), Money::from_cents(a.max(b)));
            for policy in [montello(), hayward()] {
                let t_low = tax(&policy, low, Money::ZERO).unwrap().amount;
                let t_high = tax(&policy, high, Money::ZERO).unwrap().amount;
                prop_assert!(t_low <= t_high);
                prop_assert!(!t_low.is_negative());
            }
        }
    }
}

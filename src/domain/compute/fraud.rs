//! Fraud penalty: on a false or fraudulent return filed to evade the tax, a penalty of
//! the policy's rate (both ordinances: 50 %) of the tax required to be paid, "exclusive
//! of interest and other penalties", i.e. computed on the tax alone and rounded once.
//! Sources: Montello room tax, fraud ¶; Hayward room tax, fraud.

use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::{Line, percent};
use crate::domain::money::Money;
use crate::domain::policy::Policy;

/// The fraud penalty on `tax_required` (the tax alone, without interest or other
/// penalties). Line code `fraud_penalty`; field `tax` must not be negative.
pub fn fraud_penalty(policy: &Policy, tax_required: Money) -> Result<Line, DomainError> {
    require_not_negative("tax", tax_required)?;
    let rate = policy.fraud_penalty_rate.value;
    let amount = Money::round(tax_required.amount() * rate);
    let explanation = format!(
        "{} of the tax required to be paid {tax_required} (exclusive of interest and other penalties) = {amount}",
        percent(rate)
    );
    Ok(Line::new(
        "fraud_penalty",
        amount,
        explanation,
        &policy.fraud_penalty_rate.citation,
    )
    .input("tax", tax_required)
    .input("rate", rate))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::presets::{hayward, montello};

    #[test]
    fn half_of_the_tax() {
        let cases = [
            ("555.56", "277.78"),
            ("0.01", "0.01"),
            ("0.03", "0.02"),
            ("1000.00", "500.00"),
            ("0", "0.00"),
        ];
        for policy in [montello(), hayward()] {
            for (tax, penalty) in cases {
                let line = fraud_penalty(&policy, Money::parse(tax).unwrap()).unwrap();
                assert_eq!(line.amount, Money::parse(penalty).unwrap(), "{tax}");
                assert_eq!(line.citation, policy.fraud_penalty_rate.citation);
            }
        }
        assert!(fraud_penalty(&montello(), Money::from_cents(-1)).is_err());
    }
}

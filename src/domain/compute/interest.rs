//! Interest on late tax and on refunds.
//!
//! Contract (DESIGN §3, our reading of "from the due date ... until the first day of the
//! month following the month in which the tax is paid"):
//! `months = (12 × year(paid) + month(paid)) − (12 × year(due) + month(due))`, at least 1
//! when paid after the due date, 0 when paid on or before it; `interest = amount ×
//! monthly rate × months`, rounded once. The due date is never moved by an extension.
//! Sources: Montello room tax, interest ¶ (12 % a year = 1 % a month; refunds likewise,
//! none where the overpayment was intentional, careless or neglectful or the return
//! incomplete); Hayward room tax, interest (1 % a month; no refund interest).

use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::no_provision;
use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::{Line, percent};
use crate::domain::money::Money;
use crate::domain::policy::Policy;

/// Whole months of interest between the due date and the payment (see module doc).
pub fn months_late(due: NaiveDate, paid: NaiveDate) -> u32 {
    if paid <= due {
        return 0;
    }
    let index = |d: NaiveDate| i64::from(d.year()) * 12 + i64::from(d.month());
    u32::try_from(index(paid) - index(due))
        .unwrap_or(u32::MAX)
        .max(1)
}

fn months_interest(amount: Money, rate: Decimal, months: u32) -> Money {
    Money::round(amount.amount() * rate * Decimal::from(months))
}

/// Interest on tax unpaid at the due date and paid on `paid_on` (absent: on time),
/// line code `interest`. Field `unpaid_tax` must not be negative.
pub fn interest(
    policy: &Policy,
    unpaid_tax: Money,
    due: NaiveDate,
    paid_on: Option<NaiveDate>,
) -> Result<Line, DomainError> {
    require_not_negative("unpaid_tax", unpaid_tax)?;
    let rate = policy.interest_monthly_rate.value;
    let citation = &policy.interest_monthly_rate.citation;
    let line = match paid_on {
        Some(paid) if paid > due && !unpaid_tax.is_zero() => {
            let months = months_late(due, paid);
            let amount = months_interest(unpaid_tax, rate, months);
            let explanation = format!(
                "{} a month × {months} month(s) (due {due}, paid {paid}, interest to the first day of the month after payment) on unpaid tax {unpaid_tax} = {amount}",
                percent(rate)
            );
            Line::new("interest", amount, explanation, citation)
                .input("paid_on", paid)
                .input("months", months)
        }
        Some(paid) if paid > due => Line::new(
            "interest",
            Money::ZERO,
            format!("paid {paid} after the due date {due}, but no tax was unpaid"),
            citation,
        )
        .input("paid_on", paid),
        Some(paid) => Line::new(
            "interest",
            Money::ZERO,
            format!("paid {paid}, on or before the due date {due}: no interest"),
            citation,
        )
        .input("paid_on", paid),
        None => Line::new(
            "interest",
            Money::ZERO,
            format!("paid by the due date {due}: no interest"),
            citation,
        ),
    };
    Ok(line
        .input("unpaid_tax", unpaid_tax)
        .input("due_date", due)
        .input("monthly_rate", rate))
}

/// The facts that bar interest on a refund (Montello room tax, interest ¶).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RefundInterestExclusions {
    /// The clerk-treasurer found the overpayment made intentionally or by reason of
    /// carelessness or neglect.
    pub intentional_careless_or_neglect: bool,
    /// The tax was not accompanied by a complete return.
    pub return_incomplete: bool,
}

/// Interest on a refund of overpaid tax, counted like late interest from the return's
/// due date to the month of the refund; zero (with the reason) where the policy has no
/// refund interest or an exclusion applies. Line code `refund_interest`; field `refund`
/// must not be negative.
pub fn refund_interest(
    policy: &Policy,
    refund: Money,
    due: NaiveDate,
    refunded_on: NaiveDate,
    exclusions: RefundInterestExclusions,
) -> Result<Line, DomainError> {
    require_not_negative("refund", refund)?;
    let line = match &policy.refund_interest_monthly_rate {
        None => Line::new(
            "refund_interest",
            Money::ZERO,
            format!(
                "{}'s ordinance allows no interest on refunds",
                policy.municipality
            ),
            no_provision(policy),
        ),
        Some(rate)
            if exclusions.intentional_careless_or_neglect || exclusions.return_incomplete =>
        {
            let why = if exclusions.intentional_careless_or_neglect {
                "the overpayment was made intentionally or by reason of carelessness or neglect"
            } else {
                "the tax was not accompanied by a complete return"
            };
            Line::new(
                "refund_interest",
                Money::ZERO,
                format!("no interest on this refund: {why}"),
                &rate.citation,
            )
        }
        Some(rate) => {
            let months = months_late(due, refunded_on);
            let amount = months_interest(refund, rate.value, months);
            let explanation = format!(
                "{} a month × {months} month(s) (due {due}, refunded {refunded_on}) on refund {refund} = {amount}",
                percent(rate.value)
            );
            Line::new("refund_interest", amount, explanation, &rate.citation)
                .input("months", months)
                .input("monthly_rate", rate.value)
        }
    };
    Ok(line
        .input("refund", refund)
        .input("due_date", due)
        .input("refunded_on", refunded_on)
        .input(
            "intentional_careless_or_neglect",
            exclusions.intentional_careless_or_neglect,
        )
        .input("return_incomplete", exclusions.return_incomplete))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::{d, m};
    use crate::domain::presets::{hayward, montello};

    #[test]
    fn month_counting() {
        let cases = [
            ("2026-04-30", "2026-04-30", 0), // paid on the due date
            ("2026-04-30", "2026-04-01", 0), // early
            ("2026-04-30", "2026-05-01", 1), // one day late
            ("2026-04-30", "2026-05-31", 1),
            ("2026-04-30", "2026-06-01", 2), // first of the month after next
            ("2026-01-30", "2026-01-31", 1), // late within the due month (Hayward, Saturday)
            ("2025-10-31", "2026-01-15", 3), // across a year boundary
            ("2026-01-31", "2026-02-01", 1), // Q4 due in January, paid the next day
            ("2025-12-31", "2026-01-01", 1),
            ("2025-01-31", "2026-01-31", 12),
        ];
        for (due, paid, months) in cases {
            assert_eq!(months_late(d(due), d(paid)), months, "{due} → {paid}");
        }
    }

    #[test]
    fn interest_examples() {
        let cases = [
            (
                montello(),
                "555.56",
                "2026-04-30",
                Some("2026-04-30"),
                "0.00",
            ),
            (montello(), "555.56", "2026-04-30", None, "0.00"),
            (
                montello(),
                "555.56",
                "2026-04-30",
                Some("2026-05-01"),
                "5.56",
            ),
            (
                montello(),
                "555.56",
                "2026-04-30",
                Some("2026-06-01"),
                "11.11",
            ), // 11.1112
            (
                montello(),
                "1000.50",
                "2025-10-31",
                Some("2026-01-02"),
                "30.02",
            ), // 30.015 → half up
            (
                hayward(),
                "493.83",
                "2026-01-30",
                Some("2026-01-31"),
                "4.94",
            ), // 4.9383
            (hayward(), "0.00", "2026-01-30", Some("2026-03-31"), "0.00"),
        ];
        for (policy, tax, due, paid, expected) in cases {
            let line = interest(&policy, m(tax), d(due), paid.map(d)).unwrap();
            assert_eq!(line.amount, m(expected), "{tax} {due} {paid:?}");
            assert_eq!(line.code, "interest");
            assert_eq!(line.citation, policy.interest_monthly_rate.citation);
        }
        assert!(interest(&montello(), m("-1"), d("2026-04-30"), None).is_err());
    }

    #[test]
    fn refund_interest_examples() {
        let none = RefundInterestExclusions::default();
        let careless = RefundInterestExclusions {
            intentional_careless_or_neglect: true,
            ..none
        };
        let incomplete = RefundInterestExclusions {
            return_incomplete: true,
            ..none
        };
        let cases = [
            (
                montello(),
                "200.00",
                "2026-04-30",
                "2026-07-10",
                none,
                "6.00",
            ),
            (
                montello(),
                "200.00",
                "2026-04-30",
                "2026-04-15",
                none,
                "0.00",
            ),
            (
                montello(),
                "200.00",
                "2026-04-30",
                "2026-07-10",
                careless,
                "0.00",
            ),
            (
                montello(),
                "200.00",
                "2026-04-30",
                "2026-07-10",
                incomplete,
                "0.00",
            ),
            (
                hayward(),
                "200.00",
                "2026-04-30",
                "2026-07-10",
                none,
                "0.00",
            ),
        ];
        for (policy, refund, due, refunded, exclusions, expected) in cases {
            let line =
                refund_interest(&policy, m(refund), d(due), d(refunded), exclusions).unwrap();
            assert_eq!(
                line.amount,
                m(expected),
                "{} {refunded} {exclusions:?}",
                policy.municipality
            );
            assert!(!line.explanation.is_empty());
        }
        let barred = refund_interest(
            &montello(),
            m("200"),
            d("2026-04-30"),
            d("2026-07-10"),
            careless,
        )
        .unwrap();
        assert!(barred.explanation.contains("carelessness"));
    }
}

//! Enforcement limits: security deposits and forfeiture ranges.
//!
//! Contract:
//! - security (Montello room tax, security ¶): a required deposit is at most the
//!   policy's maximum ($5,000), earns no interest, and may be applied to a delinquency
//!   only after `notice_days` (10) days' notice; a policy without the provision
//!   (Hayward) refuses any deposit (field `security_amount`);
//! - violations: per day of violation between the policy's minimum and maximum
//!   (Montello: at most $250, violations ¶A; Hayward: $100..$500, penalties), and where
//!   the policy caps the total (Montello: 5 % of the tax imposed on that person), the
//!   maximum is the lesser of the per-day total and the cap (rounded once);
//! - confidentiality (Montello room tax, confidentiality ¶): $100..$500 per act.
//!
//! The limits are returned as [`ForfeitureLimits`]; its line's amount is the maximum.

use chrono::{Days, NaiveDate};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::{DateLine, Line, percent};
use crate::domain::money::Money;
use crate::domain::policy::Policy;

/// The range a court or the clerk-treasurer may impose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ForfeitureLimits {
    /// Least forfeiture.
    pub minimum: Money,
    /// Most forfeiture.
    pub maximum: Money,
    /// Explanation; its amount is the maximum.
    pub line: Line,
}

/// Checks a required security deposit against the policy's maximum. Line code
/// `security_deposit` (amount = the deposit); field `security_amount`, rules
/// `security_not_provided`, `not_negative`, `security_above_maximum`.
pub fn security_deposit(policy: &Policy, requested: Money) -> Result<Line, DomainError> {
    let Some(rule) = &policy.security else {
        return Err(DomainError::invalid(
            "security_amount",
            "security_not_provided",
            format!(
                "{}'s ordinance provides no security deposit",
                policy.municipality
            ),
        ));
    };
    require_not_negative("security_amount", requested)?;
    let max = rule.value.max_deposit;
    if requested > max {
        return Err(DomainError::invalid(
            "security_amount",
            "security_above_maximum",
            format!("a security deposit may not exceed {max} (asked {requested})"),
        ));
    }
    let explanation = format!(
        "security {requested} within the maximum {max}; it earns no interest and is applied to a delinquency only after {} days' notice",
        rule.value.notice_days
    );
    Ok(
        Line::new("security_deposit", requested, explanation, &rule.citation)
            .input("security_amount", requested)
            .input("max_deposit", max),
    )
}

/// The first day a deposit may be applied to a delinquency after notice given on
/// `notice_given_on` (notice + `notice_days`). Line code `security_application_date`.
pub fn security_application_date(
    policy: &Policy,
    notice_given_on: NaiveDate,
) -> Result<DateLine, DomainError> {
    let Some(rule) = &policy.security else {
        return Err(DomainError::invalid(
            "notice_given_on",
            "security_not_provided",
            format!(
                "{}'s ordinance provides no security deposit",
                policy.municipality
            ),
        ));
    };
    let days = rule.value.notice_days;
    let date = notice_given_on
        .checked_add_days(Days::new(u64::from(days)))
        .unwrap_or(notice_given_on);
    let explanation = format!(
        "notice given {notice_given_on} + {days} days: the security may be applied from {date}"
    );
    Ok(DateLine::new(
        "security_application_date",
        date,
        explanation,
        &rule.citation,
    )
    .input("notice_given_on", notice_given_on)
    .input("notice_days", days))
}

/// The limits of the forfeiture for a violation that lasted `days` days by a person on
/// whom `tax_imposed` was imposed. Line code `violation_forfeiture`; fields `days`
/// (at least 1) and `tax_imposed` (not negative).
pub fn violation_forfeiture_limits(
    policy: &Policy,
    days: u32,
    tax_imposed: Money,
) -> Result<ForfeitureLimits, DomainError> {
    if days == 0 {
        return Err(DomainError::invalid(
            "days",
            "at_least_one_day",
            "a violation lasts at least one day",
        ));
    }
    require_not_negative("tax_imposed", tax_imposed)?;
    let rule = &policy.violation_forfeiture;
    let n = Decimal::from(days);
    let per_day_max = Money::round(rule.value.max_per_day.amount() * n);
    let per_day_min = Money::round(rule.value.min_per_day.amount() * n);
    let (maximum, explanation) = match rule.value.max_share_of_tax {
        Some(share) => {
            let cap = Money::round(tax_imposed.amount() * share);
            let maximum = per_day_max.min(cap);
            let text = format!(
                "at most {} a day × {days} day(s) = {per_day_max}, and in total at most {} of the tax imposed {tax_imposed} = {cap}: maximum {maximum}",
                rule.value.max_per_day,
                percent(share)
            );
            (maximum, text)
        }
        None => (
            per_day_max,
            format!(
                "{} to {} a day × {days} day(s): maximum {per_day_max}",
                rule.value.min_per_day, rule.value.max_per_day
            ),
        ),
    };
    let minimum = per_day_min.min(maximum);
    let line = Line::new(
        "violation_forfeiture",
        maximum,
        format!("{explanation}, minimum {minimum}"),
        &rule.citation,
    )
    .input("days", days)
    .input("tax_imposed", tax_imposed);
    Ok(ForfeitureLimits {
        minimum,
        maximum,
        line,
    })
}

/// The limits of the forfeiture for `acts` breaches of confidentiality. Line code
/// `confidentiality_forfeiture`; field `acts` (at least 1; rule
/// `no_confidentiality_forfeiture` where the policy has none).
pub fn confidentiality_forfeiture_limits(
    policy: &Policy,
    acts: u32,
) -> Result<ForfeitureLimits, DomainError> {
    let Some(range) = &policy.confidentiality_forfeiture else {
        return Err(DomainError::invalid(
            "acts",
            "no_confidentiality_forfeiture",
            format!(
                "{}'s ordinance sets no confidentiality forfeiture",
                policy.municipality
            ),
        ));
    };
    if acts == 0 {
        return Err(DomainError::invalid(
            "acts",
            "at_least_one_act",
            "at least one act",
        ));
    }
    let n = Decimal::from(acts);
    let minimum = Money::round(range.value.min_per_act.amount() * n);
    let maximum = Money::round(range.value.max_per_act.amount() * n);
    let explanation = format!(
        "{} to {} for each act × {acts} act(s): {minimum} to {maximum}",
        range.value.min_per_act, range.value.max_per_act
    );
    let line = Line::new(
        "confidentiality_forfeiture",
        maximum,
        explanation,
        &range.citation,
    )
    .input("acts", acts);
    Ok(ForfeitureLimits {
        minimum,
        maximum,
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::m;
    use crate::domain::presets::{hayward, montello};

    fn rule_of<T: std::fmt::Debug>(result: Result<T, DomainError>) -> String {
        match result {
            Err(DomainError::Invalid { field, rule, .. }) => format!("{field}/{rule}"),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn security_limits() {
        assert_eq!(
            security_deposit(&montello(), m("5000.00")).unwrap().amount,
            m("5000.00")
        );
        assert_eq!(
            rule_of(security_deposit(&montello(), m("5000.01"))),
            "security_amount/security_above_maximum"
        );
        assert_eq!(
            rule_of(security_deposit(&montello(), m("-1"))),
            "security_amount/not_negative"
        );
        assert_eq!(
            rule_of(security_deposit(&hayward(), m("100"))),
            "security_amount/security_not_provided"
        );
        let notice = security_application_date(&montello(), "2026-05-25".parse().unwrap()).unwrap();
        assert_eq!(notice.date, "2026-06-04".parse().unwrap());
        assert!(security_application_date(&hayward(), "2026-05-25".parse().unwrap()).is_err());
    }

    #[test]
    fn violation_limits() {
        let cases = [
            // (policy, days, tax imposed, minimum, maximum)
            (montello(), 1, "100000.00", "0.00", "250.00"),
            (montello(), 10, "100000.00", "0.00", "2500.00"),
            (montello(), 10, "20000.00", "0.00", "1000.00"), // 5 % cap
            (montello(), 10, "12345.67", "0.00", "617.28"),  // 617.2835
            (montello(), 3, "0", "0.00", "0.00"),
            (hayward(), 1, "0", "100.00", "500.00"),
            (hayward(), 7, "0", "700.00", "3500.00"),
        ];
        for (policy, days, tax, min, max) in cases {
            let limits = violation_forfeiture_limits(&policy, days, m(tax)).unwrap();
            assert_eq!(
                (limits.minimum, limits.maximum),
                (m(min), m(max)),
                "{} {days} {tax}",
                policy.municipality
            );
            assert_eq!(limits.line.amount, limits.maximum);
        }
        assert_eq!(
            rule_of(violation_forfeiture_limits(&montello(), 0, m("1"))),
            "days/at_least_one_day"
        );
    }

    #[test]
    fn confidentiality_limits() {
        let limits = confidentiality_forfeiture_limits(&montello(), 2).unwrap();
        assert_eq!(
            (limits.minimum, limits.maximum),
            (m("200.00"), m("1000.00"))
        );
        assert_eq!(
            rule_of(confidentiality_forfeiture_limits(&hayward(), 1)),
            "acts/no_confidentiality_forfeiture"
        );
    }
}

//! [`Policy::validate`]: the checks a policy version must pass before it is stored or used.
//!
//! Contract: refuses, naming the field, a policy whose
//! - texts (municipality, title, effective-date source, citations, exemption codes) are empty;
//! - effective date is outside the years periods may have (1990..=2200);
//! - rates or shares are outside 0..=1 (the tax rate must also be above 0);
//! - amounts (fees, caps, limits) are negative, or a minimum exceeds its maximum;
//! - day or month counts are zero where a positive count is needed;
//! - payment order does not list each charge kind exactly once;
//! - annual return rule "with the fourth-quarter return" is combined with fiscal years
//!   (a fourth-quarter return closes a calendar year only);
//! - exemption codes repeat.

use std::collections::BTreeSet;

use chrono::Datelike;
use rust_decimal::Decimal;

use super::{AnnualReturnRule, ChargeKind, Cited, Policy, PolicyError};
use crate::domain::money::Money;
use crate::domain::period::{MAX_YEAR, MIN_YEAR};

fn cited<T>(field: &str, value: &Cited<T>) -> Result<(), PolicyError> {
    if value.citation.trim().is_empty() {
        return Err(PolicyError::invalid(
            field,
            "every value needs its citation",
        ));
    }
    Ok(())
}

fn share(field: &str, value: Decimal) -> Result<(), PolicyError> {
    if value < Decimal::ZERO || value > Decimal::ONE {
        return Err(PolicyError::invalid(
            field,
            format!("must be within 0..=1 (got {value})"),
        ));
    }
    Ok(())
}

fn amount(field: &str, value: Money) -> Result<(), PolicyError> {
    if value.is_negative() {
        return Err(PolicyError::invalid(
            field,
            format!("must not be negative (got {value})"),
        ));
    }
    Ok(())
}

fn text(field: &str, value: &str) -> Result<(), PolicyError> {
    if value.trim().is_empty() {
        return Err(PolicyError::invalid(field, "must not be empty"));
    }
    Ok(())
}

fn positive(field: &str, value: u32) -> Result<(), PolicyError> {
    if value == 0 {
        return Err(PolicyError::invalid(field, "must be at least 1"));
    }
    Ok(())
}

impl Policy {
    /// Checks that the values are coherent (see the module doc for the list).
    pub fn validate(&self) -> Result<(), PolicyError> {
        text("municipality", &self.municipality)?;
        text("title", &self.title)?;
        text("effective_from_source", &self.effective_from_source)?;
        if !(MIN_YEAR..=MAX_YEAR).contains(&self.effective_from.year()) {
            return Err(PolicyError::invalid(
                "effective_from",
                format!("must be within {MIN_YEAR}..={MAX_YEAR}"),
            ));
        }

        cited("rate", &self.rate)?;
        share("rate", self.rate.value)?;
        if self.rate.value <= Decimal::ZERO {
            return Err(PolicyError::invalid("rate", "must be above 0"));
        }

        let mut codes = BTreeSet::new();
        for exemption in &self.exemptions {
            text("exemptions.code", &exemption.code)?;
            text("exemptions.description", &exemption.description)?;
            text("exemptions.citation", &exemption.citation)?;
            if !codes.insert(exemption.code.as_str()) {
                return Err(PolicyError::invalid(
                    "exemptions.code",
                    format!("{} is listed twice", exemption.code),
                ));
            }
        }

        cited("quarterly_due", &self.quarterly_due)?;
        cited("annual_return", &self.annual_return)?;
        if let AnnualReturnRule::WithinDaysOfYearEnd { days } = self.annual_return.value {
            positive("annual_return.days", days)?;
        }
        cited("fiscal_year_allowed", &self.fiscal_year_allowed)?;
        if self.fiscal_year_allowed.value
            && self.annual_return.value == AnnualReturnRule::WithFourthQuarterReturn
        {
            return Err(PolicyError::invalid(
                "fiscal_year_allowed",
                "an annual return filed with the fourth-quarter return closes a calendar year: fiscal years cannot be allowed",
            ));
        }
        if let Some(months) = &self.max_extension_months {
            cited("max_extension_months", months)?;
            positive("max_extension_months", months.value)?;
        }

        cited("interest_monthly_rate", &self.interest_monthly_rate)?;
        share("interest_monthly_rate", self.interest_monthly_rate.value)?;
        if let Some(rate) = &self.refund_interest_monthly_rate {
            cited("refund_interest_monthly_rate", rate)?;
            share("refund_interest_monthly_rate", rate.value)?;
        }
        cited("late_filing_fee", &self.late_filing_fee)?;
        amount("late_filing_fee", self.late_filing_fee.value)?;
        cited("collection_fee", &self.collection_fee)?;
        share("collection_fee.rate", self.collection_fee.value.rate)?;

        if let Some(rule) = &self.late_payment_forfeiture {
            cited("late_payment_forfeiture", rule)?;
            share(
                "late_payment_forfeiture.share_of_previous_year_tax",
                rule.value.share_of_previous_year_tax,
            )?;
            amount("late_payment_forfeiture.cap", rule.value.cap)?;
        }
        cited("non_filer_penalty", &self.non_filer_penalty)?;
        share("non_filer_penalty.rate", self.non_filer_penalty.value.rate)?;
        if let Some(cap) = self.non_filer_penalty.value.yearly_cap {
            amount("non_filer_penalty.yearly_cap", cap)?;
        }
        cited("fraud_penalty_rate", &self.fraud_penalty_rate)?;
        share("fraud_penalty_rate", self.fraud_penalty_rate.value)?;
        if let Some(security) = &self.security {
            cited("security", security)?;
            amount("security.max_deposit", security.value.max_deposit)?;
        }

        cited("distribution", &self.distribution)?;
        share(
            "distribution.commission_share",
            self.distribution.value.commission_share,
        )?;
        cited("payment_order", &self.payment_order)?;
        let order = &self.payment_order.value;
        let kinds: BTreeSet<ChargeKind> = order.iter().copied().collect();
        if order.len() != 4 || kinds.len() != 4 {
            return Err(PolicyError::invalid(
                "payment_order",
                "must list tax, interest, fee and penalty, each exactly once",
            ));
        }

        let violation = &self.violation_forfeiture;
        cited("violation_forfeiture", violation)?;
        amount(
            "violation_forfeiture.min_per_day",
            violation.value.min_per_day,
        )?;
        amount(
            "violation_forfeiture.max_per_day",
            violation.value.max_per_day,
        )?;
        if violation.value.min_per_day > violation.value.max_per_day {
            return Err(PolicyError::invalid(
                "violation_forfeiture.min_per_day",
                "must not exceed max_per_day",
            ));
        }
        if let Some(cap) = violation.value.max_share_of_tax {
            share("violation_forfeiture.max_share_of_tax", cap)?;
        }
        if let Some(range) = &self.confidentiality_forfeiture {
            cited("confidentiality_forfeiture", range)?;
            amount(
                "confidentiality_forfeiture.min_per_act",
                range.value.min_per_act,
            )?;
            if range.value.min_per_act > range.value.max_per_act {
                return Err(PolicyError::invalid(
                    "confidentiality_forfeiture.min_per_act",
                    "must not exceed max_per_act",
                ));
            }
        }
        cited("legal_holidays", &self.legal_holidays)?;

        if let Some(fee) = &self.vehicle_registration_fee {
            cited(
                "vehicle_registration_fee.fee_per_vehicle",
                &fee.fee_per_vehicle,
            )?;
            cited(
                "vehicle_registration_fee.dot_retention_per_vehicle",
                &fee.dot_retention_per_vehicle,
            )?;
            cited("vehicle_registration_fee.fund", &fee.fund)?;
            text("vehicle_registration_fee.fund", &fee.fund.value)?;
            amount(
                "vehicle_registration_fee.dot_retention_per_vehicle",
                fee.dot_retention_per_vehicle.value,
            )?;
            if fee.dot_retention_per_vehicle.value > fee.fee_per_vehicle.value {
                return Err(PolicyError::invalid(
                    "vehicle_registration_fee.dot_retention_per_vehicle",
                    "must not exceed fee_per_vehicle",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use super::*;
    use crate::domain::presets;

    fn field_of(policy: &Policy) -> Option<String> {
        match policy.validate() {
            Err(PolicyError::Invalid { field, .. }) => Some(field),
            _ => None,
        }
    }

    #[test]
    fn refuses_incoherent_values() {
        let dec = |s: &str| Decimal::from_str(s).unwrap();
        type Breaker = fn(&mut Policy, &dyn Fn(&str) -> Decimal);
        let cases: Vec<(&str, Breaker)> = vec![
            ("rate", |p, d| p.rate.value = d("1.5")),
            ("rate", |p, d| p.rate.value = d("0")),
            ("rate", |p, _| p.rate.citation = " ".into()),
            ("municipality", |p, _| p.municipality.clear()),
            ("interest_monthly_rate", |p, d| {
                p.interest_monthly_rate.value = d("-0.01")
            }),
            ("late_filing_fee", |p, _| {
                p.late_filing_fee.value = Money::from_cents(-1)
            }),
            ("late_payment_forfeiture.cap", |p, _| {
                if let Some(rule) = p.late_payment_forfeiture.as_mut() {
                    rule.value.cap = Money::from_cents(-100);
                }
            }),
            ("payment_order", |p, _| {
                p.payment_order.value.pop().map(|_| ()).unwrap_or(())
            }),
            ("payment_order", |p, _| {
                p.payment_order.value[1] = ChargeKind::Tax
            }),
            ("distribution.commission_share", |p, d| {
                p.distribution.value.commission_share = d("1.01")
            }),
            ("fiscal_year_allowed", |p, _| {
                p.annual_return.value = AnnualReturnRule::WithFourthQuarterReturn;
            }),
            ("annual_return.days", |p, _| {
                p.annual_return.value = AnnualReturnRule::WithinDaysOfYearEnd { days: 0 }
            }),
            ("max_extension_months", |p, _| {
                if let Some(m) = p.max_extension_months.as_mut() {
                    m.value = 0;
                }
            }),
            ("violation_forfeiture.min_per_day", |p, _| {
                p.violation_forfeiture.value.min_per_day = Money::from_cents(30_000);
            }),
            ("exemptions.code", |p, _| {
                let first = p.exemptions[0].clone();
                p.exemptions.push(first);
            }),
            ("effective_from", |p, _| {
                p.effective_from = chrono::NaiveDate::from_ymd_opt(1980, 1, 1).unwrap()
            }),
            (
                "vehicle_registration_fee.dot_retention_per_vehicle",
                |p, _| {
                    if let Some(fee) = p.vehicle_registration_fee.as_mut() {
                        fee.dot_retention_per_vehicle.value = Money::from_cents(2_001);
                    }
                },
            ),
        ];
        for (field, breaker) in cases {
            let mut policy = presets::montello();
            breaker(&mut policy, &dec);
            assert_eq!(field_of(&policy).as_deref(), Some(field), "{field}");
        }
    }

    #[test]
    fn presets_are_valid() {
        assert_eq!(presets::montello().validate(), Ok(()));
        assert_eq!(presets::hayward().validate(), Ok(()));
    }
}

//! [`Policy::validate`]: the checks a policy version must pass before it is stored or used.
//!
//! Contract: refuses, naming the field, a policy whose
//! - texts (municipality, title, effective-date source, citations, exemption codes) are empty;
//! - effective date is outside the years periods may have (1990..=2200);
//! - rates or shares are outside 0..=1 (the tax rate must also be above 0);
//! - the tax rate is above 8 % (Wis. Stat. § 66.0615(1m)(a)) without a
//!   `grandfathered_rate` in effect on 1994-05-13 that is above 8 % and not exceeded;
//! - amounts (fees, caps, limits) are negative, or a minimum exceeds its maximum;
//! - day or month counts are zero where a positive count is needed;
//! - payment order does not list each charge kind exactly once;
//! - annual return rule "with the fourth-quarter return" is combined with fiscal years
//!   (a fourth-quarter return closes a calendar year only);
//! - exemption codes repeat;
//! - a required attachment has no description or citation, names no kind of return,
//!   names one twice, is of kind `other` (a requirement must say what is required), or
//!   repeats a kind already required of the same kind of return;
//! - a vehicle registration fee is not more than 0.00, or the DOT's retention
//!   per vehicle is negative or not less than the fee (the city would receive
//!   nothing; Montello vehicle registration fee, DOT retention ¶).

use std::collections::BTreeSet;

use chrono::Datelike;
use rust_decimal::Decimal;

use super::{AnnualReturnRule, ChargeKind, Cited, Policy, PolicyError, RequiredAttachment};
use crate::domain::attachment::AttachmentKind;
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

/// The statute's general cap on the rate (Wis. Stat. § 66.0615(1m)(a)): 8 %.
pub const RATE_CAP: Decimal = Decimal::from_parts(8, 0, 0, false, 2);

/// The day the statute's cap exempts rates already in effect on (Wis. Stat. § 66.0615(1m)(a)).
pub fn cap_grandfather_day() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(1994, 5, 13).expect("a valid date")
}

/// A rate above [`RATE_CAP`] only with a `grandfathered_rate` that was in effect on
/// 1994-05-13, is above the cap, and is not exceeded.
fn rate_cap(policy: &Policy) -> Result<(), PolicyError> {
    let rate = policy.rate.value;
    if let Some(kept) = &policy.grandfathered_rate {
        cited("grandfathered_rate", kept)?;
        if kept.value.in_effect_since > cap_grandfather_day() {
            return Err(PolicyError::invalid(
                "grandfathered_rate.in_effect_since",
                "a rate above 8 % may be kept only if it was in effect on 1994-05-13 (Wis. Stat. § 66.0615(1m)(a))",
            ));
        }
        if kept.value.rate <= RATE_CAP {
            return Err(PolicyError::invalid(
                "grandfathered_rate.rate",
                "only a rate above 8 % needs keeping under Wis. Stat. § 66.0615(1m)(a); remove grandfathered_rate",
            ));
        }
        if rate > kept.value.rate {
            return Err(PolicyError::invalid(
                "rate",
                format!(
                    "must not exceed the rate kept since {} ({}) (Wis. Stat. § 66.0615(1m)(a))",
                    kept.value.in_effect_since, kept.value.rate
                ),
            ));
        }
        return Ok(());
    }
    if rate > RATE_CAP {
        return Err(PolicyError::invalid(
            "rate",
            format!(
                "must not exceed 0.08 (8 %, Wis. Stat. § 66.0615(1m)(a)) unless `grandfathered_rate` records a higher rate in effect on 1994-05-13 (got {rate})"
            ),
        ));
    }
    Ok(())
}

/// The checks of `required_attachments` (see the module doc).
fn required_attachments(rules: &[RequiredAttachment]) -> Result<(), PolicyError> {
    let mut seen = BTreeSet::new();
    for rule in rules {
        text("required_attachments.description", &rule.description)?;
        text("required_attachments.citation", &rule.citation)?;
        if rule.kind == AttachmentKind::Other {
            return Err(PolicyError::invalid(
                "required_attachments.kind",
                "a requirement must name what is required, not `other`",
            ));
        }
        if rule.returns.is_empty() {
            return Err(PolicyError::invalid(
                "required_attachments.returns",
                "must name the kinds of return (quarterly, annual) the document goes with",
            ));
        }
        for kind in &rule.returns {
            if !seen.insert((rule.kind, *kind)) {
                return Err(PolicyError::invalid(
                    "required_attachments.returns",
                    format!(
                        "{} is required twice of the same kind of return ({kind:?})",
                        rule.kind.as_str()
                    ),
                ));
            }
        }
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
        rate_cap(self)?;

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

        required_attachments(&self.required_attachments)?;

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
        if let Some(sale) = &self.sale_of_business {
            cited("sale_of_business", sale)?;
            let quarters_ok = match sale.value.provision {
                super::SaleProvision::SuccessorLiable => {
                    matches!(sale.value.quarters, Some(1..=40))
                }
                super::SaleProvision::ClearanceCertificate => sale.value.quarters.is_none(),
            };
            if !quarters_ok {
                return Err(PolicyError::invalid(
                    "sale_of_business.quarters",
                    "1 to 40 quarters for successor_liable, none for clearance_certificate",
                ));
            }
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
            if fee.fee_per_vehicle.value.is_negative() || fee.fee_per_vehicle.value.is_zero() {
                return Err(PolicyError::invalid(
                    "vehicle_registration_fee.fee_per_vehicle",
                    format!("must be more than 0.00 (got {})", fee.fee_per_vehicle.value),
                ));
            }
            amount(
                "vehicle_registration_fee.dot_retention_per_vehicle",
                fee.dot_retention_per_vehicle.value,
            )?;
            if fee.dot_retention_per_vehicle.value >= fee.fee_per_vehicle.value {
                return Err(PolicyError::invalid(
                    "vehicle_registration_fee.dot_retention_per_vehicle",
                    "must be less than fee_per_vehicle",
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
            ("required_attachments.kind", |p, _| {
                let mut rule = presets::hayward().required_attachments[0].clone();
                rule.kind = AttachmentKind::Other;
                p.required_attachments.push(rule);
            }),
            ("required_attachments.returns", |p, _| {
                let mut rule = presets::hayward().required_attachments[0].clone();
                rule.returns.clear();
                p.required_attachments.push(rule);
            }),
            ("required_attachments.returns", |p, _| {
                let rule = presets::hayward().required_attachments[0].clone();
                p.required_attachments.push(rule.clone());
                p.required_attachments.push(rule);
            }),
            ("required_attachments.citation", |p, _| {
                let mut rule = presets::hayward().required_attachments[0].clone();
                rule.citation = " ".into();
                p.required_attachments.push(rule);
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
            (
                "vehicle_registration_fee.dot_retention_per_vehicle",
                |p, _| {
                    if let Some(fee) = p.vehicle_registration_fee.as_mut() {
                        fee.dot_retention_per_vehicle.value = Money::from_cents(2_000);
                    }
                },
            ),
            (
                "vehicle_registration_fee.dot_retention_per_vehicle",
                |p, _| {
                    if let Some(fee) = p.vehicle_registration_fee.as_mut() {
                        fee.dot_retention_per_vehicle.value = Money::from_cents(-1);
                    }
                },
            ),
            ("vehicle_registration_fee.fee_per_vehicle", |p, _| {
                if let Some(fee) = p.vehicle_registration_fee.as_mut() {
                    fee.fee_per_vehicle.value = Money::ZERO;
                    fee.dot_retention_per_vehicle.value = Money::ZERO;
                }
            }),
        ];
        for (field, breaker) in cases {
            let mut policy = presets::montello();
            breaker(&mut policy, &dec);
            assert_eq!(field_of(&policy).as_deref(), Some(field), "{field}");
        }
    }

    #[test]
    fn rates_above_eight_percent_need_the_1994_exception() {
        let dec = |s: &str| Decimal::from_str(s).unwrap();
        let mut p = presets::hayward();
        p.rate.value = dec("0.08");
        assert_eq!(p.validate(), Ok(()), "8 % itself is allowed");
        p.rate.value = dec("0.0801");
        assert_eq!(field_of(&p).as_deref(), Some("rate"));
        let kept = |rate: &str, since: &str| {
            Some(Cited::new(
                crate::domain::policy::GrandfatheredRate {
                    rate: dec(rate),
                    in_effect_since: chrono::NaiveDate::parse_from_str(since, "%Y-%m-%d").unwrap(),
                },
                "Ord. No. 301; Wis. Stat. § 66.0615(1m)(a)",
            ))
        };
        p.rate.value = dec("0.09");
        p.grandfathered_rate = kept("0.09", "1994-05-13");
        assert_eq!(p.validate(), Ok(()), "kept since the day itself");
        p.rate.value = dec("0.095");
        assert_eq!(field_of(&p).as_deref(), Some("rate"), "above the kept rate");
        p.rate.value = dec("0.09");
        p.grandfathered_rate = kept("0.09", "1994-05-14");
        assert_eq!(
            field_of(&p).as_deref(),
            Some("grandfathered_rate.in_effect_since")
        );
        p.grandfathered_rate = kept("0.08", "1990-01-01");
        assert_eq!(field_of(&p).as_deref(), Some("grandfathered_rate.rate"));
        p.grandfathered_rate = kept("0.09", "1990-01-01");
        if let Some(k) = p.grandfathered_rate.as_mut() {
            k.citation = " ".into();
        }
        assert_eq!(field_of(&p).as_deref(), Some("grandfathered_rate"));
    }

    #[test]
    fn presets_are_valid() {
        assert_eq!(presets::montello().validate(), Ok(()));
        assert_eq!(presets::hayward().validate(), Ok(()));
    }
}

//! Late filing fee, operator collection fee and Montello's late-payment forfeiture.
//!
//! Contract:
//! - late filing fee: the policy's fee (both ordinances: $25) on a return filed after
//!   its filing due date (the due date, or the extended one); absent `filed_on` = on time
//!   (Montello room tax, late filing fee ¶; Hayward room tax, late filing fee);
//! - collection fee: `round(tax × rate)` kept by the operator; not kept on a delinquent
//!   return where the policy says so (Hayward room tax, late filing fee: a return "not
//!   timely filed" is delinquent and its business "shall not retain the collection
//!   fee"); the rate is 0 in both presets;
//! - late-payment forfeiture (Montello room tax, interest ¶): when tax is paid later than
//!   `days_after_due` days after the due date of the return (due + 30 is still in time),
//!   the lesser of `round(share × previous year's tax)` and the cap; none when no
//!   previous-year tax is given (a payor with no previous year), when no tax was due, or
//!   where the policy has no such provision (Hayward). The caller passes the filing due
//!   date: an extension moves "the due date of the return" for every purpose but
//!   interest (Montello room tax, interest ¶; DESIGN §3 "Extension"), so the 30 days
//!   count from the extended date when there is one.

use chrono::{Days, NaiveDate};

use super::no_provision;
use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::{Line, percent};
use crate::domain::money::Money;
use crate::domain::policy::Policy;

/// The late filing fee on a return due `filing_due` and filed on `filed_on` (absent:
/// on time). Line code `late_filing_fee`.
pub fn late_filing_fee(
    policy: &Policy,
    filing_due: NaiveDate,
    filed_on: Option<NaiveDate>,
) -> Line {
    let fee = policy.late_filing_fee.value;
    let citation = &policy.late_filing_fee.citation;
    let line = match filed_on {
        Some(filed) if filed > filing_due => Line::new(
            "late_filing_fee",
            fee,
            format!(
                "return filed {filed}, after its filing due date {filing_due}: late filing fee {fee}"
            ),
            citation,
        ),
        Some(filed) => Line::new(
            "late_filing_fee",
            Money::ZERO,
            format!("return filed {filed}, on or before its filing due date {filing_due}: no fee"),
            citation,
        ),
        None => Line::new(
            "late_filing_fee",
            Money::ZERO,
            format!("filed by the filing due date {filing_due}: no fee"),
            citation,
        ),
    };
    let line = line.input("filing_due_date", filing_due).input("fee", fee);
    match filed_on {
        Some(filed) => line.input("filed_on", filed),
        None => line,
    }
}

/// The collection fee the operator keeps out of `tax`; zero on a `delinquent` (late
/// filed) return where the policy forfeits it. Line code `collection_fee`.
pub fn collection_fee(policy: &Policy, tax: Money, delinquent: bool) -> Result<Line, DomainError> {
    require_not_negative("tax", tax)?;
    let rule = policy.collection_fee.value;
    let citation = &policy.collection_fee.citation;
    let line = if rule.rate.is_zero() {
        Line::new(
            "collection_fee",
            Money::ZERO,
            "no collection fee is set (rate 0)",
            citation,
        )
    } else if delinquent && rule.forfeited_when_delinquent {
        Line::new(
            "collection_fee",
            Money::ZERO,
            "the return was not timely filed (delinquent): the operator does not keep the collection fee",
            citation,
        )
    } else {
        let amount = Money::round(tax.amount() * rule.rate);
        Line::new(
            "collection_fee",
            amount,
            format!(
                "{} of tax {tax} kept by the operator = {amount}",
                percent(rule.rate)
            ),
            citation,
        )
    };
    Ok(line
        .input("tax", tax)
        .input("rate", rule.rate)
        .input("delinquent", delinquent))
}

/// Montello's forfeiture for tax paid more than 30 days after `due`, the return's
/// (filing) due date, extended when an extension was granted. Line code
/// `late_payment_forfeiture`; field `previous_year_tax` must not be negative.
pub fn late_payment_forfeiture(
    policy: &Policy,
    tax: Money,
    due: NaiveDate,
    paid_on: Option<NaiveDate>,
    previous_year_tax: Option<Money>,
) -> Result<Line, DomainError> {
    if let Some(previous) = previous_year_tax {
        require_not_negative("previous_year_tax", previous)?;
    }
    let code = "late_payment_forfeiture";
    let Some(rule) = &policy.late_payment_forfeiture else {
        let why = format!(
            "{}'s ordinance has no late-payment forfeiture",
            policy.municipality
        );
        return Ok(Line::new(code, Money::ZERO, why, no_provision(policy)));
    };
    let r = rule.value;
    let in_time_until = due
        .checked_add_days(Days::new(u64::from(r.days_after_due)))
        .unwrap_or(due);
    let base = |line: Line| {
        let line = line
            .input("due_date", due)
            .input("in_time_until", in_time_until)
            .input("tax", tax);
        let line = match paid_on {
            Some(paid) => line.input("paid_on", paid),
            None => line,
        };
        match previous_year_tax {
            Some(previous) => line.input("previous_year_tax", previous),
            None => line,
        }
    };
    let zero = |why: String| Ok(base(Line::new(code, Money::ZERO, why, &rule.citation)));
    let paid = match paid_on {
        Some(paid) if paid > in_time_until => paid,
        Some(paid) => {
            return zero(format!(
                "paid {paid}, within {} days after the due date of the return {due} (in time until {in_time_until}): no forfeiture",
                r.days_after_due
            ));
        }
        None => return zero(format!("paid in time (by {in_time_until}): no forfeiture")),
    };
    if tax.is_zero() {
        return zero("no tax was due for the period: no forfeiture".to_owned());
    }
    let Some(previous) = previous_year_tax else {
        return zero(format!(
            "paid {paid}, more than {} days after the due date of the return {due}, but no tax was imposed on the payor for the previous year (none given), so {} of it is 0.00",
            r.days_after_due,
            percent(r.share_of_previous_year_tax)
        ));
    };
    let share = Money::round(previous.amount() * r.share_of_previous_year_tax);
    let amount = share.min(r.cap);
    let explanation = format!(
        "paid {paid}, more than {} days after the due date of the return {due}: the lesser of {} of the previous year's tax {previous} ({share}) and {} = {amount}",
        r.days_after_due,
        percent(r.share_of_previous_year_tax),
        r.cap
    );
    Ok(base(
        Line::new(code, amount, explanation, &rule.citation).input("cap", r.cap),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::{d, m};
    use crate::domain::presets::{hayward, montello};
    use rust_decimal::Decimal;

    #[test]
    fn late_filing_fee_examples() {
        let cases = [
            (montello(), "2026-04-30", Some("2026-04-30"), "0.00"),
            (montello(), "2026-04-30", Some("2026-05-01"), "25.00"),
            (montello(), "2026-05-30", Some("2026-05-30"), "0.00"), // extended filing due date
            (montello(), "2026-04-30", None, "0.00"),
            (hayward(), "2026-01-30", Some("2026-01-31"), "25.00"),
        ];
        for (policy, due, filed, fee) in cases {
            let line = late_filing_fee(&policy, d(due), filed.map(d));
            assert_eq!(line.amount, m(fee), "{due} {filed:?}");
            assert_eq!(line.citation, policy.late_filing_fee.citation);
        }
    }

    #[test]
    fn collection_fee_examples() {
        assert_eq!(
            collection_fee(&hayward(), m("400.00"), false)
                .unwrap()
                .amount,
            Money::ZERO
        );
        let mut policy = hayward();
        policy.collection_fee.value.rate = Decimal::new(5, 3); // 0.5 %
        assert_eq!(
            collection_fee(&policy, m("401.00"), false).unwrap().amount,
            m("2.01")
        ); // 2.005
        assert_eq!(
            collection_fee(&policy, m("401.00"), true).unwrap().amount,
            Money::ZERO
        );
        policy.collection_fee.value.forfeited_when_delinquent = false;
        assert_eq!(
            collection_fee(&policy, m("401.00"), true).unwrap().amount,
            m("2.01")
        );
    }

    #[test]
    fn late_payment_forfeiture_examples() {
        let due = "2026-04-30";
        let cases = [
            // (paid, previous year's tax, forfeiture)
            (Some("2026-05-30"), Some("2000.00"), "0.00"), // due + 30: still in time
            (Some("2026-05-31"), Some("2000.00"), "500.00"), // due + 31
            (Some("2026-05-31"), Some("4000.00"), "1000.00"), // 25 % = 1000.00
            (Some("2026-05-31"), Some("4000.04"), "1000.00"), // 1000.01 capped
            (Some("2026-09-01"), Some("10000.00"), "1000.00"),
            (Some("2026-05-31"), Some("0.02"), "0.01"), // 0.005 → 0.01
            (Some("2026-05-31"), None, "0.00"),         // no previous year
            (None, Some("2000.00"), "0.00"),
            (Some("2026-04-15"), Some("2000.00"), "0.00"),
        ];
        for (paid, previous, expected) in cases {
            let line = late_payment_forfeiture(
                &montello(),
                m("555.56"),
                d(due),
                paid.map(d),
                previous.map(m),
            )
            .unwrap();
            assert_eq!(line.amount, m(expected), "{paid:?} {previous:?}");
            assert_eq!(line.code, "late_payment_forfeiture");
        }
        let no_previous = late_payment_forfeiture(
            &montello(),
            m("555.56"),
            d(due),
            Some(d("2026-06-15")),
            None,
        )
        .unwrap();
        assert!(
            no_previous
                .explanation
                .contains("no tax was imposed on the payor for the previous year")
        );
        let zero_tax = late_payment_forfeiture(
            &montello(),
            Money::ZERO,
            d(due),
            Some(d("2026-06-15")),
            Some(m("100")),
        )
        .unwrap();
        assert_eq!(zero_tax.amount, Money::ZERO);
        let hayward = late_payment_forfeiture(
            &hayward(),
            m("555.56"),
            d(due),
            Some(d("2026-09-01")),
            Some(m("9000")),
        )
        .unwrap();
        assert_eq!(hayward.amount, Money::ZERO);
        assert!(late_payment_forfeiture(&montello(), m("1"), d(due), None, Some(m("-1"))).is_err());
    }
}

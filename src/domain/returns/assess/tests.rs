//! Hand-computed assessments of filed returns.

use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::domain::compute::test_values::{d, history, m};
use crate::domain::policy::Policy;
use crate::domain::presets::{hayward, montello};
use crate::domain::registry::Election;
use crate::domain::returns::filing::ReturnFiling;

const ZONE: &[Stint] = &[Stint {
    joined_on: NaiveDate::from_ymd_opt(1990, 1, 1).unwrap(),
    left_on: None,
}];

/// A filing of `period` with `gross` and one federal-government exemption of `exempt`.
pub(crate) fn filing(policy: &Policy, period: &str, gross: &str, exempt: &str) -> Filing {
    let body: ReturnFiling = serde_json::from_value(json!({
        "period": period,
        "gross_receipts": gross,
        "exemptions": [{"code": "federal_government", "amount": exempt}],
        "signer": {"name": "Ada Lake", "title": "Owner"},
        "attested": true
    }))
    .unwrap();
    body.parse(policy, Election::Calendar).unwrap()
}

/// [`assess`] with `policy` the only version and the municipality in the zone throughout.
fn assess_alone(
    policy: Policy,
    f: &Filing,
    timing: &Timing,
    previous_year_tax: Option<Money>,
) -> Result<Assessment, DomainError> {
    assess(&history(policy), f, timing, previous_year_tax, ZONE)
}

fn timing(filed: &str, paid: Option<&str>, extended: Option<&str>) -> Timing {
    Timing {
        filed_on: d(filed),
        paid_on: paid.map(d),
        extended_to: extended.map(d),
    }
}

#[test]
fn montello_on_time() {
    // 4.5 % × (10000.00 − 750.00) = 416.25, filed and paid on the due date 2026-04-30.
    let f = filing(&montello(), "2026-Q1", "10000.00", "750.00");
    let a = assess_alone(montello(), &f, &Timing::filed(d("2026-04-30")), None).unwrap();
    assert_eq!(a.tax, m("416.25"));
    assert_eq!(a.amount_due, m("416.25"));
    assert_eq!(
        (a.interest, a.late_filing_fee, a.late_payment_forfeiture),
        (Money::ZERO, Money::ZERO, Money::ZERO)
    );
    assert_eq!(
        (a.due_date, a.filing_due_date),
        (d("2026-04-30"), d("2026-04-30"))
    );
    assert!(!a.filed_late && a.paid_with_return);
    assert_eq!(a.paid_on, d("2026-04-30"));
    assert_eq!(a.policy_version, d("2020-01-01"));
    assert_eq!(a.principal(), m("416.25"));
    // 75 % of 416.25 = 312.1875 → 312.19 to the commission, 104.06 kept.
    assert_eq!(
        (a.distribution.commission, a.distribution.municipality),
        (m("312.19"), m("104.06"))
    );
}

#[test]
fn montello_late_without_a_payment_date_counts_as_paid_when_filed() {
    // Filed 2026-06-01, no payment date: paid 2026-06-01 with the return.
    // Interest: months (2026·12 + 6) − (2026·12 + 4) = 2; 416.25 × 1 % × 2 = 8.325 → 8.33.
    // Fee 25.00 (after 2026-04-30). Forfeiture: 2026-06-01 is after 2026-05-30 (due + 30):
    // min(25 % × 2000.00 = 500.00, 1000.00) = 500.00. Due 416.25 + 8.33 + 25.00 + 500.00 = 949.58.
    let f = filing(&montello(), "2026-Q1", "10000.00", "750.00");
    let a = assess_alone(
        montello(),
        &f,
        &timing("2026-06-01", None, None),
        Some(m("2000.00")),
    )
    .unwrap();
    assert_eq!(a.interest, m("8.33"));
    assert_eq!(a.late_filing_fee, m("25.00"));
    assert_eq!(a.late_payment_forfeiture, m("500.00"));
    assert_eq!(a.amount_due, m("949.58"));
    assert!(a.filed_late && a.paid_with_return);
    let interest = a.lines.iter().find(|l| l.code == "interest").unwrap();
    assert_eq!(interest.inputs["paid_on_source"], "filed_on");
}

#[test]
fn a_return_filed_on_a_saturday_due_date_is_on_time() {
    // Montello 2025-Q4 is due 2026-01-31, a Saturday (the calendar day stands). The
    // local date decides: 23:30 in Chicago on the 31st is the 31st, on time.
    let f = filing(&montello(), "2025-Q4", "2000.00", "0");
    let a = assess_alone(montello(), &f, &Timing::filed(d("2026-01-31")), None).unwrap();
    assert_eq!(a.late_filing_fee, Money::ZERO);
    assert_eq!(a.amount_due, m("90.00")); // 4.5 % × 2000.00
    let next_day = assess_alone(montello(), &f, &Timing::filed(d("2026-02-01")), None).unwrap();
    // 90.00 + interest 1 month 0.90 + fee 25.00 = 115.90
    assert_eq!(next_day.amount_due, m("115.90"));
}

#[test]
fn montello_extension_moves_the_fee_and_forfeiture_not_interest() {
    // Extended to 2026-05-31, filed 2026-05-25 with the tax: no fee; interest from the
    // original 2026-04-30: 1 month, 416.25 × 1 % = 4.1625 → 4.16; forfeiture's 30 days
    // count from 2026-05-31: in time. Due 416.25 + 4.16 = 420.41.
    let f = filing(&montello(), "2026-Q1", "10000.00", "750.00");
    let a = assess_alone(
        montello(),
        &f,
        &timing("2026-05-25", None, Some("2026-05-31")),
        Some(m("2000.00")),
    )
    .unwrap();
    assert_eq!(
        (a.due_date, a.filing_due_date),
        (d("2026-04-30"), d("2026-05-31"))
    );
    assert_eq!(a.late_filing_fee, Money::ZERO);
    assert_eq!(a.interest, m("4.16"));
    assert_eq!(a.late_payment_forfeiture, Money::ZERO);
    assert_eq!(a.amount_due, m("420.41"));
    assert!(!a.filed_late);
}

#[test]
fn hayward_late_and_no_extension() {
    // 4 % × (8000.00 − 1000.00) = 280.00, due Friday 2026-01-30; filed Saturday the 31st:
    // fee 25.00, interest 1 month (at least one when late) 2.80. Due 307.80.
    let f = filing(&hayward(), "2025-Q4", "8000.00", "1000.00");
    let a = assess_alone(hayward(), &f, &Timing::filed(d("2026-01-31")), None).unwrap();
    assert_eq!(a.tax, m("280.00"));
    assert_eq!(a.interest, m("2.80"));
    assert_eq!(a.late_filing_fee, m("25.00"));
    assert_eq!(a.amount_due, m("307.80"));
    let refused = assess_alone(
        hayward(),
        &f,
        &timing("2026-02-15", None, Some("2026-02-27")),
        None,
    );
    assert!(
        matches!(refused, Err(DomainError::Invalid { ref field, ref rule, .. })
        if field == "extended_to" && rule == "extension_not_allowed")
    );
}

#[test]
fn an_annual_return_owes_only_its_late_filing_fee() {
    // Montello calendar 2025: due 2026-03-31; filed 2026-04-02: fee 25.00 only.
    let body: ReturnFiling = serde_json::from_value(json!({
        "period": "2025", "gross_receipts": "4000.00",
        "quarters": [
            {"period": "2025-Q1", "gross_receipts": "1000.00"},
            {"period": "2025-Q2", "gross_receipts": "1000.00"},
            {"period": "2025-Q3", "gross_receipts": "1000.00"},
            {"period": "2025-Q4", "gross_receipts": "1000.00"}
        ],
        "signer": {"name": "Ada Lake", "title": "Owner"}, "attested": true
    }))
    .unwrap();
    let f = body.parse(&montello(), Election::Calendar).unwrap();
    let a = assess_alone(montello(), &f, &Timing::filed(d("2026-04-02")), None).unwrap();
    assert_eq!(
        (a.tax, a.interest, a.late_filing_fee, a.amount_due),
        (Money::ZERO, Money::ZERO, m("25.00"), m("25.00"))
    );
    assert_eq!(a.due_date, d("2026-03-31"));
    assert!(a.filed_late);
}

#[test]
fn a_filing_before_the_period_ends_is_refused() {
    let f = filing(&montello(), "2026-Q1", "100.00", "0");
    let result = assess_alone(montello(), &f, &Timing::filed(d("2026-03-30")), None);
    assert!(
        matches!(result, Err(DomainError::Invalid { ref field, ref rule, .. })
        if field == "filed_on" && rule == "before_period_end")
    );
}

proptest! {
    #[test]
    fn the_amount_due_is_the_sum_of_its_parts(
        gross in 0i64..100_000_000,
        late_days in 0u64..200,
        paid_after in proptest::option::of(0u64..200),
        previous in proptest::option::of(0i64..10_000_000),
        hayward_policy in proptest::bool::ANY,
    ) {
        let policy = if hayward_policy { hayward() } else { montello() };
        let f = filing(&policy, "2026-Q1", &Money::from_cents(gross).to_string(), "0");
        let h = history(policy);
        let due = assess(&h, &f, &Timing::filed(d("2026-04-01")), None, ZONE).unwrap().due_date;
        let filed_on = due + chrono::Days::new(late_days);
        let t = Timing { filed_on, paid_on: paid_after.map(|p| filed_on + chrono::Days::new(p)), extended_to: None };
        let a = assess(&h, &f, &t, previous.map(Money::from_cents), ZONE).unwrap();
        prop_assert_eq!(a.amount_due, a.principal() + a.interest + a.late_filing_fee + a.late_payment_forfeiture);
        prop_assert_eq!(a.filed_late, late_days > 0);
        prop_assert_eq!(a.late_filing_fee.is_zero(), late_days == 0);
        prop_assert!(a.paid_on > a.due_date || a.interest.is_zero());
        prop_assert!(!a.interest.is_negative());
        prop_assert_eq!(a.paid_on, t.paid_on.unwrap_or(filed_on));
    }
}

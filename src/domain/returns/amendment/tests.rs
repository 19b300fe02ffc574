//! Hand-computed amendments, up and down.

use proptest::prelude::*;

use super::*;
use crate::domain::compute::test_values::{d, history, m};
use crate::domain::presets::{hayward, montello};
use crate::domain::returns::assess::tests::filing;
use crate::domain::returns::assess::{Timing, assess};
use crate::domain::zone_membership::Stint;

const ZONE: &[Stint] = &[];

/// The assessment of `period` with `gross` (exempt `exempt`) on `timing`.
fn version(
    policy: &Policy,
    period: &str,
    gross: &str,
    exempt: &str,
    timing: &Timing,
) -> Assessment {
    let f = filing(policy, period, gross, exempt);
    assess(&history(policy.clone()), &f, timing, None, ZONE).unwrap()
}

fn line<'a>(t: &'a TaxDifference, code: &str) -> &'a Line {
    t.lines
        .iter()
        .find(|l| l.code == code)
        .unwrap_or_else(|| panic!("no line {code}"))
}

#[test]
fn additional_tax_bears_interest_from_the_original_due_date() {
    // v1: 4.5 % × (10000.00 − 750.00) = 416.25, filed on time 2026-04-20.
    // v2: 4.5 % × (12000.00 − 750.00) = 506.25, assessed on v1's timing.
    // Additional 90.00, paid with the amendment 2026-07-10: months 7 − 4 = 3 from the
    // due date 2026-04-30; 90.00 × 1 % × 3 = 2.70. Due 92.70.
    let p = montello();
    let t = Timing::filed(d("2026-04-20"));
    let v1 = version(&p, "2026-Q1", "10000.00", "750.00", &t);
    let v2 = version(&p, "2026-Q1", "12000.00", "750.00", &t);
    let diff = amend(&history(p), &v1, &v2, d("2026-07-10"), None).unwrap();
    assert_eq!(
        (diff.previous_tax, diff.new_tax),
        (m("416.25"), m("506.25"))
    );
    assert_eq!(diff.tax_difference, m("90.00"));
    assert_eq!(
        (diff.additional_tax, diff.credit),
        (m("90.00"), Money::ZERO)
    );
    assert_eq!(diff.interest, m("2.70"));
    assert_eq!(diff.amount_due, m("92.70"));
    assert_eq!(
        (diff.due_date, diff.paid_on),
        (d("2026-04-30"), d("2026-07-10"))
    );
    let codes: Vec<&str> = diff.lines.iter().map(|l| l.code.as_ref()).collect();
    assert_eq!(
        codes,
        ["tax_difference", "additional_tax", "interest", "amount_due"]
    );
    assert_eq!(line(&diff, "interest").inputs["months"], "3");
    assert_eq!(line(&diff, "interest").inputs["paid_on_source"], "filed_on");
    assert!(
        diff.lines
            .iter()
            .all(|l| !l.citation.is_empty() && !l.explanation.is_empty())
    );
}

#[test]
fn a_decrease_is_a_credit_without_interest() {
    // v2: 4.5 % × (9000.00 − 750.00) = 371.25; 371.25 − 416.25 = −45.00: a credit of 45.00.
    let p = montello();
    let t = Timing::filed(d("2026-04-20"));
    let v1 = version(&p, "2026-Q1", "10000.00", "750.00", &t);
    let v2 = version(&p, "2026-Q1", "9000.00", "750.00", &t);
    let diff = amend(&history(p), &v1, &v2, d("2026-08-03"), None).unwrap();
    assert_eq!(diff.tax_difference, m("-45.00"));
    assert_eq!(
        (diff.additional_tax, diff.credit),
        (Money::ZERO, m("45.00"))
    );
    assert_eq!((diff.interest, diff.amount_due), (Money::ZERO, Money::ZERO));
    assert!(line(&diff, "credit").citation.contains("refunded taxes")); // Montello refund interest ¶
}

#[test]
fn an_extension_does_not_move_the_interest_date_of_an_amendment() {
    // v1 extended to 2026-05-31 and filed 2026-05-20. Amended 2026-06-05: months
    // 6 − 4 = 2 from 2026-04-30 (not from 2026-05-31): 90.00 × 1 % × 2 = 1.80.
    let p = montello();
    let t = Timing {
        filed_on: d("2026-05-20"),
        paid_on: None,
        extended_to: Some(d("2026-05-31")),
    };
    let v1 = version(&p, "2026-Q1", "10000.00", "750.00", &t);
    let v2 = version(&p, "2026-Q1", "12000.00", "750.00", &t);
    let diff = amend(&history(p), &v1, &v2, d("2026-06-05"), None).unwrap();
    assert_eq!(diff.due_date, d("2026-04-30"));
    assert_eq!(diff.interest, m("1.80"));
    assert_eq!(diff.amount_due, m("91.80"));
}

#[test]
fn hayward_with_a_later_payment_date() {
    // v1 4 % × 5000.00 = 200.00; v2 4 % × 6000.00 = 240.00; additional 40.00, amended
    // 2026-05-01 but paid 2026-06-15: months 6 − 4 = 2 from 2026-04-30; 40.00 × 1 % × 2 = 0.80.
    let p = hayward();
    let t = Timing::filed(d("2026-04-30"));
    let v1 = version(&p, "2026-Q1", "5000.00", "0", &t);
    let v2 = version(&p, "2026-Q1", "6000.00", "0", &t);
    let diff = amend(
        &history(p),
        &v1,
        &v2,
        d("2026-05-01"),
        Some(d("2026-06-15")),
    )
    .unwrap();
    assert_eq!(diff.interest, m("0.80"));
    assert_eq!(diff.amount_due, m("40.80"));
    assert!(
        !line(&diff, "interest")
            .inputs
            .contains_key("paid_on_source")
    );
}

#[test]
fn an_amendment_before_the_due_date_owes_no_interest() {
    let p = montello();
    let t = Timing::filed(d("2026-04-02"));
    let v1 = version(&p, "2026-Q1", "10000.00", "750.00", &t);
    let v2 = version(&p, "2026-Q1", "12000.00", "750.00", &t);
    let diff = amend(&history(p), &v1, &v2, d("2026-04-25"), None).unwrap();
    assert_eq!((diff.interest, diff.amount_due), (Money::ZERO, m("90.00")));
}

#[test]
fn refusals_name_field_and_rule() {
    let p = montello();
    let h = history(p.clone());
    let v1 = version(
        &p,
        "2026-Q1",
        "100.00",
        "0",
        &Timing::filed(d("2026-04-20")),
    );
    let other = version(
        &p,
        "2026-Q2",
        "100.00",
        "0",
        &Timing::filed(d("2026-07-20")),
    );
    let rule = |r: Result<TaxDifference, DomainError>| match r {
        Err(DomainError::Invalid { field, rule, .. }) => format!("{field}/{rule}"),
        other => format!("{other:?}"),
    };
    assert_eq!(
        rule(amend(&h, &v1, &other, d("2026-08-01"), None)),
        "period/not_the_same_period"
    );
    assert_eq!(
        rule(amend(&h, &v1, &v1, d("2026-04-19"), None)),
        "filed_on/before_previous_version"
    );
    assert_eq!(
        rule(amend(&h, &v1, &v1, d("2026-05-01"), Some(d("2026-03-30")))),
        "paid_on/before_period_end"
    );
}

proptest! {
    #[test]
    fn an_amendment_and_its_reverse_mirror_each_other(
        a in 0i64..100_000_000,
        b in 0i64..100_000_000,
        late_days in 0u64..400,
    ) {
        let p = montello();
        let t = Timing::filed(d("2026-04-30"));
        let va = version(&p, "2026-Q1", &Money::from_cents(a).to_string(), "0", &t);
        let vb = version(&p, "2026-Q1", &Money::from_cents(b).to_string(), "0", &t);
        let on = d("2026-04-30") + chrono::Days::new(late_days);
        let up = amend(&history(p.clone()), &va, &vb, on, None).unwrap();
        let down = amend(&history(p), &vb, &va, on, None).unwrap();
        prop_assert_eq!(up.tax_difference, -down.tax_difference);
        prop_assert_eq!(up.additional_tax, down.credit);
        prop_assert_eq!(up.credit, down.additional_tax);
        prop_assert_eq!(up.tax_difference, vb.tax - va.tax);
        prop_assert_eq!(up.amount_due, up.additional_tax + up.interest);
        prop_assert!(up.interest.is_zero() || (late_days > 0 && !up.additional_tax.is_zero()));
    }
}

//! Worked examples and properties of `quote` and `due_calendar`.

use chrono::NaiveDate;
use proptest::prelude::*;
use rust_decimal::Decimal;

use super::*;
use crate::domain::compute::test_values::{d, history, m};
use crate::domain::policy::Policy;
use crate::domain::presets::{hayward, montello};

/// A municipality that has been a zone member throughout (Montello since 2020).
const ZONE: &[Stint] = &[Stint {
    joined_on: NaiveDate::from_ymd_opt(1990, 1, 1).unwrap(),
    left_on: None,
}];

fn input(period: &str, gross: &str) -> QuoteInput {
    QuoteInput {
        period: period.parse().unwrap(),
        gross_receipts: m(gross),
        exempt_receipts: Money::ZERO,
        filed_on: None,
        paid_on: None,
        extended_to: None,
        previous_year_tax: None,
    }
}

fn line<'a>(quote: &'a Quote, code: &str) -> &'a Line {
    quote
        .lines
        .iter()
        .find(|l| l.code == code)
        .unwrap_or_else(|| panic!("no line {code}"))
}

fn invalid(result: Result<Quote, DomainError>) -> String {
    match result {
        Err(DomainError::Invalid { field, rule, .. }) => format!("{field}/{rule}"),
        other => format!("{other:?}"),
    }
}

#[test]
fn montello_2026_q1_worked_example() {
    let q = quote(&history(montello()), &input("2026-Q1", "12345.67"), ZONE).unwrap();
    assert_eq!(q.tax, m("555.56"));
    assert_eq!(q.due_date, d("2026-04-30"));
    assert_eq!(q.filing_due_date, d("2026-04-30"));
    assert_eq!(q.distribution.commission, m("416.67"));
    assert_eq!(q.distribution.municipality, m("138.89"));
    assert_eq!(
        (q.interest, q.late_filing_fee, q.late_payment_forfeiture),
        (Money::ZERO, Money::ZERO, Money::ZERO)
    );
    assert_eq!(q.total_due, m("555.56"));
    assert_eq!(q.policy_version, d("2020-01-01"));
    let codes: Vec<&str> = q.lines.iter().map(|l| l.code.as_ref()).collect();
    assert_eq!(
        codes,
        [
            "tax",
            "collection_fee",
            "interest",
            "late_filing_fee",
            "late_payment_forfeiture",
            "commission_share",
            "municipality_share",
            "total_due"
        ]
    );
    assert!(
        q.lines
            .iter()
            .all(|l| !l.citation.is_empty() && !l.explanation.is_empty())
    );
    assert!(q.dates.iter().all(|l| !l.citation.is_empty()));
    assert_eq!(
        line(&q, "tax").explanation,
        "4.5 % of taxable receipts 12345.67 (gross 12345.67 − exempt 0.00) = 555.56"
    );
}

#[test]
fn due_dates_by_municipality() {
    let cases = [
        (montello(), "2026-Q1", "2026-04-30"),
        (montello(), "2025-Q4", "2026-01-31"), // Saturday: Montello keeps the calendar day
        (montello(), "2026-Q3", "2026-10-31"), // Saturday
        (hayward(), "2025-Q4", "2026-01-30"),  // 2026-01-31 is a Saturday
        (hayward(), "2026-Q3", "2026-10-30"),
        (montello(), "2023", "2024-03-30"), // leap year
        (montello(), "2025", "2026-03-31"),
        (montello(), "FY2026-06", "2026-09-28"),
        (hayward(), "2025", "2026-01-30"),
    ];
    for (policy, period, due) in cases {
        let q = quote(&history(policy), &input(period, "1000.00"), ZONE).unwrap();
        assert_eq!(q.due_date, d(due), "{period}");
    }
}

#[test]
fn half_a_cent_rounds_away_from_zero() {
    let q = quote(&history(montello()), &input("2026-Q1", "12345.00"), ZONE).unwrap();
    assert_eq!(q.tax, m("555.53")); // 555.525
    assert_eq!(q.distribution.commission, m("416.65")); // 416.6475
    assert_eq!(q.distribution.municipality, m("138.88"));
    let q = quote(&history(montello()), &input("2026-Q1", "11.00"), ZONE).unwrap();
    assert_eq!(q.tax, m("0.50")); // 0.495
}

#[test]
fn late_montello_return() {
    let mut i = input("2026-Q1", "12345.67");
    i.filed_on = Some(d("2026-06-01"));
    i.paid_on = Some(d("2026-06-01"));
    i.previous_year_tax = Some(m("3000.00"));
    let q = quote(&history(montello()), &i, ZONE).unwrap();
    assert_eq!(q.interest, m("11.11")); // 555.56 × 1 % × 2 months
    assert_eq!(q.late_filing_fee, m("25.00"));
    assert_eq!(q.late_payment_forfeiture, m("750.00")); // 25 % of 3000.00
    assert_eq!(q.total_due, m("1341.67"));
    assert_eq!(line(&q, "total_due").amount, q.total_due);
}

#[test]
fn late_payment_forfeiture_boundary_and_cap() {
    let cases = [
        ("2026-05-30", Some("3000.00"), "0.00"), // due + 30: in time
        ("2026-05-31", Some("3000.00"), "750.00"), // due + 31
        ("2026-05-31", Some("9000.00"), "1000.00"), // capped
        ("2026-05-31", None, "0.00"),            // no previous year
    ];
    for (paid, previous, expected) in cases {
        let mut i = input("2026-Q1", "12345.67");
        i.paid_on = Some(d(paid));
        i.previous_year_tax = previous.map(m);
        let q = quote(&history(montello()), &i, ZONE).unwrap();
        assert_eq!(
            q.late_payment_forfeiture,
            m(expected),
            "{paid} {previous:?}"
        );
        assert_eq!(q.interest, m("5.56"));
    }
}

#[test]
fn extension_excuses_the_fee_but_not_interest() {
    let mut i = input("2026-Q1", "12345.67");
    i.extended_to = Some(d("2026-05-30"));
    i.filed_on = Some(d("2026-05-20"));
    i.paid_on = Some(d("2026-05-20"));
    let q = quote(&history(montello()), &i, ZONE).unwrap();
    assert_eq!(q.filing_due_date, d("2026-05-30"));
    assert_eq!(q.due_date, d("2026-04-30"));
    assert_eq!(q.late_filing_fee, Money::ZERO);
    assert_eq!(q.interest, m("5.56"));
    assert_eq!(q.total_due, m("561.12"));
    i.filed_on = Some(d("2026-05-31"));
    assert_eq!(
        quote(&history(montello()), &i, ZONE)
            .unwrap()
            .late_filing_fee,
        m("25.00")
    );
}

#[test]
fn hayward_interest_across_the_year_boundary() {
    let mut i = input("2025-Q4", "12345.67");
    i.paid_on = Some(d("2026-03-02"));
    i.filed_on = Some(d("2026-01-30"));
    let q = quote(&history(hayward()), &i, ZONE).unwrap();
    assert_eq!(q.tax, m("493.83"));
    assert_eq!(q.interest, m("9.88")); // 493.83 × 1 % × 2 months = 9.8766
    assert_eq!(q.late_filing_fee, Money::ZERO);
    assert_eq!(q.late_payment_forfeiture, Money::ZERO);
    assert_eq!(q.distribution.commission, Money::ZERO);
    assert_eq!(q.distribution.municipality, m("493.83"));
    i.paid_on = Some(d("2026-01-31")); // the Saturday after the due date
    assert_eq!(
        quote(&history(hayward()), &i, ZONE).unwrap().interest,
        m("4.94")
    );
}

#[test]
fn invalid_inputs_name_field_and_rule() {
    let base = || input("2026-Q1", "100.00");
    let cases: Vec<(Policy, QuoteInput, &str)> = vec![
        (
            montello(),
            input("2026-Q1", "-1.00"),
            "gross_receipts/not_negative",
        ),
        (
            montello(),
            QuoteInput {
                exempt_receipts: m("100.01"),
                ..base()
            },
            "exempt_receipts/exempt_not_above_gross",
        ),
        (
            montello(),
            QuoteInput {
                exempt_receipts: m("-1"),
                ..base()
            },
            "exempt_receipts/not_negative",
        ),
        (
            montello(),
            QuoteInput {
                previous_year_tax: Some(m("-1")),
                ..base()
            },
            "previous_year_tax/not_negative",
        ),
        (
            montello(),
            QuoteInput {
                filed_on: Some(d("2026-03-15")),
                ..base()
            },
            "filed_on/before_period_end",
        ),
        (
            montello(),
            QuoteInput {
                paid_on: Some(d("2025-12-31")),
                ..base()
            },
            "paid_on/before_period_end",
        ),
        (
            montello(),
            QuoteInput {
                extended_to: Some(d("2026-06-01")),
                ..base()
            },
            "extended_to/extension_beyond_limit",
        ),
        (
            montello(),
            QuoteInput {
                extended_to: Some(d("2026-04-01")),
                ..base()
            },
            "extended_to/extension_before_due_date",
        ),
        (
            hayward(),
            QuoteInput {
                extended_to: Some(d("2026-05-15")),
                ..base()
            },
            "extended_to/extension_not_allowed",
        ),
        (
            hayward(),
            input("FY2026-06", "100.00"),
            "period/fiscal_year_not_allowed",
        ),
    ];
    for (policy, i, expected) in cases {
        assert_eq!(invalid(quote(&history(policy), &i, ZONE)), expected);
    }
}

#[test]
fn no_policy_before_the_first_version() {
    let result = quote(&history(montello()), &input("2019-Q4", "100.00"), ZONE);
    assert_eq!(
        result,
        Err(DomainError::NoPolicy {
            date: d("2019-12-31")
        })
    );
}

#[test]
fn the_version_in_force_on_the_last_day_is_used() {
    let mut raised = montello();
    raised.effective_from = d("2026-05-15");
    raised.rate.value = Decimal::new(55, 3);
    let h = PolicyHistory::new(vec![montello(), raised]).unwrap();
    let q1 = quote(&h, &input("2026-Q1", "1000.00"), ZONE).unwrap();
    let q2 = quote(&h, &input("2026-Q2", "1000.00"), ZONE).unwrap();
    assert_eq!((q1.tax, q1.policy_version), (m("45.00"), d("2020-01-01")));
    assert_eq!((q2.tax, q2.policy_version), (m("55.00"), d("2026-05-15")));
}

#[test]
fn quote_input_json_defaults_and_refusals() {
    let i: QuoteInput =
        serde_json::from_str(r#"{"period":"2026-Q1","gross_receipts":"12345.67"}"#).unwrap();
    assert_eq!(i.exempt_receipts, Money::ZERO);
    assert!(
        serde_json::from_str::<QuoteInput>(
            r#"{"period":"2026-Q1","gross_receipts":"1","extra":1}"#
        )
        .is_err()
    );
    assert!(
        serde_json::from_str::<QuoteInput>(r#"{"period":"2026-Q1","gross_receipts":12.5}"#)
            .is_err()
    );
    let q = quote(&history(montello()), &i, ZONE).unwrap();
    let json = serde_json::to_value(&q).unwrap();
    assert_eq!(json["tax"], "555.56");
    assert_eq!(json["due_date"], "2026-04-30");
    assert_eq!(json["distribution"]["commission"], "416.67");
    assert_eq!(json["lines"][0]["amount"], "555.56");
}

#[test]
fn due_calendars() {
    let items = |policy: Policy, year: i32| -> Vec<(String, DueKind, NaiveDate)> {
        due_calendar(&history(policy), year)
            .into_iter()
            .map(|i| (i.period.to_string(), i.kind, i.due_date))
            .collect()
    };
    use DueKind::{Annual, Quarterly};
    let s = |t: &str| t.to_owned();
    assert_eq!(
        items(montello(), 2026),
        vec![
            (s("2025-Q4"), Quarterly, d("2026-01-31")),
            (s("2025"), Annual, d("2026-03-31")),
            (s("2026-Q1"), Quarterly, d("2026-04-30")),
            (s("2026-Q2"), Quarterly, d("2026-07-31")),
            (s("2026-Q3"), Quarterly, d("2026-10-31")),
        ]
    );
    assert_eq!(
        items(hayward(), 2026),
        vec![
            (s("2025-Q4"), Quarterly, d("2026-01-30")),
            (s("2025"), Annual, d("2026-01-30")),
            (s("2026-Q1"), Quarterly, d("2026-04-30")),
            (s("2026-Q2"), Quarterly, d("2026-07-31")),
            (s("2026-Q3"), Quarterly, d("2026-10-30")),
        ]
    );
    assert_eq!(
        items(montello(), 2024)[1],
        (s("2023"), Annual, d("2024-03-30"))
    );
    // Montello's first version is effective 2020-01-01: nothing of 2019 is listed.
    assert_eq!(items(montello(), 2020).len(), 3);
    let calendar = due_calendar(&history(hayward()), 2026);
    assert_eq!(calendar[0].rule, "last_business_day_of_following_month");
    assert!(calendar.iter().all(|i| !i.citation.is_empty()));
    assert_eq!(
        due_date_of(&history(hayward()), &"2025-Q4".parse().unwrap()),
        Some(d("2026-01-30"))
    );
}

fn arb_period() -> impl Strategy<Value = Period> {
    prop_oneof![
        (2020i32..2060, 1u8..=4).prop_map(|(year, quarter)| Period::Quarter { year, quarter }),
        (2020i32..2060).prop_map(|year| Period::CalendarYear { year }),
        (2020i32..2060, 1u32..=11).prop_map(|(end_year, end_month)| Period::FiscalYear {
            end_year,
            end_month
        }),
    ]
}

proptest! {
    #[test]
    fn nothing_late_is_charged_when_filed_and_paid_on_the_due_date(
        period in arb_period(),
        gross in 0i64..10_000_000_000,
        previous in proptest::option::of(0i64..10_000_000),
        hayward_policy in proptest::bool::ANY,
    ) {
        let policy = if hayward_policy { hayward() } else { montello() };
        if matches!(period, Period::FiscalYear { .. }) && !policy.fiscal_year_allowed.value {
            return Ok(());
        }
        let h = history(policy);
        let due = quote(&h, &QuoteInput { period, gross_receipts: Money::from_cents(gross), exempt_receipts: Money::ZERO,
            filed_on: None, paid_on: None, extended_to: None, previous_year_tax: None }, ZONE).unwrap().due_date;
        let q = quote(&h, &QuoteInput {
            period,
            gross_receipts: Money::from_cents(gross),
            exempt_receipts: Money::ZERO,
            filed_on: Some(due),
            paid_on: Some(due),
            extended_to: None,
            previous_year_tax: previous.map(Money::from_cents),
        }, ZONE).unwrap();
        prop_assert_eq!(q.interest, Money::ZERO);
        prop_assert_eq!(q.late_filing_fee, Money::ZERO);
        prop_assert_eq!(q.late_payment_forfeiture, Money::ZERO);
        prop_assert_eq!(q.total_due, q.tax);
        prop_assert_eq!(q.distribution.commission + q.distribution.municipality, q.tax);
    }
}

#[test]
fn an_extension_moves_the_forfeiture_but_not_interest() {
    // Due 2026-04-30, extended to 2026-05-31: the forfeiture's 30 days run from the
    // extended date (in time until 2026-06-30), interest from the original due date
    // (Montello room tax, interest ¶; DESIGN §3 "Extension").
    let mut i = input("2026-Q1", "12345.67");
    i.extended_to = Some(d("2026-05-31"));
    i.filed_on = Some(d("2026-05-31"));
    i.previous_year_tax = Some(m("3000.00"));
    for (paid, forfeiture, interest) in [
        ("2026-06-30", "0.00", "11.11"), // extended due + 30: in time; 2 months interest
        ("2026-07-01", "750.00", "16.67"), // extended due + 31; 3 months interest
    ] {
        i.paid_on = Some(d(paid));
        let q = quote(&history(montello()), &i, ZONE).unwrap();
        assert_eq!(q.late_payment_forfeiture, m(forfeiture), "paid {paid}");
        assert_eq!(q.interest, m(interest), "paid {paid}");
        assert_eq!(q.late_filing_fee, Money::ZERO, "filed within the extension");
        assert_eq!(
            line(&q, "late_payment_forfeiture").inputs["due_date"],
            "2026-05-31"
        );
        assert_eq!(line(&q, "interest").inputs["due_date"], "2026-04-30");
    }
    // Without the extension the same payment on 2026-06-30 is 61 days late.
    i.extended_to = None;
    i.paid_on = Some(d("2026-06-30"));
    let q = quote(&history(montello()), &i, ZONE).unwrap();
    assert_eq!(q.late_payment_forfeiture, m("750.00"));
    assert_eq!(q.late_filing_fee, m("25.00"));
}

#[test]
fn a_late_return_without_a_payment_date_counts_as_paid_when_filed() {
    let mut i = input("2026-Q1", "12345.67");
    i.filed_on = Some(d("2026-06-15"));
    i.previous_year_tax = Some(m("3000.00"));
    let q = quote(&history(montello()), &i, ZONE).unwrap();
    assert_eq!(q.interest, m("11.11"), "2 months, as if paid 2026-06-15");
    assert_eq!(q.late_payment_forfeiture, m("750.00"), "46 days late");
    assert_eq!(q.late_filing_fee, m("25.00"));
    let interest = line(&q, "interest");
    assert_eq!(interest.inputs["paid_on"], "2026-06-15");
    assert_eq!(interest.inputs["paid_on_source"], "filed_on");
    assert!(
        interest
            .explanation
            .contains("counts as paid when the return was filed")
    );
    assert!(interest.citation.contains("accompany"));
    // Given explicitly, the payment date wins.
    i.paid_on = Some(d("2026-07-02"));
    let q = quote(&history(montello()), &i, ZONE).unwrap();
    assert_eq!(q.interest, m("16.67"));
    assert!(!line(&q, "interest").inputs.contains_key("paid_on_source"));
    // Filed on time without a payment date: paid on time, nothing late.
    let mut on_time = input("2026-Q1", "12345.67");
    on_time.filed_on = Some(d("2026-04-30"));
    let q = quote(&history(montello()), &on_time, ZONE).unwrap();
    assert_eq!(
        (q.interest, q.late_payment_forfeiture),
        (Money::ZERO, Money::ZERO)
    );
    // Hayward likewise (1 % a month, no forfeiture).
    let mut h = input("2025-Q4", "12345.67");
    h.filed_on = Some(d("2026-03-02"));
    assert_eq!(
        quote(&history(hayward()), &h, ZONE).unwrap().interest,
        m("9.88")
    );
}

#[test]
fn from_the_day_after_left_on_nothing_goes_to_the_commission() {
    let left = [Stint {
        joined_on: d("2020-01-01"),
        left_on: Some(d("2026-06-30")),
    }];
    let q2 = quote(&history(montello()), &input("2026-Q2", "1000.00"), &left).unwrap();
    assert_eq!(
        q2.distribution.commission,
        m("33.75"),
        "Q2 ends on left_on: still a member"
    );
    let q3 = quote(&history(montello()), &input("2026-Q3", "1000.00"), &left).unwrap();
    assert_eq!(q3.distribution.commission, Money::ZERO);
    assert_eq!(q3.distribution.municipality, m("45.00"));
    let line = line(&q3, "commission_share");
    assert!(
        line.citation
            .contains("not a member of a tourism zone on 2026-09-30")
    );
}

#[test]
fn an_annual_quote_owes_only_what_reconciliation_would() {
    // Issue 8 item 10. Montello calendar 2025, receipts 100000.00: the year's tax
    // 4.5 % × 100000.00 = 4500.00 was owed on the quarterly returns, so the annual
    // return owes nothing but, filed after 2026-03-31, the $25 late filing fee.
    let mut i = input("2025", "100000.00");
    i.filed_on = Some(d("2026-04-01"));
    i.paid_on = Some(d("2026-06-15"));
    i.previous_year_tax = Some(m("4000.00"));
    let q = quote(&history(montello()), &i, ZONE).unwrap();
    assert_eq!(q.tax, Money::ZERO);
    assert_eq!(
        (q.interest, q.late_payment_forfeiture, q.collection_fee),
        (Money::ZERO, Money::ZERO, Money::ZERO)
    );
    assert_eq!(q.late_filing_fee, m("25.00"));
    assert_eq!(q.total_due, m("25.00"));
    assert_eq!(
        q.distribution.commission + q.distribution.municipality,
        Money::ZERO
    );
    let codes: Vec<&str> = q.lines.iter().map(|l| l.code.as_ref()).collect();
    assert_eq!(
        codes,
        [
            "annual_summary",
            "reconciliation",
            "late_filing_fee",
            "total_due"
        ]
    );
    let summary = line(&q, "annual_summary");
    assert_eq!(summary.amount, m("4500.00"));
    assert!(summary.explanation.contains("not owed again"));
    assert_eq!(line(&q, "reconciliation").amount, Money::ZERO);
    // On time: nothing at all. Hayward likewise (due with the Q4 return, 2026-01-30).
    i.filed_on = Some(d("2026-03-31"));
    assert_eq!(
        quote(&history(montello()), &i, ZONE).unwrap().total_due,
        Money::ZERO
    );
    let mut h = input("2025", "100000.00");
    h.filed_on = Some(d("2026-01-30"));
    let q = quote(&history(hayward()), &h, ZONE).unwrap();
    assert_eq!((q.tax, q.total_due), (Money::ZERO, Money::ZERO));
    assert_eq!(line(&q, "annual_summary").amount, m("4000.00")); // 4 % × 100000.00
}

#[test]
fn every_date_line_of_an_annual_quote_cites_the_annual_return_paragraph() {
    // Issue 8 item 10: the filing due date line used to cite the quarterly paragraph.
    for (policy, period) in [
        (montello(), "2025"),
        (montello(), "FY2026-06"),
        (hayward(), "2025"),
    ] {
        let q = quote(&history(policy.clone()), &input(period, "1000.00"), ZONE).unwrap();
        let codes: Vec<&str> = q.dates.iter().map(|l| l.code.as_ref()).collect();
        assert_eq!(codes, ["annual_due_date", "filing_due_date"], "{period}");
        for date in &q.dates {
            assert_eq!(
                date.citation, policy.annual_return.citation,
                "{period} {}",
                date.code
            );
        }
    }
}

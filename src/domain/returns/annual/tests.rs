//! Quarters of a year, elections, and hand-computed reconciliations.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::domain::compute::test_values::{d, history, m, p};
use crate::domain::presets::{hayward, montello};
use crate::domain::registry::FiscalYearEnd;
use crate::domain::returns::assess::{Timing, assess};
use crate::domain::returns::filing::ReturnFiling;
use crate::domain::zone_membership::Stint;

fn fiscal(month: i64) -> Election {
    Election::Fiscal {
        year_end: FiscalYearEnd::parse("fiscal_year_end_month", month).unwrap(),
    }
}

fn texts(quarters: [Period; 4]) -> Vec<String> {
    quarters.iter().map(ToString::to_string).collect()
}

#[test]
fn the_quarters_a_year_covers() {
    let cases = [
        ("2025", ["2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"]),
        ("FY2026-06", ["2025-Q3", "2025-Q4", "2026-Q1", "2026-Q2"]),
        ("FY2026-03", ["2025-Q2", "2025-Q3", "2025-Q4", "2026-Q1"]),
        // Fiscal years closing mid-quarter: each quarter goes to the year it ends in.
        ("FY2026-01", ["2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"]), // 2025-02-01..2026-01-31
        ("FY2026-05", ["2025-Q2", "2025-Q3", "2025-Q4", "2026-Q1"]), // 2025-06-01..2026-05-31
        ("FY2026-11", ["2025-Q4", "2026-Q1", "2026-Q2", "2026-Q3"]), // 2025-12-01..2026-11-30
        ("FY2024-02", ["2023-Q1", "2023-Q2", "2023-Q3", "2023-Q4"]), // to 2024-02-29
    ];
    for (year, quarters) in cases {
        assert_eq!(texts(quarters_of(&p(year)).unwrap()), quarters, "{year}");
    }
    assert_eq!(quarters_of(&p("2026-Q1")), None);
}

proptest! {
    #[test]
    fn consecutive_fiscal_years_cover_every_quarter_once_and_fall_due_after_them(
        end_year in 1995i32..2150,
        end_month in 1u32..=12,
    ) {
        let year = |y: i32| if end_month == 12 {
            Period::CalendarYear { year: y }
        } else {
            Period::FiscalYear { end_year: y, end_month }
        };
        let this = quarters_of(&year(end_year)).unwrap();
        let next = quarters_of(&year(end_year + 1)).unwrap();
        for q in this {
            prop_assert!(year(end_year).contains(q.last_day()));
        }
        for pair in this.windows(2).chain(next.windows(2)) {
            prop_assert_eq!(pair[0].last_day().succ_opt().unwrap(), pair[1].first_day());
        }
        // Contiguous from one year to the next: no quarter left out or taken twice.
        prop_assert_eq!(this[3].last_day().succ_opt().unwrap(), next[0].first_day());
        let policy = montello();
        let annual_due = return_due_date(&policy, &year(end_year)).unwrap().date;
        for q in this {
            prop_assert!(return_due_date(&policy, &q).unwrap().date < annual_due);
        }
    }
}

#[test]
fn where_no_fiscal_year_is_allowed_every_payor_files_calendar_years() {
    // A fiscal election stored before Hayward's policy was recorded still files "2025".
    assert!(check_annual_period(&p("2025"), fiscal(6), &hayward()).is_ok());
    assert!(check_annual_period(&p("2026-Q1"), fiscal(6), &hayward()).is_ok());
    assert!(check_annual_period(&p("FY2026-06"), fiscal(6), &montello()).is_ok());
    let refused = check_annual_period(&p("FY2026-06"), fiscal(6), &hayward());
    assert!(
        matches!(refused, Err(DomainError::Invalid { ref rule, ref message, .. })
        if rule == "fiscal_year_not_allowed" && message.contains("returns ¶B"))
    );
}

const ZONE: &[Stint] = &[];

fn annual_filing(
    policy: &Policy,
    election: Election,
    period: &str,
    quarters: &[(&str, &str, &str)],
) -> Filing {
    let gross: Money = quarters.iter().map(|q| m(q.1)).sum();
    let exempt: Money = quarters.iter().map(|q| m(q.2)).sum();
    let list: Vec<Value> = quarters
        .iter()
        .map(|(q, g, e)| json!({"period": q, "gross_receipts": g, "exempt_receipts": e}))
        .collect();
    let exemptions: Vec<Value> = if exempt.is_zero() {
        vec![]
    } else {
        vec![json!({"code": "federal_government", "amount": exempt.to_string()})]
    };
    let body: ReturnFiling = serde_json::from_value(json!({
        "period": period, "gross_receipts": gross.to_string(), "exemptions": exemptions,
        "quarters": list, "signer": {"name": "Ada Lake", "title": "Owner"}, "attested": true
    }))
    .unwrap();
    body.parse(policy, election).unwrap()
}

fn on_file(period: &str, gross: &str, exempt: &str, tax: &str) -> QuarterOnFile {
    QuarterOnFile {
        period: p(period),
        gross_receipts: m(gross),
        exempt_receipts: m(exempt),
        tax: m(tax),
        collection_fee: Money::ZERO,
        filed_late: false,
    }
}

fn row<'a>(r: &'a Reconciliation, period: &str) -> &'a QuarterReconciliation {
    r.quarters.iter().find(|q| q.period == p(period)).unwrap()
}

#[test]
fn montello_calendar_year_reconciliation() {
    // On file: Q1 10000.00 → 450.00; Q2 20000.00 → 900.00; Q3 30000.00 → 1350.00;
    // Q4 15000.00 → 675.00. The annual return (filed and paid 2026-03-20, due 2026-03-31)
    // states Q1 10000.00 (agrees); Q2 22000.00 → 990.00 (+90.00); Q3 29000.00 → 1305.00
    // (−45.00); Q4 15000.00 with 500.00 exempt → 4.5 % × 14500.00 = 652.50 (−22.50).
    // Q2 was due 2025-07-31: months (2026·12 + 3) − (2025·12 + 7) = 8; 90.00 × 1 % × 8 = 7.20.
    // Owed 90.00 + 7.20 = 97.20 (no fee: on time); credits 45.00 + 22.50 = 67.50.
    let policy = montello();
    let h = history(policy.clone());
    let filing = annual_filing(
        &policy,
        Election::Calendar,
        "2025",
        &[
            ("2025-Q1", "10000.00", "0"),
            ("2025-Q2", "22000.00", "0"),
            ("2025-Q3", "29000.00", "0"),
            ("2025-Q4", "15000.00", "500.00"),
        ],
    );
    let annual = assess(&h, &filing, &Timing::filed(d("2026-03-20")), None, ZONE).unwrap();
    let files = [
        on_file("2025-Q1", "10000.00", "0", "450.00"),
        on_file("2025-Q2", "20000.00", "0", "900.00"),
        on_file("2025-Q3", "30000.00", "0", "1350.00"),
        on_file("2025-Q4", "15000.00", "0", "675.00"),
    ];
    let r = reconcile(&h, &filing, &annual, &files).unwrap();
    assert_eq!(row(&r, "2025-Q1").status, QuarterStatus::Agrees);
    assert_eq!(row(&r, "2025-Q1").adjustment, None);
    let q2 = row(&r, "2025-Q2");
    assert_eq!(q2.status, QuarterStatus::Adjusted);
    assert_eq!(q2.gross_receipts_difference, m("2000.00"));
    let adj = q2.adjustment.as_ref().unwrap();
    assert_eq!(
        (adj.tax_difference, adj.due_date),
        (m("90.00"), d("2025-07-31"))
    );
    assert_eq!((adj.interest, adj.amount_due), (m("7.20"), m("97.20")));
    let q4 = row(&r, "2025-Q4");
    assert_eq!(
        (
            q4.gross_receipts_difference,
            q4.exempt_receipts_difference,
            q4.taxable_receipts_difference
        ),
        (Money::ZERO, m("500.00"), m("-500.00"))
    );
    assert_eq!(q4.adjustment.as_ref().unwrap().credit, m("22.50"));
    assert_eq!(
        (r.additional_tax, r.interest, r.credit),
        (m("90.00"), m("7.20"), m("67.50"))
    );
    assert_eq!(r.amount_due, m("97.20"));
    assert!(
        r.lines
            .iter()
            .any(|l| l.code == "amount_due" && l.explanation.contains("not owed again"))
    );

    // Once the adjustments are recorded as the quarters' latest versions, reconciling
    // again owes nothing more.
    let files = [
        on_file("2025-Q1", "10000.00", "0", "450.00"),
        on_file("2025-Q2", "22000.00", "0", "990.00"),
        on_file("2025-Q3", "29000.00", "0", "1305.00"),
        on_file("2025-Q4", "15000.00", "500.00", "652.50"),
    ];
    let again = reconcile(&h, &filing, &annual, &files).unwrap();
    assert!(
        again
            .quarters
            .iter()
            .all(|q| q.status == QuarterStatus::Agrees)
    );
    assert_eq!(again.amount_due, Money::ZERO);
}

#[test]
fn montello_fiscal_year_reconciliation_with_a_missing_quarter() {
    // FY2026-06 (elected June), due 2026-06-30 + 90 days = 2026-09-28; filed and paid
    // 2026-09-30: late filing fee 25.00. 2025-Q4 on file 2000.00 → 90.00, stated
    // 2500.00 → 112.50: +22.50, due 2026-01-31: months (2026·12 + 9) − (2026·12 + 1) = 8,
    // 22.50 × 1 % × 8 = 1.80. 2026-Q2 has no return on file: missing, nothing adjusted.
    // Owed 22.50 + 1.80 + 25.00 = 49.30.
    let policy = montello();
    let h = history(policy.clone());
    let filing = annual_filing(
        &policy,
        fiscal(6),
        "FY2026-06",
        &[
            ("2025-Q3", "1000.00", "0"),
            ("2025-Q4", "2500.00", "0"),
            ("2026-Q1", "3000.00", "0"),
            ("2026-Q2", "4000.00", "0"),
        ],
    );
    let annual = assess(&h, &filing, &Timing::filed(d("2026-09-30")), None, ZONE).unwrap();
    assert_eq!(
        (annual.due_date, annual.late_filing_fee),
        (d("2026-09-28"), m("25.00"))
    );
    let files = [
        on_file("2025-Q3", "1000.00", "0", "45.00"),
        on_file("2025-Q4", "2000.00", "0", "90.00"),
        on_file("2026-Q1", "3000.00", "0", "135.00"),
        on_file("2024-Q4", "9.00", "0", "0.41"), // another year's: ignored
    ];
    let r = reconcile(&h, &filing, &annual, &files).unwrap();
    let adj = row(&r, "2025-Q4").adjustment.as_ref().unwrap();
    assert_eq!((adj.additional_tax, adj.interest), (m("22.50"), m("1.80")));
    let q2 = row(&r, "2026-Q2");
    assert_eq!(
        (q2.status, q2.filed_tax, q2.stated_tax),
        (QuarterStatus::Missing, None, m("180.00"))
    );
    assert!(q2.adjustment.is_none());
    assert_eq!(r.amount_due, m("49.30"));
    assert!(
        r.lines
            .iter()
            .any(|l| l.code == "missing_quarters" && l.explanation.contains("2026-Q2"))
    );
}

#[test]
fn hayward_calendar_year_filed_with_the_fourth_quarter() {
    // Due with 2025-Q4: 2026-01-30. Q1 on file 4000.00 → 160.00, stated 5000.00 → 200.00:
    // +40.00 from Q1's due date 2025-04-30: months (2026·12 + 1) − (2025·12 + 4) = 9,
    // 40.00 × 1 % × 9 = 3.60. Owed 43.60.
    let policy = hayward();
    let h = history(policy.clone());
    let filing = annual_filing(
        &policy,
        Election::Calendar,
        "2025",
        &[
            ("2025-Q1", "5000.00", "0"),
            ("2025-Q2", "0", "0"),
            ("2025-Q3", "0", "0"),
            ("2025-Q4", "0", "0"),
        ],
    );
    let annual = assess(&h, &filing, &Timing::filed(d("2026-01-30")), None, ZONE).unwrap();
    assert_eq!(
        (annual.due_date, annual.amount_due),
        (d("2026-01-30"), Money::ZERO)
    );
    let files = [
        on_file("2025-Q1", "4000.00", "0", "160.00"),
        on_file("2025-Q2", "0", "0", "0"),
        on_file("2025-Q3", "0", "0", "0"),
        on_file("2025-Q4", "0", "0", "0"),
    ];
    let r = reconcile(&h, &filing, &annual, &files).unwrap();
    let adj = row(&r, "2025-Q1").adjustment.as_ref().unwrap();
    assert_eq!((adj.due_date, adj.interest), (d("2025-04-30"), m("3.60")));
    assert_eq!(r.amount_due, m("43.60"));
}

#[test]
fn a_quarter_cannot_be_reconciled() {
    let policy = montello();
    let h = history(policy.clone());
    let quarter = crate::domain::returns::assess::tests::filing(&policy, "2026-Q1", "1.00", "0");
    let a = assess(&h, &quarter, &Timing::filed(d("2026-04-01")), None, ZONE).unwrap();
    assert!(reconcile(&h, &quarter, &a, &[]).is_err());
}

proptest! {
    #[test]
    fn the_annual_return_never_owes_the_years_tax_again(
        stated in proptest::collection::vec(0i64..10_000_000, 4),
        filed in proptest::collection::vec(0i64..10_000_000, 4),
        days_late in 0u64..100,
    ) {
        let policy = montello();
        let h = history(policy.clone());
        let names = ["2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"];
        let amounts: Vec<String> = stated.iter().map(|c| Money::from_cents(*c).to_string()).collect();
        let rows: Vec<(&str, &str, &str)> = names.iter().zip(&amounts).map(|(q, g)| (*q, g.as_str(), "0")).collect();
        let filing = annual_filing(&policy, Election::Calendar, "2025", &rows);
        let filed_on = d("2026-03-31") + chrono::Days::new(days_late);
        let annual = assess(&h, &filing, &Timing::filed(filed_on), None, ZONE).unwrap();
        let tax_of = |cents: i64| crate::domain::compute::tax(&policy, Money::from_cents(cents), Money::ZERO).unwrap().amount;
        let files_of = |cents: &[i64]| -> Vec<QuarterOnFile> {
            names.iter().zip(cents).map(|(q, c)| QuarterOnFile {
                period: p(q), gross_receipts: Money::from_cents(*c), exempt_receipts: Money::ZERO,
                tax: tax_of(*c), collection_fee: Money::ZERO, filed_late: false,
            }).collect()
        };
        let r = reconcile(&h, &filing, &annual, &files_of(&filed)).unwrap();
        let net: Money = stated.iter().zip(&filed).map(|(s, f)| tax_of(*s) - tax_of(*f)).sum();
        prop_assert_eq!(r.additional_tax - r.credit, net);
        prop_assert_eq!(r.amount_due, r.additional_tax + r.interest + annual.amount_due);
        prop_assert!(annual.amount_due <= policy.late_filing_fee.value);
        // Quarters that agree owe nothing at all.
        let same = reconcile(&h, &filing, &annual, &files_of(&stated)).unwrap();
        prop_assert_eq!(same.amount_due, annual.amount_due);
    }
}

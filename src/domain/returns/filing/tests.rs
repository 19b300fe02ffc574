//! Filings parsed against Montello's and Hayward's policies.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;
use crate::domain::presets::{hayward, montello};
use crate::domain::registry::FiscalYearEnd;
use crate::domain::registry::faults::testing::{pairs, refused};

fn body(value: Value) -> ReturnFiling {
    serde_json::from_value(value).unwrap()
}

fn signer() -> Value {
    json!({"name": " Ada Lake ", "title": "Owner"})
}

fn june() -> Election {
    Election::Fiscal {
        year_end: FiscalYearEnd::parse("fiscal_year_end_month", 6).unwrap(),
    }
}

#[test]
fn a_montello_quarterly_return_parses() {
    // Exempt receipts 500.00 + 250.00 = 750.00; establishments 7000.00 + 3000.00 =
    // 10000.00, the gross.
    let filing = body(json!({
        "period": "2026-Q1",
        "gross_receipts": "10000.00",
        "exemptions": [
            {"code": "federal_government", "amount": "500.00"},
            {"code": "stay_over_30_days", "amount": "250.00"}
        ],
        "establishments": [
            {"establishment_id": " 11 ", "gross_receipts": "7000.00"},
            {"establishment_id": "12", "gross_receipts": "3000.00"}
        ],
        "nights_sold": 120,
        "signer": signer(),
        "attested": true
    }))
    .parse(&montello(), Election::Calendar)
    .unwrap();
    assert_eq!(filing.exempt_receipts(), Money::from_cents(75_000));
    assert_eq!(filing.gross_receipts(), Money::from_cents(1_000_000));
    assert_eq!(filing.signer_name(), "Ada Lake");
    assert_eq!(filing.signer_title(), "Owner");
    assert_eq!(filing.nights_sold(), Some(120));
    assert_eq!(filing.establishments().unwrap()[0].establishment_id, "11");
    assert!(filing.quarters().is_empty());
    assert_eq!(filing.exemptions().len(), 2);
}

#[test]
fn a_zero_return_is_a_return() {
    let filing = body(json!({
        "period": "2026-Q2", "gross_receipts": "0.00", "signer": signer(), "attested": true
    }))
    .parse(&hayward(), Election::Calendar)
    .unwrap();
    assert_eq!(filing.gross_receipts(), Money::ZERO);
    assert_eq!(filing.exempt_receipts(), Money::ZERO);
}

#[test]
fn every_fault_is_reported_at_once() {
    // Exempt 900.00 + 200.00 = 1100.00 > gross 1000.00; establishments 600.00 + 300.00
    // = 900.00 ≠ 1000.00.
    let result = body(json!({
        "period": "2026-Q1",
        "gross_receipts": "1000.00",
        "exemptions": [
            {"code": "federal_government", "amount": "900.00"},
            {"code": "stay_one_month_or_more", "amount": "200.00"},
            {"code": "federal_government", "amount": "-1.00"}
        ],
        "establishments": [
            {"establishment_id": "7", "gross_receipts": "600.00"},
            {"establishment_id": "7", "gross_receipts": "300.00"},
            {"establishment_id": "\u{200B}", "gross_receipts": "0.00"}
        ],
        "nights_sold": -3,
        "signer": {"name": "  ", "title": "Own\u{7}er"},
        "attested": false
    }))
    .parse(&montello(), Election::Calendar);
    assert_eq!(
        refused(result),
        pairs(&[
            ("exemptions[1].code", "unknown_exemption"), // a Hayward code
            ("exemptions[2].code", "duplicate_exemption"),
            ("exemptions[2].amount", "not_negative"),
            ("exemptions", "exempt_not_above_gross"), // 900 + 200 − 1 = 1099.00 > 1000.00
            (
                "establishments[1].establishment_id",
                "duplicate_establishment"
            ),
            ("establishments[2].establishment_id", "non_empty"),
            ("establishments", "establishments_sum"),
            ("nights_sold", "not_negative"),
            ("signer.name", "non_empty"),
            ("signer.title", "no_control_characters"),
            ("attested", "attestation_required"),
        ])
    );
}

#[test]
fn the_attestation_cites_the_signature_requirement() {
    let result = body(json!({
        "period": "2026-Q1", "gross_receipts": "1.00", "signer": signer(), "attested": false
    }))
    .parse(&hayward(), Election::Calendar);
    match result {
        Err(Invalid(errors)) => match &errors[0] {
            DomainError::Invalid { message, .. } => {
                assert!(message.contains("returns ¶B"), "{message}");
                assert!(message.contains("administration ¶"), "{message}");
            }
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn unknown_fields_and_numbers_for_money_are_refused() {
    let extra = json!({"period": "2026-Q1", "gross_receipts": "1.00", "signer": signer(),
        "attested": true, "exempt_receipts": "0.00"});
    assert!(serde_json::from_value::<ReturnFiling>(extra).is_err());
    let number =
        json!({"period": "2026-Q1", "gross_receipts": 1.0, "signer": signer(), "attested": true});
    assert!(serde_json::from_value::<ReturnFiling>(number).is_err());
    let signer_extra = json!({"period": "2026-Q1", "gross_receipts": "1.00",
        "signer": {"name": "A", "title": "B", "email": "x"}, "attested": true});
    assert!(serde_json::from_value::<ReturnFiling>(signer_extra).is_err());
}

fn quarter(period: &str, gross: &str, exempt: &str) -> Value {
    json!({"period": period, "gross_receipts": gross, "exempt_receipts": exempt})
}

#[test]
fn an_annual_return_states_its_receipts_by_quarter() {
    // FY2026-06 covers 2025-Q3..2026-Q2: gross 1000 + 2000 + 3000 + 4000 = 10000.00,
    // exempt 0 + 100 + 0 + 0 = 100.00 = the exemptions' sum.
    let filing = body(json!({
        "period": "FY2026-06",
        "gross_receipts": "10000.00",
        "exemptions": [{"code": "wis_stat_77_54_9a", "amount": "100.00"}],
        "quarters": [
            quarter("2026-Q2", "4000.00", "0"),
            quarter("2025-Q3", "1000.00", "0"),
            quarter("2025-Q4", "2000.00", "100.00"),
            quarter("2026-Q1", "3000.00", "0"),
        ],
        "signer": signer(), "attested": true
    }))
    .parse(&montello(), june())
    .unwrap();
    let periods: Vec<String> = filing
        .quarters()
        .iter()
        .map(|q| q.period.to_string())
        .collect();
    assert_eq!(
        periods,
        ["2025-Q3", "2025-Q4", "2026-Q1", "2026-Q2"],
        "sorted"
    );
}

#[test]
fn annual_quarter_faults() {
    let result = body(json!({
        "period": "2025",
        "gross_receipts": "100.00",
        "quarters": [
            quarter("2025-Q1", "50.00", "60.00"),
            quarter("2025-Q1", "10.00", "0"),
            quarter("2026-Q1", "10.00", "0"),
        ],
        "signer": signer(), "attested": true
    }))
    .parse(&montello(), Election::Calendar);
    assert_eq!(
        refused(result),
        pairs(&[
            ("quarters[0].exempt_receipts", "exempt_not_above_gross"),
            ("quarters[1].period", "duplicate_quarter"),
            ("quarters[2].period", "not_in_year"),
            ("quarters", "missing_quarter"),     // Q2, Q3, Q4
            ("quarters", "quarters_sum"),        // 50 + 10 + 10 = 70.00 ≠ 100.00
            ("quarters", "quarters_exempt_sum"), // 60.00 ≠ 0.00
        ])
    );
    let required = body(
        json!({"period": "2025", "gross_receipts": "0", "signer": signer(), "attested": true}),
    )
    .parse(&montello(), Election::Calendar);
    assert_eq!(
        refused(required),
        pairs(&[("quarters", "required_for_annual")])
    );
    let quarterly = body(
        json!({"period": "2025-Q4", "gross_receipts": "0", "quarters": [],
        "signer": signer(), "attested": true}),
    )
    .parse(&montello(), Election::Calendar);
    assert_eq!(
        refused(quarterly),
        pairs(&[("quarters", "only_for_annual")])
    );
}

#[test]
fn an_annual_period_the_election_does_not_allow_is_refused() {
    let year = |period: &str| {
        let quarters: Vec<Value> = quarters_of(&period.parse().unwrap())
            .unwrap()
            .iter()
            .map(|q| quarter(&q.to_string(), "0", "0"))
            .collect();
        body(
            json!({"period": period, "gross_receipts": "0", "quarters": quarters,
            "signer": signer(), "attested": true}),
        )
    };
    assert_eq!(
        refused(year("FY2026-06").parse(&montello(), Election::Calendar)),
        pairs(&[("period", "not_the_elected_year")])
    );
    assert_eq!(
        refused(year("2025").parse(&montello(), june())),
        pairs(&[("period", "not_the_elected_year")])
    );
    assert_eq!(
        refused(year("FY2026-05").parse(&montello(), june())),
        pairs(&[("period", "not_the_elected_year")])
    );
    assert_eq!(
        refused(year("FY2026-06").parse(&hayward(), Election::Calendar)),
        pairs(&[("period", "fiscal_year_not_allowed")])
    );
    assert!(year("2025").parse(&hayward(), Election::Calendar).is_ok());
    assert!(year("FY2026-06").parse(&montello(), june()).is_ok());
}

proptest! {
    #[test]
    fn a_parsed_filing_keeps_its_sums(
        amounts in proptest::collection::vec(0i64..1_000_000, 0..3),
        split in proptest::collection::vec(0i64..1_000_000, 1..4),
        extra in 0i64..1_000_000,
    ) {
        // Gross = the establishments' sum; the exemptions use distinct codes.
        let gross: i64 = split.iter().sum::<i64>() + extra;
        let mut establishments: Vec<Value> = split
            .iter()
            .enumerate()
            .map(|(i, c)| json!({"establishment_id": i.to_string(), "gross_receipts": Money::from_cents(*c).to_string()}))
            .collect();
        establishments.push(json!({"establishment_id": "extra", "gross_receipts": Money::from_cents(extra).to_string()}));
        let codes = ["federal_government", "wis_stat_77_54_9a", "stay_over_30_days"];
        let exemptions: Vec<Value> = amounts
            .iter()
            .zip(codes)
            .map(|(c, code)| json!({"code": code, "amount": Money::from_cents(*c).to_string()}))
            .collect();
        let result = body(json!({
            "period": "2026-Q1", "gross_receipts": Money::from_cents(gross).to_string(),
            "exemptions": exemptions, "establishments": establishments,
            "signer": signer(), "attested": true
        }))
        .parse(&montello(), Election::Calendar);
        let exempt: i64 = amounts.iter().sum();
        match result {
            Ok(filing) => {
                prop_assert!(exempt <= gross);
                prop_assert_eq!(filing.exempt_receipts(), Money::from_cents(exempt));
                let sum: Money = filing.establishments().unwrap().iter().map(|e| e.gross_receipts).sum();
                prop_assert_eq!(sum, filing.gross_receipts());
            }
            Err(_) => prop_assert!(exempt > gross),
        }
    }
}

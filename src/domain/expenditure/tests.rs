use chrono::NaiveDate;
use proptest::prelude::*;

use super::*;

fn d(y: i32, m: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, day).unwrap()
}

fn money(s: &str) -> Money {
    Money::parse(s).unwrap()
}

fn item(amount: &str, category: Category) -> Item {
    Item {
        date: d(2026, 3, 1),
        payee: " Printer Co ".into(),
        amount: money(amount),
        category,
        description: "Brochures".into(),
        explanation: None,
        lodging_facility: false,
        impact: vec![],
    }
}

fn sum(amount: &str, count: i64) -> Sum {
    Sum {
        category: Category::MarketingProjects,
        amount: money(amount),
        count,
        description: "Small ads".into(),
        explanation: None,
        lodging_facility: false,
    }
}

fn draft(items: Vec<Item>, summed: Vec<Sum>) -> ReportDraft {
    ReportDraft {
        period_start: d(2026, 1, 1),
        period_end: d(2026, 12, 31),
        received_declared: money("10000.00"),
        items,
        summed,
    }
}

fn rules(r: Result<Report, Refusal>) -> Vec<(String, String)> {
    match r {
        Err(Refusal::Invalid(v)) => v
            .into_iter()
            .map(|e| match e {
                DomainError::Invalid { field, rule, .. } => (field, rule),
                other => panic!("{other:?}"),
            })
            .collect(),
        other => panic!("expected faults, got {other:?}"),
    }
}

#[test]
fn a_year_is_the_longest_period() {
    assert!(judge(draft(vec![], vec![])).is_ok());
    let mut longer = draft(vec![], vec![]);
    longer.period_end = d(2027, 1, 1);
    assert_eq!(
        rules(judge(longer)),
        vec![("period_end".into(), "at_most_one_year".into())]
    );
    let mut reversed = draft(vec![], vec![]);
    reversed.period_end = d(2025, 12, 31);
    assert_eq!(
        rules(judge(reversed))[0].1,
        "period_end_not_before_start".to_owned()
    );
}

#[test]
fn spent_and_carried_over_add_up() {
    let report = judge(draft(
        vec![
            item("4500.00", Category::MarketingProjects),
            item("1000.00", Category::TouristInformationServices),
        ],
        vec![sum("999.99", 3)],
    ))
    .unwrap();
    assert_eq!(report.spent(), money("6499.99"));
    assert_eq!(report.get().items[0].payee, "Printer Co", "trimmed");
    let t = Totals::of(money("6000.00"), report.spent());
    assert_eq!(t.carried_over, money("-499.99"));
    assert!(t.is_deficit());
    assert!(report.get().items[1].listed_individually_for_sl304());
    assert!(!item("999.99", Category::Other).listed_individually_for_sl304());
}

#[test]
fn a_summed_line_cannot_hide_a_large_item() {
    assert_eq!(
        rules(judge(draft(vec![], vec![sum("1000.00", 1)]))),
        vec![("summed[0].amount".into(), "summed_items_under_1000".into())]
    );
    assert!(judge(draft(vec![], vec![sum("999.99", 1)])).is_ok());
    assert!(judge(draft(vec![], vec![sum("1999.99", 2)])).is_ok());
    assert_eq!(
        rules(judge(draft(vec![], vec![sum("2000.00", 2)])))[0].1,
        "summed_items_under_1000"
    );
    assert_eq!(
        rules(judge(draft(vec![], vec![sum("10.00", 0)])))[0].1,
        "at_least_one"
    );
}

#[test]
fn other_needs_an_explanation_and_lodging_is_refused() {
    assert_eq!(
        rules(judge(draft(vec![item("50.00", Category::Other)], vec![]))),
        vec![(
            "items[0].explanation".into(),
            "explanation_required_for_other".into()
        )]
    );
    let mut flagged = item("50000.00", Category::TangibleMunicipalDevelopment);
    flagged.lodging_facility = true;
    assert_eq!(
        judge(draft(
            vec![item("10.00", Category::Administration), flagged],
            vec![]
        )),
        Err(Refusal::LodgingFacility(vec![
            "items[1].constructs_or_develops_lodging_facility".into()
        ]))
    );
    assert_eq!(
        judge(draft(
            vec![item("10.00", Category::LodgingFacilityConstruction)],
            vec![]
        )),
        Err(Refusal::LodgingFacility(vec!["items[0].category".into()]))
    );
}

#[test]
fn hostile_text_and_dates_outside_are_refused() {
    let mut bad = item("10.00", Category::Administration);
    bad.payee = "a\u{0}b".into();
    bad.description = "\u{200B}".into();
    bad.date = d(2027, 1, 1);
    let found = rules(judge(draft(vec![bad], vec![])));
    assert!(found.contains(&("items[0].payee".into(), "no_control_characters".into())));
    assert!(found.contains(&("items[0].description".into(), "non_empty".into())));
    assert!(found.contains(&("items[0].date".into(), "within_period".into())));
}

proptest! {
    /// A summed line is accepted exactly when its amount is under $1,000 × count,
    /// so it can be the sum of `count` expenditures each under $1,000.
    #[test]
    fn summed_bound(cents in 1i64..10_000_000, count in 1i64..20) {
        let s = Sum { amount: Money::from_cents(cents), ..sum("1.00", count) };
        let ok = judge(draft(vec![], vec![s])).is_ok();
        prop_assert_eq!(ok, cents < 100_000 * count);
    }

    /// Carried over is received − spent, to the cent.
    #[test]
    fn carried_over_is_the_difference(received in 0i64..1_000_000_000, spent in 0i64..1_000_000_000) {
        let t = Totals::of(Money::from_cents(received), Money::from_cents(spent));
        prop_assert_eq!(t.carried_over.cents(), received - spent);
        prop_assert_eq!(t.is_deficit(), spent > received);
    }
}

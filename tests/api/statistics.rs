//! Public statistics (issue 10, item 8): no token needed, a cell resting on
//! two payors withheld with its complements, and no subtraction of shown
//! figures from a total recovers a withheld one; the municipality's view;
//! hostile queries answer a problem. Both backends.
//!
//! Hand figures (2026, on 2026-10-15 Q1-Q3 have ended), entered totals:
//!
//! | member    | Q1               | Q2               | Q3               | year     |
//! |-----------|------------------|------------------|------------------|----------|
//! | endeavor  | 1,200.00 (3 pay) | 1,100.00 (7 pay) | 1,300.00 (3 pay) | 3,600.00 |
//! | oxford    |   800.00 (4 pay) |   300.00 (2 pay) |   900.00 (5 pay) | 2,000.00 |
//! | westfield | 1,000.00 (5 pay) | 2,000.00 (6 pay) | 1,500.00 (4 pay) | 4,500.00 |
//!
//! Montello (a member in the demo) submits nothing: its cells are shown as
//! zero (`not_submitted`). Quarter totals 3,000.00, 3,400.00, 3,700.00;
//! grand total 10,100.00. Oxford Q2 rests on two payors: withheld (rule 1);
//! its row's smallest other (fewest payors), Q1 (4), is withheld; column Q2
//! then needs another: westfield Q2 (6 payors, fewer than endeavor's 7);
//! column Q1 needs a second: endeavor Q1 (3); rows westfield and endeavor
//! then each need a second: westfield Q3 (4 payors) and endeavor Q3 (3).
//! Every column has exactly two withheld cells, every member row two.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::{
    helpers::{TestApp, check::assert_problem, spawn_demo_app_at},
    remittances::{entered_member, json_of, submit},
};

const AT: &str = "2026-10-15T15:00:00Z";

/// (member, quarter) → (tax, payors).
fn figures() -> BTreeMap<(&'static str, &'static str), (&'static str, i64)> {
    BTreeMap::from([
        (("endeavor", "2026-Q1"), ("1200.00", 3)),
        (("endeavor", "2026-Q2"), ("1100.00", 7)),
        (("endeavor", "2026-Q3"), ("1300.00", 3)),
        (("oxford", "2026-Q1"), ("800.00", 4)),
        (("oxford", "2026-Q2"), ("300.00", 2)),
        (("oxford", "2026-Q3"), ("900.00", 5)),
        (("westfield", "2026-Q1"), ("1000.00", 5)),
        (("westfield", "2026-Q2"), ("2000.00", 6)),
        (("westfield", "2026-Q3"), ("1500.00", 4)),
    ])
}

fn cents(v: &Value) -> i64 {
    let text = v.as_str().unwrap_or_else(|| panic!("not an amount: {v}"));
    let (whole, frac) = text.split_once('.').unwrap();
    whole.parse::<i64>().unwrap() * 100 + frac.parse::<i64>().unwrap()
}

async fn zone_with_three_members() -> TestApp {
    let app = spawn_demo_app_at(AT).await;
    let mut tokens = BTreeMap::new();
    for slug in ["endeavor", "oxford", "westfield"] {
        tokens.insert(slug, entered_member(&app, slug).await);
    }
    for ((slug, period), (tax, payors)) in figures() {
        let body = json!({
            "period": period,
            "gross_receipts": "100000.00",
            "tax_collected": tax,
            "payor_count": payors,
        });
        json_of(submit(&app, &tokens[slug], slug, body).await, 201).await;
    }
    app
}

fn row<'a>(table: &'a Value, slug: &str) -> &'a Value {
    table["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["municipality"] == slug)
        .unwrap_or_else(|| panic!("no {slug} in {table}"))
}

fn withheld_of(table: &Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for r in table["rows"].as_array().unwrap() {
        for c in r["quarters"].as_array().unwrap() {
            if c["withheld"] == true {
                assert!(c["tax_collected"].is_null(), "{c}");
                out.push((
                    r["municipality"].as_str().unwrap().to_owned(),
                    c["period"].as_str().unwrap().to_owned(),
                    c["reason"].as_str().unwrap().to_owned(),
                ));
            }
        }
    }
    out
}

#[actix_web::test]
async fn a_cell_on_two_payors_is_withheld_with_its_complements() {
    let app = zone_with_three_members().await;
    // No token.
    let res = app
        .get("/v1/zones/marquette-county/statistics?year=2026")
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers()["cache-control"].to_str().unwrap(),
        "public, max-age=300"
    );
    let text = res.text().await.unwrap();
    assert!(
        !text.contains("payor_count") && !text.contains("\"payors\":"),
        "{text}"
    );
    let table: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(table["periods"], json!(["2026-Q1", "2026-Q2", "2026-Q3"]));
    assert!(
        table["rule"]
            .as_str()
            .unwrap()
            .contains("fewer than three payors")
    );
    let mut withheld = withheld_of(&table);
    withheld.sort();
    let expected: Vec<(String, String, String)> = [
        ("endeavor", "2026-Q1", "complementary"),
        ("endeavor", "2026-Q3", "complementary"),
        ("oxford", "2026-Q1", "complementary"),
        ("oxford", "2026-Q2", "fewer_than_three_payors"),
        ("westfield", "2026-Q2", "complementary"),
        ("westfield", "2026-Q3", "complementary"),
    ]
    .iter()
    .map(|(a, b, c)| ((*a).into(), (*b).into(), (*c).into()))
    .collect();
    assert_eq!(withheld, expected, "{table}");
    let oxford_q2 = &row(&table, "oxford")["quarters"][1];
    assert!(
        oxford_q2["explanation"]
            .as_str()
            .unwrap()
            .contains("fewer than three payors"),
        "{oxford_q2}"
    );
    // Shown figures as entered; totals always shown.
    assert_eq!(
        row(&table, "oxford")["quarters"][2]["tax_collected"],
        "900.00"
    );
    assert_eq!(
        row(&table, "westfield")["quarters"][0]["tax_collected"],
        "1000.00"
    );
    assert_eq!(
        row(&table, "endeavor")["quarters"][1]["tax_collected"],
        "1100.00"
    );
    assert_eq!(row(&table, "endeavor")["total"], "3600.00");
    assert_eq!(row(&table, "oxford")["total"], "2000.00");
    assert_eq!(row(&table, "westfield")["total"], "4500.00");
    let montello = row(&table, "montello");
    assert_eq!(montello["total"], "0.00");
    assert_eq!(montello["quarters"][0]["source"], "not_submitted");
    assert_eq!(table["total"], "10100.00");
    let totals: Vec<&Value> = table["quarter_totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["tax_collected"])
        .collect();
    assert_eq!(
        totals,
        [&json!("3000.00"), &json!("3400.00"), &json!("3700.00")]
    );

    // CSV: the same table, `withheld` in place of the amount.
    let res = app
        .call(
            reqwest::Method::GET,
            "/v1/zones/marquette-county/statistics?year=2026",
        )
        .header("accept", "text/csv")
        .send()
        .await;
    assert_eq!(res.status(), 200);
    let csv = res.text().await.unwrap();
    assert!(
        csv.contains("oxford,Village of oxford,2026-Q2,withheld,fewer_than_three_payors\r\n"),
        "{csv}"
    );
    assert!(
        csv.contains("oxford,Village of oxford,2026-Q3,900.00,\r\n"),
        "{csv}"
    );
    assert!(csv.contains("total,,2026,10100.00,\r\n"), "{csv}");
}

/// Every subtraction a reader can make: a row's total less its shown cells,
/// a quarter's shown total less its shown cells, the grand total less the
/// shown quarter totals, and the grand total less every shown cell; none of
/// them equals a withheld figure (a residual over one withheld figure alone
/// would give it away).
#[actix_web::test]
async fn no_subtraction_recovers_a_withheld_figure() {
    let app = zone_with_three_members().await;
    let table = json_of(
        app.get("/v1/zones/marquette-county/statistics?year=2026")
            .await,
        200,
    )
    .await;
    let truth = figures();
    let periods: Vec<String> = table["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap().to_owned())
        .collect();
    let true_of = |slug: &str, period: &str| {
        truth
            .iter()
            .find(|((s, p), _)| *s == slug && *p == period)
            .map_or(0, |(_, (tax, _))| cents(&json!(tax)))
    };
    let mut hidden_values = Vec::new();
    let mut shown_cells_sum = 0;
    let mut tried = 0;
    for r in table["rows"].as_array().unwrap() {
        let slug = r["municipality"].as_str().unwrap();
        let mut residual = cents(&r["total"]);
        let mut hidden = Vec::new();
        for (c, cell) in r["quarters"].as_array().unwrap().iter().enumerate() {
            if cell["withheld"] == true {
                hidden.push(true_of(slug, &periods[c]));
            } else {
                residual -= cents(&cell["tax_collected"]);
                shown_cells_sum += cents(&cell["tax_collected"]);
            }
        }
        for h in &hidden {
            tried += 1;
            assert!(
                hidden.len() != 1 && residual != *h,
                "{slug}: row total gives away {h}"
            );
        }
        hidden_values.extend(hidden);
    }
    for (c, total) in table["quarter_totals"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        if total["withheld"] == true {
            continue;
        }
        let mut residual = cents(&total["tax_collected"]);
        let mut hidden = Vec::new();
        for r in table["rows"].as_array().unwrap() {
            let cell = &r["quarters"][c];
            if cell["withheld"] == true {
                hidden.push(true_of(r["municipality"].as_str().unwrap(), &periods[c]));
            } else {
                residual -= cents(&cell["tax_collected"]);
            }
        }
        for h in &hidden {
            tried += 1;
            assert!(
                hidden.len() != 1 && residual != *h,
                "{}: column total gives away {h}",
                periods[c]
            );
        }
    }
    let grand = cents(&table["total"]);
    let shown_totals: i64 = table["quarter_totals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["withheld"] == false)
        .map(|t| cents(&t["tax_collected"]))
        .sum();
    let hidden_totals = table["quarter_totals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["withheld"] == true)
        .count();
    assert_ne!(
        hidden_totals, 1,
        "one withheld quarter total is the grand total less the others"
    );
    for h in &hidden_values {
        tried += 2;
        assert_ne!(grand - shown_totals, *h);
        assert_ne!(
            grand - shown_cells_sum,
            *h,
            "the grand total less every shown cell"
        );
    }
    assert!(tried >= 12, "{tried} subtractions tried: {table}");
}

#[actix_web::test]
async fn the_municipality_view_withholds_alike_and_a_municipality_in_no_zone_reads_its_ledger() {
    let app = zone_with_three_members().await;
    // Westfield: every cell on three payors or more: all shown.
    let v = json_of(
        app.get("/v1/municipalities/westfield/statistics?year=2026")
            .await,
        200,
    )
    .await;
    assert!(withheld_of(&v).is_empty(), "{v}");
    let w = row(&v, "westfield");
    assert_eq!(w["quarters"][1]["tax_collected"], "2000.00");
    assert_eq!(w["quarters"][1]["source"], "submitted");
    assert_eq!(v["total"], "4500.00");
    assert_eq!(v["quarter_totals"][2]["tax_collected"], "1500.00");
    // Oxford alone: Q2 (2 payors) and its complement Q1 withheld, and both
    // quarter totals (each would equal its one cell); the year shown.
    let v = json_of(
        app.get("/v1/municipalities/oxford/statistics?year=2026")
            .await,
        200,
    )
    .await;
    assert_eq!(
        withheld_of(&v),
        [
            (
                "oxford".to_owned(),
                "2026-Q1".to_owned(),
                "complementary".to_owned()
            ),
            (
                "oxford".to_owned(),
                "2026-Q2".to_owned(),
                "fewer_than_three_payors".to_owned()
            ),
        ]
    );
    let totals: Vec<bool> = v["quarter_totals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["withheld"] == true)
        .collect();
    assert_eq!(totals, [true, true, false], "{v}");
    assert_eq!(v["total"], "2000.00");
    assert_eq!(v["quarter_totals"][2]["tax_collected"], "900.00");
    // Hayward remits to no zone: its cells come from its ledger.
    let v = json_of(
        app.get("/v1/municipalities/hayward/statistics?year=2026")
            .await,
        200,
    )
    .await;
    assert!(
        row(&v, "hayward")["quarters"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["source"] == "ledger"),
        "{v}"
    );
    let text = v.to_string();
    assert!(
        !text.contains("payor_count") && !text.contains("\"payors\":"),
        "{v}"
    );
}

#[actix_web::test]
async fn the_year_defaults_to_the_last_ended_quarter_and_hostile_queries_are_problems() {
    let app = spawn_demo_app_at(AT).await;
    let v = json_of(app.get("/v1/zones/marquette-county/statistics").await, 200).await;
    assert_eq!(v["year"], 2026);
    assert_eq!(v["periods"], json!(["2026-Q1", "2026-Q2", "2026-Q3"]));
    let v = json_of(
        app.get("/v1/municipalities/montello/statistics?year=2025")
            .await,
        200,
    )
    .await;
    assert_eq!(v["periods"].as_array().unwrap().len(), 4);
    for path in [
        "/v1/zones/marquette-county/statistics?year=%00",
        "/v1/municipalities/montello/statistics?year=%00",
        "/v1/zones/marquette-county/statistics?year=2026%00",
        "/v1/municipalities/montello/statistics?year=abc",
        "/v1/zones/marquette-county/statistics?year=2026&payors=1",
    ] {
        let res = app.get(path).await;
        assert!(matches!(res.status().as_u16(), 400 | 422), "{path}");
        assert_eq!(
            res.headers()["content-type"].to_str().unwrap(),
            "application/problem+json",
            "{path}"
        );
    }
    let res = app
        .get("/v1/zones/marquette-county/statistics?year=3000")
        .await;
    assert_problem(res, 422, "validation-failed", Some("year")).await;
    let res = app.get("/v1/zones/no-such-zone/statistics?year=2026").await;
    assert_problem(res, 404, "not-found", None).await;
}

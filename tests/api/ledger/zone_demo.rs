//! The demo zone's year (`roomtax demo`, `serve --demo`; `src/demo/zone.rs`)
//! read back through the API on both backends, with the figures the README's
//! walk-through shows.
//!
//! Hand computation from the demo ledger (`demo.rs` beside this file): in
//! 2026-Q2 the motel paid the tax of its four 2025 quarters, 810.00 +
//! 1,406.25 + 1,620.00 + 544.50 = 4,380.75 (on receipts of 18,000.00 +
//! 31,250.00 + 36,000.00 + 12,100.00 = 97,350.00); its interest (97.20 +
//! 126.56 + 97.20 + 16.34), the 25.00 fee and the 200.00 credit are not tax.
//! Nothing was received in 2026-Q1 or 2026-Q3 (the campground's estimate is
//! unpaid, its deposit held, not applied): 0.00 each. Commission 75 %:
//! 4,380.75 × 0.75 = 3,285.5625 → 3,285.56, general fund 1,095.19
//! (3,285.56 + 1,095.19 = 4,380.75). The report spends 1,850.00 (listed) +
//! 640.00 + 395.00 + 212.40 (summed) = 3,097.40; received 3,285.56, carried
//! over 188.16; marketing 1,850.00 + 395.00 = 2,245.00.

use reqwest::Method;
use serde_json::{Value, json};

use super::payments::check_passes;
use crate::helpers::{TestApp, check::assert_problem, spawn_app};

const ZONE: &str = "/v1/zones/marquette-county";

async fn json_of(app: &TestApp, token: Option<&str>, path: &str) -> Value {
    let res = match token {
        Some(t) => app.get_as(t, path).await,
        None => app.get(path).await,
    };
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    assert_eq!(status, 200, "{path}: {text}");
    serde_json::from_str(&text).unwrap()
}

fn money(v: &Value) -> i64 {
    let s = v.as_str().unwrap_or_else(|| panic!("not an amount: {v}"));
    let (whole, cents) = s.split_once('.').unwrap();
    let sign = if whole.starts_with('-') { -1 } else { 1 };
    sign * (whole.trim_start_matches('-').parse::<i64>().unwrap() * 100
        + cents.parse::<i64>().unwrap())
}

#[actix_web::test]
async fn the_demo_zone_holds_a_year_of_remittances_a_reviewed_report_and_its_sl304() {
    let mut app = spawn_app().await;
    let report = app.load_full_demo().await;
    app.accounts = report.accounts.clone();
    let commission = app.token("commission@marquette-county.demo").await;
    let tourism = app.token("tourism@marquette-county.demo").await;
    let clerk = app.token("clerk@montello.demo").await;

    // The zone's view: three quarters submitted from the ledger, Q2 paid.
    let view = json_of(
        &app,
        Some(&commission),
        &format!("{ZONE}/remittances?year=2026"),
    )
    .await;
    let q = |p: &str| {
        view["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|q| q["municipality"] == "montello" && q["period"] == p)
            .unwrap_or_else(|| panic!("no {p} in {view}"))
            .clone()
    };
    let q2 = q("2026-Q2");
    assert_eq!(q2["source"], "ledger", "{q2}");
    assert_eq!(q2["tax_collected"], "4380.75");
    assert_eq!(q2["gross_receipts"], "97350.00");
    assert_eq!(q2["payor_count"], 1);
    assert_eq!(q2["commission"], "3285.56");
    assert_eq!(q2["retained"], "1095.19");
    assert_eq!(
        money(&q2["commission"]) + money(&q2["retained"]),
        money(&q2["tax_collected"])
    );
    assert_eq!(q2["status"], "paid");
    assert_eq!(q2["transferred"], "3285.56");
    assert_eq!(q2["last_paid_on"], "2026-07-31");
    // Nothing received: submitted as 0.00, nothing to transfer (so `paid`).
    for p in ["2026-Q1", "2026-Q3"] {
        let other = q(p);
        assert_eq!(other["version"], 1, "{other}");
        assert_eq!(other["outstanding"], "0.00");
        assert_eq!(other["tax_collected"], "0.00");
        assert_eq!(other["commission"], "0.00");
    }
    // Never a payor in the zone's view.
    let text = view.to_string();
    for secret in ["Lakeside", "Buffalo", "5b0c8c1e"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }

    // The expenditure report: accepted after a comment, a question and its answer.
    let list = json_of(
        &app,
        Some(&tourism),
        &format!("{ZONE}/expenditure-reports?year=2026"),
    )
    .await;
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{list}");
    let r = &items[0];
    assert_eq!(r["totals"]["received"], "3285.56", "{r}");
    assert_eq!(r["totals"]["spent"], "3097.40");
    assert_eq!(r["totals"]["carried_over"], "188.16");
    assert_eq!(
        money(&r["totals"]["spent"]) + money(&r["totals"]["carried_over"]),
        money(&r["totals"]["received"])
    );
    assert_eq!(r["status"], "accepted", "{r}");
    let acts: Vec<&str> = r["review"]
        .as_array()
        .unwrap_or_else(|| panic!("{r}"))
        .iter()
        .map(|a| a["act"].as_str().unwrap())
        .collect();
    assert_eq!(acts, ["comment", "question", "answer", "accept"], "{r}");
    let id = r["id"].as_str().unwrap();

    // Lodging construction is refused, citing the ordinance.
    let res = app
        .call(Method::POST, &format!("{ZONE}/expenditure-reports"))
        .bearer(&tourism)
        .json(
            json!({"period_start": "2027-01-01", "period_end": "2027-12-31",
            "received_declared": "0.00",
            "items": [{"date": "2027-02-01", "payee": "Lakeview Builders", "amount": "25000.00",
                "category": "tangible_municipal_development", "description": "Motel annex",
                "constructs_or_develops_lodging_facility": true}]}),
        )
        .send()
        .await;
    let problem = assert_problem(res, 409, "conflict", None).await;
    assert!(
        problem.to_string().contains("no_lodging_facility"),
        "{problem}"
    );
    // The accepted report is final.
    let res = app
        .call(
            Method::POST,
            &format!("{ZONE}/expenditure-reports/{id}/versions"),
        )
        .bearer(&tourism)
        .header("if-match", "\"1\"")
        .json(
            json!({"period_start": "2026-01-01", "period_end": "2026-12-31",
            "received_declared": "0.00", "items": [], "summed": []}),
        )
        .send()
        .await;
    assert_eq!(res.status(), 409);

    // The report back to Montello.
    let back = json_of(
        &app,
        Some(&clerk),
        &format!("{ZONE}/reports/montello?year=2026"),
    )
    .await;
    assert_eq!(back["contributed"]["submitted"], "3285.56", "{back}");
    assert_eq!(back["contributed"]["transferred"], "3285.56");
    assert_eq!(back["commission_received"], "3285.56");
    let s = &back["spending"];
    assert_eq!(s["spent"], "3097.40");
    let large: Vec<(&str, &str)> = s["large_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["payee"].as_str().unwrap(), i["amount"].as_str().unwrap()))
        .collect();
    assert_eq!(large, [("Lakeland Printing", "1850.00")]);
    let by: i64 = s["by_category"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| money(&c["total"]))
        .sum();
    assert_eq!(by, money(&s["spent"]), "{s}");
    let marketing = s["by_category"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["category"] == "marketing_projects")
        .unwrap();
    assert_eq!(marketing["total"], "2245.00");
    assert_eq!(
        back["impact_totals"],
        json!([{"measure": "inquiries", "total": 420}, {"measure": "website_sessions", "total": 1960}]),
        "{back}"
    );

    // SL-304 of 2026, public: Montello's totals and the commission's roster.
    let sl = json_of(
        &app,
        None,
        "/v1/municipalities/montello/state-report?year=2026",
    )
    .await;
    assert_eq!(sl["collected"], "4380.75", "{sl}");
    assert_eq!(sl["forwarded"], "3285.56");
    assert_eq!(sl["retained"], "1095.19");
    assert_eq!(
        money(&sl["forwarded"]) + money(&sl["retained"]),
        money(&sl["collected"])
    );
    let c = &sl["commission"];
    assert_eq!(c["expenditures"]["spent"], "3097.40");
    assert_eq!(c["members"].as_array().unwrap().len(), 3);
    assert_eq!(c["roster_warning"], Value::Null, "{c}");
    let text = sl.to_string();
    for secret in ["Lakeside", "Buffalo", "5b0c8c1e"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }

    // The public statistics: Montello's year shown; its one-payor 2026-Q2
    // withheld, and 2026-Q1 with it, so that Q2 cannot be worked out as the
    // year less the other quarters.
    let stats = json_of(&app, None, &format!("{ZONE}/statistics?year=2026")).await;
    let row = &stats["rows"][0];
    assert_eq!(row["municipality"], "montello", "{stats}");
    assert_eq!(row["total"], "4380.75");
    let cells: Vec<(&str, bool)> = row["quarters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["period"].as_str().unwrap(), c["withheld"] == true))
        .collect();
    assert_eq!(
        cells,
        [("2026-Q1", true), ("2026-Q2", true), ("2026-Q3", false)],
        "{row}"
    );
    assert!(!stats.to_string().contains("4380.75\",\"withheld\":true"));

    // Loading again changes nothing; `roomtax check` passes.
    let again = app.load_full_demo().await;
    assert!(again.created.is_empty(), "{:?}", again.created);
    check_passes(&app);
}

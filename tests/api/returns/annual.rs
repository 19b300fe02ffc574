//! The annual return: it states the year's receipts by quarter, the service
//! compares them with the quarterly returns on file, and each difference is
//! an adjustment of its quarter (interest from that quarter's due date); the
//! annual return never owes the year's tax a second time.
//!
//! Hand computation, calendar year 2026 (Montello, 4.5 %): quarters filed on
//! time with gross 10,000 / 20,000 / 30,000 / 5,000 (tax 450.00, 900.00,
//! 1,350.00, 225.00). The annual return, filed 2027-03-15 (due 90 days after
//! 2026-12-31: 2027-03-31), states Q2 as 21,000: Q2 is adjusted by 1,000 ×
//! 0.045 = 45.00, with interest from Q2's due date 2026-07-31 to March 2027:
//! months = (12·2027+3) − (12·2026+7) = 8, 45.00 × 0.01 × 8 = 3.60. The annual
//! return owes 45.00 + 3.60 = 48.60 and nothing for the other quarters.

use reqwest::Method;
use serde_json::{Value, json};

use super::{MOTEL, OPERATOR, file, filing, returns_of};
use crate::helpers::{TestApp, check::assert_problem, spawn_demo_app_at};

async fn file_quarters(app: &TestApp, token: &str, payor: &str, year: i32, grosses: [&str; 4]) {
    for (i, gross) in grosses.iter().enumerate() {
        let q = i + 1;
        // File each quarter on time: 20 days after it ends.
        let (m, d) = [(4, 20), (7, 20), (10, 20), (1, 20)][i];
        let y = if q == 4 { year + 1 } else { year };
        app.set_now(&format!("{y}-{m:02}-{d:02}T15:00:00Z"));
        let res = file(
            app,
            token,
            payor,
            filing(&format!("{year}-Q{q}"), gross, "0.00"),
        )
        .await;
        assert_eq!(res.status(), 201, "{year}-Q{q}");
    }
}

fn annual(period: &str, quarters: Value, gross: &str) -> Value {
    json!({
        "period": period, "gross_receipts": gross, "exemptions": [],
        "quarters": quarters,
        "signer": {"name": "Dana Pine", "title": "Owner"}, "attested": true
    })
}

#[actix_web::test]
async fn a_calendar_year_annual_return_adjusts_the_quarter_that_differs() {
    let app = spawn_demo_app_at("2026-04-01T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    file_quarters(
        &app,
        &token,
        MOTEL,
        2026,
        ["10000.00", "20000.00", "30000.00", "5000.00"],
    )
    .await;
    app.set_now("2027-03-15T15:00:00Z");
    let quarters = json!([
        {"period": "2026-Q1", "gross_receipts": "10000.00", "exempt_receipts": "0.00"},
        {"period": "2026-Q2", "gross_receipts": "21000.00", "exempt_receipts": "0.00"},
        {"period": "2026-Q3", "gross_receipts": "30000.00", "exempt_receipts": "0.00"},
        {"period": "2026-Q4", "gross_receipts": "5000.00", "exempt_receipts": "0.00"}
    ]);
    let res = file(&app, &token, MOTEL, annual("2026", quarters, "66000.00")).await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["kind"], "annual");
    assert_eq!(body["due_date"], "2027-03-31");
    assert_eq!(
        body["tax"], "0.00",
        "the year's tax is not owed twice: {body}"
    );
    assert_eq!(body["amount_due"], "48.60", "{body}");
    let rec = &body["reconciliation"];
    let statuses: Vec<&str> = rec["quarters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["agrees", "adjusted", "agrees", "agrees"]);
    let q2 = &rec["quarters"][1];
    assert_eq!(q2["gross_receipts_difference"], "1000.00");
    assert_eq!(q2["adjustment"]["tax_difference"], "45.00");
    assert_eq!(q2["adjustment"]["interest"], "3.60");

    // Q2 now reads as its adjustment: version 2, from the annual return.
    let res = app
        .call(
            Method::GET,
            &format!("{}?period=2026-Q2", "/v1/municipalities/montello/returns"),
        )
        .bearer(&app.token(super::CLERK).await)
        .send()
        .await;
    let list: Value = res.json().await.unwrap();
    let q2_id = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["payor_id"] == MOTEL)
        .unwrap()["obligation"]["return_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let res = app
        .call(Method::GET, &format!("{}/{q2_id}", returns_of(MOTEL)))
        .bearer(&token)
        .send()
        .await;
    let q2: Value = res.json().await.unwrap();
    assert_eq!(q2["version"], 2);
    assert_eq!(q2["source"], "annual_adjustment");
    assert_eq!(q2["tax"], "945.00");
    assert_eq!(q2["tax_difference"], "45.00");
}

#[actix_web::test]
async fn an_annual_period_the_election_does_not_allow_is_refused() {
    // The motel elected calendar years: a fiscal year is not one of its annual periods.
    let app = spawn_demo_app_at("2026-10-01T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let res = file(&app, &token, MOTEL, annual("FY2026-06", json!([]), "0.00")).await;
    assert_problem(res, 422, "validation-failed", Some("period")).await;
}

#[actix_web::test]
async fn a_fiscal_year_payor_reconciles_its_fiscal_quarters() {
    // A payor electing fiscal years ending in June: FY2026-06 covers 2025-Q3..2026-Q2,
    // due 90 days after 2026-06-30, i.e. 2026-09-28. Quarters 4,000 each (tax 180.00);
    // the annual return states 2026-Q1 as 3,000: a credit of 45.00, nothing owed.
    let app = spawn_demo_app_at("2025-07-01T15:00:00Z").await;
    let clerk = app.token(super::CLERK).await;
    let res = app
        .call(Method::POST, "/v1/municipalities/montello/payors")
        .bearer(&clerk)
        .json(crate::payors::new_payor("Fiscal Pines LLC"))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let payor = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for (period, now) in [
        ("2025-Q3", "2025-10-10T15:00:00Z"),
        ("2025-Q4", "2026-01-10T15:00:00Z"),
        ("2026-Q1", "2026-04-10T15:00:00Z"),
        ("2026-Q2", "2026-07-10T15:00:00Z"),
    ] {
        app.set_now(now);
        let mut body = filing(period, "4000.00", "0.00");
        body["received_on"] = json!(&now[..10]);
        let res = file(&app, &clerk, &payor, body).await;
        assert_eq!(res.status(), 201, "{period}");
    }
    app.set_now("2026-09-01T15:00:00Z");
    let quarters = json!([
        {"period": "2025-Q3", "gross_receipts": "4000.00", "exempt_receipts": "0.00"},
        {"period": "2025-Q4", "gross_receipts": "4000.00", "exempt_receipts": "0.00"},
        {"period": "2026-Q1", "gross_receipts": "3000.00", "exempt_receipts": "0.00"},
        {"period": "2026-Q2", "gross_receipts": "4000.00", "exempt_receipts": "0.00"}
    ]);
    let res = file(
        &app,
        &clerk,
        &payor,
        annual("FY2026-06", quarters, "15000.00"),
    )
    .await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["due_date"], "2026-09-28");
    assert_eq!(body["amount_due"], "0.00", "{body}");
    assert_eq!(body["reconciliation"]["credit"], "45.00", "{body}");
    assert_eq!(body["reconciliation"]["quarters"][2]["status"], "adjusted");
}

//! Hayward's successor liability (Hayward room tax: "Business successors
//! shall be liable for the room tax for the four preceding calendar quarters
//! for which one or more returns have not been filed and/or payment not
//! received"), on both backends.
//!
//! Hand computation (Hayward 4 %, interest 1 % a month; due the last
//! business day of the month after the quarter). Transfer on 2026-11-10, in
//! 2026-Q4: the four preceding quarters are 2025-Q4 .. 2026-Q3.
//! - 2025-Q4: gross 5,000.00 → tax 200.00, filed and paid 2026-01-30 (a
//!   Friday, the due date): not liable.
//! - 2026-Q1: gross 10,000.00 → tax 400.00, filed 2026-04-30 (due), unpaid:
//!   interest to 2026-11-10 is (12·2026+11) − (12·2026+4) = 7 months, 400.00
//!   × 7 % = 28.00; owed 428.00: liable.
//! - 2026-Q2: no return: liable (tax not known, 0.00 shown).
//! - 2026-Q3: a zero return filed 2026-10-30: not liable.
//! - 2025-Q3 (no return) is not one of the four. The cabins opened
//!   2025-10-01, so every one of the four owed a return; for a transfer on
//!   2026-01-15 (quarters 2025-Q1..Q4) only 2025-Q4 did.
//!   Total owed by the successor: 428.00. Nothing is posted.

use serde_json::{Value, json};

use super::security::{HAYWARD_CLERK, journals_balance, new_payor, paper_return, post};
use crate::helpers::{assert_problem, spawn_demo_app_at};
use crate::returns::CLERK;

#[actix_web::test]
async fn a_hayward_successor_is_shown_the_four_preceding_quarters_not_filed_or_not_paid() {
    let app = spawn_demo_app_at("2026-11-15T15:00:00Z").await;
    let clerk = app.token(HAYWARD_CLERK).await;
    let payor = new_payor(&app, &clerk, "hayward", "Big Fish Cabins LLC").await;
    // Registered from its cabins' opening, 2025-10-01: 2025-Q4 on owes returns.
    let res = post(
        &app,
        &clerk,
        &format!("/v1/municipalities/hayward/payors/{payor}/establishments"),
        json!({"name": "Big Fish Cabins", "address": "9 Lake Road", "kind": "cabin", "units": 6, "opened_on": "2025-10-01"}),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    paper_return(
        &app,
        &clerk,
        "hayward",
        &payor,
        "2025-Q4",
        "5000.00",
        "0.00",
        "2026-01-30",
    )
    .await;
    let res = post(
        &app,
        &clerk,
        &format!("/v1/municipalities/hayward/payors/{payor}/payments"),
        json!({"received_on": "2026-01-30", "amount": "200.00", "method": "check", "reference": "11"}),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    paper_return(
        &app,
        &clerk,
        "hayward",
        &payor,
        "2026-Q1",
        "10000.00",
        "0.00",
        "2026-04-30",
    )
    .await;
    paper_return(
        &app,
        &clerk,
        "hayward",
        &payor,
        "2026-Q3",
        "0.00",
        "0.00",
        "2026-10-30",
    )
    .await;
    let kinds_before = journals_balance(&app).len();

    let path = format!(
        "/v1/municipalities/hayward/payors/{payor}/successor-liability?transfer_on=2026-11-10"
    );
    let res = app.get_as(&clerk, &path).await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    let s: Value = res.json().await.unwrap();
    let rows: Vec<(String, bool, bool, String)> = s["quarters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| {
            (
                q["period"].as_str().unwrap().to_owned(),
                q["return_filed"].as_bool().unwrap(),
                q["successor_liable"].as_bool().unwrap(),
                q["owed"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let row = |p: &str, f, l, o: &str| (p.to_owned(), f, l, o.to_owned());
    assert_eq!(
        rows,
        vec![
            row("2025-Q4", true, false, "0.00"),
            row("2026-Q1", true, true, "428.00"),
            row("2026-Q2", false, true, "0.00"),
            row("2026-Q3", true, false, "0.00"),
        ]
    );
    assert_eq!(s["quarters"][1]["interest_accrued"], "28.00");
    assert!(
        s["quarters"]
            .as_array()
            .unwrap()
            .iter()
            .all(|q| q["return_required"] == true)
    );
    assert_eq!(s["total_owed"], "428.00");
    assert_eq!(s["posted_to_successor"], false);
    assert!(
        s["citation"]
            .as_str()
            .unwrap()
            .contains("four preceding calendar quarters")
    );
    // Nothing posted.
    assert_eq!(journals_balance(&app).len(), kinds_before);

    // A future transfer date, and Montello (clearance instead): refused.
    let res = app
        .get_as(&clerk, &format!("/v1/municipalities/hayward/payors/{payor}/successor-liability?transfer_on=2026-11-16"))
        .await;
    assert_problem(res, 422, "validation-failed").await;
    let montello = app.token(CLERK).await;
    let m = new_payor(&app, &montello, "montello", "Fox River Suites LLC").await;
    let res = app
        .get_as(
            &montello,
            &format!(
                "/v1/municipalities/montello/payors/{m}/successor-liability?transfer_on=2026-11-10"
            ),
        )
        .await;
    let body = assert_problem(res, 422, "validation-failed").await;
    assert_eq!(
        body["errors"][0]["rule"],
        "successor_liability_not_provided"
    );
    // A transfer on 2026-01-15: the quarters 2025-Q1..Q4; only 2025-Q4 shares a day
    // with the registration (from 2025-10-01): 2025-Q1..Q3 owed no return, so their
    // missing returns are not the successor's.
    let res = app
        .get_as(&clerk, &format!("/v1/municipalities/hayward/payors/{payor}/successor-liability?transfer_on=2026-01-15"))
        .await;
    let early: Value = res.json().await.unwrap();
    let required: Vec<bool> = early["quarters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["return_required"].as_bool().unwrap())
        .collect();
    assert_eq!(required, [false, false, false, true]);
    assert!(early["quarters"][0]["successor_liable"] == false);
    // The Hayward clerk cannot see a Montello payor: 404.
    let res = app
        .get_as(
            &clerk,
            &format!(
                "/v1/municipalities/montello/payors/{m}/successor-liability?transfer_on=2026-11-10"
            ),
        )
        .await;
    assert_eq!(res.status(), 404);
}

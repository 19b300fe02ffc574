//! Backdating holes: money moved by the ledger itself (credit applied, a
//! refund, a security application) is never charged or applied twice by a
//! payment or a determination dated before it; a determination's four-year
//! limit is judged on the day it is recorded. Both backends.
//!
//! Hand computation (Montello 4.5 %): a new payor's 2026-Q1 paper return,
//! gross 10,000.00, exempt 500.00 → 9,500.00 × 4.5 % = 427.50, received
//! 2026-04-20; 500.00 paid 2026-04-25 → 72.50 held as credit. Its 2026-Q2
//! return (gross 2,000.00 → 90.00) filed 2026-07-20 takes the 72.50 of credit
//! (journal `credit_applied` posted 2026-07-20).

use reqwest::Method;
use serde_json::{Value, json};

use super::payments::{check_passes, new_payor, paper_return, pay, statement};
use crate::helpers::{TestApp, check::assert_problem, check::rule_of, spawn_demo_app_at};
use crate::returns::{CLERK, MOTEL};

fn payment(on: &str, amount: &str) -> Value {
    json!({"received_on": on, "amount": amount, "method": "check", "reference": "2077"})
}

async fn determine(app: &TestApp, token: &str, payor: &str, body: Value) -> reqwest::Response {
    app.call(
        Method::POST,
        &format!("/v1/municipalities/montello/payors/{payor}/determinations"),
    )
    .bearer(token)
    .json(body)
    .send()
    .await
}

/// The payor overpaid by 72.50 on 2026-04-25 (see the module doc).
async fn overpaid(app: &TestApp, clerk: &str) -> String {
    let payor = new_payor(app, clerk, "Backdate Lodge LLC").await;
    paper_return(
        app,
        clerk,
        &payor,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-04-20",
    )
    .await;
    app.set_now("2026-04-25T15:00:00Z");
    let res = pay(app, clerk, &payor, payment("2026-04-25", "500.00")).await;
    assert_eq!(res.status(), 201);
    let paid: Value = res.json().await.unwrap();
    assert_eq!(paid["credit"], "72.50");
    payor
}

/// The credit of 72.50 went to Q2's tax on 2026-07-20. A payment received
/// 2026-07-10 (after the latest payment, 2026-04-25) would be read against
/// the book of 2026-07-10, where the credit is still unused: refused, naming
/// `received_on`. A payment of the day is taken: 17.50 pays Q2's remainder
/// (90.00 − 72.50).
#[actix_web::test]
async fn a_payment_dated_before_credit_applied_is_refused() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = overpaid(&app, &clerk).await;
    app.set_now("2026-07-20T15:00:00Z");
    paper_return(
        &app,
        &clerk,
        &payor,
        "2026-Q2",
        "2000.00",
        "0.00",
        "2026-07-20",
    )
    .await;

    let res = pay(&app, &clerk, &payor, payment("2026-07-10", "17.50")).await;
    let body = assert_problem(res, 422, "validation-failed", Some("received_on")).await;
    assert_eq!(
        rule_of(&body, "received_on").as_deref(),
        Some("before_latest_application")
    );
    assert!(body.to_string().contains("2026-07-20"), "{body}");

    let res = pay(&app, &clerk, &payor, payment("2026-07-20", "17.50")).await;
    assert_eq!(res.status(), 201);
    let account = statement(&app, &clerk, &payor, "2026-07-20").await;
    assert_eq!(account["totals"]["balance"], "0.00");
    assert_eq!(account["totals"]["credit"], "0.00");
    check_passes(&app);
}

/// The 72.50 of credit refunded 2026-06-15 (with 1.45 of interest: 72.50 × 1
/// % × 2 months). A payment received 2026-06-01 is refused: the refund was
/// judged on the credit held that day.
#[actix_web::test]
async fn a_payment_dated_before_a_refund_is_refused() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = overpaid(&app, &clerk).await;
    app.set_now("2026-06-15T15:00:00Z");
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/montello/payors/{payor}/refunds"),
        )
        .bearer(&clerk)
        .json(json!({
            "refunded_on": "2026-06-15",
            "amount": "72.50",
            "method": "check",
            "reference": "R-1",
            "overpayment_intentional_or_careless": false,
            "period": "2026-Q1"
        }))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let res = pay(&app, &clerk, &payor, payment("2026-06-01", "10.00")).await;
    let body = assert_problem(res, 422, "validation-failed", Some("received_on")).await;
    assert_eq!(
        rule_of(&body, "received_on").as_deref(),
        Some("before_latest_application")
    );
    // The statement's CSV lists the refund: 72.50 of credit, 1.45 of interest.
    let csv = app
        .call(
            Method::GET,
            &format!("/v1/municipalities/montello/payors/{payor}/account?as_of=2026-06-15"),
        )
        .bearer(&clerk)
        .header("accept", "text/csv")
        .send()
        .await
        .text()
        .await
        .unwrap();
    assert!(
        csv.contains("\r\nrefund,2026-06-15,,72.50,1.45,\r\n"),
        "{csv}"
    );
    let res = pay(&app, &clerk, &payor, payment("2026-06-15", "10.00")).await;
    assert_eq!(res.status(), 201);
    check_passes(&app);
}

/// A determination is not dated before the payor's latest posting: an audit
/// of Q1 dated 2026-07-01 (after the latest payment, 2026-04-25) would charge
/// a tax the credit applied on 2026-07-20 never saw.
#[actix_web::test]
async fn a_determination_dated_before_the_latest_posting_is_refused() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = overpaid(&app, &clerk).await;
    app.set_now("2026-07-20T15:00:00Z");
    paper_return(
        &app,
        &clerk,
        &payor,
        "2026-Q2",
        "2000.00",
        "0.00",
        "2026-07-20",
    )
    .await;
    let audit = json!({
        "kind": "office_audit",
        "period": "2026-Q1",
        "basis": "Receipts checked against the bank statements.",
        "tax_found": "437.50",
        "determined_on": "2026-07-01"
    });
    let res = determine(&app, &clerk, &payor, audit.clone()).await;
    let body = assert_problem(res, 422, "validation-failed", Some("determined_on")).await;
    assert_eq!(
        rule_of(&body, "determined_on").as_deref(),
        Some("before_latest_posting")
    );
    // Dated the day: 437.50 − 427.50 = 10.00 of tax charged.
    let mut today = audit;
    today["determined_on"] = json!("2026-07-20");
    let res = determine(&app, &clerk, &payor, today).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    check_passes(&app);
}

/// The demo motel's 2025-Q1 return was due 2025-04-30: the last day is
/// 2029-04-30. Recorded on 2029-05-01, an audit dated back to 2029-04-30 is
/// still late (made in writing when recorded).
#[actix_web::test]
async fn a_determination_backdated_within_four_years_is_still_refused_when_recorded_late() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    app.set_now("2029-05-01T17:00:00Z");
    let clerk = app.token(CLERK).await;
    let res = determine(
        &app,
        &clerk,
        MOTEL,
        json!({
            "kind": "field_audit",
            "period": "2025-Q1",
            "basis": "Records examined on site.",
            "tax_found": "820.00",
            "determined_on": "2029-04-30"
        }),
    )
    .await;
    let body = assert_problem(res, 422, "validation-failed", Some("determined_on")).await;
    assert_eq!(
        rule_of(&body, "determined_on").as_deref(),
        Some("four_year_limit")
    );
    assert!(body.to_string().contains("66.0615(2)(a)"), "{body}");
    check_passes(&app);
}

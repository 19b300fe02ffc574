//! Credit counts as paid on the day it was deposited, credit pays a
//! determination's charges, and a reversal leaves a forfeiture that stands,
//! on both backends.
//!
//! Hand computation (Montello: 4.5 %; interest 1 % a month from the due date
//! to the first of the month after payment; late filing fee 25.00; the
//! forfeiture, min(25 % of the previous year's tax, 1,000.00), when tax is
//! paid more than 30 days after the filing due date; a non-filer estimate
//! adds 10 %).

use reqwest::Method;
use serde_json::{Value, json};

use super::payments::{check_passes, new_payor, paper_return, pay, payments_of, period, statement};
use crate::helpers::spawn_demo_app_at;
use crate::returns::CLERK;

/// (charged, paid) of component `c` of a statement's period.
fn comp(period: &Value, c: &str) -> (String, String) {
    period["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["component"] == c)
        .map(|x| {
            (
                x["charged"].as_str().unwrap().to_owned(),
                x["paid"].as_str().unwrap().to_owned(),
            )
        })
        .unwrap_or_else(|| ("0.00".to_owned(), "0.00".to_owned()))
}

fn cp(charged: &str, paid: &str) -> (String, String) {
    (charged.to_owned(), paid.to_owned())
}

async fn paid(app: &crate::helpers::TestApp, clerk: &str, payor: &str, body: Value) -> Value {
    let res = pay(app, clerk, payor, body).await;
    let status = res.status();
    let text = res.text().await.unwrap();
    assert_eq!(status, 201, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// Payor Q: 2025-Q4 gross 40,000.00 → tax 1,800.00 (its 2025 tax), paid on
/// its due date 2026-01-31. 900.00 deposited 2026-04-25 with no 2026-Q1
/// return yet: all credit. The 2026-Q1 return (gross 20,000.00 → tax 900.00,
/// due 2026-04-30) is filed 2026-06-10: fee 25.00. The credit was deposited
/// before the due date, so it settles the 900.00 with interest 0 and no
/// forfeiture (before the fix: interest 900 × 1 % × 2 = 18.00 and
/// forfeiture min(450.00, 1,000.00) = 450.00, balance 493.00). Balance
/// 25.00, the fee only.
#[actix_web::test]
async fn credit_deposited_before_the_due_date_bears_no_interest_and_no_forfeiture() {
    let app = spawn_demo_app_at("2026-01-31T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Quarry Lodge LLC").await;
    paper_return(
        &app,
        &clerk,
        &payor,
        "2025-Q4",
        "40000.00",
        "0.00",
        "2026-01-31",
    )
    .await;
    let first = paid(&app, &clerk, &payor, json!({"received_on": "2026-01-31", "amount": "1800.00", "method": "check", "reference": "1"})).await;
    assert_eq!(first["credit"], "0.00");

    app.set_now("2026-04-25T15:00:00Z");
    let deposit = paid(&app, &clerk, &payor, json!({"received_on": "2026-04-25", "amount": "900.00", "method": "check", "reference": "2"})).await;
    assert_eq!(deposit["credit"], "900.00");

    app.set_now("2026-06-10T15:00:00Z");
    paper_return(
        &app,
        &clerk,
        &payor,
        "2026-Q1",
        "20000.00",
        "0.00",
        "2026-06-10",
    )
    .await;
    let account = statement(&app, &clerk, &payor, "2026-06-10").await;
    let q1 = period(&account, "2026-Q1");
    assert_eq!(comp(q1, "tax"), cp("900.00", "900.00"), "{q1}");
    assert_eq!(comp(q1, "interest"), cp("0.00", "0.00"), "{q1}");
    assert_eq!(
        comp(q1, "late_payment_forfeiture"),
        cp("0.00", "0.00"),
        "{q1}"
    );
    assert_eq!(comp(q1, "late_filing_fee"), cp("25.00", "0.00"), "{q1}");
    assert_eq!(q1["interest_accrued"], "0.00");
    assert_eq!(q1["balance"], "25.00");
    assert_eq!(account["totals"]["credit"], "0.00");
    assert_eq!(account["totals"]["balance"], "25.00");
    check_passes(&app);
}

/// Credit deposited after the due date bears interest to its own deposit
/// date, not to the day the charge posts. Payor R, no previous year: 2026-Q1
/// gross 10,000.00 → tax 450.00 (due 2026-04-30) filed 2026-05-05 (fee
/// 25.00) and paid 475.00 on 2026-05-05: tax 450.00, interest 450 × 1 % × 1
/// = 4.50, fee 20.50 (order tax, interest, fees): 4.50 of the fee open.
/// 100.00 more on 2026-05-20: fee 4.50, 95.50 held as credit (deposited
/// 2026-05-20). An amendment filed 2026-08-10 raises the tax to 540.00
/// (gross 12,000.00): 90.00 more, settled from the credit deposited
/// 2026-05-20: interest 90 × 1 % × 1 month (to 2026-06-01) = 0.90, not 4
/// months (3.60, to 2026-09-01). Credit left 95.50 − 90.00 − 0.90 = 4.60.
#[actix_web::test]
async fn credit_deposited_after_the_due_date_bears_interest_to_its_deposit_date() {
    let app = spawn_demo_app_at("2026-05-05T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Riverbend Rooms LLC").await;
    let mut original = crate::returns::filing("2026-Q1", "10000.00", "0.00");
    original["received_on"] = json!("2026-05-05");
    let res = crate::returns::file(&app, &clerk, &payor, original).await;
    assert_eq!(res.status(), 201);
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let filed: Value = res.json().await.unwrap();
    let path = format!(
        "{}/{}/amendments",
        crate::returns::returns_of(&payor),
        filed["id"].as_str().unwrap()
    );
    let a = paid(&app, &clerk, &payor, json!({"received_on": "2026-05-05", "amount": "475.00", "method": "check", "reference": "1"})).await;
    assert_eq!(a["credit"], "0.00");
    app.set_now("2026-05-20T15:00:00Z");
    let b = paid(&app, &clerk, &payor, json!({"received_on": "2026-05-20", "amount": "100.00", "method": "check", "reference": "2"})).await;
    assert_eq!(b["credit"], "95.50");

    app.set_now("2026-08-10T15:00:00Z");
    let mut amended = crate::returns::filing("2026-Q1", "12000.00", "0.00");
    amended["received_on"] = json!("2026-08-10");
    let res = app
        .call(Method::POST, &path)
        .bearer(&clerk)
        .header("if-match", &etag)
        .json(amended)
        .send()
        .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let account = statement(&app, &clerk, &payor, "2026-08-10").await;
    let q1 = period(&account, "2026-Q1");
    assert_eq!(comp(q1, "tax"), cp("540.00", "540.00"), "{q1}");
    assert_eq!(comp(q1, "interest"), cp("5.40", "5.40"), "{q1}");
    assert_eq!(comp(q1, "late_filing_fee"), cp("25.00", "25.00"), "{q1}");
    assert_eq!(q1["balance"], "0.00");
    assert_eq!(account["totals"]["credit"], "4.60");
    check_passes(&app);
}

/// Credit pays a non-filer estimate. Payor S pays 500.00 on 2026-04-20 with
/// nothing charged: credit 500.00 (deposited before 2026-Q1's due date
/// 2026-04-30). The 2026-06-15 estimate for 2026-Q1 on receipts 1,000.00:
/// tax 45.00 + penalty 4.50 = 49.50, settled from the credit with no
/// interest (deposited before the due date); credit left 450.50.
#[actix_web::test]
async fn credit_pays_a_non_filer_estimate_when_it_posts() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Sandy Shore Motel LLC").await;
    let deposit = paid(&app, &clerk, &payor, json!({"received_on": "2026-04-20", "amount": "500.00", "method": "check", "reference": "1"})).await;
    assert_eq!(deposit["credit"], "500.00");

    app.set_now("2026-06-15T15:00:00Z");
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/montello/payors/{payor}/determinations"),
        )
        .bearer(&clerk)
        .json(json!({
            "kind": "non_filer_estimate",
            "period": "2026-Q1",
            "basis": "No return filed.",
            "estimated_receipts": "1000.00"
        }))
        .send()
        .await;
    let status = res.status();
    assert_eq!(status, 201, "{}", res.text().await.unwrap());
    let account = statement(&app, &clerk, &payor, "2026-06-15").await;
    let q1 = period(&account, "2026-Q1");
    assert_eq!(comp(q1, "tax"), cp("45.00", "45.00"), "{q1}");
    assert_eq!(comp(q1, "estimate_penalty"), cp("4.50", "4.50"), "{q1}");
    assert_eq!(comp(q1, "interest"), cp("0.00", "0.00"), "{q1}");
    assert_eq!(q1["interest_accrued"], "0.00");
    assert_eq!(q1["balance"], "0.00");
    assert_eq!(account["totals"]["credit"], "450.50");
    check_passes(&app);
}

/// Payor F: 2025-Q4 gross 100,000.00 → tax 4,500.00, paid on time (its 2025
/// tax: forfeiture min(1,125.00, 1,000.00) = 1,000.00). 2026-Q2 gross
/// 20,000.00 → tax 900.00, filed on its due date 2026-07-31. A, 909.00 on
/// 2026-08-31 (more than 30 days late): tax 900.00, interest 900 × 1 % × 1
/// = 9.00, forfeiture 1,000.00 posted and left open. B, 1,000.00 on
/// 2026-09-01, pays the forfeiture. A bounces, reversed 2026-09-02: the tax
/// 900.00 and interest charge are reopened/withdrawn, the forfeiture stands
/// (charged 1,000.00, paid 1,000.00 by B). Balance as of 2026-09-02: tax
/// 900.00 + interest accrued 900 × 1 % × 2 months (to 2026-10-01) = 18.00 →
/// 918.00 (before the fix: forfeiture charged 0.00, balance −82.00).
#[actix_web::test]
async fn a_reversal_leaves_a_forfeiture_that_stands() {
    let app = spawn_demo_app_at("2026-01-31T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Fairway Inn LLC").await;
    paper_return(
        &app,
        &clerk,
        &payor,
        "2025-Q4",
        "100000.00",
        "0.00",
        "2026-01-31",
    )
    .await;
    paid(&app, &clerk, &payor, json!({"received_on": "2026-01-31", "amount": "4500.00", "method": "check", "reference": "1"})).await;

    app.set_now("2026-07-31T15:00:00Z");
    paper_return(
        &app,
        &clerk,
        &payor,
        "2026-Q2",
        "20000.00",
        "0.00",
        "2026-07-31",
    )
    .await;
    app.set_now("2026-08-31T15:00:00Z");
    let a = paid(&app, &clerk, &payor, json!({"received_on": "2026-08-31", "amount": "909.00", "method": "check", "reference": "2"})).await;
    let posted: Vec<(String, String)> = a["charges_posted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["component"].as_str().unwrap().to_owned(),
                c["amount"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        posted,
        vec![
            cp("interest", "9.00"),
            cp("late_payment_forfeiture", "1000.00")
        ]
    );
    app.set_now("2026-09-01T15:00:00Z");
    let b = paid(&app, &clerk, &payor, json!({"received_on": "2026-09-01", "amount": "1000.00", "method": "ach", "reference": "3"})).await;
    assert_eq!(b["credit"], "0.00");

    app.set_now("2026-09-02T15:00:00Z");
    let id = a["id"].as_str().unwrap();
    let res = app
        .call(
            Method::POST,
            &format!("{}/{id}/reversal", payments_of(&payor)),
        )
        .bearer(&clerk)
        .json(json!({"reason": "returned: insufficient funds"}))
        .send()
        .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let account = statement(&app, &clerk, &payor, "2026-09-02").await;
    let q2 = period(&account, "2026-Q2");
    assert_eq!(
        comp(q2, "late_payment_forfeiture"),
        cp("1000.00", "1000.00"),
        "{q2}"
    );
    assert_eq!(comp(q2, "tax"), cp("900.00", "0.00"), "{q2}");
    assert_eq!(comp(q2, "interest"), cp("0.00", "0.00"), "{q2}");
    assert_eq!(q2["interest_accrued"], "18.00");
    assert_eq!(q2["balance"], "918.00");
    // The daily posting charges nothing more: the forfeiture is charged.
    let res = app
        .call(
            Method::POST,
            "/v1/municipalities/montello/ledger/daily-posting",
        )
        .bearer(&clerk)
        .send()
        .await;
    assert!(res.status().is_success());
    let again = statement(&app, &clerk, &payor, "2026-09-02").await;
    assert_eq!(period(&again, "2026-Q2")["balance"], "918.00");
    check_passes(&app);
}

/// A payment recorded after a charge posted later than its receipt date:
/// payor T's 2026-Q1 estimate on receipts 1,000.00 (tax 45.00 + penalty
/// 4.50) posts 2026-06-15; 100.00 received 2026-06-10 is recorded
/// 2026-06-16. As of 2026-06-10 nothing was owed, so the payment's journal
/// holds it all as credit; the credit is then applied to the estimate, as
/// deposited 2026-06-10: interest 45 × 1 % × 2 months (to 2026-07-01) =
/// 0.90; applied 45.00 + 0.90 + 4.50 = 50.40; credit left 49.60.
#[actix_web::test]
async fn a_payment_recorded_late_pays_charges_posted_after_its_receipt() {
    let app = spawn_demo_app_at("2026-06-15T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Tamarack Motel LLC").await;
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/montello/payors/{payor}/determinations"),
        )
        .bearer(&clerk)
        .json(json!({
            "kind": "non_filer_estimate",
            "period": "2026-Q1",
            "basis": "No return filed.",
            "estimated_receipts": "1000.00"
        }))
        .send()
        .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    app.set_now("2026-06-16T15:00:00Z");
    let p = paid(&app, &clerk, &payor, json!({"received_on": "2026-06-10", "amount": "100.00", "method": "check", "reference": "1"})).await;
    // The response shows the payment's own allocation (nothing was owed on
    // 2026-06-10: all 100.00 to credit), then what was applied right after
    // it, then the credit left.
    assert_eq!(p["allocations"], json!([]));
    assert_eq!(p["credit"], "100.00");
    let applied = &p["credit_applied"];
    assert_eq!(applied["applied_on"], "2026-06-16", "{p}");
    let allocations: Vec<(String, String)> = applied["allocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                format!(
                    "{} {}",
                    a["period"].as_str().unwrap(),
                    a["component"].as_str().unwrap()
                ),
                a["amount"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        allocations,
        vec![
            cp("2026-Q1 tax", "45.00"),
            cp("2026-Q1 interest", "0.90"),
            cp("2026-Q1 estimate_penalty", "4.50")
        ]
    );
    assert_eq!(applied["charges_posted"][0]["component"], "interest");
    assert_eq!(applied["charges_posted"][0]["amount"], "0.90");
    assert_eq!(p["credit_held"], "49.60");
    let account = statement(&app, &clerk, &payor, "2026-06-16").await;
    let q1 = period(&account, "2026-Q1");
    assert_eq!(comp(q1, "tax"), cp("45.00", "45.00"), "{q1}");
    assert_eq!(comp(q1, "interest"), cp("0.90", "0.90"), "{q1}");
    assert_eq!(comp(q1, "estimate_penalty"), cp("4.50", "4.50"), "{q1}");
    assert_eq!(q1["balance"], "0.00");
    assert_eq!(account["totals"]["credit"], "49.60");
    check_passes(&app);
}

//! Payments and the statement of account from the clerk's side, on both
//! backends.
//!
//! Hand computation (Montello: 4.5 %; interest 1 % a month from the due date
//! to the first of the month after payment; late filing fee 25.00;
//! forfeiture the lesser of 25 % of the previous year's tax and 1,000.00
//! when tax is paid more than 30 days after the filing due date). A new
//! payor, its paper returns entered by the clerk:
//! - 2025-Q4: gross 8,000.00 → tax 360.00, received 2026-01-31 (due that day:
//!   on time, no fee). It has no year before it: no forfeiture ever.
//! - 2026-Q1: gross 10,000.00, exempt 500.00 → tax 427.50, received
//!   2026-05-01 (due 2026-04-30): fee 25.00. Previous year's tax 360.00, so
//!   its forfeiture would be min(90.00, 1,000.00) = 90.00; in time until
//!   2026-05-30.
//!
//! A, 500.00 by check on 2026-05-15. Oldest period first:
//! - 2025-Q4 tax 360.00; its interest 2026-01 → 2026-05, 4 months: 360.00 ×
//!   4 % = 14.40, posted and paid → 374.40 used, 125.60 left;
//! - 2026-Q1 tax 125.60; interest on that part, 1 month: 1.256 → 1.26,
//!   posted, unpaid; within 30 days: no forfeiture.
//!
//! Statement as of 2026-06-30: 2026-Q1 charged 427.50 + 1.26 + 25.00 =
//! 453.76, paid 125.60; interest accrued on the unpaid 301.90 for 2 months
//! (to 2026-06): 6.038 → 6.04; balance 453.76 − 125.60 + 6.04 = 334.20.
//!
//! B, 400.00 by ACH on 2026-07-10: 2026-Q1 tax 301.90 settled; its interest 3
//! months 9.057 → 9.06; more than 30 days late: forfeiture 90.00. Applied:
//! tax 301.90, interest 1.26 + 9.06 = 10.32, fee 25.00, forfeiture 62.78
//! (400.00 − 301.90 − 10.32 − 25.00); 27.22 of the forfeiture left.
//!
//! C, 50.00 cash on 2026-07-20: forfeiture 27.22; 22.78 held as credit.
//! Charged in all 374.40 + 427.50 + 25.00 + 1.26 + 9.06 + 90.00 = 927.22;
//! paid 950.00 = 927.22 + 22.78.

use reqwest::Method;
use serde_json::{Value, json};

use super::{all_lines, roomtax, sums};
use crate::helpers::{TestApp, spawn_demo_app_at};
use crate::returns::{CLERK, OPERATOR, file, filing};

const STAFF: &str = "staff@montello.demo";

pub(super) fn payments_of(payor: &str) -> String {
    format!("/v1/municipalities/montello/payors/{payor}/payments")
}

pub(super) fn account_of(payor: &str, as_of: &str) -> String {
    format!("/v1/municipalities/montello/payors/{payor}/account?as_of={as_of}")
}

/// A new calendar-year payor registered by the clerk.
pub(super) async fn new_payor(app: &TestApp, clerk: &str, name: &str) -> String {
    let mut body = crate::payors::new_payor(name);
    body["annual_election"] = json!("calendar");
    body.as_object_mut()
        .unwrap()
        .remove("fiscal_year_end_month");
    let res = app
        .call(Method::POST, "/v1/municipalities/montello/payors")
        .bearer(clerk)
        .json(body)
        .send()
        .await;
    assert_eq!(res.status(), 201);
    res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A paper return entered by the clerk, received on `on`.
pub(super) async fn paper_return(
    app: &TestApp,
    clerk: &str,
    payor: &str,
    period: &str,
    gross: &str,
    exempt: &str,
    on: &str,
) {
    let mut body = filing(period, gross, exempt);
    body["received_on"] = json!(on);
    let res = file(app, clerk, payor, body).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
}

pub(super) async fn pay(app: &TestApp, token: &str, payor: &str, body: Value) -> reqwest::Response {
    app.call(Method::POST, &payments_of(payor))
        .bearer(token)
        .json(body)
        .send()
        .await
}

fn rows(list: &Value, amount_key: &str) -> Vec<(String, String, String)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["period"].as_str().unwrap().to_owned(),
                a["component"].as_str().unwrap().to_owned(),
                a[amount_key].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn row(p: &str, c: &str, a: &str) -> (String, String, String) {
    (p.to_owned(), c.to_owned(), a.to_owned())
}

pub(super) async fn statement(app: &TestApp, token: &str, payor: &str, as_of: &str) -> Value {
    let res = app.get_as(token, &account_of(payor, as_of)).await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

pub(super) fn period<'a>(account: &'a Value, p: &str) -> &'a Value {
    account["periods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["period"] == p)
        .unwrap_or_else(|| panic!("no {p} in {account}"))
}

pub(super) fn check_passes(app: &TestApp) {
    let mut owner = app.owner_conn();
    assert!(sums(&all_lines(&mut owner)).values().all(|s| *s == 0));
    let out = roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("payment(s) each have one journal"),
        "{stdout}"
    );
    assert!(
        stdout.contains("payment journal(s) replay exactly"),
        "{stdout}"
    );
}

#[actix_web::test]
async fn a_late_montello_return_paid_in_two_parts_then_an_overpayment_held_as_credit() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Lakeview Cabins LLC").await;
    paper_return(
        &app,
        &clerk,
        &payor,
        "2025-Q4",
        "8000.00",
        "0.00",
        "2026-01-31",
    )
    .await;
    paper_return(
        &app,
        &clerk,
        &payor,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-05-01",
    )
    .await;

    app.set_now("2026-05-15T15:00:00Z");
    let a = json!({"received_on": "2026-05-15", "amount": "500.00", "method": "check", "reference": "1041"});
    let res = app
        .call(Method::POST, &payments_of(&payor))
        .bearer(&clerk)
        .header("idempotency-key", "pay-a")
        .json(a.clone())
        .send()
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(
        res.headers()["location"],
        format!("/v1/municipalities/montello/payors/{payor}/account").as_str()
    );
    let first: Value = res.json().await.unwrap();
    assert_eq!(
        rows(&first["charges_posted"], "amount"),
        vec![
            row("2025-Q4", "interest", "14.40"),
            row("2026-Q1", "interest", "1.26")
        ]
    );
    assert_eq!(
        rows(&first["allocations"], "amount"),
        vec![
            row("2025-Q4", "tax", "360.00"),
            row("2025-Q4", "interest", "14.40"),
            row("2026-Q1", "tax", "125.60"),
        ]
    );
    assert_eq!(first["credit"], "0.00");
    // A retry with the key gets the first answer and posts nothing more.
    let res = app
        .call(Method::POST, &payments_of(&payor))
        .bearer(&clerk)
        .header("idempotency-key", "pay-a")
        .json(a)
        .send()
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(res.json::<Value>().await.unwrap(), first);

    app.set_now("2026-07-10T15:00:00Z");
    // As of a past date: what was posted by then, interest accrued to that date.
    let june = statement(&app, &clerk, &payor, "2026-06-30").await;
    let q1 = period(&june, "2026-Q1");
    assert_eq!(
        (
            &q1["charged"],
            &q1["paid"],
            &q1["interest_accrued"],
            &q1["balance"]
        ),
        (
            &json!("453.76"),
            &json!("125.60"),
            &json!("6.04"),
            &json!("334.20")
        )
    );
    assert_eq!(period(&june, "2025-Q4")["balance"], "0.00");
    assert_eq!(june["totals"]["balance"], "334.20");
    assert_eq!(june["payments"].as_array().unwrap().len(), 1);
    let before_any = statement(&app, &clerk, &payor, "2026-05-14").await;
    assert_eq!(before_any["payments"], json!([]));
    assert_eq!(period(&before_any, "2026-Q1")["paid"], "0.00");

    let staff = app.token(STAFF).await;
    let res = pay(&app, &staff, &payor, json!({"received_on": "2026-07-10", "amount": "400.00", "method": "ach", "reference": "ACH 77120"})).await;
    assert_eq!(res.status(), 201);
    let b: Value = res.json().await.unwrap();
    assert_eq!(
        rows(&b["charges_posted"], "amount"),
        vec![
            row("2026-Q1", "interest", "9.06"),
            row("2026-Q1", "late_payment_forfeiture", "90.00"),
        ]
    );
    assert_eq!(
        rows(&b["allocations"], "amount"),
        vec![
            row("2026-Q1", "tax", "301.90"),
            row("2026-Q1", "interest", "10.32"),
            row("2026-Q1", "late_filing_fee", "25.00"),
            row("2026-Q1", "late_payment_forfeiture", "62.78"),
        ]
    );

    app.set_now("2026-07-20T15:00:00Z");
    let res = pay(&app, &clerk, &payor, json!({"received_on": "2026-07-20", "amount": "50.00", "method": "cash", "reference": "receipt 88"})).await;
    assert_eq!(res.status(), 201);
    let c: Value = res.json().await.unwrap();
    assert_eq!(c["charges_posted"], json!([]));
    assert_eq!(
        rows(&c["allocations"], "amount"),
        vec![row("2026-Q1", "late_payment_forfeiture", "27.22")]
    );
    assert_eq!(c["credit"], "22.78");

    let now = statement(&app, &clerk, &payor, "2026-07-20").await;
    assert_eq!(
        (
            &now["totals"]["charged"],
            &now["totals"]["paid"],
            &now["totals"]["credit"],
            &now["totals"]["balance"]
        ),
        (
            &json!("927.22"),
            &json!("927.22"),
            &json!("22.78"),
            &json!("-22.78")
        )
    );
    let q1 = period(&now, "2026-Q1");
    assert_eq!(
        (&q1["interest_accrued"], &q1["balance"]),
        (&json!("0.00"), &json!("0.00"))
    );
    // CSV, as of the past date.
    let res = app
        .call(Method::GET, &account_of(&payor, "2026-06-30"))
        .bearer(&clerk)
        .header("accept", "text/csv")
        .send()
        .await;
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    assert_eq!(
        res.text().await.unwrap(),
        "period,due_date,charged,paid,interest_accrued,balance\r\n\
         2025-Q4,2026-01-31,374.40,374.40,0.00,0.00\r\n\
         2026-Q1,2026-04-30,453.76,125.60,6.04,334.20\r\n\
         credit,,,,,0.00\r\n\
         security_deposit,,,,,0.00\r\n\
         total,,828.16,500.00,6.04,334.20\r\n"
    );

    // Refused: a date in the future, before the latest payment, nothing paid.
    let res = pay(
        &app,
        &clerk,
        &payor,
        json!({"received_on": "2026-07-21", "amount": "0.00", "method": "check", "reference": " "}),
    )
    .await;
    let body = crate::helpers::assert_problem(res, 422, "validation-failed").await;
    let faults: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rule"].as_str().unwrap())
        .collect();
    assert_eq!(faults, ["in_the_future", "positive", "non_empty"]);
    let res = pay(
        &app,
        &clerk,
        &payor,
        json!({"received_on": "2026-07-01", "amount": "1.00", "method": "check", "reference": "1"}),
    )
    .await;
    let body = crate::helpers::assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["rule"], "before_latest_payment");
    // An amount beyond 12 digits before the point is refused at the edge, never held
    // (92233720368547758.07 is i64::MAX cents: two of them would overflow a journal).
    for huge in ["92233720368547758.07", "1000000000000.00"] {
        let res = pay(
            &app,
            &clerk,
            &payor,
            json!({"received_on": "2026-07-20", "amount": huge, "method": "check", "reference": "9"}),
        )
        .await;
        let body = crate::helpers::assert_problem(res, 400, "invalid-field-type").await;
        assert_eq!(body["errors"][0]["field"], "amount");
        let message = body["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains("at most 12 digits"), "{message}");
    }

    // Who reads: the payor's own operator only for its own payor; every read logged.
    let operator = app.token(OPERATOR).await;
    assert_eq!(
        app.get_as(&operator, &account_of(&payor, "2026-07-20"))
            .await
            .status(),
        404
    );
    let reads = crate::payors::log_of(&app, "montello", &payor)
        .into_iter()
        .filter(|e| e.record_type == "payor_account")
        .count();
    assert_eq!(reads, 4);
    check_passes(&app);
}

#[actix_web::test]
async fn a_bounced_check_is_reversed_by_a_new_journal_once() {
    let app = spawn_demo_app_at("2026-07-10T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Bounce Inn LLC").await;
    paper_return(
        &app,
        &clerk,
        &payor,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-05-01",
    )
    .await;
    // Paid in full on 2026-07-10: tax 427.50, interest 3 months 12.825 → 12.83, fee 25.00
    // (no previous year: no forfeiture) = 465.33.
    let res = pay(&app, &clerk, &payor, json!({"received_on": "2026-07-10", "amount": "465.33", "method": "check", "reference": "2002"})).await;
    assert_eq!(res.status(), 201);
    let paid: Value = res.json().await.unwrap();
    assert_eq!(paid["credit"], "0.00");
    let id = paid["id"].as_str().unwrap().to_owned();
    let reversal = format!("{}/{id}/reversal", payments_of(&payor));

    app.set_now("2026-07-20T15:00:00Z");
    let res = app
        .call(Method::POST, &reversal)
        .bearer(&clerk)
        .json(json!({"reason": ""}))
        .send()
        .await;
    crate::helpers::assert_problem(res, 422, "validation-failed").await;
    let res = app
        .call(Method::POST, &reversal)
        .bearer(&clerk)
        .json(json!({"reason": "returned: insufficient funds"}))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        (&body["amount"], &body["reversed_on"]),
        (&json!("465.33"), &json!("2026-07-20"))
    );
    let res = app
        .call(Method::POST, &reversal)
        .bearer(&clerk)
        .json(json!({"reason": "again"}))
        .send()
        .await;
    let body = crate::helpers::assert_problem(res, 409, "conflict").await;
    assert_eq!(body["errors"][0]["rule"], "already_reversed");
    // An operator may not reverse (403); a payment of another payor is not found.
    let operator = app.token(OPERATOR).await;
    let res = app
        .call(Method::POST, &reversal)
        .bearer(&operator)
        .json(json!({"reason": "x"}))
        .send()
        .await;
    assert_eq!(res.status(), 403);
    let other = format!("{}/{id}/reversal", payments_of(crate::returns::MOTEL));
    let res = app
        .call(Method::POST, &other)
        .bearer(&clerk)
        .json(json!({"reason": "x"}))
        .send()
        .await;
    assert_eq!(res.status(), 404);

    // The day before the reversal the period was paid; on its day it is owed again,
    // the interest withdrawn and accrued again (3 months to 2026-07: 12.83).
    let before = statement(&app, &clerk, &payor, "2026-07-19").await;
    assert_eq!(before["totals"]["balance"], "0.00");
    assert_eq!(before["payments"][0]["reversed_on"], Value::Null);
    let after = statement(&app, &clerk, &payor, "2026-07-20").await;
    let q1 = period(&after, "2026-Q1");
    assert_eq!(
        (&q1["paid"], &q1["interest_accrued"], &q1["balance"]),
        (&json!("0.00"), &json!("12.83"), &json!("465.33"))
    );
    assert_eq!(after["payments"][0]["reversed_on"], "2026-07-20");
    // The ledger kept both journals: nothing was updated.
    let mut owner = app.owner_conn();
    let m = roomtax::db::municipalities::by_slug(&mut owner, "montello")
        .unwrap()
        .unwrap();
    let journals = roomtax::db::ledger::of_cause(&mut owner, m.id, "payment", &id).unwrap();
    let kinds: Vec<&str> = journals.iter().map(|j| j.kind.as_str()).collect();
    assert_eq!(kinds, ["payment", "payment_reversed"]);
    check_passes(&app);
}

#[actix_web::test]
async fn payments_posted_at_once_to_one_account_each_apply_exactly_once() {
    // SQLite: write units serialise (BEGIN IMMEDIATE). PostgreSQL: the payor's row
    // is locked (SELECT ... FOR NO KEY UPDATE) before its accounts are read, so a
    // second payment waits for the first and reads its journal.
    // 2026-Q1 tax 427.50, filed on time; eight payments of 60.00 on 2026-04-25 (before
    // the due date: no interest), sent at once by the clerk and staff: 480.00 in all,
    // 427.50 to tax and 52.50 held as credit, whatever the order. Were two of them to
    // read the accounts before either posted, both would settle the same tax and the
    // tax would be overpaid with less credit.
    let app = spawn_demo_app_at("2026-04-25T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    let payor = new_payor(&app, &clerk, "Race Lodge LLC").await;
    paper_return(
        &app,
        &clerk,
        &payor,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-04-20",
    )
    .await;
    let sends = (0..8).map(|i| {
        let token = if i % 2 == 0 { &clerk } else { &staff };
        let body = json!({"received_on": "2026-04-25", "amount": "60.00", "method": "check", "reference": format!("R{i}")});
        pay(&app, token, &payor, body)
    });
    let answers = futures_util::future::join_all(sends).await;
    let mut credit = Vec::new();
    for res in answers {
        assert_eq!(res.status().as_u16(), 201);
        let body: Value = res.json().await.unwrap();
        credit.push(body["credit"].as_str().unwrap().to_owned());
    }
    credit.sort();
    // Seven settle tax (7 × 60.00 = 420.00, the seventh leaving 7.50 of it), the
    // eighth pays 7.50 and leaves 52.50.
    assert_eq!(
        credit.iter().filter(|c| *c == "0.00").count(),
        7,
        "{credit:?}"
    );
    assert_eq!(credit.last().unwrap(), "52.50");
    let now = statement(&app, &clerk, &payor, "2026-04-25").await;
    assert_eq!(
        (
            &now["totals"]["paid"],
            &now["totals"]["credit"],
            &now["totals"]["balance"]
        ),
        (&json!("427.50"), &json!("52.50"), &json!("-52.50"))
    );
    assert_eq!(now["payments"].as_array().unwrap().len(), 8);
    check_passes(&app);
}

#[actix_web::test]
async fn on_postgresql_a_payment_waits_while_another_unit_holds_the_payors_lock() {
    // What makes the race above safe on PostgreSQL, shown deterministically: while
    // another transaction holds the payor's row lock, a payment does not read the
    // accounts; it goes on when that transaction ends.
    let app = spawn_demo_app_at("2026-04-25T15:00:00Z").await;
    if crate::helpers::skip_unless_postgres(&app.db, "a_payment_waits_for_the_payors_lock") {
        return;
    }
    use diesel::RunQueryDsl;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Locked Lodge LLC").await;
    paper_return(
        &app,
        &clerk,
        &payor,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-04-20",
    )
    .await;
    let mut owner = app.owner_conn();
    let m = roomtax::db::municipalities::by_slug(&mut owner, "montello")
        .unwrap()
        .unwrap();
    diesel::sql_query("BEGIN").execute(&mut owner).unwrap();
    roomtax::db::payments::lock_payor(&mut owner, m.id, &payor).unwrap();
    let pending = actix_web::rt::spawn(
        app.client
            .post(app.url(&payments_of(&payor)))
            .bearer_auth(&clerk)
            .json(&json!({"received_on": "2026-04-25", "amount": "60.00", "method": "check", "reference": "L1"}))
            .send(),
    );
    actix_web::rt::time::sleep(std::time::Duration::from_millis(800)).await;
    assert!(
        !pending.is_finished(),
        "the payment did not wait for the lock"
    );
    diesel::sql_query("COMMIT").execute(&mut owner).unwrap();
    let res = pending.await.unwrap().unwrap();
    assert_eq!(res.status().as_u16(), 201);
}

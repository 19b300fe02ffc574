//! A payment reversed after its credit was applied or refunded (a bounced
//! check whose overpayment was already used): the whole payment is taken
//! back, the credit never goes negative, on both backends.
//!
//! Hand computation (Montello: 4.5 %; interest 1 % a month from the due date
//! to the first of the month after payment; refund interest likewise to the
//! month after the refund). A new payor's 2026-Q1 paper return: gross
//! 10,000.00, exempt 500.00 → tax 427.50, due 2026-04-30, received
//! 2026-04-20 (on time, no fee). Payment P by check on 2026-04-25 (before
//! the due date: no interest).
//!
//! A. P = 500.00: 427.50 to tax, 72.50 held. The 2026-Q2 return (gross
//!    2,000.00 → 90.00, due 2026-07-31) is filed 2026-07-20: the credit,
//!    deposited 2026-04-25, pays 72.50 of its tax with no interest; 17.50
//!    owed. P bounces, reversed 2026-07-25: nothing of its credit is held,
//!    so the application is undone: Q2 tax 72.50 owed again. As of
//!    2026-07-25: Q1 tax 427.50 unpaid, interest 3 months (04 → 07) 12.825 →
//!    12.83, balance 440.33; Q2 tax 90.00 unpaid (before its due date: no
//!    interest), balance 90.00; credit 0.00; total 530.33.
//! B. P = 500.00 (72.50 held), refunded in full 2026-06-15 (interest 2
//!    months 1.45, paid out 73.95). P reversed 2026-06-20: the 72.50 refunded
//!    is owed back, `refund_reclaimed` in 2026-Q1. As of 2026-06-20: Q1 tax
//!    427.50 + interest accrued 2 months 8.55 + 72.50 = 508.55. A payment of
//!    508.55 that day pays it all: tax 427.50, interest posted 8.55, the
//!    refund owed back 72.50 (a fee's place in the order); credit 0.00.
//! C. P = 600.00 (172.50 held); 50.00 refunded 2026-06-15 (interest 1.00);
//!    the Q2 return filed 2026-07-20 takes 90.00 of the 122.50 (no
//!    interest); 32.50 held. P reversed 2026-07-25: 32.50 from the credit
//!    held, 90.00 from the application (Q2 tax owed again), 50.00 from the
//!    refund (owed back): 172.50. As of 2026-07-25: Q1 427.50 + 12.83 +
//!    50.00 = 490.33, Q2 90.00, credit 0.00, total 580.33.

use reqwest::Method;
use serde_json::{Value, json};

use super::payments::{check_passes, new_payor, paper_return, pay, payments_of, period, statement};
use super::roomtax;
use crate::helpers::{TestApp, check::assert_problem, spawn_demo_app_at};
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

fn cp(a: &str, b: &str) -> (String, String) {
    (a.to_owned(), b.to_owned())
}

fn amounts(list: &Value) -> Vec<(String, String)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|x| {
            let what = match x.get("component") {
                Some(c) => format!("{} {}", x["period"].as_str().unwrap(), c.as_str().unwrap()),
                None => x["period"].as_str().unwrap().to_owned(),
            };
            (what, x["amount"].as_str().unwrap().to_owned())
        })
        .collect()
}

/// A payor with its 2026-Q1 return and P of `amount` on 2026-04-25: P's id.
pub(super) async fn paid_ahead(
    app: &TestApp,
    clerk: &str,
    name: &str,
    amount: &str,
) -> (String, String) {
    let payor = new_payor(app, clerk, name).await;
    app.set_now("2026-04-20T15:00:00Z");
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
    let res = pay(
        app,
        clerk,
        &payor,
        json!({"received_on": "2026-04-25", "amount": amount, "method": "check", "reference": "1041"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let p: Value = res.json().await.unwrap();
    // Recorded the day received: nothing applied after it.
    assert_eq!(p["credit_applied"], Value::Null, "{p}");
    assert_eq!(p["credit_held"], p["credit"]);
    (payor, p["id"].as_str().unwrap().to_owned())
}

pub(super) async fn q2_filed(app: &TestApp, clerk: &str, payor: &str) {
    app.set_now("2026-07-20T15:00:00Z");
    paper_return(
        app,
        clerk,
        payor,
        "2026-Q2",
        "2000.00",
        "0.00",
        "2026-07-20",
    )
    .await;
}

pub(super) async fn refunded(
    app: &TestApp,
    clerk: &str,
    payor: &str,
    amount: &str,
) -> reqwest::Response {
    app.call(
        Method::POST,
        &format!("/v1/municipalities/montello/payors/{payor}/refunds"),
    )
    .bearer(clerk)
    .json(json!({
        "refunded_on": "2026-06-15", "amount": amount, "method": "check",
        "reference": "R-1", "overpayment_intentional_or_careless": false, "period": "2026-Q1"
    }))
    .send()
    .await
}

pub(super) async fn reverse(
    app: &TestApp,
    clerk: &str,
    payor: &str,
    id: &str,
    on: &str,
) -> reqwest::Response {
    app.call(
        Method::POST,
        &format!("{}/{id}/reversal", payments_of(payor)),
    )
    .bearer(clerk)
    .json(json!({"reversed_on": on, "reason": "returned: insufficient funds"}))
    .send()
    .await
}

async fn reversed(app: &TestApp, clerk: &str, payor: &str, id: &str, on: &str) -> Value {
    let res = reverse(app, clerk, payor, id, on).await;
    let status = res.status();
    let text = res.text().await.unwrap();
    assert_eq!(status, 201, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[actix_web::test]
async fn a_reversal_after_credit_paid_a_later_return_reopens_that_return() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let (payor, id) = paid_ahead(&app, &clerk, "Bounce Applied LLC", "500.00").await;
    q2_filed(&app, &clerk, &payor).await;
    let before = statement(&app, &clerk, &payor, "2026-07-20").await;
    assert_eq!(
        comp(period(&before, "2026-Q2"), "tax"),
        cp("90.00", "72.50")
    );
    assert_eq!(before["totals"]["credit"], "0.00");

    app.set_now("2026-07-25T15:00:00Z");
    let r = reversed(&app, &clerk, &payor, &id, "2026-07-25").await;
    assert_eq!(
        (&r["amount"], &r["overpayment"]),
        (&json!("500.00"), &json!("72.50"))
    );
    assert_eq!(r["credit_withdrawn"], "0.00");
    assert_eq!(amounts(&r["reopened"]), vec![cp("2026-Q2 tax", "72.50")]);
    assert_eq!(r["refund_reclaimed"], json!([]));

    let after = statement(&app, &clerk, &payor, "2026-07-25").await;
    let q1 = period(&after, "2026-Q1");
    assert_eq!(comp(q1, "tax"), cp("427.50", "0.00"), "{q1}");
    assert_eq!(
        (&q1["interest_accrued"], &q1["balance"]),
        (&json!("12.83"), &json!("440.33"))
    );
    let q2 = period(&after, "2026-Q2");
    assert_eq!(comp(q2, "tax"), cp("90.00", "0.00"), "{q2}");
    assert_eq!(q2["balance"], "90.00");
    assert_eq!(after["totals"]["credit"], "0.00");
    assert_eq!(after["totals"]["balance"], "530.33");
    check_passes(&app);
}

#[actix_web::test]
async fn a_reversal_after_its_credit_was_refunded_makes_the_refund_owed_back() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let (payor, id) = paid_ahead(&app, &clerk, "Bounce Refunded LLC", "500.00").await;
    app.set_now("2026-06-15T15:00:00Z");
    let res = refunded(&app, &clerk, &payor, "72.50").await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());

    app.set_now("2026-06-20T15:00:00Z");
    let r = reversed(&app, &clerk, &payor, &id, "2026-06-20").await;
    assert_eq!(r["credit_withdrawn"], "0.00");
    assert_eq!(r["reopened"], json!([]));
    assert_eq!(
        amounts(&r["refund_reclaimed"]),
        vec![cp("2026-Q1", "72.50")]
    );

    let after = statement(&app, &clerk, &payor, "2026-06-20").await;
    let q1 = period(&after, "2026-Q1");
    assert_eq!(comp(q1, "tax"), cp("427.50", "0.00"), "{q1}");
    assert_eq!(comp(q1, "refund_reclaimed"), cp("72.50", "0.00"), "{q1}");
    assert_eq!(
        (&q1["interest_accrued"], &q1["balance"]),
        (&json!("8.55"), &json!("508.55"))
    );
    assert_eq!(after["totals"]["credit"], "0.00");
    assert_eq!(after["totals"]["balance"], "508.55");
    // The statement as of the day before shows the refund, not the claim.
    let day_before = statement(&app, &clerk, &payor, "2026-06-19").await;
    assert_eq!(
        comp(period(&day_before, "2026-Q1"), "refund_reclaimed"),
        cp("0.00", "0.00")
    );

    // Paid back that day: tax, its interest, then the refund owed back.
    let res = pay(&app, &clerk, &payor, json!({"received_on": "2026-06-20", "amount": "508.55", "method": "cash", "reference": "2"})).await;
    assert_eq!(res.status(), 201);
    let p: Value = res.json().await.unwrap();
    assert_eq!(
        amounts(&p["allocations"]),
        vec![
            cp("2026-Q1 tax", "427.50"),
            cp("2026-Q1 interest", "8.55"),
            cp("2026-Q1 refund_reclaimed", "72.50")
        ]
    );
    assert_eq!(
        (&p["credit"], &p["credit_held"]),
        (&json!("0.00"), &json!("0.00"))
    );
    let settled = statement(&app, &clerk, &payor, "2026-06-20").await;
    assert_eq!(settled["totals"]["balance"], "0.00");
    check_passes(&app);
}

#[actix_web::test]
async fn a_reversal_after_both_takes_from_held_then_applied_then_refunded() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let (payor, id) = paid_ahead(&app, &clerk, "Bounce Both LLC", "600.00").await;
    app.set_now("2026-06-15T15:00:00Z");
    let res = refunded(&app, &clerk, &payor, "50.00").await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    q2_filed(&app, &clerk, &payor).await;
    let before = statement(&app, &clerk, &payor, "2026-07-20").await;
    assert_eq!(before["totals"]["credit"], "32.50");

    // Dated before the application it must undo: refused, naming the rule.
    app.set_now("2026-07-25T15:00:00Z");
    let res = reverse(&app, &clerk, &payor, &id, "2026-07-01").await;
    let problem = assert_problem(res, 422, "validation-failed", Some("reversed_on")).await;
    assert_eq!(problem["errors"][0]["rule"], "before_credit_used");

    let r = reversed(&app, &clerk, &payor, &id, "2026-07-25").await;
    assert_eq!(r["overpayment"], "172.50");
    assert_eq!(r["credit_withdrawn"], "32.50");
    assert_eq!(amounts(&r["reopened"]), vec![cp("2026-Q2 tax", "90.00")]);
    assert_eq!(
        amounts(&r["refund_reclaimed"]),
        vec![cp("2026-Q1", "50.00")]
    );

    let after = statement(&app, &clerk, &payor, "2026-07-25").await;
    let q1 = period(&after, "2026-Q1");
    assert_eq!(comp(q1, "tax"), cp("427.50", "0.00"), "{q1}");
    assert_eq!(comp(q1, "refund_reclaimed"), cp("50.00", "0.00"), "{q1}");
    assert_eq!(q1["balance"], "490.33");
    assert_eq!(comp(period(&after, "2026-Q2"), "tax"), cp("90.00", "0.00"));
    assert_eq!(after["totals"]["credit"], "0.00");
    assert_eq!(after["totals"]["balance"], "580.33");
    check_passes(&app);
}

/// A balanced journal past the service that takes a payor's credit below
/// zero (it debits the credit, credits cash) is named by `roomtax check`
/// (the only invariant it breaks: known kind, cause and accounts).
#[actix_web::test]
async fn the_check_names_a_credit_taken_below_zero() {
    use diesel::prelude::*;
    use roomtax::db::{
        ledger::{JournalRow, LineRow},
        schema::{ledger_journals, ledger_lines},
    };
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let (payor, id) = paid_ahead(&app, &clerk, "Tampered Credit LLC", "500.00").await;
    let mut owner = app.owner_conn();
    let m = roomtax::db::municipalities::by_slug(&mut owner, "montello")
        .unwrap()
        .unwrap();
    let journal = JournalRow {
        municipality_id: m.id,
        id: "tampered-credit".into(),
        posted_on: chrono::NaiveDate::from_ymd_opt(2026, 4, 26).unwrap(),
        kind: "credit_applied".into(),
        cause_type: "payment".into(),
        cause_id: id.clone(),
        memo: "m".into(),
        created_at: chrono::Utc::now().naive_utc(),
    };
    diesel::insert_into(ledger_journals::table)
        .values(&journal)
        .execute(&mut owner)
        .unwrap();
    for (line_no, account, amount_cents) in [
        (1, format!("payor:{payor}:credit"), 10000),
        (2, "municipality:cash".to_owned(), -10000),
    ] {
        diesel::insert_into(ledger_lines::table)
            .values(LineRow {
                municipality_id: m.id,
                journal_id: journal.id.clone(),
                line_no,
                account,
                amount_cents,
            })
            .execute(&mut owner)
            .unwrap();
    }
    let out = roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "a negative credit passed: {stdout}");
    let broken: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("BROKEN: "))
        .collect();
    assert_eq!(
        broken,
        [format!(
            "BROKEN: montello: payor {payor}'s credit is negative as of 2026-04-26 (journal(s) tampered-credit debit it beyond what is held)"
        )],
        "{stdout}"
    );
}

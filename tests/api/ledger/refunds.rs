//! Refunds of credit and credit applied to later charges, from the clerk's
//! side, on both backends.
//!
//! Hand computation (Montello: 4.5 %; refund interest 1 % a month "from the
//! due date of the return until the first day of the month following the
//! month in which said taxes are refunded", counted in whole months:
//! `(12·y(refund) + m(refund)) − (12·y(due) + m(due))`). A new payor's
//! 2026-Q1 paper return: gross 10,000.00, exempt 500.00 → tax 427.50, due
//! 2026-04-30, received 2026-04-20 (on time).
//! - Overpaid: 500.00 on 2026-04-25 (before the due date: no interest):
//!   427.50 to tax, 72.50 held as credit.
//! - Refunded 2026-06-15: months (2026·12 + 6) − (2026·12 + 4) = 2; 72.50 ×
//!   1 % × 2 = 1.45 of interest; paid out 73.95; the journal debits the
//!   credit 72.50 and the refund interest expense 1.45, credits cash 73.95.
//! - The same refund where the clerk finds the overpayment careless: no
//!   interest, 72.50 paid out.
//! - Amended down instead (2026-05-10, gross 9,000.00 → 8,500.00 × 4.5 % =
//!   382.50): the 45.00 paid beyond the new tax moves to credit; refunded
//!   2026-07-02: 3 months (7 − 4), 45.00 × 3 % = 1.35, paid out 46.35.
//! - A later return instead: 2026-Q2 gross 2,000.00 → 90.00, filed
//!   2026-07-20 (due 2026-07-31): the 72.50 of credit pays 72.50 of its tax
//!   (before its due date: no interest), 17.50 owed, nothing left to refund.

use reqwest::Method;
use serde_json::{Value, json};

use super::payments::{check_passes, new_payor, paper_return, pay, period, statement};
use crate::helpers::{TestApp, check::assert_problem, spawn_demo_app_at};
use crate::returns::{CLERK, filing, returns_of};

const STAFF: &str = "staff@montello.demo";

fn refunds_of(slug: &str, payor: &str) -> String {
    format!("/v1/municipalities/{slug}/payors/{payor}/refunds")
}

async fn refund(
    app: &TestApp,
    token: &str,
    slug: &str,
    payor: &str,
    body: Value,
) -> reqwest::Response {
    app.call(Method::POST, &refunds_of(slug, payor))
        .bearer(token)
        .json(body)
        .send()
        .await
}

fn body(on: &str, amount: &str, careless: bool) -> Value {
    json!({
        "refunded_on": on,
        "amount": amount,
        "method": "check",
        "reference": "R-2001",
        "overpayment_intentional_or_careless": careless,
        "period": "2026-Q1"
    })
}

fn rules(problem: &Value) -> Vec<(String, String)> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap().to_owned(),
                e["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn journal_lines(refund: &Value) -> Vec<(String, String)> {
    refund["journal"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["account"].as_str().unwrap().to_owned(),
                l["amount"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// A Montello payor with its 2026-Q1 return (tax 427.50) overpaid by 72.50.
async fn overpaid(app: &TestApp, clerk: &str) -> String {
    let payor = new_payor(app, clerk, "Refund Lodge LLC").await;
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
        json!({"received_on": "2026-04-25", "amount": "500.00", "method": "check", "reference": "1041"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let paid: Value = res.json().await.unwrap();
    assert_eq!(paid["credit"], "72.50");
    payor
}

#[actix_web::test]
async fn montello_refunds_an_overpayment_with_interest_to_the_month_after_the_refund() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = overpaid(&app, &clerk).await;
    app.set_now("2026-06-15T15:00:00Z");

    // More than the credit held: refused, naming the field and the rule.
    let res = refund(
        &app,
        &clerk,
        "montello",
        &payor,
        body("2026-06-15", "72.51", false),
    )
    .await;
    let problem = assert_problem(res, 422, "validation-failed", Some("amount")).await;
    assert_eq!(
        rules(&problem),
        [("amount".into(), "exceeds_credit".into())]
    );
    // A period with no return of the payor, a date to come: every fault at once.
    let mut bad = body("2026-06-16", "72.50", false);
    bad["period"] = json!("2025-Q3");
    let res = refund(&app, &clerk, "montello", &payor, bad).await;
    let problem = assert_problem(res, 422, "validation-failed", None).await;
    assert_eq!(
        rules(&problem),
        [("refunded_on".into(), "in_the_future".into())]
    );
    let mut bad = body("2026-06-15", "10.00", false);
    bad["period"] = json!("2025-Q3");
    let res = refund(&app, &clerk, "montello", &payor, bad).await;
    let problem = assert_problem(res, 422, "validation-failed", None).await;
    assert_eq!(rules(&problem), [("period".into(), "no_return".into())]);

    let send = |key: &'static str| {
        app.call(Method::POST, &refunds_of("montello", &payor))
            .bearer(&clerk)
            .header("idempotency-key", key)
            .json(body("2026-06-15", "72.50", false))
            .send()
    };
    let res = send("refund-1").await;
    assert_eq!(res.status(), 201);
    assert_eq!(
        res.headers()["location"],
        format!("/v1/municipalities/montello/payors/{payor}/account").as_str()
    );
    let first: Value = res.json().await.unwrap();
    // 72.50 × 1 % × 2 months = 1.45.
    assert_eq!(first["interest"]["amount"], "1.45", "{first}");
    assert!(
        first["interest"]["citation"]
            .as_str()
            .unwrap()
            .contains("refunded taxes shall bear interest")
    );
    assert!(
        first["interest"]["explanation"]
            .as_str()
            .unwrap()
            .contains("2 month(s)")
    );
    assert_eq!(first["paid_out"], "73.95");
    assert_eq!(first["credit_left"], "0.00");
    assert_eq!(first["return_incomplete"], false);
    assert_eq!(first["journal"]["kind"], "refund");
    assert_eq!(
        journal_lines(&first),
        [
            (format!("payor:{payor}:credit"), "72.50".to_owned()),
            (
                "municipality:refund_interest_expense".to_owned(),
                "1.45".to_owned()
            ),
            ("municipality:cash".to_owned(), "-73.95".to_owned()),
        ]
    );
    // A retry with the same key answers the first refund; nothing is paid twice.
    let again: Value = send("refund-1").await.json().await.unwrap();
    assert_eq!(again["id"], first["id"]);
    // Nothing is left to refund.
    let res = refund(
        &app,
        &clerk,
        "montello",
        &payor,
        body("2026-06-15", "0.01", false),
    )
    .await;
    assert_problem(res, 422, "validation-failed", Some("amount")).await;

    // The statement: as of the refund no credit and the refund listed; the day
    // before, the 72.50 still held.
    let now = statement(&app, &clerk, &payor, "2026-06-15").await;
    assert_eq!(now["totals"]["credit"], "0.00");
    assert_eq!(now["totals"]["balance"], "0.00");
    let refunds = now["refunds"].as_array().unwrap();
    assert_eq!(refunds.len(), 1);
    assert_eq!(
        (
            &refunds[0]["amount"],
            &refunds[0]["interest"],
            &refunds[0]["period"]
        ),
        (&json!("72.50"), &json!("1.45"), &json!("2026-Q1"))
    );
    let before = statement(&app, &clerk, &payor, "2026-06-14").await;
    assert_eq!(before["totals"]["credit"], "72.50");
    assert!(before["refunds"].as_array().unwrap().is_empty());
    check_passes(&app);
    let out = super::roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("1 refund(s) each have one journal"),
        "{stdout}"
    );
}

#[actix_web::test]
async fn no_refund_interest_where_the_clerk_finds_the_overpayment_careless() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    let payor = overpaid(&app, &clerk).await;
    app.set_now("2026-06-15T15:00:00Z");
    // Staff may refund too; part of the credit: 50.00 of the 72.50.
    let res = refund(
        &app,
        &staff,
        "montello",
        &payor,
        body("2026-06-15", "50.00", true),
    )
    .await;
    assert_eq!(res.status(), 201);
    let r: Value = res.json().await.unwrap();
    assert_eq!(r["interest"]["amount"], "0.00");
    assert!(
        r["interest"]["explanation"]
            .as_str()
            .unwrap()
            .contains("carelessness or neglect"),
        "{r}"
    );
    assert_eq!(r["paid_out"], "50.00");
    assert_eq!(r["credit_left"], "22.50");
    assert_eq!(
        journal_lines(&r),
        [
            (format!("payor:{payor}:credit"), "50.00".to_owned()),
            ("municipality:cash".to_owned(), "-50.00".to_owned()),
        ]
    );
    // The operator may not refund (its own account or not): not one of the writers.
    let operator = app.token(crate::returns::OPERATOR).await;
    let res = refund(
        &app,
        &operator,
        "montello",
        &payor,
        body("2026-06-15", "1.00", false),
    )
    .await;
    assert_eq!(res.status(), 403);
    let now = statement(&app, &clerk, &payor, "2026-06-15").await;
    assert_eq!(now["totals"]["credit"], "22.50");
    check_passes(&app);
}

#[actix_web::test]
async fn an_amendment_down_after_payment_is_credit_refunded_with_interest() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Amended Lodge LLC").await;
    let mut original = filing("2026-Q1", "10000.00", "500.00");
    original["received_on"] = json!("2026-04-20");
    let res = app
        .call(Method::POST, &returns_of(&payor))
        .bearer(&clerk)
        .json(original)
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let filed: Value = res.json().await.unwrap();
    let path = format!("{}/{}", returns_of(&payor), filed["id"].as_str().unwrap());
    app.set_now("2026-04-25T15:00:00Z");
    let res = pay(
        &app,
        &clerk,
        &payor,
        json!({"received_on": "2026-04-25", "amount": "427.50", "method": "ach", "reference": "T-1"}),
    )
    .await;
    assert_eq!(res.json::<Value>().await.unwrap()["credit"], "0.00");

    app.set_now("2026-05-10T15:00:00Z");
    let mut amended = filing("2026-Q1", "9000.00", "500.00");
    amended["received_on"] = json!("2026-05-10");
    let res = app
        .call(Method::POST, &format!("{path}/amendments"))
        .bearer(&clerk)
        .header("if-match", &etag)
        .json(amended)
        .send()
        .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    // 427.50 − 45.00 = 382.50 charged and paid, 45.00 held as credit.
    let account = statement(&app, &clerk, &payor, "2026-05-10").await;
    let q1 = period(&account, "2026-Q1");
    let tax = &q1["components"][0];
    assert_eq!(
        (&tax["component"], &tax["charged"], &tax["paid"]),
        (&json!("tax"), &json!("382.50"), &json!("382.50"))
    );
    assert_eq!(account["totals"]["credit"], "45.00");
    assert_eq!(account["totals"]["balance"], "-45.00");

    app.set_now("2026-07-02T15:00:00Z");
    let res = refund(
        &app,
        &clerk,
        "montello",
        &payor,
        body("2026-07-02", "45.00", false),
    )
    .await;
    assert_eq!(res.status(), 201);
    let r: Value = res.json().await.unwrap();
    // 45.00 × 1 % × 3 months (2026-04 → 2026-07) = 1.35.
    assert_eq!(
        (&r["interest"]["amount"], &r["paid_out"]),
        (&json!("1.35"), &json!("46.35"))
    );
    let after = statement(&app, &clerk, &payor, "2026-07-02").await;
    assert_eq!(after["totals"]["credit"], "0.00");
    assert_eq!(after["totals"]["balance"], "0.00");
    check_passes(&app);
}

#[actix_web::test]
async fn credit_held_pays_the_next_return_when_it_is_filed() {
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
    // 90.00 of Q2 tax: 72.50 paid from the credit, 17.50 owed; nothing held.
    let account = statement(&app, &clerk, &payor, "2026-07-20").await;
    let q2 = period(&account, "2026-Q2");
    assert_eq!(
        (&q2["charged"], &q2["paid"], &q2["balance"]),
        (&json!("90.00"), &json!("72.50"), &json!("17.50"))
    );
    assert_eq!(account["totals"]["credit"], "0.00");
    assert_eq!(account["totals"]["balance"], "17.50");
    // The credit is gone: a refund now, or one dated back to when it was held, is refused.
    for on in ["2026-07-20", "2026-07-01"] {
        let res = refund(&app, &clerk, "montello", &payor, body(on, "1.00", false)).await;
        assert_problem(res, 422, "validation-failed", Some("amount")).await;
    }
    // The application is one credit_applied journal, caused by the new return's version.
    let mut owner = app.owner_conn();
    let kinds: Vec<String> = super::all_journals(&mut owner)
        .into_iter()
        .filter(|j| j.kind == "credit_applied")
        .map(|j| j.cause_type)
        .collect();
    assert_eq!(kinds, ["return_version"]);
    check_passes(&app);
}

/// A Hayward payor registered by Hayward's clerk.
async fn hayward_payor(app: &TestApp, clerk: &str) -> String {
    let mut body = crate::payors::new_payor("Hayward Refund Inn LLC");
    body["annual_election"] = json!("calendar");
    body["mailing_address"] = json!("PO Box 9\nHayward, WI 54843");
    body.as_object_mut()
        .unwrap()
        .remove("fiscal_year_end_month");
    let res = app
        .call(Method::POST, "/v1/municipalities/hayward/payors")
        .bearer(clerk)
        .json(body)
        .send()
        .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[actix_web::test]
async fn hayward_refunds_credit_without_interest() {
    // Hayward: 4 %; 2026-Q1 gross 10,000.00, exempt 500.00 → 380.00 (no collection
    // fee); paid 400.00 on 2026-04-25: 20.00 of credit; refunded 2026-09-15 with
    // no interest (the ordinance has none), 20.00 paid out.
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token("clerk@hayward.demo").await;
    let payor = hayward_payor(&app, &clerk).await;
    let mut original = filing("2026-Q1", "10000.00", "500.00");
    original["received_on"] = json!("2026-04-20");
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/hayward/payors/{payor}/returns"),
        )
        .bearer(&clerk)
        .json(original)
        .send()
        .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    app.set_now("2026-04-25T15:00:00Z");
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/hayward/payors/{payor}/payments"),
        )
        .bearer(&clerk)
        .json(json!({"received_on": "2026-04-25", "amount": "400.00", "method": "cash", "reference": "C-7"}))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    assert_eq!(res.json::<Value>().await.unwrap()["credit"], "20.00");
    app.set_now("2026-09-15T15:00:00Z");
    let res = refund(
        &app,
        &clerk,
        "hayward",
        &payor,
        body("2026-09-15", "20.00", false),
    )
    .await;
    assert_eq!(res.status(), 201);
    let r: Value = res.json().await.unwrap();
    assert_eq!(r["interest"]["amount"], "0.00");
    assert!(
        r["interest"]["explanation"]
            .as_str()
            .unwrap()
            .contains("no interest on refunds"),
        "{r}"
    );
    assert_eq!(r["paid_out"], "20.00");
    assert_eq!(journal_lines(&r).len(), 2);
    // Montello's clerk learns nothing of a Hayward payor.
    let montello = app.token(CLERK).await;
    let res = refund(
        &app,
        &montello,
        "hayward",
        &payor,
        body("2026-09-15", "1.00", false),
    )
    .await;
    assert_eq!(res.status(), 404);
    check_passes(&app);
}

#[actix_web::test]
async fn no_refund_interest_on_an_incomplete_montello_return() {
    // A Montello policy version from 2026-04-21 requiring a copy of the state
    // sales-tax return with each quarterly return (as Hayward's does): the 2026-Q2
    // return filed without it is `incomplete`, so its overpayment earns no interest.
    // Q2 gross 2,000.00 → 90.00, filed and paid 100.00 on 2026-07-20 (due
    // 2026-07-31): 10.00 of credit; refunded 2026-09-15 (2 months after the due
    // month: 0.20 were the return complete) with 0.00 of interest.
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let current: Value = app
        .get("/v1/municipalities/montello/policies/current")
        .await
        .json()
        .await
        .unwrap();
    let mut policy = current["policy"].clone();
    policy["effective_from"] = json!("2026-04-21");
    policy["required_attachments"] = json!([{
        "kind": "state_sales_tax_return",
        "returns": ["quarterly"],
        "description": "A copy of the State of Wisconsin Sales Tax Return for the quarter.",
        "citation": "test policy: a copy of the state sales-tax return with each quarterly return"
    }]);
    let res = app
        .call(Method::POST, "/v1/municipalities/montello/policies")
        .bearer(&clerk)
        .json(policy)
        .send()
        .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let payor = new_payor(&app, &clerk, "Incomplete Lodge LLC").await;
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
    let res = pay(
        &app,
        &clerk,
        &payor,
        json!({"received_on": "2026-07-20", "amount": "100.00", "method": "check", "reference": "9"}),
    )
    .await;
    assert_eq!(res.json::<Value>().await.unwrap()["credit"], "10.00");
    app.set_now("2026-09-15T15:00:00Z");
    let mut b = body("2026-09-15", "10.00", false);
    b["period"] = json!("2026-Q2");
    let res = refund(&app, &clerk, "montello", &payor, b).await;
    assert_eq!(res.status(), 201);
    let r: Value = res.json().await.unwrap();
    assert_eq!(r["return_incomplete"], true);
    assert_eq!(r["interest"]["amount"], "0.00");
    assert!(
        r["interest"]["explanation"]
            .as_str()
            .unwrap()
            .contains("complete return"),
        "{r}"
    );
    check_passes(&app);
}

#[actix_web::test]
async fn hostile_refund_bodies_are_refused_naming_the_field() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = overpaid(&app, &clerk).await;
    let with = |key: &str, value: Value| {
        let mut b = body("2026-04-25", "10.00", false);
        b[key] = value;
        b
    };
    // Malformed: 400 (an unknown field, wrong types, an amount that is no amount).
    for bad in [
        with("extra", json!(1)),
        with("amount", json!(10)),
        with("amount", json!("10.001")),
        with("amount", json!("1e3")),
        with("amount", json!("99999999999999999999999.00")),
        with("refunded_on", json!("2026-4-25")),
        with("overpayment_intentional_or_careless", json!("no")),
        with("method", json!("bitcoin")),
    ] {
        let res = refund(&app, &clerk, "montello", &payor, bad.clone()).await;
        assert_eq!(res.status(), 400, "{bad}");
    }
    // Well-formed but wrong: 422, every fault at once.
    let mut b = body("2026-04-26", "-1.00", false);
    b["reference"] = json!("   ");
    b["period"] = json!("2026-Q5");
    let res = refund(&app, &clerk, "montello", &payor, b).await;
    let problem = assert_problem(res, 422, "validation-failed", None).await;
    let mut fields: Vec<String> = rules(&problem).into_iter().map(|(f, _)| f).collect();
    fields.sort();
    assert_eq!(fields, ["amount", "period", "reference", "refunded_on"]);
    // An unknown payor: 404; nothing was posted.
    let res = refund(
        &app,
        &clerk,
        "montello",
        "00000000-0000-4000-8000-00000000dead",
        body("2026-04-25", "1.00", false),
    )
    .await;
    assert_eq!(res.status(), 404);
    let account = statement(&app, &clerk, &payor, "2026-04-25").await;
    assert_eq!(account["totals"]["credit"], "72.50");
    check_passes(&app);
}

#[actix_web::test]
async fn refunds_are_append_only_and_the_check_names_one_without_its_journal() {
    use diesel::prelude::*;
    use roomtax::db::schema::refunds;
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = overpaid(&app, &clerk).await;
    let res = refund(
        &app,
        &clerk,
        "montello",
        &payor,
        body("2026-04-25", "10.00", false),
    )
    .await;
    assert_eq!(res.status(), 201);
    let mut owner = app.owner_conn();
    // Even the owner cannot change or remove a refund: the trigger refuses.
    let err = diesel::update(refunds::table)
        .set(refunds::amount_cents.eq(1))
        .execute(&mut owner)
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
    let err = diesel::delete(refunds::table)
        .execute(&mut owner)
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
    if app.db.owner_url().is_some() {
        // PostgreSQL: the runtime role has no such privilege at all.
        let mut runtime = diesel::PgConnection::establish(app.db.url()).unwrap();
        for statement in [
            "UPDATE refunds SET amount_cents = 1",
            "DELETE FROM refunds",
            "TRUNCATE refunds",
        ] {
            let err = runtime
                .transaction::<(), diesel::result::Error, _>(|c| {
                    diesel::sql_query("SELECT set_config('app.municipality_id', '1', true)")
                        .execute(c)?;
                    diesel::sql_query(statement).execute(c).map(|_| ())
                })
                .unwrap_err();
            assert!(
                err.to_string().contains("permission denied"),
                "{statement}: {err}"
            );
        }
    }
    // A refund row inserted past the service, with no journal: the check names it.
    let mut forged: roomtax::db::refunds::RefundRow =
        refunds::table.get_result(&mut owner).unwrap();
    forged.id = "forged-refund".into();
    diesel::insert_into(refunds::table)
        .values(&forged)
        .execute(&mut owner)
        .unwrap();
    let out = super::roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("refund forged-refund has 0 refund journal(s) (expected one)"),
        "{stdout}"
    );
}

//! Security deposits from the clerk's side (Montello room tax, security ¶),
//! on both backends.
//!
//! Hand computation (Montello 4.5 %, interest 1 % a month from the due date
//! to the first of the month after payment). A new calendar-year payor, no
//! previous year (so no late-payment forfeiture ever):
//! - 2026-Q1: gross 10,000.00, federal exemption 500.00 → tax 9,500.00 ×
//!   0.045 = 427.50, filed on its due date 2026-04-30 (no fee), unpaid.
//! - 2026-05-01 the clerk requires 1,000.00 (5,000.01 would be above the
//!   maximum); 1,000.00 is received the same day; 0.01 more is refused.
//! - 2026-05-20 notice of application: "upon 10 days' notice", so the
//!   deposit may be applied from 2026-05-20 + 10 days = 2026-05-30; on
//!   2026-05-29 (day 9) it is refused, on 2026-05-30 (day 10) applied:
//!   tax 427.50 settled; interest on it 2026-04 → 2026-05 = 1 month,
//!   427.50 × 1 % = 4.275 → 4.28 posted and still owed; held 1,000.00 −
//!   427.50 = 572.50.
//! - return refused while the payor is open, then (closed 2026-05-30) while
//!   it owes the interest 4.28; after a payment of 4.28 the 572.50 held is
//!   returned.

use reqwest::Method;
use serde_json::{Value, json};

use super::{all_lines, sums};
use crate::helpers::{TestApp, assert_problem, spawn_demo_app_at};
use crate::returns::{CLERK, OPERATOR, file, filing};

pub(super) const HAYWARD_CLERK: &str = "clerk@hayward.demo";

/// A new calendar-year payor registered by `clerk` in `slug`.
pub(super) async fn new_payor(app: &TestApp, clerk: &str, slug: &str, name: &str) -> String {
    let mut body = crate::payors::new_payor(name);
    body["annual_election"] = json!("calendar");
    body.as_object_mut()
        .unwrap()
        .remove("fiscal_year_end_month");
    let res = app
        .call(Method::POST, &format!("/v1/municipalities/{slug}/payors"))
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

/// A paper return entered by the clerk of `slug`, received on `on`.
#[allow(clippy::too_many_arguments)]
pub(super) async fn paper_return(
    app: &TestApp,
    clerk: &str,
    slug: &str,
    payor: &str,
    period: &str,
    gross: &str,
    exempt: &str,
    on: &str,
) {
    let mut body = filing(period, gross, exempt);
    body["received_on"] = json!(on);
    let res = if slug == "montello" {
        file(app, clerk, payor, body).await
    } else {
        app.call(
            Method::POST,
            &format!("/v1/municipalities/{slug}/payors/{payor}/returns"),
        )
        .bearer(clerk)
        .json(body)
        .send()
        .await
    };
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
}

/// POST `body` to `path` as `token`.
pub(super) async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> reqwest::Response {
    app.call(Method::POST, path)
        .bearer(token)
        .json(body)
        .send()
        .await
}

/// Every journal sums to zero; returns the kinds of the journals posted.
pub(super) fn journals_balance(app: &TestApp) -> Vec<String> {
    use diesel::prelude::*;
    use roomtax::db::schema::ledger_journals::dsl::*;
    let mut owner = app.owner_conn();
    assert!(sums(&all_lines(&mut owner)).values().all(|s| *s == 0));
    ledger_journals.select(kind).load(&mut owner).unwrap()
}

fn deposits(payor: &str) -> String {
    format!("/v1/municipalities/montello/payors/{payor}/security-deposits")
}

#[actix_web::test]
async fn a_deposit_required_received_applied_after_ten_days_notice_and_returned_on_closing() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "montello", "Birch Bay Lodge LLC").await;
    paper_return(
        &app,
        &clerk,
        "montello",
        &payor,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-04-30",
    )
    .await;

    // Above the maximum and a blank reason: both faults at once.
    let res = post(
        &app,
        &clerk,
        &deposits(&payor),
        json!({"amount": "5000.01", "reason": " "}),
    )
    .await;
    let body = assert_problem(res, 422, "validation-failed").await;
    let rules: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["security_above_maximum", "non_empty"]);
    // A reason made only of invisible characters (a bidi override and a zero-width
    // space) is no reason, as in the registry.
    let res = post(
        &app,
        &clerk,
        &deposits(&payor),
        json!({"amount": "1000.00", "reason": "\u{202e}\u{200b}"}),
    )
    .await;
    let body = assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["field"], "reason");
    assert_eq!(body["errors"][0]["rule"], "non_empty");
    // The operator may not require one (it is related: 403).
    let operator = app.token(OPERATOR).await;
    let res = post(
        &app,
        &operator,
        &deposits(&payor),
        json!({"amount": "1000.00", "reason": "x"}),
    )
    .await;
    assert_eq!(res.status(), 403);

    let res = post(
        &app,
        &clerk,
        &deposits(&payor),
        json!({"amount": "1000.00", "reason": "two late returns in 2025"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let d: Value = res.json().await.unwrap();
    let id = d["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (&d["required"], &d["held"], &d["status"]),
        (&json!("1000.00"), &json!("0.00"), &json!("required"))
    );
    assert!(d["notice_id"].as_str().is_some_and(|n| !n.is_empty()));
    let one = format!("{}/{id}", deposits(&payor));

    let receipt = |amount: &str| json!({"received_on": "2026-05-01", "amount": amount, "method": "check", "reference": "2201"});
    let res = post(&app, &clerk, &format!("{one}/receipts"), receipt("1000.00")).await;
    assert_eq!(res.status(), 201);
    let r: Value = res.json().await.unwrap();
    assert_eq!(
        (&r["deposit"]["held"], &r["deposit"]["status"]),
        (&json!("1000.00"), &json!("held"))
    );
    let res = post(&app, &clerk, &format!("{one}/receipts"), receipt("0.01")).await;
    let body = assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["rule"], "above_required");

    // No notice yet.
    let res = post(&app, &clerk, &format!("{one}/applications"), json!({})).await;
    let body = assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["rule"], "no_application_notice");

    app.set_now("2026-05-20T15:00:00Z");
    let res = post(
        &app,
        &clerk,
        &format!("{one}/application-notices"),
        json!({}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let n: Value = res.json().await.unwrap();
    assert_eq!(n["deposit"]["applicable_from"], "2026-05-30");
    assert!(n["notice_id"].as_str().is_some());

    // Day 9 after the notice: refused, naming the first allowed date.
    app.set_now("2026-05-29T15:00:00Z");
    let res = post(&app, &clerk, &format!("{one}/applications"), json!({})).await;
    let body = assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["rule"], "before_notice_period");
    let detail = body["errors"][0]["message"].as_str().unwrap();
    assert!(
        detail.contains("2026-05-30") && detail.contains("security"),
        "{detail}"
    );

    // Day 10: applied to the tax only.
    app.set_now("2026-05-30T15:00:00Z");
    let res = post(&app, &clerk, &format!("{one}/applications"), json!({})).await;
    assert_eq!(res.status(), 201);
    let a: Value = res.json().await.unwrap();
    assert_eq!(a["applied"], "427.50");
    assert_eq!(
        a["allocations"],
        json!([{"period": "2026-Q1", "component": "tax", "amount": "427.50"}])
    );
    assert_eq!(a["charges_posted"][0]["component"], "interest");
    assert_eq!(a["charges_posted"][0]["amount"], "4.28");
    assert_eq!(a["charges_posted"].as_array().unwrap().len(), 1);
    assert_eq!(a["deposit"]["held"], "572.50");

    // The statement: tax paid, interest 4.28 owed.
    let res = app
        .get_as(
            &clerk,
            &format!("/v1/municipalities/montello/payors/{payor}/account"),
        )
        .await;
    let s: Value = res.json().await.unwrap();
    assert_eq!(s["totals"]["balance"], "4.28");

    // Return: the payor is open.
    let res = post(&app, &clerk, &format!("{one}/return"), json!({})).await;
    let body = assert_problem(res, 409, "conflict").await;
    assert_eq!(body["errors"][0]["rule"], "payor_not_closed");
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/montello/payors/{payor}/close"),
        )
        .bearer(&clerk)
        .header("if-match", "*")
        .json(json!({"closed_on": "2026-05-30"}))
        .send()
        .await;
    assert!(res.status().is_success(), "{}", res.text().await.unwrap());
    // Closed, but it owes the interest.
    let res = post(&app, &clerk, &format!("{one}/return"), json!({})).await;
    let body = assert_problem(res, 409, "conflict").await;
    assert_eq!(body["errors"][0]["rule"], "amount_owed");
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("2026-Q1 4.28")
    );

    let res = post(
        &app,
        &clerk,
        &format!("/v1/municipalities/montello/payors/{payor}/payments"),
        json!({"received_on": "2026-05-30", "amount": "4.28", "method": "cash", "reference": "r-9"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let res = post(&app, &clerk, &format!("{one}/return"), json!({})).await;
    assert_eq!(res.status(), 201);
    let back: Value = res.json().await.unwrap();
    assert_eq!(
        (
            &back["deposit"]["returned"],
            &back["deposit"]["held"],
            &back["deposit"]["status"]
        ),
        (&json!("572.50"), &json!("0.00"), &json!("returned"))
    );
    assert!(back["journal_id"].as_str().is_some());
    let res = post(&app, &clerk, &format!("{one}/return"), json!({})).await;
    assert_problem(res, 409, "conflict").await;

    // Staff read it; the demo operator (not this payor's) gets 404.
    let staff = app.token("staff@montello.demo").await;
    let res = app.get_as(&staff, &deposits(&payor)).await;
    assert_eq!(res.status(), 200);
    let list: Value = res.json().await.unwrap();
    assert_eq!(list["items"][0]["events"].as_array().unwrap().len(), 4);
    assert_eq!(app.get_as(&operator, &one).await.status(), 404);

    let mut kinds = journals_balance(&app);
    kinds.retain(|k| k.starts_with("security_"));
    kinds.sort();
    assert_eq!(
        kinds,
        ["security_applied", "security_received", "security_returned"]
    );
    // The check follows the three events that moved money to their journals.
    let out = super::roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("3 security event(s) that move money each have their journal"),
        "{stdout}"
    );
}

#[actix_web::test]
async fn hayward_has_no_security_deposit() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(HAYWARD_CLERK).await;
    let payor = new_payor(&app, &clerk, "hayward", "North Woods Motel LLC").await;
    let res = post(
        &app,
        &clerk,
        &format!("/v1/municipalities/hayward/payors/{payor}/security-deposits"),
        json!({"amount": "100.00", "reason": "new business"}),
    )
    .await;
    let body = assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["rule"], "security_not_provided");
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("Hayward")
    );
}

#[actix_web::test]
async fn an_operator_reads_its_own_deposit_and_may_not_touch_it() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let motel = crate::returns::MOTEL; // the demo operator's own payor
    let res = post(
        &app,
        &clerk,
        &deposits(motel),
        json!({"amount": "250.00", "reason": "new owner"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let operator = app.token(OPERATOR).await;
    let res = app.get_as(&operator, &deposits(motel)).await;
    assert_eq!(res.status(), 200);
    let list: Value = res.json().await.unwrap();
    assert_eq!(list["items"][0]["required"], "250.00");
    let one = format!("{}/{id}", deposits(motel));
    assert_eq!(app.get_as(&operator, &one).await.status(), 200);
    let res = post(
        &app,
        &operator,
        &format!("{one}/receipts"),
        json!({"received_on": "2026-05-01", "amount": "250.00", "method": "cash", "reference": "r"}),
    )
    .await;
    assert_eq!(res.status(), 403);
    // Another municipality's clerk learns nothing.
    let hayward = app.token(HAYWARD_CLERK).await;
    assert_eq!(app.get_as(&hayward, &one).await.status(), 404);
}

/// `roomtax check` follows every security event to its journal: a deposit of
/// 1,000.00 required and received passes (cash debited 1,000.00, the deposit
/// credited 1,000.00); an `applied` event inserted past the service naming
/// the receipt's journal (of another kind, moving the deposit the other way)
/// is named.
#[actix_web::test]
async fn the_check_names_a_security_event_without_its_journal() {
    use diesel::prelude::*;
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "montello", "Checked Lodge LLC").await;
    let res = post(
        &app,
        &clerk,
        &deposits(&payor),
        json!({"amount": "1000.00", "reason": "two late returns in 2025"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let d: Value = res.json().await.unwrap();
    let id = d["id"].as_str().unwrap().to_owned();
    let res = post(
        &app,
        &clerk,
        &format!("{}/{id}/receipts", deposits(&payor)),
        json!({"received_on": "2026-05-01", "amount": "1000.00", "method": "check", "reference": "2201"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let out = super::roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("1 security event(s) that move money each have their journal"),
        "{stdout}"
    );
    // The statement shows the 1,000.00 held (not deducted from the balance),
    // in JSON and in CSV; the day before, nothing.
    let account = format!("/v1/municipalities/montello/payors/{payor}/account");
    let res = app
        .get_as(&clerk, &format!("{account}?as_of=2026-05-01"))
        .await;
    let json: Value = res.json().await.unwrap();
    assert_eq!(json["security_deposit"], "1000.00", "{json}");
    assert_eq!(json["totals"]["balance"], "0.00", "{json}");
    let res = app
        .get_as(&clerk, &format!("{account}?as_of=2026-04-30"))
        .await;
    let json: Value = res.json().await.unwrap();
    assert_eq!(json["security_deposit"], "0.00", "{json}");
    let csv = app
        .call(Method::GET, &format!("{account}?as_of=2026-05-01"))
        .bearer(&clerk)
        .header("accept", "text/csv")
        .send()
        .await
        .text()
        .await
        .unwrap();
    assert!(
        csv.contains("\r\nsecurity_deposit,,,,,1000.00\r\n"),
        "{csv}"
    );

    let mut owner = app.owner_conn();
    let received: roomtax::db::security::EventRow = {
        use roomtax::db::schema::security_events::dsl::*;
        security_events
            .filter(kind.eq("received"))
            .get_result(&mut owner)
            .unwrap()
    };
    let forged = roomtax::db::security::EventRow {
        id: "forged-event".into(),
        kind: "applied".into(),
        ..received.clone()
    };
    diesel::insert_into(roomtax::db::schema::security_events::table)
        .values(&forged)
        .execute(&mut owner)
        .unwrap();
    let out = super::roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "security event forged-event of deposit {id}: journal {} does not post the applied on its day",
            received.journal_id.unwrap()
        )),
        "{stdout}"
    );
}

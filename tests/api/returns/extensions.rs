//! Extensions of the time to file, from the operator's and the clerk's side:
//! asking, granting, refusing, what a grant changes in filing and in the
//! obligations, and who may do what.
//!
//! Hand computations (Montello, 4.5 %, 2026-Q1 due 2026-04-30; an extension
//! of at most one month: 2026-05-31, April's last day going to May's; interest
//! 1 % a month from the original due date; late filing fee $25 from the
//! extended date):
//! - granted to 2026-05-31, filed (and so paid) 2026-05-20, gross 10,000.00,
//!   federal exemption 500.00: tax 9,500.00 × 0.045 = 427.50; on time (05-20
//!   ≤ 05-31): no fee; interest months = (12·2026+5) − (12·2026+4) = 1,
//!   427.50 × 0.01 × 1 = 4.275 → 4.28; forfeiture none (paid well within 30
//!   days of the extended date); amount due 427.50 + 4.28 = 431.78.
//! - granted to 2026-05-15, filed 2026-05-16: late; fee 25.00; the same
//!   interest 4.28; amount due 427.50 + 4.28 + 25.00 = 456.78.

use reqwest::Method;
use serde_json::{Value, json};

use super::{CAMPGROUND, CLERK, MOTEL, OPERATOR, file, filing};
use crate::helpers::{
    TestApp,
    check::{assert_problem, rule_of},
    spawn_demo_app_at,
};

const STAFF: &str = "staff@montello.demo";

fn extensions_of(payor: &str) -> String {
    format!("/v1/municipalities/montello/payors/{payor}/extensions")
}

/// Ask for an extension as `token`.
async fn ask(app: &TestApp, token: &str, payor: &str, period: &str) -> reqwest::Response {
    app.call(Method::POST, &extensions_of(payor))
        .bearer(token)
        .json(json!({"period": period, "reason": "the bookkeeper is in hospital"}))
        .send()
        .await
}

/// Ask and return the extension's path (its `Location`).
async fn asked(app: &TestApp, token: &str, payor: &str, period: &str) -> String {
    let res = ask(app, token, payor, period).await;
    assert_eq!(res.status(), 201);
    res.headers()["location"].to_str().unwrap().to_owned()
}

async fn decide(
    app: &TestApp,
    token: &str,
    path: &str,
    verb: &str,
    body: Value,
) -> reqwest::Response {
    app.call(Method::POST, &format!("{path}/{verb}"))
        .bearer(token)
        .json(body)
        .send()
        .await
}

async fn get(app: &TestApp, token: &str, path: &str) -> reqwest::Response {
    app.call(Method::GET, path).bearer(token).send().await
}

/// The obligation of 2026-Q1 in the motel's obligations.
async fn q1_obligation(app: &TestApp, token: &str) -> Value {
    let path = format!(
        "/v1/municipalities/montello/payors/{MOTEL}/obligations?from=2026-04-01&to=2026-04-30"
    );
    let res = get(app, token, &path).await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["period"] == "2026-Q1")
        .cloned()
        .unwrap_or_else(|| panic!("no 2026-Q1 obligation: {body}"))
}

/// The demo registers its payors today; give the motel an establishment open
/// since 2025 so that it owes 2026-Q1.
async fn open_since_2025(app: &TestApp) {
    let clerk = app.token(CLERK).await;
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/montello/payors/{MOTEL}/establishments"),
        )
        .bearer(&clerk)
        .json(json!({"name": "Pine Cabins", "address": "W123 County Road C", "kind": "cabin", "units": 8, "opened_on": "2025-01-01"}))
        .send()
        .await;
    assert_eq!(res.status(), 201);
}

/// The access log's actions on one record, oldest first.
async fn logged(app: &TestApp, record_id: &str) -> Vec<String> {
    let clerk = app.token(CLERK).await;
    let res = get(
        app,
        &clerk,
        &format!("/v1/municipalities/montello/access-log?record_id={record_id}"),
    )
    .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let mut entries: Vec<Value> = body["items"].as_array().unwrap().clone();
    entries.reverse();
    entries
        .iter()
        .map(|e| {
            assert_eq!(e["record_type"], "return_extension", "{e}");
            e["action"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[actix_web::test]
async fn a_granted_extension_spares_the_fee_but_interest_runs_from_the_original_due_date() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    open_since_2025(&app).await;
    let op = app.token(OPERATOR).await;
    let clerk = app.token(CLERK).await;

    // The operator asks before the due date.
    let res = ask(&app, &op, MOTEL, "2026-Q1").await;
    assert_eq!(res.status(), 201);
    let path = res.headers()["location"].to_str().unwrap().to_owned();
    let body: Value = res.json().await.unwrap();
    let id = body["id"].as_str().unwrap().to_owned();
    assert_eq!(path, format!("/v1/municipalities/montello/extensions/{id}"));
    assert_eq!(body["status"], "requested");
    assert_eq!(body["period"], "2026-Q1");
    assert_eq!(body["payor_id"], MOTEL);
    assert_eq!(body["reason"], "the bookkeeper is in hospital");
    assert_eq!(body["due_date"], "2026-04-30");
    assert_eq!(body["latest_extended_to"], "2026-05-31");
    assert_eq!(body["filing_due_date"], "2026-04-30");
    assert_eq!(body["extended_to"], Value::Null);
    assert_eq!(body["requested_at"], "2026-04-20T15:00:00Z");
    assert!(body["requested_by"].as_str().unwrap().starts_with("user:"));
    assert_eq!(q1_obligation(&app, &op).await["status"], "not_yet_due");

    // It waits in the clerk's queue.
    let res = get(
        &app,
        &clerk,
        "/v1/municipalities/montello/extensions?status=requested",
    )
    .await;
    assert_eq!(res.status(), 200);
    let queue: Value = res.json().await.unwrap();
    assert_eq!(queue["items"].as_array().unwrap().len(), 1, "{queue}");
    assert_eq!(queue["items"][0]["id"], id.as_str());

    // The clerk grants the longest extension the ordinance allows.
    app.set_now("2026-04-22T15:00:00Z");
    let res = decide(
        &app,
        &clerk,
        &path,
        "grant",
        json!({"extended_to": "2026-05-31", "note": "hospital letter seen"}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], "granted");
    assert_eq!(body["extended_to"], "2026-05-31");
    assert_eq!(body["filing_due_date"], "2026-05-31");
    assert_eq!(body["due_date"], "2026-04-30");
    assert_eq!(body["decision_reason"], "hospital letter seen");
    assert_eq!(body["decided_at"], "2026-04-22T15:00:00Z");
    let filing_line = body["dates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["code"] == "filing_due_date")
        .unwrap();
    assert_eq!(filing_line["date"], "2026-05-31");
    let res = get(
        &app,
        &clerk,
        "/v1/municipalities/montello/extensions?status=requested",
    )
    .await;
    let queue: Value = res.json().await.unwrap();
    assert!(queue["items"].as_array().unwrap().is_empty(), "{queue}");

    // After the due date, the return is extended, not missing.
    app.set_now("2026-05-10T15:00:00Z");
    let o = q1_obligation(&app, &op).await;
    assert_eq!(o["status"], "extended", "{o}");
    assert_eq!(o["filing_due_date"], "2026-05-31");
    // The clerk's view of the period (read for all payors at once) agrees.
    let res = get(
        &app,
        &clerk,
        "/v1/municipalities/montello/returns?period=2026-Q1&status=extended",
    )
    .await;
    assert_eq!(res.status(), 200);
    let view: Value = res.json().await.unwrap();
    let items = view["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{view}");
    assert_eq!(items[0]["payor_id"], MOTEL, "{view}");
    assert_eq!(items[0]["obligation"]["filing_due_date"], "2026-05-31");

    // Filed within the extension: no fee, but a month of interest.
    app.set_now("2026-05-20T15:00:00Z");
    let res = file(&app, &op, MOTEL, filing("2026-Q1", "10000.00", "500.00")).await;
    assert_eq!(res.status(), 201);
    let ret: Value = res.json().await.unwrap();
    assert_eq!(ret["status"], "filed", "{ret}");
    assert_eq!(ret["filed_on"], "2026-05-20");
    assert_eq!(ret["due_date"], "2026-04-30");
    assert_eq!(ret["filing_due_date"], "2026-05-31");
    assert_eq!(ret["tax"], "427.50");
    assert_eq!(ret["late_filing_fee"], "0.00");
    assert_eq!(ret["interest"], "4.28");
    assert_eq!(ret["late_payment_forfeiture"], "0.00");
    assert_eq!(ret["amount_due"], "431.78");
    let o = q1_obligation(&app, &op).await;
    assert_eq!(o["status"], "filed", "{o}");
    assert_eq!(o["return_id"], ret["id"]);

    // A decision is final, and nothing is left to extend once filed.
    let res = decide(
        &app,
        &clerk,
        &path,
        "refuse",
        json!({"reason": "changed my mind"}),
    )
    .await;
    let problem = assert_problem(res, 409, "conflict", Some("status")).await;
    assert_eq!(
        rule_of(&problem, "status").unwrap(),
        "extension_already_decided"
    );
    let res = ask(&app, &op, MOTEL, "2026-Q1").await;
    let problem = assert_problem(res, 409, "conflict", Some("period")).await;
    assert_eq!(rule_of(&problem, "period").unwrap(), "return_already_filed");

    // Every write and every read is in the access log.
    assert_eq!(logged(&app, &id).await, ["create", "read", "grant"]);
}

#[actix_web::test]
async fn a_return_filed_after_the_extended_date_is_late_and_pays_the_fee() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    open_since_2025(&app).await;
    let op = app.token(OPERATOR).await;
    let staff = app.token(STAFF).await;
    let path = asked(&app, &op, MOTEL, "2026-Q1").await;
    // Staff decide as the clerk-treasurer does.
    let res = decide(
        &app,
        &staff,
        &path,
        "grant",
        json!({"extended_to": "2026-05-15"}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["decision_reason"], Value::Null);
    app.set_now("2026-05-16T15:00:00Z");
    assert_eq!(q1_obligation(&app, &op).await["status"], "missing");
    let res = file(&app, &op, MOTEL, filing("2026-Q1", "10000.00", "500.00")).await;
    assert_eq!(res.status(), 201);
    let ret: Value = res.json().await.unwrap();
    assert_eq!(ret["status"], "filed_late", "{ret}");
    assert_eq!(ret["filing_due_date"], "2026-05-15");
    assert_eq!(ret["late_filing_fee"], "25.00");
    assert_eq!(ret["interest"], "4.28");
    assert_eq!(ret["amount_due"], "456.78");
    assert_eq!(q1_obligation(&app, &op).await["status"], "filed_late");
}

#[actix_web::test]
async fn the_grant_stays_within_the_policys_month_and_a_refusal_needs_its_reason() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let op = app.token(OPERATOR).await;
    let clerk = app.token(CLERK).await;
    let path = asked(&app, &op, MOTEL, "2026-Q1").await;
    for (date, rule) in [
        ("2026-06-01", "extension_beyond_limit"),
        ("2026-04-30", "extension_not_after_due_date"),
    ] {
        let res = decide(&app, &clerk, &path, "grant", json!({"extended_to": date})).await;
        let problem = assert_problem(res, 422, "validation-failed", Some("extended_to")).await;
        assert_eq!(rule_of(&problem, "extended_to").unwrap(), rule, "{date}");
    }
    let res = decide(
        &app,
        &clerk,
        &path,
        "grant",
        json!({"extended_to": "2026-05-15", "note": "  "}),
    )
    .await;
    assert_problem(res, 422, "validation-failed", Some("note")).await;
    let res = decide(&app, &clerk, &path, "refuse", json!({"reason": " "})).await;
    assert_problem(res, 422, "validation-failed", Some("reason")).await;

    // Refused: the request is closed, and the return is due on its due date.
    let res = decide(
        &app,
        &clerk,
        &path,
        "refuse",
        json!({"reason": "no good cause shown"}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], "refused");
    assert_eq!(body["decision_reason"], "no good cause shown");
    assert_eq!(body["filing_due_date"], "2026-04-30");
    assert_eq!(body["extended_to"], Value::Null);
    let res = decide(
        &app,
        &clerk,
        &path,
        "grant",
        json!({"extended_to": "2026-05-15"}),
    )
    .await;
    assert_problem(res, 409, "conflict", Some("status")).await;

    // A refused request is not open: the payor may ask again, but only once at a time.
    app.set_now("2026-04-21T15:00:00Z");
    let again = asked(&app, &op, MOTEL, "2026-Q1").await;
    assert_ne!(again, path);
    let res = ask(&app, &op, MOTEL, "2026-Q1").await;
    let problem = assert_problem(res, 409, "conflict", Some("period")).await;
    assert_eq!(
        rule_of(&problem, "period").unwrap(),
        "extension_already_open"
    );

    // The payor's list holds both, newest first; the filter keeps one.
    let res = get(&app, &op, &extensions_of(MOTEL)).await;
    assert_eq!(res.status(), 200);
    let list: Value = res.json().await.unwrap();
    let statuses: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["requested", "refused"], "{list}");
    let res = get(
        &app,
        &op,
        &format!("{}?status=refused", extensions_of(MOTEL)),
    )
    .await;
    let list: Value = res.json().await.unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    let res = get(&app, &op, &format!("{}?status=open", extensions_of(MOTEL))).await;
    assert_problem(res, 400, "invalid-parameter", None).await;
    let res = get(&app, &op, &format!("{}?limit=1", extensions_of(MOTEL))).await;
    let page: Value = res.json().await.unwrap();
    let cursor = page["next_cursor"].as_str().unwrap().to_owned();
    let res = get(
        &app,
        &op,
        &format!("{}?limit=1&cursor={cursor}", extensions_of(MOTEL)),
    )
    .await;
    let page: Value = res.json().await.unwrap();
    assert_eq!(page["items"][0]["status"], "refused", "{page}");
}

#[actix_web::test]
async fn hayward_has_no_extensions_and_says_so_citing_its_ordinance() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let op = app.token("operator@hayward.demo").await;
    let res = app
        .call(
            Method::POST,
            &format!(
                "/v1/municipalities/hayward/payors/{}/extensions",
                roomtax::demo::HAYWARD_LODGE_ID
            ),
        )
        .bearer(&op)
        .json(json!({"period": "2026-Q1", "reason": "flood"}))
        .send()
        .await;
    let problem = assert_problem(res, 422, "validation-failed", Some("period")).await;
    assert_eq!(
        rule_of(&problem, "period").unwrap(),
        "extension_not_allowed"
    );
    let message = problem["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("City of Hayward"), "{message}");
    assert!(message.contains("Ord. No. 301"), "{message}");
}

#[actix_web::test]
async fn the_request_is_judged_for_the_payors_periods_and_its_reason() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let op = app.token(OPERATOR).await;
    // The motel elected calendar years: a fiscal year is not one of its periods.
    let res = ask(&app, &op, MOTEL, "FY2026-06").await;
    let problem = assert_problem(res, 422, "validation-failed", Some("period")).await;
    assert_eq!(rule_of(&problem, "period").unwrap(), "not_the_elected_year");
    let res = app
        .call(Method::POST, &extensions_of(MOTEL))
        .bearer(&op)
        .json(json!({"period": "2026-Q1", "reason": ""}))
        .send()
        .await;
    assert_problem(res, 422, "validation-failed", Some("reason")).await;
    // A return may be asked an extension for ahead of its period's end.
    assert_eq!(ask(&app, &op, MOTEL, "2026-Q2").await.status(), 201);
}

#[actix_web::test]
async fn only_the_payor_and_its_municipality_ask_see_or_decide_extensions() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let op = app.token(OPERATOR).await;
    let clerk = app.token(CLERK).await;
    // The clerk asks on the campground's behalf; the operator for its motel.
    let campground = asked(&app, &clerk, CAMPGROUND, "2026-Q1").await;
    let motel = asked(&app, &op, MOTEL, "2026-Q1").await;
    let res = ask(&app, &op, CAMPGROUND, "2026-Q2").await;
    assert_problem(res, 404, "not-found", None).await;
    assert_eq!(get(&app, &op, &motel).await.status(), 200);
    assert_eq!(get(&app, &op, &campground).await.status(), 404);
    assert_eq!(
        get(&app, &op, &extensions_of(CAMPGROUND)).await.status(),
        404
    );
    // The operator may not decide, even its own request.
    let res = decide(
        &app,
        &op,
        &motel,
        "grant",
        json!({"extended_to": "2026-05-31"}),
    )
    .await;
    assert_problem(res, 403, "forbidden", None).await;
    let res = get(&app, &op, "/v1/municipalities/montello/extensions").await;
    assert_problem(res, 403, "forbidden", None).await;
    for who in [
        "commission@marquette-county.demo",
        "tourism@marquette-county.demo",
        "admin@marquette-county.demo",
        "clerk@hayward.demo",
        "operator@hayward.demo",
        "marketplace@montello.demo",
    ] {
        let t = app.token(who).await;
        assert_eq!(get(&app, &t, &motel).await.status(), 404, "{who} reads");
        assert_eq!(
            get(&app, &t, &extensions_of(MOTEL)).await.status(),
            404,
            "{who} lists"
        );
        assert_eq!(
            ask(&app, &t, MOTEL, "2026-Q2").await.status(),
            404,
            "{who} asks"
        );
        let res = decide(
            &app,
            &t,
            &motel,
            "grant",
            json!({"extended_to": "2026-05-31"}),
        )
        .await;
        assert!(
            [403, 404].contains(&res.status().as_u16()),
            "{who} decides: {}",
            res.status()
        );
    }
    // Nothing was decided by anyone refused.
    let body: Value = get(&app, &op, &motel).await.json().await.unwrap();
    assert_eq!(body["status"], "requested");
    // The clerk's view holds both payors' requests.
    let res = get(&app, &clerk, "/v1/municipalities/montello/extensions").await;
    let list: Value = res.json().await.unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 2, "{list}");
    let res = app.call(Method::GET, &motel).send().await;
    assert_eq!(res.status(), 401);
}

/// `Idempotency-Key` on a request: the retry gets the first 201, one request is stored.
#[actix_web::test]
async fn an_extension_request_retried_with_its_key_is_asked_once() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let op = app.token(super::OPERATOR).await;
    let send = |reason: &'static str| {
        app.call(Method::POST, &extensions_of(super::MOTEL))
            .bearer(&op)
            .header("idempotency-key", "ext-1")
            .json(json!({"period": "2026-Q1", "reason": reason}))
            .send()
    };
    let first = send("the bookkeeper is in hospital").await;
    assert_eq!(first.status(), 201);
    let location = first.headers()["location"].to_str().unwrap().to_owned();
    let again = send("the bookkeeper is in hospital").await;
    assert_eq!(again.status(), 201, "a replay, not a second request (409)");
    assert_eq!(again.headers()["location"].to_str().unwrap(), location);
    let other = send("another reason").await;
    assert_eq!(other.status(), 422);
}

/// An extension moves a date still to come: asked after the latest date the
/// policy allows (2026-Q3: due 2026-10-31, at most 2026-11-30), or granted to
/// a date already passed, it would only waive what lateness owes (a backdated
/// grant once took Montello's $1,000 forfeiture off a late return).
#[actix_web::test]
async fn an_extension_cannot_be_asked_or_granted_after_its_time() {
    let app = spawn_demo_app_at("2026-12-01T15:00:00Z").await;
    let op = app.token(super::OPERATOR).await;
    let res = ask(&app, &op, super::MOTEL, "2026-Q3").await;
    assert_problem(res, 422, "validation-failed", Some("period")).await;
    let res = ask(&app, &op, super::MOTEL, "2199-Q1").await;
    assert_problem(res, 422, "validation-failed", Some("period")).await;
    // 2026-Q4 (due 2027-01-31) may be asked now; granted to a past date it is refused.
    let path = asked(&app, &op, super::MOTEL, "2026-Q4").await;
    let clerk = app.token(super::CLERK).await;
    app.set_now("2027-02-10T15:00:00Z");
    let res = app
        .call(Method::POST, &format!("{path}/grant"))
        .bearer(&clerk)
        .json(json!({"extended_to": "2027-02-05"}))
        .send()
        .await;
    assert_problem(res, 422, "validation-failed", Some("extended_to")).await;
}

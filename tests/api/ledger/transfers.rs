//! Transferring a payor's establishments to another payor (issue 9 item 8),
//! on both backends.
//!
//! Hayward hand computation (4 %, interest 1 % a month; due the last
//! business day of the month after the quarter). The seller's cabins opened
//! 2025-10-01; transfer on 2026-11-10 (in 2026-Q4), so the four preceding
//! quarters are 2025-Q4 .. 2026-Q3:
//! - 2025-Q4: gross 5,000.00 → tax 200.00, filed and paid 2026-01-30: not
//!   the buyer's;
//! - 2026-Q1: gross 10,000.00 → tax 400.00, filed 2026-04-30, unpaid:
//!   interest 2026-04 → 2026-11, 7 months, 400.00 × 7 % = 28.00; owed
//!   428.00: the buyer's;
//! - 2026-Q2 and 2026-Q3: no return filed: the buyer's (tax not known,
//!   0.00 shown).
//!
//! The successor answers for 428.00 and two missing returns; nothing is
//! posted to the ledger.

use reqwest::Method;
use serde_json::{Value, json};

use super::security::{HAYWARD_CLERK, journals_balance, new_payor, paper_return, post};
use crate::helpers::{TestApp, assert_problem, spawn_demo_app_at};
use crate::returns::{CLERK, MOTEL, OPERATOR};

fn transfers(slug: &str, payor: &str) -> String {
    format!("/v1/municipalities/{slug}/payors/{payor}/transfers")
}

async fn establishment(app: &TestApp, token: &str, slug: &str, payor: &str, body: Value) -> String {
    let res = post(
        app,
        token,
        &format!("/v1/municipalities/{slug}/payors/{payor}/establishments"),
        body,
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn payor(app: &TestApp, token: &str, slug: &str, id: &str) -> Value {
    let res = app
        .get_as(token, &format!("/v1/municipalities/{slug}/payors/{id}"))
        .await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

#[actix_web::test]
async fn a_hayward_transfer_moves_the_cabins_and_shows_the_quarters_the_buyer_answers_for() {
    let app = spawn_demo_app_at("2026-11-15T15:00:00Z").await;
    let clerk = app.token(HAYWARD_CLERK).await;
    let seller = new_payor(&app, &clerk, "hayward", "Big Fish Cabins LLC").await;
    let buyer = new_payor(&app, &clerk, "hayward", "Walleye Holdings LLC").await;
    let cabins = establishment(&app, &clerk, "hayward", &seller, json!({"name": "Big Fish Cabins", "address": "9 Lake Road", "kind": "cabin", "units": 6, "opened_on": "2025-10-01"})).await;
    paper_return(
        &app,
        &clerk,
        "hayward",
        &seller,
        "2025-Q4",
        "5000.00",
        "0.00",
        "2026-01-30",
    )
    .await;
    let res = post(&app, &clerk, &format!("/v1/municipalities/hayward/payors/{seller}/payments"), json!({"received_on": "2026-01-30", "amount": "200.00", "method": "check", "reference": "11"})).await;
    assert_eq!(res.status(), 201);
    paper_return(
        &app,
        &clerk,
        "hayward",
        &seller,
        "2026-Q1",
        "10000.00",
        "0.00",
        "2026-04-30",
    )
    .await;
    let journals_before = journals_balance(&app).len();

    let res = post(
        &app,
        &clerk,
        &transfers("hayward", &seller),
        json!({"to_payor": buyer, "transfer_on": "2026-11-10"}),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    assert_eq!(
        res.headers()["location"],
        format!("/v1/municipalities/hayward/payors/{buyer}").as_str()
    );
    let t: Value = res.json().await.unwrap();
    assert_eq!(t["sale_provision"], "successor_liability");
    assert_eq!(t["clearance"], Value::Null);
    assert_eq!(
        (&t["seller_payor_id"], &t["buyer_payor_id"]),
        (&json!(seller), &json!(buyer))
    );
    assert_eq!(t["transfer_on"], "2026-11-10");
    let moved = t["establishments"].as_array().unwrap();
    assert_eq!(moved.len(), 1);
    assert_eq!(moved[0]["seller_establishment_id"], cabins.as_str());
    assert_eq!(moved[0]["name"], "Big Fish Cabins");
    let new_cabins = moved[0]["buyer_establishment_id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_ne!(new_cabins, cabins);
    let s = &t["successor_liability"];
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
            row("2026-Q3", false, true, "0.00"),
        ]
    );
    assert_eq!(s["quarters"][1]["posted_balance"], "400.00");
    assert_eq!(s["quarters"][1]["interest_accrued"], "28.00");
    assert_eq!(s["total_owed"], "428.00");
    assert!(
        s["citation"]
            .as_str()
            .unwrap()
            .contains("four preceding calendar quarters")
    );
    // Nothing posted; the debt stays on the seller's account.
    assert_eq!(journals_balance(&app).len(), journals_before);

    // The registry keeps both sides: the seller's row closed on the date,
    // the buyer's opened on it.
    let seller_now = payor(&app, &clerk, "hayward", &seller).await;
    let old = &seller_now["establishments"][0];
    assert_eq!(
        (&old["id"], &old["closed_on"], &old["opened_on"]),
        (&json!(cabins), &json!("2026-11-10"), &json!("2025-10-01"))
    );
    let buyer_now = payor(&app, &clerk, "hayward", &buyer).await;
    let new = &buyer_now["establishments"][0];
    assert_eq!(
        (
            &new["id"],
            &new["name"],
            &new["address"],
            &new["kind"],
            &new["units"],
            &new["opened_on"],
            &new["closed_on"]
        ),
        (
            &json!(new_cabins),
            &json!("Big Fish Cabins"),
            &json!("9 Lake Road"),
            &json!("cabin"),
            &json!(6),
            &json!("2026-11-10"),
            &Value::Null
        )
    );

    // Listed on both sides.
    for side in [&seller, &buyer] {
        let res = app.get_as(&clerk, &transfers("hayward", side)).await;
        assert_eq!(res.status(), 200);
        let list: Value = res.json().await.unwrap();
        assert_eq!(list["items"].as_array().unwrap().len(), 1);
        assert_eq!(list["items"][0]["id"], t["id"]);
        assert_eq!(
            list["items"][0]["establishments"][0]["buyer_establishment_id"],
            new_cabins.as_str()
        );
    }

    // Transferring again: the cabins are closed at the seller now (409).
    let res = post(
        &app,
        &clerk,
        &transfers("hayward", &seller),
        json!({"to_payor": buyer, "establishments": [cabins], "transfer_on": "2026-11-12"}),
    )
    .await;
    let body = assert_problem(res, 409, "conflict").await;
    assert_eq!(body["errors"][0]["rule"], "not_open_at_seller");
    let res = post(
        &app,
        &clerk,
        &transfers("hayward", &seller),
        json!({"to_payor": buyer, "transfer_on": "2026-11-12"}),
    )
    .await;
    let body = assert_problem(res, 409, "conflict").await;
    assert_eq!(body["errors"][0]["rule"], "not_open_at_seller");
}

#[actix_web::test]
async fn a_montello_transfer_tells_the_buyer_to_withhold_without_a_clearance_certificate() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    // Without a certificate.
    let seller = new_payor(&app, &clerk, "montello", "Heron Point Resort LLC").await;
    establishment(&app, &clerk, "montello", &seller, json!({"name": "Heron Point Resort", "address": "1 Heron Point", "kind": "resort", "units": 12, "opened_on": "2026-01-01"})).await;
    paper_return(
        &app,
        &clerk,
        "montello",
        &seller,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-04-30",
    )
    .await;
    let res = post(
        &app,
        &clerk,
        &transfers("montello", &seller),
        json!({"to_payor": MOTEL, "transfer_on": "2026-05-01"}),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let t: Value = res.json().await.unwrap();
    assert_eq!(t["sale_provision"], "clearance_certificate");
    assert_eq!(t["successor_liability"], Value::Null);
    let c = &t["clearance"];
    assert_eq!(
        (
            &c["certificate_issued"],
            &c["buyer_must_withhold"],
            &c["certificate_id"]
        ),
        (&json!(false), &json!(true), &Value::Null)
    );
    assert!(
        c["withholding_duty"]
            .as_str()
            .unwrap()
            .contains("shall withhold sufficient of the purchase price")
    );
    assert!(
        c["citation"]
            .as_str()
            .unwrap()
            .starts_with("Montello room tax, sale of business")
    );

    // The buyer's operator now sees the resort under its payor.
    let operator = app.token(OPERATOR).await;
    let motel = payor(&app, &operator, "montello", MOTEL).await;
    let resort: Vec<&Value> = motel["establishments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["name"] == "Heron Point Resort")
        .collect();
    assert_eq!(resort.len(), 1);
    assert_eq!(resort[0]["opened_on"], "2026-05-01");
    assert_eq!(
        resort[0]["id"],
        t["establishments"][0]["buyer_establishment_id"]
    );
    // ... and may not transfer, as buyer or seller (403), nor list (403).
    let res = post(
        &app,
        &operator,
        &transfers("montello", MOTEL),
        json!({"to_payor": seller, "transfer_on": "2026-05-01"}),
    )
    .await;
    assert_problem(res, 403, "forbidden").await;
    let res = post(
        &app,
        &operator,
        &transfers("montello", &seller),
        json!({"to_payor": MOTEL, "transfer_on": "2026-05-01"}),
    )
    .await;
    assert_problem(res, 403, "forbidden").await;
    let res = app.get_as(&operator, &transfers("montello", MOTEL)).await;
    assert_eq!(res.status(), 403);
    // The Hayward clerk knows nothing of Montello's payors: 404.
    let hayward = app.token(HAYWARD_CLERK).await;
    let res = post(
        &app,
        &hayward,
        &transfers("montello", &seller),
        json!({"to_payor": MOTEL, "transfer_on": "2026-05-01"}),
    )
    .await;
    assert_eq!(res.status(), 404);

    // With a certificate: a payor never charged gets one that nothing is due.
    let clean = new_payor(&app, &clerk, "montello", "Clean Slate Inn LLC").await;
    establishment(&app, &clerk, "montello", &clean, json!({"name": "Clean Slate Inn", "address": "5 Main Street", "kind": "inn", "units": 4, "opened_on": "2026-05-01"})).await;
    let res = post(
        &app,
        &clerk,
        &format!("/v1/municipalities/montello/payors/{clean}/clearance-certificates"),
        json!({"sale_on": "2026-05-01"}),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let certificate: Value = res.json().await.unwrap();
    let res = post(
        &app,
        &clerk,
        &transfers("montello", &clean),
        json!({"to_payor": seller, "transfer_on": "2026-05-01"}),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let t: Value = res.json().await.unwrap();
    let c = &t["clearance"];
    assert_eq!(
        (
            &c["certificate_issued"],
            &c["buyer_must_withhold"],
            &c["certificate_id"],
            &c["issued_on"]
        ),
        (
            &json!(true),
            &json!(false),
            &certificate["id"],
            &json!("2026-05-01")
        )
    );
}

#[actix_web::test]
async fn transfer_refusals_name_the_field_or_the_rule() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let seller = new_payor(&app, &clerk, "montello", "Refusal Lodge LLC").await;
    let buyer = new_payor(&app, &clerk, "montello", "Refusal Buyer LLC").await;
    let lodge = establishment(&app, &clerk, "montello", &seller, json!({"name": "Refusal Lodge", "address": "2 Main Street", "kind": "hotel", "units": 8, "opened_on": "2026-03-01"})).await;
    let other = establishment(&app, &clerk, "montello", &buyer, json!({"name": "Buyer Motel", "address": "3 Main Street", "kind": "motel", "units": 8, "opened_on": "2026-03-01"})).await;

    // Every fault at once: in the future, to itself.
    let res = post(
        &app,
        &clerk,
        &transfers("montello", &seller),
        json!({"to_payor": seller, "transfer_on": "2026-05-02"}),
    )
    .await;
    let body = assert_problem(res, 422, "validation-failed").await;
    let rules: Vec<(String, String)> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap().to_owned(),
                e["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        rules.contains(&("transfer_on".into(), "in_the_future".into())),
        "{rules:?}"
    );
    assert!(
        rules.contains(&("to_payor".into(), "same_payor".into())),
        "{rules:?}"
    );
    // Before the lodge opened; an establishment not the seller's; named twice.
    let res = post(&app, &clerk, &transfers("montello", &seller), json!({"to_payor": buyer, "establishments": [lodge, other, lodge], "transfer_on": "2026-02-15"})).await;
    let body = assert_problem(res, 422, "validation-failed").await;
    let rules: Vec<(String, String)> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap().to_owned(),
                e["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        rules,
        vec![
            ("establishments[1]".to_owned(), "not_the_sellers".to_owned()),
            ("establishments[2]".to_owned(), "duplicate".to_owned()),
            ("transfer_on".to_owned(), "before_opening".to_owned()),
        ]
    );
    // A malformed date, an unknown field: 400/422 before anything is read.
    let res = post(
        &app,
        &clerk,
        &transfers("montello", &seller),
        json!({"to_payor": buyer, "transfer_on": "1 May 2026"}),
    )
    .await;
    assert!(
        matches!(res.status().as_u16(), 400 | 422),
        "{}",
        res.status()
    );
    let res = post(
        &app,
        &clerk,
        &transfers("montello", &seller),
        json!({"to_payor": buyer, "transfer_on": "2026-05-01", "price": "1"}),
    )
    .await;
    assert!(
        matches!(res.status().as_u16(), 400 | 422),
        "{}",
        res.status()
    );
    // Unknown seller, unknown buyer: 404.
    let res = post(
        &app,
        &clerk,
        &transfers("montello", "no-such-payor"),
        json!({"to_payor": buyer, "transfer_on": "2026-05-01"}),
    )
    .await;
    assert_eq!(res.status(), 404);
    let res = post(
        &app,
        &clerk,
        &transfers("montello", &seller),
        json!({"to_payor": "no-such-payor", "transfer_on": "2026-05-01"}),
    )
    .await;
    assert_eq!(res.status(), 404);
    let res = app
        .get_as(&clerk, &transfers("montello", "no-such-payor"))
        .await;
    assert_eq!(res.status(), 404);
    // Closed at the seller before the date: 409.
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/montello/payors/{seller}/establishments/{lodge}/close"),
        )
        .bearer(&clerk)
        .header("if-match", "*")
        .json(json!({"closed_on": "2026-04-15"}))
        .send()
        .await;
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    let res = post(
        &app,
        &clerk,
        &transfers("montello", &seller),
        json!({"to_payor": buyer, "establishments": [lodge], "transfer_on": "2026-05-01"}),
    )
    .await;
    let body = assert_problem(res, 409, "conflict").await;
    assert_eq!(body["errors"][0]["rule"], "not_open_at_seller");
    // Nothing was recorded by the refusals.
    let res = app.get_as(&clerk, &transfers("montello", &seller)).await;
    assert_eq!(res.json::<Value>().await.unwrap()["items"], json!([]));
}

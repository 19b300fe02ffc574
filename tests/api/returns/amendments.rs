//! Amendments: a new version supersedes the last, nothing is overwritten,
//! `If-Match` guards the version, and the difference is shown.
//!
//! Hand computation: the original 2026-Q1 return (gross 10,000.00, exempt
//! 500.00) owes 427.50; amended to gross 11,000.00 it owes 10,500 × 0.045 =
//! 472.50, 45.00 more, owed from the original due date 2026-04-30: amended
//! (and paid) on 2026-07-15, interest months = 7 − 4 = 3, 45.00 × 0.01 × 3 =
//! 1.35. Amended down to gross 9,000.00 instead: 8,500 × 0.045 = 382.50, a
//! credit of 45.00.

use reqwest::Method;
use serde_json::Value;

use super::{MOTEL, OPERATOR, file, filing, returns_of};
use crate::helpers::{TestApp, check::assert_problem, spawn_demo_app_at};

async fn filed(app: &TestApp, token: &str) -> (String, String) {
    let res = file(app, token, MOTEL, filing("2026-Q1", "10000.00", "500.00")).await;
    assert_eq!(res.status(), 201);
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let body: Value = res.json().await.unwrap();
    (
        format!("{}/{}", returns_of(MOTEL), body["id"].as_str().unwrap()),
        etag,
    )
}

#[actix_web::test]
async fn an_amendment_up_owes_the_difference_with_interest_from_the_original_due_date() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let (path, etag) = filed(&app, &token).await;
    app.set_now("2026-07-15T15:00:00Z");
    let res = app
        .call(Method::POST, &format!("{path}/amendments"))
        .bearer(&token)
        .header("if-match", &etag)
        .json(filing("2026-Q1", "11000.00", "500.00"))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    let answer = body.clone();
    assert_eq!(body["version"], 2);
    assert_eq!(body["tax"], "472.50");
    assert_eq!(body["tax_difference"], "45.00");
    assert_eq!(body["difference_interest"], "1.35", "{body}");
    assert_eq!(body["due_date"], "2026-04-30");

    // Both versions stay readable, the original first.
    let res = app
        .call(Method::GET, &format!("{path}/versions"))
        .bearer(&token)
        .send()
        .await;
    assert_eq!(res.status(), 200);
    let versions: Value = res.json().await.unwrap();
    let items = versions["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["tax"], "427.50");
    assert_eq!(items[1]["tax"], "472.50");
    // The return reads as its latest version: exactly the amendment's answer
    // (built from the return read before and the version it stored).
    let res = app.call(Method::GET, &path).bearer(&token).send().await;
    assert_eq!(res.json::<Value>().await.unwrap(), answer);
}

#[actix_web::test]
async fn an_amendment_down_is_a_credit() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let (path, etag) = filed(&app, &token).await;
    let res = app
        .call(Method::POST, &format!("{path}/amendments"))
        .bearer(&token)
        .header("if-match", &etag)
        .json(filing("2026-Q1", "9000.00", "500.00"))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["tax"], "382.50");
    assert_eq!(body["tax_difference"], "-45.00");
    assert_eq!(body["difference_interest"], "0.00");
}

#[actix_web::test]
async fn an_amendment_needs_the_current_version() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let (path, etag) = filed(&app, &token).await;
    let amend = format!("{path}/amendments");
    let body = filing("2026-Q1", "10100.00", "500.00");
    let res = app
        .call(Method::POST, &amend)
        .bearer(&token)
        .json(body.clone())
        .send()
        .await;
    assert_problem(res, 428, "precondition-required", None).await;
    let res = app
        .call(Method::POST, &amend)
        .bearer(&token)
        .header("if-match", &etag)
        .json(body.clone())
        .send()
        .await;
    assert_eq!(res.status(), 201);
    // The same ETag again is now stale.
    let res = app
        .call(Method::POST, &amend)
        .bearer(&token)
        .header("if-match", &etag)
        .json(body.clone())
        .send()
        .await;
    assert_problem(res, 412, "precondition-failed", None).await;
    // The period of an amendment is the return's own.
    let res = app.call(Method::GET, &path).bearer(&token).send().await;
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let res = app
        .call(Method::POST, &amend)
        .bearer(&token)
        .header("if-match", &etag)
        .json(filing("2026-Q2", "1.00", "0.00"))
        .send()
        .await;
    assert_problem(res, 422, "validation-failed", Some("period")).await;
}

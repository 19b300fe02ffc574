//! The administration APIs over HTTP: grants (municipality and zone), zone
//! membership, API clients, disclosure grants and the access log. For each
//! endpoint: the allowed role succeeds; a role without the right 403; another
//! municipality's clerk 404 (and nothing changes); anonymous 401; validation
//! 422 naming field and rule.

mod access_log;
mod api_clients;
mod disclosures;
mod grants;
pub mod members;

use serde_json::Value;

use crate::helpers::{TestApp, assert_problem};

pub const CLERK: &str = "clerk@montello.demo";
pub const STAFF: &str = "staff@montello.demo";
pub const HAYWARD_CLERK: &str = "clerk@hayward.demo";
pub const ZONE_ADMIN: &str = "admin@marquette-county.demo";
pub const COMMISSION: &str = "commission@marquette-county.demo";

/// POST a JSON body, with a bearer token when given.
pub async fn post(
    app: &TestApp,
    token: Option<&str>,
    path: &str,
    body: &Value,
) -> reqwest::Response {
    let mut req = app.client.post(app.url(path)).json(body);
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    req.send().await.expect("request sent")
}

/// DELETE, with a bearer token when given.
pub async fn delete(app: &TestApp, token: Option<&str>, path: &str) -> reqwest::Response {
    let mut req = app.client.delete(app.url(path));
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    req.send().await.expect("request sent")
}

/// GET as `token` and parse a 200 JSON body.
pub async fn get_ok(app: &TestApp, token: &str, path: &str) -> Value {
    let res = app.get_as(token, path).await;
    assert_eq!(res.status(), 200, "GET {path}");
    res.json().await.unwrap()
}

/// Assert a 422 naming `field` with `rule`.
pub async fn assert_invalid(res: reqwest::Response, field: &str, rule: &str) {
    let body = assert_problem(res, 422, "validation-failed").await;
    let errors = body["errors"].as_array().expect("errors listed");
    assert!(
        errors
            .iter()
            .any(|e| e["field"] == field && e["rule"] == rule),
        "expected {field}/{rule} in {body}"
    );
}

/// Assert the three refusals every administrative endpoint gives: anonymous
/// 401, a related role without the right 403, an unrelated caller 404.
pub async fn assert_refusals<F, Fut>(call: F, related: &str, unrelated: &str)
where
    F: Fn(Option<String>) -> Fut,
    Fut: std::future::Future<Output = reqwest::Response>,
{
    assert_problem(call(None).await, 401, "unauthorized").await;
    assert_problem(call(Some(related.to_owned())).await, 403, "forbidden").await;
    assert_problem(call(Some(unrelated.to_owned())).await, 404, "not-found").await;
}

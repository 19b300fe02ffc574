//! Every error path answers RFC 9457 problem+json, naming field and rule.

use crate::helpers::{assert_problem, spawn_demo_app};

#[actix_web::test]
async fn unknown_route_is_a_404_problem() {
    let app = spawn_demo_app().await;
    let body = assert_problem(app.get("/v1/nothing-here").await, 404, "route-not-found").await;
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("/v1/nothing-here")
    );
    assert_problem(app.get("/v2").await, 404, "route-not-found").await;
    // `/` is the web portal's entry now (issue 11): a visitor goes to the public pages.
    let root = app.get("/").await;
    assert_eq!(root.status(), 303);
    assert_eq!(root.headers()["location"], "/app/public");
}

#[actix_web::test]
async fn wrong_method_is_a_405_problem_with_allow() {
    let app = spawn_demo_app().await;
    let res = app
        .client
        .delete(app.url("/v1/zones/marquette-county"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["allow"], "GET, HEAD");
    assert_problem(res, 405, "method-not-allowed").await;
    let res = app
        .client
        .put(app.url("/v1/municipalities"))
        .send()
        .await
        .unwrap();
    assert_problem(res, 405, "method-not-allowed").await;
}

#[actix_web::test]
async fn bad_query_parameters_name_the_parameter() {
    let app = spawn_demo_app().await;
    let body = assert_problem(
        app.get("/v1/zones?limit=lots").await,
        400,
        "invalid-parameter",
    )
    .await;
    assert_eq!(body["errors"][0]["field"], "limit", "{body}");
    let body = assert_problem(app.get("/v1/zones?limit=0").await, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["field"], "limit");
    assert_eq!(body["errors"][0]["rule"], "range");
    let body = assert_problem(
        app.get("/v1/zones?colour=red").await,
        400,
        "invalid-parameter",
    )
    .await;
    assert_eq!(body["errors"][0]["field"], "colour", "{body}");
}

#[actix_web::test]
async fn the_problem_catalogue_explains_every_code() {
    let app = spawn_demo_app().await;
    let list: serde_json::Value = app.get("/problems").await.json().await.unwrap();
    assert!(list.as_array().unwrap().len() >= 10);
    let entry: serde_json::Value = app
        .get("/problems/validation-failed")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(entry["status"], 422);
    assert_eq!(entry["type"], "/problems/validation-failed");
    assert_problem(app.get("/problems/nope").await, 404, "not-found").await;
}

const QUOTES: &str = "/v1/municipalities/montello/quotes";

async fn post_raw(
    app: &crate::helpers::TestApp,
    content_type: &str,
    body: impl Into<reqwest::Body>,
) -> reqwest::Response {
    app.client
        .post(app.url(QUOTES))
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap()
}

#[actix_web::test]
async fn malformed_json_is_400() {
    let app = spawn_demo_app().await;
    let body = assert_problem(
        post_raw(&app, "application/json", "{\"period\": ").await,
        400,
        "malformed-json",
    )
    .await;
    assert!(body["detail"].as_str().unwrap().contains("JSON"));
    assert_problem(
        post_raw(&app, "application/json", "").await,
        400,
        "malformed-json",
    )
    .await;
}

#[actix_web::test]
async fn wrong_field_types_name_the_field() {
    let app = spawn_demo_app().await;
    // Money must be a decimal string, never a JSON number (floats lose cents).
    let res = post_raw(
        &app,
        "application/json",
        r#"{"period":"2026-Q1","gross_receipts":12345.67}"#,
    )
    .await;
    let body = assert_problem(res, 400, "invalid-field-type").await;
    assert_eq!(body["errors"][0]["field"], "gross_receipts");
    let res = post_raw(
        &app,
        "application/json",
        r#"{"period":"2026-Q1","gross_receipts":"1.00","filed_on":"2026-02-30"}"#,
    )
    .await;
    let body = assert_problem(res, 400, "invalid-field-type").await;
    assert_eq!(body["errors"][0]["field"], "filed_on");
}

#[actix_web::test]
async fn unknown_fields_are_rejected_and_missing_ones_named() {
    let app = spawn_demo_app().await;
    let res = post_raw(
        &app,
        "application/json",
        r#"{"period":"2026-Q1","gross_receipts":"1.00","discount":"5"}"#,
    )
    .await;
    let body = assert_problem(res, 400, "unknown-field").await;
    assert_eq!(body["errors"][0]["field"], "discount");
    assert!(
        body["detail"].as_str().unwrap().contains("gross_receipts"),
        "lists accepted fields"
    );
    let res = post_raw(&app, "application/json", r#"{"period":"2026-Q1"}"#).await;
    let body = assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["field"], "gross_receipts");
    assert_eq!(body["errors"][0]["rule"], "required");
}

#[actix_web::test]
async fn wrong_content_type_is_415() {
    let app = spawn_demo_app().await;
    let json = r#"{"period":"2026-Q1","gross_receipts":"1.00"}"#;
    assert_problem(
        post_raw(&app, "text/plain", json).await,
        415,
        "unsupported-media-type",
    )
    .await;
    let res = app
        .client
        .post(app.url(QUOTES))
        .body(json)
        .send()
        .await
        .unwrap();
    assert_problem(res, 415, "unsupported-media-type").await;
    // A +json media type with parameters is fine.
    let res = post_raw(&app, "application/json; charset=utf-8", json).await;
    assert_eq!(res.status(), 200);
}

#[actix_web::test]
async fn bodies_over_256_kib_are_413() {
    let app = spawn_demo_app().await;
    let padding = "x".repeat(256 * 1024);
    let big = format!(r#"{{"period":"2026-Q1","gross_receipts":"1.00","pad":"{padding}"}}"#);
    let body = assert_problem(
        post_raw(&app, "application/json", big).await,
        413,
        "payload-too-large",
    )
    .await;
    assert!(body["detail"].as_str().unwrap().contains("262144"));
    // Chunked (no Content-Length) is limited too.
    let stream = futures_util::stream::iter(
        (0..300).map(|_| Ok::<_, std::io::Error>(bytes::Bytes::from(vec![b' '; 1024]))),
    );
    let res = app
        .client
        .post(app.url(QUOTES))
        .header("content-type", "application/json")
        .body(reqwest::Body::wrap_stream(stream))
        .send()
        .await
        .unwrap();
    assert_problem(res, 413, "payload-too-large").await;
}

#[actix_web::test]
async fn head_is_get_without_a_body_and_the_docs_paths_know_their_methods() {
    let app = spawn_demo_app().await;
    let res = app.client.head(app.url("/v1/zones")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("x-request-id"));
    assert!(res.bytes().await.unwrap().is_empty());
    let res = app
        .client
        .post(app.url("/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_problem(res, 405, "method-not-allowed").await;
    let body = assert_problem(
        app.get("/docs/nothing-here.js").await,
        404,
        "route-not-found",
    )
    .await;
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("/docs/nothing-here.js")
    );
}

#[actix_web::test]
async fn a_json_array_is_not_an_object() {
    let app = spawn_demo_app().await;
    let res = post_raw(
        &app,
        "application/json",
        r#"["2026-Q1","100.00","0",null,null,null,null]"#,
    )
    .await;
    let body = assert_problem(res, 400, "invalid-field-type").await;
    assert_eq!(body["errors"][0]["field"], "body");
}

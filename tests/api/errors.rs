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
    assert_problem(app.get("/").await, 404, "route-not-found").await;
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
    assert_eq!(res.headers()["allow"], "GET");
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

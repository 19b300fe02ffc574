//! Zones and municipalities: the public directory, and the demo load.

use crate::helpers::{assert_problem, spawn_app, spawn_demo_app};

#[actix_web::test]
async fn the_demo_zone_lists_montello_as_its_member() {
    let app = spawn_demo_app().await;
    let body: serde_json::Value = app.get("/v1/zones").await.json().await.unwrap();
    let zones = body["items"].as_array().unwrap();
    assert_eq!(zones.len(), 1, "{body}");
    assert_eq!(zones[0]["slug"], "marquette-county");
    assert!(body.get("next_cursor").is_none() || body["next_cursor"].is_null());

    let res = app.get("/v1/zones/marquette-county").await;
    assert_eq!(res.status(), 200);
    let zone: serde_json::Value = res.json().await.unwrap();
    assert_eq!(zone["county"], "Marquette");
    assert_eq!(zone["members"][0]["municipality"], "montello");
    assert_eq!(zone["members"][0]["joined_on"], "2020-01-01");
    assert_eq!(zone["effective_from"], "2020-01-01");
    assert!(zone["commission"].as_str().unwrap().contains("Commission"));
}

#[actix_web::test]
async fn municipalities_show_their_zone_and_hayward_stands_alone() {
    let app = spawn_demo_app().await;
    let body: serde_json::Value = app.get("/v1/municipalities").await.json().await.unwrap();
    let slugs: Vec<&str> = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["slug"].as_str().unwrap())
        .collect();
    assert_eq!(slugs, ["hayward", "montello"]);

    let montello: serde_json::Value = app
        .get("/v1/municipalities/montello")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(montello["zone"]["slug"], "marquette-county");
    assert_eq!(montello["kind"], "city");
    let hayward: serde_json::Value = app
        .get("/v1/municipalities/hayward")
        .await
        .json()
        .await
        .unwrap();
    assert!(hayward["zone"].is_null(), "{hayward}");
    assert_eq!(hayward["county"], "Sawyer");
}

#[actix_web::test]
async fn lists_page_with_a_cursor() {
    let app = spawn_demo_app().await;
    let first: serde_json::Value = app
        .get("/v1/municipalities?limit=1")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(first["items"][0]["slug"], "hayward");
    let cursor = first["next_cursor"].as_str().expect("a next page");
    let second: serde_json::Value = app
        .get(&format!("/v1/municipalities?limit=1&cursor={cursor}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(second["items"][0]["slug"], "montello");
    let cursor = second["next_cursor"].as_str().expect("page was full");
    let third: serde_json::Value = app
        .get(&format!("/v1/municipalities?limit=1&cursor={cursor}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(third["items"].as_array().unwrap().len(), 0);
    assert!(third["next_cursor"].is_null());
}

#[actix_web::test]
async fn unknown_slugs_are_404_problems() {
    let app = spawn_demo_app().await;
    let body = assert_problem(app.get("/v1/zones/nowhere").await, 404, "not-found").await;
    assert_eq!(body["detail"], "zone not found");
    assert_problem(
        app.get("/v1/municipalities/nowhere").await,
        404,
        "not-found",
    )
    .await;
}

#[actix_web::test]
async fn the_demo_load_is_idempotent() {
    let app = spawn_app().await;
    let first = app.load_demo().await;
    assert!(first.created.len() >= 6, "{first:?}");
    let before: serde_json::Value = app.get("/v1/zones").await.json().await.unwrap();
    let munis_before: serde_json::Value = app.get("/v1/municipalities").await.json().await.unwrap();
    let second = app.load_demo().await;
    assert!(
        second.created.is_empty(),
        "second load created {:?}",
        second.created
    );
    let after: serde_json::Value = app.get("/v1/zones").await.json().await.unwrap();
    let munis_after: serde_json::Value = app.get("/v1/municipalities").await.json().await.unwrap();
    assert_eq!(before, after);
    assert_eq!(munis_before, munis_after);
}

//! `/v1/zones/{zone}/members`: zone admins add municipalities and record leaving.

use serde_json::{Value, json};

use super::{CLERK, COMMISSION, HAYWARD_CLERK, ZONE_ADMIN, assert_invalid, assert_refusals, post};
use crate::helpers::{assert_problem, spawn_demo_app};

const MEMBERS: &str = "/v1/zones/marquette-county/members";

fn westfield() -> Value {
    json!({
        "municipality": {"slug": "westfield", "name": "Village of Westfield", "kind": "village", "county": "Marquette"},
        "joined_on": "2030-01-01"
    })
}

#[actix_web::test]
async fn a_zone_admin_adds_and_removes_members() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let commission = app.token(COMMISSION).await;
    let hayward = app.token(HAYWARD_CLERK).await;

    let body = westfield();
    let (app_ref, body_ref) = (&app, &body);
    assert_refusals(
        |t| async move { post(app_ref, t.as_deref(), MEMBERS, body_ref).await },
        &commission,
        &hayward,
    )
    .await;
    assert_problem(
        app.get("/v1/municipalities/westfield").await,
        404,
        "not-found",
    )
    .await;

    // A new municipality: created, with no policy and no users, and says so.
    let res = post(&app, Some(&admin), MEMBERS, &westfield()).await;
    assert_eq!(res.status(), 201);
    let joined: Value = res.json().await.unwrap();
    assert_eq!(joined["zone"], "marquette-county");
    assert_eq!(joined["municipality"]["slug"], "westfield");
    assert_eq!(joined["municipality"]["kind"], "village");
    assert_eq!(joined["joined_on"], "2030-01-01");
    assert_eq!(joined["municipality_created"], true);
    assert_eq!(joined["policy_versions"], 0);
    let steps = joined["next_steps"].to_string();
    assert!(
        steps.contains("roomtax policy add") && steps.contains("clerk_treasurer"),
        "{steps}"
    );
    let zone: Value = app
        .get("/v1/zones/marquette-county")
        .await
        .json()
        .await
        .unwrap();
    assert!(
        zone["members"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["municipality"] == "westfield")
    );
    assert_eq!(app.get("/v1/municipalities/westfield").await.status(), 200);

    // An existing municipality by slug: Hayward joins in 2030, then leaves.
    let res = post(
        &app,
        Some(&admin),
        MEMBERS,
        &json!({"municipality": "hayward", "joined_on": "2030-01-01"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let hayward_joined: Value = res.json().await.unwrap();
    assert_eq!(hayward_joined["municipality_created"], false);
    assert_eq!(hayward_joined["policy_versions"], 1);
    assert!(hayward_joined["next_steps"].as_array().unwrap().is_empty());

    // One zone at a time; slugs are unique.
    for (body, why) in [
        (
            json!({"municipality": "hayward", "joined_on": "2031-01-01"}),
            "overlaps",
        ),
        (
            json!({"municipality": "montello", "joined_on": "2030-01-01"}),
            "already a member",
        ),
        (
            json!({"municipality": {"slug": "hayward", "name": "X", "kind": "city", "county": "Sawyer"}, "joined_on": "2030-01-01"}),
            "slug taken",
        ),
    ] {
        let res = post(&app, Some(&admin), MEMBERS, &body).await;
        assert_eq!(res.status(), 409, "{why}");
        assert_problem(res, 409, "conflict").await;
    }

    let leave = "/v1/zones/marquette-county/members/hayward/leave";
    assert_problem(
        post(&app, None, leave, &json!({"left_on": "2030-06-30"})).await,
        401,
        "unauthorized",
    )
    .await;
    assert_problem(
        post(
            &app,
            Some(&commission),
            leave,
            &json!({"left_on": "2030-06-30"}),
        )
        .await,
        403,
        "forbidden",
    )
    .await;
    assert_problem(
        post(
            &app,
            Some(&hayward),
            leave,
            &json!({"left_on": "2030-06-30"}),
        )
        .await,
        404,
        "not-found",
    )
    .await;
    assert_invalid(
        post(&app, Some(&admin), leave, &json!({"left_on": "2029-12-31"})).await,
        "left_on",
        "after_joined_on",
    )
    .await;
    let res = post(&app, Some(&admin), leave, &json!({"left_on": "2030-06-30"})).await;
    assert_eq!(res.status(), 200);
    let left: Value = res.json().await.unwrap();
    assert_eq!(left["left_on"], "2030-06-30");
    assert_eq!(left["joined_on"], "2030-01-01");
    assert_problem(
        post(&app, Some(&admin), leave, &json!({"left_on": "2030-07-31"})).await,
        409,
        "conflict",
    )
    .await;
    assert_problem(
        post(
            &app,
            Some(&admin),
            "/v1/zones/marquette-county/members/nowhere/leave",
            &json!({"left_on": "2030-07-31"}),
        )
        .await,
        404,
        "not-found",
    )
    .await;
    // After leaving, it may join again.
    let res = post(
        &app,
        Some(&admin),
        MEMBERS,
        &json!({"municipality": "hayward", "joined_on": "2030-06-30"}),
    )
    .await;
    assert_eq!(res.status(), 201);
}

#[actix_web::test]
async fn membership_requests_are_validated() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let montello_clerk = app.token(CLERK).await;
    assert_problem(
        post(&app, Some(&montello_clerk), MEMBERS, &westfield()).await,
        403,
        "forbidden",
    )
    .await;

    let bad = json!({
        "municipality": {"slug": "Bad Slug", "name": "", "kind": "county", "county": "Marquette"},
        "joined_on": "2030-01-01"
    });
    let res = post(&app, Some(&admin), MEMBERS, &bad).await;
    let body = assert_problem(res, 422, "validation-failed").await;
    let fields: Vec<(&str, &str)> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["field"].as_str().unwrap(), e["rule"].as_str().unwrap()))
        .collect();
    assert_eq!(
        fields,
        [
            ("municipality.slug", "slug_format"),
            ("municipality.name", "length"),
            ("municipality.kind", "municipality_kind")
        ]
    );
    assert_invalid(
        post(
            &app,
            Some(&admin),
            MEMBERS,
            &json!({"municipality": "nowhere", "joined_on": "2030-01-01"}),
        )
        .await,
        "municipality",
        "existing_municipality",
    )
    .await;
    let res = post(
        &app,
        Some(&admin),
        MEMBERS,
        &json!({"municipality": "hayward", "joined_on": "soon"}),
    )
    .await;
    let body = assert_problem(res, 400, "invalid-field-type").await;
    assert_eq!(body["errors"][0]["field"], "joined_on");
    assert_problem(
        app.get("/v1/municipalities/bad-slug").await,
        404,
        "not-found",
    )
    .await;
}

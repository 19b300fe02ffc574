//! `/v1/municipalities/{m}/disclosures`: court orders and legal duties.

use chrono::{Duration, SecondsFormat, Utc};
use roomtax::demo::{HAYWARD_LODGE_ID, MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID};
use serde_json::{Value, json};

use reqwest::Method;

use super::{CLERK, COMMISSION, HAYWARD_CLERK, STAFF, assert_refusals, delete, get_ok, post};
use crate::helpers::{
    check::{assert_problem, rule_of},
    spawn_demo_app,
};

const DISCLOSURES: &str = "/v1/municipalities/montello/disclosures";

fn in_days(days: i64) -> String {
    (Utc::now() + Duration::days(days)).to_rfc3339_opts(SecondsFormat::Secs, true)
}

fn order() -> Value {
    json!({
        "reference": "Marquette County Circuit Court 2026CV000123",
        "basis": "court_order",
        "grantee_email": COMMISSION,
        "payor_ids": [MONTELLO_MOTEL_ID],
        "expires_at": in_days(30)
    })
}

#[actix_web::test]
async fn a_clerk_records_a_disclosure_the_grantee_sees_it_until_revoked() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    let hayward = app.token(HAYWARD_CLERK).await;
    let grantee = app.token(COMMISSION).await;

    let body = order();
    let (app_ref, body_ref) = (&app, &body);
    assert_refusals(
        |t| async move { post(app_ref, t.as_deref(), DISCLOSURES, body_ref).await },
        &staff,
        &hayward,
    )
    .await;
    assert!(
        get_ok(&app, &clerk, DISCLOSURES).await["items"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(
        get_ok(&app, &grantee, "/v1/me").await["disclosures"]
            .as_array()
            .unwrap()
            .is_empty()
    );

    let res = app
        .call(Method::POST, DISCLOSURES)
        .bearer(&clerk)
        .json(order())
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    assert_eq!(created["basis"], "court_order");
    assert_eq!(
        created["reference"],
        "Marquette County Circuit Court 2026CV000123"
    );
    assert_eq!(created["grantee"]["email"], COMMISSION);
    assert_eq!(created["payor_ids"], json!([MONTELLO_MOTEL_ID]));
    assert_eq!(created["active"], true);
    let id = created["id"].as_str().unwrap().to_owned();

    // The grantee holds it (a commission member: no payor access of its own).
    let me = get_ok(&app, &grantee, "/v1/me").await;
    assert_eq!(me["disclosures"][0]["id"], id.as_str());
    assert_eq!(me["disclosures"][0]["municipality"], "montello");

    let list = get_ok(&app, &clerk, DISCLOSURES).await;
    assert_eq!(list["items"][0]["id"], id.as_str());
    assert_eq!(list["items"][0]["grantee"]["email"], COMMISSION);
    assert_problem(
        app.get_as(&staff, DISCLOSURES).await,
        403,
        "forbidden",
        None,
    )
    .await;
    assert_problem(
        app.get_as(&hayward, DISCLOSURES).await,
        404,
        "not-found",
        None,
    )
    .await;
    assert_problem(
        app.get_as(&grantee, DISCLOSURES).await,
        403,
        "forbidden",
        None,
    )
    .await;
    assert_problem(app.get(DISCLOSURES).await, 401, "unauthorized", None).await;

    let path = format!("{DISCLOSURES}/{id}");
    assert_problem(
        delete(&app, Some(&hayward), &path).await,
        404,
        "not-found",
        None,
    )
    .await;
    assert_problem(
        delete(&app, Some(&staff), &path).await,
        403,
        "forbidden",
        None,
    )
    .await;
    assert_problem(delete(&app, None, &path).await, 401, "unauthorized", None).await;
    assert_eq!(
        get_ok(&app, &grantee, "/v1/me").await["disclosures"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    assert_eq!(delete(&app, Some(&clerk), &path).await.status(), 204);
    assert!(
        get_ok(&app, &grantee, "/v1/me").await["disclosures"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        delete(&app, Some(&clerk), &path).await.status(),
        204,
        "idempotent"
    );
    assert_problem(
        delete(&app, Some(&clerk), &format!("{DISCLOSURES}/nope")).await,
        404,
        "not-found",
        None,
    )
    .await;
    let all = get_ok(&app, &clerk, DISCLOSURES).await;
    assert_eq!(all["items"][0]["active"], false);
    assert!(all["items"][0]["revoked_at"].is_string());
    assert!(
        get_ok(&app, &clerk, &format!("{DISCLOSURES}?active=true")).await["items"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[actix_web::test]
async fn disclosure_requests_are_validated() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let with = |key: &str, value: Value| {
        let mut body = order();
        body[key] = value;
        body
    };
    let cases = [
        (
            with("grantee_email", json!("nobody@nowhere.demo")),
            "grantee_email",
            "existing_user",
        ),
        (
            with("payor_ids", json!([MONTELLO_MOTEL_ID, HAYWARD_LODGE_ID])),
            "payor_ids[1]",
            "payor_exists",
        ),
        (
            with("payor_ids", json!([MONTELLO_MOTEL_ID, "made-up"])),
            "payor_ids[1]",
            "payor_exists",
        ),
        (
            with(
                "payor_ids",
                json!([MONTELLO_CAMPGROUND_ID, MONTELLO_CAMPGROUND_ID]),
            ),
            "payor_ids[1]",
            "distinct",
        ),
        (with("payor_ids", json!([])), "payor_ids", "count"),
        (
            with("expires_at", json!(in_days(-1))),
            "expires_at",
            "in_future",
        ),
        (
            with("expires_at", json!(in_days(800))),
            "expires_at",
            "max_term",
        ),
        (
            with("expires_at", json!("next month")),
            "expires_at",
            "rfc3339",
        ),
        (
            with("basis", json!("curiosity")),
            "basis",
            "disclosure_basis",
        ),
        (with("reference", json!("")), "reference", "length"),
        (
            with("reference", json!("\u{200B}\u{00A0}")),
            "reference",
            "length",
        ),
        // Hostile input is refused before the database sees it (a NUL is a
        // 500 on PostgreSQL if it gets there).
        (
            with("reference", json!("Case\u{0}1")),
            "reference",
            "no_control_characters",
        ),
        (
            with(
                "grantee_email",
                json!("commission\u{0}@marquette-county.demo"),
            ),
            "grantee_email",
            "no_control_characters",
        ),
        (
            with("payor_ids", json!([MONTELLO_MOTEL_ID, "x\u{0}"])),
            "payor_ids[1]",
            "no_control_characters",
        ),
    ];
    for (body, field, rule) in cases {
        let res = app
            .call(Method::POST, DISCLOSURES)
            .bearer(&clerk)
            .json(body)
            .send()
            .await;
        let problem = assert_problem(res, 422, "validation-failed", Some(field)).await;
        assert_eq!(rule_of(&problem, field).as_deref(), Some(rule), "{problem}");
    }
    // Two payors of the municipality, a legal duty, an offset instant: accepted.
    let mut ok = with(
        "payor_ids",
        json!([MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID]),
    );
    ok["basis"] = json!("legal_duty");
    ok["expires_at"] = json!("2027-06-30T18:00:00-05:00");
    let res = app
        .call(Method::POST, DISCLOSURES)
        .bearer(&clerk)
        .json(ok)
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    assert_eq!(created["expires_at"], "2027-06-30T23:00:00Z");
    assert_eq!(
        get_ok(&app, &clerk, DISCLOSURES).await["items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

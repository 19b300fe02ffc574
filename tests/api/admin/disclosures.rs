//! `/v1/municipalities/{m}/disclosures`: court orders and legal duties.

use chrono::{Duration, SecondsFormat, Utc};
use roomtax::demo::{HAYWARD_LODGE_ID, MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID};
use serde_json::{Value, json};

use super::{
    CLERK, COMMISSION, HAYWARD_CLERK, STAFF, assert_invalid, assert_refusals, delete, get_ok, post,
};
use crate::helpers::{assert_problem, spawn_demo_app};

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

    let res = post(&app, Some(&clerk), DISCLOSURES, &order()).await;
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
    assert_problem(app.get_as(&staff, DISCLOSURES).await, 403, "forbidden").await;
    assert_problem(app.get_as(&hayward, DISCLOSURES).await, 404, "not-found").await;
    assert_problem(app.get_as(&grantee, DISCLOSURES).await, 403, "forbidden").await;
    assert_problem(app.get(DISCLOSURES).await, 401, "unauthorized").await;

    let path = format!("{DISCLOSURES}/{id}");
    assert_problem(delete(&app, Some(&hayward), &path).await, 404, "not-found").await;
    assert_problem(delete(&app, Some(&staff), &path).await, 403, "forbidden").await;
    assert_problem(delete(&app, None, &path).await, 401, "unauthorized").await;
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
    ];
    for (body, field, rule) in cases {
        assert_invalid(
            post(&app, Some(&clerk), DISCLOSURES, &body).await,
            field,
            rule,
        )
        .await;
    }
    // Two payors of the municipality, a legal duty, an offset instant: accepted.
    let mut ok = with(
        "payor_ids",
        json!([MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID]),
    );
    ok["basis"] = json!("legal_duty");
    ok["expires_at"] = json!("2027-06-30T18:00:00-05:00");
    let res = post(&app, Some(&clerk), DISCLOSURES, &ok).await;
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

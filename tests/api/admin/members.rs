//! Joining a zone takes both sides: the zone admin invites
//! (`/v1/zones/{zone}/invitations`), the invited municipality's
//! clerk-treasurer accepts or declines
//! (`/v1/municipalities/{m}/zone-invitations`), and the statute's one rate per
//! zone holds whichever side moves (Wis. Stat. § 66.0615).

use chrono::{Datelike, NaiveDate, Utc};
use serde_json::{Value, json};

use super::{CLERK, COMMISSION, HAYWARD_CLERK, ZONE_ADMIN, assert_invalid, assert_refusals, post};
use crate::helpers::{TestApp, assert_problem, spawn_demo_app};

const INVITATIONS: &str = "/v1/zones/marquette-county/invitations";
/// The password of the clerk-treasurers [`municipality_with_clerk`] creates.
pub const PASSWORD: &str = "Westfield clerk pass 2026";

fn first_of_this_month() -> NaiveDate {
    // The zone and its members date by their own calendar (America/Chicago).
    Utc::now()
        .with_timezone(&chrono_tz::America::Chicago)
        .date_naive()
        .with_day(1)
        .unwrap()
}

fn first_of_next_month() -> NaiveDate {
    let d = first_of_this_month();
    if d.month() == 12 {
        NaiveDate::from_ymd_opt(d.year() + 1, 1, 1).unwrap()
    } else {
        NaiveDate::from_ymd_opt(d.year(), d.month() + 1, 1).unwrap()
    }
}

/// A municipality outside any zone with one policy version at `rate` and a
/// clerk-treasurer `clerk@{slug}.test`, as the person running the installation
/// would set it up; returns the clerk's access token.
pub async fn municipality_with_clerk(app: &TestApp, slug: &str, rate: &str) -> String {
    use roomtax::db::{self, models::NewMunicipality, models::NewPolicyVersion};
    let mut conn = app.owner_conn();
    let name = format!("Village of {slug}");
    let m = db::municipalities::insert(
        &mut conn,
        &NewMunicipality {
            slug,
            name: &name,
            kind: "village",
            county: "Marquette",
        },
    )
    .unwrap();
    let mut policy = roomtax::domain::presets::montello();
    policy.municipality = name.clone();
    policy.rate.value = rate.parse().unwrap();
    db::policies::insert(
        &mut conn,
        &NewPolicyVersion {
            municipality_id: m.id,
            effective_from: policy.effective_from,
            document: &serde_json::to_string(&policy).unwrap(),
            source: "test",
        },
    )
    .unwrap();
    let email = format!("clerk@{slug}.test");
    roomtax::usecases::accounts::grant_role_in_transaction(
        &mut conn,
        &email,
        Some(PASSWORD),
        roomtax::auth::Role::ClerkTreasurer,
        &roomtax::usecases::accounts::GrantTarget::Municipality {
            id: m.id,
            payor_id: None,
        },
    )
    .unwrap();
    let res = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": email, "password": PASSWORD}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    body["access_token"].as_str().unwrap().to_owned()
}

/// Invite `slug` as the zone admin and return the invitation.
pub async fn invite(app: &TestApp, admin: &str, body: Value) -> Value {
    let res = post(app, Some(admin), INVITATIONS, &body).await;
    assert_eq!(res.status(), 201, "invite {body}");
    res.json().await.unwrap()
}

fn answer_path(municipality: &str, id: &Value, action: &str) -> String {
    format!(
        "/v1/municipalities/{municipality}/zone-invitations/{}/{action}",
        id.as_str().unwrap()
    )
}

/// Assert a 409 whose `errors` names `rule`; return the body.
pub async fn assert_rule_conflict(res: reqwest::Response, rule: &str) -> Value {
    let body = assert_problem(res, 409, "conflict").await;
    assert!(
        body["errors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["rule"] == rule),
        "expected rule {rule} in {body}"
    );
    body
}

#[actix_web::test]
async fn the_zone_invites_and_only_the_invited_clerk_accepts() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let commission = app.token(COMMISSION).await;
    let hayward = app.token(HAYWARD_CLERK).await;
    let montello = app.token(CLERK).await;
    let westfield = municipality_with_clerk(&app, "westfield", "0.045").await;

    let body = json!({"municipality": "westfield"});
    let (app_ref, body_ref) = (&app, &body);
    assert_refusals(
        |t| async move { post(app_ref, t.as_deref(), INVITATIONS, body_ref).await },
        &commission,
        &hayward,
    )
    .await;
    let invitation = invite(&app, &admin, body.clone()).await;
    assert_eq!(invitation["status"], "pending");
    assert_eq!(invitation["municipality"], "westfield");
    assert_eq!(invitation["zone"], "marquette-county");
    assert!(invitation["joined_on"].is_null());
    let id = &invitation["id"];
    // One pending invitation at a time.
    assert_rule_conflict(
        post(&app, Some(&admin), INVITATIONS, &body).await,
        "one_pending_invitation",
    )
    .await;

    // Each side sees it; nobody else does.
    let zone_list = super::get_ok(&app, &admin, INVITATIONS).await;
    assert_eq!(zone_list["items"][0]["id"], *id);
    let mine = "/v1/municipalities/westfield/zone-invitations";
    assert_eq!(
        super::get_ok(&app, &westfield, mine).await["items"][0]["id"],
        *id
    );
    let montello_list = super::get_ok(
        &app,
        &montello,
        "/v1/municipalities/montello/zone-invitations",
    )
    .await;
    assert_eq!(montello_list["items"], json!([]));
    assert_problem(app.get_as(&hayward, mine).await, 404, "not-found").await;
    assert_problem(app.get_as(&admin, mine).await, 404, "not-found").await;
    assert_problem(app.get(mine).await, 401, "unauthorized").await;

    // Only the invited municipality's clerk-treasurer answers it.
    let accept = answer_path("westfield", id, "accept");
    for (token, why) in [
        (&hayward, "another clerk"),
        (&admin, "the zone admin"),
        (&montello, "a member's clerk"),
    ] {
        let res = post(&app, Some(token), &accept, &json!({})).await;
        assert_eq!(res.status(), 404, "{why}");
    }
    assert_problem(
        post(
            &app,
            Some(&montello),
            &answer_path("montello", id, "accept"),
            &json!({}),
        )
        .await,
        404,
        "not-found",
    )
    .await;
    assert_problem(
        post(&app, None, &accept, &json!({})).await,
        401,
        "unauthorized",
    )
    .await;
    let zone: Value = app
        .get("/v1/zones/marquette-county")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        zone["members"].as_array().unwrap().len(),
        1,
        "nothing changed"
    );

    let res = post(&app, Some(&westfield), &accept, &json!({})).await;
    assert_eq!(res.status(), 200);
    let accepted: Value = res.json().await.unwrap();
    assert_eq!(accepted["status"], "accepted");
    assert_eq!(accepted["joined_on"], first_of_this_month().to_string());
    assert!(accepted["answered_at"].is_string());
    let zone: Value = app
        .get("/v1/zones/marquette-county")
        .await
        .json()
        .await
        .unwrap();
    let member = zone["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["municipality"] == "westfield")
        .cloned()
        .expect("westfield is a member");
    assert_eq!(member["joined_on"], first_of_this_month().to_string());

    // Once only, and not declined afterwards.
    assert_rule_conflict(
        post(&app, Some(&westfield), &accept, &json!({})).await,
        "invitation_pending",
    )
    .await;
    assert_rule_conflict(
        post(
            &app,
            Some(&westfield),
            &answer_path("westfield", id, "decline"),
            &json!({}),
        )
        .await,
        "invitation_pending",
    )
    .await;
    // A member cannot be invited again.
    assert_rule_conflict(
        post(&app, Some(&admin), INVITATIONS, &body).await,
        "one_zone_at_a_time",
    )
    .await;
}

#[actix_web::test]
async fn declined_and_withdrawn_invitations_stay_on_record() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let commission = app.token(COMMISSION).await;
    let westfield = municipality_with_clerk(&app, "westfield", "0.045").await;
    let proposed = first_of_next_month().to_string();

    let first = invite(
        &app,
        &admin,
        json!({"municipality": "westfield", "joined_on": proposed}),
    )
    .await;
    assert_eq!(first["proposed_joined_on"], proposed);
    let res = post(
        &app,
        Some(&westfield),
        &answer_path("westfield", &first["id"], "decline"),
        &json!({}),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap()["status"], "declined");

    let second = invite(&app, &admin, json!({"municipality": "westfield"})).await;
    let withdraw = format!("{INVITATIONS}/{}/withdraw", second["id"].as_str().unwrap());
    assert_problem(
        post(&app, Some(&commission), &withdraw, &json!({})).await,
        403,
        "forbidden",
    )
    .await;
    assert_problem(
        post(&app, Some(&westfield), &withdraw, &json!({})).await,
        404,
        "not-found",
    )
    .await;
    let res = post(&app, Some(&admin), &withdraw, &json!({})).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap()["status"], "withdrawn");
    assert_rule_conflict(
        post(&app, Some(&admin), &withdraw, &json!({})).await,
        "invitation_pending",
    )
    .await;
    assert_rule_conflict(
        post(
            &app,
            Some(&westfield),
            &answer_path("westfield", &second["id"], "accept"),
            &json!({}),
        )
        .await,
        "invitation_pending",
    )
    .await;
    assert_problem(
        post(
            &app,
            Some(&admin),
            &format!("{INVITATIONS}/nope/withdraw"),
            &json!({}),
        )
        .await,
        404,
        "not-found",
    )
    .await;

    for list in [
        super::get_ok(&app, &admin, INVITATIONS).await,
        super::get_ok(
            &app,
            &westfield,
            "/v1/municipalities/westfield/zone-invitations",
        )
        .await,
    ] {
        let statuses: Vec<&str> = list["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses.len(), 2, "{list}");
        assert!(
            statuses.contains(&"declined") && statuses.contains(&"withdrawn"),
            "{list}"
        );
    }
    let zone: Value = app
        .get("/v1/zones/marquette-county")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(zone["members"].as_array().unwrap().len(), 1);
}

#[actix_web::test]
async fn members_of_a_zone_levy_one_rate() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let montello = app.token(CLERK).await;

    // Hayward levies 4 %, the zone 4.5 %: refused, citing the statute.
    let body = assert_rule_conflict(
        post(
            &app,
            Some(&admin),
            INVITATIONS,
            &json!({"municipality": "hayward"}),
        )
        .await,
        "zone_same_rate",
    )
    .await;
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("Wis. Stat. § 66.0615"),
        "{body}"
    );

    // Invited at 4.5 %, then its rate changes before it accepts: refused at acceptance.
    let oxford = municipality_with_clerk(&app, "oxford", "0.045").await;
    let invitation = invite(&app, &admin, json!({"municipality": "oxford"})).await;
    let mut policy: Value = app
        .get("/v1/municipalities/oxford/policies/current")
        .await
        .json::<Value>()
        .await
        .unwrap()["policy"]
        .clone();
    policy["effective_from"] = json!(first_of_next_month().to_string());
    policy["rate"]["value"] = json!("0.05");
    let res = app
        .client
        .post(app.url("/v1/municipalities/oxford/policies"))
        .bearer_auth(&oxford)
        .json(&policy)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201, "not a member yet: any rate up to 8 %");
    assert_rule_conflict(
        post(
            &app,
            Some(&oxford),
            &answer_path("oxford", &invitation["id"], "accept"),
            &json!({}),
        )
        .await,
        "zone_same_rate",
    )
    .await;

    // A member cannot move away from the zone's rate alone.
    let westfield = municipality_with_clerk(&app, "westfield", "0.045").await;
    let invitation = invite(&app, &admin, json!({"municipality": "westfield"})).await;
    let res = post(
        &app,
        Some(&westfield),
        &answer_path("westfield", &invitation["id"], "accept"),
        &json!({}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let mut montello_policy: Value = app
        .get("/v1/municipalities/montello/policies/current")
        .await
        .json::<Value>()
        .await
        .unwrap()["policy"]
        .clone();
    montello_policy["effective_from"] = json!(first_of_next_month().to_string());
    montello_policy["rate"]["value"] = json!("0.05");
    let res = app
        .client
        .post(app.url("/v1/municipalities/montello/policies"))
        .bearer_auth(&montello)
        .json(&montello_policy)
        .send()
        .await
        .unwrap();
    let body = assert_rule_conflict(res, "zone_same_rate").await;
    assert!(
        body["detail"].as_str().unwrap().contains("westfield"),
        "{body}"
    );
    let versions: Value = app
        .get("/v1/municipalities/montello/policies")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        versions["items"].as_array().unwrap().len(),
        1,
        "nothing stored"
    );
}

#[actix_web::test]
async fn invitations_are_validated() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let montello_clerk = app.token(CLERK).await;
    assert_problem(
        post(
            &app,
            Some(&montello_clerk),
            INVITATIONS,
            &json!({"municipality": "hayward"}),
        )
        .await,
        403,
        "forbidden",
    )
    .await;
    assert_invalid(
        post(
            &app,
            Some(&admin),
            INVITATIONS,
            &json!({"municipality": "nowhere"}),
        )
        .await,
        "municipality",
        "existing_municipality",
    )
    .await;
    let last_month = first_of_this_month().pred_opt().unwrap().to_string();
    municipality_with_clerk(&app, "westfield", "0.045").await;
    assert_invalid(
        post(
            &app,
            Some(&admin),
            INVITATIONS,
            &json!({"municipality": "westfield", "joined_on": last_month}),
        )
        .await,
        "joined_on",
        "not_before_acceptance_month",
    )
    .await;
    // The zone API creates no municipality any more: the old body is refused.
    let res = post(
        &app,
        Some(&admin),
        INVITATIONS,
        &json!({"municipality": {"slug": "x", "name": "X", "kind": "village", "county": "Marquette"}}),
    )
    .await;
    let body = assert_problem(res, 400, "invalid-field-type").await;
    assert_eq!(body["errors"][0]["field"], "municipality");
    let res = post(
        &app,
        Some(&admin),
        INVITATIONS,
        &json!({"municipality": "westfield", "joined_on": "soon"}),
    )
    .await;
    let body = assert_problem(res, 400, "invalid-field-type").await;
    assert_eq!(body["errors"][0]["field"], "joined_on");
    assert_problem(
        post(
            &app,
            Some(&admin),
            "/v1/zones/marquette-county/members",
            &json!({"municipality": "westfield"}),
        )
        .await,
        404,
        "route-not-found",
    )
    .await;
}

#[actix_web::test]
async fn leaving_is_forward_only() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let commission = app.token(COMMISSION).await;
    let hayward = app.token(HAYWARD_CLERK).await;
    let leave = "/v1/zones/marquette-county/members/montello/leave";
    let two_months_ago = first_of_this_month()
        .pred_opt()
        .unwrap()
        .with_day(1)
        .unwrap()
        .pred_opt()
        .unwrap();
    let body = json!({"left_on": two_months_ago.to_string()});
    let (app_ref, body_ref) = (&app, &body);
    assert_refusals(
        |t| async move { post(app_ref, t.as_deref(), leave, body_ref).await },
        &commission,
        &hayward,
    )
    .await;
    assert_invalid(
        post(&app, Some(&admin), leave, &body).await,
        "left_on",
        "not_retroactive",
    )
    .await;
    assert_invalid(
        post(&app, Some(&admin), leave, &json!({"left_on": "2020-01-01"})).await,
        "left_on",
        "after_joined_on",
    )
    .await;
    let last_day = first_of_next_month().pred_opt().unwrap().to_string();
    let res = post(&app, Some(&admin), leave, &json!({"left_on": last_day})).await;
    assert_eq!(res.status(), 200);
    let left: Value = res.json().await.unwrap();
    assert_eq!(left["left_on"], last_day);
    assert_eq!(left["joined_on"], "2020-01-01");
    assert_rule_conflict(
        post(&app, Some(&admin), leave, &json!({"left_on": last_day})).await,
        "open_membership",
    )
    .await;
    assert_problem(
        post(
            &app,
            Some(&admin),
            "/v1/zones/marquette-county/members/hayward/leave",
            &json!({"left_on": last_day}),
        )
        .await,
        404,
        "not-found",
    )
    .await;
}

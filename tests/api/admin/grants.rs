//! `/v1/municipalities/{m}/grants`: clerk-treasurers manage users and grants.

use serde_json::{Value, json};

use super::{CLERK, HAYWARD_CLERK, STAFF, assert_invalid, assert_refusals, delete, get_ok, post};
use crate::helpers::{assert_problem, spawn_demo_app};

const GRANTS: &str = "/v1/municipalities/montello/grants";
const NEW_PASSWORD: &str = "a fine initial password";

fn deputy() -> Value {
    json!({
        "email": "Deputy@Montello.demo",
        "display_name": "Deputy Clerk",
        "role": "municipal_staff",
        "password": NEW_PASSWORD
    })
}

#[actix_web::test]
async fn a_clerk_grants_lists_and_revokes_others_are_refused() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    let hayward = app.token(HAYWARD_CLERK).await;

    // Refusals change nothing.
    let body = deputy();
    let (app_ref, body_ref) = (&app, &body);
    assert_refusals(
        |t| async move { post(app_ref, t.as_deref(), GRANTS, body_ref).await },
        &staff,
        &hayward,
    )
    .await;
    assert_refusals(
        |t| async move {
            let mut req = app_ref.client.get(app_ref.url(GRANTS));
            if let Some(t) = t {
                req = req.bearer_auth(t);
            }
            req.send().await.unwrap()
        },
        &staff,
        &hayward,
    )
    .await;
    let before = get_ok(&app, &clerk, GRANTS).await;
    assert_eq!(before["items"].as_array().unwrap().len(), 4, "{before}");
    assert!(!before.to_string().contains("deputy@"), "{before}");

    // A new user with an initial password.
    let res = post(&app, Some(&clerk), GRANTS, &deputy()).await;
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    assert_eq!(created["role"], "municipal_staff");
    assert_eq!(created["user"]["email"], "deputy@montello.demo");
    assert_eq!(created["user"]["display_name"], "Deputy Clerk");
    assert_eq!(created["user_created"], true);
    assert_eq!(created["active"], true);
    assert!(created["payor_id"].is_null() && created["revoked_at"].is_null());
    assert!(created["created_at"].as_str().unwrap().ends_with('Z'));
    assert!(!created.to_string().contains(NEW_PASSWORD));
    let grant_id = created["id"].as_str().unwrap().to_owned();

    // The new user signs in with it and holds the role.
    let res = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": "deputy@montello.demo", "password": NEW_PASSWORD}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let deputy_token = res.json::<Value>().await.unwrap()["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let me = get_ok(&app, &deputy_token, "/v1/me").await;
    assert_eq!(me["grants"][0]["role"], "municipal_staff");
    assert_eq!(me["grants"][0]["municipality"], "montello");

    // The same role twice is a conflict; an existing user (here: of another
    // municipality) keeps its account, name and password.
    assert_problem(
        post(&app, Some(&clerk), GRANTS, &deputy()).await,
        409,
        "conflict",
    )
    .await;
    let res = post(
        &app,
        Some(&clerk),
        GRANTS,
        &json!({"email": "staff@hayward.demo", "display_name": "ignored", "role": "operator",
                "payor_id": roomtax::demo::MONTELLO_MOTEL_ID, "password": "not used for an existing user"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let existing: Value = res.json().await.unwrap();
    assert_eq!(existing["user_created"], false);
    assert_eq!(existing["user"]["display_name"], "staff@hayward.demo");
    assert_eq!(existing["payor_id"], roomtax::demo::MONTELLO_MOTEL_ID);
    app.sign_in("staff@hayward.demo").await; // with its own, unchanged password

    // The list shows both, newest first, and pages.
    let list = get_ok(&app, &clerk, GRANTS).await;
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 6);
    assert_eq!(items[0]["id"], existing["id"]);
    assert_eq!(items[1]["id"], grant_id.as_str());
    let page = get_ok(&app, &clerk, &format!("{GRANTS}?limit=4")).await;
    assert_eq!(page["items"].as_array().unwrap().len(), 4);
    let cursor = page["next_cursor"].as_str().unwrap();
    let rest = get_ok(&app, &clerk, &format!("{GRANTS}?limit=4&cursor={cursor}")).await;
    assert_eq!(rest["items"].as_array().unwrap().len(), 2);
    assert!(rest["next_cursor"].is_null());

    // Another municipality's clerk cannot revoke it, and it stays active.
    let path = format!("{GRANTS}/{grant_id}");
    assert_problem(delete(&app, Some(&hayward), &path).await, 404, "not-found").await;
    assert_problem(delete(&app, Some(&staff), &path).await, 403, "forbidden").await;
    assert_problem(delete(&app, None, &path).await, 401, "unauthorized").await;
    assert_eq!(
        get_ok(&app, &deputy_token, "/v1/me").await["grants"][0]["id"],
        grant_id.as_str()
    );
    // Hayward's clerk cannot reach it through Hayward either.
    assert_problem(
        delete(
            &app,
            Some(&hayward),
            &format!("/v1/municipalities/hayward/grants/{grant_id}"),
        )
        .await,
        404,
        "not-found",
    )
    .await;

    // The clerk revokes it: the deputy's token loses the role (its only one).
    assert_eq!(delete(&app, Some(&clerk), &path).await.status(), 204);
    assert_problem(
        app.get_as(&deputy_token, "/v1/me").await,
        401,
        "unauthorized",
    )
    .await;
    assert_eq!(
        delete(&app, Some(&clerk), &path).await.status(),
        204,
        "idempotent"
    );
    assert_problem(
        delete(&app, Some(&clerk), &format!("{GRANTS}/no-such-grant")).await,
        404,
        "not-found",
    )
    .await;
    let all = get_ok(&app, &clerk, GRANTS).await;
    let revoked = all["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == grant_id.as_str())
        .unwrap();
    assert_eq!(revoked["active"], false);
    assert!(revoked["revoked_at"].is_string());
    let active = get_ok(&app, &clerk, &format!("{GRANTS}?active=true")).await;
    assert_eq!(active["items"].as_array().unwrap().len(), 5);
    assert!(!active.to_string().contains(&grant_id));
}

#[actix_web::test]
async fn a_clerk_cannot_revoke_their_own_last_clerk_grant() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let me = get_ok(&app, &clerk, "/v1/me").await;
    let own = me["grants"][0]["id"].as_str().unwrap().to_owned();
    let body = assert_problem(
        delete(&app, Some(&clerk), &format!("{GRANTS}/{own}")).await,
        409,
        "conflict",
    )
    .await;
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("last clerk_treasurer")
    );
    assert_eq!(
        get_ok(&app, &clerk, "/v1/me").await["grants"][0]["id"],
        own.as_str()
    );

    // Another clerk-treasurer's grant can be revoked.
    let res = post(
        &app,
        Some(&clerk),
        GRANTS,
        &json!({"email": "second@montello.demo", "display_name": "Second Clerk",
                "role": "clerk_treasurer", "password": NEW_PASSWORD}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let second = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        delete(&app, Some(&clerk), &format!("{GRANTS}/{second}"))
            .await
            .status(),
        204
    );
}

#[actix_web::test]
async fn grant_requests_are_validated_field_by_field() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let with = |patch: Value| {
        let mut body = deputy();
        for (k, v) in patch.as_object().unwrap() {
            if v.is_null() {
                body.as_object_mut().unwrap().remove(k);
            } else {
                body[k] = v.clone();
            }
        }
        body
    };
    let cases = [
        (json!({"role": "commission_member"}), "role", "zone_role"),
        (json!({"role": "superuser"}), "role", "known_role"),
        (
            json!({"role": "operator"}),
            "payor_id",
            "required_for_operator",
        ),
        (
            json!({"role": "operator", "payor_id": roomtax::demo::HAYWARD_LODGE_ID}),
            "payor_id",
            "payor_exists",
        ),
        (
            json!({"payor_id": roomtax::demo::MONTELLO_MOTEL_ID}),
            "payor_id",
            "operator_only",
        ),
        (
            json!({"password": null}),
            "password",
            "required_for_new_user",
        ),
        (json!({"password": "short"}), "password", "password_policy"),
        (json!({"email": "not-an-email"}), "email", "email_format"),
        (json!({"display_name": "  "}), "display_name", "length"),
    ];
    for (patch, field, rule) in cases {
        assert_invalid(
            post(&app, Some(&clerk), GRANTS, &with(patch)).await,
            field,
            rule,
        )
        .await;
    }
    let res = post(&app, Some(&clerk), GRANTS, &with(json!({"admin": true}))).await;
    assert_problem(res, 400, "unknown-field").await;
    crate::helpers::check::assert_problem(
        app.get_as(&clerk, &format!("{GRANTS}?cursor=garbage"))
            .await,
        400,
        "invalid-parameter",
        Some("cursor"),
    )
    .await;
    // Nothing was created by the refused requests.
    let list = get_ok(&app, &clerk, GRANTS).await;
    assert_eq!(list["items"].as_array().unwrap().len(), 4, "{list}");
}

//! `/v1/municipalities/{m}/grants` and `/v1/zones/{z}/grants`: a tenant's
//! administrator (clerk-treasurer, zone admin) manages its users and grants.
//! The behaviours both kinds of tenant share run for each ([`KINDS`]); what
//! only one has (operators and payors, sign-in of the new user, the zone's
//! refusal of municipal roles) has its own test.

use serde_json::{Value, json};

use super::{
    CLERK, COMMISSION, HAYWARD_CLERK, STAFF, ZONE_ADMIN, assert_invalid, assert_refusals, delete,
    get_ok, post,
};
use crate::helpers::{TestApp, assert_problem, spawn_demo_app};

const GRANTS: &str = "/v1/municipalities/montello/grants";
const ZONE_GRANTS: &str = "/v1/zones/marquette-county/grants";
const NEW_PASSWORD: &str = "a fine initial password";

/// One kind of tenant, as its grant tests see it.
struct Kind {
    /// The grants collection.
    grants: &'static str,
    /// Its administrator (may manage users).
    admin: &'static str,
    /// Related to the tenant, without the right: 403.
    related: &'static str,
    /// No relation to the tenant: 404.
    unrelated: &'static str,
    /// A grant request for a new user.
    body: fn() -> Value,
    /// The role `body` grants.
    role: &'static str,
    /// The new user's email, as stored.
    email: &'static str,
    /// Active grants in the demo.
    demo_grants: usize,
    /// The administrator role that may not be left without a holder.
    admin_role: &'static str,
}

const MUNICIPALITY: Kind = Kind {
    grants: GRANTS,
    admin: CLERK,
    related: STAFF,
    unrelated: HAYWARD_CLERK,
    body: deputy,
    role: "municipal_staff",
    email: "deputy@montello.demo",
    demo_grants: 4,
    admin_role: "clerk_treasurer",
};

const ZONE: Kind = Kind {
    grants: ZONE_GRANTS,
    admin: ZONE_ADMIN,
    related: COMMISSION,
    unrelated: HAYWARD_CLERK,
    body: promoter,
    role: "tourism_entity",
    email: "promoter@marquette-county.demo",
    demo_grants: 3,
    admin_role: "zone_admin",
};

const KINDS: [&Kind; 2] = [&MUNICIPALITY, &ZONE];

fn deputy() -> Value {
    json!({
        "email": "Deputy@Montello.demo",
        "display_name": "Deputy Clerk",
        "role": "municipal_staff",
        "password": NEW_PASSWORD
    })
}

fn promoter() -> Value {
    json!({"email": "promoter@marquette-county.demo", "display_name": "Promoter",
           "role": "tourism_entity", "password": NEW_PASSWORD})
}

/// GET `path` with `token` when given.
async fn get_with(app: &TestApp, token: Option<String>, path: &str) -> reqwest::Response {
    let mut req = app.client.get(app.url(path));
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    req.send().await.unwrap()
}

/// The number of items of a list answer.
fn count(list: &Value) -> usize {
    list["items"].as_array().unwrap().len()
}

/// Grant `kind.body()` as the administrator: the grant's JSON, checked.
async fn grant_new_user(app: &TestApp, kind: &Kind, admin: &str) -> Value {
    let res = post(app, Some(admin), kind.grants, &(kind.body)()).await;
    assert_eq!(res.status(), 201, "{}", kind.grants);
    let created: Value = res.json().await.unwrap();
    assert_eq!(created["role"], kind.role);
    assert_eq!(created["user"]["email"], kind.email);
    assert_eq!(created["user_created"], true);
    assert_eq!(created["active"], true);
    assert!(created["revoked_at"].is_null());
    assert!(created["created_at"].as_str().unwrap().ends_with('Z'));
    assert!(!created.to_string().contains(NEW_PASSWORD));
    created
}

#[actix_web::test]
async fn each_kind_grants_lists_and_revokes_others_are_refused() {
    for kind in KINDS {
        let app = spawn_demo_app().await;
        let admin = app.token(kind.admin).await;
        let related = app.token(kind.related).await;
        let unrelated = app.token(kind.unrelated).await;

        // Refusals change nothing.
        let body = (kind.body)();
        let (app_ref, body_ref) = (&app, &body);
        assert_refusals(
            |t| async move { post(app_ref, t.as_deref(), kind.grants, body_ref).await },
            &related,
            &unrelated,
        )
        .await;
        assert_refusals(
            |t| async move { get_with(app_ref, t, kind.grants).await },
            &related,
            &unrelated,
        )
        .await;
        let before = get_ok(&app, &admin, kind.grants).await;
        assert_eq!(count(&before), kind.demo_grants, "{before}");
        assert!(!before.to_string().contains(kind.email), "{before}");

        let created = grant_new_user(&app, kind, &admin).await;
        let grant_id = created["id"].as_str().unwrap().to_owned();

        // The same role twice is a conflict.
        assert_problem(
            post(&app, Some(&admin), kind.grants, &(kind.body)()).await,
            409,
            "conflict",
        )
        .await;

        // The list shows it first.
        let list = get_ok(&app, &admin, kind.grants).await;
        assert_eq!(
            count(&list),
            kind.demo_grants + 1,
            "the demo grants and the new one"
        );
        assert_eq!(list["items"][0]["id"], grant_id.as_str());

        // Nobody else revokes it, and it stays active.
        let path = format!("{}/{grant_id}", kind.grants);
        assert_problem(
            delete(&app, Some(&unrelated), &path).await,
            404,
            "not-found",
        )
        .await;
        assert_problem(delete(&app, Some(&related), &path).await, 403, "forbidden").await;
        assert_problem(delete(&app, None, &path).await, 401, "unauthorized").await;
        let active = format!("{}?active=true", kind.grants);
        assert_eq!(
            count(&get_ok(&app, &admin, &active).await),
            kind.demo_grants + 1
        );

        // The administrator revokes it (idempotent); the row stays, inactive.
        assert_eq!(delete(&app, Some(&admin), &path).await.status(), 204);
        assert_eq!(
            delete(&app, Some(&admin), &path).await.status(),
            204,
            "idempotent"
        );
        assert_problem(
            delete(
                &app,
                Some(&admin),
                &format!("{}/no-such-grant", kind.grants),
            )
            .await,
            404,
            "not-found",
        )
        .await;
        let all = get_ok(&app, &admin, kind.grants).await;
        let revoked = all["items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == grant_id.as_str())
            .unwrap();
        assert_eq!(revoked["active"], false);
        assert!(revoked["revoked_at"].is_string());
        let active = get_ok(&app, &admin, &active).await;
        assert_eq!(count(&active), kind.demo_grants);
        assert!(!active.to_string().contains(&grant_id));

        // A cursor this service did not give is refused, naming it.
        crate::helpers::check::assert_problem(
            app.get_as(&admin, &format!("{}?cursor=garbage", kind.grants))
                .await,
            400,
            "invalid-parameter",
            Some("cursor"),
        )
        .await;
    }
}

#[actix_web::test]
async fn each_kind_keeps_the_callers_own_last_admin_grant() {
    for kind in KINDS {
        let app = spawn_demo_app().await;
        let admin = app.token(kind.admin).await;
        let me = get_ok(&app, &admin, "/v1/me").await;
        let own = me["grants"][0]["id"].as_str().unwrap().to_owned();
        let body = assert_problem(
            delete(&app, Some(&admin), &format!("{}/{own}", kind.grants)).await,
            409,
            "conflict",
        )
        .await;
        assert!(
            body["detail"]
                .as_str()
                .unwrap()
                .contains(&format!("last {}", kind.admin_role)),
            "{body}"
        );
        assert_eq!(
            get_ok(&app, &admin, "/v1/me").await["grants"][0]["id"],
            own.as_str()
        );

        // Another holder of the administrator role can be revoked.
        let mut second = (kind.body)();
        second["email"] = json!("second@roomtax.demo");
        second["role"] = json!(kind.admin_role);
        let res = post(&app, Some(&admin), kind.grants, &second).await;
        assert_eq!(res.status(), 201);
        let second = res.json::<Value>().await.unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(
            delete(&app, Some(&admin), &format!("{}/{second}", kind.grants))
                .await
                .status(),
            204
        );
    }
}

#[actix_web::test]
async fn a_new_municipal_user_signs_in_and_an_existing_one_keeps_its_account() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let hayward = app.token(HAYWARD_CLERK).await;

    let created = grant_new_user(&app, &MUNICIPALITY, &clerk).await;
    assert_eq!(created["user"]["display_name"], "Deputy Clerk");
    assert!(created["payor_id"].is_null());
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

    // An existing user (here: of another municipality) keeps its account,
    // name and password.
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
    assert_eq!(
        get_ok(&app, &deputy_token, "/v1/me").await["grants"][0]["id"],
        grant_id.as_str()
    );

    // Revoked, the deputy's token loses the role (its only one).
    let path = format!("{GRANTS}/{grant_id}");
    assert_eq!(delete(&app, Some(&clerk), &path).await.status(), 204);
    assert_problem(
        app.get_as(&deputy_token, "/v1/me").await,
        401,
        "unauthorized",
    )
    .await;
    let active = get_ok(&app, &clerk, &format!("{GRANTS}?active=true")).await;
    assert_eq!(active["items"].as_array().unwrap().len(), 5);
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
    // Nothing was created by the refused requests.
    let list = get_ok(&app, &clerk, GRANTS).await;
    assert_eq!(list["items"].as_array().unwrap().len(), 4, "{list}");
}

#[actix_web::test]
async fn a_zone_admin_grants_only_zone_roles() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let montello_clerk = app.token(CLERK).await;
    let body = promoter();

    // A member municipality's clerk is related to the zone, but no admin of it.
    assert_problem(
        post(&app, Some(&montello_clerk), ZONE_GRANTS, &body).await,
        403,
        "forbidden",
    )
    .await;
    assert_problem(
        app.get_as(&admin, "/v1/zones/nowhere/grants").await,
        404,
        "not-found",
    )
    .await;

    let created = grant_new_user(&app, &ZONE, &admin).await;
    assert!(created.get("payor_id").is_none());

    // A zone admin never grants a municipal role (that would reach confidential data).
    let mut clerk_body = body.clone();
    clerk_body["role"] = json!("clerk_treasurer");
    assert_invalid(
        post(&app, Some(&admin), ZONE_GRANTS, &clerk_body).await,
        "role",
        "municipality_role",
    )
    .await;
    let mut with_payor = body.clone();
    with_payor["payor_id"] = json!(roomtax::demo::MONTELLO_MOTEL_ID);
    assert_problem(
        post(&app, Some(&admin), ZONE_GRANTS, &with_payor).await,
        400,
        "unknown-field",
    )
    .await;
    let list = get_ok(&app, &admin, ZONE_GRANTS).await;
    assert_eq!(count(&list), 4, "three demo grants and the new one");
}

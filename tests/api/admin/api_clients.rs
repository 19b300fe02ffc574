//! API clients: registered by a clerk-treasurer or a zone admin, then used
//! through `POST /v1/oauth/token` (client credentials).

use serde_json::{Value, json};

use super::{
    CLERK, COMMISSION, HAYWARD_CLERK, STAFF, ZONE_ADMIN, assert_invalid, assert_refusals, delete,
    get_ok, post,
};
use crate::helpers::{TestApp, assert_problem, spawn_demo_app};

const CLIENTS: &str = "/v1/municipalities/montello/api-clients";
const ZONE_CLIENTS: &str = "/v1/zones/marquette-county/api-clients";

async fn token_request(app: &TestApp, id: &str, secret: &str, scope: &str) -> reqwest::Response {
    app.client
        .post(app.url("/v1/oauth/token"))
        .form(&[
            ("grant_type", "client_credentials"),
            ("client_id", id),
            ("client_secret", secret),
            ("scope", scope),
        ])
        .send()
        .await
        .unwrap()
}

async fn oauth_error(res: reqwest::Response, status: u16, error: &str) {
    assert_eq!(res.status().as_u16(), status);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["error"], error, "{body}");
}

#[actix_web::test]
async fn a_clerk_registers_a_client_that_gets_tokens_until_revoked() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    let hayward = app.token(HAYWARD_CLERK).await;

    let body = json!({"name": "Booking sync", "scopes": ["payors:read", "returns:read"]});
    let (app_ref, body_ref) = (&app, &body);
    assert_refusals(
        |t| async move { post(app_ref, t.as_deref(), CLIENTS, body_ref).await },
        &staff,
        &hayward,
    )
    .await;

    let res = post(&app, Some(&clerk), CLIENTS, &body).await;
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    let id = created["client_id"].as_str().unwrap().to_owned();
    let secret = created["client_secret"].as_str().unwrap().to_owned();
    assert_eq!(secret.len(), 43);
    assert_eq!(created["name"], "Booking sync");
    assert_eq!(created["scopes"], json!(["payors:read", "returns:read"]));

    // Listed, never with its secret; other tenants see nothing of it.
    let res = app.get_as(&clerk, CLIENTS).await;
    assert_eq!(res.status(), 200);
    let text = res.text().await.unwrap();
    assert!(
        !text.contains(&secret) && !text.contains("client_secret"),
        "{text}"
    );
    let list: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        list["items"].as_array().unwrap().len(),
        1,
        "the refused requests added none"
    );
    assert_eq!(list["items"][0]["client_id"], id.as_str());
    assert_eq!(list["items"][0]["active"], true);
    assert_problem(app.get_as(&staff, CLIENTS).await, 403, "forbidden").await;
    assert_problem(app.get_as(&hayward, CLIENTS).await, 404, "not-found").await;
    assert_problem(app.get(CLIENTS).await, 401, "unauthorized").await;
    let theirs = get_ok(&app, &hayward, "/v1/municipalities/hayward/api-clients").await;
    assert!(theirs["items"].as_array().unwrap().is_empty());

    // Client credentials: a token confined to the asked scope.
    let res = token_request(&app, &id, &secret, "payors:read").await;
    assert_eq!(res.status(), 200);
    let token: Value = res.json().await.unwrap();
    assert_eq!(token["scope"], "payors:read");
    let access = token["access_token"].as_str().unwrap().to_owned();
    let me = get_ok(&app, &access, "/v1/me").await;
    assert_eq!(me["kind"], "client");
    assert_eq!(me["id"], id.as_str());
    assert_eq!(me["scopes"], json!(["payors:read"]));
    // A client is not a clerk: it administers nothing.
    assert_problem(app.get_as(&access, CLIENTS).await, 403, "forbidden").await;

    oauth_error(
        token_request(&app, &id, "not-the-secret", "payors:read").await,
        401,
        "invalid_client",
    )
    .await;
    oauth_error(
        token_request(&app, &id, &secret, "returns:write").await,
        400,
        "invalid_scope",
    )
    .await;

    // Revoking: refused to others, then the token stops working and no new one is issued.
    let path = format!("{CLIENTS}/{id}");
    assert_problem(delete(&app, Some(&hayward), &path).await, 404, "not-found").await;
    assert_problem(delete(&app, Some(&staff), &path).await, 403, "forbidden").await;
    assert_problem(delete(&app, None, &path).await, 401, "unauthorized").await;
    assert_eq!(app.get_as(&access, "/v1/me").await.status(), 200);
    assert_eq!(delete(&app, Some(&clerk), &path).await.status(), 204);
    assert_problem(app.get_as(&access, "/v1/me").await, 401, "unauthorized").await;
    oauth_error(
        token_request(&app, &id, &secret, "payors:read").await,
        401,
        "invalid_client",
    )
    .await;
    assert_eq!(
        delete(&app, Some(&clerk), &path).await.status(),
        204,
        "idempotent"
    );
    assert_problem(
        delete(&app, Some(&clerk), &format!("{CLIENTS}/nope")).await,
        404,
        "not-found",
    )
    .await;
    let list = get_ok(&app, &clerk, CLIENTS).await;
    assert_eq!(list["items"][0]["active"], false);
    assert!(
        get_ok(&app, &clerk, &format!("{CLIENTS}?active=true")).await["items"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[actix_web::test]
async fn client_registrations_are_validated() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let admin = app.token(ZONE_ADMIN).await;
    assert_invalid(
        post(
            &app,
            Some(&clerk),
            CLIENTS,
            &json!({"name": "x", "scopes": ["payors:read", "payors:delete"]}),
        )
        .await,
        "scopes[1]",
        "known_scope",
    )
    .await;
    assert_invalid(
        post(
            &app,
            Some(&clerk),
            CLIENTS,
            &json!({"name": "x", "scopes": []}),
        )
        .await,
        "scopes",
        "not_empty",
    )
    .await;
    assert_invalid(
        post(
            &app,
            Some(&clerk),
            CLIENTS,
            &json!({"name": " ", "scopes": ["payors:read"]}),
        )
        .await,
        "name",
        "length",
    )
    .await;
    // A zone's client may not hold a municipal confidential scope.
    assert_invalid(
        post(
            &app,
            Some(&admin),
            ZONE_CLIENTS,
            &json!({"name": "x", "scopes": ["payors:read"]}),
        )
        .await,
        "scopes[0]",
        "zone_scope",
    )
    .await;
    assert!(
        get_ok(&app, &clerk, CLIENTS).await["items"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(
        get_ok(&app, &admin, ZONE_CLIENTS).await["items"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[actix_web::test]
async fn a_zone_admin_registers_zone_clients() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let commission = app.token(COMMISSION).await;
    let hayward = app.token(HAYWARD_CLERK).await;

    let body = json!({"name": "Zone dashboard", "scopes": ["policies:read"]});
    let (app_ref, body_ref) = (&app, &body);
    assert_refusals(
        |t| async move { post(app_ref, t.as_deref(), ZONE_CLIENTS, body_ref).await },
        &commission,
        &hayward,
    )
    .await;
    let res = post(&app, Some(&admin), ZONE_CLIENTS, &body).await;
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    let id = created["client_id"].as_str().unwrap();
    let secret = created["client_secret"].as_str().unwrap();
    let res = token_request(&app, id, secret, "policies:read").await;
    assert_eq!(res.status(), 200);
    let access = res.json::<Value>().await.unwrap()["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let me = get_ok(&app, &access, "/v1/me").await;
    assert_eq!(
        (me["kind"].as_str(), me["scopes"].clone()),
        (Some("client"), json!(["policies:read"]))
    );

    // The zone's clients are not the municipality's, and the reverse.
    let clerk = app.token(CLERK).await;
    assert!(
        get_ok(&app, &clerk, CLIENTS).await["items"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert_problem(
        delete(&app, Some(&clerk), &format!("{CLIENTS}/{id}")).await,
        404,
        "not-found",
    )
    .await;
    assert_problem(
        app.get_as(&commission, ZONE_CLIENTS).await,
        403,
        "forbidden",
    )
    .await;
    assert_eq!(
        get_ok(&app, &admin, ZONE_CLIENTS).await["items"][0]["client_id"],
        id
    );

    let path = format!("{ZONE_CLIENTS}/{id}");
    assert_problem(delete(&app, Some(&hayward), &path).await, 404, "not-found").await;
    assert_eq!(delete(&app, Some(&admin), &path).await.status(), 204);
    assert_problem(app.get_as(&access, "/v1/me").await, 401, "unauthorized").await;
}

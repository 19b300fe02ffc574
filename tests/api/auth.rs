//! Sign-in, refresh, logout, JWKS, /v1/me, and the token attacks of issue 4.

use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_demo_app};

const CLERK: &str = "clerk@montello.demo";

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Sign arbitrary claims with the service's own current key (so only the claim under test is wrong).
fn sign_with_service_key(app: &TestApp, claims: &Value) -> String {
    let current = &app.state.auth.keys.current;
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some(current.kid.clone());
    jsonwebtoken::encode(&header, claims, &current.encoding_key).unwrap()
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

async fn user_id(app: &TestApp, email: &str) -> String {
    let token = app.token(email).await;
    let me: Value = app.get_as(&token, "/v1/me").await.json().await.unwrap();
    me["id"].as_str().unwrap().to_owned()
}

fn claims(app: &TestApp, sub: &str) -> Value {
    json!({
        "iss": app.settings.token_issuer, "aud": app.settings.token_audience, "sub": sub,
        "exp": now() + 300, "iat": now(), "jti": "t1", "kind": "user"
    })
}

#[actix_web::test]
async fn sign_in_then_me_lists_the_grants() {
    let app = spawn_demo_app().await;
    let tokens = app.sign_in(CLERK).await;
    assert_eq!(tokens["token_type"], "Bearer");
    assert_eq!(tokens["expires_in"], 900);
    assert!(tokens["refresh_token"].as_str().unwrap().len() >= 40);
    let me: Value = app
        .get_as(tokens["access_token"].as_str().unwrap(), "/v1/me")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["kind"], "user");
    assert_eq!(me["email"], CLERK);
    assert_eq!(me["grants"][0]["role"], "clerk_treasurer");
    assert_eq!(me["grants"][0]["municipality"], "montello");

    let op: Value = app
        .get_as(&app.token("operator@montello.demo").await, "/v1/me")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        op["grants"][0]["payor_id"],
        roomtax::demo::MONTELLO_MOTEL_ID
    );
    assert_problem(app.get("/v1/me").await, 401, "unauthorized").await;
}

#[actix_web::test]
async fn failed_sign_ins_do_not_reveal_accounts_and_are_throttled() {
    let app = spawn_demo_app().await;
    let wrong = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": CLERK, "password": "not the password at all"}),
        )
        .await;
    let wrong = assert_problem(wrong, 401, "unauthorized").await;
    let unknown = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": "nobody@nowhere.demo", "password": "not the password at all"}),
        )
        .await;
    let unknown = assert_problem(unknown, 401, "unauthorized").await;
    assert_eq!(
        wrong["detail"], unknown["detail"],
        "the answer never says whether the email exists"
    );

    for _ in 0..4 {
        app.post_json(
            "/v1/auth/token",
            &json!({"email": CLERK, "password": "still wrong, sorry"}),
        )
        .await;
    }
    let res = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": CLERK, "password": app.password_of(CLERK)}),
        )
        .await;
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry > 0 && retry <= 15 * 60);
    assert_problem(res, 429, "too-many-requests").await;
    // Another account from the same address is not locked by these five.
    app.sign_in("staff@montello.demo").await;
}

#[actix_web::test]
async fn refresh_rotates_and_a_replay_revokes_the_family() {
    let app = spawn_demo_app().await;
    let first = app.sign_in(CLERK).await;
    let r1 = first["refresh_token"].as_str().unwrap();
    let res = app
        .post_json("/v1/auth/refresh", &json!({"refresh_token": r1}))
        .await;
    assert_eq!(res.status(), 200);
    let second: Value = res.json().await.unwrap();
    let r2 = second["refresh_token"].as_str().unwrap();
    assert_ne!(r1, r2);
    assert_eq!(
        app.get_as(second["access_token"].as_str().unwrap(), "/v1/me")
            .await
            .status(),
        200
    );

    // Replaying the spent token is refused and revokes the whole family, r2 included.
    let replay = app
        .post_json("/v1/auth/refresh", &json!({"refresh_token": r1}))
        .await;
    let body = assert_problem(replay, 401, "unauthorized").await;
    assert!(body["detail"].as_str().unwrap().contains("already used"));
    let after = app
        .post_json("/v1/auth/refresh", &json!({"refresh_token": r2}))
        .await;
    assert_problem(after, 401, "unauthorized").await;

    // Logout revokes a session.
    let third = app.sign_in(CLERK).await;
    let r3 = third["refresh_token"].as_str().unwrap();
    let res = app
        .post_json("/v1/auth/logout", &json!({"refresh_token": r3}))
        .await;
    assert_eq!(res.status(), 204);
    assert_problem(
        app.post_json("/v1/auth/refresh", &json!({"refresh_token": r3}))
            .await,
        401,
        "unauthorized",
    )
    .await;
}

#[actix_web::test]
async fn jwks_publishes_the_key_that_signs_tokens() {
    let app = spawn_demo_app().await;
    let jwks: Value = app
        .get("/.well-known/jwks.json")
        .await
        .json()
        .await
        .unwrap();
    let key = &jwks["keys"][0];
    assert_eq!(key["kty"], "OKP");
    assert_eq!(key["crv"], "Ed25519");
    assert_eq!(key["alg"], "EdDSA");
    let token = app.token(CLERK).await;
    let header = jsonwebtoken::decode_header(&token).unwrap();
    assert_eq!(header.alg, Algorithm::EdDSA);
    assert_eq!(header.kid.as_deref(), key["kid"].as_str());
    assert!(key.get("d").is_none(), "never the private part");
}

#[actix_web::test]
async fn forged_and_broken_tokens_are_401() {
    let app = spawn_demo_app().await;
    let sub = user_id(&app, CLERK).await;
    let good = claims(&app, &sub);
    // Sanity: the forging helper produces an accepted token.
    assert_eq!(
        app.get_as(&sign_with_service_key(&app, &good), "/v1/me")
            .await
            .status(),
        200
    );

    let mut attacks: Vec<(&str, String)> = Vec::new();
    // alg: none
    let none_header = b64(br#"{"alg":"none","typ":"JWT"}"#);
    attacks.push((
        "alg none",
        format!("{none_header}.{}.", b64(good.to_string().as_bytes())),
    ));
    // HS256 keyed with the public key (the classic algorithm confusion)
    let jwks: Value = app
        .get("/.well-known/jwks.json")
        .await
        .json()
        .await
        .unwrap();
    let x = jwks["keys"][0]["x"].as_str().unwrap();
    let mut hs = Header::new(Algorithm::HS256);
    hs.kid = jwks["keys"][0]["kid"].as_str().map(str::to_owned);
    attacks.push((
        "HS256 with public key",
        jsonwebtoken::encode(&hs, &good, &EncodingKey::from_secret(x.as_bytes()).unwrap()).unwrap(),
    ));
    // wrong signature
    let valid = sign_with_service_key(&app, &good);
    let (head, sig) = valid.rsplit_once('.').unwrap();
    let mut sig_bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(sig)
        .unwrap();
    sig_bytes[0] ^= 1;
    attacks.push(("flipped signature", format!("{head}.{}", b64(&sig_bytes))));
    let mut c = good.clone();
    c.as_object_mut().unwrap().remove("exp");
    attacks.push(("missing exp", sign_with_service_key(&app, &c)));
    let mut c = good.clone();
    c["exp"] = json!((now() + 300).to_string());
    attacks.push(("string exp", sign_with_service_key(&app, &c)));
    let mut c = good.clone();
    c["exp"] = json!(now() - 3600);
    c["iat"] = json!(now() - 7200);
    attacks.push(("expired", sign_with_service_key(&app, &c)));
    let mut c = good.clone();
    c["aud"] = json!("someone-else");
    attacks.push(("wrong aud", sign_with_service_key(&app, &c)));
    let mut c = good.clone();
    c["iss"] = json!("https://evil.example");
    attacks.push(("wrong iss", sign_with_service_key(&app, &c)));
    let mut c = good.clone();
    c.as_object_mut().unwrap().remove("sub");
    attacks.push(("missing sub", sign_with_service_key(&app, &c)));
    attacks.push(("garbage", "not.a.jwt".to_owned()));

    for (name, token) in attacks {
        let res = app.get_as(&token, "/v1/me").await;
        assert_eq!(res.status(), 401, "{name} must be refused");
        assert_problem(res, 401, "unauthorized").await;
    }
}

#[actix_web::test]
async fn tokens_of_deleted_users_and_revoked_grants_are_401() {
    let app = spawn_demo_app().await;
    let token = app.token("staff@montello.demo").await;
    assert_eq!(app.get_as(&token, "/v1/me").await.status(), 200);
    let staff = user_id(&app, "staff@montello.demo").await;
    let mut conn = app.owner_conn();
    roomtax::db::identity::delete_user(&mut conn, &staff).unwrap();
    assert_problem(app.get_as(&token, "/v1/me").await, 401, "unauthorized").await;

    let token = app.token("staff@hayward.demo").await;
    diesel::RunQueryDsl::execute(
        diesel::sql_query("UPDATE municipality_grants SET revoked_at = CURRENT_TIMESTAMP WHERE role = 'municipal_staff'"),
        &mut conn,
    )
    .unwrap();
    assert_problem(app.get_as(&token, "/v1/me").await, 401, "unauthorized").await;
}

#[actix_web::test]
async fn a_grant_revoked_by_another_process_is_seen_within_the_memos_bound() {
    let app = spawn_demo_app().await;
    let token = app.token("staff@hayward.demo").await;
    // Read once: the caller is now remembered (api::caller::remembered).
    assert_eq!(app.get_as(&token, "/v1/me").await.status(), 200);
    // What the command line or a second instance does: a write this process
    // does not make, so nothing here tells the memo.
    let mut conn = app.owner_conn();
    diesel::RunQueryDsl::execute(
        diesel::sql_query(
            "UPDATE municipality_grants SET revoked_at = CURRENT_TIMESTAMP WHERE role = 'municipal_staff'",
        ),
        &mut conn,
    )
    .unwrap();
    actix_web::rt::time::sleep(
        roomtax::api::caller::remembered::FRESH_FOR + std::time::Duration::from_millis(200),
    )
    .await;
    assert_problem(app.get_as(&token, "/v1/me").await, 401, "unauthorized").await;
    let municipal = "/v1/municipalities/hayward/payors";
    assert_problem(app.get_as(&token, municipal).await, 401, "unauthorized").await;
}

#[actix_web::test]
async fn tokens_signed_before_a_key_rotation_stay_valid_after_restart() {
    let app = spawn_demo_app().await;
    let old_token = app.token(CLERK).await;
    let old_kid = jsonwebtoken::decode_header(&old_token)
        .unwrap()
        .kid
        .unwrap();
    roomtax::auth::KeyRing::rotate(app.keys_dir.path()).unwrap();

    // A second instance on the same database and keys folder: what a restart gives.
    let restarted = roomtax::app::Application::build(&app.settings).unwrap();
    let base = format!("http://127.0.0.1:{}", restarted.port());
    actix_web::rt::spawn(restarted.run_until_stopped());
    let jwks: Value = app
        .client
        .get(format!("{base}/.well-known/jwks.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let kids: Vec<&str> = jwks["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kid"].as_str().unwrap())
        .collect();
    assert_eq!(kids.len(), 2);
    assert_ne!(kids[0], old_kid, "the new key is current");
    assert_eq!(kids[1], old_kid, "the previous key is still published");
    let res = app
        .client
        .get(format!("{base}/v1/me"))
        .bearer_auth(&old_token)
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        200,
        "a token of the previous key verifies until it expires"
    );

    let res = app
        .client
        .post(format!("{base}/v1/auth/token"))
        .json(&json!({"email": CLERK, "password": app.password_of(CLERK)}))
        .send()
        .await
        .unwrap();
    let fresh: Value = res.json().await.unwrap();
    let new_kid = jsonwebtoken::decode_header(fresh["access_token"].as_str().unwrap())
        .unwrap()
        .kid
        .unwrap();
    assert_eq!(new_kid, kids[0], "new tokens are signed with the new key");
}

#[actix_web::test]
async fn concurrent_replays_of_a_refresh_token_leave_one_winner_and_a_dead_family() {
    let app = spawn_demo_app().await;
    for _ in 0..3 {
        let refresh = app.sign_in(CLERK).await["refresh_token"]
            .as_str()
            .unwrap()
            .to_owned();
        let body = json!({"refresh_token": refresh});
        let attempts = (0..6).map(|_| app.post_json("/v1/auth/refresh", &body));
        let statuses: Vec<u16> = futures_util::future::join_all(attempts)
            .await
            .into_iter()
            .map(|r| r.status().as_u16())
            .collect();
        assert_eq!(
            statuses.iter().filter(|s| **s == 200).count(),
            1,
            "{statuses:?}"
        );
        assert!(
            statuses.iter().all(|s| *s == 200 || *s == 401),
            "{statuses:?}"
        );
    }
}

#[actix_web::test]
async fn concurrent_requests_never_fail_with_a_locked_database() {
    let app = spawn_demo_app().await;
    let token = app.token(CLERK).await;
    let path = format!(
        "/v1/municipalities/montello/payors/{}",
        roomtax::demo::MONTELLO_MOTEL_ID
    );
    let reads = (0..24).map(|_| app.get_as(&token, &path));
    let statuses: Vec<u16> = futures_util::future::join_all(reads)
        .await
        .into_iter()
        .map(|r| r.status().as_u16())
        .collect();
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
}

#[actix_web::test]
async fn a_retired_key_verifies_only_what_it_signed_before_retirement() {
    let app = spawn_demo_app().await;
    let sub = user_id(&app, CLERK).await;
    // Rotated two minutes ago (say, because the old key leaked).
    roomtax::auth::KeyRing::rotate_with(app.keys_dir.path(), now() - 120, None).unwrap();
    let restarted = roomtax::app::Application::build(&app.settings).unwrap();
    let base = format!("http://127.0.0.1:{}", restarted.port());
    actix_web::rt::spawn(restarted.run_until_stopped());
    let me = |token: String| {
        let client = app.client.clone();
        let url = format!("{base}/v1/me");
        async move {
            client
                .get(url)
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }
    };
    let mut before = claims(&app, &sub);
    before["iat"] = json!(now() - 200);
    assert_eq!(
        me(sign_with_service_key(&app, &before)).await,
        200,
        "issued while the key was current"
    );
    let after = claims(&app, &sub);
    assert_eq!(
        me(sign_with_service_key(&app, &after)).await,
        401,
        "minted with the old key after its retirement"
    );
}

#[actix_web::test]
async fn parallel_guesses_cannot_outrun_the_throttle() {
    let app = spawn_demo_app().await;
    let body =
        json!({"email": "staff@montello.demo", "password": "a wrong guess, sent in parallel"});
    let guesses = (0..12).map(|_| app.post_json("/v1/auth/token", &body));
    let statuses: Vec<u16> = futures_util::future::join_all(guesses)
        .await
        .into_iter()
        .map(|r| r.status().as_u16())
        .collect();
    let checked = statuses.iter().filter(|s| **s == 401).count();
    assert!(
        checked <= 5,
        "at most 5 passwords checked per account: {statuses:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 401 || *s == 429),
        "{statuses:?}"
    );
}

async fn post_as(app: &TestApp, token: &str, path: &str, body: &Value) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("request sent")
}

fn field_of(problem: &Value) -> &str {
    problem["errors"][0]["field"].as_str().unwrap_or_default()
}

#[actix_web::test]
async fn an_account_without_any_active_grant_cannot_sign_in_or_refresh() {
    let app = spawn_demo_app().await;
    let email = "staff@hayward.demo";
    let tokens = app.sign_in(email).await;
    let mut conn = app.owner_conn();
    diesel::RunQueryDsl::execute(
        diesel::sql_query(
            "UPDATE municipality_grants SET revoked_at = CURRENT_TIMESTAMP \
             WHERE user_id = (SELECT id FROM users WHERE email = 'staff@hayward.demo')",
        ),
        &mut conn,
    )
    .unwrap();
    // The right password: 403, saying why.
    let res = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": email, "password": app.password_of(email)}),
        )
        .await;
    let problem = assert_problem(res, 403, "forbidden").await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("no active role or disclosure"),
        "{problem}"
    );
    // A wrong password for that account reads exactly like an unknown email: no oracle.
    let wrong = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": email, "password": "not the password at all"}),
        )
        .await;
    let wrong = assert_problem(wrong, 401, "unauthorized").await;
    let unknown = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": "nobody@hayward.demo", "password": "not the password at all"}),
        )
        .await;
    let unknown = assert_problem(unknown, 401, "unauthorized").await;
    assert_eq!(wrong["detail"], unknown["detail"]);
    // Refresh of the session it had: the same 403, and the session is revoked.
    let refresh = json!({"refresh_token": tokens["refresh_token"]});
    let problem = assert_problem(
        app.post_json("/v1/auth/refresh", &refresh).await,
        403,
        "forbidden",
    )
    .await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("no active role or disclosure")
    );
    assert_problem(
        app.post_json("/v1/auth/refresh", &refresh).await,
        401,
        "unauthorized",
    )
    .await;
    // Others still sign in.
    app.sign_in("clerk@hayward.demo").await;
}

#[actix_web::test]
async fn a_person_changes_their_password_and_every_session_ends() {
    let app = spawn_demo_app().await;
    let email = "staff@montello.demo";
    let old = app.password_of(email);
    let first = app.sign_in(email).await;
    let second = app.sign_in(email).await;
    let token = first["access_token"].as_str().unwrap();
    let path = "/v1/me/password";
    let new = "a much longer new passphrase 2026";

    let cases = [
        (
            json!({"current_password": "wrong password here", "new_password": new}),
            "current_password",
        ),
        (
            json!({"current_password": old, "new_password": "short"}),
            "new_password",
        ),
        (
            json!({"current_password": old, "new_password": old}),
            "new_password",
        ),
    ];
    for (body, field) in cases {
        let problem = assert_problem(
            post_as(&app, token, path, &body).await,
            422,
            "validation-failed",
        )
        .await;
        assert_eq!(field_of(&problem), field, "{problem}");
    }
    let missing = post_as(&app, token, path, &json!({"new_password": new})).await;
    assert_eq!(missing.status(), 422);
    assert_problem(
        app.post_json(path, &json!({"current_password": old, "new_password": new}))
            .await,
        401,
        "unauthorized",
    )
    .await;

    let res = post_as(
        &app,
        token,
        path,
        &json!({"current_password": old, "new_password": new}),
    )
    .await;
    assert_eq!(res.status(), 204);
    for session in [&first, &second] {
        assert_problem(
            app.post_json(
                "/v1/auth/refresh",
                &json!({"refresh_token": session["refresh_token"]}),
            )
            .await,
            401,
            "unauthorized",
        )
        .await;
    }
    let with = |password: &str| json!({"email": email, "password": password});
    assert_eq!(
        app.post_json("/v1/auth/token", &with(&old)).await.status(),
        401
    );
    assert_eq!(
        app.post_json("/v1/auth/token", &with(new)).await.status(),
        200
    );
}

#[actix_web::test]
async fn wrong_current_passwords_are_throttled_like_sign_ins() {
    let app = spawn_demo_app().await;
    let token = app.token("clerk@hayward.demo").await;
    let body =
        json!({"current_password": "guess number one!", "new_password": "a good new passphrase"});
    for _ in 0..5 {
        let res = post_as(&app, &token, "/v1/me/password", &body).await;
        assert_eq!(res.status(), 422);
    }
    let res = post_as(&app, &token, "/v1/me/password", &body).await;
    assert!(res.headers().contains_key("retry-after"));
    assert_problem(res, 429, "too-many-requests").await;
}

#[actix_web::test]
async fn an_api_client_has_no_password_to_change() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let created: Value = post_as(
        &app,
        &clerk,
        "/v1/municipalities/montello/api-clients",
        &json!({"name": "Bookkeeping app", "scopes": ["payors:read"]}),
    )
    .await
    .json()
    .await
    .unwrap();
    let res = app
        .post_json(
            "/v1/oauth/token",
            &json!({"grant_type": "client_credentials", "client_id": created["client_id"],
                    "client_secret": created["client_secret"]}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let token: Value = res.json().await.unwrap();
    let res = post_as(
        &app,
        token["access_token"].as_str().unwrap(),
        "/v1/me/password",
        &json!({"current_password": "whatever it is now", "new_password": "a good new passphrase"}),
    )
    .await;
    assert_problem(res, 403, "forbidden").await;
}

//! The web portal over HTTP (issue 11): cookies and their attributes, CSRF
//! refusal, sessions revoked at sign-out and on a password change, the
//! tenancy gate, no confidential value on a page its reader may not see, the
//! public calculator against the API's quote, and the security headers.
//! On SQLite and, with `ROOMTAX_TEST_DATABASE_URL`, on PostgreSQL.

use reqwest::header;
use serde_json::json;

use crate::helpers::spawn_demo_app;
use crate::web_browser::Browser;

const LAKESIDE: &str = "5b0c8c1e-0000-4000-8000-000000000001";

fn has_attr(cookie: &str, attr: &str) -> bool {
    cookie
        .split(';')
        .any(|a| a.trim().eq_ignore_ascii_case(attr) || a.trim().starts_with(&format!("{attr}=")))
}

#[actix_web::test]
async fn session_cookie_is_http_only_strict_and_only_its_digest_is_stored() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    let visitor = b.get("/app/sign-in").await;
    let v = visitor
        .set_cookie("roomtax_visitor")
        .expect("a visitor cookie");
    assert!(
        has_attr(&v, "HttpOnly") && has_attr(&v, "SameSite=Strict"),
        "{v}"
    );
    let cookie = b.sign_in("operator@montello.demo").await;
    for attr in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age"] {
        assert!(has_attr(&cookie, attr), "{attr} missing in {cookie}");
    }
    assert!(
        !has_attr(&cookie, "Secure"),
        "plain HTTP without an https public URL: {cookie}"
    );
    let secret = b.cookies["roomtax_session"].clone();
    // The database holds the digest, never the secret.
    let digest = roomtax::auth::opaque::digest(&secret);
    let found = app
        .state
        .db
        .run(move |conn| {
            let by_digest = roomtax::db::web_sessions::live_by_digest(
                conn,
                &digest,
                roomtax::db::identity::now(),
            )?;
            let by_secret = roomtax::db::web_sessions::live_by_digest(
                conn,
                &secret,
                roomtax::db::identity::now(),
            )?;
            Ok((by_digest.is_some(), by_secret.is_some()))
        })
        .await
        .unwrap();
    assert_eq!(found, (true, false));
    // One place: straight to its home, where the operator sees what is due.
    let places = b.get("/app/").await;
    assert_eq!(
        (places.status.as_u16(), places.location()),
        (303, "/app/m/montello")
    );
    let home = b.get("/app/m/montello").await;
    assert_eq!(home.status, 200, "{}", home.body);
    assert!(
        home.body.contains("What is due in") && home.body.contains(LAKESIDE),
        "{}",
        home.body
    );
    // `/` leads a signed-in person to their places, anyone else to the public pages.
    assert_eq!(b.get("/").await.location(), "/app/");
    assert_eq!(Browser::new(&app).get("/").await.location(), "/app/public");
}

#[actix_web::test]
async fn cookies_are_secure_behind_tls() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    b.forwarded_https = true;
    let cookie = b.sign_in("clerk@montello.demo").await;
    assert!(has_attr(&cookie, "Secure"), "{cookie}");
}

#[actix_web::test]
async fn a_post_without_its_csrf_token_is_refused() {
    let app = spawn_demo_app().await;
    let password = app.password_of("clerk@montello.demo");
    let mut b = Browser::new(&app);
    b.get("/app/sign-in").await;
    for token in [None, Some("0".repeat(64))] {
        let mut fields = vec![
            ("email", "clerk@montello.demo"),
            ("password", password.as_str()),
        ];
        if let Some(t) = &token {
            fields.push(("csrf_token", t));
        }
        let page = b.post("/app/sign-in", &fields).await;
        assert_eq!(page.status, 403, "{token:?}");
        assert!(page.body.contains("csrf_token_invalid"), "{}", page.body);
        assert!(page.set_cookie("roomtax_session").is_none());
    }
    // Signed in: a visitor's token (or none) does not sign out, the session's does.
    let visitor_token = b.get("/app/sign-in").await.csrf();
    b.sign_in("clerk@montello.demo").await;
    let refused = b
        .post("/app/sign-out", &[("csrf_token", &visitor_token)])
        .await;
    assert_eq!(refused.status, 403);
    assert_eq!(b.get("/app/m/montello").await.status, 200);
    // Another session's token does not work either.
    let mut other = Browser::new(&app);
    other.sign_in("clerk@montello.demo").await;
    let other_token = other.get("/app/m/montello").await.csrf();
    assert_eq!(
        b.post("/app/sign-out", &[("csrf_token", &other_token)])
            .await
            .status,
        403
    );
    // The public calculator's form is held to the same rule.
    let calc = Browser::new(&app)
        .post(
            "/app/public/calculator",
            &[
                ("municipality", "montello"),
                ("period", "2026-Q1"),
                ("gross_receipts", "100.00"),
            ],
        )
        .await;
    assert_eq!(calc.status, 403);
}

#[actix_web::test]
async fn sign_out_revokes_the_session() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    let stolen = b.cookies["roomtax_session"].clone();
    let token = b.get("/app/m/montello").await.csrf();
    let out = b.post("/app/sign-out", &[("csrf_token", &token)]).await;
    assert_eq!((out.status.as_u16(), out.location()), (303, "/app/public"));
    let cleared = out.set_cookie("roomtax_session").unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    // The old cookie, replayed, opens nothing: back to the sign-in page.
    let mut replay = Browser::new(&app);
    replay.cookies.insert("roomtax_session".into(), stolen);
    let page = replay.get("/app/m/montello").await;
    assert_eq!(
        (page.status.as_u16(), page.location()),
        (303, "/app/sign-in")
    );
}

#[actix_web::test]
async fn a_password_change_revokes_web_sessions() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    assert_eq!(b.get("/app/m/montello").await.status, 200);
    let token = app.token("clerk@montello.demo").await;
    let res = app
        .client
        .post(app.url("/v1/me/password"))
        .bearer_auth(&token)
        .json(&json!({
            "current_password": app.password_of("clerk@montello.demo"),
            "new_password": "a brand new passphrase"
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 204);
    let page = b.get("/app/m/montello").await;
    assert_eq!(
        (page.status.as_u16(), page.location()),
        (303, "/app/sign-in")
    );
}

#[actix_web::test]
async fn the_tenancy_gate_holds_and_no_confidential_value_leaks() {
    let app = spawn_demo_app().await;
    // Hayward's operator: Montello's pages do not exist for it.
    let mut hayward = Browser::new(&app);
    hayward.sign_in("operator@hayward.demo").await;
    let page = hayward.get("/app/m/montello").await;
    assert_eq!(page.status, 404);
    assert!(!page.body.contains(LAKESIDE) && !page.body.contains("Lakeside"));
    // The commission member: the zone's home, never an operator's figures.
    let mut commission = Browser::new(&app);
    commission.sign_in("commission@marquette-county.demo").await;
    let zone = commission.get("/app/z/marquette-county").await;
    assert_eq!(zone.status, 200, "{}", zone.body);
    assert!(!zone.body.contains(LAKESIDE));
    let member = commission.get("/app/m/montello").await;
    assert!(
        matches!(member.status.as_u16(), 403 | 404),
        "{}",
        member.status
    );
    assert!(!member.body.contains(LAKESIDE) && !member.body.contains("What is due"));
    // The clerk has no payor of its own: no operator's obligations on its home.
    let mut clerk = Browser::new(&app);
    clerk.sign_in("clerk@montello.demo").await;
    let home = clerk.get("/app/m/montello").await;
    assert_eq!(home.status, 200);
    assert!(!home.body.contains(LAKESIDE));
    // A zone page for a municipal role: 404.
    assert_eq!(clerk.get("/app/z/marquette-county").await.status, 404);
    // Without a session: to the sign-in page.
    let anon = Browser::new(&app).get("/app/m/montello").await;
    assert_eq!(
        (anon.status.as_u16(), anon.location()),
        (303, "/app/sign-in")
    );
}

#[actix_web::test]
async fn the_operator_home_is_written_to_the_access_log() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    b.sign_in("operator@montello.demo").await;
    assert_eq!(b.get("/app/m/montello").await.status, 200);
    let clerk = app.token("clerk@montello.demo").await;
    let log: serde_json::Value = app
        .get_as(&clerk, "/v1/municipalities/montello/access-log")
        .await
        .json()
        .await
        .unwrap();
    let text = log.to_string();
    assert!(
        text.contains("payor_obligations") && text.contains(LAKESIDE),
        "{text}"
    );
}

#[actix_web::test]
async fn sign_in_errors_are_the_apis_and_the_throttle_is_shared() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    let mut last = None;
    for _ in 0..6 {
        let token = b.get("/app/sign-in").await.csrf();
        let page = b
            .post(
                "/app/sign-in",
                &[
                    ("csrf_token", &token),
                    ("email", "clerk@montello.demo"),
                    ("password", "wrong password"),
                ],
            )
            .await;
        last = Some(page);
        if last.as_ref().unwrap().status == 429 {
            break;
        }
        let page = last.as_ref().unwrap();
        assert_eq!(page.status, 401);
        assert!(page.body.contains("the email or password is not correct"));
        assert!(
            page.body.contains(r#"id="password""#) && page.body.contains(r#"aria-invalid="true""#)
        );
    }
    let locked = last.unwrap();
    assert_eq!(locked.status, 429);
    assert!(locked.headers.contains_key(header::RETRY_AFTER));
    // The API's sign-in is locked for that account too.
    let res = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": "clerk@montello.demo", "password": app.password_of("clerk@montello.demo")}),
        )
        .await;
    assert_eq!(res.status(), 429);
}

#[actix_web::test]
async fn the_calculator_gives_the_apis_quote_with_and_without_htmx() {
    let app = spawn_demo_app().await;
    let api: serde_json::Value = app
        .post_json(
            "/v1/municipalities/montello/quotes",
            &json!({"period": "2026-Q1", "gross_receipts": "12345.67"}),
        )
        .await
        .json()
        .await
        .unwrap();
    let total = api["total_due"].as_str().unwrap().to_owned();
    let mut b = Browser::new(&app);
    let form = b.get("/app/public/calculator").await;
    assert_eq!(form.status, 200);
    let token = form.csrf();
    let fields = [
        ("csrf_token", token.as_str()),
        ("municipality", "montello"),
        ("period", "2026-Q1"),
        ("gross_receipts", "12345.67"),
    ];
    let page = b.post("/app/public/calculator", &fields).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains(&format!("Total due: ${total}")),
        "{}",
        page.body
    );
    assert!(page.body.contains("What lateness would cost"));
    assert!(page.body.contains("<html"));
    let fragment = b.post_htmx("/app/public/calculator", &fields).await;
    assert_eq!(fragment.status, 200);
    assert!(
        fragment.body.contains(&format!("Total due: ${total}")) && !fragment.body.contains("<html")
    );
    // A wrong amount: the API's rule, next to the field.
    let api_err: serde_json::Value = app
        .post_json(
            "/v1/municipalities/montello/quotes",
            &json!({"period": "2026-Q1", "gross_receipts": "12.345"}),
        )
        .await
        .json()
        .await
        .unwrap();
    let message = api_err["errors"][0]["message"].as_str().unwrap().to_owned();
    let bad = [
        ("csrf_token", token.as_str()),
        ("municipality", "montello"),
        ("period", "2026-Q1"),
        ("gross_receipts", "12.345"),
    ];
    let page = b.post("/app/public/calculator", &bad).await;
    assert_eq!(page.status, 422);
    let escaped = message
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;");
    assert!(
        page.body.contains(&format!(
            r#"<span class="error" id="error-gross_receipts">{escaped}</span>"#
        )),
        "{message} not next to the field in {}",
        page.body
    );
    let fragment = b.post_htmx("/app/public/calculator", &bad).await;
    assert_eq!(fragment.status, 200);
    assert!(
        fragment
            .body
            .contains(r#"id="error-gross_receipts" hx-swap-oob="true""#),
        "{}",
        fragment.body
    );
}

#[actix_web::test]
async fn public_pages_carry_a_self_only_policy_and_work_without_sign_in() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    for path in [
        "/app/public",
        "/app/public/calculator",
        "/app/public/municipalities/montello?year=2026",
        "/app/public/zones/marquette-county/statistics",
        "/app/sign-in",
    ] {
        let page = b.get(path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        let csp = page.headers[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap();
        assert!(
            csp.contains("default-src 'self'")
                && csp.contains("script-src 'self'")
                && !csp.contains("unsafe"),
            "{csp}"
        );
        assert!(
            !page.body.contains("<script>") && !page.body.contains(" style="),
            "{path} has inline script or style"
        );
        assert!(
            !page.body.contains("http://") && !page.body.contains("https://"),
            "{path} names another origin"
        );
    }
    let rules = b.get("/app/public/municipalities/montello?year=2026").await;
    assert!(
        rules.body.contains("Tax rate") && rules.body.contains("2026-Q1"),
        "{}",
        rules.body
    );
    assert_eq!(
        b.get("/app/public/municipalities/nowhere").await.status,
        404
    );
    let stats = b
        .get("/app/public/zones/marquette-county/statistics?year=2025")
        .await;
    assert!(stats.body.contains("withheld"), "{}", stats.body);
    // The stylesheet and htmx come from the binary, cached for a year.
    let home = b.get("/app/public").await;
    let re = regex::Regex::new(r#"(/app/static/[a-z0-9.\-]+\.(css|js))"#).unwrap();
    let assets: Vec<String> = re
        .captures_iter(&home.body)
        .map(|c| c[1].to_owned())
        .collect();
    assert_eq!(assets.len(), 2, "{assets:?}");
    for a in &assets {
        let res = b.get(a).await;
        assert_eq!(res.status, 200, "{a}");
        assert!(
            res.headers[header::CACHE_CONTROL]
                .to_str()
                .unwrap()
                .contains("immutable")
        );
    }
    assert_eq!(b.get("/app/static/other.css").await.status, 404);
    assert_eq!(b.get("/app/nothing-here").await.status, 404);
}

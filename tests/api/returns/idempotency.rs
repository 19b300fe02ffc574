//! `Idempotency-Key` on filing and amending: a retry gets the first response
//! and files nothing twice; the same key with another body is 422; a retry
//! while the first is in progress is 409 (made deterministic by holding the
//! key from another transaction, or by a claim inserted directly, as versions
//! that claimed in a unit of its own left them); keys are per caller
//! and kept 24 hours; a malformed key is 400; an outsider leaves no row.
//!
//! The figures are the module's hand computation (2026-Q1, gross 10,000.00,
//! 500.00 exempt: tax 427.50, filed on time on 2026-04-30).

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use reqwest::Method;
use roomtax::{
    db::{self, idempotency::Claim, schema},
    domain::{
        idempotency::{Fingerprint, canonical_json},
        returns::ReturnFiling,
    },
};
use serde_json::{Value, json};

use super::{CLERK, MOTEL, OPERATOR, filing, returns_of};
use crate::{
    helpers::{TestApp, check::assert_problem, spawn_demo_app_at},
    payors::as_owner,
};

/// 2026-04-30 23:30 in Chicago: Q1 is due and on time.
const T0: &str = "2026-05-01T04:30:00Z";

async fn file_with_key(app: &TestApp, token: &str, key: &str, body: Value) -> reqwest::Response {
    app.call(Method::POST, &returns_of(MOTEL))
        .bearer(token)
        .header("Idempotency-Key", key)
        .json(body)
        .send()
        .await
}

/// Status, `Location`, `ETag` and body of a response.
async fn answer(res: reqwest::Response) -> (u16, Option<String>, Option<String>, Value) {
    let header = |name: &str| {
        res.headers()
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
    };
    let (location, etag) = (header("location"), header("etag"));
    let status = res.status().as_u16();
    (status, location, etag, res.json().await.unwrap())
}

/// The motel's Montello returns of 2026 on file (the demo's are of 2025), and
/// the keys stored, as the owner sees them.
fn counts(app: &TestApp) -> (i64, i64) {
    as_owner(app, "montello", |conn, _| {
        let returns = schema::tax_returns::table
            .filter(schema::tax_returns::payor_id.eq(MOTEL))
            .filter(schema::tax_returns::period.like("2026%"))
            .count()
            .get_result(conn)
            .unwrap();
        let keys = schema::idempotency_keys::table
            .count()
            .get_result(conn)
            .unwrap();
        (returns, keys)
    })
}

/// Insert a claim in progress for `email`'s key as the service's first unit
/// would, made at `at`, with the fingerprint of filing `body` (or another one).
fn claim_directly(app: &TestApp, email: &str, key: &str, body: &Value, at: DateTime<Utc>) {
    let filing: ReturnFiling = serde_json::from_value(body.clone()).unwrap();
    let canonical = canonical_json(&serde_json::to_value(filing).unwrap());
    let fingerprint = Fingerprint::of("POST", &returns_of(MOTEL), &canonical);
    as_owner(app, "montello", |conn, municipality_id| {
        let user = db::identity::user_by_email(conn, email).unwrap().unwrap();
        let claimed = db::idempotency::claim_new(
            conn,
            &Claim {
                municipality_id,
                actor: format!("user:{}", user.id),
                idem_key: key.into(),
                fingerprint: fingerprint.as_str().into(),
                claimed_at: at.naive_utc(),
            },
        )
        .unwrap();
        assert!(claimed, "the key was free");
    });
}

fn instant(rfc3339: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
}

#[actix_web::test]
async fn a_retry_with_the_same_key_and_body_gets_the_first_response_and_files_once() {
    let app = spawn_demo_app_at(T0).await;
    let token = app.token(OPERATOR).await;
    let body = filing("2026-Q1", "10000.00", "500.00");
    let first = answer(file_with_key(&app, &token, "k-1", body.clone()).await).await;
    assert_eq!(first.0, 201, "{}", first.3);
    assert_eq!(first.2.as_deref(), Some("\"1\""));
    assert_eq!(first.3["tax"], "427.50");

    // The same request again, its keys in another order and the key quoted
    // (an RFC 8941 string: the same key).
    let reordered: Value = serde_json::from_str(
        r#"{"attested": true, "signer": {"title": "Managing member", "name": "Dana Pine"},
            "nights_sold": 212, "exemptions": [{"amount": "500.00", "code": "federal_government"}],
            "gross_receipts": "10000.00", "period": "2026-Q1"}"#,
    )
    .unwrap();
    let again = answer(file_with_key(&app, &token, "\"k-1\"", reordered).await).await;
    assert_eq!(again, first);
    assert_eq!(counts(&app), (1, 1));

    // Without a key, filing again is the usual 409: the retry above filed nothing.
    let res = super::file(&app, &token, MOTEL, body).await;
    assert_problem(res, 409, "conflict", Some("period")).await;
}

#[actix_web::test]
async fn the_same_key_with_another_body_is_422() {
    let app = spawn_demo_app_at(T0).await;
    let token = app.token(OPERATOR).await;
    let res = file_with_key(&app, &token, "k-2", filing("2026-Q1", "10000.00", "500.00")).await;
    assert_eq!(res.status(), 201);
    let res = file_with_key(&app, &token, "k-2", filing("2026-Q1", "10000.00", "600.00")).await;
    let problem = assert_problem(res, 422, "validation-failed", Some("Idempotency-Key")).await;
    assert_eq!(
        crate::helpers::check::rule_of(&problem, "Idempotency-Key").as_deref(),
        Some("idempotency_key_reused")
    );
    assert_eq!(counts(&app), (1, 1));
}

#[actix_web::test]
async fn a_retry_while_the_first_is_in_progress_is_409_and_an_abandoned_claim_is_taken_over() {
    let app = spawn_demo_app_at(T0).await;
    let token = app.token(OPERATOR).await;
    let body = filing("2026-Q1", "10000.00", "500.00");
    // The first request has claimed the key and is still working.
    claim_directly(&app, OPERATOR, "k-3", &body, instant(T0));
    let res = file_with_key(&app, &token, "k-3", body.clone()).await;
    let problem = assert_problem(res, 409, "conflict", Some("Idempotency-Key")).await;
    assert_eq!(
        crate::helpers::check::rule_of(&problem, "Idempotency-Key").as_deref(),
        Some("idempotency_key_in_progress")
    );
    // Another body with the key while it is in progress: the key is misused.
    let res = file_with_key(&app, &token, "k-3", filing("2026-Q1", "1.00", "0.00")).await;
    assert_problem(res, 422, "validation-failed", Some("Idempotency-Key")).await;
    assert_eq!(counts(&app), (0, 1));

    // Five minutes on, the claim is still leased; past that it is abandoned
    // (the first request crashed) and the retry does the work.
    app.set_now("2026-05-01T04:35:00Z");
    let res = file_with_key(&app, &token, "k-3", body.clone()).await;
    assert_problem(res, 409, "conflict", Some("Idempotency-Key")).await;
    app.set_now("2026-05-01T04:35:01Z");
    let first = answer(file_with_key(&app, &token, "k-3", body.clone()).await).await;
    assert_eq!(first.0, 201, "{}", first.3);
    // 04:35:01Z is still 2026-04-30 in Chicago: on time.
    assert_eq!(first.3["status"], "filed");
    let again = answer(file_with_key(&app, &token, "k-3", body).await).await;
    assert_eq!(again, first);
    assert_eq!(counts(&app), (1, 1));
}

#[actix_web::test]
async fn a_key_is_the_callers_own() {
    let app = spawn_demo_app_at(T0).await;
    let clerk = app.token(CLERK).await;
    let operator = app.token(OPERATOR).await;
    let body = filing("2026-Q1", "10000.00", "500.00");
    let first = answer(file_with_key(&app, &clerk, "shared", body.clone()).await).await;
    assert_eq!(first.0, 201);
    assert_eq!(first.3["entered_as"], "staff");
    // The operator's request with the same key and body is its own request, not
    // a retry of the clerk's: it is processed (the period is on file now).
    let res = file_with_key(&app, &operator, "shared", body.clone()).await;
    assert_problem(res, 409, "conflict", Some("period")).await;
    assert_eq!(
        counts(&app),
        (1, 1),
        "the failed request rolled its claim back with its work"
    );

    // An outsider (Hayward's clerk) learns nothing and leaves no row, with
    // any key, good or malformed.
    let outsider = app.token("clerk@hayward.demo").await;
    for key in ["shared", "\"unterminated"] {
        let res = file_with_key(&app, &outsider, key, body.clone()).await;
        assert_problem(res, 404, "not-found", None).await;
    }
    assert_eq!(counts(&app), (1, 1));
}

#[actix_web::test]
async fn a_malformed_key_is_400_naming_the_header_and_stores_nothing() {
    let app = spawn_demo_app_at(T0).await;
    let token = app.token(OPERATOR).await;
    let body = filing("2026-Q1", "10000.00", "500.00");
    let too_long = "k".repeat(256);
    for key in ["\"\"", "a b", "\"abc\";p=1", too_long.as_str()] {
        let res = file_with_key(&app, &token, key, body.clone()).await;
        assert_problem(res, 400, "invalid-parameter", Some("Idempotency-Key")).await;
    }
    assert_eq!(counts(&app), (0, 0));
}

#[actix_web::test]
async fn a_request_whose_work_fails_releases_its_key() {
    let app = spawn_demo_app_at(T0).await;
    let token = app.token(OPERATOR).await;
    let mut unattested = filing("2026-Q1", "10000.00", "500.00");
    unattested["attested"] = json!(false);
    let res = file_with_key(&app, &token, "k-4", unattested.clone()).await;
    assert_problem(res, 422, "validation-failed", Some("attested")).await;
    assert_eq!(counts(&app), (0, 0));
    // The key is free again: the corrected return files with it.
    let res = file_with_key(&app, &token, "k-4", filing("2026-Q1", "10000.00", "500.00")).await;
    assert_eq!(res.status(), 201);
    // A body that does not parse stores nothing either.
    let res = app
        .call(Method::POST, &returns_of(MOTEL))
        .bearer(&token)
        .header("Idempotency-Key", "k-5")
        .json(json!({"period": "2026-Q1", "nope": 1}))
        .send()
        .await;
    assert_problem(res, 400, "unknown-field", Some("nope")).await;
    assert_eq!(counts(&app), (1, 1));
}

#[actix_web::test]
async fn a_key_is_kept_24_hours_then_forgotten() {
    let app = spawn_demo_app_at(T0).await;
    let token = app.token(OPERATOR).await;
    let body = filing("2026-Q1", "10000.00", "500.00");
    let first = answer(file_with_key(&app, &token, "k-6", body.clone()).await).await;
    assert_eq!(first.0, 201);
    // Tokens live minutes: sign in again after moving the clock.
    app.set_now("2026-05-02T04:30:00Z");
    let token = app.token(OPERATOR).await;
    let again = answer(file_with_key(&app, &token, "k-6", body.clone()).await).await;
    assert_eq!(again, first, "24 hours on, still a replay");
    app.set_now("2026-05-02T04:30:01Z");
    let token = app.token(OPERATOR).await;
    // Forgotten: the request is new, and the period is on file.
    let res = file_with_key(&app, &token, "k-6", body).await;
    assert_problem(res, 409, "conflict", Some("period")).await;
    // The claim is the work's unit, which the 409 rolled back, deletion and
    // all: the row is still there, past retention, and counts for nothing.
    assert_eq!(counts(&app), (1, 1));
    // Another body under the key is a new request too (not 422 `reused`).
    let res = file_with_key(&app, &token, "k-6", filing("2026-Q1", "1.00", "0.00")).await;
    assert_problem(res, 409, "conflict", Some("period")).await;
}

#[actix_web::test]
async fn an_amendment_retried_is_one_new_version_with_the_first_etag() {
    let app = spawn_demo_app_at(T0).await;
    let token = app.token(OPERATOR).await;
    let first = answer(
        file_with_key(
            &app,
            &token,
            "file",
            filing("2026-Q1", "10000.00", "500.00"),
        )
        .await,
    )
    .await;
    let location = first.1.unwrap();
    let amend = |key: &'static str| {
        app.call(Method::POST, &format!("{location}/amendments"))
            .bearer(&token)
            .header("If-Match", "\"1\"")
            .header("Idempotency-Key", key)
            .json(filing("2026-Q1", "12000.00", "500.00"))
            .send()
    };
    let amended = answer(amend("amend").await).await;
    assert_eq!(amended.0, 201, "{}", amended.3);
    assert_eq!(amended.2.as_deref(), Some("\"2\""));
    // The retry names the version it first saw; it is answered as the first time.
    let again = answer(amend("amend").await).await;
    assert_eq!(again, amended);
    let res = app
        .call(Method::GET, &format!("{location}/versions"))
        .bearer(&token)
        .send()
        .await;
    let versions: Value = res.json().await.unwrap();
    let count = versions["items"]
        .as_array()
        .or(versions.as_array())
        .map(Vec::len);
    assert_eq!(count, Some(2), "{versions}");
}

/// A replay shows the confidential return again: it is in the access log.
#[actix_web::test]
async fn a_replay_is_written_to_the_access_log() {
    let app = crate::helpers::spawn_demo_app_at(T0).await;
    let token = app.token(OPERATOR).await;
    let body = filing("2026-Q1", "100.00", "0.00");
    let first = file_with_key(&app, &token, "log-me", body.clone()).await;
    let location = first.headers()["location"].to_str().unwrap().to_owned();
    let again = file_with_key(&app, &token, "log-me", body).await;
    assert_eq!(again.status(), 201);
    let clerk = app.token(CLERK).await;
    let log: Value = app
        .call(
            Method::GET,
            "/v1/municipalities/montello/access-log?limit=200",
        )
        .bearer(&clerk)
        .send()
        .await
        .json()
        .await
        .unwrap();
    let replays: Vec<&Value> = log["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["record_type"] == "replayed_response")
        .collect();
    assert_eq!(replays.len(), 1, "{log}");
    assert_eq!(replays[0]["record_id"], location.as_str());
    assert_eq!(replays[0]["basis"], "operator");
}

/// Retries sent at the same moment as the first: one return is filed and
/// every answer is its 201 or, on PostgreSQL, the 409 of a key still being
/// processed (the first request's transaction holds it). On SQLite write
/// units run one at a time, so a retry waits for the first and gets its 201:
/// never a 409.
#[actix_web::test]
async fn retries_at_the_same_moment_file_once() {
    let app = spawn_demo_app_at(T0).await;
    let token = app.token(OPERATOR).await;
    let body = filing("2026-Q1", "10000.00", "500.00");
    let (a, b, c, d) = tokio::join!(
        file_with_key(&app, &token, "k-same", body.clone()),
        file_with_key(&app, &token, "k-same", body.clone()),
        file_with_key(&app, &token, "k-same", body.clone()),
        file_with_key(&app, &token, "k-same", body.clone()),
    );
    let mut created = Vec::new();
    for res in [a, b, c, d] {
        let (status, location, _, json) = answer(res).await;
        match status {
            201 => created.push((location, json["id"].clone())),
            409 if app.db.backend() == "postgres" => {
                assert_eq!(
                    crate::helpers::check::rule_of(&json, "Idempotency-Key").as_deref(),
                    Some("idempotency_key_in_progress"),
                    "{json}"
                );
            }
            other => panic!("{other} on {}: {json}", app.db.backend()),
        }
    }
    assert!(!created.is_empty());
    assert!(created.windows(2).all(|w| w[0] == w[1]), "{created:?}");
    assert_eq!(counts(&app), (1, 1));
}

/// PostgreSQL: a request whose key another open transaction holds (the
/// first request, still running) is the 409 at once, and once that
/// transaction ends the key is free.
#[actix_web::test]
async fn a_key_held_by_a_running_request_is_409_until_it_ends() {
    use diesel::connection::SimpleConnection;
    let app = spawn_demo_app_at(T0).await;
    if crate::helpers::skip_unless_postgres(
        &app.db,
        "a_key_held_by_a_running_request_is_409_until_it_ends",
    ) {
        return;
    }
    let token = app.token(OPERATOR).await;
    let body = filing("2026-Q1", "10000.00", "500.00");
    let mut conn = app.owner_conn();
    let municipality = db::municipalities::by_slug(&mut conn, "montello")
        .unwrap()
        .unwrap()
        .id;
    let user = db::identity::user_by_email(&mut conn, OPERATOR)
        .unwrap()
        .unwrap();
    let actor = format!("user:{}", user.id);
    conn.batch_execute("BEGIN").unwrap();
    assert!(db::idempotency::hold(&mut conn, municipality, &actor, "k-held").unwrap());
    let res = file_with_key(&app, &token, "k-held", body.clone()).await;
    let problem = assert_problem(res, 409, "conflict", Some("Idempotency-Key")).await;
    assert_eq!(
        crate::helpers::check::rule_of(&problem, "Idempotency-Key").as_deref(),
        Some("idempotency_key_in_progress")
    );
    assert_eq!(counts(&app), (0, 0), "the refused request stored nothing");
    conn.batch_execute("ROLLBACK").unwrap();
    let res = file_with_key(&app, &token, "k-held", body).await;
    assert_eq!(res.status(), 201);
    assert_eq!(counts(&app), (1, 1));
}

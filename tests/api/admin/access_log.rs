//! `GET /v1/municipalities/{m}/access-log`: the clerk-treasurer reviews reads.

use diesel::Connection;
use roomtax::{
    db::{self, access_log::Reader},
    demo::{HAYWARD_LODGE_ID, MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID},
    tenancy::DbScope,
};
use serde_json::Value;

use super::{CLERK, HAYWARD_CLERK, STAFF, assert_invalid, assert_refusals, get_ok};
use crate::helpers::{TestApp, assert_problem, spawn_demo_app};

const LOG: &str = "/v1/municipalities/montello/access-log";

/// Append entries as the schema owner, in one transaction with the tenant set
/// (row-level security binds the owner too: FORCE).
fn append(app: &TestApp, slug: &str, entries: &[(&str, &str)]) {
    let mut conn = app.owner_conn();
    conn.transaction(|conn| {
        let m = db::municipalities::by_slug(conn, slug)?.expect("demo municipality");
        db::rls::apply(
            conn,
            &DbScope {
                municipality_id: Some(m.id),
                ..DbScope::default()
            },
        )?;
        for (i, (actor, record)) in entries.iter().enumerate() {
            let request_id = format!("req-{slug}-{i}");
            let reader = Reader {
                actor_kind: "user",
                actor_id: actor,
                basis: "clerk_treasurer",
                request_id: &request_id,
            };
            db::access_log::record(conn, m.id, &reader, "payor", record)?;
        }
        Ok::<_, diesel::result::Error>(())
    })
    .expect("entries appended");
}

fn ids(page: &Value, key: &str) -> Vec<String> {
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e[key].as_str().unwrap().to_owned())
        .collect()
}

#[actix_web::test]
async fn the_clerk_reviews_this_municipalitys_reads_newest_first() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    let hayward = app.token(HAYWARD_CLERK).await;
    append(
        &app,
        "montello",
        &[
            ("alice", MONTELLO_MOTEL_ID),
            ("bob", MONTELLO_CAMPGROUND_ID),
            ("alice", MONTELLO_CAMPGROUND_ID),
        ],
    );
    append(&app, "hayward", &[("carol", HAYWARD_LODGE_ID)]);

    assert_refusals(
        |t| {
            let app = &app;
            async move {
                match t {
                    Some(t) => app.get_as(&t, LOG).await,
                    None => app.get(LOG).await,
                }
            }
        },
        &staff,
        &hayward,
    )
    .await;

    let all = get_ok(&app, &clerk, LOG).await;
    assert_eq!(
        ids(&all, "request_id"),
        ["req-montello-2", "req-montello-1", "req-montello-0"],
        "newest first, Montello only: {all}"
    );
    let first = &all["items"][0];
    assert_eq!(first["actor_kind"], "user");
    assert_eq!(first["actor_id"], "alice");
    assert_eq!(first["basis"], "clerk_treasurer");
    assert_eq!(first["record_type"], "payor");
    assert_eq!(first["record_id"], MONTELLO_CAMPGROUND_ID);
    assert_eq!(first["action"], "read");
    assert!(first["at"].as_str().unwrap().ends_with('Z'));
    assert!(all["next_cursor"].is_null());
    assert!(!all.to_string().contains(HAYWARD_LODGE_ID) && !all.to_string().contains("carol"));

    // Pages.
    let page = get_ok(&app, &clerk, &format!("{LOG}?limit=2")).await;
    assert_eq!(
        ids(&page, "request_id"),
        ["req-montello-2", "req-montello-1"]
    );
    let cursor = page["next_cursor"].as_str().unwrap();
    let rest = get_ok(&app, &clerk, &format!("{LOG}?limit=2&cursor={cursor}")).await;
    assert_eq!(ids(&rest, "request_id"), ["req-montello-0"]);
    assert!(rest["next_cursor"].is_null());

    // Filters.
    let by_record = get_ok(
        &app,
        &clerk,
        &format!("{LOG}?record_id={MONTELLO_CAMPGROUND_ID}"),
    )
    .await;
    assert_eq!(
        ids(&by_record, "request_id"),
        ["req-montello-2", "req-montello-1"]
    );
    let by_actor = get_ok(&app, &clerk, &format!("{LOG}?actor_id=alice")).await;
    assert_eq!(
        ids(&by_actor, "request_id"),
        ["req-montello-2", "req-montello-0"]
    );
    let since = first["at"].as_str().unwrap().replace('+', "%2B");
    let recent = get_ok(&app, &clerk, &format!("{LOG}?since={since}")).await;
    assert_eq!(ids(&recent, "request_id"), ["req-montello-2"]);
    let future = get_ok(&app, &clerk, &format!("{LOG}?since=2999-01-01T00:00:00Z")).await;
    assert!(future["items"].as_array().unwrap().is_empty());
    // Hayward's record id through Montello: nothing.
    let foreign = get_ok(&app, &clerk, &format!("{LOG}?record_id={HAYWARD_LODGE_ID}")).await;
    assert!(foreign["items"].as_array().unwrap().is_empty());

    // Hayward's clerk sees Hayward's entry only.
    let theirs = get_ok(&app, &hayward, "/v1/municipalities/hayward/access-log").await;
    assert_eq!(ids(&theirs, "actor_id"), ["carol"]);

    // Validation.
    assert_invalid(
        app.get_as(&clerk, &format!("{LOG}?since=yesterday")).await,
        "since",
        "rfc3339",
    )
    .await;
    crate::helpers::check::assert_problem(
        app.get_as(&clerk, &format!("{LOG}?cursor=nonsense")).await,
        400,
        "invalid-parameter",
        Some("cursor"),
    )
    .await;
    assert_invalid(
        app.get_as(&clerk, &format!("{LOG}?limit=0")).await,
        "limit",
        "range",
    )
    .await;
    let res = app.get_as(&clerk, &format!("{LOG}?payor=1")).await;
    assert_problem(res, 400, "invalid-parameter").await;
}

/// Confidential reads are read units that run side by side; each one's entry
/// is committed, exactly once, before it answers (the log's appender writes
/// the entries of many requests, of two municipalities here, together).
#[actix_web::test]
async fn reads_at_once_are_each_logged_once_before_they_answer() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let hayward = app.token(HAYWARD_CLERK).await;
    let montello = "/v1/municipalities/montello/payors";
    let reads = (0..30).map(|i| {
        let (token, path, record_type) = match i % 3 {
            0 => (&clerk, format!("{montello}/{MONTELLO_MOTEL_ID}"), "payor"),
            1 => (
                &clerk,
                format!("{montello}/{MONTELLO_MOTEL_ID}/account"),
                "payor_account",
            ),
            _ => (
                &hayward,
                format!("/v1/municipalities/hayward/payors/{HAYWARD_LODGE_ID}"),
                "payor",
            ),
        };
        let app = &app;
        async move {
            let id = format!("at-once-{i:02}");
            let res = app
                .call(reqwest::Method::GET, &path)
                .bearer(token)
                .header("x-request-id", &id)
                .send()
                .await;
            assert_eq!(res.status(), 200, "{path}");
            (id, record_type)
        }
    });
    let answered = futures_util::future::join_all(reads).await;
    let logged = |page: &Value| -> Vec<(String, String)> {
        let mut entries: Vec<(String, String)> = page["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["request_id"].as_str().unwrap().starts_with("at-once-"))
            .map(|e| {
                (
                    e["request_id"].as_str().unwrap().to_owned(),
                    e["record_type"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        entries.sort();
        entries
    };
    let expect = |rest: bool| -> Vec<(String, String)> {
        answered
            .iter()
            .enumerate()
            .filter(|(i, _)| (i % 3 == 2) == rest)
            .map(|(_, (id, kind))| (id.clone(), (*kind).to_owned()))
            .collect()
    };
    let ours = get_ok(&app, &clerk, &format!("{LOG}?limit=100")).await;
    assert_eq!(logged(&ours), expect(false), "Montello's: {ours}");
    let theirs = get_ok(
        &app,
        &hayward,
        "/v1/municipalities/hayward/access-log?limit=100",
    )
    .await;
    assert_eq!(logged(&theirs), expect(true), "Hayward's: {theirs}");
}

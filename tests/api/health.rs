//! Liveness, readiness and request ids.

use crate::helpers::{assert_problem, spawn_app};

#[actix_web::test]
async fn healthz_and_readyz_answer_ok_on_a_migrated_database() {
    let app = spawn_app().await;
    let res = app.get("/healthz").await;
    assert_eq!(res.status(), 200);
    assert!(res.headers().contains_key("x-request-id"));
    assert_eq!(
        res.json::<serde_json::Value>().await.unwrap()["status"],
        "ok"
    );

    let res = app.get("/readyz").await;
    assert_eq!(res.status(), 200);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["status"], "ready");
    assert_eq!(body["database"], app.db.backend());
}

#[actix_web::test]
async fn readyz_is_503_when_migrations_are_pending() {
    let app = spawn_app().await;
    let reverted =
        roomtax::db::migrations::revert_all(&mut app.owner_conn()).expect("migrations revert");
    assert!(reverted > 0);
    let body = assert_problem(app.get("/readyz").await, 503, "not-ready").await;
    assert!(
        body["detail"].as_str().unwrap().contains("migration"),
        "{body}"
    );
    // Liveness does not depend on the database.
    assert_eq!(app.get("/healthz").await.status(), 200);
}

#[actix_web::test]
async fn a_sane_incoming_request_id_is_echoed_and_an_insane_one_replaced() {
    let app = spawn_app().await;
    let res = app
        .client
        .get(app.url("/nowhere"))
        .header("x-request-id", "trace-42")
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-request-id"], "trace-42");
    let body = assert_problem(res, 404, "route-not-found").await;
    assert_eq!(body["request_id"], "trace-42");
    assert_eq!(body["instance"], "/nowhere");

    let res = app
        .client
        .get(app.url("/healthz"))
        .header("x-request-id", "has spaces and <html>")
        .send()
        .await
        .unwrap();
    let id = res.headers()["x-request-id"].to_str().unwrap();
    assert_eq!(id.len(), 36, "replaced by a UUID, got {id}");
}

#[actix_web::test]
async fn readyz_is_503_when_the_sqlite_file_disappears() {
    let app = spawn_app().await;
    let crate::helpers::TestDb::Sqlite(_, url) = &app.db else {
        // PostgreSQL: covered by the unreachable-server case of the pool.
        crate::helpers::skip(
            "health::readyz_is_503_when_the_sqlite_file_disappears",
            "SQLite only",
        );
        return;
    };
    let path = url.trim_start_matches("sqlite://");
    assert_eq!(app.get("/readyz").await.status(), 200);
    std::fs::remove_file(path).unwrap();
    let body = assert_problem(app.get("/readyz").await, 503, "not-ready").await;
    assert!(
        body["detail"].as_str().unwrap().contains("missing"),
        "{body}"
    );
}

/// The pool skips its `SELECT 1` check for a connection that has just
/// worked (`db::Manager`): when PostgreSQL drops every connection (a server
/// restart), at most the next unit on such a connection fails, with a 503,
/// and the pool replaces the connections by itself.
#[actix_web::test]
async fn the_pool_replaces_connections_the_server_dropped() {
    use diesel::RunQueryDsl;
    let app = spawn_app().await;
    if crate::helpers::skip_unless_postgres(
        &app.db,
        "the_pool_replaces_connections_the_server_dropped",
    ) {
        return;
    }
    assert_eq!(app.get("/v1/municipalities").await.status(), 200);
    let roomtax::db::DbConn::Pg(mut owner) = app.owner_conn() else {
        unreachable!("PostgreSQL")
    };
    diesel::sql_query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .execute(&mut owner)
    .expect("terminate the service's connections");
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(app.get("/v1/municipalities").await.status().as_u16());
    }
    assert!(
        statuses.iter().all(|s| *s == 200 || *s == 503),
        "only 200 or 503: {statuses:?}"
    );
    assert!(
        statuses.iter().filter(|s| **s == 503).count() <= 1,
        "at most the first fails: {statuses:?}"
    );
    assert_eq!(statuses.last(), Some(&200), "{statuses:?}");
}

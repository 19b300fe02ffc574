//! Statements the hot paths keep prepared (`db::native::Reused`): diesel
//! would parse an `INSERT` that may hold `DEFAULT`, an `UPDATE`, an upsert or
//! a raw `sql_query` anew on every execution. On PostgreSQL a connection lists
//! its prepared statements in `pg_prepared_statements`: each of these appears
//! there once, however often it ran. PostgreSQL only (SQLite's statement cache
//! lives in the process and is not visible from SQL).

use chrono::Utc;
use diesel::{
    Connection, QueryableByName, RunQueryDsl,
    sql_types::{BigInt, Text},
};
use roomtax::db::{DbConn, idempotency, insert_row, models::AccessLogRow, rls, schema::access_log};
use roomtax::tenancy::{DbScope, Tenant};

use crate::helpers::{skip_unless_postgres, spawn_demo_app};

#[derive(QueryableByName)]
struct N {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

fn prepared(conn: &mut DbConn, prefix: &str) -> i64 {
    diesel::sql_query(
        "SELECT count(*) AS n FROM pg_prepared_statements WHERE starts_with(statement, $1)",
    )
    .bind::<Text, _>(prefix)
    .get_result::<N>(conn)
    .unwrap()
    .n
}

#[actix_web::test]
async fn the_writes_of_a_filing_are_prepared_once_per_connection() {
    let app = spawn_demo_app().await;
    if skip_unless_postgres(
        &app.db,
        "prepared::the_writes_of_a_filing_are_prepared_once_per_connection",
    ) {
        return;
    }
    let mut conn = app.owner_conn();
    let montello = diesel::sql_query("SELECT id AS n FROM municipalities WHERE slug = 'montello'")
        .get_result::<N>(&mut conn)
        .unwrap()
        .n;
    let claimed_at = Utc::now().naive_utc();
    conn.test_transaction::<_, diesel::result::Error, _>(|conn| {
        for n in 0..3 {
            rls::apply(conn, &DbScope::tenant(Tenant::Municipality(montello)))?;
            let claim = idempotency::Claim {
                municipality_id: montello,
                actor: "user:prepared-test".into(),
                idem_key: format!("key-{n}"),
                fingerprint: "fingerprint".into(),
                claimed_at,
            };
            assert!(idempotency::claim_new(conn, &claim)?);
            let stored = idempotency::StoredResponse {
                status: 201,
                location: None,
                etag: None,
                body: "{}".into(),
            };
            assert!(idempotency::complete(conn, &claim, &stored)?);
            let entry = AccessLogRow {
                municipality_id: montello,
                id: format!("prepared-test-{n}"),
                at: claimed_at,
                actor_kind: "user".into(),
                actor_id: "prepared-test".into(),
                basis: "test".into(),
                record_type: "return".into(),
                record_id: format!("r{n}"),
                action: "create".into(),
                request_id: "prepared-test".into(),
            };
            insert_row(conn, access_log::table, &entry)?;
        }
        for statement in [
            "SELECT set_config('app.municipality_id'",
            r#"INSERT INTO "idempotency_keys""#,
            r#"UPDATE "idempotency_keys""#,
            r#"INSERT INTO "access_log""#,
        ] {
            assert_eq!(prepared(conn, statement), 1, "prepared once: {statement}");
        }
        Ok(())
    });
}

//! Defence in depth: row-level security on PostgreSQL hides other tenants'
//! rows by itself, and the schema keeps every tenant table keyed by tenant.
//! Which tables must be guarded is read from the PostgreSQL catalogue of a
//! database migrated with every migration (any table with `municipality_id`
//! or `zone_id`), never from a list; a probe table shows the check fails.
//! The tenant columns carry no planner statistics (a new tenant is never
//! planned as empty). The PostgreSQL-only tests report themselves skipped on
//! SQLite.

use diesel::{
    Connection, PgConnection, QueryableByName, RunQueryDsl,
    sql_types::{BigInt, Bool, Text},
};

use crate::helpers::{TestDb, spawn_demo_app};

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

fn count(conn: &mut PgConnection, sql: &str) -> i64 {
    diesel::sql_query(sql).get_result::<Count>(conn).unwrap().n
}

fn set(conn: &mut PgConnection, name: &str, value: &str) {
    diesel::sql_query(format!("SELECT set_config('{name}', '{value}', true)"))
        .execute(conn)
        .unwrap();
}

fn migration_text(backend: &str, name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/migrations/{backend}/{name}/up.sql",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Tables that carry a tenant column, from the SQLite migrations.
fn tenant_tables() -> Vec<(String, String)> {
    let text = migration_text("sqlite", "2026-11-30-000002_identity")
        + &migration_text("sqlite", "2026-11-30-000001_foundation");
    text.split("CREATE TABLE ")
        .skip(1)
        .filter_map(|chunk| {
            let name = chunk.split_whitespace().next()?.to_owned();
            let body = chunk.split(");").next()?.to_owned();
            (body.contains("municipality_id") || body.contains("zone_id")).then_some((name, body))
        })
        .collect()
}

#[test]
fn tenant_tables_lead_their_keys_with_the_tenant() {
    // api_clients belong to a municipality OR a zone and are looked up by client id at
    // sign-in: their key is the client id (documented exception).
    for (table, body) in tenant_tables() {
        if table == "api_clients" {
            continue;
        }
        let pk = body
            .split("PRIMARY KEY (")
            .nth(1)
            .unwrap_or_else(|| panic!("{table} has no composite primary key"));
        assert!(
            pk.starts_with("municipality_id") || pk.starts_with("zone_id"),
            "{table}: the tenant column must lead the primary key"
        );
    }
}

/// Tables that carry a tenant column but hold public information, each with
/// its reason. Any other table with `municipality_id` or `zone_id` must be
/// guarded by row-level security: a new one fails the check below until it is
/// (or until it is argued public here).
const PUBLIC_TENANT_TABLES: [(&str, &str); 2] = [
    (
        "policy_versions",
        "the ordinance as data: public law (`GET .../policies` needs no sign-in)",
    ),
    (
        "zone_memberships",
        "which municipality belongs to which zone, and since when: public (`GET /v1/zones`)",
    ),
];

#[derive(QueryableByName)]
struct TenantTable {
    #[diesel(sql_type = Text)]
    name: String,
    #[diesel(sql_type = Bool)]
    enabled: bool,
    #[diesel(sql_type = Bool)]
    forced: bool,
    #[diesel(sql_type = BigInt)]
    policies: i64,
}

/// Every table of the schema `public` with a tenant column, from the catalogue,
/// and what it lacks: RLS enabled, RLS forced, at least one policy. Empty: all
/// guarded (the public tables above excepted).
fn rls_gaps(conn: &mut PgConnection) -> (Vec<String>, Vec<String>) {
    let tables: Vec<TenantTable> = diesel::sql_query(
        "SELECT c.relname::text AS name, c.relrowsecurity AS enabled, \
                c.relforcerowsecurity AS forced, \
                (SELECT count(*) FROM pg_policy p WHERE p.polrelid = c.oid) AS policies \
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') \
           AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid \
                       AND a.attname IN ('municipality_id', 'zone_id') AND NOT a.attisdropped) \
         ORDER BY 1",
    )
    .load(conn)
    .unwrap();
    let mut gaps = Vec::new();
    let mut checked = Vec::new();
    for t in tables {
        if PUBLIC_TENANT_TABLES.iter().any(|(name, _)| *name == t.name) {
            continue;
        }
        for (ok, what) in [
            (t.enabled, "row level security not enabled"),
            (t.forced, "row level security not forced"),
            (t.policies > 0, "no policy"),
        ] {
            if !ok {
                gaps.push(format!("{}: {what}", t.name));
            }
        }
        checked.push(t.name);
    }
    (checked, gaps)
}

#[actix_web::test]
async fn every_tenant_table_in_the_catalogue_is_guarded_by_row_level_security() {
    let db = TestDb::create();
    if crate::helpers::skip_unless_postgres(&db, "rls::every_tenant_table_in_the_catalogue") {
        return;
    }
    // The template is migrated: every migration of the repository has run.
    let mut conn = PgConnection::establish(db.owner_url().unwrap()).unwrap();
    let (checked, gaps) = rls_gaps(&mut conn);
    assert!(
        gaps.is_empty(),
        "tenant tables without row-level security: {gaps:?}"
    );
    // The catalogue, not a list, decides: the tables of the migrations are all found.
    for table in [
        "payors",
        "access_log",
        "municipality_grants",
        "zone_grants",
        "api_clients",
    ] {
        assert!(
            checked.iter().any(|t| t == table),
            "{table} not seen in {checked:?}"
        );
    }
    assert!(
        !migration_text("postgres", "2026-11-30-000002_identity")
            .contains("current_setting('app.municipality_id')"),
        "settings must be read with missing_ok"
    );
}

/// The tenant columns carry no planner statistics (migration
/// `tenant_key_statistics`): with them, a municipality without rows at the
/// last ANALYZE is planned as empty everywhere, and PostgreSQL picks plans that
/// walk its whole ledger. The catalogue decides which columns are checked, and
/// ANALYZE of the demo's rows stores statistics for the other columns only.
#[actix_web::test]
async fn no_tenant_column_carries_planner_statistics() {
    let app = spawn_demo_app().await;
    if crate::helpers::skip_unless_postgres(
        &app.db,
        "rls::no_tenant_column_carries_planner_statistics",
    ) {
        return;
    }
    let mut conn = PgConnection::establish(app.db.owner_url().unwrap()).unwrap();
    let tenant_column = "a.attname IN ('municipality_id', 'zone_id')";
    let columns = count(
        &mut conn,
        &format!(
            "SELECT count(*) AS n FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid \
             JOIN pg_namespace s ON s.oid = c.relnamespace \
             WHERE s.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT a.attisdropped \
               AND {tenant_column}"
        ),
    );
    let with_target = count(
        &mut conn,
        &format!(
            "SELECT count(*) AS n FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid \
             JOIN pg_namespace s ON s.oid = c.relnamespace \
             WHERE s.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT a.attisdropped \
               AND {tenant_column} AND a.attstattarget <> 0"
        ),
    );
    assert!(columns > 20, "tenant columns found: {columns}");
    assert_eq!(with_target, 0, "tenant columns that ANALYZE would describe");

    diesel::sql_query("ANALYZE").execute(&mut conn).unwrap();
    let stats = |conn: &mut PgConnection, which: &str| {
        count(
            conn,
            &format!(
                "SELECT count(*) AS n FROM pg_stats \
                 WHERE schemaname = 'public' AND tablename = 'payors' AND {which}"
            ),
        )
    };
    assert_eq!(stats(&mut conn, "attname = 'municipality_id'"), 0);
    assert!(
        stats(&mut conn, "attname = 'legal_name'") == 1,
        "ANALYZE ran on payors"
    );
}

#[actix_web::test]
async fn the_catalogue_check_reports_a_tenant_table_without_row_level_security() {
    let db = TestDb::create();
    if crate::helpers::skip_unless_postgres(&db, "rls::the_catalogue_check_reports") {
        return;
    }
    let mut conn = PgConnection::establish(db.owner_url().unwrap()).unwrap();
    let mut step = |sql: &str| {
        diesel::sql_query(sql).execute(&mut conn).unwrap();
    };
    step(
        "CREATE TABLE rls_probe (municipality_id BIGINT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (municipality_id, id))",
    );
    let mut conn = PgConnection::establish(db.owner_url().unwrap()).unwrap();
    let mut gaps = || rls_gaps(&mut conn).1;
    assert_eq!(
        gaps(),
        [
            "rls_probe: row level security not enabled",
            "rls_probe: row level security not forced",
            "rls_probe: no policy"
        ]
    );
    let mut owner = PgConnection::establish(db.owner_url().unwrap()).unwrap();
    let mut run = |sql: &str| {
        diesel::sql_query(sql).execute(&mut owner).unwrap();
    };
    run("ALTER TABLE rls_probe ENABLE ROW LEVEL SECURITY");
    assert_eq!(
        gaps(),
        [
            "rls_probe: row level security not forced",
            "rls_probe: no policy"
        ]
    );
    run("ALTER TABLE rls_probe FORCE ROW LEVEL SECURITY");
    assert_eq!(gaps(), ["rls_probe: no policy"]);
    run(
        "CREATE POLICY tenant ON rls_probe USING (municipality_id = NULLIF(current_setting('app.municipality_id', true), '')::bigint)",
    );
    assert!(gaps().is_empty());
    run("DROP TABLE rls_probe");
}

#[actix_web::test]
async fn row_level_security_alone_hides_other_tenants() {
    let app = spawn_demo_app().await;
    // SQLite has no row-level security: the application checks are its only guard.
    if crate::helpers::skip_unless_postgres(&app.db, "rls::row_level_security_alone") {
        return;
    }
    let TestDb::Postgres { url, .. } = &app.db else {
        unreachable!("skipped above")
    };
    // Straight to the database as the runtime role: no application check involved.
    let mut conn = PgConnection::establish(url).unwrap();
    let ids: Vec<(String, i64)> = {
        use diesel::QueryDsl;
        use roomtax::db::schema::municipalities::dsl::*;
        municipalities
            .select((slug, id))
            .order(slug)
            .load(&mut conn)
            .unwrap()
    };
    let (hayward, montello) = (ids[0].1, ids[1].1);

    conn.transaction::<_, diesel::result::Error, _>(|conn| {
        assert_eq!(
            count(conn, "SELECT count(*) AS n FROM payors"),
            0,
            "unset tenant sees nothing"
        );
        set(conn, "app.municipality_id", "");
        assert_eq!(
            count(conn, "SELECT count(*) AS n FROM payors"),
            0,
            "empty tenant sees nothing"
        );
        set(conn, "app.municipality_id", &hayward.to_string());
        assert_eq!(count(conn, "SELECT count(*) AS n FROM payors"), 1);
        assert_eq!(
            count(
                conn,
                &format!("SELECT count(*) AS n FROM payors WHERE municipality_id = {montello}")
            ),
            0,
            "Montello's payors are invisible with Hayward set, even when asked for by id"
        );
        assert_eq!(count(conn, "SELECT count(*) AS n FROM establishments"), 1);
        assert_eq!(
            count(conn, "SELECT count(*) AS n FROM municipality_grants"),
            3
        );
        set(conn, "app.municipality_id", &montello.to_string());
        assert_eq!(count(conn, "SELECT count(*) AS n FROM payors"), 2);
        Ok(())
    })
    .unwrap();

    // After commit the reused connection keeps '' and still sees nothing.
    assert_eq!(count(&mut conn, "SELECT count(*) AS n FROM payors"), 0);

    // Writing into another tenant is refused by the policy's WITH CHECK.
    let err = conn
        .transaction::<_, diesel::result::Error, _>(|conn| {
            set(conn, "app.municipality_id", &hayward.to_string());
            diesel::sql_query(format!(
                "INSERT INTO payors (municipality_id, id, legal_name, mailing_address, annual_election, created_at, updated_at) \
                 VALUES ({montello}, 'x', 'Intruder', 'Nowhere', 'calendar', now(), now())"
            ))
            .execute(conn)
        })
        .unwrap_err();
    assert!(err.to_string().contains("row-level security"), "{err}");

    // The runtime role can neither bypass nor switch off the policies.
    let err = diesel::sql_query("ALTER TABLE payors NO FORCE ROW LEVEL SECURITY")
        .execute(&mut conn)
        .unwrap_err();
    assert!(err.to_string().contains("owner"), "{err}");
    // And the access log is append-only, even for the role that writes it.
    let err = conn
        .transaction::<_, diesel::result::Error, _>(|conn| {
            set(conn, "app.municipality_id", &montello.to_string());
            diesel::sql_query(format!(
                "INSERT INTO access_log VALUES ({montello}, 'e1', now(), 'user', 'u', 'clerk_treasurer', 'payor', 'p', 'read', 'r')"
            ))
            .execute(conn)?;
            diesel::sql_query("UPDATE access_log SET record_id = 'q'").execute(conn)
        })
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
}

#[actix_web::test]
async fn the_service_refuses_a_runtime_role_that_bypasses_rls() {
    let db = TestDb::create();
    if crate::helpers::skip_unless_postgres(&db, "rls::the_service_refuses_a_runtime_role") {
        return;
    }
    let keys = tempfile::tempdir().unwrap();
    let mut settings = crate::helpers::test_settings(&db, keys.path());
    // Connect as the owner (a superuser here): the service must refuse to serve.
    settings.database_url = roomtax::config::Secret::new(db.owner_url().unwrap());
    let err = roomtax::app::Application::build(&settings)
        .err()
        .expect("must refuse");
    assert!(err.to_string().contains("row-level security"), "{err}");
}

#[actix_web::test]
async fn the_service_refuses_a_runtime_role_that_is_a_member_of_the_owner() {
    let db = TestDb::create();
    if crate::helpers::skip_unless_postgres(&db, "rls::the_service_refuses_a_member") {
        return;
    }
    let TestDb::Postgres {
        owner_url, name, ..
    } = &db
    else {
        unreachable!("skipped above")
    };
    // Migrate as the owner first, then try to serve as a plain role that belongs to it.
    let keys = tempfile::tempdir().unwrap();
    let settings = crate::helpers::test_settings(&db, keys.path());
    roomtax::app::migrate(&settings).unwrap();
    let member = format!("{name}_member");
    let mut owner = PgConnection::establish(owner_url).unwrap();
    diesel::sql_query(format!(
        "CREATE ROLE {member} LOGIN NOSUPERUSER NOBYPASSRLS PASSWORD '{member}' IN ROLE postgres"
    ))
    .execute(&mut owner)
    .unwrap();
    let mut settings = settings;
    settings.database_url =
        roomtax::config::Secret::new(crate::helpers::with_user(owner_url, &member, &member));
    let refused = roomtax::app::Application::build(&settings).err();
    diesel::sql_query(format!("DROP ROLE {member}"))
        .execute(&mut owner)
        .unwrap();
    let err = refused.expect("a member of the owner must be refused");
    assert!(err.to_string().contains("row-level security"), "{err}");
}

const INVITATIONS_MIGRATION: &str = "2026-12-01-000002_zone_invitations";

#[test]
fn zone_invitations_are_keyed_by_zone_and_force_row_level_security() {
    let sqlite = migration_text("sqlite", INVITATIONS_MIGRATION);
    let pk = sqlite.split("PRIMARY KEY (").nth(1).unwrap();
    assert!(pk.starts_with("zone_id"), "the zone leads the key");
    let pg = migration_text("postgres", INVITATIONS_MIGRATION);
    for clause in ["ENABLE ROW LEVEL SECURITY", "FORCE ROW LEVEL SECURITY"] {
        assert!(
            pg.contains(&format!("ALTER TABLE zone_invitations {clause};")),
            "{clause}"
        );
    }
    assert!(pg.contains("CREATE POLICY tenant ON zone_invitations"));
    assert!(
        !pg.contains("FOR DELETE") && !pg.contains("FOR ALL"),
        "no row is ever deleted"
    );
}

/// Row-level security alone (no application check) shows an invitation to the zone
/// that sent it and to the municipality invited, and to nobody else.
#[actix_web::test]
async fn an_invitation_is_seen_by_its_two_sides_only() {
    let app = spawn_demo_app().await;
    let TestDb::Postgres { url, owner_url, .. } = &app.db else {
        crate::helpers::skip(
            "rls::an_invitation_is_seen_by_its_two_sides_only",
            "needs PostgreSQL (row-level security, roles)",
        );
        return;
    };
    let mut owner = PgConnection::establish(owner_url).unwrap();
    let id = |conn: &mut PgConnection, table: &str, slug: &str| {
        count(
            conn,
            &format!("SELECT id AS n FROM {table} WHERE slug = '{slug}'"),
        )
    };
    let zone = id(&mut owner, "zones", "marquette-county");
    let (hayward, montello) = (
        id(&mut owner, "municipalities", "hayward"),
        id(&mut owner, "municipalities", "montello"),
    );
    // Inserted as the owner: one invitation to each municipality.
    for (inv, m) in [("to-hayward", hayward), ("to-montello", montello)] {
        diesel::sql_query(format!(
            "INSERT INTO zone_invitations (zone_id, id, municipality_id, status, invited_by, invited_at) \
             VALUES ({zone}, '{inv}', {m}, 'pending', 'user:test', now())"
        ))
        .execute(&mut owner)
        .unwrap();
    }
    let mut conn = PgConnection::establish(url).unwrap();
    let all = "SELECT count(*) AS n FROM zone_invitations";
    conn.transaction::<_, diesel::result::Error, _>(|conn| {
        assert_eq!(count(conn, all), 0, "unset tenant sees nothing");
        set(conn, "app.zone_id", &zone.to_string());
        assert_eq!(count(conn, all), 2, "the zone sees what it sent");
        set(conn, "app.zone_id", "");
        set(conn, "app.municipality_id", &hayward.to_string());
        assert_eq!(count(conn, all), 1, "Hayward sees only its own");
        assert_eq!(
            count(conn, &format!("{all} WHERE municipality_id = {montello}")),
            0,
            "Montello's is invisible to Hayward even when asked for"
        );
        let touched = diesel::sql_query(
            "UPDATE zone_invitations SET status = 'declined', answered_at = now() WHERE id = 'to-montello'",
        )
        .execute(conn)?;
        assert_eq!(touched, 0, "Hayward cannot answer Montello's invitation");
        let deleted = diesel::sql_query("DELETE FROM zone_invitations").execute(conn)?;
        assert_eq!(deleted, 0, "an invited municipality deletes nothing");
        set(conn, "app.municipality_id", "");
        set(conn, "app.zone_id", &zone.to_string());
        let deleted = diesel::sql_query("DELETE FROM zone_invitations").execute(conn)?;
        assert_eq!(deleted, 0, "nor does the zone: invitations stay on record");
        Ok(())
    })
    .unwrap();
    // A municipality cannot send itself an invitation.
    let err = conn
        .transaction::<_, diesel::result::Error, _>(|conn| {
            set(conn, "app.municipality_id", &hayward.to_string());
            diesel::sql_query(format!(
                "INSERT INTO zone_invitations (zone_id, id, municipality_id, status, invited_by, invited_at) \
                 VALUES ({zone}, 'self', {hayward}, 'pending', 'user:x', now())"
            ))
            .execute(conn)
        })
        .unwrap_err();
    assert!(err.to_string().contains("row-level security"), "{err}");
}

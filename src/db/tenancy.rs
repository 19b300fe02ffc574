//! Tell PostgreSQL's row-level security who is being served, per transaction.
//!
//! Contract: [`apply`] runs first in every scoped transaction and sets the four
//! settings with `set_config(name, value, true)` (transaction-local: a pooled
//! connection never carries them into the next checkout); a missing value is
//! set to the empty string, which every policy treats as "no rows". On SQLite
//! it does nothing: the application checks in `tenancy` are the only guard.

use diesel::{RunQueryDsl, sql_types::Text};

use super::DbConn;
use crate::tenancy::DbScope;

/// Set `app.municipality_id`, `app.zone_id`, `app.user_id`, `app.client_id`.
pub fn apply(conn: &mut DbConn, scope: &DbScope) -> diesel::QueryResult<()> {
    let DbConn::Pg(pg) = conn else {
        return Ok(());
    };
    let settings = [
        (
            "app.municipality_id",
            scope.municipality_id.map(|v| v.to_string()),
        ),
        ("app.zone_id", scope.zone_id.map(|v| v.to_string())),
        ("app.user_id", scope.user_id.clone()),
        ("app.client_id", scope.client_id.clone()),
    ];
    for (name, value) in settings {
        diesel::sql_query("SELECT set_config($1, $2, true)")
            .bind::<Text, _>(name)
            .bind::<Text, _>(value.unwrap_or_default())
            .execute(pg)?;
    }
    Ok(())
}

/// Refuse a runtime role that row-level security would not bind: a superuser,
/// a BYPASSRLS role, or the owner of any table (the owner could switch FORCE off).
pub fn check_runtime_role(conn: &mut DbConn) -> Result<(), String> {
    use diesel::sql_types::{BigInt, Bool};
    #[derive(diesel::QueryableByName)]
    struct RoleRow {
        #[diesel(sql_type = Bool)]
        rolsuper: bool,
        #[diesel(sql_type = Bool)]
        rolbypassrls: bool,
        #[diesel(sql_type = BigInt)]
        owned: i64,
    }
    let DbConn::Pg(pg) = conn else {
        return Ok(());
    };
    let row: RoleRow = diesel::sql_query(
        "SELECT r.rolsuper, r.rolbypassrls, \
         (SELECT count(*) FROM pg_tables t WHERE t.schemaname = 'public' AND t.tableowner = current_user) AS owned \
         FROM pg_roles r WHERE r.rolname = current_user",
    )
    .get_result(pg)
    .map_err(|e| format!("cannot inspect the runtime role: {e}"))?;
    if row.rolsuper || row.rolbypassrls || row.owned > 0 {
        return Err(format!(
            "refusing to serve: the runtime database role can bypass row-level security \
             (superuser: {}, bypassrls: {}, owns {} table(s)); connect DATABASE_URL as a role \
             that is none of these and run migrations through ROOMTAX_MIGRATION_DATABASE_URL \
             (see README, \"PostgreSQL\")",
            row.rolsuper, row.rolbypassrls, row.owned
        ));
    }
    Ok(())
}

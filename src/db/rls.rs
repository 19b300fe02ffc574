//! Row-level-security settings: tell PostgreSQL who is being served, per transaction.
//!
//! Contract: [`apply`] sets the four settings with `set_config(name, value,
//! true)` (transaction-local: a pooled connection never carries them into the
//! next checkout) before the first statement that needs them; a missing value
//! is set to the empty string, which every policy treats as "no rows". It may
//! run again in the same transaction to widen the scope: the request's unit
//! of work first applies the caller alone (to load its grants), then the
//! caller in its tenant (see `api::caller`). On SQLite it does nothing: the
//! application checks in `tenancy` are the only guard. [`check_runtime_role`]
//! refuses a runtime role that row-level security would not bind;
//! [`autovacuum_off`] tells the start-up to warn when nothing keeps the
//! planner's statistics current.

use diesel::{RunQueryDsl, sql_types::Text};

use super::{
    DbConn,
    native::{NoRow, Reused},
};
use crate::tenancy::DbScope;

/// Set `app.municipality_id`, `app.zone_id`, `app.user_id`, `app.client_id`.
pub fn apply(conn: &mut DbConn, scope: &DbScope) -> diesel::QueryResult<()> {
    let DbConn::Pg(pg) = conn else {
        return Ok(());
    };
    // One statement, one round trip (four `SELECT set_config` cost four).
    let value = |v: Option<String>| v.unwrap_or_default();
    // Kept prepared: a unit of work runs it once or twice.
    Reused(
        diesel::sql_query(
            "SELECT set_config('app.municipality_id', $1, true), \
                    set_config('app.zone_id', $2, true), \
                    set_config('app.user_id', $3, true), \
                    set_config('app.client_id', $4, true)",
        )
        .bind::<Text, _>(value(scope.municipality_id.map(|v| v.to_string())))
        .bind::<Text, _>(value(scope.zone_id.map(|v| v.to_string())))
        .bind::<Text, _>(value(scope.user_id.clone()))
        .bind::<Text, _>(value(scope.client_id.clone())),
    )
    .load::<NoRow>(pg)?;
    Ok(())
}

/// Refuse a runtime role that row-level security would not bind: one that is,
/// or is a member of, a superuser or BYPASSRLS role, or that owns (directly or
/// through a role it belongs to) any table: an owner could switch FORCE off.
pub fn check_runtime_role(conn: &mut DbConn) -> Result<(), String> {
    use diesel::sql_types::{BigInt, Bool};
    #[derive(diesel::QueryableByName)]
    struct RoleRow {
        #[diesel(sql_type = Bool)]
        privileged: bool,
        #[diesel(sql_type = BigInt)]
        owned: i64,
    }
    let DbConn::Pg(pg) = conn else {
        return Ok(());
    };
    let row: RoleRow = diesel::sql_query(
        "SELECT coalesce(bool_or(r.rolsuper OR r.rolbypassrls), false) AS privileged, \
         (SELECT count(*) FROM pg_tables t WHERE t.schemaname = 'public' \
            AND pg_has_role(current_user, t.tableowner, 'MEMBER')) AS owned \
         FROM pg_roles r WHERE pg_has_role(current_user, r.oid, 'MEMBER')",
    )
    .get_result(pg)
    .map_err(|e| format!("cannot inspect the runtime role: {e}"))?;
    if row.privileged || row.owned > 0 {
        return Err(format!(
            "refusing to serve: the runtime database role can bypass row-level security \
             (superuser or BYPASSRLS, itself or by membership: {}; owns {} table(s), itself or \
             by membership); connect DATABASE_URL as a role that is none of these and run \
             migrations through ROOMTAX_MIGRATION_DATABASE_URL (see README, \"Row-level security\")",
            row.privileged, row.owned
        ));
    }
    Ok(())
}

/// On PostgreSQL, whether the server runs with `autovacuum = off`. Nothing
/// then refreshes the planner's statistics: every pooled connection keeps
/// the generic plans it made while the tables were small (a journal lookup
/// that walked a whole municipality's ledger: 7 ms a call instead of 0.1, on
/// the bench seed) until someone runs `ANALYZE`. The service still serves;
/// the start-up logs a warning naming the remedy.
pub fn autovacuum_off(conn: &mut DbConn) -> bool {
    #[derive(diesel::QueryableByName)]
    struct Setting {
        #[diesel(sql_type = Text)]
        value: String,
    }
    let DbConn::Pg(pg) = conn else {
        return false;
    };
    diesel::sql_query("SELECT current_setting('autovacuum') AS value")
        .get_result::<Setting>(pg)
        .is_ok_and(|s| s.value == "off")
}

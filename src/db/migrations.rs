//! Embedded migrations, one folder per backend with the same names.
//!
//! Contract: `migrations/sqlite/` and `migrations/postgres/` hold the same
//! migration names (a test fails otherwise); the binary embeds both and runs
//! the set matching the connection. `build.rs` makes cargo re-embed them
//! whenever a file under `migrations/` changes.

use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use super::{DbConn, DbError};

const SQLITE: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
const POSTGRES: EmbeddedMigrations = embed_migrations!("migrations/postgres");

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Apply every pending migration; returns how many ran.
pub fn run(conn: &mut DbConn) -> Result<usize, DbError> {
    let ran = match conn {
        DbConn::Sqlite(c) => c.run_pending_migrations(SQLITE).map(|v| v.len()),
        DbConn::Pg(c) => c.run_pending_migrations(POSTGRES).map(|v| v.len()),
    };
    ran.map_err(|e| DbError::Setup(format!("migration failed: {e}")))
}

#[derive(diesel::QueryableByName)]
struct Applied {
    #[diesel(sql_type = diesel::sql_types::Text)]
    version: String,
}

/// How many embedded migrations are not yet applied. Only reads the
/// migrations table (diesel's own check would try to create it, which the
/// runtime role of a two-role PostgreSQL setup may not do).
pub fn pending(conn: &mut DbConn) -> Result<usize, BoxError> {
    use diesel::RunQueryDsl;
    use diesel::migration::MigrationSource;
    let embedded: Vec<String> = match conn {
        DbConn::Sqlite(_) => MigrationSource::<diesel::sqlite::Sqlite>::migrations(&SQLITE)?
            .iter()
            .map(|m| m.name().version().to_string())
            .collect(),
        DbConn::Pg(_) => MigrationSource::<diesel::pg::Pg>::migrations(&POSTGRES)?
            .iter()
            .map(|m| m.name().version().to_string())
            .collect(),
    };
    let applied: Vec<Applied> =
        diesel::sql_query("SELECT version FROM __diesel_schema_migrations").load(conn)?;
    Ok(embedded
        .iter()
        .filter(|v| !applied.iter().any(|a| &a.version == *v))
        .count())
}

/// Revert every applied migration (tests of down migrations use this).
pub fn revert_all(conn: &mut DbConn) -> Result<usize, BoxError> {
    match conn {
        DbConn::Sqlite(c) => c.revert_all_migrations(SQLITE).map(|v| v.len()),
        DbConn::Pg(c) => c.revert_all_migrations(POSTGRES).map(|v| v.len()),
    }
}

/// Revert the last applied migration (a test of a migration's copy of
/// existing rows reverts it and applies it again on a populated database).
pub fn revert_last(conn: &mut DbConn) -> Result<(), BoxError> {
    match conn {
        DbConn::Sqlite(c) => c.revert_last_migration(SQLITE).map(|_| ()),
        DbConn::Pg(c) => c.revert_last_migration(POSTGRES).map(|_| ()),
    }
}

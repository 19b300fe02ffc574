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

/// How many migrations are not yet applied.
pub fn pending(conn: &mut DbConn) -> Result<usize, BoxError> {
    match conn {
        DbConn::Sqlite(c) => c.pending_migrations(SQLITE).map(|v| v.len()),
        DbConn::Pg(c) => c.pending_migrations(POSTGRES).map(|v| v.len()),
    }
}

/// Revert every applied migration (tests of down migrations use this).
pub fn revert_all(conn: &mut DbConn) -> Result<usize, BoxError> {
    match conn {
        DbConn::Sqlite(c) => c.revert_all_migrations(SQLITE).map(|v| v.len()),
        DbConn::Pg(c) => c.revert_all_migrations(POSTGRES).map(|v| v.len()),
    }
}

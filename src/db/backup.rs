//! The SQL of backups (SQLite): an online copy with `VACUUM INTO`, the
//! integrity check of a copy, and the tables of a database with their rows
//! (for comparing a copy with its source).
//!
//! Contract: SQLite only (each function refuses a PostgreSQL connection with
//! [`DbError::Setup`]; PostgreSQL is backed up with `pg_dump`, see the README's
//! "Backup and restore"). `VACUUM INTO` reads the source in one read
//! transaction, so the copy is the database as of one commit, taken while the
//! service keeps serving (WAL: writers are not blocked by the reader). Nothing
//! here reads or prints row contents except [`table_rows`], which tests use
//! to compare a copy with its source.

use diesel::{RunQueryDsl, sql_types::Text};

use super::{DbConn, DbError};

fn sqlite(conn: &mut DbConn) -> Result<&mut diesel::SqliteConnection, DbError> {
    match conn {
        DbConn::Sqlite(c) => Ok(c),
        DbConn::Pg(_) => Err(DbError::Setup(
            "this works on SQLite only; back PostgreSQL up with pg_dump (README: Backup and restore)"
                .into(),
        )),
    }
}

/// Write a consistent copy of the whole database into `path` (which must not
/// exist or be empty), as of the moment its read transaction begins. Must run
/// outside a transaction.
pub fn vacuum_into(conn: &mut DbConn, path: &std::path::Path) -> Result<(), DbError> {
    let c = sqlite(conn)?;
    let target = path
        .to_str()
        .ok_or_else(|| DbError::Setup(format!("{} is not a UTF-8 path", path.display())))?;
    diesel::sql_query("VACUUM INTO ?")
        .bind::<Text, _>(target)
        .execute(c)
        .map(|_| ())
        .map_err(|e| DbError::Setup(format!("VACUUM INTO failed: {e}")))
}

#[derive(diesel::QueryableByName)]
struct Line {
    #[diesel(sql_type = Text)]
    line: String,
}

/// `PRAGMA integrity_check`: `Ok(())` when SQLite answers `ok`, else the
/// problems it lists.
pub fn integrity_check(conn: &mut DbConn) -> Result<Result<(), Vec<String>>, DbError> {
    let c = sqlite(conn)?;
    let lines: Vec<Line> =
        diesel::sql_query("SELECT integrity_check AS line FROM pragma_integrity_check")
            .load(c)
            .map_err(|e| DbError::Setup(format!("integrity check failed to run: {e}")))?;
    let lines: Vec<String> = lines.into_iter().map(|l| l.line).collect();
    if lines == ["ok"] {
        Ok(Ok(()))
    } else {
        Ok(Err(lines))
    }
}

/// The names of the database's tables (SQLite's own excluded), sorted.
pub fn tables(conn: &mut DbConn) -> Result<Vec<String>, DbError> {
    let c = sqlite(conn)?;
    let rows: Vec<Line> = diesel::sql_query(
        "SELECT name AS line FROM sqlite_schema WHERE type = 'table' \
         AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .load(c)
    .map_err(|e| DbError::Setup(format!("cannot list the tables: {e}")))?;
    Ok(rows.into_iter().map(|l| l.line).collect())
}

/// Every row of `table`, each as one line of text (its columns' values
/// quoted by SQLite's `quote()`, so NULL, numbers, text and blobs stay
/// distinct), sorted: two tables hold the same rows exactly when these are
/// equal. `table` must be a name [`tables`] returned.
pub fn table_rows(conn: &mut DbConn, table: &str) -> Result<Vec<String>, DbError> {
    #[derive(diesel::QueryableByName)]
    struct Column {
        #[diesel(sql_type = Text)]
        name: String,
    }
    if !tables(conn)?.iter().any(|t| t == table) {
        return Err(DbError::Setup(format!("no table {table}")));
    }
    let c = sqlite(conn)?;
    let quoted = |name: &str| format!("\"{}\"", name.replace('"', "\"\""));
    let columns: Vec<Column> = diesel::sql_query("SELECT name FROM pragma_table_info(?)")
        .bind::<Text, _>(table)
        .load(c)
        .map_err(|e| DbError::Setup(format!("cannot read the columns of {table}: {e}")))?;
    let row = columns
        .iter()
        .map(|col| format!("quote({})", quoted(&col.name)))
        .collect::<Vec<_>>()
        .join(" || ',' || ");
    let sql = format!("SELECT {row} AS line FROM {} ORDER BY 1", quoted(table));
    let rows: Vec<Line> = diesel::sql_query(sql)
        .load(c)
        .map_err(|e| DbError::Setup(format!("cannot read {table}: {e}")))?;
    Ok(rows.into_iter().map(|l| l.line).collect())
}

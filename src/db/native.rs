//! Queries run on the backend's own connection, past the `MultiConnection`
//! wrapper.
//!
//! diesel's `MultiConnection` derive runs every query inside a wrapper
//! (`SerializedQuery`) whose `walk_ast` builds the query's whole SQL text on
//! each walk: once for the statement cache's "safe to cache?" walk and once
//! more for the bind collector, on every execution, although the prepared
//! statement is then found by the query's type. In a profile of the payor's
//! statement (twelve queries), that text building was a fifth of the
//! server's CPU.
//!
//! A query whose type serves both backends (built with the DSL and not
//! boxed, its row type `Queryable` on each) need not go through it:
//! [`Native`] matches on [`DbConn`] and runs the query on the
//! `SqliteConnection` or the `PgConnection` itself, whose cache finds the
//! prepared statement by the query's type without building any text.
//! Behaviour is the same (the same SQL, in the same transaction, on the same
//! connection); only the route differs. The hot paths use it; a boxed or
//! raw-SQL query keeps the `MultiConnection` route.

use diesel::{
    PgConnection, QueryResult, RunQueryDsl, SqliteConnection,
    query_dsl::{LoadQuery, methods::ExecuteDsl},
};

use super::DbConn;

/// A query that loads rows of `U` on either backend's own connection.
pub trait LoadOnBoth<'q, U>:
    RunQueryDsl<SqliteConnection>
    + LoadQuery<'q, SqliteConnection, U>
    + RunQueryDsl<PgConnection>
    + LoadQuery<'q, PgConnection, U>
{
}

impl<'q, U, T> LoadOnBoth<'q, U> for T where
    T: RunQueryDsl<SqliteConnection>
        + LoadQuery<'q, SqliteConnection, U>
        + RunQueryDsl<PgConnection>
        + LoadQuery<'q, PgConnection, U>
{
}

/// `load`, `get_result` and `execute` on the backend's own connection.
pub trait Native: Sized {
    /// Every row, as `RunQueryDsl::load`.
    fn load_native<'q, U>(self, conn: &mut DbConn) -> QueryResult<Vec<U>>
    where
        Self: LoadOnBoth<'q, U>,
    {
        match conn {
            DbConn::Sqlite(c) => RunQueryDsl::<SqliteConnection>::load(self, c),
            DbConn::Pg(c) => RunQueryDsl::<PgConnection>::load(self, c),
        }
    }

    /// The one row, as `RunQueryDsl::get_result` (`NotFound` when none).
    fn get_native<'q, U>(self, conn: &mut DbConn) -> QueryResult<U>
    where
        Self: LoadOnBoth<'q, U>,
    {
        match conn {
            DbConn::Sqlite(c) => RunQueryDsl::<SqliteConnection>::get_result(self, c),
            DbConn::Pg(c) => RunQueryDsl::<PgConnection>::get_result(self, c),
        }
    }

    /// The rows changed, as `RunQueryDsl::execute`.
    fn execute_native(self, conn: &mut DbConn) -> QueryResult<usize>
    where
        Self: RunQueryDsl<SqliteConnection>
            + ExecuteDsl<SqliteConnection>
            + RunQueryDsl<PgConnection>
            + ExecuteDsl<PgConnection>,
    {
        match conn {
            DbConn::Sqlite(c) => RunQueryDsl::<SqliteConnection>::execute(self, c),
            DbConn::Pg(c) => RunQueryDsl::<PgConnection>::execute(self, c),
        }
    }
}

impl<T> Native for T {}

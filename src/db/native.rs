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
//!
//! [`Reused`] keeps a statement prepared that diesel would parse anew on every
//! execution: diesel never caches an `UPDATE`, a raw `sql_query`, an upsert or
//! (on PostgreSQL) an `INSERT` whose values may hold `DEFAULT`, because such a
//! statement's text can vary from one call to the next. Wrapped, the statement
//! is cached by its text and bind types, so each distinct text is prepared
//! once per connection: only for statements whose text takes a few forms
//! (never an `IN` list or a batch of any length). Measured with pgbench on
//! the benchmark's filing SQL: prepared 1,560 transactions/s, parsed each
//! time 1,075.
//!
//! diesel's `execute` consults the statement by reference, and its forwarding
//! impl for `&T` asks the statement's syntax tree (which says "unsafe")
//! rather than the wrapper; `load` takes the statement by value and asks the
//! wrapper. So a wrapped write runs through `load`: [`Native::execute_reused`]
//! for a write whose row count is not needed ([`Rowless`] gives it a row
//! type, [`NoRow`]), and a write whose count matters adds `RETURNING` and
//! counts the rows.

use diesel::{
    PgConnection, QueryResult, QueryableByName, RunQueryDsl, SqliteConnection,
    backend::Backend,
    query_builder::{AstPass, Query, QueryFragment, QueryId},
    query_dsl::{LoadQuery, methods::ExecuteDsl},
    sql_types::Untyped,
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

    /// Run a write that returns no rows, kept prepared ([`Reused`]): the
    /// statement's text must take a bounded number of forms.
    fn execute_reused<'q>(self, conn: &mut DbConn) -> QueryResult<()>
    where
        Reused<Rowless<Self>>: LoadOnBoth<'q, NoRow>,
    {
        Reused(Rowless(self)).load_native::<NoRow>(conn).map(|_| ())
    }
}

impl<T> Native for T {}

/// The row of a statement that returns none (or whose columns are not read).
#[derive(Debug, QueryableByName)]
pub struct NoRow {}

/// A statement that returns no rows, seen as a query of untyped rows so
/// that it can run through `load` (see the module doc):
/// [`Native::execute_reused`] wraps it in [`Reused`].
#[derive(Debug, Clone, Copy)]
pub struct Rowless<Q>(pub Q);

impl<DB: Backend, Q: QueryFragment<DB>> QueryFragment<DB> for Rowless<Q> {
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }
}

impl<Q> Query for Rowless<Q> {
    type SqlType = Untyped;
}

/// A statement kept prepared on its connection although diesel would not
/// cache it (see the module doc): its text must take a bounded number of
/// forms, since the cache keeps one prepared statement per text.
#[derive(Debug, Clone, Copy)]
pub struct Reused<Q>(pub Q);

impl<Q> QueryId for Reused<Q> {
    type QueryId = ();
    /// Keyed by its SQL text and bind types, never by its type.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl<DB: Backend, Q: QueryFragment<DB>> QueryFragment<DB> for Reused<Q> {
    fn walk_ast<'b>(&'b self, pass: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        self.0.walk_ast(pass)
    }

    fn is_safe_to_cache_prepared(&self, _backend: &DB) -> QueryResult<bool> {
        Ok(true)
    }
}

impl<Q: Query> Query for Reused<Q> {
    type SqlType = Q::SqlType;
}

impl<Q, Conn> RunQueryDsl<Conn> for Reused<Q> {}

//! Storage: one diesel `MultiConnection` over SQLite and PostgreSQL, pooled.
//!
//! Contract: the backend is chosen from the URL scheme (`sqlite://` or
//! `postgres://`), never by trial, so connection errors are reported as the
//! backend gave them. Every unit of work runs in one transaction on a
//! blocking thread through [`Db::run_in`], in a [`Mode`] (read or write);
//! nothing blocks the async workers. A request has exactly one unit of work
//! (`api::caller` opens it): the caller's grants, the tenant and the
//! handler's own queries share its transaction. SQLite connections use WAL, a
//! busy timeout and enforced foreign keys; a SQLite file is created mode 0600
//! and only in an existing folder (or the default `data/`), see
//! [`Target::connect`].
//!
//! One row by its key: queries that look up one row use `.get_result()` (and
//! `.optional()`), never `.first()`. `.first()` adds `LIMIT ?` with a bound
//! value, and SQLite re-prepares a cached statement whose `LIMIT` is a bound
//! parameter on every execution (about 155,000 instructions each time, three
//! times in every authenticated request); `clippy.toml` forbids it. Every such
//! lookup filters on a primary or unique key, so the two return the same row.
//!
//! One route per query: a query whose type serves both backends (DSL, not
//! boxed, no `as_select()`) runs with [`native::Native`]'s `load_native`,
//! `get_native` or `execute_native` on the backend's own connection, which
//! skips the `MultiConnection` wrapper's rebuilding of the SQL text on every
//! execution; boxed queries, raw SQL and multi-row inserts keep the
//! `MultiConnection` route.

pub mod access_log;
pub mod api_clients;
pub mod backup;
pub mod checkpoint;
pub mod clearance;
pub mod delinquency;
pub mod determinations;
pub mod disclosures;
pub mod epochs;
pub mod expenditures;
pub mod grants;
pub mod idempotency;
pub mod identity;
pub mod ledger;
pub mod marketplace;
pub mod migrations;
pub mod models;
pub mod municipalities;
pub mod native;
pub mod notices;
pub mod payments;
pub mod payors;
pub mod policies;
pub mod refunds;
pub mod remittances;
pub mod returns;
pub mod rls;
pub mod roster;
pub mod schema;
pub mod security;
pub mod tenants;
pub mod transfers;
pub mod unit;
pub mod vehicle_fee;
pub mod web_sessions;
pub mod writer;
pub mod zones;

use std::{
    path::PathBuf,
    time::{Duration, Instant},
};

use diesel::{
    Connection, PgConnection, RunQueryDsl, SqliteConnection, connection::SimpleConnection,
};

use crate::{config::Secret, db::native::Native as _, error::ApiError};

/// A connection to either backend.
#[derive(diesel::MultiConnection)]
pub enum DbConn {
    /// PostgreSQL (production).
    Pg(PgConnection),
    /// SQLite (embedded default).
    Sqlite(SqliteConnection),
}

/// Which database engine a URL names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A SQLite file at this path.
    Sqlite(PathBuf),
    /// A PostgreSQL URL.
    Postgres(Secret),
}

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// The URL names no supported backend.
    #[error("unsupported database URL scheme (use sqlite://PATH or postgres://...)")]
    Scheme,
    /// The backend refused the connection; the message is the backend's own.
    #[error("cannot connect to the {backend} database: {message}")]
    Connect {
        backend: &'static str,
        message: String,
    },
    /// A query or migration failed while preparing the database.
    #[error("{0}")]
    Setup(String),
}

impl Target {
    /// Parse a database URL.
    pub fn parse(url: &Secret) -> Result<Self, DbError> {
        let raw = url.expose();
        if let Some(path) = raw.strip_prefix("sqlite://") {
            if path.is_empty() {
                return Err(DbError::Setup("sqlite:// needs a file path".into()));
            }
            return Ok(Self::Sqlite(PathBuf::from(path)));
        }
        if raw.starts_with("postgres://") || raw.starts_with("postgresql://") {
            return Ok(Self::Postgres(url.clone()));
        }
        Err(DbError::Scheme)
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn backend(&self) -> &'static str {
        match self {
            Self::Sqlite(_) => "sqlite",
            Self::Postgres(_) => "postgres",
        }
    }

    /// Open one connection, configured for this service. A SQLite URL whose folder
    /// does not exist is refused naming the path, except the default `data/`
    /// folder, which is created; a new SQLite file is created mode 0600.
    pub fn connect(&self) -> Result<DbConn, DbError> {
        if let Self::Sqlite(path) = self {
            prepare_sqlite_file(path)?;
        }
        self.open(&self.sqlite_name(false))
    }

    /// Open one more connection to a database already opened by
    /// [`Target::connect`] (the pool's connections after its first): a SQLite
    /// file that has gone is an error, never created again empty (SQLite's
    /// `mode=rw`), so `/readyz` reports it missing instead of a pool that
    /// refilled itself recreating it.
    fn reconnect(&self) -> Result<DbConn, DbError> {
        self.open(&self.sqlite_name(true))
    }

    /// The name SQLite opens: the path, or with `existing` a `file:` URI
    /// whose `mode=rw` refuses to create the file.
    fn sqlite_name(&self, existing: bool) -> String {
        let Self::Sqlite(path) = self else {
            return String::new();
        };
        let shown = path.to_string_lossy();
        if !existing || shown == ":memory:" {
            return shown.into_owned();
        }
        let mut uri = String::from("file:");
        for byte in shown.bytes() {
            if byte.is_ascii_alphanumeric() || b"/-_.~".contains(&byte) {
                uri.push(char::from(byte));
            } else {
                uri.push_str(&format!("%{byte:02X}"));
            }
        }
        uri.push_str("?mode=rw");
        uri
    }

    fn open(&self, sqlite_name: &str) -> Result<DbConn, DbError> {
        match self {
            Self::Sqlite(_) => {
                let mut conn =
                    SqliteConnection::establish(sqlite_name).map_err(|e| DbError::Connect {
                        backend: "sqlite",
                        message: e.to_string(),
                    })?;
                // The busy timeout first: `journal_mode` takes a lock, and set
                // before the timeout it failed at once ("database is locked")
                // whenever another connection held one (seen in CI: a second
                // connection opened beside a serving pool).
                conn.batch_execute(&format!(
                    "PRAGMA busy_timeout = {}; PRAGMA journal_mode = WAL; \
                     PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;",
                    SQLITE_BUSY_TIMEOUT.as_millis()
                ))
                .map_err(|e| DbError::Setup(format!("sqlite pragmas: {e}")))?;
                Ok(DbConn::Sqlite(conn))
            }
            Self::Postgres(url) => PgConnection::establish(url.expose())
                .map(DbConn::Pg)
                .map_err(|e| DbError::Connect {
                    backend: "postgres",
                    message: e.to_string(),
                }),
        }
    }
}

/// The folder of the default database URL (`sqlite://data/roomtax.db`): the only
/// folder [`Target::connect`] creates.
pub const DEFAULT_SQLITE_DIR: &str = "data";

/// Make sure a SQLite file can be opened safely: its folder must exist (only
/// [`DEFAULT_SQLITE_DIR`] is created, mode 0700, so a mistyped path is an error
/// naming it instead of a new empty database somewhere), and a new file is
/// created mode 0600 before SQLite opens it (SQLite gives its `-wal` and `-shm`
/// files the database file's mode), since it holds confidential returns.
fn prepare_sqlite_file(path: &std::path::Path) -> Result<(), DbError> {
    if path.as_os_str() == ":memory:" {
        return Ok(());
    }
    let fail = |message: String| DbError::Connect {
        backend: "sqlite",
        message,
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    if !dir.is_dir() {
        let is_default = dir
            .strip_prefix(".")
            .unwrap_or(dir)
            .eq(std::path::Path::new(DEFAULT_SQLITE_DIR));
        if !is_default {
            return Err(fail(format!(
                "the folder {} of the database file {} does not exist (create it first; only the default {DEFAULT_SQLITE_DIR}/ folder is created)",
                dir.display(),
                path.display()
            )));
        }
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
            .recursive(true)
            .create(dir)
            .map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(fail(format!("cannot create {}: {e}", path.display()))),
    }
}

/// How long a SQLite connection waits for the write lock (its busy timeout),
/// and a write unit for its turn among this process's writers.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a PostgreSQL connection whose last unit of work committed or
/// rolled back cleanly counts as proven: checked out again within this time,
/// it is used without the `SELECT 1` round trip (see [`Manager`]).
const PROVEN_FOR: Duration = Duration::from_secs(1);

/// A pooled connection and the instant its last unit of work ended well.
pub struct Pooled {
    conn: DbConn,
    proven_at: Option<Instant>,
}

impl std::ops::Deref for Pooled {
    type Target = DbConn;
    fn deref(&self) -> &DbConn {
        &self.conn
    }
}

impl std::ops::DerefMut for Pooled {
    fn deref_mut(&mut self) -> &mut DbConn {
        &mut self.conn
    }
}

/// r2d2 manager that opens connections through [`Target::connect`].
///
/// A PostgreSQL connection is checked (`SELECT 1`) when it is checked out,
/// so that one whose socket died with a server restart is replaced before a
/// request uses it; but not when its last unit of work ended well less than
/// [`PROVEN_FOR`] ago: on a busy server that check was one round trip in
/// every unit of work (two of a filing's forty, measured with
/// `log_statement`), and a connection that just worked is alive. What this
/// gives up: a server restart in that second fails the next unit on such a
/// connection once (a 503 or 500 to that one request); the connection is not
/// proven by that unit, so it is checked, and replaced, when next used.
///
/// With `checkpoints_elsewhere` (the service's SQLite pool), each connection
/// leaves WAL checkpoints to the pool's checkpointer thread (see
/// [`checkpoint`]).
#[derive(Debug)]
pub struct Manager {
    target: Target,
    checkpoints_elsewhere: bool,
}

impl r2d2::ManageConnection for Manager {
    type Connection = Pooled;
    type Error = DbError;

    fn connect(&self) -> Result<Pooled, DbError> {
        let mut conn = self.target.reconnect()?;
        if let (DbConn::Sqlite(c), true) = (&mut conn, self.checkpoints_elsewhere) {
            // No automatic checkpoint (see `checkpoint`), and savepoint
            // journals in memory: each unit of the writers' thread (see
            // `writer`) runs in a savepoint, and SQLite keeps the first image
            // of every page a savepoint changes in a temporary file by
            // default, 11 % of the writers' time in a profile of filings
            // (two `pwrite` calls per page).
            c.batch_execute("PRAGMA wal_autocheckpoint = 0; PRAGMA temp_store = MEMORY")
                .map_err(|e| DbError::Setup(format!("sqlite pragmas: {e}")))?;
        }
        Ok(Pooled {
            conn,
            proven_at: None,
        })
    }

    fn is_valid(&self, conn: &mut Pooled) -> Result<(), DbError> {
        if conn.proven_at.is_some_and(|at| at.elapsed() < PROVEN_FOR) {
            return Ok(());
        }
        diesel::sql_query("SELECT 1")
            .execute(&mut conn.conn)
            .map(|_| ())
            .map_err(|e| DbError::Setup(e.to_string()))
    }

    /// A connection whose transaction manager is broken (a lost server, a failed
    /// rollback) is dropped instead of going back into the pool, so the pool heals
    /// by itself once the database is back.
    fn has_broken(&self, conn: &mut Pooled) -> bool {
        use diesel::connection::TransactionManager;
        <DbConn as TransactionManager<DbConn>>::is_broken_transaction_manager(&mut conn.conn)
    }
}

/// What a unit of work may do, chosen by the handler that opens it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Reads only. SQLite: `BEGIN DEFERRED`, which takes no lock until the
    /// first read and never the write lock, so reads run beside each other and
    /// beside a writer (WAL). PostgreSQL: `BEGIN READ ONLY`, so a read unit
    /// that tried to write would fail loudly (every test runs there too).
    Read,
    /// Reads and writes. SQLite: `BEGIN IMMEDIATE`, see [`in_transaction_in`].
    /// PostgreSQL: a plain `BEGIN` (READ COMMITTED).
    Write,
}

/// Run `work` in one transaction of `mode`.
///
/// A write unit on SQLite starts with `BEGIN IMMEDIATE`: it takes the write
/// lock at once (waiting up to the busy timeout), so a unit of work that reads
/// and then writes (a payor read and its access-log entry, a refresh-token
/// rotation) can never fail with "database is locked" half-way (a deferred
/// transaction that upgrades from reading to writing gets `SQLITE_BUSY` at
/// once, without the busy timeout, when another writer got there first), nor
/// lose a revocation to a concurrent writer. Write units on SQLite therefore
/// run one at a time; read units do not wait for them. PostgreSQL runs both
/// concurrently (READ COMMITTED, conditional updates where order matters).
///
/// When the unit ends, committed or not, every memo epoch its writes moved is
/// bumped once more (see [`epochs`]).
///
/// A read unit's access-log entries (see [`access_log`]) are inserted here,
/// in a write unit of their own on the same connection, once it has
/// committed: this is the command line's and the demo's path. The service's
/// units ([`Db::run_in`]) hand them to the pool's appender instead.
pub fn in_transaction_in<T, F>(conn: &mut DbConn, mode: Mode, work: F) -> Result<T, ApiError>
where
    F: FnOnce(&mut DbConn) -> Result<T, ApiError>,
{
    let (value, deferred) = unit_in(conn, mode, work)?;
    if !deferred.is_empty() {
        unit_in(conn, Mode::Write, |conn| {
            access_log::append_all(conn, &deferred)?;
            Ok(())
        })?;
    }
    Ok(value)
}

/// One unit of work in `mode`, and the access-log entries it deferred (a read
/// unit's; see [`unit::defer_log`]), to be appended once it has committed.
fn unit_in<T, F>(
    conn: &mut DbConn,
    mode: Mode,
    work: F,
) -> Result<(T, Vec<models::AccessLogRow>), ApiError>
where
    F: FnOnce(&mut DbConn) -> Result<T, ApiError>,
{
    let epochs = epochs::snapshot();
    let outer = unit::open(mode == Mode::Read);
    let outcome = in_transaction_of(conn, mode, work);
    let deferred = unit::close(outer);
    epochs::settle(epochs);
    outcome.map(|value| (value, deferred))
}

/// A write unit of the writers' thread (see [`writer`]): `work` in a savepoint
/// of the batch's transaction, released when it succeeds and rolled back when
/// it fails; the access-log entries it deferred (none for a write unit).
fn unit_in_savepoint<T, F>(
    conn: &mut DbConn,
    work: F,
) -> Result<(T, Vec<models::AccessLogRow>), ApiError>
where
    F: FnOnce(&mut DbConn) -> Result<T, ApiError>,
{
    use diesel::connection::TransactionManager;
    <DbConn as TransactionManager<DbConn>>::begin_transaction(conn)?;
    let outer = unit::open(false);
    let outcome = work(conn);
    let outcome = end_transaction(conn, outcome);
    let deferred = unit::close(outer);
    outcome.map(|value| (value, deferred))
}

/// A unit of work on a connection of `pool`, on this thread (a blocking
/// thread; the writers' own for the service's SQLite write units): first, for
/// a write unit on SQLite, its turn at the `writers`' turnstile (see
/// [`Db::run_in`]). The connection is proven (see [`Manager`]) by a unit that
/// ended as it meant to.
pub(crate) fn pooled_unit<T, F>(
    pool: &r2d2::Pool<Manager>,
    writers: Option<&checkpoint::Writers>,
    mode: Mode,
    work: F,
) -> Result<(T, Vec<models::AccessLogRow>), ApiError>
where
    F: FnOnce(&mut DbConn) -> Result<T, ApiError>,
{
    let _turn = match writers {
        Some(writers) => Some(
            writers
                .gate
                .enter(1, Some(SQLITE_BUSY_TIMEOUT))
                .ok_or_else(|| ApiError::NotReady("the database is busy; try again".into()))?,
        ),
        None => None,
    };
    // SQLite's write units share the writers' one connection (see
    // `checkpoint::Writers`): its page cache stays warm between them.
    let mut conn = match writers {
        Some(writers) => writers.conn.get()?,
        None => pool.get()?,
    };
    let outcome = unit_in(&mut conn, mode, work);
    // Proven only by a unit that ended as it meant to: a failed commit or a
    // lost server leaves the connection to be checked.
    conn.proven_at = outcome.is_ok().then(Instant::now);
    if let Some(writers) = writers {
        writers.wrote();
    }
    outcome
}

fn in_transaction_of<T, F>(conn: &mut DbConn, mode: Mode, work: F) -> Result<T, ApiError>
where
    F: FnOnce(&mut DbConn) -> Result<T, ApiError>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    match (conn as &mut DbConn, mode) {
        (DbConn::Sqlite(c), Mode::Write) => {
            AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE")?
        }
        (DbConn::Sqlite(c), Mode::Read) => {
            AnsiTransactionManager::begin_transaction_sql(c, "BEGIN DEFERRED")?
        }
        (DbConn::Pg(c), Mode::Read) => {
            AnsiTransactionManager::begin_transaction_sql(c, "BEGIN READ ONLY")?
        }
        (DbConn::Pg(_), Mode::Write) => {
            <DbConn as TransactionManager<DbConn>>::begin_transaction(conn)?
        }
    }
    let outcome = work(conn);
    end_transaction(conn, outcome)
}

/// End the innermost transaction (or savepoint) that `outcome` ran in:
/// committed (released) when it succeeded, rolled back when it failed.
fn end_transaction<T>(conn: &mut DbConn, outcome: Result<T, ApiError>) -> Result<T, ApiError> {
    use diesel::connection::TransactionManager;
    match outcome {
        Ok(value) => {
            <DbConn as TransactionManager<DbConn>>::commit_transaction(conn)?;
            Ok(value)
        }
        Err(err) => {
            if let Err(rollback) =
                <DbConn as TransactionManager<DbConn>>::rollback_transaction(conn)
            {
                tracing::warn!(cause = %rollback, "rollback failed");
            }
            Err(err)
        }
    }
}

/// `get`: the row of a municipality's payor with this id, from a table whose rows
/// are a payor's (columns `municipality_id`, `payor_id`, `id`; `$table` its schema
/// module in scope, `$row` its row type). The doc comments given are the function's.
macro_rules! payor_get {
    ($(#[$doc:meta])* $table:ident => $row:ty) => {
        $(#[$doc])*
        pub fn get(
            conn: &mut $crate::db::DbConn,
            municipality_id: i64,
            payor_id: &str,
            id: &str,
        ) -> diesel::QueryResult<Option<$row>> {
            $table::table
                .filter($table::municipality_id.eq(municipality_id))
                .filter($table::payor_id.eq(payor_id))
                .filter($table::id.eq(id))
                .get_native(conn)
                .optional()
        }
    };
}
pub(crate) use payor_get;

/// `of_payor`: every row of a municipality's payor in `order`, from a table whose
/// rows are a payor's (as [`payor_get`]).
macro_rules! payor_of {
    ($(#[$doc:meta])* $table:ident => $row:ty, order: $order:expr) => {
        $(#[$doc])*
        pub fn of_payor(
            conn: &mut $crate::db::DbConn,
            municipality_id: i64,
            payor_id: &str,
        ) -> diesel::QueryResult<Vec<$row>> {
            $table::table
                .filter($table::municipality_id.eq(municipality_id))
                .filter($table::payor_id.eq(payor_id))
                .order($order)
                .load_native(conn)
        }
    };
}
pub(crate) use payor_of;

/// Insert one row (a row struct or an insert form) into `table`: every
/// query module's insert that returns nothing is this one statement, kept
/// prepared on the connection ([`native::Reused`]: one text per table and
/// set of columns left to their default).
pub fn insert_row<'q, T, V>(conn: &mut DbConn, table: T, row: V) -> diesel::QueryResult<()>
where
    T: diesel::Table,
    V: diesel::Insertable<T>,
    native::Reused<native::Rowless<diesel::query_builder::InsertStatement<T, V::Values>>>:
        native::LoadOnBoth<'q, native::NoRow>,
{
    diesel::insert_into(table).values(row).execute_reused(conn)
}

/// Insert many rows into `table` in one statement (`values` a slice or
/// `Vec` of row references). diesel builds a multi-row `INSERT` per backend
/// (SQLite has no `DEFAULT` keyword), so this one is not generic over
/// [`DbConn`] as [`insert_row`] is: it dispatches on the backend.
pub fn insert_rows<T, V>(conn: &mut DbConn, table: T, values: V) -> diesel::QueryResult<()>
where
    T: diesel::Table,
    V: diesel::Insertable<T>,
    diesel::query_builder::InsertStatement<T, V::Values>: diesel::query_dsl::methods::ExecuteDsl<PgConnection>
        + diesel::query_dsl::methods::ExecuteDsl<SqliteConnection>,
{
    let insert = diesel::insert_into(table).values(values);
    match conn {
        DbConn::Pg(c) => insert.execute(c)?,
        DbConn::Sqlite(c) => insert.execute(c)?,
    };
    Ok(())
}

/// Refresh the planner's statistics of every table (`ANALYZE`), on a
/// connection of the tables' owner: after a bulk load (`roomtax bench-seed`),
/// or on a PostgreSQL server whose autovacuum is off. Nothing on SQLite,
/// whose plans the service's queries were measured with as they are.
pub fn analyze(conn: &mut DbConn) -> diesel::QueryResult<()> {
    match conn {
        DbConn::Pg(pg) => diesel::sql_query("ANALYZE").execute(pg).map(|_| ()),
        DbConn::Sqlite(_) => Ok(()),
    }
}

/// [`in_transaction_in`] a write unit (the command line, the demo).
pub fn in_transaction<T, F>(conn: &mut DbConn, work: F) -> Result<T, ApiError>
where
    F: FnOnce(&mut DbConn) -> Result<T, ApiError>,
{
    in_transaction_in(conn, Mode::Write, work)
}

/// The pooled database handle handlers use.
#[derive(Clone)]
pub struct Db {
    pub(crate) pool: r2d2::Pool<Manager>,
    target: Target,
    /// SQLite: the write units of this pool pass one at a time (see
    /// [`Db::run_in`]), and its checkpointer (`None` on PostgreSQL).
    writers: Option<std::sync::Arc<checkpoint::Writers>>,
    /// Commits the access-log entries of read units (see [`access_log::appender`]).
    appender: std::sync::Arc<access_log::appender::Appender>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("backend", &self.target.backend())
            .finish()
    }
}

impl Db {
    /// Open a pool; one connection is made eagerly so a bad URL fails now,
    /// with the backend's own message.
    pub fn open(url: &Secret, pool_size: u32) -> Result<Self, DbError> {
        let target = Target::parse(url)?;
        drop(target.connect()?);
        // A PostgreSQL connection is checked (SELECT 1) before use unless it
        // was just proven (see `Manager`): after a server restart its socket is
        // dead without the connection knowing, and the check replaces it. A
        // SQLite file needs no such check.
        let network = matches!(target, Target::Postgres(_));
        let writers = match network {
            false => Some(std::sync::Arc::new(checkpoint::Writers::start(&target)?)),
            true => None,
        };
        let pool = r2d2::Pool::builder()
            .max_size(pool_size)
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(5))
            .test_on_check_out(network)
            .build_unchecked(Manager {
                target: target.clone(),
                checkpoints_elsewhere: !network,
            });
        let appender = access_log::appender::Appender::start(access_log::appender::Sink {
            pool: pool.clone(),
            writers: writers.clone(),
        })
        .map_err(|e| DbError::Setup(format!("the access log's appender: {e}")))?;
        Ok(Self {
            pool,
            target,
            writers,
            appender: std::sync::Arc::new(appender),
        })
    }

    /// `"sqlite"` or `"postgres"`.
    pub fn backend(&self) -> &'static str {
        self.target.backend()
    }

    /// Run `work` in one transaction of `mode` on a blocking thread. The
    /// request's context (its id, for error bodies and the access log) stays
    /// readable inside `work`.
    pub async fn run_in<T, F>(&self, mode: Mode, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn) -> Result<T, ApiError> + Send + 'static,
    {
        let pool = self.pool.clone();
        let request = crate::request_context::current();
        // SQLite takes one writer at a time. Its own wait for the write lock
        // (the busy handler) sleeps between tries, up to 100 ms however soon
        // the lock is free; a write unit of this pool therefore waits in the
        // process instead: queued for the writers' thread, where it also takes
        // its turn at the turnstile it shares with the access log's appender
        // (see `crate::turnstile`), and starts as soon as the last one ends.
        // Other processes on the same file (the command line) still meet the
        // busy timeout.
        let writers = self.writers.clone().filter(|_| mode == Mode::Write);
        let (value, deferred) = match writers {
            // SQLite's write units run on the writers' own thread, one after
            // another (see `checkpoint::Writers::submit`).
            Some(writers) => {
                let (done, outcome) = tokio::sync::oneshot::channel();
                writers.submit(Box::new(move |conn: Option<&mut DbConn>| {
                    let ran = conn.map(|conn| {
                        crate::request_context::within(request, || unit_in_savepoint(conn, work))
                    });
                    let succeeded = matches!(ran, Some(Ok(_)));
                    let finish: writer::Finish = Box::new(move |batch| {
                        let _ = done.send(match (ran, batch) {
                            (Some(Err(e)), _) | (_, Err(e)) => Err(e),
                            (Some(Ok(value)), Ok(())) => Ok(value),
                            (None, Ok(())) => Err(ApiError::internal("a unit that did not run")),
                        });
                    });
                    (succeeded, finish)
                }))?;
                outcome.await.map_err(|_| {
                    ApiError::internal("a write unit ended without an answer (it panicked)")
                })??
            }
            None => {
                tokio::task::spawn_blocking(move || {
                    crate::request_context::within(request, || pooled_unit(&pool, None, mode, work))
                })
                .await??
            }
        };
        // A read unit's log entries are committed before its records leave.
        self.appender.append(deferred).await?;
        Ok(value)
    }

    /// A read unit of work with no caller (public reads: quotes, calendars).
    pub async fn read<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn) -> Result<T, ApiError> + Send + 'static,
    {
        self.run_in(Mode::Read, work).await
    }

    /// A write unit of work with no caller yet (sign-in, token refresh, the demo).
    pub async fn run<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn) -> Result<T, ApiError> + Send + 'static,
    {
        self.run_in(Mode::Write, work).await
    }

    /// A unit of work in `mode` whose row-level-security settings are `scope`
    /// from its first statement (see [`rls::apply`]). Authenticated requests
    /// go through `api::caller`, which widens the scope step by step instead.
    pub async fn run_scoped<T, F>(
        &self,
        mode: Mode,
        scope: crate::tenancy::DbScope,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn) -> Result<T, ApiError> + Send + 'static,
    {
        self.run_in(mode, move |conn| {
            rls::apply(conn, &scope)?;
            work(conn)
        })
        .await
    }

    /// Refuse to serve through a role that could bypass row-level security.
    pub fn check_runtime_role(&self) -> Result<(), DbError> {
        let mut conn = self
            .pool
            .get()
            .map_err(|e| DbError::Setup(format!("no connection: {e}")))?;
        rls::check_runtime_role(&mut conn).map_err(DbError::Setup)
    }

    /// Readiness: a connection can be had and no migration is pending.
    pub async fn check_ready(&self) -> Result<(), ApiError> {
        if let Target::Sqlite(path) = &self.target
            && !path.is_file()
        {
            // Open connections would keep writing to a deleted file.
            tracing::warn!("readiness check failed: the SQLite database file is missing");
            return Err(ApiError::NotReady("the database file is missing".into()));
        }
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get()?;
            match migrations::pending(&mut conn) {
                Ok(0) => Ok(()),
                Ok(n) => Err(ApiError::NotReady(format!(
                    "{n} database migration(s) have not been applied"
                ))),
                Err(e) => {
                    tracing::warn!(cause = %e, "readiness check failed");
                    Err(ApiError::NotReady("the database cannot be queried".into()))
                }
            }
        })
        .await?
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pool's further connections never create a SQLite file that has
    /// gone (the first connection creates a new one, mode 0600).
    #[test]
    fn a_reconnect_to_a_missing_sqlite_file_fails_and_creates_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("odd name?#%.db");
        let target = Target::Sqlite(path.clone());
        drop(target.connect().unwrap());
        assert!(path.is_file(), "the first connection creates the file");
        drop(
            target
                .reconnect()
                .expect("an existing file reopens by its URI"),
        );
        std::fs::remove_file(&path).unwrap();
        assert!(target.reconnect().is_err(), "a missing file is an error");
        assert!(!path.exists(), "and is not created again");
    }
}

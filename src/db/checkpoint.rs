//! SQLite's WAL checkpoints, on a thread of their own instead of in a writer's turn.
//!
//! Why: SQLite checkpoints by itself in the connection whose `COMMIT` took the
//! write-ahead log past 1,000 pages. In this service that is a write unit still
//! holding its turn at the writers' turnstile (see [`super::Db::run_in`]), so
//! every writer queued behind it waited for the WAL to be copied into the
//! database file and the file synced: 7.5 % of a filing's time in the profile
//! of issue 12, and the tail (p99) of filings and payments at half the peak
//! rate, where one filing in fifty or so waited for a checkpoint.
//!
//! Contract: the pool's SQLite connections turn the automatic checkpoint off
//! (`wal_autocheckpoint = 0`, set by the pool's manager, never on the command
//! line's own connections, which keep SQLite's default), and the pool's
//! [`Writers`] tell this thread of every write unit that ended. The thread runs
//! a `PASSIVE` checkpoint (it never waits for a reader or a writer, and copies
//! what no reader still needs) after [`EVERY`] write units, or once writes
//! stop for [`QUIET`]. The WAL is bounded as before: SQLite restarts it from
//! its start when a writer begins after a complete checkpoint. The thread ends,
//! with a last checkpoint, when the pool's last handle to [`Writers`] is
//! dropped. A checkpoint that fails is logged and tried again at the next one;
//! durability does not depend on it (each commit is in the WAL).

use std::sync::{
    Arc,
    mpsc::{self, RecvTimeoutError},
};
use std::time::Duration;

use diesel::connection::SimpleConnection;

use super::writer::Job;
use super::{DbConn, DbError, Manager, Target};
use crate::error::ApiError;
use crate::turnstile::Turnstile;

/// Write units between two checkpoints. A filing writes some forty pages to
/// the WAL, a batch of the access log's appender a few: 200 units keep the
/// WAL to about 8,000 pages (32 MiB) under filings. Raised from 50: a page
/// written by many units in a row (an index's last leaf) is copied once a
/// checkpoint, and each checkpoint's sync is paid a quarter as often. Under
/// the statement's load each batch of the access log's appender is a unit.
/// Measured (bench/results, 2026-12-06 session 31): the statement's server
/// CPU per request went from 621 / 576 to 529 / 496 µs in two rounds, but
/// four later rounds of the same binary gave 558 to 715 µs, so the gain is
/// not shown beyond the day's spread; filings and payments did not move.
pub const EVERY: u32 = 200;

/// A checkpoint runs once no write unit has ended for this long.
pub const QUIET: Duration = Duration::from_millis(200);

/// The writers of one SQLite pool: their turnstile (one at a time), the one
/// connection they write on, and the checkpointer each tells that it wrote.
///
/// One connection for every write unit, since they pass one at a time anyway:
/// SQLite empties a connection's page cache whenever another connection has
/// changed the file since its last transaction, so with writes spread over
/// the pool's connections a write unit often began on a cold cache. On the one
/// connection that makes every change, the cache survives from one write unit
/// to the next. Measured on filings (bench/results, 2026-12-06): alone this
/// cut the file reads a filing makes only from 61 to 55; with time-ordered
/// ids (`identity::new_id`), whose index pages it keeps warm, to 35. Read
/// units keep the pool.
#[derive(Debug)]
pub struct Writers {
    /// One writer at a time (see [`crate::turnstile`]).
    pub gate: Arc<Turnstile>,
    /// The connection every write unit of the pool uses: a pool of one, so a
    /// connection left broken is replaced as the pool replaces its own.
    pub conn: r2d2::Pool<Manager>,
    wrote: mpsc::Sender<()>,
    /// The queue of the writers' thread (see [`Writers::submit`]).
    jobs: mpsc::Sender<Job>,
}

impl Writers {
    /// The writers of the SQLite database `target` (a file already opened),
    /// with their checkpointer thread started on a connection of its own.
    pub fn start(target: &Target) -> Result<Self, DbError> {
        let conn = target.reconnect()?;
        let (wrote, told) = mpsc::channel();
        std::thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || run(conn, &told))
            .map_err(|e| DbError::Setup(format!("the WAL checkpointer: {e}")))?;
        let writer = r2d2::Pool::builder()
            .max_size(1)
            .min_idle(Some(1))
            .connection_timeout(super::SQLITE_BUSY_TIMEOUT)
            .test_on_check_out(false)
            .build_unchecked(Manager {
                target: target.clone(),
                checkpoints_elsewhere: true,
            });
        let gate = Arc::new(Turnstile::new());
        let shared = super::writer::Shared {
            gate: gate.clone(),
            conn: writer.clone(),
            wrote: wrote.clone(),
        };
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name(super::writer::THREAD.into())
            .spawn(move || super::writer::run(&shared, &queue))
            .map_err(|e| DbError::Setup(format!("the writers' thread: {e}")))?;
        Ok(Self {
            gate,
            conn: writer,
            wrote,
            jobs,
        })
    }

    /// Queue a write unit for the writers' thread (see [`super::writer`]),
    /// which runs the service's write units in the order they came and
    /// commits those that queue up together.
    pub fn submit(&self, job: Job) -> Result<(), ApiError> {
        self.jobs
            .send(job)
            .map_err(|_| ApiError::NotReady("the database's writer has stopped".into()))
    }

    /// A write unit of this pool ended (committed or not).
    pub fn wrote(&self) {
        // The thread is gone only if it panicked: SQLite's own checkpoint on
        // close still runs, so nothing more to do.
        let _ = self.wrote.send(());
    }
}

/// The checkpointer's loop (see the module doc).
fn run(mut conn: DbConn, told: &mpsc::Receiver<()>) {
    let mut pending = 0u32;
    loop {
        let heard = if pending == 0 {
            told.recv().map_err(|_| RecvTimeoutError::Disconnected)
        } else {
            told.recv_timeout(QUIET)
        };
        match heard {
            Ok(()) => {
                pending += 1;
                if pending < EVERY {
                    continue;
                }
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                if pending > 0 {
                    checkpoint(&mut conn);
                }
                return;
            }
        }
        checkpoint(&mut conn);
        pending = 0;
    }
}

fn checkpoint(conn: &mut DbConn) {
    if let DbConn::Sqlite(c) = conn
        && let Err(e) = c.batch_execute("PRAGMA wal_checkpoint(PASSIVE)")
    {
        tracing::warn!(cause = %e, "a WAL checkpoint failed; the next one tries again");
    }
}

#[cfg(test)]
mod tests {
    use diesel::prelude::*;
    use diesel::sql_types::BigInt;

    use crate::config::Secret;
    use crate::db::{Db, DbConn, Mode, Target};

    #[derive(QueryableByName)]
    struct Setting {
        #[diesel(sql_type = BigInt)]
        wal_autocheckpoint: i64,
    }

    fn autocheckpoint(conn: &mut DbConn) -> i64 {
        diesel::sql_query("PRAGMA wal_autocheckpoint")
            .get_result::<Setting>(conn)
            .map(|r| r.wal_autocheckpoint)
            .unwrap()
    }

    #[test]
    fn the_pool_leaves_checkpoints_to_the_thread_and_the_thread_makes_them() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("c.db");
        let url = Secret::new(format!("sqlite://{}", file.display()));
        let db = Db::open(&url, 2).unwrap();

        // The command line's own connection keeps SQLite's default...
        let mut own = Target::parse(&url).unwrap().connect().unwrap();
        assert_eq!(autocheckpoint(&mut own), 1000);
        drop(own);
        // ...the pool's do not checkpoint by themselves.
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let pool_setting = rt
            .block_on(db.run_in(Mode::Read, |conn| Ok(autocheckpoint(conn))))
            .unwrap();
        assert_eq!(pool_setting, 0);

        rt.block_on(db.run_in(Mode::Write, |conn| {
            diesel::sql_query("CREATE TABLE filler (b BLOB)").execute(conn)?;
            Ok(())
        }))
        .unwrap();
        let before = std::fs::metadata(&file).unwrap().len();
        // Twice EVERY write units of 16 pages each: with no checkpoint the
        // database file would keep its size and the WAL would hold it all.
        for _ in 0..2 * super::EVERY {
            rt.block_on(db.run_in(Mode::Write, |conn| {
                diesel::sql_query(
                    "WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 16) \
                     INSERT INTO filler SELECT randomblob(4000) FROM s",
                )
                .execute(conn)?;
                Ok(())
            }))
            .unwrap();
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let grown = 2 * u64::from(super::EVERY) * 16 * 4000;
        while std::fs::metadata(&file).unwrap().len() < before + grown {
            assert!(
                std::time::Instant::now() < deadline,
                "no checkpoint copied the WAL into the database file ({} bytes, was {before})",
                std::fs::metadata(&file).unwrap().len()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }

    fn marks(conn: &mut DbConn) -> QueryResult<i64> {
        diesel::sql_query("SELECT count(*) AS n FROM temp.mark")
            .get_result::<Count>(conn)
            .map(|c| c.n)
    }

    #[test]
    fn every_write_unit_uses_the_writers_connection_and_reads_use_the_pool() {
        let dir = tempfile::tempdir().unwrap();
        let url = Secret::new(format!("sqlite://{}", dir.path().join("w.db").display()));
        let db = Db::open(&url, 3).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        // A temporary table lives on the connection that made it.
        rt.block_on(db.run_in(Mode::Write, |conn| {
            diesel::sql_query("CREATE TEMP TABLE mark (x INTEGER)").execute(conn)?;
            Ok(())
        }))
        .unwrap();
        for n in 1..=5 {
            let seen = rt
                .block_on(db.run_in(Mode::Write, |conn| {
                    diesel::sql_query("INSERT INTO temp.mark VALUES (1)").execute(conn)?;
                    Ok(marks(conn)?)
                }))
                .unwrap();
            assert_eq!(seen, n, "write unit {n} ran on another connection");
        }
        // Read units run on the pool's connections, which never saw it.
        let read = rt
            .block_on(db.run_in(Mode::Read, |conn| Ok(marks(conn).is_err())))
            .unwrap();
        assert!(read, "a read unit ran on the writers' connection");
    }
}

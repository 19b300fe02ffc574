//! The thread that runs the service's SQLite write units, and commits those
//! that queue up together (group commit).
//!
//! Why a thread of their own: SQLite runs one writer at a time, so filings per
//! second are one over the time a write unit holds that turn. When each unit
//! ran on its request's blocking thread, about half of the turn was not the
//! unit's own work: the next writer, woken when the last left, waited to be
//! scheduled on cores busy parsing and answering requests. Here the next unit
//! is already queued when one ends and runs at once, on a warm thread.
//!
//! Why together: a unit's commit writes every page it changed to the WAL, and
//! most of a filing's pages are the last leaves of indexes every filing
//! appends to (ids, dates, the municipality's own accounts) and the database
//! header. Under load the units waiting here run in one transaction, each in
//! a savepoint of its own, and commit once: a page changed by all of them is
//! written once.
//!
//! Contract, as for a unit in a transaction of its own:
//! - a unit is all or nothing: its savepoint is rolled back when its work
//!   fails, and the batch goes on without it;
//! - no unit's answer leaves before the commit that holds its work: a batch
//!   whose commit fails answers every unit in it with that error (none of
//!   their work is stored), so no client is ever told of work that was lost;
//! - units see each other's work in the order they came, as they would one
//!   after another;
//! - a batch ends at the first unit whose work failed (its error might have
//!   ended SQLite's transaction: an I/O error or a full disk does), at a
//!   unit that panicked (its savepoint rolled back; its caller gets a 500),
//!   after [`MOST`] units or [`BUDGET`] of time, or when the queue is empty.

use std::num::NonZeroU32;
use std::sync::{Arc, mpsc};
use std::time::Instant;

use diesel::connection::{AnsiTransactionManager, TransactionManager};

use super::{DbConn, Manager, epochs};
use crate::error::ApiError;
use crate::turnstile::Turnstile;

/// The name of the thread the service's SQLite write units run on.
pub const THREAD: &str = "sqlite-writer";

/// Units committed together at most: the first of a batch waits for the last
/// (about a millisecond each for a filing) before it is answered.
pub const MOST: usize = 16;

/// No unit joins a batch that has run this long: what the first unit of a
/// batch may wait for the others, bounded. With 16 units of a millisecond
/// each, payments at half the peak rate had a p99 of 27 ms.
pub const BUDGET: std::time::Duration = std::time::Duration::from_millis(4);

/// A write unit. Given the batch's connection (inside the batch's
/// transaction), it runs its work in a savepoint and says whether the work
/// succeeded; given `None` (the batch could not begin), it runs nothing. Either
/// way it gives what sends its answer once the batch's outcome is known.
pub type Job = Box<dyn FnOnce(Option<&mut DbConn>) -> (bool, Finish) + Send>;

/// Sends a unit's answer: given `Ok` when the batch committed, else the error
/// that ended the batch (the unit's own error, if its work failed, stands).
pub type Finish = Box<dyn FnOnce(Result<(), ApiError>) + Send>;

/// What the writers' thread shares with the rest of the pool.
pub struct Shared {
    /// One writer at a time (the access log's appender takes a turn too).
    pub gate: Arc<Turnstile>,
    /// The writers' one connection.
    pub conn: r2d2::Pool<Manager>,
    /// Told of every unit that ended (the checkpointer counts them).
    pub wrote: mpsc::Sender<()>,
}

/// The thread's loop: a batch of what is queued, until the queue is closed.
pub fn run(shared: &Shared, queue: &mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        batch(shared, first, queue);
    }
}

/// Run `first` and what queues behind it in one transaction, then answer them.
fn batch(shared: &Shared, first: Job, queue: &mpsc::Receiver<Job>) {
    let Some(turn) = shared.gate.enter(1, Some(super::SQLITE_BUSY_TIMEOUT)) else {
        return refuse(
            first,
            ApiError::NotReady("the database is busy; try again".into()),
        );
    };
    let mut conn = match shared.conn.get() {
        Ok(conn) => conn,
        Err(e) => return refuse(first, e.into()),
    };
    let before = epochs::snapshot();
    let began = match &mut conn.conn {
        DbConn::Sqlite(c) => AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE"),
        DbConn::Pg(_) => Err(diesel::result::Error::BrokenTransactionManager),
    };
    if let Err(e) = began {
        return refuse(first, e.into());
    }
    let started = Instant::now();
    let mut finishes = Vec::new();
    let mut intact = true;
    let mut next = Some(first);
    while let Some(job) = next.take() {
        let ran =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(Some(&mut conn.conn))));
        let go_on = match ran {
            Ok((succeeded, finish)) => {
                finishes.push(finish);
                succeeded
            }
            // The unit's answer went with its unwinding (its caller gets a
            // 500); its savepoint, if still open, is rolled back.
            Err(_) => {
                // The unit's memo (`db::unit`) is dropped with it.
                super::unit::close(None);
                intact = roll_back_open_savepoint(&mut conn.conn);
                false
            }
        };
        if go_on && finishes.len() < MOST && started.elapsed() < BUDGET {
            next = queue.try_recv().ok();
        }
    }
    let committed = if intact {
        <DbConn as TransactionManager<DbConn>>::commit_transaction(&mut conn.conn)
            .map_err(ApiError::from)
    } else {
        Err(ApiError::internal(
            "a unit of work panicked and its savepoint could not be rolled back",
        ))
    };
    if committed.is_err()
        && let Err(rollback) =
            <DbConn as TransactionManager<DbConn>>::rollback_transaction(&mut conn.conn)
    {
        tracing::warn!(cause = %rollback, "rollback after a failed group commit failed");
    }
    epochs::settle(before);
    conn.proven_at = committed.is_ok().then(Instant::now);
    drop(conn);
    drop(turn);
    let failure = committed.err().map(|e| e.to_string());
    for finish in finishes {
        let _ = shared.wrote.send(());
        finish(match &failure {
            None => Ok(()),
            Some(m) => Err(ApiError::internal(format!("the unit's commit failed: {m}"))),
        });
    }
}

/// After a unit panicked: roll back its savepoint if it was left open. `true`
/// when the batch's transaction is as the unit found it.
fn roll_back_open_savepoint(conn: &mut DbConn) -> bool {
    let depth = <DbConn as TransactionManager<DbConn>>::transaction_manager_status_mut(conn)
        .transaction_depth();
    match depth.ok().flatten().map(NonZeroU32::get) {
        Some(1) => true,
        Some(2) => <DbConn as TransactionManager<DbConn>>::rollback_transaction(conn).is_ok(),
        _ => false,
    }
}

/// Answer `job` with `error` without running it.
fn refuse(job: Job, error: ApiError) {
    let (_, finish) = job(None);
    finish(Err(error));
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use diesel::prelude::*;
    use diesel::sql_types::BigInt;

    use super::THREAD;
    use crate::config::Secret;
    use crate::db::{Db, DbConn, Mode};
    use crate::error::ApiError;

    #[derive(QueryableByName)]
    struct Seen {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }

    fn seen(rt: &tokio::runtime::Runtime, db: &Db) -> Vec<i64> {
        rt.block_on(db.run_in(Mode::Read, |conn| {
            Ok(diesel::sql_query("SELECT n FROM seen ORDER BY rowid").load::<Seen>(conn)?)
        }))
        .unwrap()
        .into_iter()
        .map(|s| s.n)
        .collect()
    }

    fn insert(conn: &mut DbConn, sql: &str) -> Result<(), ApiError> {
        diesel::sql_query(sql).execute(conn)?;
        Ok(())
    }

    /// Three units queued while the writers' turn is held, so that the
    /// writers' thread finds them together; their outcomes.
    fn queued_together<A, B, C>(
        rt: &tokio::runtime::Runtime,
        db: &Db,
        a: A,
        b: B,
        c: C,
    ) -> [Result<(), ApiError>; 3]
    where
        A: FnOnce(&mut DbConn) -> Result<(), ApiError> + Send + 'static,
        B: FnOnce(&mut DbConn) -> Result<(), ApiError> + Send + 'static,
        C: FnOnce(&mut DbConn) -> Result<(), ApiError> + Send + 'static,
    {
        let gate = db
            .writers
            .as_ref()
            .expect("SQLite has writers")
            .gate
            .clone();
        std::thread::scope(|s| {
            let turn = gate.enter(1, None).expect("no patience limit");
            s.spawn(move || {
                std::thread::sleep(Duration::from_millis(200));
                drop(turn);
            });
            let (a, b, c) = rt.block_on(async {
                tokio::join!(
                    db.run_in(Mode::Write, a),
                    db.run_in(Mode::Write, b),
                    db.run_in(Mode::Write, c)
                )
            });
            [a, b, c]
        })
    }

    /// A fresh SQLite database with the table `seen`, and a runtime to call it.
    fn fresh(dir: &tempfile::TempDir) -> (Db, tokio::runtime::Runtime) {
        let url = Secret::new(format!("sqlite://{}", dir.path().join("w.db").display()));
        let db = Db::open(&url, 2).unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        rt.block_on(db.run_in(Mode::Write, |conn| {
            insert(conn, "CREATE TABLE seen (n INTEGER NOT NULL)")
        }))
        .unwrap();
        (db, rt)
    }

    fn thread_name(rt: &tokio::runtime::Runtime, db: &Db, mode: Mode) -> Option<String> {
        rt.block_on(db.run_in(mode, |_| {
            Ok(std::thread::current().name().map(str::to_owned))
        }))
        .unwrap()
    }

    #[test]
    fn write_units_run_on_the_writers_thread_in_order_and_outlive_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let (db, rt) = fresh(&dir);
        assert_eq!(thread_name(&rt, &db, Mode::Write).as_deref(), Some(THREAD));
        // Reads stay on the blocking pool.
        assert_ne!(thread_name(&rt, &db, Mode::Read).as_deref(), Some(THREAD));

        // A unit that panics is a 500 for its caller, and rolled back...
        let panicked = rt.block_on(db.run_in(Mode::Write, |conn| -> Result<(), _> {
            insert(conn, "INSERT INTO seen VALUES (0)")?;
            panic!("a unit that panics")
        }));
        assert!(panicked.is_err());
        // ...and the units queued after it run, in the order they came (the
        // five are queued before the first has run: `join!` polls each once,
        // in turn, on this one thread).
        let unit = |n: i64| {
            db.run_in(Mode::Write, move |conn| {
                insert(conn, &format!("INSERT INTO seen VALUES ({n})"))
            })
        };
        let (a, b, c, d, e) =
            rt.block_on(async { tokio::join!(unit(1), unit(2), unit(3), unit(4), unit(5)) });
        for outcome in [a, b, c, d, e] {
            outcome.unwrap();
        }
        assert_eq!(seen(&rt, &db), [1, 2, 3, 4, 5]);
    }

    #[test]
    fn units_queued_together_are_each_all_or_nothing_and_answered_after_the_commit() {
        let dir = tempfile::tempdir().unwrap();
        let (db, rt) = fresh(&dir);
        rt.block_on(db.run_in(Mode::Write, |conn| {
            insert(conn, "CREATE TABLE parent (id INTEGER PRIMARY KEY)")?;
            insert(
                conn,
                "CREATE TABLE child (parent INTEGER NOT NULL \
                 REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)",
            )
        }))
        .unwrap();

        // A unit whose work fails is rolled back alone.
        let [a, b, c] = queued_together(
            &rt,
            &db,
            |conn| insert(conn, "INSERT INTO seen VALUES (1)"),
            |conn| {
                insert(conn, "INSERT INTO seen VALUES (2)")?;
                Err(ApiError::internal("the second unit fails"))
            },
            |conn| insert(conn, "INSERT INTO seen VALUES (3)"),
        );
        assert!(a.is_ok() && b.is_err() && c.is_ok());
        assert_eq!(seen(&rt, &db), [1, 3]);

        // A commit that fails (a deferred foreign key, checked only at the
        // commit) fails every unit of its batch: none is told its work was
        // stored, and none of it is.
        let [a, b, c] = queued_together(
            &rt,
            &db,
            |conn| insert(conn, "INSERT INTO seen VALUES (4)"),
            |conn| insert(conn, "INSERT INTO child VALUES (99)"),
            |conn| insert(conn, "INSERT INTO seen VALUES (5)"),
        );
        assert!(
            a.is_err() && b.is_err() && c.is_err(),
            "every unit of the failed batch is answered with its error"
        );
        assert_eq!(seen(&rt, &db), [1, 3]);

        // A unit that panics is a 500 for its caller; the units beside it
        // are stored, and the writers' thread goes on.
        let [a, b, c] = queued_together(
            &rt,
            &db,
            |conn| insert(conn, "INSERT INTO seen VALUES (6)"),
            |conn| {
                insert(conn, "INSERT INTO seen VALUES (7)")?;
                panic!("a unit that panics")
            },
            |conn| insert(conn, "INSERT INTO seen VALUES (8)"),
        );
        assert!(a.is_ok() && b.is_err() && c.is_ok());
        assert_eq!(seen(&rt, &db), [1, 3, 6, 8]);
    }
}

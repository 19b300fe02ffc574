//! The access log's appender: the entries of read units, committed many
//! requests at a time.
//!
//! Why: every read of a confidential record is logged (DESIGN §1), and the
//! log's insert made each such read a write unit. On SQLite, write units run
//! one at a time, so a statement of account or a payor read queued behind
//! every filing and payment for the one writer's lock (measured: the
//! statement at 1 to 1.6 % of `/healthz`, bench/results/README.md). Now those
//! reads are read units, side by side (WAL); their entries come here.
//!
//! How: one thread per pool takes the jobs that are waiting (up to
//! [`MOST_AT_ONCE`]), inserts all their entries in one write unit (on SQLite
//! after its turn at the writers' turnstile, like any write unit), and
//! answers each job. While it writes, the next jobs gather, so the busier
//! the service, the more entries share a commit (group commit); an idle
//! service writes each alone, at once. When a shared transaction fails, each
//! job is written again alone, so one job's fault is its own.
//!
//! Guarantee: a job is answered `Ok` only once its entries are committed,
//! and the request that read the record answers with it only then
//! (`Db::run_in`); a process killed before that commit sent no record
//! unlogged. The thread ends when the last handle on the pool is dropped.

use std::sync::{Arc, mpsc};

use super::append_all;
use crate::{
    db::checkpoint::Writers,
    db::{Manager, Mode, models::AccessLogRow, pooled_unit},
    error::ApiError,
};

/// Jobs one transaction takes at most.
pub const MOST_AT_ONCE: usize = 256;

/// One request's entries and where to send the outcome.
struct Job {
    entries: Vec<AccessLogRow>,
    done: tokio::sync::oneshot::Sender<Result<(), ApiError>>,
}

/// A handle to the appender thread of one pool.
#[derive(Debug)]
pub struct Appender {
    jobs: mpsc::Sender<Job>,
}

/// What the thread writes with.
pub(crate) struct Sink {
    /// The pool the service's units use.
    pub pool: r2d2::Pool<Manager>,
    /// SQLite: the pool's writers (`None` on PostgreSQL).
    pub writers: Option<Arc<Writers>>,
}

impl Appender {
    /// Start the thread that appends for `sink`.
    pub(crate) fn start(sink: Sink) -> std::io::Result<Self> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("access-log".into())
            .spawn(move || run(&sink, &queue))?;
        Ok(Self { jobs })
    }

    /// Append `entries` and wait until they are committed.
    pub async fn append(&self, entries: Vec<AccessLogRow>) -> Result<(), ApiError> {
        if entries.is_empty() {
            return Ok(());
        }
        let (done, outcome) = tokio::sync::oneshot::channel();
        if self.jobs.send(Job { entries, done }).is_err() {
            return Err(ApiError::internal("the access log's appender has stopped"));
        }
        outcome
            .await
            .map_err(|_| ApiError::internal("the access log's appender dropped a job"))?
    }
}

fn run(sink: &Sink, queue: &mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut jobs = vec![first];
        while jobs.len() < MOST_AT_ONCE {
            match queue.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        if jobs.len() > 1 {
            if write(sink, jobs.iter().flat_map(|job| &job.entries)).is_ok() {
                for job in jobs {
                    let _ = job.done.send(Ok(()));
                }
                continue;
            }
            tracing::warn!(
                jobs = jobs.len(),
                "a shared access-log write failed; writing each request's entries alone"
            );
        }
        for job in jobs {
            let outcome = write(sink, &job.entries);
            if let Err(err) = &outcome {
                tracing::warn!(cause = %err, "an access-log write failed; its read is refused");
            }
            // The request may have gone (its client closed): nothing to tell.
            let _ = job.done.send(outcome);
        }
    }
}

/// One write unit that appends `entries`.
fn write<'a>(
    sink: &Sink,
    entries: impl IntoIterator<Item = &'a AccessLogRow>,
) -> Result<(), ApiError> {
    pooled_unit(&sink.pool, sink.writers.as_deref(), Mode::Write, |conn| {
        append_all(conn, entries)?;
        Ok(())
    })
    .map(drop)
}

#[cfg(test)]
mod tests {
    use diesel::prelude::*;

    use crate::{
        config::Secret,
        db::{self, Db, DbConn, Mode, access_log, schema},
        error::ApiError,
    };

    fn reader() -> access_log::Reader<'static> {
        access_log::Reader {
            actor_kind: "user",
            actor_id: "u1",
            basis: "clerk_treasurer",
            request_id: "r1",
        }
    }

    /// A read unit that logs one read of `record`.
    fn logged_read(record: String) -> impl FnOnce(&mut DbConn) -> Result<String, ApiError> {
        move |conn| {
            access_log::record(conn, 1, &reader(), "payor", &record)?;
            // Nothing is inserted yet: the unit is read-only.
            let here: i64 = schema::access_log::table
                .filter(schema::access_log::record_id.eq(&record))
                .count()
                .get_result(conn)?;
            assert_eq!(here, 0, "deferred, not inserted in the read unit");
            Ok(record)
        }
    }

    fn logged(conn: &mut DbConn) -> Vec<String> {
        schema::access_log::table
            .select(schema::access_log::record_id)
            .order(schema::access_log::record_id.asc())
            .load(conn)
            .unwrap()
    }

    fn open(dir: &tempfile::TempDir, migrate: bool) -> (Db, DbConn) {
        let url = Secret::new(format!("sqlite://{}", dir.path().join("t.db").display()));
        let db = Db::open(&url, 4).unwrap();
        let mut conn = db::Target::parse(&url).unwrap().connect().unwrap();
        if migrate {
            db::migrations::run(&mut conn).unwrap();
            diesel::sql_query(
                "INSERT INTO municipalities (id, slug, name, kind, county) \
                 VALUES (1, 'here', 'Here', 'city', 'Marquette')",
            )
            .execute(&mut conn)
            .unwrap();
        }
        (db, conn)
    }

    /// Many reads at once: every one answered, each logged exactly once,
    /// and committed by the time it answers.
    #[tokio::test]
    async fn every_read_is_logged_once_before_it_answers() {
        let dir = tempfile::tempdir().unwrap();
        let (db, mut conn) = open(&dir, true);
        let reads = (0..64).map(|i| {
            let db = db.clone();
            async move {
                let record = format!("p{i:02}");
                let got = db.run_in(Mode::Read, logged_read(record.clone())).await;
                assert_eq!(got.unwrap(), record);
            }
        });
        futures_util::future::join_all(reads).await;
        let expected: Vec<String> = (0..64).map(|i| format!("p{i:02}")).collect();
        assert_eq!(logged(&mut conn), expected);
    }

    /// Jobs queued together share one transaction; when it fails, each is
    /// written alone, so only the faulty job is refused.
    #[test]
    fn one_jobs_fault_is_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let (db, mut conn) = open(&dir, true);
        // The entries a read unit would defer.
        let mut entry = |municipality_id: i64, record: &str| {
            let outer = crate::db::unit::open(true);
            access_log::record(&mut conn, municipality_id, &reader(), "payor", record).unwrap();
            crate::db::unit::close(outer)
        };
        let (jobs, queue) = std::sync::mpsc::channel();
        let mut outcomes = Vec::new();
        // Municipality 2 does not exist: its entry breaks the foreign key.
        for (tenant, record) in [(1, "a"), (2, "bad"), (1, "c")] {
            let (done, outcome) = tokio::sync::oneshot::channel();
            jobs.send(super::Job {
                entries: entry(tenant, record),
                done,
            })
            .unwrap();
            outcomes.push(outcome);
        }
        drop(jobs);
        let sink = super::Sink {
            pool: db.pool.clone(),
            writers: None,
        };
        super::run(&sink, &queue);
        let outcomes: Vec<bool> = outcomes
            .into_iter()
            .map(|mut o| o.try_recv().unwrap().is_ok())
            .collect();
        assert_eq!(outcomes, [true, false, true]);
        assert_eq!(logged(&mut conn), ["a", "c"]);
    }

    /// A read whose entry cannot be written answers with an error, not the
    /// record (here the log's table does not exist).
    #[tokio::test]
    async fn a_read_that_cannot_be_logged_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (db, mut conn) = open(&dir, false);
        diesel::sql_query("CREATE TABLE probe (x INTEGER)")
            .execute(&mut conn)
            .unwrap();
        let got = db
            .run_in(Mode::Read, |conn| {
                access_log::record(conn, 1, &reader(), "payor", "p1")?;
                diesel::sql_query("SELECT x FROM probe").execute(conn)?;
                Ok("the record")
            })
            .await;
        assert!(got.is_err(), "answered {got:?}");
    }

    /// Outside the service's pool (the command line), a read unit's entries
    /// are inserted on the same connection once it commits; a failed read
    /// logs nothing.
    #[test]
    fn the_command_line_appends_a_read_units_entries_itself() {
        let dir = tempfile::tempdir().unwrap();
        let (_db, mut conn) = open(&dir, true);
        let got = db::in_transaction_in(&mut conn, Mode::Read, logged_read("p1".into()));
        assert_eq!(got.unwrap(), "p1");
        let failed: Result<(), ApiError> = db::in_transaction_in(&mut conn, Mode::Read, |conn| {
            access_log::record(conn, 1, &reader(), "payor", "p2")?;
            Err(ApiError::NotFound("payor"))
        });
        assert!(failed.is_err());
        assert_eq!(logged(&mut conn), ["p1"]);
    }
}

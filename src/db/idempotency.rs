//! `Idempotency-Key` claims (tenant-scoped, per caller): hold, claim, take
//! over, complete, look up, expire.
//!
//! Contract: a claim is inserted `in_progress` and marked `done` with the
//! response in the request's one unit of work, so a stored response always
//! describes committed work and work that fails takes its claim with it; a
//! concurrent request with the key is told apart by [`hold`] (PostgreSQL's
//! advisory lock; SQLite runs one writer at a time). Rows `in_progress`
//! committed by versions before 2026-12-03 (which claimed in a unit of its
//! own) are taken over after the lease. A claim is named by its
//! key and the instant it was made ([`Claim`]): completing or
//! taking over a claim is a conditional statement on that instant and on the
//! state `in_progress`, so a request whose abandoned claim was taken over by
//! another one changes nothing (it learns so from the `false` answer). Rows
//! older than the retention (24 hours) are removed when keys are claimed
//! (`usecases::idempotency::begin` says when).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{DbConn, schema::idempotency_keys as k};
use crate::db::native::{Native as _, Reused};

/// A stored key.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = k)]
pub struct KeyRow {
    pub municipality_id: i64,
    pub actor: String,
    pub idem_key: String,
    pub fingerprint: String,
    pub state: String,
    pub response_status: Option<i32>,
    pub response_location: Option<String>,
    pub response_body: Option<String>,
    pub created_at: NaiveDateTime,
    pub response_etag: Option<String>,
}

/// A claim this request holds: the key, the request's fingerprint, and the
/// instant the claim was made (microseconds, as both backends store it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub municipality_id: i64,
    pub actor: String,
    pub idem_key: String,
    pub fingerprint: String,
    pub claimed_at: NaiveDateTime,
}

/// The response stored for a finished request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResponse {
    pub status: i32,
    pub location: Option<String>,
    pub etag: Option<String>,
    pub body: String,
}

/// The key `(municipality, actor, key)`, if stored.
pub fn get(
    conn: &mut DbConn,
    municipality_id: i64,
    actor: &str,
    key: &str,
) -> QueryResult<Option<KeyRow>> {
    k::table
        .filter(k::municipality_id.eq(municipality_id))
        .filter(k::actor.eq(actor))
        .filter(k::idem_key.eq(key))
        .get_native(conn)
        .optional()
}

/// Hold `(municipality, actor, key)` for the rest of this unit of work
/// without waiting: `false` when another open unit holds it (a request with
/// the key is still running). PostgreSQL: a transaction-scoped advisory lock
/// (class `26980`, "id" in ASCII; the second key the first four bytes of a
/// SHA-256 of the three, so two keys share a lock about once in four billion
/// pairs, and then one request gets a 409 its retry gets past). SQLite:
/// always `true`, its write units run one at a time.
pub fn hold(conn: &mut DbConn, municipality_id: i64, actor: &str, key: &str) -> QueryResult<bool> {
    #[derive(QueryableByName)]
    struct Held {
        #[diesel(sql_type = diesel::sql_types::Bool)]
        held: bool,
    }
    match conn {
        DbConn::Sqlite(_) => Ok(true),
        DbConn::Pg(pg) => {
            let mut input = Vec::new();
            for part in [
                municipality_id.to_string().as_bytes(),
                actor.as_bytes(),
                key.as_bytes(),
            ] {
                input.extend_from_slice(&(part.len() as u64).to_be_bytes());
                input.extend_from_slice(part);
            }
            let digest = <sha2::Sha256 as sha2::Digest>::digest(&input);
            let lock = i32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]);
            Reused(
                diesel::sql_query("SELECT pg_try_advisory_xact_lock(26980, $1) AS held")
                    .bind::<diesel::sql_types::Integer, _>(lock),
            )
            .get_result::<Held>(pg)
            .map(|h| h.held)
        }
    }
}

/// Insert a claim (`in_progress`) unless the key is stored: `false` when it
/// is (another request's, finished or not). On PostgreSQL an insert of the
/// same key by a transaction still open waits for it to end.
pub fn claim_new(conn: &mut DbConn, claim: &Claim) -> QueryResult<bool> {
    let row = KeyRow {
        municipality_id: claim.municipality_id,
        actor: claim.actor.clone(),
        idem_key: claim.idem_key.clone(),
        fingerprint: claim.fingerprint.clone(),
        state: "in_progress".into(),
        response_status: None,
        response_location: None,
        response_body: None,
        created_at: claim.claimed_at,
        response_etag: None,
    };
    Reused(
        diesel::insert_into(k::table)
            .values(row)
            .on_conflict_do_nothing()
            .returning(k::state),
    )
    .load_native::<String>(conn)
    .map(|inserted| inserted.len() == 1)
}

/// The rows of `claim`'s key still `in_progress` since `since`.
macro_rules! in_progress_since {
    ($claim:expr, $since:expr) => {
        k::table
            .filter(k::municipality_id.eq($claim.municipality_id))
            .filter(k::actor.eq(&$claim.actor))
            .filter(k::idem_key.eq(&$claim.idem_key))
            .filter(k::state.eq("in_progress"))
            .filter(k::created_at.eq($since))
    };
}

/// Take over an abandoned claim made at `abandoned_at`: the key becomes
/// `claim` (its fingerprint and instant). `false` when the row changed
/// meanwhile (another request completed or took it over).
pub fn take_over(
    conn: &mut DbConn,
    claim: &Claim,
    abandoned_at: NaiveDateTime,
) -> QueryResult<bool> {
    Reused(
        diesel::update(in_progress_since!(claim, abandoned_at))
            .set((
                k::fingerprint.eq(&claim.fingerprint),
                k::created_at.eq(claim.claimed_at),
            ))
            .returning(k::state),
    )
    .load_native::<String>(conn)
    .map(|rows| rows.len() == 1)
}

/// Store the response of `claim` (`done`). `false` when the claim is no
/// longer this request's (taken over after its lease ran out).
pub fn complete(conn: &mut DbConn, claim: &Claim, response: &StoredResponse) -> QueryResult<bool> {
    Reused(
        diesel::update(
            in_progress_since!(claim, claim.claimed_at)
                .filter(k::fingerprint.eq(&claim.fingerprint)),
        )
        .set((
            k::state.eq("done"),
            k::response_status.eq(Some(response.status)),
            k::response_location.eq(response.location.as_deref()),
            k::response_etag.eq(response.etag.as_deref()),
            k::response_body.eq(Some(&response.body)),
        ))
        .returning(k::state),
    )
    .load_native::<String>(conn)
    .map(|rows| rows.len() == 1)
}

/// Remove this tenant's keys created before `before` (past retention).
pub fn expire(
    conn: &mut DbConn,
    municipality_id: i64,
    before: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::delete(
        k::table
            .filter(k::municipality_id.eq(municipality_id))
            .filter(k::created_at.lt(before)),
    )
    .execute_native(conn)
}

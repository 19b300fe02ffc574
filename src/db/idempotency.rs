//! `Idempotency-Key` claims (tenant-scoped, per caller): claim, complete,
//! release, look up.
//!
//! Contract: a claim is inserted `in_progress` in its own short transaction,
//! so that a concurrent retry sees it; the request's unit of work then marks
//! it `done` with the response, in the same transaction as the work, so a
//! stored response always describes committed work. A request whose work
//! fails releases its claim (a retry may try again). Rows older than the
//! retention (24 hours) are removed when a key is claimed.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{DbConn, schema::idempotency_keys as k};

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
        .first(conn)
        .optional()
}

/// Insert a claim (`in_progress`).
pub fn claim(conn: &mut DbConn, row: &KeyRow) -> QueryResult<()> {
    diesel::insert_into(k::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

/// Store the response of a claimed key (`done`).
pub fn complete(
    conn: &mut DbConn,
    municipality_id: i64,
    actor: &str,
    key: &str,
    status: i32,
    location: Option<&str>,
    body: &str,
) -> QueryResult<()> {
    diesel::update(
        k::table
            .filter(k::municipality_id.eq(municipality_id))
            .filter(k::actor.eq(actor))
            .filter(k::idem_key.eq(key)),
    )
    .set((
        k::state.eq("done"),
        k::response_status.eq(Some(status)),
        k::response_location.eq(location),
        k::response_body.eq(Some(body)),
    ))
    .execute(conn)
    .map(|_| ())
}

/// Remove a claim still in progress (its work failed).
pub fn release(conn: &mut DbConn, municipality_id: i64, actor: &str, key: &str) -> QueryResult<()> {
    diesel::delete(
        k::table
            .filter(k::municipality_id.eq(municipality_id))
            .filter(k::actor.eq(actor))
            .filter(k::idem_key.eq(key))
            .filter(k::state.eq("in_progress")),
    )
    .execute(conn)
    .map(|_| ())
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
    .execute(conn)
}

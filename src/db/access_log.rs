//! The append-only access log: every read of a confidential record.
//!
//! Contract: [`record`] is called in the same transaction as the read it logs
//! (so a logged read and the read itself commit together); entries are never
//! updated or deleted (triggers refuse it on both backends). Entries name the
//! record by type and id only, never a confidential value.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{DbConn, identity, models::AccessLogRow, schema::access_log};

/// Who read, on what basis, and which request.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    /// `user` or `client`.
    pub actor_kind: &'a str,
    /// The user or client id.
    pub actor_id: &'a str,
    /// The role, `disclosure:<grant id>` or `api_client`.
    pub basis: &'a str,
    /// The request id.
    pub request_id: &'a str,
}

/// Append one entry for a read.
pub fn record(
    conn: &mut DbConn,
    municipality_id: i64,
    reader: &Reader<'_>,
    record_type: &str,
    record_id: &str,
) -> QueryResult<()> {
    append(
        conn,
        municipality_id,
        reader,
        record_type,
        record_id,
        "read",
    )
}

/// Append one entry for a write (`create`, `update`, `close`): the response to a
/// write shows the whole record too, and the clerk-treasurer sees who changed it.
pub fn record_write(
    conn: &mut DbConn,
    municipality_id: i64,
    writer: &Reader<'_>,
    record_type: &str,
    record_id: &str,
    action: &str,
) -> QueryResult<()> {
    append(
        conn,
        municipality_id,
        writer,
        record_type,
        record_id,
        action,
    )
}

fn append(
    conn: &mut DbConn,
    municipality_id: i64,
    reader: &Reader<'_>,
    record_type: &str,
    record_id: &str,
    action: &str,
) -> QueryResult<()> {
    super::insert_row(
        conn,
        access_log::table,
        &AccessLogRow {
            municipality_id,
            id: identity::new_id(),
            at: identity::now(),
            actor_kind: reader.actor_kind.to_owned(),
            actor_id: reader.actor_id.to_owned(),
            basis: reader.basis.to_owned(),
            record_type: record_type.to_owned(),
            record_id: record_id.to_owned(),
            action: action.to_owned(),
            request_id: reader.request_id.to_owned(),
        },
    )
}

/// Filters for reviewing the log.
#[derive(Debug, Clone, Default)]
pub struct LogQuery {
    /// Only this record id.
    pub record_id: Option<String>,
    /// Only this actor.
    pub actor_id: Option<String>,
    /// Entries at or after.
    pub since: Option<NaiveDateTime>,
    /// Entries strictly after this `(at, id)` in newest-first order (the
    /// cursor: the last entry seen; the id breaks ties between equal instants).
    pub before: Option<(NaiveDateTime, String)>,
    /// Page size.
    pub limit: i64,
}

/// Entries of the tenant, newest first.
pub fn list(
    conn: &mut DbConn,
    municipality_id: i64,
    q: &LogQuery,
) -> QueryResult<Vec<AccessLogRow>> {
    let mut query = access_log::table
        .filter(access_log::municipality_id.eq(municipality_id))
        .order((access_log::at.desc(), access_log::id.desc()))
        .limit(q.limit)
        .into_boxed();
    if let Some(r) = &q.record_id {
        query = query.filter(access_log::record_id.eq(r.clone()));
    }
    if let Some(a) = &q.actor_id {
        query = query.filter(access_log::actor_id.eq(a.clone()));
    }
    if let Some(s) = q.since {
        query = query.filter(access_log::at.ge(s));
    }
    if let Some((at, id)) = q.before.clone() {
        query = query.filter(
            access_log::at
                .lt(at)
                .or(access_log::at.eq(at).and(access_log::id.lt(id))),
        );
    }
    query.load(conn)
}

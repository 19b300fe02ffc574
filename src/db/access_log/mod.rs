//! The append-only access log: every read of a confidential record.
//!
//! Contract: in a write unit, [`record`] inserts its entry in the same
//! transaction as the read it logs (so a logged read and the read itself
//! commit together). A read unit may not write: its entries are kept until
//! the unit has ended well and then appended, with those of other requests,
//! by the [`appender`] (one transaction for many entries), and the request
//! answers only once they are committed; a read whose entry could not be
//! written is answered with an error, never with the record. Entries are never
//! updated or deleted (triggers refuse it on both backends). Entries name the
//! record by type and id only, never a confidential value.

pub mod appender;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{DbConn, identity, models::AccessLogRow, rls, schema::access_log, unit};
use crate::tenancy::{DbScope, Tenant};

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
    let entry = AccessLogRow {
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
    };
    match unit::defer_log(entry) {
        None => Ok(()),
        Some(entry) => super::insert_row(conn, access_log::table, &entry),
    }
}

/// Entries one `INSERT` carries at most (10 columns each: well under
/// SQLite's 32,766 and PostgreSQL's 65,535 bound parameters).
const ROWS_PER_INSERT: usize = 500;

/// Insert `entries` (of any tenants) in the transaction open on `conn`: for
/// each municipality in turn, row-level security set to it (PostgreSQL), then
/// its entries in multi-row `INSERT`s.
pub fn append_all<'a>(
    conn: &mut DbConn,
    entries: impl IntoIterator<Item = &'a AccessLogRow>,
) -> QueryResult<()> {
    let mut sorted: Vec<&AccessLogRow> = entries.into_iter().collect();
    sorted.sort_by_key(|e| e.municipality_id);
    for tenant in sorted.chunk_by(|a, b| a.municipality_id == b.municipality_id) {
        let scope = DbScope::tenant(Tenant::Municipality(tenant[0].municipality_id));
        rls::apply(conn, &scope)?;
        for rows in tenant.chunks(ROWS_PER_INSERT) {
            super::insert_rows(conn, access_log::table, rows.to_vec())?;
        }
    }
    Ok(())
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

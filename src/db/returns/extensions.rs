//! Extension requests and decisions (the only mutable rows of returns: a
//! request is decided once, guarded by its `requested` status).

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::rows::ExtensionRow;
use crate::db::native::Native as _;
use crate::db::{DbConn, schema::return_extensions as e};

/// Insert a request.
pub fn insert(conn: &mut DbConn, row: &ExtensionRow) -> QueryResult<()> {
    crate::db::insert_row(conn, e::table, row)
}

/// One extension by id.
pub fn get(conn: &mut DbConn, municipality_id: i64, id: &str) -> QueryResult<Option<ExtensionRow>> {
    e::table
        .filter(e::municipality_id.eq(municipality_id))
        .filter(e::id.eq(id))
        .get_native(conn)
        .optional()
}

/// Every payor's extensions for one period (for the municipality's view of it).
pub fn of_period(
    conn: &mut DbConn,
    municipality_id: i64,
    period: &str,
) -> QueryResult<Vec<ExtensionRow>> {
    e::table
        .filter(e::municipality_id.eq(municipality_id))
        .filter(e::period.eq(period))
        .load_native(conn)
}

crate::db::payor_of! {
    /// Every extension of one payor (all periods), newest first.
    e => ExtensionRow,
    order: (e::requested_at.desc(), e::id.desc())
}

/// Every extension request still waiting for a decision, oldest first.
pub fn pending(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<ExtensionRow>> {
    e::table
        .filter(e::municipality_id.eq(municipality_id))
        .filter(e::status.eq("requested"))
        .order((e::requested_at.asc(), e::id.asc()))
        .load_native(conn)
}

/// Which extensions a list shows: newest first, before the keyset position.
#[derive(Debug, Default)]
pub struct ExtensionQuery {
    /// Only this payor's.
    pub payor_id: Option<String>,
    /// Only those with this status (`requested`, `granted`, `refused`).
    pub status: Option<String>,
    /// After the previous page: `(requested_at, id)` of its last item.
    pub before: Option<(NaiveDateTime, String)>,
    /// Page size.
    pub limit: i64,
}

/// A page of the municipality's extensions, newest request first.
pub fn list(
    conn: &mut DbConn,
    municipality_id: i64,
    q: &ExtensionQuery,
) -> QueryResult<Vec<ExtensionRow>> {
    let mut query = e::table
        .filter(e::municipality_id.eq(municipality_id))
        .order((e::requested_at.desc(), e::id.desc()))
        .limit(q.limit)
        .into_boxed();
    if let Some(p) = &q.payor_id {
        query = query.filter(e::payor_id.eq(p.clone()));
    }
    if let Some(s) = &q.status {
        query = query.filter(e::status.eq(s.clone()));
    }
    if let Some((at, id)) = q.before.clone() {
        query = query.filter(
            e::requested_at
                .lt(at)
                .or(e::requested_at.eq(at).and(e::id.lt(id))),
        );
    }
    query.load(conn)
}

/// What a decision records.
pub struct Decision<'a> {
    pub status: &'a str,
    pub extended_to: Option<NaiveDate>,
    /// The refusal's reason, or the grant's note (optional).
    pub reason: Option<&'a str>,
    pub decided_by: &'a str,
    pub decided_at: NaiveDateTime,
}

/// Decide a request still `requested`; false when it was already decided.
pub fn decide(
    conn: &mut DbConn,
    municipality_id: i64,
    id: &str,
    d: &Decision<'_>,
) -> QueryResult<bool> {
    diesel::update(
        e::table
            .filter(e::municipality_id.eq(municipality_id))
            .filter(e::id.eq(id))
            .filter(e::status.eq("requested")),
    )
    .set((
        e::status.eq(d.status),
        e::extended_to.eq(d.extended_to),
        e::decision_reason.eq(d.reason),
        e::decided_by.eq(Some(d.decided_by)),
        e::decided_at.eq(Some(d.decided_at)),
    ))
    .execute_native(conn)
    .map(|n| n == 1)
}

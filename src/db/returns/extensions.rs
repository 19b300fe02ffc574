//! Extension requests and decisions (the only mutable rows of returns: a
//! request is decided once, guarded by its `requested` status).

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::rows::ExtensionRow;
use crate::db::{DbConn, schema::return_extensions as e};

/// Insert a request.
pub fn insert(conn: &mut DbConn, row: &ExtensionRow) -> QueryResult<()> {
    diesel::insert_into(e::table)
        .values(row)
        .execute(conn)
        .map(|_| ())
}

/// One extension by id.
pub fn get(conn: &mut DbConn, municipality_id: i64, id: &str) -> QueryResult<Option<ExtensionRow>> {
    e::table
        .filter(e::municipality_id.eq(municipality_id))
        .filter(e::id.eq(id))
        .first(conn)
        .optional()
}

/// Every extension of one payor (all periods), newest first.
pub fn of_payor(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> QueryResult<Vec<ExtensionRow>> {
    e::table
        .filter(e::municipality_id.eq(municipality_id))
        .filter(e::payor_id.eq(payor_id))
        .order((e::requested_at.desc(), e::id.desc()))
        .load(conn)
}

/// Every granted extension for these periods (the municipality's view).
pub fn granted_for_periods(
    conn: &mut DbConn,
    municipality_id: i64,
    periods: &[String],
) -> QueryResult<Vec<ExtensionRow>> {
    e::table
        .filter(e::municipality_id.eq(municipality_id))
        .filter(e::period.eq_any(periods))
        .filter(e::status.eq("granted"))
        .load(conn)
}

/// Every extension request still waiting for a decision, oldest first.
pub fn pending(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<ExtensionRow>> {
    e::table
        .filter(e::municipality_id.eq(municipality_id))
        .filter(e::status.eq("requested"))
        .order((e::requested_at.asc(), e::id.asc()))
        .load(conn)
}

/// What a decision records.
pub struct Decision<'a> {
    pub status: &'a str,
    pub extended_to: Option<NaiveDate>,
    pub reason: &'a str,
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
        e::decision_reason.eq(Some(d.reason)),
        e::decided_by.eq(Some(d.decided_by)),
        e::decided_at.eq(Some(d.decided_at)),
    ))
    .execute(conn)
    .map(|n| n == 1)
}

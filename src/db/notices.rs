//! Queries over written notices (confidential, append-only).
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the caller's unit of work. Rows are only inserted (the database
//! refuses UPDATE and DELETE).

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{DbConn, insert_row, schema::notices};

/// A notice as issued.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = notices)]
pub struct NoticeRow {
    pub municipality_id: i64,
    pub id: String,
    pub payor_id: String,
    /// `domain::notice::NoticeKind`'s stored name.
    pub kind: String,
    pub issued_on: NaiveDate,
    pub title: String,
    /// The `NoticeDraft` as JSON.
    pub content: String,
    /// The ledger journal it reports.
    pub journal_id: Option<String>,
    pub cause_type: String,
    pub cause_id: String,
    /// The actor who issued it (`user:ID`).
    pub issued_by: String,
    pub created_at: NaiveDateTime,
}

/// Insert a notice.
pub fn insert(conn: &mut DbConn, row: &NoticeRow) -> QueryResult<()> {
    insert_row(conn, notices::table, row)
}

/// One notice of a payor.
pub fn get(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    id: &str,
) -> QueryResult<Option<NoticeRow>> {
    notices::table
        .filter(notices::municipality_id.eq(municipality_id))
        .filter(notices::payor_id.eq(payor_id))
        .filter(notices::id.eq(id))
        .first(conn)
        .optional()
}

/// Every notice of a payor, oldest first.
pub fn of_payor(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> QueryResult<Vec<NoticeRow>> {
    notices::table
        .filter(notices::municipality_id.eq(municipality_id))
        .filter(notices::payor_id.eq(payor_id))
        .order((notices::issued_on.asc(), notices::created_at.asc()))
        .load(conn)
}

/// The notices about one cause (a determination, a deposit, ...), oldest first.
pub fn of_cause(
    conn: &mut DbConn,
    municipality_id: i64,
    cause_type: &str,
    cause_id: &str,
) -> QueryResult<Vec<NoticeRow>> {
    notices::table
        .filter(notices::municipality_id.eq(municipality_id))
        .filter(notices::cause_type.eq(cause_type))
        .filter(notices::cause_id.eq(cause_id))
        .order((notices::issued_on.asc(), notices::created_at.asc()))
        .load(conn)
}

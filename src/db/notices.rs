//! Queries over written notices (confidential, append-only).
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the caller's unit of work. Rows are only inserted (the database
//! refuses UPDATE and DELETE). A notice's document (the PDF as sent) is a
//! row of `notice_documents` beside it, read only when asked for, so lists
//! never load the bytes.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{
    DbConn, insert_row,
    schema::{municipalities, notice_documents, notices},
};
use crate::db::native::Native as _;

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

super::payor_get! {
    /// One notice of a payor.
    notices => NoticeRow
}

super::payor_of! {
    /// Every notice of a payor, oldest first.
    notices => NoticeRow,
    order: (notices::issued_on.asc(), notices::created_at.asc())
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
        .load_native(conn)
}

/// The document of a notice as sent.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = notice_documents)]
pub struct DocumentRow {
    pub municipality_id: i64,
    pub notice_id: String,
    /// `application/pdf`.
    pub media_type: String,
    pub bytes: Vec<u8>,
    /// Hex SHA-256 of `bytes`.
    pub sha256: String,
}

/// Insert a notice's document.
pub fn insert_document(conn: &mut DbConn, row: &DocumentRow) -> QueryResult<()> {
    insert_row(conn, notice_documents::table, row)
}

/// The document of a notice.
pub fn document_of(
    conn: &mut DbConn,
    municipality_id: i64,
    notice_id: &str,
) -> QueryResult<Option<DocumentRow>> {
    notice_documents::table
        .filter(notice_documents::municipality_id.eq(municipality_id))
        .filter(notice_documents::notice_id.eq(notice_id))
        .get_native(conn)
        .optional()
}

/// One page of a payor's notices, newest first (by `created_at`, then id
/// descending), after the position `after` (the last item of the previous page).
pub fn page_of_payor(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    after: Option<(NaiveDateTime, &str)>,
    limit: i64,
) -> QueryResult<Vec<NoticeRow>> {
    let mut q = notices::table
        .filter(notices::municipality_id.eq(municipality_id))
        .filter(notices::payor_id.eq(payor_id))
        .into_boxed();
    if let Some((at, id)) = after {
        q = q.filter(
            notices::created_at.lt(at).or(notices::created_at
                .eq(at)
                .and(notices::id.lt(id.to_owned()))),
        );
    }
    q.order((notices::created_at.desc(), notices::id.desc()))
        .limit(limit)
        .load(conn)
}

/// The municipality's name (the sender of its notices).
pub fn municipality_name(conn: &mut DbConn, municipality_id: i64) -> QueryResult<String> {
    municipalities::table
        .filter(municipalities::id.eq(municipality_id))
        .select(municipalities::name)
        .get_native(conn)
}

/// Every notice document of a municipality (for `roomtax check`).
pub fn all_documents(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<DocumentRow>> {
    notice_documents::table
        .filter(notice_documents::municipality_id.eq(municipality_id))
        .order(notice_documents::notice_id.asc())
        .load_native(conn)
}

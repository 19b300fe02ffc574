//! Queries over determinations (confidential, append-only).
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the caller's unit of work, scoped on PostgreSQL to that tenant by
//! row-level security. Rows are only inserted (the database refuses UPDATE,
//! DELETE and, on PostgreSQL, TRUNCATE). Amounts are integer cents.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{DbConn, insert_row, schema::determinations};
use crate::db::native::Native as _;

/// A determination as made.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = determinations)]
pub struct DeterminationRow {
    pub municipality_id: i64,
    pub id: String,
    pub payor_id: String,
    /// `domain::determination::DeterminationKind`'s stored name.
    pub kind: String,
    /// The period determined (a quarter, `2026-Q1`).
    pub period: String,
    pub determined_on: NaiveDate,
    /// The clerk's written basis.
    pub basis: String,
    /// The tax charge posted (audit: the difference from what was assessed).
    pub tax_charged_cents: i64,
    /// The estimate penalty posted.
    pub estimate_penalty_cents: i64,
    /// The fraud penalty posted.
    pub fraud_penalty_cents: i64,
    /// `usecases::ledger::determinations::StoredContent` as JSON: figures,
    /// the limit's date, explained lines, citations.
    pub content: String,
    pub journal_id: String,
    pub notice_id: String,
    /// The actor who made it (`user:ID`).
    pub determined_by: String,
    pub created_at: NaiveDateTime,
}

/// Insert a determination.
pub fn insert(conn: &mut DbConn, row: &DeterminationRow) -> QueryResult<()> {
    insert_row(conn, determinations::table, row)
}

super::payor_get! {
    /// One determination of a payor.
    determinations => DeterminationRow
}

super::payor_of! {
    /// Every determination of a payor, oldest first.
    determinations => DeterminationRow,
    order: (
        determinations::determined_on.asc(),
        determinations::created_at.asc(),
        determinations::id.asc(),
    )
}

/// The payor's determinations of one period, oldest first.
pub fn of_payor_period(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    period: &str,
) -> QueryResult<Vec<DeterminationRow>> {
    determinations::table
        .filter(determinations::municipality_id.eq(municipality_id))
        .filter(determinations::payor_id.eq(payor_id))
        .filter(determinations::period.eq(period))
        .order((
            determinations::determined_on.asc(),
            determinations::created_at.asc(),
            determinations::id.asc(),
        ))
        .load_native(conn)
}

/// Every determination of the municipality (the check).
pub fn all(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<DeterminationRow>> {
    determinations::table
        .filter(determinations::municipality_id.eq(municipality_id))
        .order(determinations::id.asc())
        .load_native(conn)
}

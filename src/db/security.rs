//! Queries over security deposits and their events (confidential,
//! append-only).
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the caller's unit of work (row-level security on PostgreSQL hides
//! other tenants' rows). Rows are only inserted: the database refuses UPDATE
//! and DELETE; a deposit's state is read from its events.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{
    DbConn, insert_row,
    schema::{security_deposits, security_events},
};
use crate::db::native::Native as _;

/// A security deposit as required.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = security_deposits)]
pub struct DepositRow {
    pub municipality_id: i64,
    pub id: String,
    pub payor_id: String,
    /// The amount required (at most the policy's maximum).
    pub amount_cents: i64,
    pub reason: String,
    pub required_on: NaiveDate,
    /// The `security_required` notice.
    pub notice_id: String,
    /// The actor who required it (`user:ID`).
    pub required_by: String,
    pub created_at: NaiveDateTime,
}

/// One event of a deposit.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = security_events)]
pub struct EventRow {
    pub municipality_id: i64,
    pub id: String,
    pub deposit_id: String,
    /// `received`, `application_notice`, `applied` or `returned`.
    pub kind: String,
    pub occurred_on: NaiveDate,
    pub amount_cents: i64,
    /// Check number, receipt, or a note.
    pub reference: String,
    pub journal_id: Option<String>,
    pub notice_id: Option<String>,
    pub recorded_by: String,
    pub created_at: NaiveDateTime,
}

/// Insert a deposit.
pub fn insert_deposit(conn: &mut DbConn, row: &DepositRow) -> QueryResult<()> {
    insert_row(conn, security_deposits::table, row)
}

/// Insert an event.
pub fn insert_event(conn: &mut DbConn, row: &EventRow) -> QueryResult<()> {
    insert_row(conn, security_events::table, row)
}

super::payor_get! {
    /// One deposit of a payor.
    security_deposits => DepositRow
}

super::payor_of! {
    /// Every deposit of a payor, oldest first.
    security_deposits => DepositRow,
    order: (
        security_deposits::required_on.asc(),
        security_deposits::created_at.asc(),
    )
}

/// Every event of a deposit, oldest first.
pub fn events_of(
    conn: &mut DbConn,
    municipality_id: i64,
    deposit_id: &str,
) -> QueryResult<Vec<EventRow>> {
    security_events::table
        .filter(security_events::municipality_id.eq(municipality_id))
        .filter(security_events::deposit_id.eq(deposit_id))
        .order((
            security_events::occurred_on.asc(),
            security_events::created_at.asc(),
        ))
        .load_native(conn)
}

/// Every deposit of a municipality (for `roomtax check`).
pub fn all_deposits(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<DepositRow>> {
    security_deposits::table
        .filter(security_deposits::municipality_id.eq(municipality_id))
        .order(security_deposits::id.asc())
        .load_native(conn)
}

/// Every security event of a municipality (for `roomtax check`).
pub fn all_events(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<EventRow>> {
    security_events::table
        .filter(security_events::municipality_id.eq(municipality_id))
        .order((
            security_events::occurred_on.asc(),
            security_events::created_at.asc(),
        ))
        .load_native(conn)
}

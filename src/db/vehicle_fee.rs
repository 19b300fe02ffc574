//! Queries over Montello's vehicle registration fee: the DOT's remittances
//! (one row per version) and the spending from the segregated fund.
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the caller's unit of work, scoped on PostgreSQL to that tenant by
//! row-level security. Rows are only inserted (the database refuses UPDATE,
//! DELETE and on PostgreSQL TRUNCATE); `(municipality, period, version)` is
//! unique, so a quarter is recorded once and each correction is the next
//! version; a spending recorded in error is reversed by a row of
//! `vehicle_fee_spending_reversals`, once. [`lock_fund`] serialises the writes that move the fund, so a
//! balance read to allow a payment is still the balance when it is posted.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use diesel::sql_types::BigInt;

use super::{
    DbConn, insert_row,
    schema::{
        ledger_journals, ledger_lines, vehicle_fee_remittances, vehicle_fee_spending,
        vehicle_fee_spending_reversals,
    },
};
use crate::db::native::Native as _;

/// One version of a quarter's remittance.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = vehicle_fee_remittances)]
pub struct RemittanceRow {
    pub municipality_id: i64,
    pub id: String,
    /// The calendar quarter, e.g. `2026-Q1`.
    pub period: String,
    /// 1 as first recorded; each correction the next.
    pub version: i32,
    pub vehicle_count: i64,
    /// The policy's fee per vehicle this version used, cents.
    pub fee_per_vehicle_cents: i64,
    /// The policy's DOT retention per vehicle this version used, cents.
    pub retention_per_vehicle_cents: i64,
    /// The effective date of the policy version it used (its gross,
    /// retention and expected net are the count times the two rates above).
    pub policy_effective_from: NaiveDate,
    /// What the DOT remitted for the quarter (as of this version).
    pub received_cents: i64,
    /// What this version posted into the fund (version 1: the amount
    /// received; a correction: the difference from the previous version).
    pub posted_cents: i64,
    /// The local date the amount (or the correction's difference) was received.
    pub received_on: NaiveDate,
    pub reference: String,
    /// Why a correction was made (`None` for version 1).
    pub reason: Option<String>,
    /// The journal it posted.
    pub journal_id: String,
    /// The actor who recorded it (`user:ID`).
    pub recorded_by: String,
    pub created_at: NaiveDateTime,
}

/// A payment out of the fund.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = vehicle_fee_spending)]
pub struct SpendingRow {
    pub municipality_id: i64,
    pub id: String,
    pub spent_on: NaiveDate,
    /// Positive cents.
    pub amount_cents: i64,
    pub payee: String,
    /// One of `domain::vehicle_fee::SpendingPurpose`'s names.
    pub purpose: String,
    pub description: String,
    /// The journal it posted.
    pub journal_id: String,
    /// The actor who recorded it (`user:ID`).
    pub recorded_by: String,
    pub created_at: NaiveDateTime,
}

/// The reversal of a spending recorded in error (at most one per spending).
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = vehicle_fee_spending_reversals)]
pub struct ReversalRow {
    pub municipality_id: i64,
    pub id: String,
    /// The spending it reverses.
    pub spending_id: String,
    /// The local date of the reversal (its journal's date).
    pub reversed_on: NaiveDate,
    /// Why the spending was recorded in error.
    pub reason: String,
    /// The journal it posted.
    pub journal_id: String,
    /// The actor who recorded it (`user:ID`).
    pub recorded_by: String,
    pub created_at: NaiveDateTime,
}

/// Insert a reversal (a second one of the same spending is a unique violation).
pub fn insert_reversal(conn: &mut DbConn, row: &ReversalRow) -> QueryResult<()> {
    insert_row(conn, vehicle_fee_spending_reversals::table, row)
}

/// Every reversal, oldest first.
pub fn all_reversals(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<ReversalRow>> {
    vehicle_fee_spending_reversals::table
        .filter(vehicle_fee_spending_reversals::municipality_id.eq(municipality_id))
        .order((
            vehicle_fee_spending_reversals::reversed_on.asc(),
            vehicle_fee_spending_reversals::created_at.asc(),
        ))
        .load_native(conn)
}

/// One spending by id.
pub fn spending(
    conn: &mut DbConn,
    municipality_id: i64,
    id: &str,
) -> QueryResult<Option<SpendingRow>> {
    vehicle_fee_spending::table
        .filter(vehicle_fee_spending::municipality_id.eq(municipality_id))
        .filter(vehicle_fee_spending::id.eq(id))
        .get_native(conn)
        .optional()
}

/// Insert a remittance version.
pub fn insert_remittance(conn: &mut DbConn, row: &RemittanceRow) -> QueryResult<()> {
    insert_row(conn, vehicle_fee_remittances::table, row)
}

/// Insert a spending.
pub fn insert_spending(conn: &mut DbConn, row: &SpendingRow) -> QueryResult<()> {
    insert_row(conn, vehicle_fee_spending::table, row)
}

/// Every version of one quarter's remittance, version 1 first.
pub fn versions_of(
    conn: &mut DbConn,
    municipality_id: i64,
    period: &str,
) -> QueryResult<Vec<RemittanceRow>> {
    vehicle_fee_remittances::table
        .filter(vehicle_fee_remittances::municipality_id.eq(municipality_id))
        .filter(vehicle_fee_remittances::period.eq(period))
        .order(vehicle_fee_remittances::version.asc())
        .load_native(conn)
}

/// Every version of every remittance, by period text then version (the
/// check; the list sorts by the periods' order itself).
pub fn all_remittances(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<RemittanceRow>> {
    vehicle_fee_remittances::table
        .filter(vehicle_fee_remittances::municipality_id.eq(municipality_id))
        .order((
            vehicle_fee_remittances::period.asc(),
            vehicle_fee_remittances::version.asc(),
        ))
        .load_native(conn)
}

/// Every spending, oldest first.
pub fn all_spending(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<SpendingRow>> {
    vehicle_fee_spending::table
        .filter(vehicle_fee_spending::municipality_id.eq(municipality_id))
        .order((
            vehicle_fee_spending::spent_on.asc(),
            vehicle_fee_spending::created_at.asc(),
        ))
        .load_native(conn)
}

/// `(posted_on, amount_cents)` of every line on `municipality:vehicle_fee_fund`,
/// oldest first: the fund's movements, whatever journal posted them.
pub fn fund_lines(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<(NaiveDate, i64)>> {
    ledger_lines::table
        .inner_join(
            ledger_journals::table.on(ledger_journals::municipality_id
                .eq(ledger_lines::municipality_id)
                .and(ledger_journals::id.eq(ledger_lines::journal_id))),
        )
        .filter(ledger_lines::municipality_id.eq(municipality_id))
        .filter(ledger_lines::account.eq("municipality:vehicle_fee_fund"))
        .order((
            ledger_journals::posted_on.asc(),
            ledger_journals::created_at.asc(),
        ))
        .select((ledger_journals::posted_on, ledger_lines::amount_cents))
        .load_native(conn)
}

/// Hold the municipality's fund until the unit of work ends: on PostgreSQL a
/// transaction-scoped advisory lock keyed by the municipality (no row, no
/// privilege needed), so two payments from the fund at once apply one after
/// the other and the second sees the first; on SQLite a write unit already
/// holds the database's write lock from its first statement.
pub fn lock_fund(conn: &mut DbConn, municipality_id: i64) -> QueryResult<()> {
    match conn {
        DbConn::Sqlite(_) => Ok(()),
        DbConn::Pg(pg) => {
            // The first key names this lock's class ("vf" in ASCII), the second the tenant.
            diesel::sql_query("SELECT pg_advisory_xact_lock(30310, CAST($1 AS INTEGER))")
                .bind::<BigInt, _>(municipality_id)
                .execute(pg)
                .map(|_| ())
        }
    }
}

//! Queries over remittances to the zone and their transfers (append-only).
//!
//! Contract: every query takes its tenant: the municipality id for the
//! municipality's own rows, or the zone id for the rows of the zone's members
//! (on PostgreSQL row-level security shows a zone scope only rows whose
//! `zone_id` is its own, a municipal scope only its own rows). Rows are only
//! inserted: the database refuses UPDATE and DELETE (and on PostgreSQL
//! TRUNCATE). `(municipality, period, version)` and a transfer's
//! `(municipality, remittance)` are unique, so a concurrent second version or
//! transfer conflicts (409) instead of being recorded twice. The ledger query
//! reads only the municipality's own journals.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{
    DbConn, insert_row,
    schema::{ledger_journals, ledger_lines, payors, remittance_transfers, remittances},
};
use crate::db::native::Native as _;

/// One version of a municipality's remittance for a quarter.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = remittances)]
pub struct RemittanceRow {
    pub municipality_id: i64,
    pub id: String,
    /// The zone whose membership covers the quarter's last day.
    pub zone_id: i64,
    /// The quarter, e.g. `2026-Q1`.
    pub period: String,
    /// 1 = first submission; each correction adds one.
    pub version: i32,
    /// `ledger` (computed here) or `entered` (the clerk's totals).
    pub source: String,
    pub gross_receipts_cents: i64,
    pub tax_collected_cents: i64,
    pub payor_count: i32,
    /// The policy's commission share, as decimal text (`0.75`).
    pub commission_share: String,
    pub commission_cents: i64,
    pub retained_cents: i64,
    /// What this version's journal moved to the commission payable.
    pub commission_difference_cents: i64,
    pub submitted_on: NaiveDate,
    /// The actor (`user:ID`).
    pub submitted_by: String,
    pub created_at: NaiveDateTime,
}

/// A version's commission share marked paid.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = remittance_transfers)]
pub struct TransferRow {
    pub municipality_id: i64,
    pub id: String,
    /// The version whose share was paid.
    pub remittance_id: String,
    pub zone_id: i64,
    pub period: String,
    pub paid_on: NaiveDate,
    pub amount_cents: i64,
    /// `check`, `ach`, `card`, `cash` or `wire`.
    pub method: String,
    pub reference: String,
    pub recorded_by: String,
    pub created_at: NaiveDateTime,
}

/// Insert a version.
pub fn insert(conn: &mut DbConn, row: &RemittanceRow) -> QueryResult<()> {
    insert_row(conn, remittances::table, row)
}

/// Insert a transfer.
pub fn insert_transfer(conn: &mut DbConn, row: &TransferRow) -> QueryResult<()> {
    insert_row(conn, remittance_transfers::table, row)
}

/// Every version of the municipality's remittances for `periods`, oldest first.
pub fn of_municipality(
    conn: &mut DbConn,
    municipality_id: i64,
    periods: &[String],
) -> QueryResult<Vec<RemittanceRow>> {
    remittances::table
        .filter(remittances::municipality_id.eq(municipality_id))
        .filter(remittances::period.eq_any(periods.to_vec()))
        .order((remittances::period.asc(), remittances::version.asc()))
        .load_native(conn)
}

/// Every version of the zone's members' remittances for `periods`.
pub fn of_zone(
    conn: &mut DbConn,
    zone_id: i64,
    periods: &[String],
) -> QueryResult<Vec<RemittanceRow>> {
    remittances::table
        .filter(remittances::zone_id.eq(zone_id))
        .filter(remittances::period.eq_any(periods.to_vec()))
        .order((
            remittances::municipality_id.asc(),
            remittances::period.asc(),
            remittances::version.asc(),
        ))
        .load_native(conn)
}

/// One version by id.
pub fn by_id(
    conn: &mut DbConn,
    municipality_id: i64,
    id: &str,
) -> QueryResult<Option<RemittanceRow>> {
    remittances::table
        .filter(remittances::municipality_id.eq(municipality_id))
        .filter(remittances::id.eq(id))
        .get_native(conn)
        .optional()
}

/// The municipality's transfers for `periods`.
pub fn transfers_of_municipality(
    conn: &mut DbConn,
    municipality_id: i64,
    periods: &[String],
) -> QueryResult<Vec<TransferRow>> {
    remittance_transfers::table
        .filter(remittance_transfers::municipality_id.eq(municipality_id))
        .filter(remittance_transfers::period.eq_any(periods.to_vec()))
        .order(remittance_transfers::paid_on.asc())
        .load_native(conn)
}

/// The zone's members' transfers for `periods`.
pub fn transfers_of_zone(
    conn: &mut DbConn,
    zone_id: i64,
    periods: &[String],
) -> QueryResult<Vec<TransferRow>> {
    remittance_transfers::table
        .filter(remittance_transfers::zone_id.eq(zone_id))
        .filter(remittance_transfers::period.eq_any(periods.to_vec()))
        .order(remittance_transfers::paid_on.asc())
        .load_native(conn)
}

/// Every version and every transfer of the municipality (`roomtax check`).
pub fn all(
    conn: &mut DbConn,
    municipality_id: i64,
) -> QueryResult<(Vec<RemittanceRow>, Vec<TransferRow>)> {
    let versions = remittances::table
        .filter(remittances::municipality_id.eq(municipality_id))
        .order(remittances::id.asc())
        .load_native(conn)?;
    let transfers = remittance_transfers::table
        .filter(remittance_transfers::municipality_id.eq(municipality_id))
        .order(remittance_transfers::id.asc())
        .load_native(conn)?;
    Ok((versions, transfers))
}

/// Whether the municipality administers payors in this service (any payor in
/// its registry): then its remittances are computed from its ledger.
pub fn administers_payors(conn: &mut DbConn, municipality_id: i64) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        payors::table.filter(payors::municipality_id.eq(municipality_id)),
    ))
    .get_native(conn)
}

/// The journal kinds in which money is received on a payor's accounts (or
/// given back): a payment, its reversal, credit applied, a security deposit
/// applied. Charges (returns, amendments, determinations) are not receipts.
pub const RECEIPT_KINDS: [&str; 4] = [
    "payment",
    "payment_reversed",
    "credit_applied",
    "security_applied",
];

/// `(account, amount_cents)` of every line on a payor's account in a receipt
/// journal ([`RECEIPT_KINDS`]) posted from `from` to `to` (both included).
pub fn receipt_lines(
    conn: &mut DbConn,
    municipality_id: i64,
    from: NaiveDate,
    to: NaiveDate,
) -> QueryResult<Vec<(String, i64)>> {
    ledger_lines::table
        .inner_join(
            ledger_journals::table.on(ledger_journals::municipality_id
                .eq(ledger_lines::municipality_id)
                .and(ledger_journals::id.eq(ledger_lines::journal_id))),
        )
        .filter(ledger_lines::municipality_id.eq(municipality_id))
        .filter(ledger_lines::account.like("payor:%"))
        .filter(ledger_journals::kind.eq_any(RECEIPT_KINDS))
        .filter(ledger_journals::posted_on.ge(from))
        .filter(ledger_journals::posted_on.le(to))
        .select((ledger_lines::account, ledger_lines::amount_cents))
        .load_native(conn)
}

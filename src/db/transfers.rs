//! Queries over transfers of establishments between payors (append-only).
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! in the caller's unit of work (on PostgreSQL scoped to the tenant by
//! row-level security). Rows are only ever inserted: the database refuses
//! UPDATE and DELETE (and TRUNCATE on PostgreSQL).

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{
    DbConn, insert_row,
    schema::{payor_transfer_establishments, payor_transfers},
};
use crate::db::native::Native as _;

/// A transfer as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = payor_transfers)]
pub struct TransferRow {
    pub municipality_id: i64,
    pub id: String,
    /// The payor whose establishments passed (the seller).
    pub seller_payor_id: String,
    /// The payor they passed to (the buyer).
    pub buyer_payor_id: String,
    /// The date the business passed.
    pub transfer_on: NaiveDate,
    /// Who recorded it (`user:<id>`).
    pub recorded_by: String,
    pub created_at: NaiveDateTime,
}

/// One establishment a transfer moved.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = payor_transfer_establishments)]
pub struct TransferredRow {
    pub municipality_id: i64,
    pub transfer_id: String,
    /// The seller's row, closed on the transfer date.
    pub seller_establishment_id: String,
    /// The buyer's row, opened on the transfer date.
    pub buyer_establishment_id: String,
}

/// Insert a transfer and what it moved.
pub fn insert(conn: &mut DbConn, row: &TransferRow, moved: &[TransferredRow]) -> QueryResult<()> {
    insert_row(conn, payor_transfers::table, row)?;
    for m in moved {
        insert_row(conn, payor_transfer_establishments::table, m)?;
    }
    Ok(())
}

/// Every transfer in which the payor sold or bought, oldest first.
pub fn of_payor(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> QueryResult<Vec<TransferRow>> {
    payor_transfers::table
        .filter(payor_transfers::municipality_id.eq(municipality_id))
        .filter(
            payor_transfers::seller_payor_id
                .eq(payor_id)
                .or(payor_transfers::buyer_payor_id.eq(payor_id)),
        )
        .order((
            payor_transfers::transfer_on.asc(),
            payor_transfers::created_at.asc(),
        ))
        .load_native(conn)
}

/// The establishments moved by the transfer `transfer_id`.
pub fn moved_by(
    conn: &mut DbConn,
    municipality_id: i64,
    transfer_id: &str,
) -> QueryResult<Vec<TransferredRow>> {
    payor_transfer_establishments::table
        .filter(payor_transfer_establishments::municipality_id.eq(municipality_id))
        .filter(payor_transfer_establishments::transfer_id.eq(transfer_id))
        .order(payor_transfer_establishments::seller_establishment_id.asc())
        .load_native(conn)
}

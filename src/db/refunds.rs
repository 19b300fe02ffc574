//! Queries over refunds of credit (confidential, append-only).
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the caller's unit of work. Rows are only inserted (the database
//! refuses UPDATE and DELETE; on PostgreSQL TRUNCATE too). What a refund
//! posted is its journal (`cause_type` `refund`); the payor's row lock that
//! serialises postings to one account is `db::payments::lock_payor`.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{DbConn, insert_row, schema::refunds};
use crate::db::native::Native as _;

/// A refund as paid out.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = refunds)]
pub struct RefundRow {
    pub municipality_id: i64,
    pub id: String,
    pub payor_id: String,
    /// The period of the return whose overpayment is refunded.
    pub period: String,
    /// That return.
    pub return_id: String,
    /// The local date it was paid out.
    pub refunded_on: NaiveDate,
    /// The credit refunded, positive cents.
    pub amount_cents: i64,
    /// The refund interest paid with it (Montello), cents.
    pub interest_cents: i64,
    /// `check`, `ach`, `card` or `cash`.
    pub method: String,
    /// The check number or transaction id.
    pub reference: String,
    /// The clerk-treasurer's finding: the overpayment was made intentionally
    /// or by reason of carelessness or neglect (no interest).
    pub overpayment_intentional_or_careless: bool,
    /// The return was incomplete when refunded (no interest).
    pub return_incomplete: bool,
    /// The actor who recorded it (`user:ID`).
    pub recorded_by: String,
    pub created_at: NaiveDateTime,
}

/// Insert a refund.
pub fn insert(conn: &mut DbConn, row: &RefundRow) -> QueryResult<()> {
    insert_row(conn, refunds::table, row)
}

super::payor_of! {
    /// Every refund of a payor, oldest first.
    refunds => RefundRow,
    order: (refunds::refunded_on.asc(), refunds::created_at.asc())
}

/// Every refund of the municipality (the check).
pub fn all(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<RefundRow>> {
    refunds::table
        .filter(refunds::municipality_id.eq(municipality_id))
        .order(refunds::id.asc())
        .load_native(conn)
}

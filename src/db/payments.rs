//! Queries over payments received (confidential, append-only).
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the caller's unit of work. Rows are only inserted (the database
//! refuses UPDATE and DELETE). [`lock_payor`] serialises the payments of one
//! payor: on PostgreSQL it takes the payor's row lock (`SELECT ... FOR NO KEY
//! UPDATE`, which leaves inserts referring to the payor free) until the unit
//! of work ends, so a second payment to the same
//! account waits and then reads the first one's journal; on SQLite a write
//! unit already holds the database's write lock from its first statement
//! (`BEGIN IMMEDIATE`), so there is nothing more to take.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

use super::{DbConn, insert_row, schema::payments};
use crate::db::native::{Native as _, NoRow, Reused};

/// A payment as received.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = payments)]
pub struct PaymentRow {
    pub municipality_id: i64,
    pub id: String,
    pub payor_id: String,
    /// The local date it was received.
    pub received_on: NaiveDate,
    /// Positive cents.
    pub amount_cents: i64,
    /// `check`, `ach`, `card` or `cash`.
    pub method: String,
    /// The check number, transaction id or receipt number.
    pub reference: String,
    /// The actor who recorded it (`user:ID`).
    pub recorded_by: String,
    pub created_at: NaiveDateTime,
}

/// Insert a payment.
pub fn insert(conn: &mut DbConn, row: &PaymentRow) -> QueryResult<()> {
    insert_row(conn, payments::table, row)
}

super::payor_get! {
    /// One payment of a payor.
    payments => PaymentRow
}

super::payor_of! {
    /// Every payment of a payor, oldest receipt first.
    payments => PaymentRow,
    order: (payments::received_on.asc(), payments::created_at.asc())
}

/// Every payment of the municipality (the check).
pub fn all(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<PaymentRow>> {
    payments::table
        .filter(payments::municipality_id.eq(municipality_id))
        .order(payments::id.asc())
        .load_native(conn)
}

/// Hold the payor's row until the unit of work ends (see the module doc).
pub fn lock_payor(conn: &mut DbConn, municipality_id: i64, payor_id: &str) -> QueryResult<()> {
    match conn {
        DbConn::Sqlite(_) => Ok(()),
        // Held to the end of the unit: taking it again there is a round trip for nothing.
        DbConn::Pg(_) if !super::unit::first_lock(municipality_id, payor_id) => Ok(()),
        DbConn::Pg(pg) => Reused(
            diesel::sql_query(
                "SELECT id FROM payors WHERE municipality_id = $1 AND id = $2 FOR NO KEY UPDATE",
            )
            .bind::<BigInt, _>(municipality_id)
            .bind::<Text, _>(payor_id),
        )
        .load::<NoRow>(pg)
        .map(|_| ()),
    }
}

//! Queries over clearance certificates (append-only).
//!
//! Contract: [`insert`] and [`of_payor`] take the municipality id (the
//! tenant) and run in the tenant's unit of work. [`by_code_hash`] is the one
//! cross-tenant read, for the public verification: on PostgreSQL it first
//! sets `app.clearance_code_hash` (transaction-local), so row-level security
//! shows it the single certificate with that digest and nothing else (the
//! `by_code` policy of the migration); no tenant is set. Rows are never
//! changed.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::{prelude::*, sql_types::Text};

use super::{DbConn, insert_row, schema::clearance_certificates};
use crate::db::native::Native as _;

/// A certificate as issued.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Insertable)]
#[diesel(table_name = clearance_certificates)]
pub struct CertificateRow {
    pub municipality_id: i64,
    pub id: String,
    pub payor_id: String,
    /// `tax_paid_receipt` or `nothing_due`.
    pub kind: String,
    /// Lowercase hex SHA-256 of the verification code (the code is never stored).
    pub code_hash: String,
    /// The payor's public (trade) name.
    pub public_name: String,
    pub issued_on: NaiveDate,
    pub notice_id: String,
    pub issued_by: String,
    pub created_at: NaiveDateTime,
}

/// Insert a certificate.
pub fn insert(conn: &mut DbConn, row: &CertificateRow) -> QueryResult<()> {
    insert_row(conn, clearance_certificates::table, row)
}

super::payor_of! {
    /// Every certificate of a payor, oldest first.
    clearance_certificates => CertificateRow,
    order: clearance_certificates::created_at.asc()
}

/// The certificate whose code has `code_hash`, in whichever municipality
/// (see the module doc).
pub fn by_code_hash(conn: &mut DbConn, code_hash: &str) -> QueryResult<Option<CertificateRow>> {
    if let DbConn::Pg(pg) = conn {
        diesel::sql_query("SELECT set_config('app.clearance_code_hash', $1, true)")
            .bind::<Text, _>(code_hash)
            .execute(pg)?;
    }
    clearance_certificates::table
        .filter(clearance_certificates::code_hash.eq(code_hash))
        .get_native(conn)
        .optional()
}

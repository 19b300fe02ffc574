//! Queries the daily posting and the delinquency list start from.
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the caller's unit of work.

use diesel::prelude::*;

use super::{DbConn, schema::tax_returns};
use crate::db::native::Native as _;

/// The payors of the municipality with at least one return on file, in id order.
pub fn payors_with_returns(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<String>> {
    tax_returns::table
        .filter(tax_returns::municipality_id.eq(municipality_id))
        .select(tax_returns::payor_id)
        .distinct()
        .order(tax_returns::payor_id.asc())
        .load_native(conn)
}

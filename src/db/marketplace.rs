//! Marketplace providers' reports (confidential): one per provider, period
//! and municipality.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{DbConn, schema::marketplace_reports as r};
use crate::db::native::Native as _;

/// A stored report.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = r)]
pub struct ReportRow {
    pub municipality_id: i64,
    pub id: String,
    pub provider_user_id: String,
    pub period: String,
    pub gross_receipts_cents: i64,
    pub exempt_receipts_cents: i64,
    pub nights: i64,
    pub tax_collected_cents: i64,
    pub tax_owed_cents: i64,
    pub difference_cents: i64,
    pub policy_version: NaiveDate,
    /// JSON: the engine's explained lines.
    pub assessment: String,
    pub filed_on: NaiveDate,
    pub created_at: NaiveDateTime,
}

/// Insert a report.
pub fn insert(conn: &mut DbConn, row: &ReportRow) -> QueryResult<()> {
    crate::db::insert_row(conn, r::table, row)
}

/// One report by id.
pub fn get(conn: &mut DbConn, municipality_id: i64, id: &str) -> QueryResult<Option<ReportRow>> {
    r::table
        .filter(r::municipality_id.eq(municipality_id))
        .filter(r::id.eq(id))
        .get_native(conn)
        .optional()
}

/// Which reports a list returns.
#[derive(Debug, Clone, Default)]
pub struct ReportQuery {
    /// Only this provider's (a provider sees only its own).
    pub provider: Option<String>,
    /// Only this period.
    pub period: Option<String>,
    /// Ids after this one (cursor), in id order.
    pub after: Option<String>,
    /// Page size.
    pub limit: i64,
}

/// A page of reports, in id order.
pub fn list(
    conn: &mut DbConn,
    municipality_id: i64,
    q: &ReportQuery,
) -> QueryResult<Vec<ReportRow>> {
    let mut query = r::table
        .filter(r::municipality_id.eq(municipality_id))
        .into_boxed();
    if let Some(p) = &q.provider {
        query = query.filter(r::provider_user_id.eq(p.clone()));
    }
    if let Some(p) = &q.period {
        query = query.filter(r::period.eq(p.clone()));
    }
    if let Some(a) = &q.after {
        query = query.filter(r::id.gt(a.clone()));
    }
    query.order(r::id.asc()).limit(q.limit).load(conn)
}

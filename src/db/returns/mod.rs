//! Queries over returns, their versions and their attachments (confidential).
//!
//! Contract: every function takes the municipality id (the tenant) and runs
//! inside the request's one unit of work, scoped on PostgreSQL to that tenant
//! by row-level security. Returns, versions and attachments are append-only
//! (the database refuses UPDATE and DELETE): an amendment inserts the next
//! version, whose number is the previous one plus one, and the primary key
//! (municipality, return, version) makes two concurrent amendments of the
//! same version conflict instead of both landing. Rows carry money as
//! integer cents; turning them into domain values is the use case's work.

pub mod attachments;
pub mod extensions;
pub mod rows;

use std::sync::Arc;

use chrono::NaiveDate;
use diesel::prelude::*;

pub use rows::{ReturnRow, VersionRow};

use super::{
    DbConn,
    schema::{return_versions, tax_returns},
    unit,
};
use crate::db::native::Native as _;

/// Insert a return's header (and add it to the payor's returns this unit
/// has read, [`of_payor`]).
pub fn insert(conn: &mut DbConn, row: &ReturnRow) -> QueryResult<()> {
    crate::db::insert_row(conn, tax_returns::table, row)?;
    unit::update_payor_read::<Vec<ReturnRow>>(row.municipality_id, &row.payor_id, |rows| {
        rows.push(row.clone());
        rows.sort_by(|a, b| a.period.cmp(&b.period));
    });
    Ok(())
}

/// Insert a version of a return of `payor_id` (and add it to the payor's
/// versions this unit has read, [`version_summaries_of_payor`]).
pub fn insert_version(conn: &mut DbConn, payor_id: &str, row: &VersionRow) -> QueryResult<()> {
    crate::db::insert_row(conn, return_versions::table, row)?;
    unit::update_payor_read::<Vec<VersionSummary>>(row.municipality_id, payor_id, |versions| {
        versions.push(VersionSummary::from(row));
        versions.sort_by(|a, b| (&a.return_id, a.version).cmp(&(&b.return_id, b.version)));
    });
    Ok(())
}

/// Whether what this unit reads of a payor's returns stays what the
/// database holds until the unit ends, so that it may be remembered
/// (`db::unit`): on SQLite always (a write unit holds the one writer's lock;
/// a read unit reads one snapshot); on PostgreSQL, whose statements each see
/// what was committed before them, once this unit holds the payor's lock
/// (`db::payments::lock_payor`): every writer of a payor's returns takes it
/// before its version, so none commits another until this unit ends. The
/// returns and versions are append-only, and [`insert`] and
/// [`insert_version`] add what this unit writes.
fn stays(conn: &DbConn, municipality_id: i64, payor_id: &str) -> bool {
    matches!(conn, DbConn::Sqlite(_)) || unit::holds_lock(municipality_id, payor_id)
}

/// `read` of one payor, remembered by the unit of work while it
/// [`stays`] as read.
fn remembered<T: Clone + Send + Sync + 'static>(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    read: impl FnOnce(&mut DbConn) -> QueryResult<T>,
) -> QueryResult<T> {
    if !stays(conn, municipality_id, payor_id) {
        return read(conn);
    }
    if let Some(known) = unit::payor_read::<T>(municipality_id, payor_id) {
        return Ok((*known).clone());
    }
    let value = read(conn)?;
    unit::remember_payor_read(municipality_id, payor_id, Arc::new(value.clone()));
    Ok(value)
}

/// One return by id.
pub fn get(conn: &mut DbConn, municipality_id: i64, id: &str) -> QueryResult<Option<ReturnRow>> {
    tax_returns::table
        .filter(tax_returns::municipality_id.eq(municipality_id))
        .filter(tax_returns::id.eq(id))
        .get_native(conn)
        .optional()
}

/// The payor's return for a period, if filed.
pub fn of_payor_period(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    period: &str,
) -> QueryResult<Option<ReturnRow>> {
    tax_returns::table
        .filter(tax_returns::municipality_id.eq(municipality_id))
        .filter(tax_returns::payor_id.eq(payor_id))
        .filter(tax_returns::period.eq(period))
        .get_native(conn)
        .optional()
}

/// Every return of one payor, oldest period text first (remembered by the
/// unit of work, see [`stays`]).
pub fn of_payor(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> QueryResult<Vec<ReturnRow>> {
    remembered(conn, municipality_id, payor_id, |conn| {
        tax_returns::table
            .filter(tax_returns::municipality_id.eq(municipality_id))
            .filter(tax_returns::payor_id.eq(payor_id))
            .order(tax_returns::period.asc())
            .load_native(conn)
    })
}

/// Every version of a return, the original first.
pub fn versions(
    conn: &mut DbConn,
    municipality_id: i64,
    return_id: &str,
) -> QueryResult<Vec<VersionRow>> {
    return_versions::table
        .filter(return_versions::municipality_id.eq(municipality_id))
        .filter(return_versions::return_id.eq(return_id))
        .order(return_versions::version.asc())
        .load_native(conn)
}

/// A version without its stored documents: what the ledger's terms and the
/// previous year's tax need of every version of a payor's returns. Every
/// column is in the index `return_versions_terms`, so reading these never
/// reads a version's row (about 6 KB with its documents).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = return_versions)]
pub struct VersionSummary {
    /// The return.
    pub return_id: String,
    /// The version's number (1 is the original).
    pub version: i64,
    /// Its tax.
    pub tax_cents: i64,
    /// When it was stored.
    pub created_at: chrono::NaiveDateTime,
    /// Its assessment's due date (interest runs from it).
    pub due_date: NaiveDate,
    /// Its assessment's filing due date (extended when an extension was granted).
    pub filing_due_date: NaiveDate,
}

impl From<&VersionRow> for VersionSummary {
    fn from(row: &VersionRow) -> Self {
        VersionSummary {
            return_id: row.return_id.clone(),
            version: row.version,
            tax_cents: row.tax_cents,
            created_at: row.created_at,
            due_date: row.due_date,
            filing_due_date: row.filing_due_date,
        }
    }
}

/// [`VersionSummary`] of every version of every return of one payor, by
/// return, the original first. The payor's returns are a subquery, so the
/// statement is the same text for every payor and stays prepared (a list of
/// ids would be a new statement for each count of ids). Remembered by the
/// unit of work, see [`stays`].
pub fn version_summaries_of_payor(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> QueryResult<Vec<VersionSummary>> {
    remembered(conn, municipality_id, payor_id, |conn| {
        let returns = tax_returns::table
            .filter(tax_returns::municipality_id.eq(municipality_id))
            .filter(tax_returns::payor_id.eq(payor_id))
            .select(tax_returns::id);
        return_versions::table
            .filter(return_versions::municipality_id.eq(municipality_id))
            .filter(return_versions::return_id.eq_any(returns))
            .order((
                return_versions::return_id.asc(),
                return_versions::version.asc(),
            ))
            .select((
                return_versions::return_id,
                return_versions::version,
                return_versions::tax_cents,
                return_versions::created_at,
                return_versions::due_date,
                return_versions::filing_due_date,
            ))
            .load_native(conn)
    })
}

/// The stored assessment document (JSON) of one version, alone.
pub fn assessment_of(
    conn: &mut DbConn,
    municipality_id: i64,
    return_id: &str,
    version: i64,
) -> QueryResult<String> {
    return_versions::table
        .filter(return_versions::municipality_id.eq(municipality_id))
        .filter(return_versions::return_id.eq(return_id))
        .filter(return_versions::version.eq(version))
        .select(return_versions::assessment)
        .get_native(conn)
}

/// `(return_id, first filed_on)` of each of `return_ids` that has a version:
/// the date its first version was filed, without reading the versions' stored
/// filing and assessment documents (a clerk's period list needs only this, for
/// thousands of returns at once).
pub fn first_filed_of_many(
    conn: &mut DbConn,
    municipality_id: i64,
    return_ids: &[String],
) -> QueryResult<Vec<(String, NaiveDate)>> {
    let rows: Vec<(String, Option<NaiveDate>)> = return_versions::table
        .filter(return_versions::municipality_id.eq(municipality_id))
        .filter(return_versions::return_id.eq_any(return_ids))
        .group_by(return_versions::return_id)
        .select((
            return_versions::return_id,
            diesel::dsl::min(return_versions::filed_on),
        ))
        .load_native(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, first)| first.map(|d| (id, d)))
        .collect())
}

/// `(return_id, payor_id, first filed_on)` of every return of `period` in
/// the municipality: the period's returns and the day each was first filed,
/// in one query and without the versions' documents.
pub fn first_filed_in_period(
    conn: &mut DbConn,
    municipality_id: i64,
    period: &str,
) -> QueryResult<Vec<(String, String, NaiveDate)>> {
    let of_period = tax_returns::table
        .filter(tax_returns::municipality_id.eq(municipality_id))
        .filter(tax_returns::period.eq(period));
    let payors: std::collections::HashMap<String, String> = of_period
        .select((tax_returns::id, tax_returns::payor_id))
        .load::<(String, String)>(conn)?
        .into_iter()
        .collect();
    // The versions by their key (municipality, return): a join let SQLite
    // walk every version of the municipality first.
    let first: Vec<(String, Option<NaiveDate>)> = return_versions::table
        .filter(return_versions::municipality_id.eq(municipality_id))
        .filter(return_versions::return_id.eq_any(of_period.select(tax_returns::id)))
        .group_by(return_versions::return_id)
        .select((
            return_versions::return_id,
            diesel::dsl::min(return_versions::filed_on),
        ))
        .load_native(conn)?;
    Ok(first
        .into_iter()
        .filter_map(|(id, first)| {
            let payor = payors.get(&id)?.clone();
            first.map(|d| (id, payor, d))
        })
        .collect())
}

/// Every version of these returns, grouped by return, the original first.
pub fn versions_of_many(
    conn: &mut DbConn,
    municipality_id: i64,
    return_ids: &[String],
) -> QueryResult<Vec<VersionRow>> {
    return_versions::table
        .filter(return_versions::municipality_id.eq(municipality_id))
        .filter(return_versions::return_id.eq_any(return_ids))
        .order((
            return_versions::return_id.asc(),
            return_versions::version.asc(),
        ))
        .load_native(conn)
}

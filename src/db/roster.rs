//! Queries over the commission roster (zone-owned, append-only).
//!
//! Contract: every function takes the zone id (the tenant). A membership is
//! never changed or removed: its end is one row of `commission_roster_ends`.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{
    DbConn, insert_row,
    schema::{commission_roster as r, commission_roster_ends as e},
};
use crate::db::native::Native as _;

/// A membership of the commission.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = r)]
pub struct MemberRow {
    pub zone_id: i64,
    pub id: String,
    pub name: String,
    pub affiliation: String,
    pub represents_lodging_and_tourism_industry: bool,
    /// The municipality that appointed the member.
    pub appointed_by: i64,
    pub term_start: NaiveDate,
    pub created_by: String,
    pub created_at: NaiveDateTime,
}

/// The end of a membership.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = e)]
pub struct EndRow {
    pub zone_id: i64,
    pub member_id: String,
    pub term_end: NaiveDate,
    pub ended_by: String,
    pub ended_at: NaiveDateTime,
}

/// Insert a membership.
pub fn insert(conn: &mut DbConn, row: &MemberRow) -> QueryResult<()> {
    insert_row(conn, r::table, row)
}

/// Record the end of a membership.
pub fn insert_end(conn: &mut DbConn, row: &EndRow) -> QueryResult<()> {
    insert_row(conn, e::table, row)
}

/// Every membership of the zone with its end, by term start and name.
pub fn all(conn: &mut DbConn, zone_id: i64) -> QueryResult<Vec<(MemberRow, Option<EndRow>)>> {
    let members: Vec<MemberRow> = r::table
        .filter(r::zone_id.eq(zone_id))
        .order((r::term_start.asc(), r::name.asc(), r::id.asc()))
        .load_native(conn)?;
    let ends: Vec<EndRow> = e::table.filter(e::zone_id.eq(zone_id)).load_native(conn)?;
    Ok(members
        .into_iter()
        .map(|m| {
            let end = ends.iter().find(|x| x.member_id == m.id).cloned();
            (m, end)
        })
        .collect())
}

/// One membership with its end.
pub fn get(
    conn: &mut DbConn,
    zone_id: i64,
    id: &str,
) -> QueryResult<Option<(MemberRow, Option<EndRow>)>> {
    Ok(all(conn, zone_id)?.into_iter().find(|(m, _)| m.id == id))
}

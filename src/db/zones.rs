//! Queries over zones, their memberships and the invitations to join them.
//!
//! Contract: zones are public information (names and members); nothing here
//! touches confidential data. Lists are ordered by slug for cursor paging.
//! Invitations are never deleted; an answer is a conditional update of a
//! pending row (false when it was no longer pending). On PostgreSQL,
//! row-level security shows an invitation only to the zone that sent it and
//! the municipality invited (migration `2026-12-01-000002_zone_invitations`).

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::{
    DbConn,
    models::{MembershipRow, MunicipalityRow, NewZone, ZoneRow},
    schema::{municipalities, zone_invitations, zone_memberships, zones},
};
use crate::db::native::Native as _;

/// A stored invitation of a municipality into a zone.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = zone_invitations)]
pub struct InvitationRow {
    pub zone_id: i64,
    pub id: String,
    pub municipality_id: i64,
    pub proposed_joined_on: Option<NaiveDate>,
    pub status: String,
    pub invited_by: String,
    pub invited_at: NaiveDateTime,
    pub answered_by: Option<String>,
    pub answered_at: Option<NaiveDateTime>,
    pub joined_on: Option<NaiveDate>,
}

/// Record a new (pending) invitation.
pub fn insert_invitation(conn: &mut DbConn, row: &InvitationRow) -> QueryResult<()> {
    super::insert_row(conn, zone_invitations::table, row)
}

/// The order of every list of invitations: newest first, the id breaking ties.
fn newest_first() -> (
    diesel::dsl::Desc<zone_invitations::invited_at>,
    diesel::dsl::Desc<zone_invitations::id>,
) {
    (
        zone_invitations::invited_at.desc(),
        zone_invitations::id.desc(),
    )
}

/// The invitations a zone sent, newest first, with their municipalities.
pub fn invitations_of_zone(
    conn: &mut DbConn,
    zone_id: i64,
) -> QueryResult<Vec<(InvitationRow, MunicipalityRow)>> {
    zone_invitations::table
        .inner_join(municipalities::table)
        .filter(zone_invitations::zone_id.eq(zone_id))
        .order(newest_first())
        .select((zone_invitations::all_columns, municipalities::all_columns))
        .load_native(conn)
}

/// The invitations a municipality received, newest first, with their zones.
pub fn invitations_to(
    conn: &mut DbConn,
    municipality_id: i64,
) -> QueryResult<Vec<(InvitationRow, ZoneRow)>> {
    zone_invitations::table
        .inner_join(zones::table)
        .filter(zone_invitations::municipality_id.eq(municipality_id))
        .order(newest_first())
        .select((zone_invitations::all_columns, zones::all_columns))
        .load_native(conn)
}

/// One invitation by id, as the current scope may see it.
pub fn invitation(conn: &mut DbConn, id: &str) -> QueryResult<Option<InvitationRow>> {
    zone_invitations::table
        .filter(zone_invitations::id.eq(id))
        .get_native(conn)
        .optional()
}

/// Answer a pending invitation; false when it was not pending any more.
pub fn answer_invitation(
    conn: &mut DbConn,
    row: &InvitationRow,
    status: &str,
    answered_by: &str,
    answered_at: NaiveDateTime,
    joined_on: Option<NaiveDate>,
) -> QueryResult<bool> {
    diesel::update(
        zone_invitations::table
            .filter(zone_invitations::zone_id.eq(row.zone_id))
            .filter(zone_invitations::id.eq(&row.id))
            .filter(zone_invitations::status.eq("pending")),
    )
    .set((
        zone_invitations::status.eq(status),
        zone_invitations::answered_by.eq(Some(answered_by)),
        zone_invitations::answered_at.eq(Some(answered_at)),
        zone_invitations::joined_on.eq(joined_on),
    ))
    .execute_native(conn)
    .map(|n| n == 1)
}

/// Zones with a slug after `after`, in slug order.
pub fn list(conn: &mut DbConn, after: Option<&str>, limit: i64) -> QueryResult<Vec<ZoneRow>> {
    let mut query = zones::table
        .order(zones::slug.asc())
        .limit(limit)
        .into_boxed();
    if let Some(after) = after {
        query = query.filter(zones::slug.gt(after.to_owned()));
    }
    query.load(conn)
}

/// The zone with this slug.
pub fn by_slug(conn: &mut DbConn, slug: &str) -> QueryResult<Option<ZoneRow>> {
    zones::table
        .filter(zones::slug.eq(slug))
        .get_native(conn)
        .optional()
}

/// `(id, slug)` of the given zones.
pub fn slugs_of(conn: &mut DbConn, ids: &[i64]) -> QueryResult<Vec<(i64, String)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    zones::table
        .filter(zones::id.eq_any(ids.to_vec()))
        .select((zones::id, zones::slug))
        .load_native(conn)
}

/// The zone with this id.
pub fn by_id(conn: &mut DbConn, id: i64) -> QueryResult<Option<ZoneRow>> {
    zones::table.find(id).get_native(conn).optional()
}

/// The municipality with this id (invitations name it by id).
pub fn municipality_by_id(conn: &mut DbConn, id: i64) -> QueryResult<Option<MunicipalityRow>> {
    municipalities::table.find(id).get_native(conn).optional()
}

/// The memberships (past and present) of the given zones, with their municipalities.
pub fn members(
    conn: &mut DbConn,
    zone_ids: &[i64],
) -> QueryResult<Vec<(MembershipRow, MunicipalityRow)>> {
    zone_memberships::table
        .inner_join(municipalities::table)
        .filter(zone_memberships::zone_id.eq_any(zone_ids.to_vec()))
        .order((
            municipalities::slug.asc(),
            zone_memberships::joined_on.asc(),
        ))
        .load_native(conn)
}

/// Insert a zone.
pub fn insert(conn: &mut DbConn, new: &NewZone<'_>) -> QueryResult<ZoneRow> {
    diesel::insert_into(zones::table)
        .values(new)
        .returning(zones::all_columns)
        .get_native(conn)
}

/// Record a membership.
pub fn add_member(conn: &mut DbConn, membership: &MembershipRow) -> QueryResult<()> {
    super::epochs::PUBLIC_LAW.bump();
    super::unit::forget_payor(membership.municipality_id, None);
    super::insert_row(conn, zone_memberships::table, membership)
}

/// Every membership (in any zone, past and present) of one municipality, oldest first.
pub fn memberships_of(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<MembershipRow>> {
    zone_memberships::table
        .filter(zone_memberships::municipality_id.eq(municipality_id))
        .order(zone_memberships::joined_on.asc())
        .load_native(conn)
}

/// Record that an open membership ends on `left_on`; false when it was not open.
pub fn close_membership(
    conn: &mut DbConn,
    membership: &MembershipRow,
    left_on: NaiveDate,
) -> QueryResult<bool> {
    super::epochs::PUBLIC_LAW.bump();
    super::unit::forget_payor(membership.municipality_id, None);
    diesel::update(
        zone_memberships::table
            .filter(zone_memberships::zone_id.eq(membership.zone_id))
            .filter(zone_memberships::municipality_id.eq(membership.municipality_id))
            .filter(zone_memberships::joined_on.eq(membership.joined_on))
            .filter(zone_memberships::left_on.is_null()),
    )
    .set(zone_memberships::left_on.eq(Some(left_on)))
    .execute_native(conn)
    .map(|n| n == 1)
}

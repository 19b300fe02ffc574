//! Queries over zones and their memberships.
//!
//! Contract: zones are public information (names and members); nothing here
//! touches confidential data. Lists are ordered by slug for cursor paging.

use diesel::prelude::*;

use super::{
    DbConn,
    models::{MembershipRow, MunicipalityRow, NewZone, ZoneRow},
    schema::{municipalities, zone_memberships, zones},
};

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
        .first(conn)
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
        .load(conn)
}

/// The zone with this id.
pub fn by_id(conn: &mut DbConn, id: i64) -> QueryResult<Option<ZoneRow>> {
    zones::table.find(id).first(conn).optional()
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
        .load(conn)
}

/// Insert a zone.
pub fn insert(conn: &mut DbConn, new: &NewZone<'_>) -> QueryResult<ZoneRow> {
    diesel::insert_into(zones::table)
        .values(new)
        .returning(zones::all_columns)
        .get_result(conn)
}

/// Record a membership.
pub fn add_member(conn: &mut DbConn, membership: &MembershipRow) -> QueryResult<()> {
    diesel::insert_into(zone_memberships::table)
        .values(membership)
        .execute(conn)
        .map(|_| ())
}

/// Every membership (in any zone, past and present) of one municipality, oldest first.
pub fn memberships_of(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<MembershipRow>> {
    zone_memberships::table
        .filter(zone_memberships::municipality_id.eq(municipality_id))
        .order(zone_memberships::joined_on.asc())
        .load(conn)
}

/// Record that an open membership ends on `left_on`; false when it was not open.
pub fn close_membership(
    conn: &mut DbConn,
    membership: &MembershipRow,
    left_on: chrono::NaiveDate,
) -> QueryResult<bool> {
    diesel::update(
        zone_memberships::table
            .filter(zone_memberships::zone_id.eq(membership.zone_id))
            .filter(zone_memberships::municipality_id.eq(membership.municipality_id))
            .filter(zone_memberships::joined_on.eq(membership.joined_on))
            .filter(zone_memberships::left_on.is_null()),
    )
    .set(zone_memberships::left_on.eq(Some(left_on)))
    .execute(conn)
    .map(|n| n == 1)
}

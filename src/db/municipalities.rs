//! Queries over municipalities (the tenants) and their zone membership.
//!
//! Contract: names, slugs and membership are public information; this
//! module resolves a slug to the tenant id every tenant query takes.

use chrono::NaiveDate;
use diesel::prelude::*;

use super::{
    DbConn,
    models::{MembershipRow, MunicipalityRow, NewMunicipality, ZoneRow},
    schema::{municipalities, zone_memberships, zones},
};
use crate::db::native::Native as _;

/// Municipalities with a slug after `after`, in slug order.
pub fn list(
    conn: &mut DbConn,
    after: Option<&str>,
    limit: i64,
) -> QueryResult<Vec<MunicipalityRow>> {
    let mut query = municipalities::table
        .order(municipalities::slug.asc())
        .limit(limit)
        .into_boxed();
    if let Some(after) = after {
        query = query.filter(municipalities::slug.gt(after.to_owned()));
    }
    query.load(conn)
}

/// `(id, slug)` of the given municipalities.
pub fn slugs_of(conn: &mut DbConn, ids: &[i64]) -> QueryResult<Vec<(i64, String)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    municipalities::table
        .filter(municipalities::id.eq_any(ids.to_vec()))
        .select((municipalities::id, municipalities::slug))
        .load_native(conn)
}

/// The municipality with this slug.
pub fn by_slug(conn: &mut DbConn, slug: &str) -> QueryResult<Option<MunicipalityRow>> {
    municipalities::table
        .filter(municipalities::slug.eq(slug))
        .get_native(conn)
        .optional()
}

/// The municipality with this slug and the zone it is a member of on `on`
/// (as [`memberships_on`] counts it), in one query: every request inside a
/// municipality begins with this.
pub fn by_slug_with_zone_on(
    conn: &mut DbConn,
    slug: &str,
    on: NaiveDate,
) -> QueryResult<Option<(MunicipalityRow, Option<i64>)>> {
    municipalities::table
        .left_join(
            zone_memberships::table.on(zone_memberships::municipality_id
                .eq(municipalities::id)
                .and(zone_memberships::joined_on.le(on))
                .and(
                    zone_memberships::left_on
                        .is_null()
                        .or(zone_memberships::left_on.ge(on)),
                )),
        )
        .filter(municipalities::slug.eq(slug))
        .select((
            municipalities::all_columns,
            zone_memberships::zone_id.nullable(),
        ))
        .get_native(conn)
        .optional()
}

/// For each given municipality, its membership in force on `on` (from `joined_on` to
/// `left_on`, its last day in the zone, both included), with the zone.
pub fn memberships_on(
    conn: &mut DbConn,
    municipality_ids: &[i64],
    on: NaiveDate,
) -> QueryResult<Vec<(MembershipRow, ZoneRow)>> {
    zone_memberships::table
        .inner_join(zones::table)
        .filter(zone_memberships::municipality_id.eq_any(municipality_ids.to_vec()))
        .filter(zone_memberships::joined_on.le(on))
        .filter(
            zone_memberships::left_on
                .is_null()
                .or(zone_memberships::left_on.ge(on)),
        )
        .load_native(conn)
}

/// Insert a municipality.
pub fn insert(conn: &mut DbConn, new: &NewMunicipality<'_>) -> QueryResult<MunicipalityRow> {
    diesel::insert_into(municipalities::table)
        .values(new)
        .returning(municipalities::all_columns)
        .get_native(conn)
}

/// The municipality with this slug, or a 404 problem.
pub fn require(conn: &mut DbConn, slug: &str) -> Result<MunicipalityRow, crate::error::ApiError> {
    by_slug(conn, slug)?.ok_or(crate::error::ApiError::NotFound("municipality"))
}

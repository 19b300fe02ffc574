//! Administration queries over role grants, in a municipality or a zone.
//!
//! Contract: every function takes the tenant id and runs in a transaction
//! scoped to that tenant (`app.municipality_id` for municipality grants,
//! `app.zone_id` for zone grants), so row-level security hides every other
//! tenant's grants even if a filter were forgotten. A grant is never deleted:
//! revoking sets `revoked_at` once and later revocations change nothing.
//! Lists are newest first, paged by `(created_at, id)`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{
    DbConn,
    models::{MunicipalityGrantRow, ZoneGrantRow},
    schema::{municipality_grants, zone_grants},
};

/// Which grants a list returns.
#[derive(Debug, Clone, Default)]
pub struct GrantQuery {
    /// Only grants not revoked.
    pub active_only: bool,
    /// Only grants strictly after this `(created_at, id)` in newest-first order.
    pub before: Option<(NaiveDateTime, String)>,
    /// Page size.
    pub limit: i64,
}

/// A page of the municipality's grants, newest first.
pub fn municipality_page(
    conn: &mut DbConn,
    municipality_id: i64,
    q: &GrantQuery,
) -> QueryResult<Vec<MunicipalityGrantRow>> {
    use municipality_grants as g;
    let mut query = g::table
        .filter(g::municipality_id.eq(municipality_id))
        .order((g::created_at.desc(), g::id.desc()))
        .limit(q.limit)
        .into_boxed();
    if q.active_only {
        query = query.filter(g::revoked_at.is_null());
    }
    if let Some((at, id)) = q.before.clone() {
        query = query.filter(
            g::created_at
                .lt(at)
                .or(g::created_at.eq(at).and(g::id.lt(id))),
        );
    }
    query.load(conn)
}

/// One grant of the municipality.
pub fn municipality_grant(
    conn: &mut DbConn,
    municipality_id: i64,
    id: &str,
) -> QueryResult<Option<MunicipalityGrantRow>> {
    municipality_grants::table
        .filter(municipality_grants::municipality_id.eq(municipality_id))
        .filter(municipality_grants::id.eq(id))
        .first(conn)
        .optional()
}

/// How many active grants of `role` (and, for an operator, `payor_id`) the user holds here.
pub fn count_active_in_municipality(
    conn: &mut DbConn,
    municipality_id: i64,
    user_id: &str,
    role: &str,
    payor_id: Option<&str>,
) -> QueryResult<i64> {
    use municipality_grants as g;
    let mut query = g::table
        .filter(g::municipality_id.eq(municipality_id))
        .filter(g::user_id.eq(user_id))
        .filter(g::role.eq(role))
        .filter(g::revoked_at.is_null())
        .into_boxed();
    if let Some(payor) = payor_id {
        query = query.filter(g::payor_id.eq(payor.to_owned()));
    }
    query.count().get_result(conn)
}

/// Revoke a municipality grant; false when it does not exist here or was already revoked.
pub fn revoke_in_municipality(
    conn: &mut DbConn,
    municipality_id: i64,
    id: &str,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    use municipality_grants as g;
    diesel::update(
        g::table
            .filter(g::municipality_id.eq(municipality_id))
            .filter(g::id.eq(id))
            .filter(g::revoked_at.is_null()),
    )
    .set(g::revoked_at.eq(Some(at)))
    .execute(conn)
    .map(|n| n == 1)
}

/// A page of the zone's grants, newest first.
pub fn zone_page(
    conn: &mut DbConn,
    zone_id: i64,
    q: &GrantQuery,
) -> QueryResult<Vec<ZoneGrantRow>> {
    use zone_grants as g;
    let mut query = g::table
        .filter(g::zone_id.eq(zone_id))
        .order((g::created_at.desc(), g::id.desc()))
        .limit(q.limit)
        .into_boxed();
    if q.active_only {
        query = query.filter(g::revoked_at.is_null());
    }
    if let Some((at, id)) = q.before.clone() {
        query = query.filter(
            g::created_at
                .lt(at)
                .or(g::created_at.eq(at).and(g::id.lt(id))),
        );
    }
    query.load(conn)
}

/// One grant of the zone.
pub fn zone_grant(conn: &mut DbConn, zone_id: i64, id: &str) -> QueryResult<Option<ZoneGrantRow>> {
    zone_grants::table
        .filter(zone_grants::zone_id.eq(zone_id))
        .filter(zone_grants::id.eq(id))
        .first(conn)
        .optional()
}

/// How many active grants of `role` the user holds in the zone.
pub fn count_active_in_zone(
    conn: &mut DbConn,
    zone_id: i64,
    user_id: &str,
    role: &str,
) -> QueryResult<i64> {
    use zone_grants as g;
    g::table
        .filter(g::zone_id.eq(zone_id))
        .filter(g::user_id.eq(user_id))
        .filter(g::role.eq(role))
        .filter(g::revoked_at.is_null())
        .count()
        .get_result(conn)
}

/// Revoke a zone grant; false when it does not exist here or was already revoked.
pub fn revoke_in_zone(
    conn: &mut DbConn,
    zone_id: i64,
    id: &str,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    use zone_grants as g;
    diesel::update(
        g::table
            .filter(g::zone_id.eq(zone_id))
            .filter(g::id.eq(id))
            .filter(g::revoked_at.is_null()),
    )
    .set(g::revoked_at.eq(Some(at)))
    .execute(conn)
    .map(|n| n == 1)
}

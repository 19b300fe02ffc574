//! Queries over role grants, in a tenant: a municipality or a zone.
//!
//! Contract: every function takes the [`Tenant`] and runs in a transaction
//! scoped to it (`app.municipality_id` for municipality grants, `app.zone_id`
//! for zone grants), so row-level security hides every other tenant's grants
//! even if a filter were forgotten. The two tables keep their own rows (only a
//! municipality grant can name an operator's payor); callers see one shape,
//! [`TenantGrant`]. A grant is never deleted: revoking sets `revoked_at` once
//! and later revocations change nothing. Lists are newest first, paged by
//! `(created_at, id)`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{
    DbConn,
    models::{MunicipalityGrantRow, ZoneGrantRow},
    schema::{municipality_grants, zone_grants},
};
use crate::db::native::Native as _;
use crate::tenancy::Tenant;

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

/// A role grant of either tenant kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TenantGrant {
    /// Where it applies.
    pub tenant: Tenant,
    /// Grant id.
    pub id: String,
    /// The user holding it.
    pub user_id: String,
    /// The role (wire name).
    pub role: String,
    /// The payor an operator acts for (municipality grants only).
    pub payor_id: Option<String>,
    /// When it was granted.
    pub created_at: NaiveDateTime,
    /// Who granted it (null: the command line or the demo).
    pub created_by: Option<String>,
    /// When it was revoked.
    pub revoked_at: Option<NaiveDateTime>,
}

impl From<MunicipalityGrantRow> for TenantGrant {
    fn from(r: MunicipalityGrantRow) -> Self {
        Self {
            tenant: Tenant::Municipality(r.municipality_id),
            id: r.id,
            user_id: r.user_id,
            role: r.role,
            payor_id: r.payor_id,
            created_at: r.created_at,
            created_by: r.created_by,
            revoked_at: r.revoked_at,
        }
    }
}

impl From<ZoneGrantRow> for TenantGrant {
    fn from(r: ZoneGrantRow) -> Self {
        Self {
            tenant: Tenant::Zone(r.zone_id),
            id: r.id,
            user_id: r.user_id,
            role: r.role,
            payor_id: None,
            created_at: r.created_at,
            created_by: r.created_by,
            revoked_at: r.revoked_at,
        }
    }
}

/// The same query over either grant table: `$g` is the table module, its
/// tenant column filtered to the tenant's id, `$row` its row type; `$body`
/// builds on `$query` (boxed, already filtered to the tenant). With `@table`,
/// `$mine` is that tenant filter itself, for statements a boxed query cannot
/// feed (`diesel::update`).
macro_rules! in_table {
    ($tenant:expr, |$g:ident, $query:ident, $row:ident| $body:expr) => {
        in_table!(@table $tenant, |$g, mine, $row| {
            let $query = $g::table.filter(mine).into_boxed();
            $body
        })
    };
    (@table $tenant:expr, |$g:ident, $mine:ident, $row:ident| $body:expr) => {
        match $tenant {
            Tenant::Municipality(id) => {
                use municipality_grants as $g;
                type $row = MunicipalityGrantRow;
                let $mine = $g::municipality_id.eq(id);
                $body
            }
            Tenant::Zone(id) => {
                use zone_grants as $g;
                type $row = ZoneGrantRow;
                let $mine = $g::zone_id.eq(id);
                $body
            }
        }
    };
}

/// A page of the tenant's grants, newest first.
pub fn page(conn: &mut DbConn, tenant: Tenant, q: &GrantQuery) -> QueryResult<Vec<TenantGrant>> {
    in_table!(tenant, |g, query, Row| {
        let mut query = query
            .order((g::created_at.desc(), g::id.desc()))
            .limit(q.limit);
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
        query
            .load(conn)
            .map(|rows: Vec<Row>| rows.into_iter().map(TenantGrant::from).collect())
    })
}

/// One grant of the tenant.
pub fn get(conn: &mut DbConn, tenant: Tenant, id: &str) -> QueryResult<Option<TenantGrant>> {
    in_table!(tenant, |g, query, Row| query
        .filter(g::id.eq(id.to_owned()))
        .get_result::<Row>(conn)
        .optional()
        .map(|row| row.map(TenantGrant::from)))
}

/// How many active grants of `role` (for an operator: for `payor_id`) the user holds here.
pub fn count_active(
    conn: &mut DbConn,
    tenant: Tenant,
    user_id: &str,
    role: &str,
    payor_id: Option<&str>,
) -> QueryResult<i64> {
    match (tenant, payor_id) {
        (Tenant::Municipality(m), Some(payor)) => {
            use municipality_grants as g;
            g::table
                .filter(g::municipality_id.eq(m))
                .filter(g::user_id.eq(user_id))
                .filter(g::role.eq(role))
                .filter(g::payor_id.eq(payor))
                .filter(g::revoked_at.is_null())
                .count()
                .get_native(conn)
        }
        _ => in_table!(tenant, |g, query, _Row| query
            .filter(g::user_id.eq(user_id.to_owned()))
            .filter(g::role.eq(role.to_owned()))
            .filter(g::revoked_at.is_null())
            .count()
            .get_result(conn)),
    }
}

/// Record a new grant in its tenant's table.
pub fn insert(conn: &mut DbConn, grant: &TenantGrant) -> QueryResult<()> {
    let g = grant.clone();
    match g.tenant {
        Tenant::Municipality(municipality_id) => super::identity::insert_municipality_grant(
            conn,
            &MunicipalityGrantRow {
                municipality_id,
                id: g.id,
                user_id: g.user_id,
                role: g.role,
                payor_id: g.payor_id,
                created_at: g.created_at,
                created_by: g.created_by,
                revoked_at: g.revoked_at,
            },
        ),
        Tenant::Zone(zone_id) => super::identity::insert_zone_grant(
            conn,
            &ZoneGrantRow {
                zone_id,
                id: g.id,
                user_id: g.user_id,
                role: g.role,
                created_at: g.created_at,
                created_by: g.created_by,
                revoked_at: g.revoked_at,
            },
        ),
    }
}

/// Revoke a grant; false when it does not exist here or was already revoked.
pub fn revoke(conn: &mut DbConn, tenant: Tenant, id: &str, at: NaiveDateTime) -> QueryResult<bool> {
    super::epochs::ACCESS.bump();
    let updated = in_table!(@table tenant, |g, mine, _Row| diesel::update(
        g::table
            .filter(mine)
            .filter(g::id.eq(id))
            .filter(g::revoked_at.is_null()),
    )
    .set(g::revoked_at.eq(Some(at)))
    .execute_native(conn))?;
    Ok(updated == 1)
}

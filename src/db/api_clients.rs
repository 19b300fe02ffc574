//! Administration queries over API clients (OAuth2 client credentials).
//!
//! Contract: every function takes the client's one tenant (a municipality or
//! a zone) and runs in a transaction scoped to exactly that tenant. Only the
//! secret's digest is ever stored or read back; a client is never deleted,
//! revoking sets `revoked_at` once. Lists are newest first, paged by
//! `(created_at, id)`. Authenticating a client (`db::identity::api_client`)
//! is not here.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{DbConn, MultiBackend, models::ApiClientRow, schema::api_clients};
use crate::db::native::Native as _;

pub use crate::tenancy::ClientTenant;

fn of_tenant(tenant: ClientTenant) -> api_clients::BoxedQuery<'static, MultiBackend> {
    use api_clients as c;
    match tenant {
        ClientTenant::Municipality(m) => c::table.filter(c::municipality_id.eq(m)).into_boxed(),
        ClientTenant::Zone(z) => c::table.filter(c::zone_id.eq(z)).into_boxed(),
    }
}

/// A page of the tenant's clients, newest first (`active_only`: not revoked).
pub fn page(
    conn: &mut DbConn,
    tenant: ClientTenant,
    before: Option<(NaiveDateTime, String)>,
    limit: i64,
    active_only: bool,
) -> QueryResult<Vec<ApiClientRow>> {
    use api_clients as c;
    let mut query = of_tenant(tenant)
        .order((c::created_at.desc(), c::id.desc()))
        .limit(limit);
    if active_only {
        query = query.filter(c::revoked_at.is_null());
    }
    if let Some((at, id)) = before {
        query = query.filter(
            c::created_at
                .lt(at)
                .or(c::created_at.eq(at).and(c::id.lt(id))),
        );
    }
    query.load(conn)
}

/// One client of the tenant.
pub fn get(conn: &mut DbConn, tenant: ClientTenant, id: &str) -> QueryResult<Option<ApiClientRow>> {
    of_tenant(tenant)
        .filter(api_clients::id.eq(id.to_owned()))
        .get_result(conn)
        .optional()
}

/// Revoke a client of the tenant; false when it does not exist there or was already revoked.
pub fn revoke(
    conn: &mut DbConn,
    tenant: ClientTenant,
    id: &str,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    super::epochs::ACCESS.bump();
    use api_clients as c;
    let target = c::table
        .filter(c::id.eq(id))
        .filter(c::revoked_at.is_null());
    let updated = match tenant {
        ClientTenant::Municipality(m) => diesel::update(target.filter(c::municipality_id.eq(m)))
            .set(c::revoked_at.eq(Some(at)))
            .execute_native(conn)?,
        ClientTenant::Zone(z) => diesel::update(target.filter(c::zone_id.eq(z)))
            .set(c::revoked_at.eq(Some(at)))
            .execute_native(conn)?,
    };
    Ok(updated == 1)
}

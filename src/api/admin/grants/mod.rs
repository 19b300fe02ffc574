//! `/v1/municipalities/{municipality}/grants` and `/v1/zones/{zone}/grants`:
//! a tenant's administrator manages the tenant's users and their role grants,
//! through one core over both kinds of tenant (`caller::Place`); only the
//! routes, the actions and the shapes (a zone grant has no `payor_id`) differ.
//!
//! Contract: in a municipality, clerk-treasurer only (`Action::ManageUsers`:
//! staff and other roles of the municipality 403, anyone else 404; a person,
//! never an API client), and only municipality roles (`clerk_treasurer`,
//! `municipal_staff`, `operator` with its `payor_id`, `marketplace_provider`)
//! are granted. In a zone, its zone_admin only (`ZoneAction::ManageUsers`:
//! other roles related to the zone 403, anyone else 404), and only zone roles
//! (`commission_member`, `tourism_entity`, `zone_admin`): a zone admin can
//! never grant a municipal role, so it cannot reach confidential operator
//! data through this API. Granting finds the user by email or creates it with
//! the given initial password (`accounts::grant_role`); an existing user keeps
//! its name and password. Revoking sets `revoked_at` (the row stays, for the
//! record); nobody revokes their own last administrator grant (409,
//! `accounts::revoke_grant`), so a tenant is never left without one by accident.

mod routes;
mod types;

pub use routes::*;
pub use types::*;

use serde::Serialize;

use super::{
    GrantListParams, GrantUser, Page, check_display_name, parse_role, user_of, users_by_id,
};
use crate::{
    api::caller::Authorised,
    db::{
        self, DbConn,
        grants::{GrantQuery, TenantGrant},
    },
    error::ApiError,
    tenancy::{Caller, Tenant},
    usecases::accounts::{self, GrantTarget, NewPassword},
};

/// A grant with the user holding it, as both tenants' APIs show it.
pub(super) type Shown = (TenantGrant, GrantUser);

/// A grant request body of one kind of tenant, and how that tenant shows
/// the grant made (the municipality's shape, narrowed by `From`).
pub(crate) trait GrantBody: Send + 'static {
    /// A grant, in this tenant's shape.
    type Shape: From<MunicipalityGrant>;
    /// The answer to a grant just made: the grant, and whether its user was created now.
    type Created: From<(Self::Shape, bool)> + Serialize + Send + 'static;
    /// The request as a municipality's (a zone's has no `payor_id`).
    fn into_request(self) -> GrantRequest;
}

/// A page of grants of one kind of tenant.
pub(crate) trait GrantPage: Serialize + Send + 'static {
    /// A grant, in this tenant's shape (the municipality's, narrowed).
    type Item: From<MunicipalityGrant>;
    /// The page of `items`, with the cursor of the next one.
    fn of(items: Vec<Self::Item>, next_cursor: Option<String>) -> Self;
}

/// Grant a role in the caller's tenant (`target`); the new grant with its user,
/// and whether the user was created now.
fn grant(
    conn: &mut DbConn,
    caller: &Caller,
    target: GrantTarget,
    ask: &GrantRequest,
) -> Result<(Shown, bool), ApiError> {
    let role = parse_role(&ask.role)?;
    let display_name = check_display_name(&ask.display_name)?;
    let tenant = target.tenant();
    let granted = accounts::grant_role(
        conn,
        &ask.email,
        &display_name,
        ask.password.as_deref().map(NewPassword::Plain),
        role,
        &target,
        caller.user_id(),
    )?;
    let row = db::grants::get(conn, tenant, &granted.grant_id)?
        .ok_or_else(|| ApiError::internal("the new grant is not readable"))?;
    let user = GrantUser {
        id: granted.user.id,
        email: granted.user.email,
        display_name: granted.user.display_name,
    };
    Ok(((row, user), granted.created))
}

/// A page of the tenant's grants with their users, and the next cursor.
fn page_of(
    conn: &mut DbConn,
    tenant: Tenant,
    params: GrantListParams,
) -> Result<(Vec<Shown>, Option<String>), ApiError> {
    let page = Page::parse(params.limit, params.cursor.as_deref())?;
    let query = GrantQuery {
        active_only: params.active == Some(true),
        before: page.before.clone(),
        limit: i64::from(page.limit),
    };
    let rows = db::grants::page(conn, tenant, &query)?;
    let next_cursor = page.next(&rows, |g| (g.created_at, g.id.clone()));
    let users = users_by_id(conn, rows.iter().map(|r| r.user_id.clone()))?;
    let items = rows
        .into_iter()
        .map(|r| Ok((user_of(&users, &r.user_id)?, r)).map(|(user, r)| (r, user)))
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok((items, next_cursor))
}

/// Grant a role in the caller's tenant (the work of `create_in`): the grant
/// in the tenant's shape, and whether its user was created now.
pub(crate) fn grant_in<B: GrantBody>(
    Authorised {
        conn,
        tenant,
        caller,
    }: Authorised<'_>,
    body: B,
) -> Result<B::Created, ApiError> {
    let body = body.into_request();
    let target = match tenant {
        Tenant::Municipality(id) => GrantTarget::Municipality {
            id,
            payor_id: body.payor_id.clone(),
        },
        Tenant::Zone(id) => GrantTarget::Zone { id },
    };
    let (granted, user_created) = grant(conn, &caller, target, &body)?;
    let shown = MunicipalityGrant::try_from(granted)?;
    Ok(B::Created::from((shown.into(), user_created)))
}

/// A page of the tenant's grants in its shape (the work of `list_in`).
pub(crate) fn page_in<L: GrantPage>(
    Authorised { conn, tenant, .. }: Authorised<'_>,
    params: GrantListParams,
) -> Result<L, ApiError> {
    let (rows, next_cursor) = page_of(conn, tenant, params)?;
    let items = rows
        .into_iter()
        .map(|row| MunicipalityGrant::try_from(row).map(L::Item::from));
    Ok(L::of(items.collect::<Result<_, _>>()?, next_cursor))
}

/// Revoke a grant of the tenant (the work of `revoke_at`).
pub(crate) fn revoke_in(
    Authorised {
        conn,
        tenant,
        caller,
    }: Authorised<'_>,
    grant_id: String,
) -> Result<(), ApiError> {
    accounts::revoke_grant(conn, tenant, &grant_id, caller.user_id())
}

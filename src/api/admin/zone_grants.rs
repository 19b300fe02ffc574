//! `/v1/zones/{zone}/grants`: a zone admin manages the zone's people and
//! their zone roles.
//!
//! Contract: zone_admin of this zone only (`ZoneAction::ManageUsers`: other
//! roles related to the zone 403, anyone else 404). Only zone roles
//! (`commission_member`, `tourism_entity`, `zone_admin`) are granted here: a
//! zone admin can never grant a municipal role, so it cannot reach
//! confidential operator data through this API. The grant handling is the
//! municipality's (`grants`: same user handling; a zone admin cannot revoke
//! their own last zone_admin grant, 409); only the routes and the response
//! shape (no `payor_id`) are the zone's.

use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    GrantListParams, GrantUser,
    grants::{Grant, Shown, grant, page_of},
    utc,
};
use crate::{
    api::{
        caller::{InZone, ZoneUnit},
        extract::{ApiJson, ApiQuery},
    },
    app::AppState,
    auth::Role,
    error::{ApiError, Problem},
    tenancy::ZoneAction,
    usecases::accounts::{self, GrantTarget},
};

/// A zone role to grant, to an existing or a new user.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneGrantRequest {
    /// The user's sign-in email; an account is created when none has it.
    #[schema(example = "member@commission.example")]
    pub email: String,
    /// Name shown to people, 1 to 200 characters (used only when the user is created now).
    pub display_name: String,
    /// A zone role: `commission_member`, `tourism_entity` or `zone_admin`.
    #[schema(value_type = Role)]
    pub role: String,
    /// Initial password (at least 12 characters), required when the user is created now;
    /// ignored for an existing user, whose password an administrator never sets.
    #[schema(format = Password)]
    pub password: Option<String>,
}

/// A role grant in a zone.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneGrant {
    /// Grant id.
    pub id: String,
    /// The role granted.
    pub role: Role,
    /// The user holding it.
    pub user: GrantUser,
    /// When it was granted (UTC).
    pub created_at: DateTime<Utc>,
    /// User id of who granted it (null for grants made by the command line or the demo).
    pub created_by: Option<String>,
    /// When it was revoked (UTC); null while active.
    pub revoked_at: Option<DateTime<Utc>>,
    /// Whether it is in force (not revoked).
    pub active: bool,
}

/// The zone grant just made.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedZoneGrant {
    /// The grant.
    #[serde(flatten)]
    pub grant: ZoneGrant,
    /// Whether the user account was created by this request.
    pub user_created: bool,
}

/// A page of zone grants.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneGrantList {
    /// Grants on this page, newest first.
    pub items: Vec<ZoneGrant>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

fn to_api((row, user): Shown) -> Result<ZoneGrant, ApiError> {
    Ok(ZoneGrant {
        role: Role::parse(&row.role).map_err(ApiError::internal)?,
        id: row.id,
        user,
        created_at: utc(row.created_at),
        created_by: row.created_by,
        active: row.revoked_at.is_none(),
        revoked_at: row.revoked_at.map(utc),
    })
}

/// Grant a zone role to a user (created when the email has no account).
///
/// Only the zone's zone_admin, as a person. Roles: `commission_member`,
/// `tourism_entity` or `zone_admin`; none of them sees an operator's confidential data.
/// An existing account keeps its password. Not written to the access log.
#[utoipa::path(
    operation_id = "create_zone_grant",
    tag = "administration",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath),
    request_body = ZoneGrantRequest,
    responses(
        (status = 201, description = "Granted", body = CreatedZoneGrant),
        (status = 409, description = "The user already holds this role in the zone", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (`role` not a zone role, `password` required or too weak, `email` malformed); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/grants")]
pub async fn create(
    state: web::Data<AppState>,
    here: InZone,
    body: Result<ApiJson<ZoneGrantRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let created = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            ctx.require(ZoneAction::ManageUsers)?;
            let ApiJson(body) = body?;
            let ask = Grant {
                email: &body.email,
                display_name: &body.display_name,
                role: &body.role,
                password: body.password.as_deref(),
            };
            let target = GrantTarget::Zone { id: ctx.zone_id };
            let (granted, user_created) = grant(conn, &ctx.caller, target, ask)?;
            Ok(CreatedZoneGrant {
                grant: to_api(granted)?,
                user_created,
            })
        })
        .await?;
    Ok(HttpResponse::Created().json(created))
}

/// List the zone's role grants, active and revoked (filter with `active=true`).
///
/// Only the zone's zone_admin, as a person. Revoked grants are listed with their revocation time.
/// Not written to the access log.
#[utoipa::path(
    operation_id = "list_zone_grants",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::ZonePath,
        GrantListParams
    ),
    responses(
        (status = 200, description = "A page of grants, newest first", body = ZoneGrantList),
        (status = 422, description = "`limit` out of range or `cursor` not one this service returned", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/zones/{zone}/grants")]
pub async fn list(
    state: web::Data<AppState>,
    here: InZone,
    params: Result<ApiQuery<GrantListParams>, ApiError>,
) -> Result<web::Json<ZoneGrantList>, ApiError> {
    here.read(&state, move |ZoneUnit { conn, ctx, .. }| {
        ctx.require(ZoneAction::ManageUsers)?;
        let ApiQuery(params) = params?;
        let (rows, next_cursor) = page_of(conn, ctx.tenant(), params)?;
        Ok(web::Json(ZoneGrantList {
            items: rows.into_iter().map(to_api).collect::<Result<_, _>>()?,
            next_cursor,
        }))
    })
    .await
}

/// Revoke a zone role grant (idempotent: revoking a revoked grant changes nothing).
///
/// Only the zone's zone_admin, as a person. A zone admin may not revoke their own last
/// zone_admin grant in the zone (409). Not written to the access log.
#[utoipa::path(
    operation_id = "revoke_zone_grant",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::ZonePath,
        ("grant" = String, Path, description = "Grant id")
    ),
    responses(
        (status = 204, description = "Revoked (or already revoked): the user's tokens lose the role at their next request"),
        (status = 409, description = "This is the caller's own last zone_admin grant in the zone", body = Problem, content_type = "application/problem+json")
    )
)]
#[delete("/v1/zones/{zone}/grants/{grant}")]
pub async fn revoke(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, grant_id) = path.into_inner();
    here.write(&state, move |ZoneUnit { conn, ctx, .. }| {
        ctx.require(ZoneAction::ManageUsers)?;
        accounts::revoke_grant(conn, ctx.tenant(), &grant_id, ctx.caller.user_id())
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

//! The zone's grant routes and shapes over the shared core (`super`): only
//! zone roles, and no `payor_id` (a zone role acts for no payor).

use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    Grant, GrantBody, GrantShape, MunicipalityGrant, Shown, create_in, list_in, revoke_at,
};
use crate::{
    api::{
        admin::{GrantListParams, GrantUser},
        caller::InZone,
        extract::{ApiJson, ApiQuery},
    },
    app::AppState,
    auth::Role,
    error::{ApiError, Problem},
    tenancy::ZoneAction,
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

impl GrantBody for ZoneGrantRequest {
    type Shape = ZoneGrant;
    fn ask(&self) -> Grant<'_> {
        Grant {
            email: &self.email,
            display_name: &self.display_name,
            role: &self.role,
            password: self.password.as_deref(),
        }
    }
    fn payor_id(&self) -> Option<String> {
        None
    }
}

impl GrantShape for ZoneGrant {
    type Created = CreatedZoneGrant;
    type List = ZoneGrantList;
    /// The municipality's shape without `payor_id` (a zone role has none).
    fn show(shown: Shown) -> Result<Self, ApiError> {
        let g = MunicipalityGrant::show(shown)?;
        Ok(ZoneGrant {
            id: g.id,
            role: g.role,
            user: g.user,
            created_at: g.created_at,
            created_by: g.created_by,
            revoked_at: g.revoked_at,
            active: g.active,
        })
    }
    fn created(grant: Self, user_created: bool) -> Self::Created {
        CreatedZoneGrant {
            grant,
            user_created,
        }
    }
    fn list(items: Vec<Self>, next_cursor: Option<String>) -> Self::List {
        ZoneGrantList { items, next_cursor }
    }
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
pub async fn create_for_zone(
    state: web::Data<AppState>,
    here: InZone,
    body: Result<ApiJson<ZoneGrantRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    create_in(&state, here, ZoneAction::ManageUsers, body).await
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
pub async fn list_for_zone(
    state: web::Data<AppState>,
    here: InZone,
    params: Result<ApiQuery<GrantListParams>, ApiError>,
) -> Result<web::Json<ZoneGrantList>, ApiError> {
    list_in::<ZoneGrant, _>(&state, here, ZoneAction::ManageUsers, params).await
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
pub async fn revoke_for_zone(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    revoke_at(&state, here, ZoneAction::ManageUsers, path).await
}

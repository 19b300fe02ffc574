//! The municipality's grant routes and shapes over the shared core
//! (`super`): only municipality roles; an operator's grant names its payor.

use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{Grant, GrantBody, GrantShape, Shown, create_in, list_in, revoke_at};
use crate::{
    api::{
        admin::{GrantListParams, GrantUser, utc},
        caller::InMunicipality,
        extract::{ApiJson, ApiQuery},
    },
    app::AppState,
    auth::Role,
    error::{ApiError, Problem},
    tenancy::Action,
};

/// A role to grant in the municipality, to an existing or a new user.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GrantRequest {
    /// The user's sign-in email; an account is created when none has it.
    #[schema(example = "deputy@montello.example")]
    pub email: String,
    /// Name shown to people, 1 to 200 characters (used only when the user is created now).
    #[schema(example = "Deputy Clerk")]
    pub display_name: String,
    /// A municipality role: `clerk_treasurer`, `municipal_staff`, `operator` or `marketplace_provider`.
    #[schema(value_type = Role)]
    pub role: String,
    /// The payor an `operator` acts for (required for an operator, refused for any other role).
    pub payor_id: Option<String>,
    /// Initial password (at least 12 characters), required when the user is created now;
    /// ignored for an existing user, whose password an administrator never sets.
    #[schema(format = Password)]
    pub password: Option<String>,
}

/// A role grant in a municipality.
#[derive(Debug, Serialize, ToSchema)]
pub struct MunicipalityGrant {
    /// Grant id.
    pub id: String,
    /// The role granted.
    pub role: Role,
    /// The user holding it.
    pub user: GrantUser,
    /// The payor an operator acts for.
    pub payor_id: Option<String>,
    /// When it was granted (UTC).
    pub created_at: DateTime<Utc>,
    /// User id of who granted it (null for grants made by the command line or the demo).
    pub created_by: Option<String>,
    /// When it was revoked (UTC); null while active.
    pub revoked_at: Option<DateTime<Utc>>,
    /// Whether it is in force (not revoked).
    pub active: bool,
}

/// The grant just made.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedMunicipalityGrant {
    /// The grant.
    #[serde(flatten)]
    pub grant: MunicipalityGrant,
    /// Whether the user account was created by this request (false: an existing account was granted the role).
    pub user_created: bool,
}

/// A page of grants.
#[derive(Debug, Serialize, ToSchema)]
pub struct MunicipalityGrantList {
    /// Grants on this page, newest first.
    pub items: Vec<MunicipalityGrant>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

impl GrantBody for GrantRequest {
    type Shape = MunicipalityGrant;
    fn ask(&self) -> Grant<'_> {
        Grant {
            email: &self.email,
            display_name: &self.display_name,
            role: &self.role,
            password: self.password.as_deref(),
        }
    }
    fn payor_id(&self) -> Option<String> {
        self.payor_id.clone()
    }
}

impl GrantShape for MunicipalityGrant {
    type Created = CreatedMunicipalityGrant;
    type List = MunicipalityGrantList;
    fn show((row, user): Shown) -> Result<Self, ApiError> {
        Ok(MunicipalityGrant {
            role: Role::parse(&row.role).map_err(ApiError::internal)?,
            id: row.id,
            user,
            payor_id: row.payor_id,
            created_at: utc(row.created_at),
            created_by: row.created_by,
            active: row.revoked_at.is_none(),
            revoked_at: row.revoked_at.map(utc),
        })
    }
    fn created(grant: Self, user_created: bool) -> Self::Created {
        CreatedMunicipalityGrant {
            grant,
            user_created,
        }
    }
    fn list(items: Vec<Self>, next_cursor: Option<String>) -> Self::List {
        MunicipalityGrantList { items, next_cursor }
    }
}

/// Grant a municipality role to a user (created when the email has no account).
///
/// Only the municipality's clerk-treasurer, as a person. Roles: `clerk_treasurer`,
/// `municipal_staff` (the clerk-treasurer's officers, employees and agents, Montello
/// room tax, confidentiality ¶), `operator` (for one payor, named by `payor_id`) or
/// `marketplace_provider`. An existing account keeps its password (the answer says
/// whether the user was created). Not written to the access log.
#[utoipa::path(
    operation_id = "create_municipality_grant",
    tag = "administration",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath),
    request_body = GrantRequest,
    responses(
        (status = 201, description = "Granted", body = CreatedMunicipalityGrant),
        (status = 409, description = "The user already holds this role (for an operator: for this payor) here", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (`role` not a municipality role, `payor_id` missing or not a payor here, `password` required or too weak, `email` malformed); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/grants")]
pub async fn create(
    state: web::Data<AppState>,
    here: InMunicipality,
    body: Result<ApiJson<GrantRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    create_in(&state, here, Action::ManageUsers, body).await
}

/// List the municipality's role grants, active and revoked (filter with `active=true`).
///
/// Only the municipality's clerk-treasurer, as a person. Revoked grants are listed with their
/// revocation time. Not written to the access log.
#[utoipa::path(
    operation_id = "list_municipality_grants",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        GrantListParams
    ),
    responses(
        (status = 200, description = "A page of grants, newest first", body = MunicipalityGrantList),
        (status = 422, description = "`limit` out of range or `cursor` not one this service returned", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/grants")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<GrantListParams>, ApiError>,
) -> Result<web::Json<MunicipalityGrantList>, ApiError> {
    list_in::<MunicipalityGrant, _>(&state, here, Action::ManageUsers, params).await
}

/// Revoke a role grant (idempotent: revoking a revoked grant changes nothing).
///
/// Only the municipality's clerk-treasurer, as a person. A clerk-treasurer may not
/// revoke their own last clerk_treasurer grant here (409), so the municipality always
/// keeps one. Not written to the access log.
#[utoipa::path(
    operation_id = "revoke_municipality_grant",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        ("grant" = String, Path, description = "Grant id")
    ),
    responses(
        (status = 204, description = "Revoked (or already revoked): the user's tokens lose the role at their next request"),
        (status = 409, description = "This is the caller's own last clerk_treasurer grant here", body = Problem, content_type = "application/problem+json")
    )
)]
#[delete("/v1/municipalities/{municipality}/grants/{grant}")]
pub async fn revoke(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    revoke_at(&state, here, Action::ManageUsers, path).await
}

//! `/v1/municipalities/{municipality}/grants`: a clerk-treasurer manages the
//! municipality's users and their role grants; and the grant handling both
//! tenants share (`zone_grants` is the zone's routes over the same core).
//!
//! Contract: clerk-treasurer only (`Action::ManageUsers`: staff and other
//! roles of the municipality 403, anyone else 404; a person, never an API
//! client). Only municipality roles (`clerk_treasurer`, `municipal_staff`,
//! `operator` with its `payor_id`, `marketplace_provider`) are granted here.
//! Granting finds the user by email or creates it with the given initial
//! password (`accounts::grant_role`); an existing user keeps its name and
//! password. Revoking sets `revoked_at` (the row stays, for the record);
//! nobody revokes their own last administrator grant (409,
//! `accounts::revoke_grant`), so a tenant is never left without one by accident.

use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    GrantListParams, GrantUser, Page, check_display_name, parse_role, user_of, users_by_id, utc,
};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::{ApiJson, ApiQuery},
    },
    app::AppState,
    auth::Role,
    db::{
        self, DbConn,
        grants::{GrantQuery, TenantGrant},
    },
    error::{ApiError, Problem},
    tenancy::{Action, Caller, Tenant},
    usecases::accounts::{self, GrantTarget, NewPassword},
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

fn to_api((row, user): Shown) -> Result<MunicipalityGrant, ApiError> {
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

/// A grant with the user holding it, as both tenants' APIs show it.
pub(super) type Shown = (TenantGrant, GrantUser);

/// What a grant request asks, parsed (both tenants).
pub(super) struct Grant<'a> {
    pub email: &'a str,
    pub display_name: &'a str,
    pub role: &'a str,
    pub password: Option<&'a str>,
}

/// Grant a role in the caller's tenant (`target`); the new grant with its user,
/// and whether the user was created now.
pub(super) fn grant(
    conn: &mut DbConn,
    caller: &Caller,
    target: GrantTarget,
    ask: Grant<'_>,
) -> Result<(Shown, bool), ApiError> {
    let role = parse_role(ask.role)?;
    let display_name = check_display_name(ask.display_name)?;
    let tenant = target.tenant();
    let granted = accounts::grant_role(
        conn,
        ask.email,
        &display_name,
        ask.password.map(NewPassword::Plain),
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
pub(super) fn page_of(
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
    let created = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ctx.require(Action::ManageUsers)?;
            let ApiJson(body) = body?;
            let target = GrantTarget::Municipality {
                id: ctx.municipality_id,
                payor_id: body.payor_id.clone(),
            };
            let ask = Grant {
                email: &body.email,
                display_name: &body.display_name,
                role: &body.role,
                password: body.password.as_deref(),
            };
            let (granted, user_created) = grant(conn, &ctx.caller, target, ask)?;
            Ok(CreatedMunicipalityGrant {
                grant: to_api(granted)?,
                user_created,
            })
        })
        .await?;
    Ok(HttpResponse::Created().json(created))
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
    here.read(&state, move |MunicipalUnit { conn, ctx, .. }| {
        ctx.require(Action::ManageUsers)?;
        let ApiQuery(params) = params?;
        let (rows, next_cursor) = page_of(conn, ctx.tenant(), params)?;
        Ok(web::Json(MunicipalityGrantList {
            items: rows.into_iter().map(to_api).collect::<Result<_, _>>()?,
            next_cursor,
        }))
    })
    .await
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
    let (_, grant_id) = path.into_inner();
    here.write(&state, move |MunicipalUnit { conn, ctx, .. }| {
        ctx.require(Action::ManageUsers)?;
        accounts::revoke_grant(conn, ctx.tenant(), &grant_id, ctx.caller.user_id())
    })
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

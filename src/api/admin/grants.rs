//! `/v1/municipalities/{municipality}/grants`: a clerk-treasurer manages the
//! municipality's users and their role grants.
//!
//! Contract: clerk-treasurer only (`Action::ManageUsers`: staff and other
//! roles of the municipality 403, anyone else 404). Only municipality roles
//! (`clerk_treasurer`, `municipal_staff`, `operator` with its `payor_id`,
//! `marketplace_provider`) are granted here. Granting finds the user by email
//! or creates it with the given initial password (`accounts::grant_role`); an
//! existing user keeps its name and password. Revoking sets `revoked_at`
//! (the row stays, for the record); a clerk-treasurer cannot revoke their own
//! last clerk-treasurer grant (409), so a municipality is never left without
//! one by accident.

use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    GrantListParams, GrantUser, Page, check_display_name, parse_role, user_of, users_by_id, utc,
};
use crate::{
    api::{caller::InMunicipality, extract::ApiJson, extract::ApiQuery},
    app::AppState,
    auth::Role,
    db::{self, grants::GrantQuery, models::MunicipalityGrantRow},
    error::{ApiError, Problem},
    tenancy::Action,
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

fn to_api(row: MunicipalityGrantRow, user: GrantUser) -> Result<MunicipalityGrant, ApiError> {
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

/// Grant a municipality role to a user (created when the email has no account).
#[utoipa::path(
    operation_id = "create_municipality_grant",
    tag = "administration",
    security(("bearer" = [])),
    params(("municipality" = String, Path, description = "Municipality slug, e.g. `montello`")),
    request_body = GrantRequest,
    responses(
        (status = 201, description = "Granted", body = CreatedMunicipalityGrant),
        (status = 400, description = "Malformed JSON, unknown field or wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here is not clerk_treasurer", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, or the caller has no role in it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The user already holds this role (for an operator: for this payor) here", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (`role` not a municipality role, `payor_id` missing or not a payor here, `password` required or too weak, `email` malformed); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/grants")]
pub async fn create(
    state: web::Data<AppState>,
    InMunicipality { ctx, municipality }: InMunicipality,
    body: Result<ApiJson<GrantRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    ctx.require(Action::ManageUsers)?;
    let ApiJson(body) = body?;
    let role = parse_role(&body.role)?;
    let display_name = check_display_name(&body.display_name)?;
    let created_by = ctx.caller.user_id().map(str::to_owned);
    let municipality_id = municipality.id;
    let created = state
        .db
        .run_scoped(ctx.db_scope(), move |conn| {
            let target = GrantTarget::Municipality {
                id: municipality_id,
                payor_id: body.payor_id.clone(),
            };
            let granted = accounts::grant_role(
                conn,
                &body.email,
                &display_name,
                body.password.as_deref().map(NewPassword::Plain),
                role,
                &target,
                created_by.as_deref(),
            )?;
            let row = db::grants::municipality_grant(conn, municipality_id, &granted.grant_id)?
                .ok_or_else(|| ApiError::internal("the new grant is not readable"))?;
            let user = GrantUser {
                id: granted.user.id,
                email: granted.user.email,
                display_name: granted.user.display_name,
            };
            Ok(CreatedMunicipalityGrant {
                grant: to_api(row, user)?,
                user_created: granted.created,
            })
        })
        .await?;
    Ok(HttpResponse::Created().json(created))
}

/// List the municipality's role grants, active and revoked (filter with `active=true`).
#[utoipa::path(
    operation_id = "list_municipality_grants",
    tag = "administration",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        GrantListParams
    ),
    responses(
        (status = 200, description = "A page of grants, newest first", body = MunicipalityGrantList),
        (status = 400, description = "Unparseable parameter", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here is not clerk_treasurer", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, or the caller has no role in it", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` out of range or `cursor` not one this service returned", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/grants")]
pub async fn list(
    state: web::Data<AppState>,
    InMunicipality { ctx, municipality }: InMunicipality,
    params: Result<ApiQuery<GrantListParams>, ApiError>,
) -> Result<web::Json<MunicipalityGrantList>, ApiError> {
    ctx.require(Action::ManageUsers)?;
    let ApiQuery(params) = params?;
    let page = Page::parse(params.limit, params.cursor.as_deref())?;
    let query = GrantQuery {
        active_only: params.active == Some(true),
        before: page.before.clone(),
        limit: i64::from(page.limit),
    };
    let municipality_id = municipality.id;
    let rows = state
        .db
        .run_scoped(ctx.db_scope(), move |conn| {
            let rows = db::grants::municipality_page(conn, municipality_id, &query)?;
            let users = users_by_id(conn, rows.iter().map(|r| r.user_id.clone()))?;
            rows.into_iter()
                .map(|r| {
                    let user = user_of(&users, &r.user_id)?;
                    Ok((r.created_at, to_api(r, user)?))
                })
                .collect::<Result<Vec<_>, ApiError>>()
        })
        .await?;
    let next_cursor = page.next(&rows, |(at, g)| (*at, g.id.clone()));
    Ok(web::Json(MunicipalityGrantList {
        items: rows.into_iter().map(|(_, g)| g).collect(),
        next_cursor,
    }))
}

/// Revoke a role grant (idempotent: revoking a revoked grant changes nothing).
#[utoipa::path(
    operation_id = "revoke_municipality_grant",
    tag = "administration",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        ("grant" = String, Path, description = "Grant id")
    ),
    responses(
        (status = 204, description = "Revoked (or already revoked): the user's tokens lose the role at their next request"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here is not clerk_treasurer", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality or grant, or the caller has no role in the municipality", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "This is the caller's own last clerk_treasurer grant here", body = Problem, content_type = "application/problem+json")
    )
)]
#[delete("/v1/municipalities/{municipality}/grants/{grant}")]
pub async fn revoke(
    state: web::Data<AppState>,
    InMunicipality { ctx, municipality }: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    ctx.require(Action::ManageUsers)?;
    let (_, grant_id) = path.into_inner();
    let caller_id = ctx.caller.user_id().map(str::to_owned);
    let municipality_id = municipality.id;
    state
        .db
        .run_scoped(ctx.db_scope(), move |conn| {
            let grant = db::grants::municipality_grant(conn, municipality_id, &grant_id)?
                .ok_or(ApiError::NotFound("grant"))?;
            if grant.revoked_at.is_some() {
                return Ok(());
            }
            let clerk = Role::ClerkTreasurer.as_str();
            if grant.role == clerk
                && caller_id.as_deref() == Some(grant.user_id.as_str())
                && db::grants::count_active_in_municipality(
                    conn,
                    municipality_id,
                    &grant.user_id,
                    clerk,
                    None,
                )? <= 1
            {
                return Err(ApiError::Conflict(
                    "this is your last clerk_treasurer grant here: another clerk-treasurer must revoke it"
                        .into(),
                ));
            }
            db::grants::revoke_in_municipality(
                conn,
                municipality_id,
                &grant_id,
                db::identity::now(),
            )?;
            Ok(())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

//! `/v1/zones/{zone}/grants`: a zone admin manages the zone's people and
//! their zone roles.
//!
//! Contract: zone_admin of this zone only (`ZoneAction::ManageUsers`: other
//! roles related to the zone 403, anyone else 404). Only zone roles
//! (`commission_member`, `tourism_entity`, `zone_admin`) are granted here: a
//! zone admin can never grant a municipal role, so it cannot reach
//! confidential operator data through this API. Same user handling and
//! revocation rules as municipality grants (a zone admin cannot revoke their
//! own last zone_admin grant: 409).

use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{
    GrantListParams, GrantUser, Page, check_display_name, parse_role, user_of, users_by_id, utc,
};
use crate::{
    api::{caller::InZone, extract::ApiJson, extract::ApiQuery},
    app::AppState,
    auth::Role,
    db::{self, grants::GrantQuery, models::ZoneGrantRow},
    error::{ApiError, Problem},
    tenancy::ZoneAction,
    usecases::accounts::{self, GrantTarget, NewPassword},
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

fn to_api(row: ZoneGrantRow, user: GrantUser) -> Result<ZoneGrant, ApiError> {
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
#[utoipa::path(
    operation_id = "create_zone_grant",
    tag = "administration",
    security(("bearer" = [])),
    params(("zone" = String, Path, description = "Zone slug, e.g. `marquette-county`")),
    request_body = ZoneGrantRequest,
    responses(
        (status = 201, description = "Granted", body = CreatedZoneGrant),
        (status = 400, description = "Malformed JSON, unknown field or wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller is related to the zone but not its zone_admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such zone, or the caller has no relation to it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The user already holds this role in the zone", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (`role` not a zone role, `password` required or too weak, `email` malformed); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/grants")]
pub async fn create(
    state: web::Data<AppState>,
    InZone { ctx, zone }: InZone,
    body: Result<ApiJson<ZoneGrantRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    ctx.require(ZoneAction::ManageUsers)?;
    let ApiJson(body) = body?;
    let role = parse_role(&body.role)?;
    let display_name = check_display_name(&body.display_name)?;
    let created_by = ctx.caller.user_id().map(str::to_owned);
    let zone_id = zone.id;
    let created = state
        .db
        .run_scoped(ctx.db_scope(), move |conn| {
            let granted = accounts::grant_role(
                conn,
                &body.email,
                &display_name,
                body.password.as_deref().map(NewPassword::Plain),
                role,
                &GrantTarget::Zone { id: zone_id },
                created_by.as_deref(),
            )?;
            let row = db::grants::zone_grant(conn, zone_id, &granted.grant_id)?
                .ok_or_else(|| ApiError::internal("the new grant is not readable"))?;
            let user = GrantUser {
                id: granted.user.id,
                email: granted.user.email,
                display_name: granted.user.display_name,
            };
            Ok(CreatedZoneGrant {
                grant: to_api(row, user)?,
                user_created: granted.created,
            })
        })
        .await?;
    Ok(HttpResponse::Created().json(created))
}

/// List the zone's role grants, active and revoked (filter with `active=true`).
#[utoipa::path(
    operation_id = "list_zone_grants",
    tag = "administration",
    security(("bearer" = [])),
    params(
        ("zone" = String, Path, description = "Zone slug, e.g. `marquette-county`"),
        GrantListParams
    ),
    responses(
        (status = 200, description = "A page of grants, newest first", body = ZoneGrantList),
        (status = 400, description = "Unparseable parameter", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller is related to the zone but not its zone_admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such zone, or the caller has no relation to it", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` out of range or `cursor` not one this service returned", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/zones/{zone}/grants")]
pub async fn list(
    state: web::Data<AppState>,
    InZone { ctx, zone }: InZone,
    params: Result<ApiQuery<GrantListParams>, ApiError>,
) -> Result<web::Json<ZoneGrantList>, ApiError> {
    ctx.require(ZoneAction::ManageUsers)?;
    let ApiQuery(params) = params?;
    let page = Page::parse(params.limit, params.cursor.as_deref())?;
    let query = GrantQuery {
        active_only: params.active == Some(true),
        before: page.before.clone(),
        limit: i64::from(page.limit),
    };
    let zone_id = zone.id;
    let rows = state
        .db
        .run_scoped(ctx.db_scope(), move |conn| {
            let rows = db::grants::zone_page(conn, zone_id, &query)?;
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
    Ok(web::Json(ZoneGrantList {
        items: rows.into_iter().map(|(_, g)| g).collect(),
        next_cursor,
    }))
}

/// Revoke a zone role grant (idempotent: revoking a revoked grant changes nothing).
#[utoipa::path(
    operation_id = "revoke_zone_grant",
    tag = "administration",
    security(("bearer" = [])),
    params(
        ("zone" = String, Path, description = "Zone slug, e.g. `marquette-county`"),
        ("grant" = String, Path, description = "Grant id")
    ),
    responses(
        (status = 204, description = "Revoked (or already revoked): the user's tokens lose the role at their next request"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller is related to the zone but not its zone_admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such zone or grant, or the caller has no relation to the zone", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "This is the caller's own last zone_admin grant in the zone", body = Problem, content_type = "application/problem+json")
    )
)]
#[delete("/v1/zones/{zone}/grants/{grant}")]
pub async fn revoke(
    state: web::Data<AppState>,
    InZone { ctx, zone }: InZone,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    ctx.require(ZoneAction::ManageUsers)?;
    let (_, grant_id) = path.into_inner();
    let caller_id = ctx.caller.user_id().map(str::to_owned);
    let zone_id = zone.id;
    state
        .db
        .run_scoped(ctx.db_scope(), move |conn| {
            let grant = db::grants::zone_grant(conn, zone_id, &grant_id)?
                .ok_or(ApiError::NotFound("grant"))?;
            if grant.revoked_at.is_some() {
                return Ok(());
            }
            let admin = Role::ZoneAdmin.as_str();
            if grant.role == admin
                && caller_id.as_deref() == Some(grant.user_id.as_str())
                && db::grants::count_active_in_zone(conn, zone_id, &grant.user_id, admin)? <= 1
            {
                return Err(ApiError::Conflict(
                    "this is your last zone_admin grant in this zone: another zone admin must revoke it"
                        .into(),
                ));
            }
            db::grants::revoke_in_zone(conn, zone_id, &grant_id, db::identity::now())?;
            Ok(())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

//! `/v1/municipalities/{municipality}/api-clients` and
//! `/v1/zones/{zone}/api-clients`: third-party apps (OAuth2 client
//! credentials), registered by a clerk-treasurer or a zone admin.
//!
//! Contract: a client is bound to the one tenant it was registered in and
//! holds the scopes given at registration; `POST /v1/oauth/token` issues its
//! tokens. The secret is generated here (`auth::opaque::new_secret`), shown
//! once in the 201 response and stored only as its digest: no list or read
//! ever returns it. A zone client may hold only the scopes `auth::roles`
//! allows a zone (`ApiScope::ZONE`: none reads municipal confidential data).
//! Only a person registers or revokes a client (`needs_person` of the action).
//! Revoking stops the client's existing tokens at their next request.
//!
//! The core (request and response types, register/list/revoke over a
//! [`Tenant`]) is here; the handlers of both tenant kinds, twin by twin,
//! in `routes`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{GrantListParams, Page, utc};
use crate::{
    api::caller::Authorised,
    auth::{ApiScope, opaque, parse_scopes, roles::format_scopes},
    db::{self, models::ApiClientRow},
    error::{ApiError, FieldError},
    tenancy::Tenant,
};

mod routes;

pub use routes::*;

/// A third-party app to register.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ApiClientRequest {
    /// A name for people to recognise the app by, 1 to 100 characters.
    #[schema(example = "Booking platform sync")]
    pub name: String,
    /// The scopes the app may ask for, at least one, e.g. `["payors:read"]`.
    #[schema(value_type = Vec<ApiScope>)]
    pub scopes: Vec<String>,
}

/// A registered app, with its secret: the only time the secret is shown.
#[derive(Serialize, ToSchema)]
pub struct CreatedApiClient {
    /// Client id: send it as `client_id` to `POST /v1/oauth/token`.
    pub client_id: String,
    /// Client secret: shown once, now; only its digest is stored. Keep it like a password.
    pub client_secret: String,
    /// The app's name.
    pub name: String,
    /// The scopes it holds.
    pub scopes: Vec<ApiScope>,
    /// When it was registered (UTC).
    pub created_at: DateTime<Utc>,
}

/// A registered app (never its secret).
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiClient {
    /// Client id.
    pub client_id: String,
    /// The app's name.
    pub name: String,
    /// The scopes it holds.
    pub scopes: Vec<ApiScope>,
    /// When it was registered (UTC).
    pub created_at: DateTime<Utc>,
    /// User id of who registered it.
    pub created_by: String,
    /// When it was revoked (UTC); null while active.
    pub revoked_at: Option<DateTime<Utc>>,
    /// Whether its tokens are honoured (not revoked).
    pub active: bool,
}

/// A page of API clients.
#[derive(Debug, Serialize, ToSchema)]
pub struct ApiClientList {
    /// Clients on this page, newest first.
    pub items: Vec<ApiClient>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// Check a registration, reporting every bad field at once.
fn parse_request(
    body: &ApiClientRequest,
    tenant: Tenant,
) -> Result<(String, Vec<ApiScope>), ApiError> {
    let mut errors = Vec::new();
    let name = body.name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        errors.push(FieldError::new(
            "name",
            "length",
            "give 1 to 100 characters",
        ));
    }
    if body.scopes.is_empty() {
        errors.push(FieldError::new(
            "scopes",
            "not_empty",
            "give at least one scope",
        ));
    }
    let mut scopes = Vec::new();
    for (i, text) in body.scopes.iter().enumerate() {
        let field = format!("scopes[{i}]");
        match ApiScope::parse(text) {
            None => errors.push(FieldError::new(
                field,
                "known_scope",
                format!(
                    "unknown scope; expected one of: {}",
                    format_scopes(&ApiScope::ALL).replace(' ', ", ")
                ),
            )),
            Some(scope) if !scope.allowed_in(tenant.kind()) => errors.push(FieldError::new(
                field,
                "zone_scope",
                format!(
                    "a zone's client may hold only {}",
                    format_scopes(&ApiScope::ZONE).replace(' ', ", ")
                ),
            )),
            Some(scope) if !scopes.contains(&scope) => scopes.push(scope),
            Some(_) => {}
        }
    }
    if errors.is_empty() {
        Ok((name.to_owned(), scopes))
    } else {
        Err(ApiError::Validation(errors))
    }
}

fn to_api(row: ApiClientRow) -> Result<ApiClient, ApiError> {
    Ok(ApiClient {
        scopes: parse_scopes(&row.scopes).map_err(ApiError::internal)?,
        client_id: row.id,
        name: row.name,
        created_at: utc(row.created_at),
        created_by: row.created_by,
        active: row.revoked_at.is_none(),
        revoked_at: row.revoked_at.map(utc),
    })
}

/// Register a client of the caller's tenant, recorded as registered by the
/// caller, who must be a person (the work of `create_in`).
fn register(
    Authorised {
        conn,
        tenant,
        caller,
    }: Authorised<'_>,
    body: ApiClientRequest,
) -> Result<CreatedApiClient, ApiError> {
    let created_by = caller.person_id()?;
    let (name, scopes) = parse_request(&body, tenant)?;
    let (secret, digest) = opaque::try_new_secret().map_err(ApiError::internal)?;
    let row = ApiClientRow {
        id: db::identity::new_id(),
        municipality_id: tenant.municipality_id(),
        zone_id: tenant.zone_id(),
        name,
        secret_digest: digest,
        scopes: format_scopes(&scopes),
        created_at: db::identity::now(),
        created_by: created_by.to_owned(),
        revoked_at: None,
    };
    db::identity::insert_api_client(conn, &row)?;
    Ok(CreatedApiClient {
        client_id: row.id,
        client_secret: secret.expose().to_owned(),
        name: row.name,
        scopes,
        created_at: utc(row.created_at),
    })
}

/// A page of the tenant's clients (the work of `list_in`).
fn list_of(
    Authorised { conn, tenant, .. }: Authorised<'_>,
    params: GrantListParams,
) -> Result<ApiClientList, ApiError> {
    let page = Page::parse(params.limit, params.cursor.as_deref())?;
    let rows = db::api_clients::page(
        conn,
        tenant,
        page.before.clone(),
        i64::from(page.limit),
        params.active == Some(true),
    )?;
    let next_cursor = page.next(&rows, |r| (r.created_at, r.id.clone()));
    Ok(ApiClientList {
        items: rows.into_iter().map(to_api).collect::<Result<_, _>>()?,
        next_cursor,
    })
}

/// Revoke a client of the tenant (idempotent; the work of `revoke_at`); 404
/// when the tenant has no such client.
fn revoke_in(
    Authorised { conn, tenant, .. }: Authorised<'_>,
    client_id: String,
) -> Result<(), ApiError> {
    db::api_clients::get(conn, tenant, &client_id)?.ok_or(ApiError::NotFound("API client"))?;
    db::api_clients::revoke(conn, tenant, &client_id, db::identity::now())?;
    Ok(())
}

//! Administration: role grants (municipality and zone), zone membership and
//! API clients.
//!
//! Contract: every handler authorises through the tenant context first
//! (`MunicipalityContext::require` or `ZoneContext::require`; 404 without a
//! relation to the tenant, 403 with one), then runs one transaction scoped to
//! the tenant, then answers. Nothing here reads confidential payor data, and
//! nothing is logged: emails, names and secrets stay out of the log.

#[macro_use]
mod twins;

mod answers;
pub mod api_clients;
pub mod grants;
pub mod members;

pub use answers::PageRefused;

use std::collections::HashMap;

use actix_web::{HttpResponse, web};
use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    caller::{Authorised, InTenant, Place},
    extract::{ApiJson, ApiQuery},
    pagination::{TimeCursor, validate_limit},
};
use crate::{
    app::AppState,
    auth::Role,
    db::{self, DbConn},
    error::ApiError,
};

/// Create in the path's tenant: authorise `action`, then, in one write unit
/// of work, `work` on the request body; 201 with what it made.
pub(crate) async fn create_in<P, B, T, W>(
    state: &AppState,
    here: InTenant<P>,
    action: P::Action,
    body: Result<ApiJson<B>, ApiError>,
    work: W,
) -> Result<HttpResponse, ApiError>
where
    P: Place,
    B: Send + 'static,
    T: Serialize + Send + 'static,
    W: for<'c> FnOnce(Authorised<'c>, B) -> Result<T, ApiError> + Send + 'static,
{
    let created = here
        .write_as(state, action, move |unit| {
            let ApiJson(body) = body?;
            work(unit, body)
        })
        .await?;
    Ok(HttpResponse::Created().json(created))
}

/// A page of the path's tenant: authorise `action`, then, in one read unit of
/// work, `work` on the paging parameters.
pub(crate) async fn list_in<P, T, W>(
    state: &AppState,
    here: InTenant<P>,
    action: P::Action,
    params: Result<ApiQuery<GrantListParams>, ApiError>,
    work: W,
) -> Result<web::Json<T>, ApiError>
where
    P: Place,
    T: Send + 'static,
    W: for<'c> FnOnce(Authorised<'c>, GrantListParams) -> Result<T, ApiError> + Send + 'static,
{
    here.read_as(state, action, move |unit| {
        let ApiQuery(params) = params?;
        work(unit, params).map(web::Json)
    })
    .await
}

/// Revoke what the path's last segment names in the path's tenant: authorise
/// `action`, then, in one write unit of work, `work` on that id; 204.
pub(crate) async fn revoke_at<P, W>(
    state: &AppState,
    here: InTenant<P>,
    action: P::Action,
    path: web::Path<(String, String)>,
    work: W,
) -> Result<HttpResponse, ApiError>
where
    P: Place,
    W: for<'c> FnOnce(Authorised<'c>, String) -> Result<(), ApiError> + Send + 'static,
{
    let (_, id) = path.into_inner();
    here.write_as(state, action, move |unit| work(unit, id))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The person a grant or disclosure names.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct GrantUser {
    /// User id.
    pub id: String,
    /// Sign-in email (lowercase).
    pub email: String,
    /// Name shown to people.
    pub display_name: String,
}

/// Paging and filter parameters of a list of grants or API clients.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct GrantListParams {
    /// `true`: only active (not revoked) items; absent or `false`: active and revoked.
    pub active: Option<bool>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

/// A validated page request: size and newest-first keyset position.
pub(crate) struct Page {
    pub limit: u32,
    pub before: Option<(NaiveDateTime, String)>,
}

impl Page {
    pub(crate) fn parse(limit: Option<u32>, cursor: Option<&str>) -> Result<Self, ApiError> {
        let limit = validate_limit(limit)?;
        let before = cursor
            .map(TimeCursor::parse)
            .transpose()?
            .map(|c| (c.at, c.id));
        Ok(Self { limit, before })
    }

    /// The `next_cursor` after `rows` (a full page may have a successor).
    pub(crate) fn next<T>(
        &self,
        rows: &[T],
        key: impl Fn(&T) -> (NaiveDateTime, String),
    ) -> Option<String> {
        (rows.len() == self.limit as usize)
            .then(|| rows.last())
            .flatten()
            .map(|r| {
                let (at, id) = key(r);
                TimeCursor::new(at, id).encode()
            })
    }
}

/// A stored instant as RFC 3339 UTC.
pub(crate) fn utc(at: NaiveDateTime) -> DateTime<Utc> {
    at.and_utc()
}

/// The users with these ids, by id.
pub(crate) fn users_by_id(
    conn: &mut DbConn,
    ids: impl IntoIterator<Item = String>,
) -> Result<HashMap<String, GrantUser>, ApiError> {
    let mut ids: Vec<String> = ids.into_iter().collect();
    ids.sort();
    ids.dedup();
    Ok(db::identity::users_by_ids(conn, &ids)?
        .into_iter()
        .map(|u| {
            (
                u.id.clone(),
                GrantUser {
                    id: u.id,
                    email: u.email,
                    display_name: u.display_name,
                },
            )
        })
        .collect())
}

/// The user `id` from `users`, or an internal error (grants reference users by foreign key).
pub(crate) fn user_of(users: &HashMap<String, GrantUser>, id: &str) -> Result<GrantUser, ApiError> {
    users
        .get(id)
        .cloned()
        .ok_or_else(|| ApiError::internal("a grant names a user that does not exist"))
}

/// Parse a role name: an unknown one is a 422 naming `role`.
pub(crate) fn parse_role(name: &str) -> Result<Role, ApiError> {
    Role::parse(name).map_err(|e| ApiError::invalid("role", "known_role", e.to_string()))
}

/// A display name: trimmed, 1 to 200 characters.
pub(crate) fn check_display_name(name: &str) -> Result<String, ApiError> {
    let trimmed = name.trim();
    if trimmed.is_empty() || trimmed.chars().count() > 200 {
        return Err(ApiError::invalid(
            "display_name",
            "length",
            "give 1 to 200 characters",
        ));
    }
    Ok(trimmed.to_owned())
}

//! The zone's API-client handlers (zone admin): thin wrappers over the
//! tenant-generic core in the parent module.

use actix_web::{HttpResponse, delete, get, post, web};

use super::*;

/// Register an API client of the zone (scopes `policies:read`, `quotes:write` only); the response shows its secret, once.
///
/// Only the zone's zone_admin, as a person. A zone client may hold only the scopes that
/// read no confidential record (`policies:read`, `quotes:write`): the zone has no
/// payors of its own. Not written to the access log.
#[utoipa::path(
    operation_id = "create_zone_api_client",
    tag = "administration",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath),
    request_body = ApiClientRequest,
    responses(
        (status = 201, description = "Registered; `client_secret` is never shown again", body = CreatedApiClient),
        (status = 422, description = "`name` empty or too long, `scopes` empty, `scopes[i]` unknown or not a zone scope; `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/api-clients")]
pub async fn create_for_zone(
    state: web::Data<AppState>,
    here: InZone,
    body: Result<ApiJson<ApiClientRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    create_in(&state, here, ZoneAction::ManageApiClients, body).await
}

/// List the zone's API clients (never their secrets).
///
/// Only the zone's zone_admin, as a person. Revoked clients are listed too; secrets never are. Not
/// written to the access log.
#[utoipa::path(
    operation_id = "list_zone_api_clients",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::ZonePath,
        GrantListParams
    ),
    responses(
        (status = 200, description = "A page of clients, newest first", body = ApiClientList),
        (status = 422, description = "`limit` out of range or `cursor` not one this service returned", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/zones/{zone}/api-clients")]
pub async fn list_for_zone(
    state: web::Data<AppState>,
    here: InZone,
    params: Result<ApiQuery<GrantListParams>, ApiError>,
) -> Result<web::Json<ApiClientList>, ApiError> {
    list_in(&state, here, ZoneAction::ManageApiClients, params).await
}

/// Revoke an API client of the zone (idempotent); its tokens stop working.
///
/// Only the zone's zone_admin, as a person. Tokens already issued to the client are
/// refused from their next request. Not written to the access log.
#[utoipa::path(
    operation_id = "revoke_zone_api_client",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::ZonePath,
        ("client" = String, Path, description = "Client id")
    ),
    responses(
        (status = 204, description = "Revoked (or already revoked)")
    )
)]
#[delete("/v1/zones/{zone}/api-clients/{client}")]
pub async fn revoke_for_zone(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    revoke_at(&state, here, ZoneAction::ManageApiClients, path).await
}

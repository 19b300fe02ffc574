//! The API-client routes of a municipality (clerk-treasurer) and of a zone
//! (zone admin), twin by twin, over the tenant-generic core (`super`).

use actix_web::{HttpResponse, delete, get, post, web};

use super::{ApiClientList, ApiClientRequest, CreatedApiClient, list_of, register, revoke_in};
use crate::{
    api::{
        admin::{GrantListParams, PageRefused, create_in, list_in, revoke_at},
        extract::{ApiJson, ApiQuery},
    },
    error::{ApiError, Problem},
};

tenant_twins! {
    post create_in(body, register) ManageApiClients, params(), responses(
        (status = 201, description = "Registered; `client_secret` is never shown again", body = CreatedApiClient)
    );
    /// Register an API client of the municipality; the response shows its secret, once.
    ///
    /// Only the municipality's clerk-treasurer, as a person (an API client may not register
    /// another). The client is confined to this municipality and the scopes given; the
    /// secret is stored hashed. Not written to the access log (no confidential record).
    municipality create_for_municipality(Result<ApiJson<ApiClientRequest>, ApiError>) -> HttpResponse,
    "/v1/municipalities/{municipality}/api-clients", "create_municipality_api_client",
    request_body = ApiClientRequest, responses(
        (status = 422, description = "`name` empty or too long, `scopes` empty, or `scopes[i]` unknown; `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    );
    /// Register an API client of the zone (scopes `policies:read`, `quotes:write` only); the response shows its secret, once.
    ///
    /// Only the zone's zone_admin, as a person. A zone client may hold only the scopes that
    /// read no confidential record (`policies:read`, `quotes:write`): the zone has no
    /// payors of its own. Not written to the access log.
    zone create_for_zone(Result<ApiJson<ApiClientRequest>, ApiError>) -> HttpResponse,
    "/v1/zones/{zone}/api-clients", "create_zone_api_client",
    request_body = ApiClientRequest, responses(
        (status = 422, description = "`name` empty or too long, `scopes` empty, `scopes[i]` unknown or not a zone scope; `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    );
}

tenant_twins! {
    get list_in(params, list_of) ManageApiClients, params(GrantListParams), responses(
        (status = 200, description = "A page of clients, newest first", body = ApiClientList),
        PageRefused
    );
    /// List the municipality's API clients (never their secrets).
    ///
    /// Only the municipality's clerk-treasurer, as a person. Revoked clients are listed too; secrets
    /// never are. Not written to the access log.
    municipality list_for_municipality(Result<ApiQuery<GrantListParams>, ApiError>) -> web::Json<ApiClientList>,
    "/v1/municipalities/{municipality}/api-clients", "list_municipality_api_clients";
    /// List the zone's API clients (never their secrets).
    ///
    /// Only the zone's zone_admin, as a person. Revoked clients are listed too; secrets never are. Not
    /// written to the access log.
    zone list_for_zone(Result<ApiQuery<GrantListParams>, ApiError>) -> web::Json<ApiClientList>,
    "/v1/zones/{zone}/api-clients", "list_zone_api_clients";
}

tenant_twins! {
    delete revoke_at(path, revoke_in) ManageApiClients,
    params(("client" = String, Path, description = "Client id")), responses(
        (status = 204, description = "Revoked (or already revoked)")
    );
    /// Revoke an API client of the municipality (idempotent); its tokens stop working.
    ///
    /// Only the municipality's clerk-treasurer, as a person. Tokens already issued to the
    /// client are refused from their next request. Not written to the access log.
    municipality revoke_for_municipality(web::Path<(String, String)>) -> HttpResponse,
    "/v1/municipalities/{municipality}/api-clients/{client}", "revoke_municipality_api_client";
    /// Revoke an API client of the zone (idempotent); its tokens stop working.
    ///
    /// Only the zone's zone_admin, as a person. Tokens already issued to the client are
    /// refused from their next request. Not written to the access log.
    zone revoke_for_zone(web::Path<(String, String)>) -> HttpResponse,
    "/v1/zones/{zone}/api-clients/{client}", "revoke_zone_api_client";
}

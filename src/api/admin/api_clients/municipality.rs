//! The municipality's API-client handlers (clerk-treasurer): thin wrappers over
//! the tenant-generic core in the parent module.

use actix_web::{HttpResponse, delete, get, post, web};

use super::*;

/// Register an API client of the municipality; the response shows its secret, once.
///
/// Only the municipality's clerk-treasurer, as a person (an API client may not register
/// another). The client is confined to this municipality and the scopes given; the
/// secret is stored hashed. Not written to the access log (no confidential record).
#[utoipa::path(
    operation_id = "create_municipality_api_client",
    tag = "administration",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath),
    request_body = ApiClientRequest,
    responses(
        (status = 201, description = "Registered; `client_secret` is never shown again", body = CreatedApiClient),
        (status = 422, description = "`name` empty or too long, `scopes` empty, or `scopes[i]` unknown; `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/api-clients")]
pub async fn create_for_municipality(
    state: web::Data<AppState>,
    here: InMunicipality,
    body: Result<ApiJson<ApiClientRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    create_in(&state, here, Action::ManageApiClients, body).await
}

/// List the municipality's API clients (never their secrets).
///
/// Only the municipality's clerk-treasurer, as a person. Revoked clients are listed too; secrets
/// never are. Not written to the access log.
#[utoipa::path(
    operation_id = "list_municipality_api_clients",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        GrantListParams
    ),
    responses(
        (status = 200, description = "A page of clients, newest first", body = ApiClientList),
        (status = 422, description = "`limit` out of range or `cursor` not one this service returned", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/api-clients")]
pub async fn list_for_municipality(
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<GrantListParams>, ApiError>,
) -> Result<web::Json<ApiClientList>, ApiError> {
    list_in(&state, here, Action::ManageApiClients, params).await
}

/// Revoke an API client of the municipality (idempotent); its tokens stop working.
///
/// Only the municipality's clerk-treasurer, as a person. Tokens already issued to the
/// client are refused from their next request. Not written to the access log.
#[utoipa::path(
    operation_id = "revoke_municipality_api_client",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        ("client" = String, Path, description = "Client id")
    ),
    responses(
        (status = 204, description = "Revoked (or already revoked)")
    )
)]
#[delete("/v1/municipalities/{municipality}/api-clients/{client}")]
pub async fn revoke_for_municipality(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    revoke_at(&state, here, Action::ManageApiClients, path).await
}

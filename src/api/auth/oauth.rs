//! `POST /v1/oauth/token`: the OAuth 2.0 client credentials grant (RFC 6749 §4.4).
//!
//! Contract: the client authenticates with HTTP Basic or with `client_id` and
//! `client_secret` in the form body (`application/x-www-form-urlencoded`; JSON
//! is accepted too). The token carries the requested scopes (all the client
//! holds when `scope` is absent) and is confined to the client's one
//! municipality or zone. Errors are problem+json with the RFC 6749 `error`
//! member (`invalid_client`, `invalid_scope`, `unsupported_grant_type`,
//! `invalid_request`). Unknown parameters are ignored, as RFC 6749 requires.

use actix_web::{HttpRequest, http::header, post, web};
use base64::Engine;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    app::AppState,
    auth::{TenantHint, TokenKind, opaque, parse_scopes, roles::format_scopes},
    db::{self, Mode},
    error::{ApiError, Problem},
    tenancy::DbScope,
};

/// The client credentials grant request.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ClientCredentialsRequest {
    /// Must be `client_credentials`.
    pub grant_type: Option<String>,
    /// The client id (or send HTTP Basic credentials).
    pub client_id: Option<String>,
    /// The client secret (or send HTTP Basic credentials).
    pub client_secret: Option<String>,
    /// Space-separated scopes wanted, e.g. `payors:read`; default: every scope the client holds.
    pub scope: Option<String>,
}

/// An access token for a client.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClientTokenResponse {
    /// The access token (a JWT).
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: &'static str,
    /// Seconds until it expires.
    pub expires_in: u64,
    /// The scopes granted, space-separated.
    pub scope: String,
}

fn oauth(status: u16, error: &'static str, detail: &str) -> ApiError {
    ApiError::OAuth(status, error, detail.to_owned())
}

fn basic_credentials(req: &HttpRequest) -> Option<(String, String)> {
    let value = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (id, secret) = text.split_once(':')?;
    Some((id.to_owned(), secret.to_owned()))
}

/// A refused control character keeps its 422 naming the field (the API's one
/// edge rule); any other parse failure is OAuth's `invalid_request`.
fn as_invalid_request(what: &str, err: ApiError) -> ApiError {
    match err {
        ApiError::Validation(_) => err,
        other => oauth(
            400,
            "invalid_request",
            &format!("{what}: {}", other.to_problem().detail),
        ),
    }
}

fn parse_body(req: &HttpRequest, body: &[u8]) -> Result<ClientCredentialsRequest, ApiError> {
    let ctype = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    if ctype.starts_with("application/x-www-form-urlencoded") {
        crate::api::extract::parse_form(body).map_err(|e| as_invalid_request("form body", e))
    } else if ctype.starts_with("application/json") {
        crate::api::extract::parse_json(body).map_err(|e| as_invalid_request("JSON body", e))
    } else {
        Err(ApiError::UnsupportedMediaType)
    }
}

/// Get an access token for a registered API client.
///
/// Public (the client authenticates with its id and secret, in the body or with HTTP
/// Basic): the OAuth 2.0 client credentials grant (RFC 6749 § 4.4). The token is
/// confined to the client's one municipality or zone and to the scopes asked for, among
/// those registered. Not written to the access log.
#[utoipa::path(
    operation_id = "client_credentials_token",
    tag = "auth",
    request_body(content = ClientCredentialsRequest, content_type = "application/x-www-form-urlencoded"),
    responses(
        (status = 200, description = "An access token confined to the client's tenant and scopes", body = ClientTokenResponse),
        (status = 400, description = "`unsupported_grant_type`, `invalid_scope` or `invalid_request`", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "`invalid_client`: unknown client, wrong secret or revoked", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body neither form-encoded nor JSON", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/oauth/token")]
pub async fn client_credentials(
    req: HttpRequest,
    state: web::Data<AppState>,
    body: web::Bytes,
) -> Result<web::Json<ClientTokenResponse>, ApiError> {
    let form = parse_body(&req, &body)?;
    if form.grant_type.as_deref() != Some("client_credentials") {
        return Err(oauth(
            400,
            "unsupported_grant_type",
            "grant_type must be client_credentials",
        ));
    }
    let (client_id, secret) = match (basic_credentials(&req), form.client_id, form.client_secret) {
        (Some(creds), _, _) => creds,
        (None, Some(id), Some(secret)) => (id, secret),
        _ => {
            return Err(oauth(
                401,
                "invalid_client",
                "client authentication is required",
            ));
        }
    };
    // HTTP Basic credentials are decoded here, past the extractors: same edge rule.
    crate::api::input_guard::check_text("client_id", &client_id)?;
    crate::api::input_guard::check_text("client_secret", &secret)?;
    let wanted = form.scope;
    let scope = DbScope::client(&client_id);
    let st = state.clone();
    state
        .db
        .run_scoped(Mode::Read, scope, move |conn| {
            let client = db::identity::api_client(conn, &client_id)?
                .filter(|c| c.revoked_at.is_none())
                .filter(|c| opaque::digest_matches(&secret, &c.secret_digest))
                .ok_or_else(|| {
                    oauth(
                        401,
                        "invalid_client",
                        "unknown client, wrong secret, or revoked",
                    )
                })?;
            let held = parse_scopes(&client.scopes).map_err(ApiError::internal)?;
            let granted = match wanted.as_deref() {
                None => held,
                Some(text) => {
                    let asked = parse_scopes(text).map_err(|e| oauth(400, "invalid_scope", &e))?;
                    if let Some(extra) = asked.iter().find(|s| !held.contains(s)) {
                        return Err(oauth(
                            400,
                            "invalid_scope",
                            &format!("this client does not hold the scope {}", extra.as_str()),
                        ));
                    }
                    asked
                }
            };
            let scope_text = format_scopes(&granted);
            let tenant = match (client.municipality_id, client.zone_id) {
                (Some(m), _) => Some(TenantHint::Municipality(m)),
                (None, Some(z)) => Some(TenantHint::Zone(z)),
                (None, None) => None,
            };
            let issued = st
                .auth
                .issuer
                .issue_for_tenant(&client.id, TokenKind::Client, Some(&scope_text), tenant)
                .map_err(ApiError::internal)?;
            Ok(web::Json(ClientTokenResponse {
                access_token: issued.token,
                token_type: "Bearer",
                expires_in: issued.expires_in_secs,
                scope: scope_text,
            }))
        })
        .await
}

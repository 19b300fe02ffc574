//! Sign-in, token refresh and logout, OAuth2 client credentials, the
//! signing keys (JWKS) and `/v1/me`.
//!
//! Contract: access tokens are short-lived EdDSA JWTs; refresh tokens are
//! opaque, stored as digests, rotated on every use, and reuse of a spent one
//! revokes its whole family. Sign-in failures never say whether the email
//! exists and are throttled per account and per client address (429 with
//! `Retry-After`). The client address is the TCP peer (a proxy in front should
//! be configured to keep it meaningful; `X-Forwarded-For` is not trusted).

pub mod me;
pub mod oauth;
pub mod password;
pub mod session;

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{app::AppState, auth::Jwks};

/// Tokens handed to a person who signed in.
#[derive(Debug, Serialize, ToSchema)]
pub struct TokenResponse {
    /// The access token (a JWT): send it as `Authorization: Bearer <access_token>`.
    pub access_token: String,
    /// Always `Bearer`.
    pub token_type: &'static str,
    /// Seconds until the access token expires.
    pub expires_in: u64,
    /// Opaque refresh token: exchange it at `/v1/auth/refresh` for new tokens; single use.
    pub refresh_token: String,
}

/// The public keys access tokens are signed with (RFC 7517).
///
/// Public, no sign-in: the Ed25519 keys (EdDSA) a resource server needs to check access
/// tokens issued here. Not written to the access log.
#[utoipa::path(
    operation_id = "get_jwks",
    tag = "auth",
    responses((status = 200, description = "The JSON Web Key Set: the current key first, then previous keys whose tokens may still be valid", body = Jwks))
)]
#[get("/.well-known/jwks.json")]
pub async fn jwks(state: web::Data<AppState>) -> web::Json<Jwks> {
    web::Json(state.auth.keys.jwks())
}

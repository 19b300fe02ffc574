//! `POST /v1/auth/token`, `/v1/auth/refresh`, `/v1/auth/logout`.
//!
//! Contract: sign-in checks, in this order, the throttle, the email, the password,
//! and only then whether the account holds an active role grant or disclosure
//! (`usecases::accounts::require_access`). An unknown email and a wrong password
//! give the same 401 after the same Argon2 work (a dummy hash for unknown emails),
//! and the "no active role" 403 is given only to a caller who proved the password:
//! checking access before the password would tell anyone which emails have
//! accounts, so this order leaves no account-existence oracle. A refresh for an
//! account that no longer holds any access fails with the same 403 and revokes
//! that session's refresh tokens (sign in again once a grant is given).

use std::time::Instant;

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use super::TokenResponse;
use crate::{
    api::extract::ApiJson,
    app::AppState,
    auth::{TokenKind, opaque, verify_against_dummy, verify_password},
    db::{
        self, DbConn,
        models::{RefreshTokenRow, UserRow},
    },
    error::{ApiError, Problem},
    usecases::accounts,
};

/// Email and password.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignInRequest {
    /// The account's email (case does not matter).
    #[schema(example = "clerk@montello.example")]
    pub email: String,
    /// The password.
    pub password: String,
}

/// A refresh token to exchange or revoke.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefreshRequest {
    /// The refresh token from the last token response.
    pub refresh_token: String,
}

const BAD_CREDENTIALS: &str = "the email or password is not correct";

/// Store a new refresh token for `user_id` in `family_id`; return its plaintext.
fn new_refresh_token(
    conn: &mut DbConn,
    state: &AppState,
    user_id: &str,
    family_id: &str,
) -> Result<String, ApiError> {
    let (plain, digest) = opaque::new_secret();
    let now = db::identity::now();
    db::identity::insert_refresh_token(
        conn,
        &RefreshTokenRow {
            id: db::identity::new_id(),
            user_id: user_id.to_owned(),
            family_id: family_id.to_owned(),
            digest,
            created_at: now,
            expires_at: now + state.auth.refresh_ttl,
            used_at: None,
            revoked_at: None,
        },
    )?;
    Ok(plain.expose().to_owned())
}

fn token_response(
    state: &AppState,
    user_id: &str,
    refresh_token: String,
) -> Result<TokenResponse, ApiError> {
    let issued = state
        .auth
        .issuer
        .issue(user_id, TokenKind::User, None)
        .map_err(ApiError::internal)?;
    Ok(TokenResponse {
        access_token: issued.token,
        token_type: "Bearer",
        expires_in: issued.expires_in_secs,
        refresh_token,
    })
}

/// The client address the throttle counts: the TCP peer (`X-Forwarded-For` is not trusted).
pub fn peer_ip(req: &HttpRequest) -> std::net::IpAddr {
    req.peer_addr()
        .map(|a| a.ip())
        .unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED))
}

/// Sign in with email and password.
///
/// Public. A wrong email and a wrong password answer the same 401; attempts are
/// rate-limited per account and address. An account with no active role grant or
/// disclosure gets no tokens. The access token lives minutes; the refresh token rotates
/// on each use.
#[utoipa::path(
    operation_id = "sign_in",
    tag = "auth",
    request_body = SignInRequest,
    responses(
        (status = 200, description = "Signed in", body = TokenResponse),
        (status = 401, description = "Wrong email or password (never says which)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Right password, but the account holds no active role grant or disclosure", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many failed attempts for this account or address; see Retry-After", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/auth/token")]
pub async fn sign_in(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiJson(body): ApiJson<SignInRequest>,
) -> Result<web::Json<TokenResponse>, ApiError> {
    let st = state.clone();
    let tokens = authenticate_person(
        &state,
        peer_ip(&req),
        &body.email,
        body.password,
        move |conn, user| {
            let refresh_token = new_refresh_token(conn, &st, &user.id, &db::identity::new_id())?;
            token_response(&st, &user.id, refresh_token)
        },
    )
    .await?;
    Ok(web::Json(tokens))
}

/// The one sign-in check of people, for the API's tokens and the web portal's
/// sessions alike: the throttle (per account and address), the email, the
/// password (the same Argon2 work for an unknown email), then whether the
/// account holds any access; only then `then` runs, in the same unit of work,
/// to hand out the credential. A wrong email or password is the same 401.
pub async fn authenticate_person<T, F>(
    state: &AppState,
    ip: std::net::IpAddr,
    email: &str,
    password: String,
    then: F,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&mut DbConn, &UserRow) -> Result<T, ApiError> + Send + 'static,
{
    let email = email.trim().to_lowercase();
    // Admitted attempts count while in flight, so parallel guesses cannot outrun the limit.
    let _attempt = state
        .auth
        .throttle
        .begin(&email, ip, Instant::now())
        .map_err(|r| ApiError::TooManyRequests {
            retry_after_secs: r.header_secs(),
        })?;
    let email_for_db = email.clone();
    let outcome = state
        .db
        .run(move |conn| {
            let Some(user) = db::identity::user_by_email(conn, &email_for_db)? else {
                verify_against_dummy(&password);
                return Ok(None);
            };
            if !verify_password(&password, &user.password_hash) {
                return Ok(None);
            }
            accounts::require_access(conn, &user.id)?;
            Ok(Some(then(conn, &user)?))
        })
        .await?;
    match outcome {
        Some(value) => {
            state.auth.throttle.record_success(&email);
            Ok(value)
        }
        None => {
            state
                .auth
                .throttle
                .record_failure(&email, ip, Instant::now());
            Err(ApiError::Unauthorized(BAD_CREDENTIALS.into()))
        }
    }
}

enum RefreshOutcome {
    Rotated(TokenResponse),
    Invalid(&'static str),
    NoAccess,
}

/// Exchange a refresh token for new tokens (the old one is spent).
///
/// Public (the refresh token is the credential). Each refresh token works once: using a
/// spent one revokes its whole session (token theft detection). Refused when the
/// account no longer holds any active grant or disclosure.
#[utoipa::path(
    operation_id = "refresh_tokens",
    tag = "auth",
    request_body = RefreshRequest,
    responses(
        (status = 200, description = "New access and refresh tokens", body = TokenResponse),
        (status = 401, description = "Unknown, expired, revoked or already used refresh token (reuse revokes the whole family)", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The account holds no active role grant or disclosure any more (the session is revoked)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/auth/refresh")]
pub async fn refresh(
    state: web::Data<AppState>,
    ApiJson(body): ApiJson<RefreshRequest>,
) -> Result<web::Json<TokenResponse>, ApiError> {
    let st = state.clone();
    // Reuse detection must commit its revocation, so the transaction returns
    // Ok(Invalid(..)) and the error is raised after it.
    let outcome = state
        .db
        .run(move |conn| {
            let digest = opaque::digest(&body.refresh_token);
            let Some(token) = db::identity::refresh_token_by_digest(conn, &digest)? else {
                return Ok(RefreshOutcome::Invalid("unknown refresh token"));
            };
            if token.revoked_at.is_some() {
                return Ok(RefreshOutcome::Invalid("this refresh token has been revoked; sign in again"));
            }
            if token.used_at.is_some() || !db::identity::spend_refresh_token(conn, &token.id)? {
                db::identity::revoke_family(conn, &token.family_id)?;
                tracing::warn!("refresh token reuse detected; family revoked");
                return Ok(RefreshOutcome::Invalid(
                    "this refresh token was already used: every refresh token of this session is now revoked; sign in again",
                ));
            }
            if token.expires_at <= db::identity::now() {
                return Ok(RefreshOutcome::Invalid("this refresh token has expired; sign in again"));
            }
            if db::identity::user_by_id(conn, &token.user_id)?.is_none() {
                db::identity::revoke_family(conn, &token.family_id)?;
                return Ok(RefreshOutcome::Invalid("this account no longer exists"));
            }
            if !accounts::holds_access(conn, &token.user_id)? {
                db::identity::revoke_family(conn, &token.family_id)?;
                return Ok(RefreshOutcome::NoAccess);
            }
            let next = new_refresh_token(conn, &st, &token.user_id, &token.family_id)?;
            Ok(RefreshOutcome::Rotated(token_response(&st, &token.user_id, next)?))
        })
        .await?;
    match outcome {
        RefreshOutcome::Rotated(tokens) => Ok(web::Json(tokens)),
        RefreshOutcome::Invalid(reason) => Err(ApiError::Unauthorized(reason.into())),
        RefreshOutcome::NoAccess => Err(ApiError::Forbidden(accounts::NO_ACCESS.into())),
    }
}

/// Sign out: revoke the refresh token's whole session (idempotent).
///
/// Public (the refresh token is the credential). Revokes every refresh token of the
/// session; access tokens already issued expire within minutes.
#[utoipa::path(
    operation_id = "sign_out",
    tag = "auth",
    request_body = RefreshRequest,
    responses((status = 204, description = "The session's refresh tokens are revoked (also when it was unknown or already revoked)"))
)]
#[post("/v1/auth/logout")]
pub async fn logout(
    state: web::Data<AppState>,
    ApiJson(body): ApiJson<RefreshRequest>,
) -> Result<HttpResponse, ApiError> {
    state
        .db
        .run(move |conn| {
            if let Some(token) =
                db::identity::refresh_token_by_digest(conn, &opaque::digest(&body.refresh_token))?
            {
                db::identity::revoke_family(conn, &token.family_id)?;
            }
            Ok(())
        })
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

//! `POST /v1/me/password`: a person changes their own password.
//!
//! Contract: only a person may call it (an API client is 403); the current
//! password is required and verified, and a wrong one is a 422 problem on
//! `current_password`, counted by the sign-in throttle like a failed sign-in
//! (so the endpoint cannot be used to guess passwords faster than sign-in; 429
//! with `Retry-After` while locked). The new password meets the same policy and
//! is hashed the same way (Argon2id) as at creation, and differs from the current
//! one. On success (204) every refresh token and every web portal session of the
//! user is revoked, so every session must sign in again; access tokens run out within their lifetime.
//! Password hashing runs on a blocking thread, outside the unit of work, and the
//! stored hash is replaced only if it is still the one verified
//! (`usecases::accounts::change_password`). No password reaches a log line.

use std::time::Instant;

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::{
    api::{
        caller::{Authenticated, CallerUnit},
        extract::ApiJson,
    },
    app::AppState,
    auth::verify_password,
    db,
    error::{ApiError, Problem},
    tenancy::Subject,
    usecases::accounts,
};

/// The current password and the new one.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangePasswordRequest {
    /// The password the account has now.
    pub current_password: String,
    /// The new password: at least 12 characters (the same policy as at creation).
    pub new_password: String,
}

/// Change the caller's own password; every refresh token of the caller is revoked.
///
/// Any signed-in person (an API client has no password). The current password is
/// required; the new one follows the password policy (at least 12 characters). Every
/// refresh token of the account is revoked; access tokens expire within minutes. Failed
/// attempts are rate-limited.
#[utoipa::path(
    operation_id = "change_my_password",
    tag = "auth",
    security(("bearer" = [])),
    request_body = ChangePasswordRequest,
    responses(
        (status = 204, description = "Password changed; every refresh token and web portal session of the caller is revoked (sign in again everywhere)"),
        (status = 403, description = "An API client has no password", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The password was changed concurrently; try again", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`current_password` is not correct, or `new_password` breaks the password policy or equals the current one", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Too many wrong current passwords for this account or address; see Retry-After", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/me/password")]
pub async fn change(
    req: HttpRequest,
    state: web::Data<AppState>,
    caller: Authenticated,
    ApiJson(body): ApiJson<ChangePasswordRequest>,
) -> Result<HttpResponse, ApiError> {
    if let Authenticated::Client { .. } = caller {
        return Err(ApiError::Forbidden(
            "an API client has no password to change; only a person who signed in may".into(),
        ));
    }
    // Three steps, not one unit of work: Argon2id is slow on purpose, so the
    // check and the new hash run between a read unit (the account) and a write
    // unit (the new hash, conditional on the old one), never holding a
    // transaction (on SQLite: the write lock) while hashing.
    let user = caller
        .read(&state, move |CallerUnit { conn, caller }| {
            let Subject::User { id, .. } = &caller.subject else {
                return Err(ApiError::internal("a user token loaded a client"));
            };
            db::identity::user_by_id(conn, id)?
                .ok_or_else(|| ApiError::Unauthorized("this account no longer exists".into()))
        })
        .await?;
    let email = user.email.clone();
    let email = email.as_str();
    let ip = super::session::peer_ip(&req);
    let _attempt = state
        .auth
        .throttle
        .begin(email, ip, Instant::now())
        .map_err(|r| ApiError::TooManyRequests {
            retry_after_secs: r.header_secs(),
        })?;
    let stored = user.password_hash.clone();
    let ChangePasswordRequest {
        current_password,
        new_password,
    } = body;
    let checked = web::block(move || {
        if !verify_password(&current_password, &stored) {
            return Ok(None);
        }
        if new_password == current_password {
            return Err(ApiError::invalid(
                "new_password",
                "differs_from_current",
                "the new password must differ from the current one",
            ));
        }
        accounts::hash_new_password("new_password", &new_password).map(Some)
    })
    .await
    .map_err(ApiError::internal)??;
    let Some(new_hash) = checked else {
        state
            .auth
            .throttle
            .record_failure(email, ip, Instant::now());
        return Err(ApiError::invalid(
            "current_password",
            "current_password_matches",
            "the current password is not correct",
        ));
    };
    state.auth.throttle.record_success(email);
    state
        .db
        .run(move |conn| accounts::change_password(conn, &user, &new_hash))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

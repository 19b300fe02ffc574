//! `GET/POST /app/sign-in` and `POST /app/sign-out`.
//!
//! Contract: sign-in is the API's own check (`api::auth::session::
//! authenticate_person`: the same throttle per account and address, the same
//! Argon2 password check, the same refusal of an account without access, the
//! same messages); on success, in that same unit of work, a web session row
//! is stored (only the digest of its cookie's secret) and the cookie is set
//! with a `303` to `/app/`. A new secret at every sign-in (no session
//! fixation). Sign-out revokes the session row and clears the cookie. Both
//! forms carry a CSRF token (the visitor's before sign-in, the session's after).

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::{Markup, html};

use super::{
    Posted, WebError,
    layout::{self, Field},
    render,
    session::{SESSION_HOURS, Visit},
};
use crate::{
    api::auth::session::{authenticate_person, peer_ip},
    app::AppState,
    auth::opaque,
    db::{self, models::WebSessionRow},
    error::{ApiError, FieldError},
};

fn sign_in_page(visit: &Visit, email: &str, problem: Option<(&str, Vec<FieldError>)>) -> Markup {
    let errors = problem.as_ref().map(|(_, e)| e.clone()).unwrap_or_default();
    layout::page(
        visit,
        "Sign in",
        html! {
            h1 { "Sign in" }
            p { "Clerk-treasurers, staff, operators, the tourism entity and commission members sign in here." }
            @if let Some((message, errors)) = &problem {
                (layout::alert(message, errors, &["email", "password"]))
            }
            form.stack method="post" action="/app/sign-in" novalidate {
                (layout::csrf_field(visit))
                (Field { kind: "email", required: true, autocomplete: Some("username"),
                         ..Field::text("email", "Email", email) }.render(&errors))
                (Field { kind: "password", required: true, autocomplete: Some("current-password"),
                         ..Field::text("password", "Password", "") }.render(&errors))
                div { button type="submit" { "Sign in" } }
            }
        },
    )
}

/// `GET /app/sign-in`.
pub async fn form(visit: Visit) -> HttpResponse {
    render(&visit, StatusCode::OK, sign_in_page(&visit, "", None))
}

/// `POST /app/sign-in`.
pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
) -> Result<HttpResponse, WebError> {
    let email = form.get("email").unwrap_or("").to_owned();
    let password = form.shown("password").to_owned();
    let mut missing = Vec::new();
    if email.is_empty() {
        missing.push(FieldError::new("email", "required", "enter your email"));
    }
    if password.is_empty() {
        missing.push(FieldError::new(
            "password",
            "required",
            "enter your password",
        ));
    }
    if !missing.is_empty() {
        let page = sign_in_page(
            &visit,
            &email,
            Some(("Some fields need attention.", missing)),
        );
        return Ok(render(&visit, StatusCode::UNPROCESSABLE_ENTITY, page));
    }
    let outcome = authenticate_person(&state, peer_ip(&req), &email, password, |conn, user| {
        let (secret, digest) = opaque::new_secret();
        let now = db::identity::now();
        db::web_sessions::insert(
            conn,
            &WebSessionRow {
                id: db::identity::new_id(),
                user_id: user.id.clone(),
                digest,
                created_at: now,
                expires_at: now + chrono::Duration::hours(SESSION_HOURS),
                revoked_at: None,
            },
        )?;
        Ok(secret.expose().to_owned())
    })
    .await;
    match outcome {
        Ok(secret) => {
            let mut ok = HttpResponse::SeeOther();
            ok.insert_header((actix_web::http::header::LOCATION, "/app/"));
            visit.start_session(&mut ok, secret);
            Ok(ok.finish())
        }
        Err(
            err @ (ApiError::Unauthorized(_)
            | ApiError::Forbidden(_)
            | ApiError::TooManyRequests { .. }),
        ) => {
            let status = actix_web::ResponseError::status_code(&err);
            let problem = err.to_problem();
            // The API names no field for these; the password is what to try again.
            let errors = match err {
                ApiError::Unauthorized(_) => vec![FieldError::new(
                    "password",
                    "credentials",
                    problem.detail.clone(),
                )],
                _ => Vec::new(),
            };
            let page = sign_in_page(&visit, &email, Some((&problem.detail, errors)));
            let mut res = render(&visit, status, page);
            if let ApiError::TooManyRequests { retry_after_secs } = err
                && let Ok(v) = retry_after_secs.to_string().parse()
            {
                res.headers_mut()
                    .insert(actix_web::http::header::RETRY_AFTER, v);
            }
            Ok(res)
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST /app/sign-out`: revoke the session, clear the cookie, back to the public pages.
pub async fn sign_out(
    state: web::Data<AppState>,
    Posted { visit, .. }: Posted,
) -> Result<HttpResponse, WebError> {
    if let Some(digest) = visit.session_digest() {
        state
            .db
            .run(move |conn| {
                db::web_sessions::revoke_by_digest(conn, &digest, db::identity::now())?;
                Ok(())
            })
            .await?;
    }
    let mut builder = HttpResponse::SeeOther();
    visit.end_session(&mut builder);
    builder.insert_header((actix_web::http::header::LOCATION, "/app/public"));
    Ok(builder.finish())
}

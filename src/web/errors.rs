//! How a failure looks in the portal: a page, not JSON, built from the same
//! problem details the API answers with (`ApiError::to_problem`).
//!
//! Contract: [`WebError`] is the one error type of the page handlers. A 401
//! (no session, or one that has ended) sends the person to the sign-in page
//! and clears the cookie; a 404 and a 403 are pages that name nothing the
//! caller may not know (the API's rule: a caller that may not know a record
//! exists gets 404); a refused CSRF token is a 403 page; anything unexpected
//! is the opaque 500 the API gives (logged there, under the request id).

use actix_web::{
    HttpResponse, ResponseError,
    cookie::{Cookie, time::Duration as CookieDuration},
    http::{StatusCode, header},
};
use maud::{Markup, html};

use super::session::SESSION_COOKIE;
use crate::error::ApiError;

/// Why a page could not be shown.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// What the use case or the tenancy gate refused.
    #[error(transparent)]
    Api(#[from] ApiError),
    /// A POST without this visit's CSRF token.
    #[error("CSRF token missing or wrong")]
    Csrf,
}

/// A bare page (the error pages cannot know the visit: no sign-out button).
fn bare(title: &str, body: Markup) -> String {
    html! {
        (maud::DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · roomtax" }
                link rel="stylesheet" href=(super::assets::css_path());
            }
            body {
                header.site { div.bar { a.brand href="/" { "roomtax" } } }
                main #main { h1 { (title) } (body) }
            }
        }
    }
    .into_string()
}

fn html_response(status: StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(body)
}

/// The portal's 404 page.
pub fn not_found_page() -> HttpResponse {
    html_response(
        StatusCode::NOT_FOUND,
        bare(
            "Not found",
            html! { p { "There is nothing here, or nothing you may see." }
            p { a href="/" { "Back to the start" } } },
        ),
    )
}

impl ResponseError for WebError {
    fn status_code(&self) -> StatusCode {
        match self {
            WebError::Api(e) => e.status_code(),
            WebError::Csrf => StatusCode::FORBIDDEN,
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            WebError::Csrf => html_response(
                StatusCode::FORBIDDEN,
                bare(
                    "This form cannot be accepted",
                    html! {
                        p { "The form did not carry this page's security token (code "
                            code { "csrf_token_invalid" } "). It may be older than your "
                            "session, or it came from another site." }
                        p { "Go back, reload the page and send the form again." }
                    },
                ),
            ),
            WebError::Api(ApiError::Unauthorized(_)) => HttpResponse::SeeOther()
                .insert_header((header::LOCATION, "/app/sign-in"))
                .cookie(
                    Cookie::build(SESSION_COOKIE, "")
                        .path("/")
                        .http_only(true)
                        .max_age(CookieDuration::ZERO)
                        .finish(),
                )
                .finish(),
            WebError::Api(ApiError::NotFound(_) | ApiError::RouteNotFound(_)) => not_found_page(),
            WebError::Api(err) => {
                if let ApiError::Internal(cause) = err {
                    tracing::error!(cause = %cause, "internal error (web)");
                }
                let problem = err.to_problem();
                html_response(
                    self.status_code(),
                    bare(
                        &problem.title,
                        html! {
                            p { (problem.detail) }
                            @if !problem.errors.is_empty() {
                                ul { @for e in &problem.errors { li { (e.field) ": " (e.message) } } }
                            }
                            p.cite { "Problem code: " code { (problem.code) } }
                            p { a href="/" { "Back to the start" } }
                        },
                    ),
                )
            }
        }
    }
}

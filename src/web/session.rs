//! Who is visiting the portal: the session cookie, the visitor cookie and the
//! CSRF token tied to them.
//!
//! Contract:
//! - A person who signed in holds `roomtax_session`: a random 256-bit secret,
//!   `HttpOnly`, `SameSite=Strict`, `Path=/`, `Max-Age` of [`SESSION_HOURS`],
//!   and `Secure` when the request came over TLS or the configured public
//!   address is `https://`. The database keeps only its SHA-256 digest
//!   (`db::web_sessions`); the unit of work finds the live session
//!   (`api::caller::Authenticated::WebSession`), so a revoked or expired
//!   session opens nothing.
//! - A visitor without a session gets `roomtax_visitor` (random, same
//!   attributes, no database row) on the first page with a form, so the
//!   sign-in form and the public calculator carry a CSRF token too.
//! - The CSRF token of a page is a synchroniser token derived from the
//!   session's secret (or the visitor's): SHA-256 over a domain-separation
//!   label and the secret. It cannot be computed without the cookie (which
//!   scripts cannot read) nor from the stored digest. Every POST is checked
//!   against it in constant time before anything else runs; a missing or
//!   wrong token is a 403 page.
//! - This module touches no database and logs no secret.

use std::future::{Ready, ready};

use actix_web::{
    FromRequest, HttpRequest, HttpResponseBuilder,
    cookie::{Cookie, SameSite, time::Duration as CookieDuration},
    dev::Payload,
    web,
};
use subtle::ConstantTimeEq as _;

use crate::{
    api::caller::Authenticated,
    app::AppState,
    auth::opaque::{self, digest},
};

/// The signed-in person's cookie.
pub const SESSION_COOKIE: &str = "roomtax_session";
/// The cookie of a visitor who has not signed in (CSRF tokens of public forms).
pub const VISITOR_COOKIE: &str = "roomtax_visitor";
/// How long a web session lasts from sign-in, whatever its use.
pub const SESSION_HOURS: i64 = 12;
/// The form field that carries the CSRF token.
pub const CSRF_FIELD: &str = "csrf_token";

/// The cookies of this request and what the response must set.
#[derive(Clone)]
pub struct Visit {
    session: Option<String>,
    visitor: String,
    new_visitor: bool,
    secure: bool,
}

impl std::fmt::Debug for Visit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Visit")
            .field("signed_in", &self.session.is_some())
            .finish_non_exhaustive()
    }
}

fn usable(value: &str) -> bool {
    (20..=128).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl FromRequest for Visit {
    type Error = actix_web::Error;
    type Future = Ready<Result<Self, actix_web::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let public_https = req
            .app_data::<web::Data<AppState>>()
            .is_some_and(|s| s.auth.public_https);
        let secure = public_https || req.connection_info().scheme() == "https";
        let session = req
            .cookie(SESSION_COOKIE)
            .map(|c| c.value().to_owned())
            .filter(|v| usable(v));
        let existing = req
            .cookie(VISITOR_COOKIE)
            .map(|c| c.value().to_owned())
            .filter(|v| usable(v));
        let (visitor, new_visitor) = match existing {
            Some(v) => (v, false),
            None => (opaque::new_secret().0.expose().to_owned(), true),
        };
        ready(Ok(Visit {
            session,
            visitor,
            new_visitor,
            secure,
        }))
    }
}

impl Visit {
    /// Whether the request carries a session cookie (not yet whether it is live).
    pub fn has_session(&self) -> bool {
        self.session.is_some()
    }

    /// The caller the unit of work loads, when a session cookie came.
    pub fn caller(&self) -> Option<Authenticated> {
        self.session
            .as_deref()
            .map(|s| Authenticated::WebSession(digest(s)))
    }

    /// The digest of the session's secret (sign-out revokes by it).
    pub fn session_digest(&self) -> Option<String> {
        self.session.as_deref().map(digest)
    }

    /// The CSRF token every form of this page carries.
    pub fn csrf_token(&self) -> String {
        match &self.session {
            Some(s) => digest(&format!("roomtax-web-csrf/session\0{s}")),
            None => digest(&format!("roomtax-web-csrf/visitor\0{}", self.visitor)),
        }
    }

    /// Whether `submitted` is this visit's CSRF token (constant time).
    pub fn csrf_ok(&self, submitted: Option<&str>) -> bool {
        let Some(submitted) = submitted else {
            return false;
        };
        let expected = self.csrf_token();
        submitted.len() == expected.len()
            && bool::from(submitted.as_bytes().ct_eq(expected.as_bytes()))
    }

    fn cookie(
        &self,
        name: &'static str,
        value: String,
        max_age: CookieDuration,
    ) -> Cookie<'static> {
        Cookie::build(name, value)
            .path("/")
            .http_only(true)
            .same_site(SameSite::Strict)
            .secure(self.secure)
            .max_age(max_age)
            .finish()
    }

    /// Add the cookies this response must set (a new visitor's).
    pub fn finish(&self, builder: &mut HttpResponseBuilder) {
        if self.new_visitor && self.session.is_none() {
            builder.cookie(self.cookie(
                VISITOR_COOKIE,
                self.visitor.clone(),
                CookieDuration::hours(SESSION_HOURS),
            ));
        }
    }

    /// Set a new session's cookie (after sign-in).
    pub fn start_session(&self, builder: &mut HttpResponseBuilder, secret: String) {
        builder.cookie(self.cookie(SESSION_COOKIE, secret, CookieDuration::hours(SESSION_HOURS)));
    }

    /// Remove the session's cookie (sign-out, or a session that has ended).
    pub fn end_session(&self, builder: &mut HttpResponseBuilder) {
        builder.cookie(self.cookie(SESSION_COOKIE, String::new(), CookieDuration::ZERO));
    }
}

//! The web portal: server-rendered pages under `/app/` for the people who
//! will not use curl (issue 11), on the same use-case functions as the JSON
//! API, so no rule is written twice.
//!
//! Templates are [maud](https://maud.lambda.xyz): the markup is Rust, checked
//! by the compiler with the rest of the code (a wrong field name or type does
//! not build), escaped by default, and needs no template files to keep in
//! step with the structs they render. askama would give the same checking,
//! with HTML in separate files; with small pages built from shared pieces
//! (a field with its label, hint and error), functions returning `Markup`
//! compose more simply than template inheritance, and maud adds three small
//! crates with no runtime dependency.
//!
//! Contract:
//! - Handlers are thin: parse the form, check its CSRF token first
//!   ([`Posted`], by [`session::Visit::csrf_ok`], before the handler runs), enter the tenant through the same
//!   extractor core as the API (`api::caller::InTenant`, whose unit of work
//!   loads the person from their web session: the same roles, the same
//!   tenancy gate, the same row-level security), call one use-case function,
//!   render. Errors are the API's problem details shown on the page, next to
//!   the field they name ([`layout::Field`]).
//! - Every core flow works without JavaScript (plain GET links and POST
//!   forms, `303 See Other` after a successful POST); htmx only makes some of
//!   them live (the calculator answers as one types).
//! - Every response under `/app/` (and `/`) carries a Content-Security-Policy
//!   that allows only 'self' (no inline script or style, no frames, forms
//!   posting only here), `X-Content-Type-Options: nosniff`,
//!   `Referrer-Policy: same-origin`; pages are `Cache-Control: no-store`
//!   (static files excepted: they are immutable, see [`assets`]).
//! - `/` sends a visitor with a session cookie to `/app/` (their places and
//!   dashboard; an ended session lands on the sign-in page) and anyone else
//!   to the public pages.

pub mod access_log;
pub mod assets;
pub mod charts;
pub mod clerk;
pub mod echo;
pub mod errors;
pub mod keyed;
pub mod layout;
pub mod multipart;
pub mod operator;
pub mod places;
pub mod public;
pub mod session;
pub mod signin;
pub mod zone;

use std::collections::HashMap;

use actix_web::{
    HttpResponse,
    http::{StatusCode, header},
    middleware::DefaultHeaders,
    web,
};
use maud::Markup;

pub use errors::WebError;
use session::{CSRF_FIELD, Visit};

/// The portal's Content-Security-Policy: only 'self', nothing inline.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
                       font-src 'self'; connect-src 'self'; form-action 'self'; \
                       frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

fn security_headers() -> DefaultHeaders {
    DefaultHeaders::new()
        .add((header::CONTENT_SECURITY_POLICY, CSP))
        .add((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .add((header::REFERRER_POLICY, "same-origin"))
        .add((header::X_FRAME_OPTIONS, "DENY"))
}

/// Mount the portal: `/` and everything under `/app/`.
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/")
            .wrap(security_headers())
            .route(web::get().to(root)),
    )
    .service(
        web::scope("/app")
            .wrap(security_headers())
            .route("/static/{file}", web::get().to(assets::serve))
            .route("/public", web::get().to(public::index))
            .route("/public/calculator", web::get().to(public::calculator))
            .route("/public/calculator", web::post().to(public::calculate))
            .route(
                "/public/municipalities/{municipality}",
                web::get().to(public::municipality),
            )
            .route(
                "/public/zones/{zone}/statistics",
                web::get().to(public::zone_statistics),
            )
            .route("/sign-in", web::get().to(signin::form))
            .route("/sign-in", web::post().to(signin::submit))
            .route("/sign-out", web::post().to(signin::sign_out))
            .route("/", web::get().to(places::list))
            .route("", web::get().to(places::list))
            .route("/m/{municipality}", web::get().to(places::municipality))
            .route("/z/{zone}", web::get().to(places::zone))
            .configure(clerk::routes)
            .configure(operator::routes)
            .configure(zone::routes)
            .default_service(web::to(|| async { errors::not_found_page() })),
    );
}

/// The signed-in caller of `visit` (without a session a 401, which is the
/// sign-in page): every page that enters a municipality or a zone starts here.
pub(crate) fn caller_of(visit: &Visit) -> Result<crate::api::caller::Authenticated, WebError> {
    visit
        .caller()
        .ok_or_else(|| WebError::Api(crate::error::ApiError::Unauthorized("sign in first".into())))
}

/// `GET /`: signed in (a session cookie) to `/app/`, anyone else to the public pages.
async fn root(visit: Visit) -> HttpResponse {
    see_other(if visit.has_session() {
        "/app/"
    } else {
        "/app/public"
    })
}

/// `303 See Other` to `location` (after a POST, and for `/`).
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish()
}

/// A rendered page with `status`, setting the visit's cookies.
pub fn render(visit: &Visit, status: StatusCode, markup: Markup) -> HttpResponse {
    let mut builder = HttpResponse::build(status);
    builder
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"));
    visit.finish(&mut builder);
    builder.body(markup.into_string())
}

/// The status of a page showing a form: `200` when fresh, `422` when shown
/// again refused (with `errors`).
pub fn form_status(errors: &[crate::error::FieldError]) -> StatusCode {
    if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    }
}

/// A form body: every field by name (the edge rule of the API applies: no
/// control characters), the CSRF token already checked.
#[derive(Debug, Default)]
pub struct FormData(HashMap<String, String>);

impl FormData {
    /// Parse `body` and check its CSRF token against `visit` (a 403 first).
    pub fn checked(visit: &Visit, body: &[u8]) -> Result<Self, WebError> {
        let fields: HashMap<String, String> =
            crate::api::extract::parse_form(body).map_err(|e| match e {
                // A form that does not parse carries no token we could trust.
                crate::error::ApiError::Validation(_) => WebError::Api(e),
                _ => WebError::Csrf,
            })?;
        if !visit.csrf_ok(fields.get(CSRF_FIELD).map(String::as_str)) {
            return Err(WebError::Csrf);
        }
        Ok(FormData(fields))
    }

    /// The value of `name`, trimmed; `None` when absent or blank.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
    }

    /// The value of `name` as given (empty when absent), to show in the form again.
    pub fn shown(&self, name: &str) -> &str {
        self.0.get(name).map_or("", String::as_str)
    }
}

/// A posted form with its visit, the CSRF token checked before the handler
/// runs ([`FormData::checked`]: a missing or wrong token is the 403 page,
/// whatever the handler would do). Every POST handler of the portal that
/// takes an urlencoded form takes this, so none can forget the check.
#[derive(Debug)]
pub struct Posted {
    /// The visit (its cookies, to set on the response).
    pub visit: Visit,
    /// The form's fields.
    pub form: FormData,
}

impl actix_web::FromRequest for Posted {
    type Error = actix_web::Error;
    type Future = futures_util::future::LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(
        req: &actix_web::HttpRequest,
        payload: &mut actix_web::dev::Payload,
    ) -> Self::Future {
        let visit = Visit::from_request(req, payload);
        let body = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            let visit = visit.await?;
            let body = body.await?;
            let form = FormData::checked(&visit, &body)?;
            Ok(Posted { visit, form })
        })
    }
}

/// Whether htmx sent this request (it wants a fragment, not a page).
pub fn from_htmx(req: &actix_web::HttpRequest) -> bool {
    req.headers().get("HX-Request").is_some_and(|v| v == "true")
}

//! The portal's static files, compiled into the binary: our stylesheet
//! (`web/app.css`) and htmx (`web/vendor/htmx-2.0.11.min.js`, from npm's
//! `htmx.org` package, BSD Zero Clause licence beside it).
//!
//! Contract: nothing is fetched from anywhere at run time. Each file is served
//! at a path that carries a digest of its content, with
//! `Cache-Control: public, max-age=31536000, immutable`: a changed file gets a
//! new path, so a long cache can never serve a stale one. Any other name is a
//! 404.

use std::sync::OnceLock;

use actix_web::{HttpResponse, http::header, web};

/// Our stylesheet.
pub const APP_CSS: &[u8] = include_bytes!("../../web/app.css");
/// htmx 2.0.11, minified, as published on npm (`htmx.org`).
pub const HTMX_JS: &[u8] = include_bytes!("../../web/vendor/htmx-2.0.11.min.js");

struct Asset {
    path: String,
    body: &'static [u8],
    content_type: &'static str,
}

fn assets() -> &'static [Asset; 2] {
    static ASSETS: OnceLock<[Asset; 2]> = OnceLock::new();
    ASSETS.get_or_init(|| {
        let named = |stem: &str, ext: &str, body: &'static [u8], content_type| {
            let digest = crate::auth::opaque::digest_bytes(body);
            Asset {
                path: format!("/app/static/{stem}.{}.{ext}", &digest[..12]),
                body,
                content_type,
            }
        };
        [
            named("app", "css", APP_CSS, "text/css; charset=utf-8"),
            named(
                "htmx-2.0.11",
                "js",
                HTMX_JS,
                "text/javascript; charset=utf-8",
            ),
        ]
    })
}

/// Where the stylesheet is served.
pub fn css_path() -> &'static str {
    &assets()[0].path
}

/// Where htmx is served.
pub fn htmx_path() -> &'static str {
    &assets()[1].path
}

/// `GET /app/static/{file}`.
pub async fn serve(file: web::Path<String>) -> HttpResponse {
    let wanted = format!("/app/static/{file}");
    match assets().iter().find(|a| a.path == wanted) {
        Some(a) => HttpResponse::Ok()
            .content_type(a.content_type)
            .insert_header((header::CACHE_CONTROL, "public, max-age=31536000, immutable"))
            .body(a.body),
        None => super::errors::not_found_page(),
    }
}

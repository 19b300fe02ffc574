//! Framework fallbacks: unknown routes, wrong methods, and every error
//! response the framework builds by itself, answered as problem+json.
//!
//! Contract: the 404/405 decision comes from the generated OpenAPI document
//! (the same registration that builds the router), so a path the spec knows
//! answers 405 with an `Allow` header for a wrong method and anything else
//! answers 404. [`catch_all`] rewrites any error response that is not yet a
//! problem, so no error body is ever `text/plain` or empty.

use actix_web::{
    HttpRequest, HttpResponse, ResponseError,
    body::{BoxBody, EitherBody},
    dev::ServiceResponse,
    http::header::{self, HeaderValue},
    middleware::ErrorHandlerResponse,
    web,
};
use utoipa::openapi::OpenApi;

use super::{ApiError, PROBLEM_JSON, Problem, ProblemCode};

/// The route templates of the API and the methods each accepts.
#[derive(Debug, Default)]
pub struct RouteTable {
    routes: Vec<(Vec<String>, Vec<String>)>,
}

impl RouteTable {
    /// Collect every path template and its methods from the OpenAPI document.
    pub fn from_openapi(spec: &OpenApi) -> Self {
        let routes = spec
            .paths
            .paths
            .iter()
            .map(|(template, item)| {
                let segments = template.split('/').map(str::to_owned).collect();
                let mut methods: Vec<String> = [
                    ("GET", item.get.is_some()),
                    ("HEAD", item.get.is_some()),
                    ("POST", item.post.is_some()),
                    ("PUT", item.put.is_some()),
                    ("PATCH", item.patch.is_some()),
                    ("DELETE", item.delete.is_some()),
                ]
                .into_iter()
                .filter(|(_, present)| *present)
                .map(|(m, _)| m.to_owned())
                .collect();
                methods.sort();
                (segments, methods)
            })
            .collect::<Vec<_>>();
        let mut table = Self { routes };
        // Served beside the API (the document itself and its browser).
        for path in ["/openapi.json", "/docs", "/docs/", "/docs/{file}"] {
            table.routes.push((
                path.split('/').map(str::to_owned).collect(),
                vec!["GET".to_owned(), "HEAD".to_owned()],
            ));
        }
        table
    }

    /// The methods allowed on `path`, or `None` when no template matches it.
    pub fn allowed_methods(&self, path: &str) -> Option<Vec<String>> {
        let parts: Vec<&str> = path.split('/').collect();
        let mut allowed: Vec<String> = Vec::new();
        for (template, methods) in &self.routes {
            let matches = template.len() == parts.len()
                && template.iter().zip(&parts).all(|(t, p)| {
                    (t.starts_with('{') && t.ends_with('}') && !p.is_empty()) || t == p
                });
            if matches {
                allowed.extend(methods.iter().cloned());
            }
        }
        if allowed.is_empty() {
            return None;
        }
        allowed.sort();
        allowed.dedup();
        Some(allowed)
    }

    /// The name of the path parameter at segment `index` of `path`, when a
    /// template matches the path's shape there (e.g. `zone` for segment 3 of
    /// `/v1/zones/x`). A parameter segment matches any text.
    pub fn parameter_at(&self, path: &str, index: usize) -> Option<String> {
        let parts: Vec<&str> = path.split('/').collect();
        self.routes.iter().find_map(|(template, _)| {
            let fits = template.len() == parts.len()
                && template
                    .iter()
                    .zip(&parts)
                    .all(|(t, p)| (t.starts_with('{') && t.ends_with('}')) || t == p);
            let name = template.get(index)?;
            (fits && name.starts_with('{'))
                .then(|| name.trim_matches(|c| c == '{' || c == '}').to_owned())
        })
    }
}

/// Default service: 405 with `Allow` when the path exists, else 404.
pub async fn default_service(req: HttpRequest, routes: web::Data<RouteTable>) -> HttpResponse {
    let err = match routes.allowed_methods(req.path()) {
        Some(allow) => ApiError::MethodNotAllowed(allow),
        None => ApiError::RouteNotFound(req.path().to_owned()),
    };
    err.error_response()
}

fn code_for_status(status: u16) -> ProblemCode {
    match status {
        404 => ProblemCode::RouteNotFound,
        405 => ProblemCode::MethodNotAllowed,
        413 => ProblemCode::PayloadTooLarge,
        415 => ProblemCode::UnsupportedMediaType,
        409 => ProblemCode::Conflict,
        401 => ProblemCode::Unauthorized,
        403 => ProblemCode::Forbidden,
        429 => ProblemCode::TooManyRequests,
        412 => ProblemCode::PreconditionFailed,
        428 => ProblemCode::PreconditionRequired,
        503 => ProblemCode::NotReady,
        s if s >= 500 => ProblemCode::Internal,
        _ => ProblemCode::BadRequest,
    }
}

/// Error-handler middleware hook: turn any non-problem error response into one.
pub fn catch_all<B>(res: ServiceResponse<B>) -> actix_web::Result<ErrorHandlerResponse<B>> {
    let is_problem = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
    // The web portal's own error pages (crate::web::errors) are HTML, for people.
    let is_page = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/html"));
    if is_problem || is_page {
        return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
    }
    let status = res.status();
    if let Some(err) = res.response().error() {
        // Framework-built errors carry no confidential data, but keep them at debug.
        tracing::debug!(error = %err, status = status.as_u16(), "framework error rewritten");
    }
    let code = code_for_status(status.as_u16());
    let detail = match code {
        ProblemCode::Internal => "an unexpected error occurred; it has been logged".to_owned(),
        ProblemCode::RouteNotFound => format!("nothing is served at {}", res.request().path()),
        _ => status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_owned(),
    };
    let mut problem = Problem::new(code, detail);
    problem.status = status.as_u16();
    let body = serde_json::to_vec(&problem).unwrap_or_default();
    let (req, mut response) = res.into_parts();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
    response.headers_mut().remove(header::CONTENT_LENGTH);
    let response = response.set_body(BoxBody::new(body));
    let res = ServiceResponse::new(req, response).map_body(|_, b| EitherBody::right(b));
    Ok(ErrorHandlerResponse::Response(res))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> RouteTable {
        RouteTable {
            routes: vec![
                (
                    "/v1/zones".split('/').map(str::to_owned).collect(),
                    vec!["GET".into()],
                ),
                (
                    "/v1/zones/{zone}".split('/').map(str::to_owned).collect(),
                    vec!["GET".into()],
                ),
            ],
        }
    }

    #[test]
    fn templates_match_by_segment() {
        let t = table();
        assert_eq!(t.allowed_methods("/v1/zones"), Some(vec!["GET".into()]));
        assert_eq!(t.allowed_methods("/v1/zones/x"), Some(vec!["GET".into()]));
        assert_eq!(t.allowed_methods("/v1/zones/"), None);
        assert_eq!(t.allowed_methods("/v1/zones/x/y"), None);
        assert_eq!(t.allowed_methods("/v2/zones"), None);
        assert_eq!(t.parameter_at("/v1/zones/x\0", 3), Some("zone".into()));
        assert_eq!(t.parameter_at("/v1/zones/x", 2), None);
        assert_eq!(t.parameter_at("/v1/nope/x", 3), None);
    }
}

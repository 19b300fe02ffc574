//! Per-request context: the request id, set by the outermost middleware.
//!
//! Contract: every response carries `x-request-id` (the caller's own id when it
//! sent a sane one, otherwise a fresh UUID). The id and path are kept in a
//! task-local for the duration of the request so that error bodies, built far
//! from the request, can name them. One tracing span per request logs method,
//! route pattern, status and latency: never query strings or bodies, which may
//! hold confidential values.

use std::time::Instant;

use actix_web::{
    Error, HttpMessage,
    body::MessageBody,
    dev::{ServiceRequest, ServiceResponse},
    http::{
        Method,
        header::{HeaderName, HeaderValue},
    },
    middleware::Next,
};
use tracing::Instrument;

/// Name of the request id header.
pub const REQUEST_ID_HEADER: &str = "x-request-id";

/// What the service knows about the request being served.
#[derive(Debug, Clone)]
pub struct RequestContext {
    /// The request id echoed in `x-request-id`.
    pub id: String,
    /// The request path (no query string).
    pub path: String,
}

tokio::task_local! {
    static CURRENT: RequestContext;
}

/// The context of the request this task is serving, if any.
pub fn current() -> Option<RequestContext> {
    CURRENT.try_with(Clone::clone).ok()
}

/// Run `f` (on another thread: a blocking unit of work) with `ctx`, taken
/// from [`current`] on the request's task, as its current context.
pub fn within<R>(ctx: Option<RequestContext>, f: impl FnOnce() -> R) -> R {
    match ctx {
        Some(ctx) => CURRENT.sync_scope(ctx, f),
        None => f(),
    }
}

/// Accept a caller-supplied id only when it is short and plainly printable.
fn sane_incoming_id(value: &HeaderValue) -> Option<String> {
    let s = value.to_str().ok()?;
    let ok = !s.is_empty()
        && s.len() <= 128
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b));
    ok.then(|| s.to_owned())
}

/// Middleware: assign the request id, run the request inside its span, log the outcome.
pub async fn middleware(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, Error> {
    let id = req
        .headers()
        .get(REQUEST_ID_HEADER)
        .and_then(sane_incoming_id)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let ctx = RequestContext {
        id: id.clone(),
        path: req.path().to_owned(),
    };
    req.extensions_mut().insert(ctx.clone());
    // HEAD is GET without a body (RFC 9110 §9.3.2): route it as GET; the HTTP
    // layer, which saw HEAD, sends the headers only.
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    let span = tracing::info_span!(
        "request",
        request_id = %id,
        method = %req.method(),
        route = tracing::field::Empty,
        status = tracing::field::Empty,
    );
    let started = Instant::now();
    let result = CURRENT
        .scope(ctx, next.call(req))
        .instrument(span.clone())
        .await;
    let mut res = result?;
    let route = res
        .request()
        .match_pattern()
        .unwrap_or_else(|| "<unmatched>".to_owned());
    span.record("route", route.as_str());
    span.record("status", res.status().as_u16());
    span.in_scope(|| {
        tracing::info!(
            elapsed_ms = started.elapsed().as_millis() as u64,
            "request finished"
        )
    });
    if let Ok(value) = HeaderValue::from_str(&id) {
        res.headers_mut()
            .insert(HeaderName::from_static(REQUEST_ID_HEADER), value);
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incoming_ids_are_filtered() {
        assert_eq!(
            sane_incoming_id(&HeaderValue::from_static("abc-123")),
            Some("abc-123".into())
        );
        assert_eq!(sane_incoming_id(&HeaderValue::from_static("a b")), None);
        assert_eq!(sane_incoming_id(&HeaderValue::from_static("")), None);
        let long = "x".repeat(129);
        assert_eq!(
            sane_incoming_id(&HeaderValue::from_str(&long).unwrap()),
            None
        );
    }
}

//! `POST /app/z/{zone}/expenditures/{report}/attachments` (a receipt or
//! invoice, as `multipart/form-data` from a plain file field) and
//! `GET .../attachments/{attachment}` (its bytes).
//!
//! Contract: the upload is judged exactly as the API's is
//! (`domain::attachment::Attachment::accept`: PDF, PNG or JPEG from the
//! content, the part's `Content-Type` naming it, at most 10 MiB; the API's
//! refusals, `api::expenditures::attachments::refusal`) and stored by
//! `usecases::expenditures::attachments::attach` (the tourism entity only).
//! The CSRF token is the form's `csrf_token` part, checked before anything
//! else. The multipart body is parsed here (a small parser: one boundary,
//! parts with `Content-Disposition: form-data; name=...`), as no multipart
//! crate is in the tree. A download goes through `attachments::download`,
//! which writes the read to the zone's access log as the API's does.

use actix_web::{
    HttpRequest, HttpResponse,
    http::header::{self, HeaderValue},
    web,
};
use chrono::SubsecRound;

use super::{base, caller_of};
use crate::{
    api::{
        caller::{InZone, ZoneUnit},
        expenditures::attachments::refusal,
    },
    app::AppState,
    domain::{
        attachment::{Attachment, AttachmentKind},
        expenditure::DocumentKind,
    },
    error::{ApiError, FieldError},
    usecases::expenditures::attachments,
    web::{WebError, see_other, session::Visit},
};

/// The largest multipart body accepted: the document's 10 MiB and room for the other parts.
pub const MAX_BODY: usize = 10 * 1024 * 1024 + 64 * 1024;

/// One part of a multipart body.
#[derive(Debug)]
pub struct Part<'a> {
    /// Its `name`.
    pub name: String,
    /// Its `Content-Type` (empty when absent).
    pub content_type: String,
    /// Its bytes.
    pub bytes: &'a [u8],
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// The boundary of a `multipart/form-data` content type.
pub fn boundary(content_type: &str) -> Option<String> {
    let (kind, params) = content_type.split_once(';')?;
    if !kind.trim().eq_ignore_ascii_case("multipart/form-data") {
        return None;
    }
    params.split(';').find_map(|p| {
        let (k, v) = p.trim().split_once('=')?;
        k.eq_ignore_ascii_case("boundary")
            .then(|| v.trim_matches('"').to_owned())
            .filter(|b| !b.is_empty() && b.len() <= 70)
    })
}

/// The parts of `body` (none when it is not well formed).
pub fn parts<'a>(body: &'a [u8], boundary: &str) -> Vec<Part<'a>> {
    let delimiter = format!("--{boundary}");
    let next = format!("\r\n--{boundary}");
    let mut out = Vec::new();
    let Some(mut at) = find(body, delimiter.as_bytes(), 0) else {
        return out;
    };
    at += delimiter.len();
    while body.get(at..at + 2) == Some(b"\r\n") {
        let start = at + 2;
        let Some(head_end) = find(body, b"\r\n\r\n", start) else {
            break;
        };
        let head = String::from_utf8_lossy(&body[start..head_end]).into_owned();
        let content = head_end + 4;
        let Some(end) = find(body, next.as_bytes(), content) else {
            break;
        };
        let mut name = String::new();
        let mut content_type = String::new();
        for line in head.split("\r\n") {
            let Some((k, v)) = line.split_once(':') else {
                continue;
            };
            if k.trim().eq_ignore_ascii_case("content-disposition") {
                for p in v.split(';') {
                    if let Some(n) = p.trim().strip_prefix("name=") {
                        name = n.trim_matches('"').to_owned();
                    }
                }
            } else if k.trim().eq_ignore_ascii_case("content-type") {
                content_type = v.trim().to_owned();
            }
        }
        out.push(Part {
            name,
            content_type,
            bytes: &body[content..end],
        });
        at = end + next.len();
    }
    out
}

/// `POST .../attachments`: attach the uploaded document, then back to the report.
pub async fn attach(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, WebError> {
    let content_type = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let parts = boundary(content_type)
        .map(|b| parts(&body, &b))
        .unwrap_or_default();
    let text = |name: &str| {
        parts
            .iter()
            .find(|p| p.name == name)
            .map(|p| String::from_utf8_lossy(p.bytes).trim().to_owned())
    };
    if !visit.csrf_ok(text(crate::web::session::CSRF_FIELD).as_deref()) {
        return Err(WebError::Csrf);
    }
    let (slug, report) = path.into_inner();
    let kind = text("kind").unwrap_or_default();
    let document = parts.iter().find(|p| p.name == "document").ok_or_else(|| {
        ApiError::Validation(vec![FieldError::new(
            "document",
            "required",
            "choose the document to attach",
        )])
    })?;
    let (doc_type, bytes) = (document.content_type.clone(), document.bytes.to_vec());
    let now = state.clock.now().naive_utc().trunc_subsecs(6);
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let id = report.clone();
    here.write(&state, move |ZoneUnit { conn, ctx, .. }| {
        ctx.require_presence()?;
        let kind = DocumentKind::parse("kind", &kind)?;
        let upload =
            Attachment::accept(AttachmentKind::Other, &doc_type, &bytes).map_err(refusal)?;
        attachments::attach(conn, &ctx, &id, kind, &upload, &bytes, now)
    })
    .await?;
    Ok(see_other(&format!("{}/expenditures/{report}", base(&slug))))
}

/// `GET .../attachments/{attachment}`: the document (the read is logged).
pub async fn download(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, report, id) = path.into_inner();
    let now = state.clock.now().naive_utc().trunc_subsecs(6);
    let here = InZone::new(caller_of(&visit)?, slug);
    let (meta, bytes) = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            ctx.require_presence()?;
            attachments::download(conn, &ctx, &report, &id, now)
        })
        .await?;
    let value = |v: String| HeaderValue::try_from(v).map_err(|e| ApiError::internal(e.to_string()));
    Ok(HttpResponse::Ok()
        .content_type(value(meta.content_type.clone())?)
        .insert_header((
            header::CONTENT_DISPOSITION,
            value(format!(
                "attachment; filename=\"{}-{}\"",
                meta.kind, meta.id
            ))?,
        ))
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .body(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_of_a_form() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\nabc\r\n--XyZ\r\nContent-Disposition: form-data; name=\"document\"; filename=\"r.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n\r\n--XyZ--\r\n";
        let b = boundary("multipart/form-data; boundary=XyZ").unwrap();
        let p = parts(body, &b);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].name, "csrf_token");
        assert_eq!(p[0].bytes, b"abc");
        assert_eq!(p[1].content_type, "application/pdf");
        assert_eq!(p[1].bytes, b"%PDF-1.4\r\n");
        assert!(boundary("application/x-www-form-urlencoded").is_none());
    }
}

//! `multipart/form-data` bodies of the portal's upload forms (a plain file
//! field, no JavaScript): the zone's receipts and invoices
//! (`web::zone::upload`) and an operator's return attachments
//! (`web::operator::attachments`).
//!
//! Contract: a small parser (one boundary, parts with
//! `Content-Disposition: form-data; name=...`), as no multipart crate is in
//! the tree; a body that is not well formed has no parts, hence no CSRF
//! token: [`Multipart::checked`] refuses it (403) before anything else is
//! read. The routes taking an upload raise their body limit to [`MAX_BODY`];
//! the document itself is judged by `domain::attachment::Attachment::accept`
//! (at most 10 MiB, the type from the content), never here.

use actix_web::{HttpRequest, http::header};

use super::{WebError, session::Visit};

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

/// A posted multipart form whose CSRF token was checked.
#[derive(Debug)]
pub struct Multipart<'a> {
    parts: Vec<Part<'a>>,
}

impl<'a> Multipart<'a> {
    /// The parts of the request's `body`, once its `csrf_token` part matches
    /// the visit's token (403 otherwise, checked before anything else).
    pub fn checked(visit: &Visit, req: &HttpRequest, body: &'a [u8]) -> Result<Self, WebError> {
        let content_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default();
        let form = Multipart {
            parts: boundary(content_type)
                .map(|b| parts(body, &b))
                .unwrap_or_default(),
        };
        if !visit.csrf_ok(form.text(super::session::CSRF_FIELD).as_deref()) {
            return Err(WebError::Csrf);
        }
        Ok(form)
    }

    /// The (first) part named `name`.
    pub fn part(&self, name: &str) -> Option<&Part<'a>> {
        self.parts.iter().find(|p| p.name == name)
    }

    /// The text of the part named `name`, trimmed.
    pub fn text(&self, name: &str) -> Option<String> {
        self.part(name)
            .map(|p| String::from_utf8_lossy(p.bytes).trim().to_owned())
    }
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

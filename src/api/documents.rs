//! Uploaded documents over HTTP, one rule for both kinds: a return's
//! attachments (`api::returns::attachments`) and an expenditure report's
//! receipts and invoices (`api::expenditures::attachments`), and the web
//! portal's uploads and downloads of them.
//!
//! Contract: an upload the attachment rules refuse is answered by
//! [`refusal`] (413 over the limit; 415 otherwise, naming `Content-Type` when
//! the content is not the type it names, else `body`). A download is
//! [`download`]: `200` with the stored bytes as their stored type, as an
//! `attachment` with the file name given, never sniffed
//! (`X-Content-Type-Options: nosniff`) and never cached
//! (`Cache-Control: private, no-store`).

use actix_web::{
    HttpResponse,
    http::header::{self, HeaderValue},
};

use crate::{
    domain::attachment::AttachmentError,
    error::{ApiError, FieldError},
};

/// The refusal the API answers for an upload the attachment rules refused
/// (see the module doc).
pub(crate) fn refusal(err: AttachmentError) -> ApiError {
    match err {
        AttachmentError::TooLarge { limit, .. } => ApiError::PayloadTooLarge { limit },
        other => {
            let field = match other {
                AttachmentError::ContentTypeMismatch { .. } => "Content-Type",
                _ => "body",
            };
            ApiError::UnsupportedContent(FieldError::new(field, other.rule(), other.to_string()))
        }
    }
}

/// `text` as a header value; text no header can carry (a stored value that
/// should never hold such) is a 500.
pub(crate) fn header_value(text: String) -> Result<HeaderValue, ApiError> {
    HeaderValue::try_from(text).map_err(|e| ApiError::internal(e.to_string()))
}

/// The answer of a download (see the module doc): `bytes` as `content_type`,
/// then the `extra` headers in order (a return's digests), then
/// `Content-Disposition: attachment; filename="<filename>"`, `nosniff` and
/// `no-store`.
pub(crate) fn download(
    content_type: &str,
    extra: Vec<(&'static str, String)>,
    filename: &str,
    bytes: Vec<u8>,
) -> Result<HttpResponse, ApiError> {
    let mut response = HttpResponse::Ok();
    response.content_type(header_value(content_type.to_owned())?);
    for (name, value) in extra {
        response.insert_header((name, header_value(value)?));
    }
    Ok(response
        .insert_header((
            header::CONTENT_DISPOSITION,
            header_value(format!("attachment; filename=\"{filename}\""))?,
        ))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .body(bytes))
}

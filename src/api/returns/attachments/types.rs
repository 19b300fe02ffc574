//! The request and response shapes of `api::returns::attachments`, and their
//! conversions from the use cases' records.

use std::{future::Future, pin::Pin};

use actix_web::{
    FromRequest, HttpRequest,
    dev::Payload,
    http::header::{self},
};
use chrono::{DateTime, Utc};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::super::return_location;
use crate::{
    db::returns::rows::AttachmentMeta,
    domain::attachment::{AttachmentKind, MAX_ATTACHMENT_BYTES},
    error::ApiError,
};

/// A raw request body and its declared `Content-Type`, at most
/// [`MAX_ATTACHMENT_BYTES`] (413 beyond, see the module doc).
#[derive(Debug)]
pub struct AttachmentBody {
    /// The `Content-Type` header as sent (empty when absent or not text).
    pub content_type: String,
    /// The bytes.
    pub bytes: Vec<u8>,
}

impl FromRequest for AttachmentBody {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let content_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let declared_len = crate::api::extract::declared_length(req);
        let mut payload = payload.take();
        let too_large = ApiError::PayloadTooLarge {
            limit: MAX_ATTACHMENT_BYTES,
        };
        Box::pin(async move {
            if declared_len.is_some_and(|n| n > MAX_ATTACHMENT_BYTES) {
                return Err(too_large);
            }
            let mut bytes =
                Vec::with_capacity(declared_len.unwrap_or(64 * 1024).min(MAX_ATTACHMENT_BYTES));
            while let Some(chunk) = payload.next().await {
                let chunk = chunk.map_err(|e| ApiError::InvalidParameter {
                    name: "body".into(),
                    message: format!("the body could not be read: {e}"),
                })?;
                if bytes.len() + chunk.len() > MAX_ATTACHMENT_BYTES {
                    return Err(too_large);
                }
                bytes.extend_from_slice(&chunk);
            }
            Ok(AttachmentBody {
                content_type,
                bytes,
            })
        })
    }
}

/// What the uploaded document is.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UploadParams {
    /// What the document is (required): `state_sales_tax_return` (Hayward requires it
    /// with every quarterly and annual return), `exemption_certificate`,
    /// `receipts_schedule` or `other`.
    #[param(value_type = AttachmentKind, example = "state_sales_tax_return")]
    pub kind: String,
}

/// An attachment's record (its bytes are at its own path).
#[derive(Debug, Serialize, ToSchema)]
pub struct AttachmentMetadata {
    /// Attachment id (UUID).
    pub id: String,
    /// What the document is.
    pub kind: AttachmentKind,
    /// Its media type, judged from the content: `application/pdf`, `image/png` or `image/jpeg`.
    pub content_type: String,
    /// Its size in bytes.
    pub size: i64,
    /// Lowercase hex SHA-256 of its bytes.
    pub sha256: String,
    /// When it was uploaded (RFC 3339, UTC).
    pub uploaded_at: DateTime<Utc>,
}

impl AttachmentMetadata {
    pub(super) fn of(meta: &AttachmentMeta) -> Result<Self, ApiError> {
        Ok(Self {
            id: meta.id.clone(),
            kind: AttachmentKind::parse("kind", &meta.kind)
                .map_err(|_| ApiError::internal("stored attachment has an unknown kind"))?,
            content_type: meta.content_type.clone(),
            size: meta.size_bytes,
            sha256: meta.sha256.clone(),
            uploaded_at: meta.uploaded_at.and_utc(),
        })
    }
}

/// The attachments of a return, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttachmentList {
    /// The attachments' records, without their bytes.
    pub items: Vec<AttachmentMetadata>,
}

/// The refusal the API answers for an upload the domain refused (one rule
/// for every upload: `api::documents`).
pub(crate) use crate::api::documents::refusal;

/// `.../returns/{return}/attachments/{id}`.
pub(super) fn attachment_location(slug: &str, payor_id: &str, return_id: &str, id: &str) -> String {
    format!(
        "{}/attachments/{id}",
        return_location(slug, payor_id, return_id)
    )
}

//! Entity tags and `If-Match`: the optimistic concurrency of registry writes.
//!
//! Contract: ETags are strong and quoted (`"<version>"`); a conditional write
//! needs `If-Match` naming the version it read (428 without one, `*` included;
//! 412 when it names another), judged only after authorisation.

use actix_web::{FromRequest, HttpRequest, dev::Payload, http::header};

use crate::error::ApiError;

/// The strong, quoted entity tag of a version.
pub(super) fn etag(version: i64) -> String {
    format!("\"{version}\"")
}

/// `/v1/municipalities/{slug}/payors/{id}`.
pub(super) fn payor_location(slug: &str, payor_id: &str) -> String {
    format!("/v1/municipalities/{slug}/payors/{payor_id}")
}

/// The `If-Match` header as sent (never fails: it is judged after authorisation).
#[derive(Debug, Clone)]
pub struct IfMatch(Option<String>);

impl FromRequest for IfMatch {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let value = req
            .headers()
            .get(header::IF_MATCH)
            .map(|v| v.to_str().unwrap_or("").to_owned());
        std::future::ready(Ok(Self(value)))
    }
}

/// The versions an `If-Match` header names.
#[derive(Debug, Clone)]
pub(super) struct Precondition(Vec<i64>);

impl IfMatch {
    /// 428 unless the header names at least one entity tag (`*` names none: an
    /// update must say which version it read). Weak or malformed tags never match.
    pub(super) fn required(&self) -> Result<Precondition, ApiError> {
        let raw = self.0.as_deref().map(str::trim).unwrap_or("");
        if raw.is_empty() || raw == "*" {
            return Err(ApiError::PreconditionRequired);
        }
        Ok(Precondition(
            raw.split(',')
                .filter_map(|tag| {
                    tag.trim()
                        .strip_prefix('"')?
                        .strip_suffix('"')?
                        .parse::<i64>()
                        .ok()
                })
                .collect(),
        ))
    }
}

impl Precondition {
    /// 412 unless `version` is one the caller read.
    pub(super) fn check(&self, version: i64) -> Result<(), ApiError> {
        if self.0.contains(&version) {
            Ok(())
        } else {
            Err(ApiError::PreconditionFailed)
        }
    }
}

/// `If-Match` parameter documentation, shared by every conditional write.
pub(super) const IF_MATCH_DOC: &str =
    "The ETag of the version read, e.g. `\"3\"` (required; a stale one is refused with 412)";

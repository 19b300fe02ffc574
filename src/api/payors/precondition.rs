//! Entity tags and `If-Match`: the optimistic concurrency of registry writes.
//!
//! Contract: ETags are strong and quoted (`"<version>"`). A conditional
//! write needs `If-Match` (428 without one), judged only after
//! authorisation, as RFC 9110 §13.1.1 says: `*` matches any current
//! representation (the write goes ahead on an existing record; a missing
//! one stays 404); a list (`"1", "2"`, or several `If-Match` headers)
//! matches when any member names the current version; the comparison is
//! strong, so a weak tag (`W/"2"`) or a malformed one never matches (412).

use actix_web::{FromRequest, HttpRequest, dev::Payload, http::header};

use utoipa::{
    IntoParams,
    openapi::{
        Object, Required, Type,
        path::{Parameter, ParameterBuilder, ParameterIn},
    },
};

use crate::{error::ApiError, usecases::payors::Precondition};

/// The strong, quoted entity tag of a version.
pub fn etag(version: i64) -> String {
    format!("\"{version}\"")
}

/// The `If-Match` header values as sent (never fails: judged after authorisation).
#[derive(Debug, Clone)]
pub struct IfMatch(Vec<String>);

impl FromRequest for IfMatch {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let values = req
            .headers()
            .get_all(header::IF_MATCH)
            .map(|v| v.to_str().unwrap_or("").to_owned())
            .collect();
        std::future::ready(Ok(Self(values)))
    }
}

impl IfMatch {
    /// What the header asks for; 428 when it is missing or blank.
    pub fn required(&self) -> Result<Precondition, ApiError> {
        let members: Vec<&str> = self
            .0
            .iter()
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .collect();
        match members.as_slice() {
            [] => Err(ApiError::PreconditionRequired),
            ["*"] => Ok(Precondition::Any),
            tags => Ok(Precondition::OneOf(
                tags.iter().filter_map(|tag| strong_version(tag)).collect(),
            )),
        }
    }
}

/// The version a strong tag `"<n>"` names (`None` for weak or malformed tags).
fn strong_version(tag: &str) -> Option<i64> {
    tag.strip_prefix('"')?.strip_suffix('"')?.parse().ok()
}

/// `If-Match` parameter documentation, shared by every conditional write.
pub const IF_MATCH_DOC: &str = "The ETag of the version read, e.g. `\"3\"`, a list of them, or `*` for whatever version is current (required; a stale or weak tag is refused with 412)";

/// A conditional write lists `IfMatch` among its `params(...)`: the header, required.
impl IntoParams for IfMatch {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            ParameterBuilder::new()
                .name("If-Match")
                .parameter_in(ParameterIn::Header)
                .required(Required::True)
                .description(Some(IF_MATCH_DOC))
                .schema(Some(Object::with_type(Type::String)))
                .build(),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(values: &[&str]) -> Result<Precondition, ApiError> {
        IfMatch(values.iter().map(|v| (*v).to_owned()).collect()).required()
    }

    #[test]
    fn if_match_follows_rfc_9110() {
        assert!(matches!(parse(&[]), Err(ApiError::PreconditionRequired)));
        assert!(matches!(
            parse(&["  "]),
            Err(ApiError::PreconditionRequired)
        ));
        assert_eq!(parse(&["*"]).unwrap(), Precondition::Any);
        assert_eq!(parse(&[" * "]).unwrap(), Precondition::Any);
        assert_eq!(
            parse(&["\"1\", \"2\""]).unwrap(),
            Precondition::OneOf(vec![1, 2])
        );
        assert_eq!(
            parse(&["\"1\"", "\"3\""]).unwrap(),
            Precondition::OneOf(vec![1, 3])
        );
        assert_eq!(
            parse(&["W/\"2\", 2, \"x\""]).unwrap(),
            Precondition::OneOf(vec![])
        );
        assert_eq!(
            parse(&["*, \"2\""]).unwrap(),
            Precondition::OneOf(vec![2]),
            "* inside a list is malformed and matches nothing itself"
        );
    }
}

//! RFC 9457 problem details: the one body every error response carries.
//!
//! Contract: every `type` is `/problems/{code}` (a relative URI served by this
//! service, see [`crate::api::problems`]) and every code is listed in
//! [`ProblemCode`]; codes are stable, titles are human text and may improve.
//! A problem never carries a confidential value or an internal error message.

use serde::Serialize;
use utoipa::ToSchema;

/// Media type of every error body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// The stable machine codes of every problem this service answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemCode {
    NotFound,
    RouteNotFound,
    MethodNotAllowed,
    MalformedJson,
    InvalidFieldType,
    UnknownField,
    InvalidParameter,
    ValidationFailed,
    PayloadTooLarge,
    UnsupportedMediaType,
    Conflict,
    NotReady,
    BadRequest,
    Unauthorized,
    Forbidden,
    TooManyRequests,
    PreconditionFailed,
    PreconditionRequired,
    Internal,
}

impl ProblemCode {
    /// Every code, in the order the catalogue lists them.
    pub const ALL: [ProblemCode; 19] = [
        Self::NotFound,
        Self::RouteNotFound,
        Self::MethodNotAllowed,
        Self::MalformedJson,
        Self::InvalidFieldType,
        Self::UnknownField,
        Self::InvalidParameter,
        Self::ValidationFailed,
        Self::PayloadTooLarge,
        Self::UnsupportedMediaType,
        Self::Conflict,
        Self::NotReady,
        Self::BadRequest,
        Self::Unauthorized,
        Self::Forbidden,
        Self::TooManyRequests,
        Self::PreconditionFailed,
        Self::PreconditionRequired,
        Self::Internal,
    ];

    /// The stable code, e.g. `validation-failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotFound => "not-found",
            Self::RouteNotFound => "route-not-found",
            Self::MethodNotAllowed => "method-not-allowed",
            Self::MalformedJson => "malformed-json",
            Self::InvalidFieldType => "invalid-field-type",
            Self::UnknownField => "unknown-field",
            Self::InvalidParameter => "invalid-parameter",
            Self::ValidationFailed => "validation-failed",
            Self::PayloadTooLarge => "payload-too-large",
            Self::UnsupportedMediaType => "unsupported-media-type",
            Self::Conflict => "conflict",
            Self::NotReady => "not-ready",
            Self::BadRequest => "bad-request",
            Self::Unauthorized => "unauthorized",
            Self::Forbidden => "forbidden",
            Self::TooManyRequests => "too-many-requests",
            Self::PreconditionFailed => "precondition-failed",
            Self::PreconditionRequired => "precondition-required",
            Self::Internal => "internal",
        }
    }

    /// Parse a code from its text form.
    pub fn parse(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.as_str() == code)
    }

    /// The HTTP status this code is answered with.
    pub fn status(self) -> u16 {
        match self {
            Self::NotFound | Self::RouteNotFound => 404,
            Self::MethodNotAllowed => 405,
            Self::MalformedJson
            | Self::InvalidFieldType
            | Self::UnknownField
            | Self::InvalidParameter
            | Self::BadRequest => 400,
            Self::ValidationFailed => 422,
            Self::PayloadTooLarge => 413,
            Self::UnsupportedMediaType => 415,
            Self::Conflict => 409,
            Self::NotReady => 503,
            Self::Unauthorized => 401,
            Self::Forbidden => 403,
            Self::TooManyRequests => 429,
            Self::PreconditionFailed => 412,
            Self::PreconditionRequired => 428,
            Self::Internal => 500,
        }
    }

    /// A short, human-readable summary of the problem type.
    pub fn title(self) -> &'static str {
        match self {
            Self::NotFound => "Resource not found",
            Self::RouteNotFound => "No such route",
            Self::MethodNotAllowed => "Method not allowed",
            Self::MalformedJson => "Malformed JSON",
            Self::InvalidFieldType => "Field has the wrong type",
            Self::UnknownField => "Unknown field",
            Self::InvalidParameter => "Invalid parameter",
            Self::ValidationFailed => "Validation failed",
            Self::PayloadTooLarge => "Request body too large",
            Self::UnsupportedMediaType => "Unsupported media type",
            Self::Conflict => "Conflict",
            Self::NotReady => "Service not ready",
            Self::BadRequest => "Bad request",
            Self::Unauthorized => "Authentication required",
            Self::Forbidden => "Forbidden",
            Self::TooManyRequests => "Too many requests",
            Self::PreconditionFailed => "Precondition failed",
            Self::PreconditionRequired => "Precondition required",
            Self::Internal => "Internal error",
        }
    }

    /// What the problem means and what a client can do about it.
    pub fn description(self) -> &'static str {
        match self {
            Self::NotFound => {
                "The resource does not exist, or the caller may not know that it exists."
            }
            Self::RouteNotFound => "No operation is defined at this path; see /openapi.json.",
            Self::MethodNotAllowed => {
                "The path exists but not with this method; the Allow header lists the methods."
            }
            Self::MalformedJson => "The request body is not well-formed JSON.",
            Self::InvalidFieldType => {
                "A field has a value of the wrong JSON type or format; `errors` names it."
            }
            Self::UnknownField => {
                "The body has a field the operation does not accept; requests are strict."
            }
            Self::InvalidParameter => "A path or query parameter could not be parsed.",
            Self::ValidationFailed => {
                "The request is well-formed but breaks a rule; `errors` names each field and rule."
            }
            Self::PayloadTooLarge => {
                "The request body exceeds the size limit (256 KiB for JSON; 10 MiB for an attachment)."
            }
            Self::UnsupportedMediaType => {
                "The request body must be sent as application/json; an attachment must be a PDF, PNG or JPEG whose content is the type its Content-Type names (`errors` names the rule)."
            }
            Self::Conflict => "The request conflicts with the current state of a resource.",
            Self::NotReady => {
                "The service cannot serve requests yet (database unreachable or migrations pending)."
            }
            Self::BadRequest => "The request could not be understood as sent.",
            Self::Unauthorized => {
                "No valid credentials: sign in (POST /v1/auth/token) or get a client token (POST /v1/oauth/token) and send it as `Authorization: Bearer <token>`."
            }
            Self::Forbidden => {
                "The caller is known here but its role or scopes do not allow this action."
            }
            Self::TooManyRequests => {
                "Too many failed attempts; retry after the `Retry-After` seconds."
            }
            Self::PreconditionFailed => {
                "The resource changed since it was read: its ETag no longer matches `If-Match`; read it again."
            }
            Self::PreconditionRequired => "Send `If-Match` with the ETag of the version you read.",
            Self::Internal => {
                "An unexpected error; details are in the server log under the request id."
            }
        }
    }

    /// The `type` URI of this problem.
    pub fn type_uri(self) -> String {
        format!("/problems/{}", self.as_str())
    }
}

/// One field that broke a rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ToSchema)]
pub struct FieldError {
    /// The offending field or parameter, as a JSON path (`gross_receipts`, `items[2].amount`).
    pub field: String,
    /// The stable id of the rule it broke (`required`, `not_negative`, `max_length`).
    pub rule: String,
    /// A human-readable explanation.
    pub message: String,
}

impl FieldError {
    /// Build a field error.
    pub fn new(
        field: impl Into<String>,
        rule: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            field: field.into(),
            rule: rule.into(),
            message: message.into(),
        }
    }
}

/// The one sentence a problem's `detail` uses for a broken rule.
impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` breaks rule `{}`: {}",
            self.field, self.rule, self.message
        )
    }
}

/// An RFC 9457 problem details body (`application/problem+json`).
#[derive(Debug, Clone, Serialize, serde::Deserialize, ToSchema)]
pub struct Problem {
    /// URI reference identifying the problem type: `/problems/{code}`.
    #[serde(rename = "type")]
    pub type_uri: String,
    /// Short summary of the problem type.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// Explanation specific to this occurrence, naming the field or rule involved.
    pub detail: String,
    /// The request path this problem occurred on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// Stable machine-readable code (the last segment of `type`).
    pub code: String,
    /// The request id (also in the `x-request-id` header); quote it when reporting a problem.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// The fields that broke a rule, when the problem concerns request fields.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<FieldError>,
    /// OAuth 2.0 error code (RFC 6749 §5.2), on token endpoint errors only, e.g. `invalid_client`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Problem {
    /// A problem of the given code with a specific detail.
    pub fn new(code: ProblemCode, detail: impl Into<String>) -> Self {
        let ctx = crate::request_context::current();
        Self {
            type_uri: code.type_uri(),
            title: code.title().to_owned(),
            status: code.status(),
            detail: detail.into(),
            instance: ctx.as_ref().map(|c| c.path.clone()),
            code: code.as_str().to_owned(),
            request_id: ctx.map(|c| c.id),
            errors: Vec::new(),
            error: None,
        }
    }

    /// Attach field errors.
    pub fn with_errors(mut self, errors: Vec<FieldError>) -> Self {
        self.errors = errors;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for code in ProblemCode::ALL {
            assert_eq!(ProblemCode::parse(code.as_str()), Some(code));
            assert!(
                seen.insert(code.as_str()),
                "duplicate code {}",
                code.as_str()
            );
            assert!((400..600).contains(&code.status()));
        }
        assert_eq!(ProblemCode::parse("nope"), None);
    }
}

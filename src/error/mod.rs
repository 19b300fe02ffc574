//! The service's one error type, mapped once to problem details.
//!
//! Contract: handlers and the db layer return [`ApiError`]; the only place an
//! error becomes an HTTP response is [`ApiError::error_response`] (plus the
//! framework fallbacks in [`fallback`], which reuse it). Diesel "not found"
//! is 404, unique violations 409, anything unexpected an opaque 500 whose
//! cause goes only to the log, under the request id.

pub mod fallback;
pub mod problem;

use actix_web::{HttpResponse, ResponseError, http::StatusCode, http::header};
use diesel::result::{DatabaseErrorKind, Error as DieselError};

pub use problem::{FieldError, PROBLEM_JSON, Problem, ProblemCode};

/// Every failure the service can answer with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The resource does not exist or the caller may not know it exists.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// No operation at this path.
    #[error("no route for {0}")]
    RouteNotFound(String),
    /// The path exists with other methods.
    #[error("method not allowed; allowed: {}", .0.join(", "))]
    MethodNotAllowed(Vec<String>),
    /// The body is not well-formed JSON.
    #[error("malformed JSON: {0}")]
    MalformedJson(String),
    /// A field has the wrong type or format.
    #[error("invalid field type at {field}: {message}")]
    InvalidFieldType { field: String, message: String },
    /// The body has a field the operation does not accept.
    #[error("unknown field {field}")]
    UnknownField { field: String, expected: String },
    /// A path or query parameter could not be parsed.
    #[error("invalid parameter {name}: {message}")]
    InvalidParameter { name: String, message: String },
    /// The request breaks one or more rules.
    #[error("validation failed")]
    Validation(Vec<FieldError>),
    /// Body over the limit.
    #[error("payload too large")]
    PayloadTooLarge { limit: usize },
    /// Body not sent as JSON.
    #[error("unsupported media type")]
    UnsupportedMediaType,
    /// A body whose content is not of a type the operation accepts (an attachment
    /// that is no PDF, PNG or JPEG, or not the type its `Content-Type` names): a 415
    /// whose `errors` names the field and the rule.
    #[error("unsupported content: rule {}", .0.rule)]
    UnsupportedContent(FieldError),
    /// Conflicts with current state (e.g. a unique key).
    #[error("conflict: {0}")]
    Conflict(String),
    /// Conflicts with a named rule of current state (e.g. one rate per zone): a 409
    /// whose `errors` names the field and the rule.
    #[error("conflict with rule {}", .0.rule)]
    RuleConflict(FieldError),
    /// The service cannot serve requests yet.
    #[error("not ready: {0}")]
    NotReady(String),
    /// No or invalid credentials (the reason is safe to show: it never echoes the token).
    #[error("unauthorized: {0}")]
    Unauthorized(String),
    /// An OAuth 2.0 token endpoint error (RFC 6749 §5.2): status, `error` code, detail.
    #[error("oauth error {1}: {2}")]
    OAuth(u16, &'static str, String),
    /// The caller may know the resource but may not do this.
    #[error("forbidden: {0}")]
    Forbidden(String),
    /// Throttled; retry after this many seconds.
    #[error("too many requests")]
    TooManyRequests { retry_after_secs: u64 },
    /// `If-Match` does not match the current ETag.
    #[error("precondition failed")]
    PreconditionFailed,
    /// `If-Match` is required and missing.
    #[error("precondition required")]
    PreconditionRequired,
    /// Anything unexpected; the message is logged, never returned.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// One validation failure.
    pub fn invalid(field: &str, rule: &str, message: impl Into<String>) -> Self {
        Self::Validation(vec![FieldError::new(field, rule, message)])
    }

    /// `Ok` when nothing is at fault; else one 422 naming every fault.
    pub fn refused(faults: Vec<FieldError>) -> Result<(), Self> {
        if faults.is_empty() {
            Ok(())
        } else {
            Err(Self::Validation(faults))
        }
    }

    /// Wrap an unexpected error; its text is logged only.
    pub fn internal(err: impl std::fmt::Display) -> Self {
        Self::Internal(err.to_string())
    }

    fn code(&self) -> ProblemCode {
        match self {
            Self::NotFound(_) => ProblemCode::NotFound,
            Self::RouteNotFound(_) => ProblemCode::RouteNotFound,
            Self::MethodNotAllowed(_) => ProblemCode::MethodNotAllowed,
            Self::MalformedJson(_) => ProblemCode::MalformedJson,
            Self::InvalidFieldType { .. } => ProblemCode::InvalidFieldType,
            Self::UnknownField { .. } => ProblemCode::UnknownField,
            Self::InvalidParameter { .. } => ProblemCode::InvalidParameter,
            Self::Validation(_) => ProblemCode::ValidationFailed,
            Self::PayloadTooLarge { .. } => ProblemCode::PayloadTooLarge,
            Self::UnsupportedMediaType => ProblemCode::UnsupportedMediaType,
            Self::UnsupportedContent(_) => ProblemCode::UnsupportedMediaType,
            Self::Conflict(_) => ProblemCode::Conflict,
            Self::RuleConflict(_) => ProblemCode::Conflict,
            Self::NotReady(_) => ProblemCode::NotReady,
            Self::Unauthorized(_) => ProblemCode::Unauthorized,
            Self::OAuth(401, ..) => ProblemCode::Unauthorized,
            Self::OAuth(..) => ProblemCode::BadRequest,
            Self::Forbidden(_) => ProblemCode::Forbidden,
            Self::TooManyRequests { .. } => ProblemCode::TooManyRequests,
            Self::PreconditionFailed => ProblemCode::PreconditionFailed,
            Self::PreconditionRequired => ProblemCode::PreconditionRequired,
            Self::Internal(_) => ProblemCode::Internal,
        }
    }

    /// The problem body for this error.
    pub fn to_problem(&self) -> Problem {
        let code = self.code();
        match self {
            Self::NotFound(what) => Problem::new(code, format!("{what} not found")),
            Self::RouteNotFound(path) => Problem::new(
                code,
                format!("no operation is defined at {path}; see /openapi.json"),
            ),
            Self::MethodNotAllowed(allow) => Problem::new(
                code,
                format!("this path accepts only: {}", allow.join(", ")),
            ),
            Self::MalformedJson(msg) => {
                Problem::new(code, format!("the request body is not valid JSON: {msg}"))
            }
            Self::InvalidFieldType { field, message } => {
                Problem::new(code, format!("field `{field}`: {message}")).with_errors(vec![
                    FieldError::new(field.clone(), "type", message.clone()),
                ])
            }
            Self::UnknownField { field, expected } => Problem::new(
                code,
                format!("field `{field}` is not accepted here; expected one of: {expected}"),
            )
            .with_errors(vec![FieldError::new(
                field.clone(),
                "unknown_field",
                format!("not accepted; expected one of: {expected}"),
            )]),
            Self::InvalidParameter { name, message } => {
                Problem::new(code, format!("parameter `{name}`: {message}")).with_errors(vec![
                    FieldError::new(name.clone(), "format", message.clone()),
                ])
            }
            Self::Validation(errors) => {
                let detail = errors
                    .iter()
                    .map(FieldError::to_string)
                    .collect::<Vec<_>>()
                    .join("; ");
                Problem::new(code, detail).with_errors(errors.clone())
            }
            Self::PayloadTooLarge { limit } => Problem::new(
                code,
                format!("the request body exceeds the limit of {limit} bytes"),
            ),
            Self::UnsupportedMediaType => Problem::new(
                code,
                "send the request body with Content-Type: application/json",
            ),
            Self::UnsupportedContent(e) => {
                Problem::new(code, e.to_string()).with_errors(vec![e.clone()])
            }
            Self::Conflict(msg) => Problem::new(code, msg.clone()),
            Self::RuleConflict(e) => Problem::new(code, e.to_string()).with_errors(vec![e.clone()]),
            Self::NotReady(msg) => Problem::new(code, msg.clone()),
            Self::Unauthorized(msg) => Problem::new(code, msg.clone()),
            Self::OAuth(_, error, msg) => {
                let mut p = Problem::new(code, msg.clone());
                p.error = Some((*error).to_owned());
                p
            }
            Self::Forbidden(msg) => Problem::new(code, msg.clone()),
            Self::TooManyRequests { retry_after_secs } => Problem::new(
                code,
                format!("too many failed attempts; retry after {retry_after_secs} seconds"),
            ),
            Self::PreconditionFailed => Problem::new(
                code,
                "If-Match does not match the current ETag: the resource changed; read it again",
            ),
            Self::PreconditionRequired => {
                Problem::new(code, "this update requires If-Match with the ETag you read")
            }
            Self::Internal(_) => Problem::new(
                code,
                "an unexpected error occurred; it has been logged under the request id",
            ),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        let status = match self {
            Self::OAuth(status, ..) => *status,
            _ => self.code().status(),
        };
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::Internal(cause) = self {
            // The cause may name tables or constraints; it goes to the log only.
            tracing::error!(cause = %cause, "internal error");
        }
        let mut builder = HttpResponse::build(self.status_code());
        builder.content_type(PROBLEM_JSON);
        match self {
            Self::MethodNotAllowed(allow) => {
                builder.insert_header((header::ALLOW, allow.join(", ")));
            }
            Self::Unauthorized(_) | Self::OAuth(401, ..) => {
                builder.insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"roomtax\""));
            }
            Self::TooManyRequests { retry_after_secs } => {
                builder.insert_header((header::RETRY_AFTER, retry_after_secs.to_string()));
            }
            _ => {}
        }
        builder.json(self.to_problem())
    }
}

impl From<DieselError> for ApiError {
    fn from(err: DieselError) -> Self {
        match err {
            DieselError::NotFound => Self::NotFound("resource"),
            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => {
                Self::Conflict("a resource with the same identifying values already exists".into())
            }
            DieselError::DatabaseError(DatabaseErrorKind::ClosedConnection, _)
            | DieselError::BrokenTransactionManager => {
                // The pool drops such a connection (see db::Manager::has_broken).
                tracing::warn!(cause = %err, "database connection lost");
                Self::NotReady("the database connection was lost; try again".into())
            }
            other => Self::internal(format!("database: {other}")),
        }
    }
}

impl From<r2d2::Error> for ApiError {
    fn from(err: r2d2::Error) -> Self {
        tracing::warn!(cause = %err, "no database connection available");
        Self::NotReady("the database is unreachable; try again shortly".into())
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(err: tokio::task::JoinError) -> Self {
        Self::internal(format!("blocking task failed: {err}"))
    }
}

impl From<crate::domain::DomainError> for FieldError {
    fn from(err: crate::domain::DomainError) -> Self {
        use crate::domain::DomainError;
        match err {
            DomainError::Invalid {
                field,
                rule,
                message,
            } => FieldError::new(field, rule, message),
            DomainError::NoPolicy { date } => FieldError::new(
                "period",
                "no_policy_in_force",
                format!("no policy version of this municipality is in force on {date}"),
            ),
        }
    }
}

impl From<crate::domain::DomainError> for ApiError {
    fn from(err: crate::domain::DomainError) -> Self {
        Self::Validation(vec![err.into()])
    }
}

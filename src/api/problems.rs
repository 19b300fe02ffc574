//! `/problems/{code}`: the catalogue behind every problem `type` URI.
//!
//! Contract: each `type` a problem carries dereferences to an entry here, so
//! a developer who meets an unknown code can read what it means.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ProblemCode};

/// One problem type.
#[derive(Debug, Serialize, ToSchema)]
pub struct ProblemType {
    /// The stable code.
    pub code: &'static str,
    /// The `type` URI problems of this kind carry.
    #[serde(rename = "type")]
    pub type_uri: String,
    /// The HTTP status answered with.
    pub status: u16,
    /// Short summary.
    pub title: &'static str,
    /// What it means and what a client can do.
    pub description: &'static str,
}

impl From<ProblemCode> for ProblemType {
    fn from(c: ProblemCode) -> Self {
        Self {
            code: c.as_str(),
            type_uri: c.type_uri(),
            status: c.status(),
            title: c.title(),
            description: c.description(),
        }
    }
}

/// Every problem type this service answers with.
///
/// Public: the `type` codes of the RFC 9457 problem details this service answers with,
/// each with its status and meaning. Not written to the access log.
#[utoipa::path(
    operation_id = "list_problem_types",
    tag = "operations",
    responses((status = 200, description = "The problem catalogue", body = Vec<ProblemType>))
)]
#[get("/problems")]
pub async fn catalogue() -> web::Json<Vec<ProblemType>> {
    web::Json(ProblemCode::ALL.into_iter().map(Into::into).collect())
}

/// One problem type.
///
/// Public: the URL a problem's `type` points at. Not written to the access log.
#[utoipa::path(
    operation_id = "get_problem_type",
    tag = "operations",
    params(("code" = String, Path, description = "Problem code, e.g. `validation-failed`")),
    responses(
        (status = 200, description = "The problem type", body = ProblemType)
    )
)]
#[get("/problems/{code}")]
pub async fn show(path: web::Path<String>) -> Result<web::Json<ProblemType>, ApiError> {
    ProblemCode::parse(&path)
        .map(|c| web::Json(c.into()))
        .ok_or(ApiError::NotFound("problem type"))
}

//! Liveness and readiness probes.
//!
//! Contract: `/healthz` answers 200 whenever the process serves HTTP;
//! `/readyz` answers 200 only when the database answers and every embedded
//! migration is applied, otherwise a 503 problem.

use actix_web::{get, web};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{app::AppState, error::ApiError};

/// Probe result.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// `ok` (alive) or `ready` (database reachable, migrations applied).
    pub status: &'static str,
    /// The database backend in use, `sqlite` or `postgres` (readiness only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub database: Option<&'static str>,
}

/// Liveness: the process is serving requests.
///
/// Public, no sign-in. Answers 200 whenever the HTTP server runs; it touches no
/// database, so a load balancer can tell a hung process from a database outage (see `/readyz`).
#[utoipa::path(
    operation_id = "healthz",
    tag = "operations",
    responses((status = 200, description = "The process is alive", body = Health))
)]
#[get("/healthz")]
pub async fn healthz() -> web::Json<Health> {
    web::Json(Health {
        status: "ok",
        database: None,
    })
}

/// Readiness: the database is reachable and migrations are applied.
///
/// Public, no sign-in. 503 `not-ready` while a database connection cannot be had, the SQLite file
/// is missing, or a migration is pending; route traffic only to ready instances.
#[utoipa::path(
    operation_id = "readyz",
    tag = "operations",
    responses(
        (status = 200, description = "Ready to serve", body = Health),
        (status = 503, description = "Database unreachable or migrations pending",
         body = crate::error::Problem, content_type = "application/problem+json")
    )
)]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<web::Json<Health>, ApiError> {
    state.db.check_ready().await?;
    Ok(web::Json(Health {
        status: "ready",
        database: Some(state.db.backend()),
    }))
}

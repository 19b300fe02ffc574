//! `/v1/municipalities/{municipality}/calendar`: every return due in a year.
//!
//! Contract: public; lists the returns whose due date falls in the requested
//! calendar year (so 2026 includes the 2025-Q4 return due in January 2026 and
//! the annual 2025 return), each with its due date, rule and citation. The
//! annual return shown is the calendar-year one; a Montello payor that elected a
//! fiscal year has its own date (90 days after that year closes).

use actix_web::{get, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{caller::PublicMunicipality, extract::ApiQuery};
use crate::{
    app::AppState,
    domain::DueItem,
    error::{ApiError, Problem},
};

/// Which year to list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct CalendarParams {
    /// Calendar year, e.g. 2026 (1991 to 2200: `domain::period` years, less the first, whose returns fall due in no listed year).
    #[param(minimum = 1991, maximum = 2200)]
    pub year: i32,
}

/// The returns due in one year.
#[derive(Debug, Serialize, ToSchema)]
pub struct DueCalendar {
    /// Slug of the municipality.
    pub municipality: String,
    /// The calendar year listed.
    pub year: i32,
    /// Every return due that year, by due date.
    pub items: Vec<DueItem>,
}

/// Every return due in a calendar year, with its due date.
///
/// Public law, no sign-in: the quarterly (and annual) due dates the policy in
/// force gives each period ending in `year` (Montello: last calendar day of the
/// month after the quarter; Hayward: its last business day). Years 1991 to 2200.
#[utoipa::path(
    operation_id = "get_due_calendar",
    tag = "policies",
    params(
        crate::api::params::MunicipalityPath,
        CalendarParams
    ),
    responses(
        (status = 200, description = "The due calendar", body = DueCalendar),
        (status = 400, description = "Missing or unparseable year", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Year out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/calendar")]
pub async fn show(
    state: web::Data<AppState>,
    at: PublicMunicipality,
    ApiQuery(params): ApiQuery<CalendarParams>,
) -> Result<web::Json<DueCalendar>, ApiError> {
    let year = params.year;
    at.read(&state, move |conn, muni| {
        let items = crate::usecases::public_law::calendar_of(conn, &muni, year)?;
        Ok(web::Json(DueCalendar {
            municipality: muni.slug,
            year,
            items,
        }))
    })
    .await
}

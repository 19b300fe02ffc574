//! `POST /v1/zones/{zone}/members/{municipality}/leave`: the zone admin records
//! a member's last day in the zone.

use actix_web::{post, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::on_side;
use crate::{
    api::{caller::InZone, extract::ApiJson},
    app::AppState,
    db::Mode,
    error::{ApiError, Problem},
    usecases::membership,
};

/// A municipality leaving the zone.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaveRequest {
    /// The municipality's last day in the zone: after the day it joined, and no earlier than the last day of the previous month (a period that has ended keeps its commission share). From the next day on, its quotes send nothing to the commission.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(example = "2027-12-31")]
    pub left_on: NaiveDate,
}

/// A municipality's membership in a zone.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneMembership {
    /// Slug of the zone.
    pub zone: String,
    /// Slug of the member municipality.
    pub municipality: String,
    /// Name of the member municipality.
    pub municipality_name: String,
    /// First day in the zone.
    pub joined_on: NaiveDate,
    /// Last day in the zone, if it has or will have left.
    pub left_on: Option<NaiveDate>,
}

/// Record that a member municipality leaves the zone.
///
/// Only the zone's zone_admin, as a person. `left_on` is the last day of membership; it may not fall
/// in a period that has ended (forward-only, like policy versions), and from the next
/// day the municipality's quotes send no share to the commission. Not written to the
/// access log.
#[utoipa::path(
    operation_id = "leave_zone",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::ZonePath,
        ("municipality" = String, Path, description = "Slug of the member municipality")
    ),
    request_body = LeaveRequest,
    responses(
        (status = 200, description = "The membership, now with its last day", body = ZoneMembership),
        (status = 404, description = "No such zone or municipality, the municipality was never a member, or the caller has no relation to the zone", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The municipality has already left the zone (rule `open_membership`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`left_on` not after the day it joined (`after_joined_on`), or in a period that has ended (`not_retroactive`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/members/{municipality}/leave")]
pub async fn leave(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
    body: Result<ApiJson<LeaveRequest>, ApiError>,
) -> Result<web::Json<ZoneMembership>, ApiError> {
    let (_, slug) = path.into_inner();
    let today = state.clock.today();
    let (zone_slug, membership, municipality) = on_side(&state, here, Mode::Write, move |on| {
        let ApiJson(body) = body?;
        let (membership, municipality) =
            membership::leave(on.conn, &on.row, &slug, body.left_on, today)?;
        Ok((on.row.slug, membership, municipality))
    })
    .await?;
    Ok(web::Json(ZoneMembership {
        zone: zone_slug,
        municipality: municipality.slug,
        municipality_name: municipality.name,
        joined_on: membership.joined_on,
        left_on: membership.left_on,
    }))
}

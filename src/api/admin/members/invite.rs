//! `/v1/zones/{zone}/invitations`: the zone admin invites a municipality,
//! lists the zone's invitations and withdraws a pending one.

use actix_web::{HttpResponse, get, post, web};
use chrono::{NaiveDate, Utc};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{ZoneInvitation, ZoneInvitationList, on_side};
use crate::{
    api::{caller::InZone, extract::ApiJson},
    app::AppState,
    db::Mode,
    error::{ApiError, Problem},
    usecases::membership::{self, Side},
};

/// An invitation to send.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InvitationRequest {
    /// Slug of an existing municipality (municipalities are created with `roomtax admin create-municipality`).
    #[schema(example = "westfield")]
    pub municipality: String,
    /// Proposed first day in the zone, not before the first day of this month; absent: the first day of the month the municipality accepts in. The membership never starts before that day.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(example = "2027-01-01")]
    pub joined_on: Option<NaiveDate>,
}

/// Invite an existing municipality into the zone (its clerk-treasurer accepts or declines).
///
/// Only the zone's zone_admin, as a person. The membership starts only when the municipality's
/// clerk-treasurer accepts, from `joined_on` or the first day of the acceptance's month
/// if later. Refused when the municipality's current rate differs from the zone's (Wis.
/// Stat. § 66.0615: members levy one rate) or it already belongs to a zone. Not written
/// to the access log.
#[utoipa::path(
    operation_id = "invite_zone_member",
    tag = "administration",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath),
    request_body = InvitationRequest,
    responses(
        (status = 201, description = "The pending invitation", body = ZoneInvitation),
        (status = 409, description = "`errors` names the rule: `one_zone_at_a_time`, `zone_same_rate` (Wis. Stat. § 66.0615: members levy one rate) or `one_pending_invitation`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No such municipality (`existing_municipality`), or `joined_on` before this month (`not_before_acceptance_month`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/invitations")]
pub async fn invite(
    state: web::Data<AppState>,
    here: InZone,
    body: Result<ApiJson<InvitationRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let now = Utc::now().naive_utc();
    let invitation = on_side(&state, here, Mode::Write, move |on| {
        let ApiJson(body) = body?;
        membership::invite(
            on.conn,
            &on.row,
            &body.municipality,
            body.joined_on,
            &on.by,
            now,
        )
    })
    .await?;
    Ok(HttpResponse::Created().json(ZoneInvitation::from(invitation)))
}

/// Every invitation the zone sent, answered ones included.
///
/// Only the zone's zone_admin, as a person. Pending, accepted, declined and withdrawn invitations,
/// newest first. Not written to the access log.
#[utoipa::path(
    operation_id = "list_zone_invitations",
    tag = "administration",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath),
    responses(
        (status = 200, description = "The zone's invitations, newest first", body = ZoneInvitationList)
    )
)]
#[get("/v1/zones/{zone}/invitations")]
pub async fn list(
    state: web::Data<AppState>,
    here: InZone,
) -> Result<web::Json<ZoneInvitationList>, ApiError> {
    let items = on_side(&state, here, Mode::Read, |on| {
        membership::invitations_of_zone(on.conn, &on.row)
    })
    .await?;
    Ok(web::Json(items.into()))
}

/// Withdraw a pending invitation (it stays on record as `withdrawn`).
///
/// Only the zone's zone_admin, as a person. Only a pending invitation can be withdrawn. Not written
/// to the access log.
#[utoipa::path(
    operation_id = "withdraw_zone_invitation",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::ZonePath,
        ("id" = String, Path, description = "Invitation id")
    ),
    responses(
        (status = 200, description = "The invitation, now withdrawn", body = ZoneInvitation),
        (status = 404, description = "No such zone or invitation of it, or the caller has no relation to the zone", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The invitation was already answered (rule `invitation_pending`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/invitations/{id}/withdraw")]
pub async fn withdraw(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
) -> Result<web::Json<ZoneInvitation>, ApiError> {
    let (_, id) = path.into_inner();
    let now = Utc::now().naive_utc();
    let invitation = on_side(&state, here, Mode::Write, move |on| {
        membership::end_pending(on.conn, Side::Zone(&on.row), &id, &on.by, now)
    })
    .await?;
    Ok(web::Json(invitation.into()))
}

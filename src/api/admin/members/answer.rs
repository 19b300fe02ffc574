//! `/v1/municipalities/{municipality}/zone-invitations`: the invited
//! municipality's clerk-treasurer lists its invitations and accepts or
//! declines them. Only invitations addressed to this municipality are seen.

use actix_web::{get, post, web};
use chrono::Utc;

use super::{ZoneInvitation, ZoneInvitationList, on_side};
use crate::{
    api::caller::InMunicipality,
    app::AppState,
    db::{DbConn, Mode, models::MunicipalityRow},
    error::{ApiError, Problem},
    usecases::membership::{self, Invitation, Side},
};

/// The invitations addressed to the municipality, answered ones included.
///
/// Only the municipality's clerk-treasurer, as a person. Pending, accepted, declined
/// and withdrawn invitations, newest first. Not written to the access log.
#[utoipa::path(
    operation_id = "list_municipality_zone_invitations",
    tag = "administration",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath),
    responses(
        (status = 200, description = "The invitations, newest first", body = ZoneInvitationList)
    )
)]
#[get("/v1/municipalities/{municipality}/zone-invitations")]
pub async fn list(
    state: web::Data<AppState>,
    at: InMunicipality,
) -> Result<web::Json<ZoneInvitationList>, ApiError> {
    let items = on_side(&state, at, Mode::Read, |on| {
        membership::invitations_to(on.conn, &on.row)
    })
    .await?;
    Ok(web::Json(items.into()))
}

/// A municipality's answer to an invitation (`membership::accept`, or
/// `end_pending`: decline).
type Answer = fn(
    &mut DbConn,
    &MunicipalityRow,
    &str,
    &str,
    chrono::NaiveDateTime,
) -> Result<Invitation, ApiError>;

/// Answer the invitation `id` addressed to the path's municipality.
async fn respond(
    state: web::Data<AppState>,
    at: InMunicipality,
    id: String,
    answer: Answer,
) -> Result<web::Json<ZoneInvitation>, ApiError> {
    let now = Utc::now().naive_utc();
    let invitation = on_side(&state, at, Mode::Write, move |on| {
        answer(on.conn, &on.row, &id, &on.by, now)
    })
    .await?;
    Ok(web::Json(invitation.into()))
}

/// Accept: the municipality becomes a member from the proposed day, or from the first day of this month if that is later. No request body.
///
/// Only the municipality's clerk-treasurer, as a person: joining a zone takes both
/// sides. Every member of a zone levies the same rate (Wis. Stat. § 66.0615), and a
/// municipality belongs to one zone at a time. Not written to the access log.
#[utoipa::path(
    operation_id = "accept_zone_invitation",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        ("id" = String, Path, description = "Invitation id")
    ),
    responses(
        (status = 200, description = "The invitation, accepted, with the membership's first day in `joined_on`", body = ZoneInvitation),
        (status = 404, description = "No such municipality or invitation addressed to it, or the caller has no relation to it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`errors` names the rule: `invitation_pending` (already answered or withdrawn), `one_zone_at_a_time`, or `zone_same_rate` (Wis. Stat. § 66.0615: members levy one rate)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/zone-invitations/{id}/accept")]
pub async fn accept(
    state: web::Data<AppState>,
    at: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<web::Json<ZoneInvitation>, ApiError> {
    respond(state, at, path.into_inner().1, membership::accept).await
}

/// Decline: nothing changes but the invitation, which stays on record as `declined`. No request body.
///
/// Only the municipality's clerk-treasurer, as a person. Only a pending invitation can
/// be declined. Not written to the access log.
#[utoipa::path(
    operation_id = "decline_zone_invitation",
    tag = "administration",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        ("id" = String, Path, description = "Invitation id")
    ),
    responses(
        (status = 200, description = "The invitation, declined", body = ZoneInvitation),
        (status = 404, description = "No such municipality or invitation addressed to it, or the caller has no relation to it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already answered or withdrawn (rule `invitation_pending`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/zone-invitations/{id}/decline")]
pub async fn decline(
    state: web::Data<AppState>,
    at: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<web::Json<ZoneInvitation>, ApiError> {
    respond(
        state,
        at,
        path.into_inner().1,
        |conn, municipality, id, by, now| {
            membership::end_pending(conn, Side::Municipality(municipality), id, by, now)
        },
    )
    .await
}

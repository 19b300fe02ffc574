//! Zone membership over HTTP: joining takes both sides.
//!
//! Contract: the zone admin of a zone (`ZoneAction::ManageMembership`) invites
//! an existing municipality (`invite`), lists and withdraws the zone's
//! invitations, and records a member leaving (`leave`); the clerk-treasurer of
//! the invited municipality (`Action::AnswerZoneInvitations`) lists the
//! invitations addressed to it and accepts or declines them (`answer`). A zone
//! admin never sees another side's data: each request runs scoped to its own
//! tenant, and row-level security on PostgreSQL shows an invitation only to
//! the zone that sent it and the municipality invited. Municipalities are not
//! created here (`roomtax admin create-municipality` does that); the person
//! running the installation records a membership without an invitation with
//! `roomtax admin join-zone`. Every rule (dates, overlap, forward-only leave,
//! one rate per zone) is in `domain::zone_membership`, every use case in
//! `usecases::membership`; handlers authorise, parse, call one use case and
//! shape the response. Nothing confidential is read, returned or logged.

pub mod answer;
pub mod invite;
pub mod leave;

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    api::caller::{InTenant, Municipality, Place, Zone, ZoneUnit},
    app::AppState,
    db::{
        DbConn, Mode,
        models::{MunicipalityRow, ZoneRow},
    },
    error::ApiError,
    tenancy::{Action, ZoneAction},
    usecases::membership::Invitation,
};

/// A side of a zone membership: the zone (its admin sends, withdraws and
/// ends memberships) or the invited municipality (its clerk-treasurer answers).
pub(super) trait Side: Place {
    /// Authorise this side's membership action in the unit (404 without a
    /// relation to the tenant, 403 with one); what the work receives.
    fn open<'c>(unit: Self::Unit<'c>) -> Result<OnSide<'c, <Self as Place>::Row>, ApiError>;
}

/// The unit of work of an authorised side of a membership.
pub(super) struct OnSide<'c, R> {
    /// The open transaction.
    pub conn: &'c mut DbConn,
    /// The side's tenant.
    pub row: R,
    /// Who acts, as recorded on the invitation (`user:` or `client:` id).
    pub by: String,
}

impl Side for Zone {
    fn open<'c>(
        ZoneUnit { conn, ctx, zone }: Self::Unit<'c>,
    ) -> Result<OnSide<'c, ZoneRow>, ApiError> {
        ctx.require(ZoneAction::ManageMembership)?;
        let by = ctx.caller.actor().to_string();
        Ok(OnSide {
            conn,
            row: zone,
            by,
        })
    }
}

impl Side for Municipality {
    fn open<'c>(unit: Self::Unit<'c>) -> Result<OnSide<'c, MunicipalityRow>, ApiError> {
        unit.ctx.require(Action::AnswerZoneInvitations)?;
        let by = unit.ctx.caller.actor().to_string();
        Ok(OnSide {
            conn: unit.conn,
            row: unit.municipality,
            by,
        })
    }
}

/// One unit of work of the path's side (`Mode::Read` or `Mode::Write`),
/// authorised first; `work` receives the authorised side.
pub(super) async fn on_side<P: Side, T, W>(
    state: &AppState,
    here: InTenant<P>,
    mode: Mode,
    work: W,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    W: for<'c> FnOnce(OnSide<'c, <P as Place>::Row>) -> Result<T, ApiError> + Send + 'static,
{
    match mode {
        Mode::Read => here.read(state, opened::<P, T, W>(work)).await,
        Mode::Write => here.write(state, opened::<P, T, W>(work)).await,
    }
}

/// `work` behind the side's authorisation.
fn opened<P: Side, T, W>(
    work: W,
) -> impl for<'c> FnOnce(P::Unit<'c>) -> Result<T, ApiError> + Send + 'static
where
    T: Send + 'static,
    W: for<'c> FnOnce(OnSide<'c, <P as Place>::Row>) -> Result<T, ApiError> + Send + 'static,
{
    move |unit| work(P::open(unit)?)
}

/// An invitation of a municipality into a zone.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneInvitation {
    /// Invitation id.
    pub id: String,
    /// Slug of the zone that sent it.
    #[schema(example = "marquette-county")]
    pub zone: String,
    /// Name of that zone.
    pub zone_name: String,
    /// Slug of the municipality invited.
    #[schema(example = "westfield")]
    pub municipality: String,
    /// Name of that municipality.
    pub municipality_name: String,
    /// `pending`, `accepted`, `declined` or `withdrawn`; answered invitations stay on record.
    #[schema(example = "pending")]
    pub status: String,
    /// First day in the zone the zone proposed; absent: the first day of the month of acceptance.
    pub proposed_joined_on: Option<NaiveDate>,
    /// For an accepted invitation: the membership's first day (the proposed day, never before the first day of the month of acceptance).
    pub joined_on: Option<NaiveDate>,
    /// When the zone sent it (RFC 3339, UTC).
    pub invited_at: DateTime<Utc>,
    /// When it was accepted, declined or withdrawn (RFC 3339, UTC).
    pub answered_at: Option<DateTime<Utc>>,
}

impl From<Invitation> for ZoneInvitation {
    fn from(i: Invitation) -> Self {
        Self {
            id: i.row.id,
            zone: i.zone.slug,
            zone_name: i.zone.name,
            municipality: i.municipality.slug,
            municipality_name: i.municipality.name,
            status: i.row.status,
            proposed_joined_on: i.row.proposed_joined_on,
            joined_on: i.row.joined_on,
            invited_at: i.row.invited_at.and_utc(),
            answered_at: i.row.answered_at.map(|t| t.and_utc()),
        }
    }
}

/// A list of invitations, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneInvitationList {
    /// Every invitation, answered ones included, newest first.
    pub items: Vec<ZoneInvitation>,
}

impl From<Vec<Invitation>> for ZoneInvitationList {
    fn from(items: Vec<Invitation>) -> Self {
        Self {
            items: items.into_iter().map(Into::into).collect(),
        }
    }
}

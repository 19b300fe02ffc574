//! Zone membership: invitations, answers, joining and leaving. One
//! implementation for the zone API, the municipality API and
//! `roomtax admin join-zone`.
//!
//! Contract: every rule comes from `domain::zone_membership` (dates, overlap,
//! forward-only leave, one rate per zone); this module loads the rows those
//! rules need and stores the outcome. Joining takes both sides: a zone sends
//! an invitation ([`invite`]) that only the invited municipality answers
//! ([`accept`], [`decline`]) and only the zone withdraws ([`withdraw`]); the
//! person running the installation records a membership directly with
//! [`record_membership`], the one function every path that adds a member
//! calls. Invitations are never deleted. Each function runs inside the
//! caller's transaction, scoped (on PostgreSQL) to the tenant whose side it is:
//! the zone for `invite`/`withdraw`/`leave`, the municipality for
//! `accept`/`decline`. Nothing here logs.

use std::collections::BTreeSet;

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::{
    db::{
        self, DbConn,
        models::{MembershipRow, MunicipalityRow, ZoneRow},
        zones::InvitationRow,
    },
    domain::{
        Policy, PolicyHistory,
        zone_membership::{
            InvitationStatus, MembershipError, Stint, check_leave, check_no_overlap,
            check_proposed_date, check_same_rate, effective_join_date, member_on,
        },
    },
    error::{ApiError, FieldError},
};

impl From<MembershipError> for ApiError {
    fn from(err: MembershipError) -> Self {
        match err {
            MembershipError::Invalid {
                field,
                rule,
                message,
            } => ApiError::invalid(field, rule, message),
            MembershipError::Conflict {
                field,
                rule,
                message,
            } => ApiError::RuleConflict(FieldError::new(field, rule, message)),
        }
    }
}

/// An invitation with the two tenants it concerns.
#[derive(Debug, Clone)]
pub struct Invitation {
    /// The stored row.
    pub row: InvitationRow,
    /// The zone that sent it.
    pub zone: ZoneRow,
    /// The municipality invited.
    pub municipality: MunicipalityRow,
}

impl Invitation {
    /// Its status (a stored value outside the vocabulary is an internal error).
    pub fn status(&self) -> Result<InvitationStatus, ApiError> {
        InvitationStatus::parse(&self.row.status)
            .ok_or_else(|| ApiError::internal("unknown invitation status"))
    }
}

fn stint(m: &MembershipRow) -> Stint {
    Stint {
        joined_on: m.joined_on,
        left_on: m.left_on,
    }
}

/// Every membership stint of a municipality, any zone (what quotes need).
pub fn stints_of(conn: &mut DbConn, municipality_id: i64) -> Result<Vec<Stint>, ApiError> {
    Ok(db::zones::memberships_of(conn, municipality_id)?
        .iter()
        .map(stint)
        .collect())
}

/// The other members of a zone (every stint, past and future), each with its policy history.
fn other_members(
    conn: &mut DbConn,
    zone_id: i64,
    except: i64,
) -> Result<Vec<(String, PolicyHistory, Vec<Stint>)>, ApiError> {
    let mut members: Vec<(i64, String, Vec<Stint>)> = Vec::new();
    for (m, muni) in db::zones::members(conn, &[zone_id])? {
        if m.municipality_id == except {
            continue;
        }
        match members.iter_mut().find(|(id, ..)| *id == m.municipality_id) {
            Some((.., stints)) => stints.push(stint(&m)),
            None => members.push((m.municipality_id, muni.slug, vec![stint(&m)])),
        }
    }
    members
        .into_iter()
        .map(|(id, slug, stints)| Ok((slug, db::policies::load(conn, id)?.1, stints)))
        .collect()
}

/// One rate per zone: with `history` as the municipality's policy, refuse when on any
/// day from `from` to `until` (its last day in the zone, if known) on which a rate
/// changes or a member joins, its rate differs from a member's. A municipality or a
/// member with no policy in force on a day has no rate to compare that day.
fn check_rates(
    conn: &mut DbConn,
    zone_id: i64,
    municipality: &MunicipalityRow,
    history: &PolicyHistory,
    from: NaiveDate,
    until: Option<NaiveDate>,
) -> Result<(), ApiError> {
    let members = other_members(conn, zone_id, municipality.id)?;
    let mut days = BTreeSet::from([from]);
    let later = |d: NaiveDate| d > from && until.is_none_or(|u| d <= u);
    days.extend(
        history
            .versions()
            .iter()
            .map(|p| p.effective_from)
            .filter(|&d| later(d)),
    );
    for (_, h, stints) in &members {
        days.extend(
            h.versions()
                .iter()
                .map(|p| p.effective_from)
                .filter(|&d| later(d)),
        );
        days.extend(stints.iter().map(|s| s.joined_on).filter(|&d| later(d)));
    }
    for day in days {
        let Some(rate) = history.in_force_on(day).map(|p| p.rate.value) else {
            continue;
        };
        let rates: Vec<(String, Decimal)> = members
            .iter()
            .filter(|(_, _, stints)| member_on(stints, day))
            .filter_map(|(slug, h, _)| h.in_force_on(day).map(|p| (slug.clone(), p.rate.value)))
            .collect();
        check_same_rate(&municipality.slug, rate, day, &rates)?;
    }
    Ok(())
}

/// One rate per zone when `municipality` joins `zone` on `on` with its current history.
fn check_joining_rate(
    conn: &mut DbConn,
    zone_id: i64,
    municipality: &MunicipalityRow,
    on: NaiveDate,
) -> Result<(), ApiError> {
    let history = db::policies::load_history(conn, municipality.id)?;
    check_rates(conn, zone_id, municipality, &history, on, None)
}

fn check_free(
    conn: &mut DbConn,
    municipality: &MunicipalityRow,
    new: &Stint,
) -> Result<(), ApiError> {
    let mut others = Vec::new();
    for m in db::zones::memberships_of(conn, municipality.id)? {
        let zone = db::zones::by_id(conn, m.zone_id)?
            .map(|z| z.slug)
            .unwrap_or_default();
        others.push((zone, stint(&m)));
    }
    check_no_overlap(&municipality.slug, new, &others)?;
    Ok(())
}

/// Record that `municipality` is a member of `zone` from `joined_on`: the one way a
/// member is added (an accepted invitation, `roomtax admin join-zone`). Refuses an
/// overlap with any other membership and a rate other than the members'.
pub fn record_membership(
    conn: &mut DbConn,
    zone: &ZoneRow,
    municipality: &MunicipalityRow,
    joined_on: NaiveDate,
) -> Result<MembershipRow, ApiError> {
    let new = Stint {
        joined_on,
        left_on: None,
    };
    check_free(conn, municipality, &new)?;
    check_joining_rate(conn, zone.id, municipality, joined_on)?;
    let row = MembershipRow {
        zone_id: zone.id,
        municipality_id: municipality.id,
        joined_on,
        left_on: None,
    };
    db::zones::add_member(conn, &row)?;
    Ok(row)
}

/// The zone invites the municipality with this slug, proposing `proposed` (or the
/// acceptance's month) as its first day in the zone.
pub fn invite(
    conn: &mut DbConn,
    zone: &ZoneRow,
    municipality_slug: &str,
    proposed: Option<NaiveDate>,
    invited_by: &str,
    now: NaiveDateTime,
) -> Result<Invitation, ApiError> {
    let today = now.date();
    let municipality = db::municipalities::by_slug(conn, municipality_slug)?.ok_or_else(|| {
        ApiError::invalid(
            "municipality",
            "existing_municipality",
            "no municipality has this slug; the person running the installation creates municipalities with `roomtax admin create-municipality`",
        )
    })?;
    check_proposed_date(proposed, today)?;
    let joined_on = effective_join_date(proposed, today);
    check_free(
        conn,
        &municipality,
        &Stint {
            joined_on,
            left_on: None,
        },
    )?;
    check_joining_rate(conn, zone.id, &municipality, joined_on)?;
    let pending = db::zones::invitations_of_zone(conn, zone.id)?
        .into_iter()
        .any(|(i, _)| i.municipality_id == municipality.id && i.status == "pending");
    if pending {
        return Err(ApiError::RuleConflict(FieldError::new(
            "municipality",
            "one_pending_invitation",
            format!("{municipality_slug} already has a pending invitation from this zone"),
        )));
    }
    let row = InvitationRow {
        zone_id: zone.id,
        id: db::identity::new_id(),
        municipality_id: municipality.id,
        proposed_joined_on: proposed,
        status: InvitationStatus::Pending.as_str().to_owned(),
        invited_by: invited_by.to_owned(),
        invited_at: now,
        answered_by: None,
        answered_at: None,
        joined_on: None,
    };
    db::zones::insert_invitation(conn, &row)?;
    Ok(Invitation {
        row,
        zone: zone.clone(),
        municipality,
    })
}

/// Every invitation the zone sent, newest first (answered ones stay on record).
pub fn invitations_of_zone(conn: &mut DbConn, zone: &ZoneRow) -> Result<Vec<Invitation>, ApiError> {
    Ok(db::zones::invitations_of_zone(conn, zone.id)?
        .into_iter()
        .map(|(row, municipality)| Invitation {
            row,
            zone: zone.clone(),
            municipality,
        })
        .collect())
}

/// Every invitation addressed to the municipality, newest first.
pub fn invitations_to(
    conn: &mut DbConn,
    municipality: &MunicipalityRow,
) -> Result<Vec<Invitation>, ApiError> {
    Ok(db::zones::invitations_to(conn, municipality.id)?
        .into_iter()
        .map(|(row, zone)| Invitation {
            row,
            zone,
            municipality: municipality.clone(),
        })
        .collect())
}

/// The invitation `id` as seen from one side: 404 unless it concerns that side.
fn load(conn: &mut DbConn, id: &str, side: Side<'_>) -> Result<Invitation, ApiError> {
    let row = db::zones::invitation(conn, id)?.ok_or(ApiError::NotFound("invitation"))?;
    let mine = match side {
        Side::Zone(z) => row.zone_id == z.id,
        Side::Municipality(m) => row.municipality_id == m.id,
    };
    if !mine {
        return Err(ApiError::NotFound("invitation"));
    }
    let zone = db::zones::by_id(conn, row.zone_id)?.ok_or(ApiError::NotFound("invitation"))?;
    let municipality = db::zones::municipality_by_id(conn, row.municipality_id)?
        .ok_or(ApiError::NotFound("invitation"))?;
    Ok(Invitation {
        row,
        zone,
        municipality,
    })
}

/// The side of an invitation acting on it: the zone that sent it or the
/// municipality invited (each sees only its own invitations).
#[derive(Clone, Copy)]
pub enum Side<'a> {
    /// The zone.
    Zone(&'a ZoneRow),
    /// The municipality.
    Municipality(&'a MunicipalityRow),
}

fn answer(
    conn: &mut DbConn,
    mut invitation: Invitation,
    to: InvitationStatus,
    by: &str,
    now: NaiveDateTime,
    joined_on: Option<NaiveDate>,
) -> Result<Invitation, ApiError> {
    if !db::zones::answer_invitation(conn, &invitation.row, to.as_str(), by, now, joined_on)? {
        return Err(invitation.status()?.answer(to).err().map_or_else(
            || ApiError::Conflict("the invitation changed meanwhile".into()),
            ApiError::from,
        ));
    }
    invitation.row.status = to.as_str().to_owned();
    invitation.row.answered_by = Some(by.to_owned());
    invitation.row.answered_at = Some(now);
    invitation.row.joined_on = joined_on;
    Ok(invitation)
}

/// The invited municipality accepts: the membership takes effect on the proposed day,
/// or the first day of this month if that is later.
pub fn accept(
    conn: &mut DbConn,
    municipality: &MunicipalityRow,
    id: &str,
    by: &str,
    now: NaiveDateTime,
) -> Result<Invitation, ApiError> {
    let invitation = load(conn, id, Side::Municipality(municipality))?;
    invitation.status()?.answer(InvitationStatus::Accepted)?;
    let joined_on = effective_join_date(invitation.row.proposed_joined_on, now.date());
    record_membership(conn, &invitation.zone, municipality, joined_on)?;
    answer(
        conn,
        invitation,
        InvitationStatus::Accepted,
        by,
        now,
        Some(joined_on),
    )
}

/// A side ends a pending invitation without a membership: the invited
/// municipality declines it, the zone withdraws it (it stays on record either
/// way, as `declined` or `withdrawn`).
pub fn end_pending(
    conn: &mut DbConn,
    side: Side<'_>,
    id: &str,
    by: &str,
    now: NaiveDateTime,
) -> Result<Invitation, ApiError> {
    let to = match side {
        Side::Municipality(_) => InvitationStatus::Declined,
        Side::Zone(_) => InvitationStatus::Withdrawn,
    };
    let invitation = load(conn, id, side)?;
    invitation.status()?.answer(to)?;
    answer(conn, invitation, to, by, now, None)
}

/// The member with this slug leaves the zone after `left_on`, its last day inside
/// (forward-only: no ended period changes).
pub fn leave(
    conn: &mut DbConn,
    zone: &ZoneRow,
    municipality_slug: &str,
    left_on: NaiveDate,
    today: NaiveDate,
) -> Result<(MembershipRow, MunicipalityRow), ApiError> {
    let municipality = db::municipalities::require(conn, municipality_slug)?;
    let memberships: Vec<MembershipRow> = db::zones::memberships_of(conn, municipality.id)?
        .into_iter()
        .filter(|m| m.zone_id == zone.id)
        .collect();
    let Some(open) = memberships.iter().find(|m| m.left_on.is_none()) else {
        return Err(match memberships.last() {
            None => ApiError::NotFound("membership"),
            Some(last) => ApiError::RuleConflict(FieldError::new(
                "municipality",
                "open_membership",
                format!(
                    "{} already left this zone after {}",
                    municipality.slug,
                    last.left_on.unwrap_or(last.joined_on)
                ),
            )),
        });
    };
    check_leave(&stint(open), left_on, today)?;
    if !db::zones::close_membership(conn, open, left_on)? {
        return Err(ApiError::Conflict(
            "the membership changed meanwhile".into(),
        ));
    }
    let mut closed = open.clone();
    closed.left_on = Some(left_on);
    Ok((closed, municipality))
}

/// One rate per zone, from the policy side: refuse a version of `municipality`'s
/// policy that would make it levy, on any day it is a zone member from the day the
/// version takes effect, another rate than the other members (Wis. Stat. § 66.0615).
pub fn check_policy_rate(
    conn: &mut DbConn,
    municipality: &MunicipalityRow,
    policy: &Policy,
) -> Result<(), ApiError> {
    let (stored, _) = db::policies::load(conn, municipality.id)?;
    let mut versions: Vec<Policy> = stored.into_iter().map(|s| s.policy).collect();
    versions.push(policy.clone());
    let history = PolicyHistory::new(versions)
        .map_err(|e| ApiError::invalid("effective_from", "valid_policy", e.to_string()))?;
    for m in db::zones::memberships_of(conn, municipality.id)? {
        if m.left_on.is_none_or(|left| left >= policy.effective_from) {
            let from = policy.effective_from.max(m.joined_on);
            check_rates(conn, m.zone_id, municipality, &history, from, m.left_on)?;
        }
    }
    Ok(())
}

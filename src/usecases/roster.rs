//! The commission roster: the zone admin keeps it, the zone's roles and its
//! members' clerk-treasurers read it.
//!
//! Contract: [`add`] and [`end`] are the zone admin's (`ManageRoster`, a
//! person); a membership is never deleted: ending it records its
//! `term_end` once (409 `already_ended`; 422 before the term's start).
//! `appointed_by` names a municipality that is or was a member of the zone
//! (422 `zone_member`). [`list`] is for the zone admin, commission members,
//! the tourism entity and the zone's API clients (`ReadDistributions`) and
//! for the clerk-treasurer of a current member; it shows every membership,
//! which are current on `on`, and `domain::roster::roster_warning` over
//! those (Montello room tax, definitions, ZONE: at least half from the
//! Wisconsin lodging and tourism industry).

use chrono::{NaiveDate, NaiveDateTime};

use crate::{
    db::{
        self, DbConn,
        roster::{EndRow, MemberRow},
    },
    domain::{
        registry::text::{NAME_MAX, one_line},
        roster::{Member, check_term, current_on, roster_warning},
    },
    error::{ApiError, FieldError},
    tenancy::{ZoneAction, ZoneContext},
    usecases::expenditures::{actor, conflict, current_members},
};

/// A membership as shown: its row, its end, the appointing member's slug.
#[derive(Debug, Clone)]
pub struct Membership {
    /// The stored membership.
    pub row: MemberRow,
    /// Its end, once recorded.
    pub end: Option<EndRow>,
    /// The slug of the municipality that appointed the member.
    pub appointed_by: String,
    /// Current on the roster's day.
    pub current: bool,
}

/// The roster on a day.
#[derive(Debug, Clone)]
pub struct Roster {
    /// The day judged.
    pub on: NaiveDate,
    /// Every membership, by term start.
    pub members: Vec<Membership>,
    /// The warning of `roster_warning`, if any.
    pub warning: Option<String>,
}

/// A membership as the zone admin enters it.
#[derive(Debug, Clone)]
pub struct NewMember {
    /// The member's name.
    pub name: String,
    /// Their affiliation (employer, business, office).
    pub affiliation: String,
    /// Whether they represent the Wisconsin lodging and tourism industry.
    pub represents_lodging_and_tourism_industry: bool,
    /// Slug of the appointing municipality.
    pub appointed_by: String,
    /// First day of the term.
    pub term_start: NaiveDate,
    /// Last day of the term, if known.
    pub term_end: Option<NaiveDate>,
}

fn domain_member(m: &MemberRow, end: Option<&EndRow>) -> Member {
    Member {
        represents_lodging_and_tourism_industry: m.represents_lodging_and_tourism_industry,
        term_start: m.term_start,
        term_end: end.map(|e| e.term_end),
    }
}

/// Every past and present member municipality of the zone: `(id, slug)`.
fn all_members(conn: &mut DbConn, zone_id: i64) -> Result<Vec<(i64, String)>, ApiError> {
    Ok(db::zones::members(conn, &[zone_id])?
        .into_iter()
        .map(|(m, muni)| (m.municipality_id, muni.slug))
        .collect())
}

/// The roster on `on` (see the module doc).
pub fn list(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    on: NaiveDate,
    today: NaiveDate,
) -> Result<Roster, ApiError> {
    if let Err(refusal) = ctx.require(ZoneAction::ReadDistributions) {
        let current = current_members(conn, ctx.zone_id, today)?;
        if !current.iter().any(|(m, _)| ctx.member_clerk_of(*m)) {
            return Err(refusal);
        }
    }
    let slugs = all_members(conn, ctx.zone_id)?;
    let rows = db::roster::all(conn, ctx.zone_id)?;
    let all: Vec<Member> = rows
        .iter()
        .map(|(m, e)| domain_member(m, e.as_ref()))
        .collect();
    let warning = roster_warning(&current_on(&all, on));
    let members = rows
        .into_iter()
        .zip(all)
        .map(|((row, end), d)| Membership {
            appointed_by: slugs
                .iter()
                .find(|(id, _)| *id == row.appointed_by)
                .map(|(_, s)| s.clone())
                .unwrap_or_default(),
            current: d.is_current(on),
            row,
            end,
        })
        .collect();
    Ok(Roster {
        on,
        members,
        warning,
    })
}

/// Add a membership (see the module doc).
pub fn add(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    new: Result<NewMember, ApiError>,
    today: NaiveDate,
    now: NaiveDateTime,
) -> Result<Membership, ApiError> {
    ctx.require(ZoneAction::ManageRoster)?;
    let new = new?;
    let mut faults: Vec<FieldError> = Vec::new();
    let mut line = |field: &str, raw: &str| match one_line(field, raw, NAME_MAX) {
        Ok(v) => v,
        Err(e) => {
            faults.push(e.into());
            String::new()
        }
    };
    let name = line("name", &new.name);
    let affiliation = line("affiliation", &new.affiliation);
    let slugs = all_members(conn, ctx.zone_id)?;
    let appointed = slugs
        .iter()
        .find(|(_, s)| *s == new.appointed_by.trim())
        .cloned();
    if appointed.is_none() {
        faults.push(FieldError::new(
            "appointed_by",
            "zone_member",
            "must be the slug of a municipality that is or was a member of this zone",
        ));
    }
    if let Some(end) = new.term_end
        && let Err(e) = check_term(new.term_start, end)
    {
        faults.push(e.into());
    }
    ApiError::refused(faults)?;
    let (appointed_by, slug) = appointed.expect("checked above");
    let by = actor(ctx);
    let row = MemberRow {
        zone_id: ctx.zone_id,
        id: db::identity::new_id(),
        name,
        affiliation,
        represents_lodging_and_tourism_industry: new.represents_lodging_and_tourism_industry,
        appointed_by,
        term_start: new.term_start,
        created_by: by.clone(),
        created_at: now,
    };
    db::roster::insert(conn, &row)?;
    let end = match new.term_end {
        Some(term_end) => {
            let end = EndRow {
                zone_id: ctx.zone_id,
                member_id: row.id.clone(),
                term_end,
                ended_by: by,
                ended_at: now,
            };
            db::roster::insert_end(conn, &end)?;
            Some(end)
        }
        None => None,
    };
    let current = domain_member(&row, end.as_ref()).is_current(today);
    Ok(Membership {
        row,
        end,
        appointed_by: slug,
        current,
    })
}

/// End a membership on `term_end` (see the module doc).
pub fn end(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    member_id: &str,
    term_end: Result<NaiveDate, ApiError>,
    today: NaiveDate,
    now: NaiveDateTime,
) -> Result<Membership, ApiError> {
    ctx.require(ZoneAction::ManageRoster)?;
    let (row, existing) =
        db::roster::get(conn, ctx.zone_id, member_id)?.ok_or(ApiError::NotFound("member"))?;
    let term_end = term_end?;
    check_term(row.term_start, term_end)?;
    if existing.is_some() {
        return Err(conflict(
            "term_end",
            "already_ended",
            "this membership has already ended",
        ));
    }
    let end = EndRow {
        zone_id: ctx.zone_id,
        member_id: row.id.clone(),
        term_end,
        ended_by: actor(ctx),
        ended_at: now,
    };
    db::roster::insert_end(conn, &end)?;
    let slug = all_members(conn, ctx.zone_id)?
        .into_iter()
        .find(|(id, _)| *id == row.appointed_by)
        .map(|(_, s)| s)
        .unwrap_or_default();
    let current = domain_member(&row, Some(&end)).is_current(today);
    Ok(Membership {
        row,
        end: Some(end),
        appointed_by: slug,
        current,
    })
}

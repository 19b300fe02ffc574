//! The members' quarters as the municipality and the zone see them, and the
//! commission's seats (issue 10, items 2 and 7).
//!
//! Contract:
//! - a member's quarter is listed when one of its memberships (in this zone,
//!   for the zone's view) covers the quarter's last day: the same rule that
//!   decides which zone a remittance goes to;
//! - each quarter: its due date (`domain::remittance::due_date`), status
//!   (`due`, `submitted`, `paid`, `missing`), the latest version's totals,
//!   the commission's share, what was transferred and what is outstanding;
//!   totals only: no payor id and no per-payor figure is read or returned;
//! - the municipality's view: the clerk-treasurer and staff
//!   (`Action::ReviewReturns`); the zone's view and the seats:
//!   `ZoneAction::ReadDistributions` (zone admin, commission members, the
//!   tourism entity, the zone's API clients), or a member's clerk-treasurer,
//!   who sees only its own municipality's rows ([`ZoneContext::member_clerk_of`]);
//!   anyone else 403 when related to the zone, 404 when not;
//! - seats for `year` come from the submitted tax of `year − 1`'s quarters
//!   (Wis. Stat. § 66.0615(1m)(c)), for the members during `year` (a
//!   membership covering any of its days), naming the quarters not submitted.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::latest_of;
use crate::{
    db::{
        self, DbConn,
        models::{MembershipRow, MunicipalityRow},
        remittances::{RemittanceRow, TransferRow},
    },
    domain::{
        Money, Period,
        period::{MAX_YEAR, MIN_YEAR},
        remittance::{RemittanceStatus, SeatsFromQuarters, due_date, seats_from_quarters, status},
    },
    error::ApiError,
    tenancy::{Action, MunicipalityContext, ZoneAction, ZoneContext},
};

/// One member's quarter.
#[derive(Debug, Clone)]
pub struct QuarterView {
    /// The member's slug.
    pub municipality: String,
    /// The member's name.
    pub name: String,
    /// The quarter.
    pub period: Period,
    /// When its remittance is due.
    pub due_on: NaiveDate,
    /// Where it stands.
    pub status: RemittanceStatus,
    /// The latest version, if submitted.
    pub latest: Option<RemittanceRow>,
    /// Transferred to the commission so far.
    pub transferred: Money,
    /// The commission's share not yet transferred.
    pub outstanding: Money,
    /// The date of the latest transfer, if any.
    pub last_paid_on: Option<NaiveDate>,
}

/// A member's seats for a year.
#[derive(Debug, Clone)]
pub struct MemberSeats {
    /// The member's slug.
    pub municipality: String,
    /// The member's name.
    pub name: String,
    /// Seats, collections and the quarters missing.
    pub seats: SeatsFromQuarters,
}

/// `year` within the periods the service knows (422 `year` otherwise).
pub fn check_year(year: i32) -> Result<i32, ApiError> {
    if (MIN_YEAR..=MAX_YEAR).contains(&year) {
        Ok(year)
    } else {
        Err(ApiError::invalid(
            "year",
            "year_range",
            format!("a year from {MIN_YEAR} to {MAX_YEAR}"),
        ))
    }
}

fn covers(m: &MembershipRow, day: NaiveDate) -> bool {
    m.joined_on <= day && m.left_on.is_none_or(|l| day <= l)
}

fn quarters(
    members: &[(MembershipRow, MunicipalityRow)],
    year: i32,
    rows: &[RemittanceRow],
    transfers: &[TransferRow],
    today: NaiveDate,
) -> Vec<QuarterView> {
    let mut by_member: BTreeMap<String, (&MunicipalityRow, Vec<&MembershipRow>)> = BTreeMap::new();
    for (m, muni) in members {
        by_member
            .entry(muni.slug.clone())
            .or_insert((muni, Vec::new()))
            .1
            .push(m);
    }
    let mut out = Vec::new();
    for (slug, (muni, stints)) in by_member {
        for period in Period::quarters_of_year(year) {
            if !stints.iter().any(|m| covers(m, period.last_day())) {
                continue;
            }
            let text = period.to_string();
            let own: Vec<RemittanceRow> = rows
                .iter()
                .filter(|r| r.municipality_id == muni.id)
                .cloned()
                .collect();
            let latest = latest_of(&own, &text).cloned();
            let paid: Vec<&TransferRow> = transfers
                .iter()
                .filter(|t| t.municipality_id == muni.id && t.period == text)
                .collect();
            let transferred = Money::from_cents(paid.iter().map(|t| t.amount_cents).sum());
            let outstanding = latest
                .as_ref()
                .map(|l| Money::from_cents(l.commission_cents) - transferred);
            let due_on = due_date(&period);
            out.push(QuarterView {
                municipality: slug.clone(),
                name: muni.name.clone(),
                period,
                due_on,
                status: status(outstanding, due_on, today),
                latest,
                transferred,
                outstanding: outstanding.unwrap_or_default(),
                last_paid_on: paid.iter().map(|t| t.paid_on).max(),
            });
        }
    }
    out
}

fn periods_of(year: i32) -> Vec<String> {
    Period::quarters_of_year(year)
        .iter()
        .map(Period::to_string)
        .collect()
}

/// The municipality's own quarters of `year` (see the module doc).
pub fn of_municipality(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    municipality: &MunicipalityRow,
    year: Result<i32, ApiError>,
    today: NaiveDate,
) -> Result<Vec<QuarterView>, ApiError> {
    ctx.require(Action::ReviewReturns)?;
    let year = check_year(year?)?;
    let members: Vec<(MembershipRow, MunicipalityRow)> =
        db::zones::memberships_of(conn, municipality.id)?
            .into_iter()
            .map(|m| (m, municipality.clone()))
            .collect();
    let periods = periods_of(year);
    let rows = db::remittances::of_municipality(conn, municipality.id, &periods)?;
    let transfers = db::remittances::transfers_of_municipality(conn, municipality.id, &periods)?;
    Ok(quarters(&members, year, &rows, &transfers, today))
}

/// Who reads the zone's remittances: every member's, or only these members'
/// (a member's clerk-treasurer).
fn zone_reader(
    ctx: &ZoneContext,
    members: &[(MembershipRow, MunicipalityRow)],
) -> Result<Option<Vec<i64>>, ApiError> {
    match ctx.require(ZoneAction::ReadDistributions) {
        Ok(()) => Ok(None),
        Err(refusal) => {
            let own: Vec<i64> = members
                .iter()
                .map(|(m, _)| m.municipality_id)
                .filter(|id| ctx.member_clerk_of(*id))
                .collect();
            if own.is_empty() {
                Err(refusal)
            } else {
                Ok(Some(own))
            }
        }
    }
}

fn zone_members(
    conn: &mut DbConn,
    ctx: &ZoneContext,
) -> Result<Vec<(MembershipRow, MunicipalityRow)>, ApiError> {
    let members = db::zones::members(conn, &[ctx.zone_id])?;
    match zone_reader(ctx, &members)? {
        None => Ok(members),
        Some(own) => Ok(members
            .into_iter()
            .filter(|(m, _)| own.contains(&m.municipality_id))
            .collect()),
    }
}

/// The zone's members' quarters of `year` (see the module doc).
pub fn of_zone(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    year: Result<i32, ApiError>,
    today: NaiveDate,
) -> Result<Vec<QuarterView>, ApiError> {
    let members = zone_members(conn, ctx)?;
    let year = check_year(year?)?;
    let periods = periods_of(year);
    let rows = db::remittances::of_zone(conn, ctx.zone_id, &periods)?;
    let transfers = db::remittances::transfers_of_zone(conn, ctx.zone_id, &periods)?;
    Ok(quarters(&members, year, &rows, &transfers, today))
}

/// Each member's seats for `year` (see the module doc).
pub fn seats(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    year: Result<i32, ApiError>,
) -> Result<Vec<MemberSeats>, ApiError> {
    let members = zone_members(conn, ctx)?;
    let year = check_year(year?)?;
    let previous = check_year(year - 1)?;
    let periods = periods_of(previous);
    let rows = db::remittances::of_zone(conn, ctx.zone_id, &periods)?;
    let (first, last) = (
        Period::quarters_of_year(year)[0].first_day(),
        Period::quarters_of_year(year)[3].last_day(),
    );
    let mut seen: BTreeMap<String, MemberSeats> = BTreeMap::new();
    for (m, muni) in &members {
        let during = m.joined_on <= last && m.left_on.is_none_or(|l| l >= first);
        if !during || seen.contains_key(&muni.slug) {
            continue;
        }
        let own: Vec<RemittanceRow> = rows
            .iter()
            .filter(|r| r.municipality_id == muni.id)
            .cloned()
            .collect();
        let by_quarter: BTreeMap<Period, Option<Money>> = Period::quarters_of_year(previous)
            .into_iter()
            .map(|q| {
                let tax = latest_of(&own, &q.to_string())
                    .map(|r| Money::from_cents(r.tax_collected_cents));
                (q, tax)
            })
            .collect();
        seen.insert(
            muni.slug.clone(),
            MemberSeats {
                municipality: muni.slug.clone(),
                name: muni.name.clone(),
                seats: seats_from_quarters(&by_quarter)?,
            },
        );
    }
    Ok(seen.into_values().collect())
}

//! Form SL-304's figures for one municipality and year (issue 10 item 6;
//! Wis. Stat. § 66.0615(4)): public, so only the municipality's totals.
//!
//! Contract of [`state_report`]:
//! - public (no caller): the unit reads with the municipality's own scope
//!   (its remittances, or its ledger), then with its zone's scope (the
//!   commission's expenditure reports and roster), only to total them: no
//!   payor id, name or per-payor amount is read into the answer, so a
//!   municipality with a single payor still shows only the municipality's
//!   totals (its collections are public on the state's form anyway);
//! - each quarter of `year`: where a zone membership covers its last day,
//!   the latest version of the municipality's remittance submission
//!   (collected, forwarded = the commission's share, retained); a quarter
//!   not submitted is listed in `missing_quarters` and counts 0. Otherwise,
//!   where the municipality administers payors here (e.g. Hayward), the tax
//!   principal received in the quarter from its ledger, the computation
//!   remittances use (`remittances::tax_receipts`, `ledger_figures`),
//!   forwarded 0 (no commission: Wis. Stat. § 66.0615(1m)(c)), retained all;
//!   otherwise nothing (the tax is administered elsewhere and not submitted);
//! - the rate: the policy governing the year's last quarter;
//! - the commission section (the zone of the year's last covered quarter):
//!   its expenditure reports whose period ends in the year, accepted ones
//!   counted (each item of $1,000 or more listed, the rest summed by
//!   category), others listed as pending; the roster current on December 31
//!   with affiliations and industry seats, and the warning when fewer than
//!   half represent the lodging and tourism industry (Montello room tax,
//!   definitions, ZONE). No zone: no commission section, stated;
//! - due May 1 of the following year.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::{Spending, check_year, spending_of};
use crate::{
    db::{self, DbConn, models::MunicipalityRow},
    domain::{
        Money, Period,
        remittance::{NOT_A_MEMBER_CITATION, ledger_figures},
        roster::{Member, current_on, roster_warning},
        state_report::{YearSplit, due_on, sum_split},
    },
    error::ApiError,
    tenancy::{DbScope, Tenant},
    usecases::remittances::{latest_of, tax_receipts},
};

/// Where a quarter's figures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuarterSource {
    /// The municipality's remittance submission to its zone.
    Remittance,
    /// The municipality's ledger (not a zone member in the quarter).
    Ledger,
    /// A zone member's quarter not submitted.
    Missing,
    /// Neither: administered elsewhere, not submitted here.
    None,
}

impl QuarterSource {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            QuarterSource::Remittance => "remittance",
            QuarterSource::Ledger => "ledger",
            QuarterSource::Missing => "missing",
            QuarterSource::None => "none",
        }
    }
}

/// One quarter's totals.
#[derive(Debug, Clone)]
pub struct StateQuarter {
    /// The quarter.
    pub period: Period,
    /// Where its figures come from.
    pub source: QuarterSource,
    /// Collected.
    pub collected: Money,
    /// Forwarded to the commission.
    pub forwarded: Money,
    /// Retained.
    pub retained: Money,
}

/// A commission member on the form.
#[derive(Debug, Clone)]
pub struct RosterLine {
    /// Name.
    pub name: String,
    /// Affiliation.
    pub affiliation: String,
    /// Represents the lodging and tourism industry.
    pub industry: bool,
}

/// The commission's part of the form.
#[derive(Debug, Clone)]
pub struct CommissionPart {
    /// The zone's slug.
    pub zone: String,
    /// The commission's name.
    pub name: String,
    /// Its spending.
    pub spending: Spending,
    /// Its members current on December 31.
    pub members: Vec<RosterLine>,
    /// The roster warning, if any.
    pub warning: Option<String>,
}

/// Form SL-304's figures.
#[derive(Debug, Clone)]
pub struct StateReport {
    /// The municipality.
    pub municipality: MunicipalityRow,
    /// The year.
    pub year: i32,
    /// Due date.
    pub due_on: NaiveDate,
    /// The rate, e.g. 0.045.
    pub rate: Option<Decimal>,
    /// Each quarter.
    pub quarters: Vec<StateQuarter>,
    /// The year's totals.
    pub totals: YearSplit,
    /// The commission's part, when in a zone.
    pub commission: Option<CommissionPart>,
    /// Why there is no commission part, or where the forwarding rule comes from.
    pub note: String,
}

fn covering(memberships: &[db::models::MembershipRow], day: NaiveDate) -> Option<i64> {
    memberships
        .iter()
        .find(|m| m.joined_on <= day && m.left_on.is_none_or(|l| day <= l))
        .map(|m| m.zone_id)
}

/// Form SL-304's figures (see the module doc).
pub fn state_report(
    conn: &mut DbConn,
    municipality: &MunicipalityRow,
    year: Result<i32, ApiError>,
) -> Result<StateReport, ApiError> {
    let year = check_year(year?)?;
    let due = due_on(year).ok_or_else(|| ApiError::invalid("year", "year_range", "too late"))?;
    db::rls::apply(
        conn,
        &DbScope::tenant(Tenant::Municipality(municipality.id)),
    )?;
    let memberships = db::zones::memberships_of(conn, municipality.id)?;
    let history = db::policies::load_history(conn, municipality.id)?;
    let quarters_of = Period::quarters_of_year(year);
    let periods: Vec<String> = quarters_of.iter().map(Period::to_string).collect();
    let rows = db::remittances::of_municipality(conn, municipality.id, &periods)?;
    let administers = db::remittances::administers_payors(conn, municipality.id)?;
    let mut quarters = Vec::new();
    let mut zone_id = None;
    for q in quarters_of {
        let (source, collected, forwarded, retained) =
            if let Some(z) = covering(&memberships, q.last_day()) {
                zone_id = Some(z);
                match latest_of(&rows, &q.to_string()) {
                    Some(r) => (
                        QuarterSource::Remittance,
                        Money::from_cents(r.tax_collected_cents),
                        Money::from_cents(r.commission_cents),
                        Money::from_cents(r.retained_cents),
                    ),
                    None => (
                        QuarterSource::Missing,
                        Money::ZERO,
                        Money::ZERO,
                        Money::ZERO,
                    ),
                }
            } else if administers {
                let receipts = tax_receipts(conn, municipality.id, &q)?;
                let figures =
                    ledger_figures(&receipts, |p| history.for_period(p).map(|p| p.rate.value))?;
                (
                    QuarterSource::Ledger,
                    figures.tax_collected,
                    Money::ZERO,
                    figures.tax_collected,
                )
            } else {
                (QuarterSource::None, Money::ZERO, Money::ZERO, Money::ZERO)
            };
        quarters.push(StateQuarter {
            period: q,
            source,
            collected,
            forwarded,
            retained,
        });
    }
    let totals = sum_split(
        &quarters
            .iter()
            .map(|q| (q.collected, q.forwarded, q.retained))
            .collect::<Vec<_>>(),
    );
    let rate = history
        .for_period(&quarters_of[3])
        .map(|p| p.rate.value.normalize());
    let (commission, note) = match zone_id {
        Some(z) => {
            let note = history
                .for_period(&quarters_of[3])
                .map(|p| p.distribution.citation.to_string())
                .unwrap_or_default();
            (Some(commission_part(conn, z, year)?), note)
        }
        None => {
            let policy = history
                .for_period(&quarters_of[3])
                .map(|p| format!("; the policy: {}", p.distribution.citation))
                .unwrap_or_default();
            (
                None,
                format!(
                    "not a member of a tourism zone in {year}: nothing is forwarded and there is no commission to report ({NOT_A_MEMBER_CITATION}){policy}"
                ),
            )
        }
    };
    Ok(StateReport {
        municipality: municipality.clone(),
        year,
        due_on: due,
        rate,
        quarters,
        totals,
        commission,
        note,
    })
}

fn commission_part(conn: &mut DbConn, zone_id: i64, year: i32) -> Result<CommissionPart, ApiError> {
    db::rls::apply(conn, &DbScope::tenant(Tenant::Zone(zone_id)))?;
    let zone = db::zones::by_id(conn, zone_id)?.ok_or(ApiError::NotFound("zone"))?;
    let spending = spending_of(conn, zone_id, year)?;
    let (_, last) = super::year_bounds(year)?;
    let rows = db::roster::all(conn, zone_id)?;
    let all: Vec<Member> = rows
        .iter()
        .map(|(m, e)| Member {
            represents_lodging_and_tourism_industry: m.represents_lodging_and_tourism_industry,
            term_start: m.term_start,
            term_end: e.as_ref().map(|e| e.term_end),
        })
        .collect();
    let warning = roster_warning(&current_on(&all, last));
    let members = rows
        .iter()
        .zip(&all)
        .filter(|(_, d)| d.is_current(last))
        .map(|((m, _), _)| RosterLine {
            name: m.name.clone(),
            affiliation: m.affiliation.clone(),
            industry: m.represents_lodging_and_tourism_industry,
        })
        .collect();
    Ok(CommissionPart {
        zone: zone.slug,
        name: zone.commission_name,
        spending,
        members,
        warning,
    })
}

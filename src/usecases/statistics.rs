//! Public statistics of room tax collected, by municipality and quarter, with
//! small cells withheld (issue 10, item 8).
//!
//! Contract:
//! - public: no caller. The request's transaction is widened to the tenant
//!   named by the path (`app.zone_id` or `app.municipality_id`) only to read
//!   the totals this module sums; nothing but the table below leaves it;
//! - `year` defaults to the year of the last quarter that has ended before
//!   `today`; a year out of range is 422 `year` (`view::check_year`); the
//!   columns are that year's quarters that have ended;
//! - a zone's table: one row per member whose membership covers the last day
//!   of one of those quarters, each cell the latest version of the member's
//!   submission for the quarter (a quarter outside its membership, or not
//!   submitted, counts as nothing collected and is marked so);
//! - a municipality's table: one row; a quarter a zone membership covers is
//!   its latest submission; one no membership covers is computed from its
//!   ledger, the same computation remittances use
//!   (`usecases::remittances::tax_receipts`, `domain::remittance::ledger_figures`);
//! - what is withheld is decided by `domain::statistics::suppress` (cells
//!   resting on fewer than three payors, and their complements so that none
//!   can be worked out by subtraction); payor counts are its input only and
//!   are never returned, nor anything per payor.

use chrono::NaiveDate;

use crate::{
    db::{
        self, DbConn,
        models::{MunicipalityRow, ZoneRow},
        remittances::RemittanceRow,
    },
    domain::{
        DomainError, Money, Period,
        remittance::ledger_figures,
        statistics::{Cell, Reason, suppress},
    },
    error::ApiError,
    tenancy::{DbScope, Tenant},
    usecases::remittances::{latest_of, tax_receipts, view::check_year},
};

/// The rule stated with every table.
pub const RULE: &str = "Cells built from fewer than three payors are withheld, and so are others where needed so that none can be worked out by subtraction from the totals shown. A municipality's year and the grand total are always shown (a municipality's annual room tax is public on its Form SL-304, Wis. Stat. § 66.0615(4)).";

/// Where a cell's figure comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellSource {
    /// The member's latest submission to its zone.
    Submitted,
    /// The municipality's ledger (it remits to no zone in the quarter).
    Ledger,
    /// Nothing submitted for the quarter (counted as nothing collected).
    NotSubmitted,
    /// The municipality was not a member of the zone in the quarter.
    NotMember,
}

impl CellSource {
    /// The shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            CellSource::Submitted => "submitted",
            CellSource::Ledger => "ledger",
            CellSource::NotSubmitted => "not_submitted",
            CellSource::NotMember => "not_a_member",
        }
    }
}

/// One published cell: the amount, or why it is withheld.
#[derive(Debug, Clone)]
pub struct PublicCell {
    /// The quarter.
    pub period: Period,
    /// Where the figure comes from.
    pub source: CellSource,
    /// The tax collected, when shown.
    pub tax_collected: Option<Money>,
    /// Why it is withheld, when withheld.
    pub withheld: Option<Reason>,
}

/// One municipality's row.
#[derive(Debug, Clone)]
pub struct PublicRow {
    /// The municipality's slug.
    pub municipality: String,
    /// Its name.
    pub name: String,
    /// One cell per column.
    pub cells: Vec<PublicCell>,
    /// The row's total (always shown).
    pub total: Money,
    /// Whether every quarter with payors rests on fewer than three (the year
    /// is shown all the same: it is public on SL-304).
    pub rests_on_few: bool,
}

/// A column's total: the amount, or withheld.
#[derive(Debug, Clone)]
pub struct ColumnTotal {
    /// The quarter.
    pub period: Period,
    /// The total, when shown.
    pub tax_collected: Option<Money>,
    /// Whether it is withheld.
    pub withheld: bool,
}

/// The published table.
#[derive(Debug, Clone)]
pub struct Statistics {
    /// The year.
    pub year: i32,
    /// The quarters of `year` that have ended (the columns).
    pub periods: Vec<Period>,
    /// One row per municipality, by slug.
    pub rows: Vec<PublicRow>,
    /// Per column.
    pub column_totals: Vec<ColumnTotal>,
    /// The grand total (always shown).
    pub total: Money,
}

/// The year asked for, or the year of the last quarter ended before `today`.
fn year_of(year: Option<i32>, today: NaiveDate) -> Result<i32, ApiError> {
    match year {
        Some(y) => check_year(y),
        None => {
            let current = Period::quarter_containing(today);
            let last = current
                .first_day()
                .pred_opt()
                .unwrap_or(current.first_day());
            check_year(Period::quarter_containing(last).year())
        }
    }
}

fn ended(year: i32, today: NaiveDate) -> Vec<Period> {
    Period::quarters_of_year(year)
        .into_iter()
        .filter(|q| q.last_day() < today)
        .collect()
}

fn cell_of(row: Option<&RemittanceRow>) -> (Cell, CellSource) {
    match row {
        Some(r) => (
            Cell {
                cents: r.tax_collected_cents,
                payors: u32::try_from(r.payor_count).unwrap_or(0),
            },
            CellSource::Submitted,
        ),
        None => (
            Cell {
                cents: 0,
                payors: 0,
            },
            CellSource::NotSubmitted,
        ),
    }
}

/// Apply the suppression to the raw table and shape what is published.
fn publish(
    year: i32,
    periods: Vec<Period>,
    rows: Vec<(MunicipalityRow, Vec<(Cell, CellSource)>)>,
) -> Statistics {
    let table: Vec<Vec<Cell>> = rows
        .iter()
        .map(|(_, cells)| cells.iter().map(|(c, _)| *c).collect())
        .collect();
    let s = suppress(&table);
    let column_totals = periods
        .iter()
        .enumerate()
        .map(|(c, period)| {
            let withheld = s.column_totals.get(c).copied().unwrap_or(false);
            let sum: i64 = table.iter().map(|r| r[c].cents).sum();
            ColumnTotal {
                period: *period,
                tax_collected: (!withheld).then(|| Money::from_cents(sum)),
                withheld,
            }
        })
        .collect();
    let total = Money::from_cents(table.iter().flatten().map(|c| c.cents).sum());
    let rows = rows
        .into_iter()
        .enumerate()
        .map(|(r, (muni, cells))| PublicRow {
            municipality: muni.slug,
            name: muni.name,
            total: Money::from_cents(cells.iter().map(|(c, _)| c.cents).sum()),
            rests_on_few: s.row_rests_on_few[r],
            cells: cells
                .into_iter()
                .enumerate()
                .map(|(c, (cell, source))| {
                    let withheld = s.cells[r][c];
                    PublicCell {
                        period: periods[c],
                        source,
                        tax_collected: withheld.is_none().then(|| Money::from_cents(cell.cents)),
                        withheld,
                    }
                })
                .collect(),
        })
        .collect();
    Statistics {
        year,
        periods,
        rows,
        column_totals,
        total,
    }
}

/// The zone's table for `year` (see the module doc).
pub fn of_zone(
    conn: &mut DbConn,
    zone: &ZoneRow,
    year: Option<i32>,
    today: NaiveDate,
) -> Result<Statistics, ApiError> {
    let year = year_of(year, today)?;
    db::rls::apply(conn, &DbScope::tenant(Tenant::Zone(zone.id)))?;
    let periods = ended(year, today);
    let names: Vec<String> = periods.iter().map(Period::to_string).collect();
    let members = db::zones::members(conn, &[zone.id])?;
    let submitted = db::remittances::of_zone(conn, zone.id, &names)?;
    let mut rows: Vec<(MunicipalityRow, Vec<(Cell, CellSource)>)> = Vec::new();
    for (_, muni) in &members {
        if rows.iter().any(|(m, _)| m.id == muni.id) {
            continue;
        }
        let stints: Vec<_> = members
            .iter()
            .filter(|(m, _)| m.municipality_id == muni.id)
            .map(|(m, _)| m)
            .collect();
        let covered = |q: &Period| {
            stints
                .iter()
                .any(|m| m.joined_on <= q.last_day() && m.left_on.is_none_or(|l| q.last_day() <= l))
        };
        if !periods.iter().any(covered) {
            continue;
        }
        let own: Vec<RemittanceRow> = submitted
            .iter()
            .filter(|r| r.municipality_id == muni.id)
            .cloned()
            .collect();
        let cells = periods
            .iter()
            .map(|q| {
                if covered(q) {
                    cell_of(latest_of(&own, &q.to_string()))
                } else {
                    (
                        Cell {
                            cents: 0,
                            payors: 0,
                        },
                        CellSource::NotMember,
                    )
                }
            })
            .collect();
        rows.push((muni.clone(), cells));
    }
    Ok(publish(year, periods, rows))
}

/// The municipality's table for `year` (see the module doc).
pub fn of_municipality(
    conn: &mut DbConn,
    municipality: &MunicipalityRow,
    year: Option<i32>,
    today: NaiveDate,
) -> Result<Statistics, ApiError> {
    let year = year_of(year, today)?;
    db::rls::apply(
        conn,
        &DbScope::tenant(Tenant::Municipality(municipality.id)),
    )?;
    let periods = ended(year, today);
    let names: Vec<String> = periods.iter().map(Period::to_string).collect();
    let stints = db::zones::memberships_of(conn, municipality.id)?;
    let submitted = db::remittances::of_municipality(conn, municipality.id, &names)?;
    let history = db::policies::load_history(conn, municipality.id)?;
    let mut cells = Vec::new();
    for q in &periods {
        let day = q.last_day();
        let member = stints
            .iter()
            .any(|m| m.joined_on <= day && m.left_on.is_none_or(|l| day <= l));
        if member {
            cells.push(cell_of(latest_of(&submitted, &q.to_string())));
        } else {
            let receipts = tax_receipts(conn, municipality.id, q)?;
            let figures = ledger_figures(&receipts, |p| {
                history.for_period(p).map(|policy| policy.rate.value)
            })
            .map_err(|e: DomainError| ApiError::from(e))?;
            cells.push((
                Cell {
                    cents: figures.tax_collected.cents(),
                    payors: u32::try_from(figures.payor_count).unwrap_or(0),
                },
                CellSource::Ledger,
            ));
        }
    }
    Ok(publish(year, periods, vec![(municipality.clone(), cells)]))
}

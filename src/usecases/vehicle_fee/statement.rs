//! The vehicle registration fee fund's statement for a span of days.
//!
//! Contract: the opening balance (the fund at the end of the day before
//! `from`), every receipt (each remittance version posted in the span, with
//! its expected net, amount received and difference) and every spending in
//! the span and every reversal of a spending (recorded in error) in the
//! span, oldest first, each with the balance after it, and the closing
//! balance (the end of `to`). Balances are read from the ledger's lines on
//! `municipality:vehicle_fee_fund`; the entries from the rows that caused
//! them, so opening + receipts − spending = closing, to the cent (spending
//! net of the reversals in the span) (a ledger
//! that disagrees is an internal error, and `roomtax check` names it).
//! `to` defaults to today and may not be after it; `from` defaults to the 1st
//! of January of `to`'s year and may not be after `to`.

use chrono::{Datelike, Days, NaiveDate};

use super::{RemittanceVersion, fee_history, fund, may_read, reconciled_of};
use crate::{
    db::{
        self, DbConn,
        vehicle_fee::{ReversalRow, SpendingRow},
    },
    domain::{
        Money,
        vehicle_fee::{SpendingPurpose, balance_on},
    },
    error::{ApiError, FieldError},
    tenancy::MunicipalityContext,
};

/// One movement of the fund in the statement.
#[derive(Debug, Clone)]
pub enum FundEntry {
    /// A remittance version's posting (a correction's difference included).
    Receipt(Box<RemittanceVersion>),
    /// A payment out of the fund.
    Spending(SpendingRow, SpendingPurpose),
    /// The reversal of a payment recorded in error (the money back in the fund).
    Reversal(ReversalRow, SpendingRow, SpendingPurpose),
}

impl FundEntry {
    /// The day it counts from.
    pub fn on(&self) -> NaiveDate {
        match self {
            FundEntry::Receipt(v) => v.row.received_on,
            FundEntry::Spending(s, _) => s.spent_on,
            FundEntry::Reversal(r, ..) => r.reversed_on,
        }
    }

    /// What it moved into the fund (spending negative).
    pub fn into_fund(&self) -> Money {
        match self {
            FundEntry::Receipt(v) => Money::from_cents(v.row.posted_cents),
            FundEntry::Spending(s, _) => -Money::from_cents(s.amount_cents),
            FundEntry::Reversal(_, s, _) => Money::from_cents(s.amount_cents),
        }
    }

    fn created_at(&self) -> chrono::NaiveDateTime {
        match self {
            FundEntry::Receipt(v) => v.row.created_at,
            FundEntry::Spending(s, _) => s.created_at,
            FundEntry::Reversal(r, ..) => r.created_at,
        }
    }
}

/// The fund's statement (see the module doc).
#[derive(Debug, Clone)]
pub struct FundStatement {
    /// The municipality's name.
    pub municipality: String,
    /// The first day covered.
    pub from: NaiveDate,
    /// The last day covered.
    pub to: NaiveDate,
    /// The fund at the end of the day before `from`.
    pub opening_balance: Money,
    /// The movements, oldest first, each with the balance after it.
    pub entries: Vec<(FundEntry, Money)>,
    /// Receipts in the span (corrections' differences included).
    pub receipts: Money,
    /// Spending in the span.
    pub spending: Money,
    /// The fund at the end of `to`.
    pub closing_balance: Money,
}

/// The fund's statement from `from` to `to` (see the module doc).
pub fn statement(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<FundStatement, ApiError> {
    may_read(ctx)?;
    let history = fee_history(conn, ctx)?;
    let to = to.unwrap_or(today);
    let from = from.unwrap_or_else(|| to.with_ordinal(1).unwrap_or(to));
    let mut faults = Vec::new();
    crate::usecases::judge::not_after_today("to", to, today, &mut faults);
    if from > to {
        faults.push(FieldError::new(
            "from",
            "after_to",
            format!("must not be after `to` ({to})"),
        ));
    }
    ApiError::refused(faults)?;
    let municipality_id = ctx.municipality_id;
    let lines = fund(conn, municipality_id)?;
    let opening = from
        .checked_sub_days(Days::new(1))
        .map(|d| balance_on(&lines, d))
        .unwrap_or(Money::ZERO);
    let closing = balance_on(&lines, to);
    let within = |d: NaiveDate| from <= d && d <= to;
    let mut entries: Vec<FundEntry> = Vec::new();
    let rows = db::vehicle_fee::all_remittances(conn, municipality_id)?;
    for (i, row) in rows.iter().enumerate() {
        if !within(row.received_on) {
            continue;
        }
        let superseded = rows
            .get(i + 1)
            .is_some_and(|next| next.period == row.period);
        entries.push(FundEntry::Receipt(Box::new(RemittanceVersion {
            reconciled: reconciled_of(&history, row)?,
            row: row.clone(),
            superseded,
        })));
    }
    let spent = db::vehicle_fee::all_spending(conn, municipality_id)?;
    let purpose_of = |s: &SpendingRow| {
        SpendingPurpose::parse(&s.purpose)
            .map_err(|_| ApiError::internal("a stored spending has an unknown purpose"))
    };
    for r in db::vehicle_fee::all_reversals(conn, municipality_id)? {
        if within(r.reversed_on) {
            let s = spent
                .iter()
                .find(|s| s.id == r.spending_id)
                .ok_or_else(|| ApiError::internal("a reversal of a missing spending"))?
                .clone();
            let purpose = purpose_of(&s)?;
            entries.push(FundEntry::Reversal(r, s, purpose));
        }
    }
    for s in spent {
        if within(s.spent_on) {
            let purpose = purpose_of(&s)?;
            entries.push(FundEntry::Spending(s, purpose));
        }
    }
    entries.sort_by(|a, b| {
        a.on()
            .cmp(&b.on())
            .then(a.created_at().cmp(&b.created_at()))
    });
    let mut balance = opening;
    let mut receipts = Money::ZERO;
    let mut spending = Money::ZERO;
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let moved = e.into_fund();
        match e {
            FundEntry::Receipt(_) => receipts += moved,
            FundEntry::Spending(..) | FundEntry::Reversal(..) => spending -= moved,
        }
        balance += moved;
        out.push((e, balance));
    }
    if balance != closing {
        return Err(ApiError::internal(
            "the vehicle fee fund's ledger lines disagree with its remittances and spending: run `roomtax check`",
        ));
    }
    let municipality = history
        .latest()
        .map(|p| p.municipality.clone())
        .unwrap_or_default();
    Ok(FundStatement {
        municipality,
        from,
        to,
        opening_balance: opening,
        entries: out,
        receipts,
        spending,
        closing_balance: closing,
    })
}

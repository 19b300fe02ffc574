//! A payor's statement of account as of a date.
//!
//! Contract (issue 9 item 5; DESIGN §5 "balances are sums as of a date;
//! interest is computed as of a date, posted only when settled"):
//! - readable by the clerk-treasurer, staff and the payor's own operator
//!   (`MunicipalityContext::account_reader`); anyone else 404; every read is
//!   written to the access log (`payor_account`, the payor's id);
//! - `as_of` (default today, the municipality's local date) not after today;
//! - only journals posted on or before `as_of` and payments received by then
//!   count, so the statement as of a past date shows what was posted then
//!   (a reversal after `as_of` is not shown);
//! - per period: what was charged and paid by component, the posted
//!   balance, and the interest accrued to `as_of` on the tax still unpaid
//!   (the engine's [`interest`], from the due date; computed here, never
//!   stored), the balance including it; totals over the periods; the credit
//!   held is subtracted from the total balance;
//! - per period, the determinations made by `as_of` (audits, estimates,
//!   fraud findings) whose charges the components include;
//! - refunds of credit paid out by then, with their interest (`refunds`);
//! - the security deposit held on the date (`security_deposit`: received
//!   less applied and returned; not deducted from the balance);
//! - [`document`]: the same statement as a PDF (`render::statement`, the
//!   notices' renderer), its rows the page's.

use chrono::NaiveDate;

use super::payments::{lines_as_of, terms_of};
use crate::{
    db::{self, DbConn, payments::PaymentRow, refunds::RefundRow},
    domain::{
        Line, Money, Period,
        compute::interest,
        ledger::{Component, ComponentBook, PayorBook, deposit_held},
        registry::Invalid,
    },
    error::{ApiError, FieldError},
    render::statement::{StatementDocument, StatementLine, StatementPaymentLine, statement_pdf},
    tenancy::MunicipalityContext,
    usecases::{payors::Actor, returns::PayorTerms},
};

/// One period of the statement.
#[derive(Debug, Clone)]
pub struct StatementPeriod {
    /// The period.
    pub period: Period,
    /// Its return's due date (interest runs from it), when a return is on file.
    pub due_date: Option<NaiveDate>,
    /// Its return's filing due date (extended when an extension was
    /// granted): the tax is delinquent after it.
    pub filing_due_date: Option<NaiveDate>,
    /// Per component with postings: charged and paid.
    pub components: Vec<(Component, ComponentBook)>,
    /// Interest accrued to the statement's date on the unpaid tax, explained.
    pub interest_accrued: Option<Line>,
    /// The determinations of the period made by the statement's date.
    pub determinations: Vec<super::determinations::DeterminationRecord>,
}

impl StatementPeriod {
    /// Charged over every component.
    pub fn charged(&self) -> Money {
        self.components.iter().map(|(_, b)| b.charged).sum()
    }

    /// Paid over every component.
    pub fn paid(&self) -> Money {
        self.components.iter().map(|(_, b)| b.paid).sum()
    }

    /// The accrued interest's amount (0.00 when none).
    pub fn accrued(&self) -> Money {
        self.interest_accrued
            .as_ref()
            .map(|l| l.amount)
            .unwrap_or_default()
    }

    /// Owed: posted balance plus accrued interest.
    pub fn balance(&self) -> Money {
        self.charged() - self.paid() + self.accrued()
    }
}

/// A payment as the statement lists it.
#[derive(Debug, Clone)]
pub struct StatementPayment {
    /// The stored row.
    pub row: PaymentRow,
    /// The date it was reversed, if reversed by the statement's date.
    pub reversed_on: Option<NaiveDate>,
}

/// The statement.
#[derive(Debug, Clone)]
pub struct Statement {
    /// The payor.
    pub payor_id: String,
    /// Its date.
    pub as_of: NaiveDate,
    /// Every period with postings, oldest first.
    pub periods: Vec<StatementPeriod>,
    /// Payments received by the date, oldest first.
    pub payments: Vec<StatementPayment>,
    /// Credit held for the payor.
    pub credit: Money,
    /// Refunds of credit paid out by the date, oldest first.
    pub refunds: Vec<RefundRow>,
    /// The security deposit held for the payor on the date (received, less
    /// applied and returned): not deducted from the balance (it is applied
    /// to unpaid tax only after notice).
    pub security_deposit: Money,
}

impl Statement {
    /// Owed over every period, less the credit held.
    pub fn balance(&self) -> Money {
        self.periods
            .iter()
            .map(StatementPeriod::balance)
            .sum::<Money>()
            - self.credit
    }
}

/// The payor's statement as of `as_of` (see the module doc).
pub fn statement(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    as_of: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<Statement, ApiError> {
    let basis = ctx.account_reader(payor_id)?;
    let as_of = as_of.unwrap_or(today);
    if as_of > today {
        return Err(ApiError::Validation(vec![FieldError::new(
            "as_of",
            "in_the_future",
            format!("a statement is as of today ({today}) or an earlier date"),
        )]));
    }
    let statement = compute(conn, ctx.municipality_id, payor_id, as_of)?;
    let actor = Actor::of(ctx)?;
    db::access_log::record(
        conn,
        ctx.municipality_id,
        &actor.reader(&basis),
        "payor_account",
        payor_id,
    )?;
    Ok(statement)
}

/// The payor's statement as of `as_of` (read as [`statement`] reads it:
/// authorised and logged) with its PDF document, rendered by
/// `render::statement` from the statement's own figures: the same rows as
/// the page and the CSV (each component charged, paid and its balance; the
/// interest accrued; each period's total), the same totals, the payments.
pub fn document(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    as_of: Option<NaiveDate>,
    today: NaiveDate,
) -> Result<(Statement, Vec<u8>), ApiError> {
    let s = statement(conn, ctx, payor_id, as_of, today)?;
    let payor =
        db::payors::get(conn, ctx.municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))?;
    let municipality = db::notices::municipality_name(conn, ctx.municipality_id)?;
    let bytes = statement_pdf(&document_of(&s, municipality, &payor));
    Ok((s, bytes))
}

/// What the PDF shows of `s`.
fn document_of(
    s: &Statement,
    municipality: String,
    payor: &crate::db::models::PayorRow,
) -> StatementDocument {
    let mut lines = Vec::new();
    for p in &s.periods {
        let period = p.period.to_string();
        let due = p.due_date.map_or_else(|| "-".to_owned(), |d| d.to_string());
        let line = |what: String, charged: Money, paid: Money, balance: Money, total: bool| {
            StatementLine {
                period: period.clone(),
                due: if total { String::new() } else { due.clone() },
                what,
                charged,
                paid,
                balance,
                total,
            }
        };
        for (c, b) in &p.components {
            lines.push(line(
                c.as_str().replace('_', " "),
                b.charged,
                b.paid,
                b.balance(),
                false,
            ));
        }
        if !p.accrued().is_zero() {
            lines.push(StatementLine {
                due: "-".into(),
                ..line(
                    "interest accrued (not posted)".into(),
                    p.accrued(),
                    Money::from_cents(0),
                    p.accrued(),
                    false,
                )
            });
        }
        lines.push(line(
            "period balance".into(),
            p.charged(),
            p.paid(),
            p.balance(),
            true,
        ));
    }
    let sum = |f: fn(&StatementPeriod) -> Money| s.periods.iter().map(f).sum::<Money>();
    let mut notes = Vec::new();
    if !s.security_deposit.is_zero() {
        notes.push(format!(
            "Security deposit held: ${} (not deducted from the balance).",
            s.security_deposit
        ));
    }
    StatementDocument {
        municipality,
        payor_id: s.payor_id.clone(),
        addressee: vec![payor.legal_name.clone(), payor.mailing_address.clone()],
        as_of: s.as_of,
        lines,
        totals: vec![
            ("Balance".into(), s.balance()),
            ("Charged".into(), sum(StatementPeriod::charged)),
            ("Paid".into(), sum(StatementPeriod::paid)),
            ("Interest accrued".into(), sum(StatementPeriod::accrued)),
            ("Credit held".into(), s.credit),
        ],
        payments: s
            .payments
            .iter()
            .map(|p| StatementPaymentLine {
                received_on: p.row.received_on,
                method: p.row.method.clone(),
                reference: p.row.reference.clone(),
                amount: Money::from_cents(p.row.amount_cents),
                reversed_on: p.reversed_on,
            })
            .collect(),
        notes,
    }
}

/// The payor's statement as of `as_of`, computed: no authorisation and no
/// access-log entry (the caller does both: [`statement`], the delinquency
/// list, a delinquency letter).
pub(crate) fn compute(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    as_of: NaiveDate,
) -> Result<Statement, ApiError> {
    let terms = PayorTerms::load(conn, municipality_id, payor_id)?;
    // One read of the payor's lines to the date: its book, and its security
    // deposit account (`payor:<id>:security_deposit`, under the same prefix).
    let lines = lines_as_of(conn, municipality_id, payor_id, as_of)?;
    let book = PayorBook::from_lines(&lines);
    let period_terms = terms_of(conn, &terms, &book)?;
    let mut determined = super::determinations::of_payor(conn, municipality_id, payor_id)?;
    determined.retain(|d| d.row.determined_on <= as_of);
    let mut periods = Vec::new();
    for (period, components) in &book.periods {
        let t = period_terms.get(period);
        let unpaid_tax = book.component(period, Component::Tax).balance().max_zero();
        let interest_accrued = match t {
            Some(t) if !unpaid_tax.is_zero() => Some(
                interest(&t.policy, unpaid_tax, t.due_date, Some(as_of))
                    .map_err(|e| ApiError::from(Invalid(vec![e])))?,
            ),
            _ => None,
        };
        periods.push(StatementPeriod {
            period: *period,
            due_date: t.map(|t| t.due_date),
            filing_due_date: t.map(|t| t.filing_due_date),
            components: components.iter().map(|(c, b)| (*c, *b)).collect(),
            interest_accrued,
            determinations: determined
                .iter()
                .filter(|d| d.row.period == period.to_string())
                .cloned()
                .collect(),
        });
    }
    let received: Vec<_> = db::payments::of_payor(conn, municipality_id, payor_id)?
        .into_iter()
        .filter(|row| row.received_on <= as_of)
        .collect();
    // Their reversals to the date, read for all of them at once.
    let reversals: Vec<_> =
        db::ledger::payment_reversals_of_payor(conn, municipality_id, payor_id)?
            .into_iter()
            .filter(|j| j.posted_on <= as_of)
            .collect();
    let payments = received
        .into_iter()
        .map(|row| {
            let reversed_on = reversals
                .iter()
                .find(|j| j.cause_id == row.id)
                .map(|j| j.posted_on);
            StatementPayment { row, reversed_on }
        })
        .collect();
    let refunds = db::refunds::of_payor(conn, municipality_id, payor_id)?
        .into_iter()
        .filter(|r| r.refunded_on <= as_of)
        .collect();
    Ok(Statement {
        security_deposit: deposit_held(&lines),
        payor_id: payor_id.to_owned(),
        as_of,
        periods,
        payments,
        credit: book.credit,
        refunds,
    })
}

//! The clerk's daily posting: Montello's late-payment forfeiture on tax
//! still unpaid more than 30 days after the due date of its return.
//!
//! Contract (issue 9 item 2; Montello room tax, interest ¶: "A forfeiture of
//! 25% of the tax imposed for the previous year or $1,000, whichever is
//! less", due when the room tax "is not paid within 30 days after the due
//! date of the return"; DESIGN §3 "Montello late-payment forfeiture"):
//! - for every payor (its row locked first, as a payment locks it, so a
//!   payment and the posting never both charge it) and every period whose
//!   return is on file, whose tax is unpaid as of `today` and on which no
//!   forfeiture is charged yet, the engine's `late_payment_forfeiture`
//!   (from the filing due date, extended when an extension was granted, the
//!   previous year's tax, "paid" not before today) is posted when more than
//!   zero: one journal `forfeiture_posted`, cause `return` (the return's id),
//!   the payor's forfeiture account debited, forfeiture revenue credited;
//! - the ledger holds at most one such journal per return (a unique key on
//!   the cause and kind), and a forfeiture already charged by a payment or
//!   by an earlier run is never charged again: running it twice posts
//!   nothing the second time; a later payment sees the posted forfeiture
//!   and does not charge it (`domain::ledger::payment_journal`);
//! - Hayward: the engine answers zero (no such forfeiture), nothing posts;
//! - [`run`] is the API's (the clerk-treasurer or staff, a person; written
//!   to the access log as `daily_posting`, `create`); [`post_daily`] is the
//!   command line's (`roomtax post-daily`), which acts for no caller.

use chrono::NaiveDate;

use super::payments::{book_as_of, terms_of};
use crate::{
    db::{self, DbConn},
    domain::{
        DomainError, Line, Money, Period,
        compute::late_payment_forfeiture,
        ledger::{Account, Cause, Component, Journal, JournalKind, JournalLine},
        registry::Invalid,
    },
    error::ApiError,
    tenancy::{Action, MunicipalityContext},
    usecases::{payors::Actor, returns::PayorTerms},
};

/// One forfeiture posted.
#[derive(Debug, Clone)]
pub struct PostedForfeiture {
    /// The payor.
    pub payor_id: String,
    /// The period.
    pub period: Period,
    /// The return it is charged on.
    pub return_id: String,
    /// The journal posted.
    pub journal_id: String,
    /// The engine's line (its amount is the forfeiture).
    pub line: Line,
}

/// What a run posted.
#[derive(Debug, Clone)]
pub struct DailyPosting {
    /// The date posted (today).
    pub posted_on: NaiveDate,
    /// Returns examined (tax unpaid, no forfeiture charged).
    pub examined: usize,
    /// The forfeitures posted.
    pub posted: Vec<PostedForfeiture>,
}

impl DailyPosting {
    /// Their total.
    pub fn total(&self) -> Money {
        self.posted.iter().map(|p| p.line.amount).sum()
    }
}

fn domain(e: DomainError) -> ApiError {
    ApiError::from(Invalid(vec![e]))
}

/// The API's daily posting (see the module doc).
pub fn run(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    today: NaiveDate,
) -> Result<DailyPosting, ApiError> {
    ctx.require(Action::RecordPayments)?;
    let posting = post_daily(conn, ctx.municipality_id, today)?;
    Actor::of(ctx)?.log_write(conn, ctx, "daily_posting", &today.to_string(), "create")?;
    Ok(posting)
}

/// Post every forfeiture due as of `today` in the municipality (see the
/// module doc); the caller has authorised it.
pub fn post_daily(
    conn: &mut DbConn,
    municipality_id: i64,
    today: NaiveDate,
) -> Result<DailyPosting, ApiError> {
    let mut out = DailyPosting {
        posted_on: today,
        examined: 0,
        posted: Vec::new(),
    };
    for payor_id in db::delinquency::payors_with_returns(conn, municipality_id)? {
        let terms = PayorTerms::load(conn, municipality_id, &payor_id)?;
        db::payments::lock_payor(conn, municipality_id, &payor_id)?;
        let book = book_as_of(conn, municipality_id, &payor_id, today)?;
        let period_terms = terms_of(conn, &terms, &book)?;
        for (period, t) in &period_terms {
            let tax = book.component(period, Component::Tax);
            let charged = book.component(period, Component::LatePaymentForfeiture);
            if tax.balance().is_negative() || tax.balance().is_zero() || !charged.charged.is_zero()
            {
                continue;
            }
            let Some(header) = db::returns::of_payor_period(
                conn,
                municipality_id,
                &payor_id,
                &period.to_string(),
            )?
            else {
                continue;
            };
            let already = db::ledger::of_cause(conn, municipality_id, "return", &header.id)?
                .iter()
                .any(|j| j.kind == JournalKind::ForfeiturePosted.as_str());
            if already {
                continue;
            }
            out.examined += 1;
            let line = late_payment_forfeiture(
                &t.policy,
                tax.charged,
                t.filing_due_date,
                Some(today),
                t.previous_year_tax,
            )
            .map_err(domain)?;
            if line.amount.is_zero() {
                continue;
            }
            let journal = Journal::new(
                JournalKind::ForfeiturePosted,
                today,
                Cause::Return {
                    return_id: header.id.clone(),
                },
                format!(
                    "late-payment forfeiture on return {} (daily posting {today})",
                    header.id
                ),
                vec![
                    JournalLine::debit(
                        Account::payor(&payor_id, *period, Component::LatePaymentForfeiture),
                        line.amount,
                    ),
                    JournalLine::credit(
                        Account::Revenue(Component::LatePaymentForfeiture),
                        line.amount,
                    ),
                ],
            )
            .map_err(|e| ApiError::internal(format!("a forfeiture's journal: {e}")))?;
            let journal_id = super::post(conn, municipality_id, &journal)?;
            out.posted.push(PostedForfeiture {
                payor_id: payor_id.clone(),
                period: *period,
                return_id: header.id,
                journal_id,
                line,
            });
        }
    }
    Ok(out)
}

//! The journal that applies a payor's credit to its charges when a new charge
//! is posted: [`credit_journal`].
//!
//! Contract (issue 9 items 2 and 3; DESIGN §3 "Payments apply..."):
//! - tax overpaid on a period (a receivable `tax` account with a negative
//!   balance: an amendment or an annual adjustment down after the tax was
//!   paid) is first moved back to the payor's credit (the tax account
//!   debited, the credit credited), so money of the payor held by the
//!   municipality is always in one place, `payor:<p>:credit`, whatever it came
//!   from (an overpayment or a decrease);
//! - then the credit held (including what was just moved) is applied to the
//!   payor's open charges exactly as a payment of that amount received on the
//!   posting date would be ([`payment_journal`]: oldest period first, the
//!   policy's payment order, interest on the tax it settles and Montello's
//!   forfeiture posted with it), except that the money comes from the credit
//!   account, not from cash;
//! - the credit counts as paid on the day it was deposited, not on the
//!   posting date (Montello room tax, interest ¶: interest runs "until the
//!   first day of the month following the month in which the tax is paid or
//!   deposited"; the forfeiture is due when the tax "is not paid within 30
//!   days after the due date of the return"):
//!   [`credit_journal_dated`] applies the credit lot by lot, oldest first
//!   ([`credit_lots`]: each lot is the receipt date of the payment whose
//!   overpayment made it, or the date of the credit application that moved
//!   an amendment's decrease to the credit), each lot as a payment received
//!   on its date against the book as the earlier lots left it. Interest and
//!   forfeiture run from the due dates, so a lot deposited on or before a
//!   period's due date settles its tax with no interest and no forfeiture;
//!   a lot deposited after it bears them to its own date, never to the
//!   posting date. Tax overpaid moved back by this very journal is a lot
//!   dated the posting date (the amendment's filing date);
//! - one balanced journal of kind `credit_applied` for both steps (the credit
//!   account appears on one line, its net change), or none at all when there
//!   is nothing to move and nothing to apply;
//! - the caller chooses the cause: the version of the return whose charge
//!   triggered it (`return_version`, `<return id>:<version>`; at most one such
//!   journal per version and kind, by the ledger's unique key).
//!
//! Why automatic (a clerk-treasurer's expectation, not an ordinance rule):
//! credit is the payor's money already in the municipality's hands; leaving it
//! idle while a later period's tax goes unpaid would charge the payor interest
//! and Montello's forfeiture on money the municipality holds. So it is applied
//! as soon as a charge it can settle is posted, the way the state applies an
//! overpayment to the next liability; what no charge needs stays as credit
//! until the clerk refunds it (`refunds`).

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::account::{Account, Component};
use super::book::{PayorBook, PostedLine};
use super::journal::{Cause, Journal, JournalKind, JournalLine};
use super::payments::{Applied, PaymentIn, PeriodTerms, Posted, payment_journal};
use crate::domain::error::DomainError;
use crate::domain::money::Money;
use crate::domain::period::Period;

/// What a credit application posts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreditPosting {
    /// The balanced journal (`credit_applied`).
    pub journal: Journal,
    /// Tax overpaid moved back to the credit, by period.
    pub moved: Vec<(Period, Money)>,
    /// Where the credit went, in the order applied.
    pub allocations: Vec<Applied>,
    /// Interest and forfeiture posted because the credit settled tax.
    pub charges: Vec<Posted>,
    /// The credit still held afterwards.
    pub credit_left: Money,
}

/// The credit application for `payor_id` on `on` against `book` (its accounts
/// as of `on`, the new charge included), each open period judged by its
/// `terms`, all credit counted as deposited on `on`; `None` when nothing is
/// to be moved or applied (see the module doc).
pub fn credit_journal(
    payor_id: &str,
    on: NaiveDate,
    cause: Cause,
    book: &PayorBook,
    terms: &BTreeMap<Period, PeriodTerms>,
) -> Result<Option<CreditPosting>, DomainError> {
    credit_journal_dated(payor_id, on, cause, book, &[], terms)
}

/// The lots of the credit held after `lines` (the payor's lines in posting
/// order, as [`PayorBook::from_lines`] takes them), oldest first: each
/// credit to the payor's credit account opens a lot dated its journal's
/// date; a debit (credit applied, refunded) uses the oldest lots first, a
/// reversal's debit (a bounced payment's overpayment withdrawn) the newest
/// first, since that is the lot the reversed payment made.
pub fn credit_lots(lines: &[PostedLine]) -> Vec<(NaiveDate, Money)> {
    let mut lots: Vec<(NaiveDate, Money)> = Vec::new();
    for line in lines {
        if !matches!(line.account, Account::PayorCredit { .. }) {
            continue;
        }
        let amount = Money::from_cents(line.amount_cents);
        if amount.is_negative() {
            lots.push((line.posted_on, -amount));
            continue;
        }
        let mut used = amount;
        while !used.is_zero() && !lots.is_empty() {
            let i = if line.kind == JournalKind::PaymentReversed {
                lots.len() - 1
            } else {
                0
            };
            let take = used.min(lots[i].1);
            lots[i].1 -= take;
            used -= take;
            if lots[i].1.is_zero() {
                lots.remove(i);
            }
        }
    }
    lots
}

/// [`credit_journal`], the credit held being `lots` (its deposits, oldest
/// first, from [`credit_lots`]); credit in `book` beyond the lots, and tax
/// overpaid moved back here, count as deposited on `on`.
pub fn credit_journal_dated(
    payor_id: &str,
    on: NaiveDate,
    cause: Cause,
    book: &PayorBook,
    lots: &[(NaiveDate, Money)],
    terms: &BTreeMap<Period, PeriodTerms>,
) -> Result<Option<CreditPosting>, DomainError> {
    let mut lines = Vec::new();
    let mut moved = Vec::new();
    let mut moved_total = Money::ZERO;
    for (period, components) in &book.periods {
        let Some(tax) = components.get(&Component::Tax) else {
            continue;
        };
        let overpaid = -tax.balance();
        if overpaid.is_negative() || overpaid.is_zero() {
            continue;
        }
        lines.push(JournalLine::debit(
            Account::payor(payor_id, *period, Component::Tax),
            overpaid,
        ));
        moved.push((*period, overpaid));
        moved_total += overpaid;
    }
    let available = book.credit + moved_total;
    let has_open = book.periods.values().any(|components| {
        components
            .iter()
            .any(|(_, b)| !b.balance().is_negative() && !b.balance().is_zero())
    });
    let mut allocations = Vec::new();
    let mut charges = Vec::new();
    let mut applied = Money::ZERO;
    if has_open && !available.is_negative() && !available.is_zero() {
        let mut dated: Vec<(NaiveDate, Money)> = Vec::new();
        let mut left = available;
        for (date, amount) in lots {
            let take = (*amount).min(left);
            if take.is_negative() || take.is_zero() {
                continue;
            }
            dated.push((*date, take));
            left -= take;
        }
        if !left.is_zero() {
            dated.push((on, left));
        }
        let mut current = book.clone();
        for (deposited_on, amount) in dated {
            let posting = payment_journal(
                &PaymentIn {
                    payor_id,
                    payment_id: "credit",
                    received_on: deposited_on,
                    amount,
                },
                &current,
                terms,
            )?;
            applied += amount - posting.credit;
            let mut kept = Vec::new();
            for line in posting.journal.lines() {
                match line.account {
                    Account::Cash | Account::PayorCredit { .. } => {}
                    _ => kept.push(line.clone()),
                }
            }
            current.add_lines(
                &kept
                    .iter()
                    .map(|l| PostedLine {
                        kind: JournalKind::Payment,
                        posted_on: on,
                        account: l.account.clone(),
                        amount_cents: l.amount_cents,
                    })
                    .collect::<Vec<_>>(),
            );
            lines.extend(kept);
            allocations.extend(posting.allocations);
            charges.extend(posting.charges);
            if posting.credit == amount {
                // Nothing left open for this lot: none for later ones.
                break;
            }
        }
    }
    if moved.is_empty() && applied.is_zero() {
        return Ok(None);
    }
    let net = applied - moved_total;
    if !net.is_zero() {
        lines.push(JournalLine::debit(
            Account::PayorCredit {
                payor_id: payor_id.to_owned(),
            },
            net,
        ));
    }
    let memo = format!(
        "credit applied {on} after {} {}",
        cause.cause_type(),
        cause.cause_id()
    );
    let journal = Journal::new(JournalKind::CreditApplied, on, cause, memo, lines)
        .map_err(|e| DomainError::invalid("credit", "unbalanced", e.to_string()))?;
    Ok(Some(CreditPosting {
        journal,
        moved,
        allocations,
        charges,
        credit_left: available - applied,
    }))
}

#[cfg(test)]
mod tests;

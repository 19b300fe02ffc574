//! Replaying a payment's allocation from the stored ledger (`roomtax check`).
//!
//! Contract: pure (no I/O). A payor's journals, in the order they were
//! written (every writer to a payor's ledger takes the payor's lock before
//! its first journal, so storage order per payor is commit order), are the
//! state each payment journal was computed from. [`state_before`] rebuilds
//! what `usecases::ledger::payments::record` read for a payment received on
//! a date: the book of the journals written before it and posted on or
//! before `received_on`, and the periods whose late-payment forfeiture any
//! earlier journal charged (whatever its date: never charged twice).
//! [`replay_payment`] computes the payment's journal from that state with
//! the payment's own domain code ([`payment_journal_after`]) under the
//! periods' terms as they stood (the caller gives them) and compares it
//! with the stored lines one by one: the first line that differs (account
//! or amount) is the mismatch, named by its line number and accounts, never
//! by its amount (amounts are confidential).

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use chrono::NaiveDate;

use super::account::{Account, Component};
use super::book::{PayorBook, PostedLine};
use super::journal::JournalLine;
use super::payments::{PaymentIn, PeriodTerms, payment_journal_after};
use crate::domain::error::DomainError;
use crate::domain::money::Money;
use crate::domain::period::Period;

/// What a payment journal was computed from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplayState {
    /// The payor's book as of the receipt date, of the journals before it.
    pub book: PayorBook,
    /// Periods whose late-payment forfeiture an earlier journal charged.
    pub forfeiture_posted: BTreeSet<Period>,
}

/// The state a payment received on `received_on` read, from the payor's
/// lines of the journals written before it (`prior`, any date).
pub fn state_before(prior: &[PostedLine], received_on: NaiveDate) -> ReplayState {
    let dated: Vec<PostedLine> = prior
        .iter()
        .filter(|l| l.posted_on <= received_on)
        .cloned()
        .collect();
    let everything = PayorBook::from_lines(prior);
    ReplayState {
        book: PayorBook::from_lines(&dated),
        forfeiture_posted: everything
            .periods
            .iter()
            .filter(|(_, c)| {
                c.get(&Component::LatePaymentForfeiture)
                    .is_some_and(|b| !b.charged.is_zero())
            })
            .map(|(p, _)| *p)
            .collect(),
    }
}

/// How a stored payment journal differs from its replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayMismatch {
    /// The payment's own rules refuse it on that state (no terms for an
    /// open period, ...).
    Refused(String),
    /// Line `line_no` (1-based) differs: the stored account (none: the
    /// stored journal is shorter) and the account the replay posts there
    /// (none: the replay is shorter); same accounts: the amount differs.
    Line {
        /// 1-based line number.
        line_no: usize,
        /// The stored line's account.
        stored: Option<Account>,
        /// The replayed line's account.
        expected: Option<Account>,
    },
}

impl std::fmt::Display for ReplayMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayMismatch::Refused(why) => write!(f, "the payment's rules refuse it: {why}"),
            ReplayMismatch::Line {
                line_no,
                stored,
                expected,
            } => {
                let name = |a: &Option<Account>| {
                    a.as_ref()
                        .map_or_else(|| "nothing".to_owned(), |a| format!("`{a}`"))
                };
                if stored == expected {
                    write!(
                        f,
                        "line {line_no} ({}) does not post the amount the allocation gives",
                        name(stored)
                    )
                } else {
                    write!(
                        f,
                        "line {line_no} posts to {} where the allocation posts to {}",
                        name(stored),
                        name(expected)
                    )
                }
            }
        }
    }
}

/// Replay the payment `payment_id` of `payor_id` (`received_on`, `amount`)
/// on `state` under `terms` and compare with its `stored` lines (see the
/// module doc).
pub fn replay_payment(
    payor_id: &str,
    payment_id: &str,
    received_on: NaiveDate,
    amount: Money,
    state: &ReplayState,
    terms: &BTreeMap<Period, PeriodTerms>,
    stored: &[JournalLine],
) -> Result<(), ReplayMismatch> {
    let posting = payment_journal_after(
        &PaymentIn {
            payor_id,
            payment_id,
            received_on,
            amount,
        },
        &state.book,
        terms,
        &state.forfeiture_posted,
    )
    .map_err(|e: DomainError| ReplayMismatch::Refused(e.to_string()))?;
    let expected = posting.journal.lines();
    for i in 0..stored.len().max(expected.len()) {
        let (s, e) = (stored.get(i), expected.get(i));
        if s != e {
            return Err(ReplayMismatch::Line {
                line_no: i + 1,
                stored: s.map(|l| l.account.clone()),
                expected: e.map(|l| l.account.clone()),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;

//! The journal a payment's reversal posts (a bounced check):
//! [`reversal_posting`].
//!
//! Contract (issue 9 item 3, "Reversal of a bounced payment is a new
//! journal"; gap 3 of the ledger): the reversal takes back the whole
//! payment, and never leaves the payor's credit negative. A payment's journal
//! put its money in two places: the charges it settled (and the interest and
//! forfeiture it posted on the way), and what was left over, held as the
//! payor's credit (`C`). The reversal, one `payment_reversed` journal on its
//! own date:
//! - credits cash with the whole amount and negates every line of the
//!   payment's journal but two kinds: the late-payment forfeiture it charged,
//!   which stands ([`reversal_keeps`]: that tax was not paid within 30 days
//!   whether or not the payment stands), and its line on the credit account;
//!   what the payment settled is owed again, the interest it posted is
//!   withdrawn (computed again, posted when a payment settles the tax);
//! - takes `C` back from where it went, in this order (the payor's credit is
//!   one pool, so "where it went" is read from the pool as it stands):
//!   1. the part still held: the credit held without a break from the
//!      reversal's date to now (the lowest balance of the credit account on
//!      any date from the reversal's on, `held`), at most `C`, leaves the
//!      credit account;
//!   2. the part of it applied to later charges: the credit applications
//!      posted after the payment (`credit_applied` journals) are undone latest
//!      application first, and within one application its last allocation
//!      first: each charge it paid is owed again. Where tax of a period is
//!      reopened, the interest that application posted on the period's tax is
//!      withdrawn in proportion (all of it when all of that tax is reopened,
//!      rounded once, half away from zero, on the running total), since that
//!      tax is now unpaid and its interest runs until it is paid; the
//!      forfeiture an application posted stands, as the payment's does;
//!   3. the part already refunded: the refunds posted after the payment,
//!      latest first, become a receivable the payor owes,
//!      `payor:<p>:<refund's period>:refund_reclaimed` (a charge on the
//!      statement, in the period of the return whose overpayment was
//!      refunded, caused by this reversal), never a negative credit. The
//!      refund's interest is not reclaimed here (it was computed on the return
//!      named by the clerk; a determination can take it back).
//! - it sums to zero (`Journal::new` refuses anything else): cash `−A`, the
//!   negation of the payment's other lines `A − C`, and `C` from the three
//!   places above. Something of `C` found in none of them is an error (the
//!   ledger was inconsistent already): nothing is posted.

use chrono::NaiveDate;

use super::account::{Account, Component};
use super::journal::{Cause, Journal, JournalKind, JournalLine, LedgerError};
use super::payments::{Applied, reversal_keeps};
use crate::domain::money::Money;
use crate::domain::period::Period;

/// A use of the payor's credit posted after the payment: a credit
/// application or a refund.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CreditUse {
    /// A `credit_applied` journal: its id, date and lines.
    Applied {
        /// The journal's id.
        journal_id: String,
        /// Its date.
        posted_on: NaiveDate,
        /// Its lines, in posting order.
        lines: Vec<JournalLine>,
    },
    /// A refund of credit: its journal's id, date, the period named, the amount.
    Refunded {
        /// The refund journal's id.
        journal_id: String,
        /// Its date.
        posted_on: NaiveDate,
        /// The period of the return whose overpayment it refunded.
        period: Period,
        /// The credit it paid out (its interest excluded).
        amount: Money,
    },
}

impl CreditUse {
    /// The journal's date.
    pub fn posted_on(&self) -> NaiveDate {
        match self {
            CreditUse::Applied { posted_on, .. } | CreditUse::Refunded { posted_on, .. } => {
                *posted_on
            }
        }
    }

    /// The journal's id.
    pub fn journal_id(&self) -> &str {
        match self {
            CreditUse::Applied { journal_id, .. } | CreditUse::Refunded { journal_id, .. } => {
                journal_id
            }
        }
    }
}

/// A reversal to post.
#[derive(Debug, Clone, Copy)]
pub struct ReversalIn<'a> {
    /// The payor.
    pub payor_id: &'a str,
    /// The payment reversed (the journal's cause).
    pub payment_id: &'a str,
    /// The payment's journal's lines, in posting order.
    pub payment_lines: &'a [JournalLine],
    /// The reversal's date.
    pub reversed_on: NaiveDate,
    /// The clerk's reason (in the memo).
    pub reason: &'a str,
    /// The credit held without a break from `reversed_on` to now.
    pub held: Money,
    /// The uses of credit posted after the payment, oldest first.
    pub uses: &'a [CreditUse],
}

/// What a reversal posts, and where the payment's credit was taken back from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReversalPosting {
    /// The balanced journal (`payment_reversed`).
    pub journal: Journal,
    /// The credit the payment left (`C`).
    pub overpayment: Money,
    /// Taken from the credit still held.
    pub credit_withdrawn: Money,
    /// Charges paid from that credit that are owed again, latest first.
    pub reopened: Vec<Applied>,
    /// Interest those applications posted, withdrawn, by period.
    pub interest_withdrawn: Vec<(Period, Money)>,
    /// Credit refunded that the payor owes back, by the refund's period.
    pub refund_reclaimed: Vec<(Period, Money)>,
    /// The journals whose use of the credit was undone (credit applications
    /// and refunds), latest first.
    pub undone: Vec<(String, NaiveDate)>,
}

/// Why a reversal cannot be posted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReversalError {
    /// The journal would not balance or has no lines.
    #[error(transparent)]
    Ledger(#[from] LedgerError),
    /// Part of the payment's credit is neither held, applied nor refunded.
    #[error("{missing} of the payment's credit is neither held, applied nor refunded")]
    CreditNotFound {
        /// What could not be found.
        missing: Money,
    },
}

/// `n × num / den` rounded half away from zero (`den` > 0).
fn prorate(n: i64, num: i64, den: i64) -> i64 {
    let (n, num, den) = (i128::from(n), i128::from(num), i128::from(den));
    let p = n * num;
    let q = p.abs() * 2 + den;
    let r = q / (den * 2);
    i64::try_from(if p < 0 { -r } else { r }).unwrap_or(i64::MAX)
}

fn payor_parts(account: &Account) -> Option<(Period, Component)> {
    match account {
        Account::Payor {
            period, component, ..
        } => Some((*period, *component)),
        _ => None,
    }
}

/// What undoing an application gives: the lines to post, the charges
/// reopened, the interest withdrawn by period, and the credit taken back.
type Undone = (Vec<JournalLine>, Vec<Applied>, Vec<(Period, Money)>, Money);

/// Undo up to `need` of the credit application `lines` (see the module doc):
/// the lines to post, what was reopened, the interest withdrawn.
fn undo_application(payor_id: &str, lines: &[JournalLine], need: Money) -> Undone {
    let mut out = Vec::new();
    let mut reopened = Vec::new();
    let mut withdrawn: Vec<(Period, Money)> = Vec::new();
    let mut left = need;
    // Per period: the application's tax allocations and interest posted.
    let tax_paid = |p: Period| -> i64 {
        lines
            .iter()
            .filter(|l| l.amount_cents < 0 && payor_parts(&l.account) == Some((p, Component::Tax)))
            .map(|l| -l.amount_cents)
            .sum()
    };
    let interest_posted = |p: Period| -> i64 {
        lines
            .iter()
            .filter(|l| {
                l.amount_cents > 0 && payor_parts(&l.account) == Some((p, Component::Interest))
            })
            .map(|l| l.amount_cents)
            .sum()
    };
    let mut tax_reopened: std::collections::BTreeMap<Period, (i64, i64)> = Default::default();
    for line in lines.iter().rev() {
        if left.is_zero() {
            break;
        }
        let Some((period, component)) = payor_parts(&line.account) else {
            continue;
        };
        if line.amount_cents >= 0 {
            continue;
        }
        let take = Money::from_cents(-line.amount_cents).min(left);
        left -= take;
        out.push(JournalLine::debit(line.account.clone(), take));
        reopened.push(Applied {
            period,
            component,
            amount: take,
        });
        if component == Component::Tax {
            let (x, i) = (tax_paid(period), interest_posted(period));
            if x > 0 && i > 0 {
                let entry = tax_reopened.entry(period).or_default();
                entry.0 += take.cents();
                let due = prorate(i, entry.0, x).min(i);
                let w = due - entry.1;
                entry.1 = due;
                if w > 0 {
                    let w = Money::from_cents(w);
                    out.push(JournalLine::credit(
                        Account::payor(payor_id, period, Component::Interest),
                        w,
                    ));
                    out.push(JournalLine::debit(Account::Revenue(Component::Interest), w));
                    match withdrawn.iter_mut().find(|(p, _)| *p == period) {
                        Some((_, m)) => *m += w,
                        None => withdrawn.push((period, w)),
                    }
                }
            }
        }
    }
    (out, reopened, withdrawn, need - left)
}

/// The reversal of `r.payment_id` (see the module doc).
pub fn reversal_posting(r: &ReversalIn<'_>) -> Result<ReversalPosting, ReversalError> {
    let is_credit = |a: &Account| matches!(a, Account::PayorCredit { .. });
    let mut lines: Vec<JournalLine> = r
        .payment_lines
        .iter()
        .filter(|l| !reversal_keeps(&l.account, l.amount_cents) && !is_credit(&l.account))
        .map(|l| JournalLine {
            account: l.account.clone(),
            amount_cents: -l.amount_cents,
        })
        .collect();
    let overpayment = Money::from_cents(
        -r.payment_lines
            .iter()
            .filter(|l| is_credit(&l.account))
            .map(|l| l.amount_cents)
            .sum::<i64>(),
    )
    .max_zero();
    let credit = Account::PayorCredit {
        payor_id: r.payor_id.to_owned(),
    };
    let credit_withdrawn = overpayment.min(r.held.max_zero());
    if !credit_withdrawn.is_zero() {
        lines.push(JournalLine::debit(credit.clone(), credit_withdrawn));
    }
    let mut need = overpayment - credit_withdrawn;
    let mut reopened = Vec::new();
    let mut interest_withdrawn: Vec<(Period, Money)> = Vec::new();
    let mut undone = Vec::new();
    for used in r.uses.iter().rev() {
        if need.is_zero() {
            break;
        }
        let CreditUse::Applied { lines: applied, .. } = used else {
            continue;
        };
        let (more, opened, withdrawn, taken) = undo_application(r.payor_id, applied, need);
        if taken.is_zero() {
            continue;
        }
        need -= taken;
        lines.extend(more);
        reopened.extend(opened);
        for (p, w) in withdrawn {
            match interest_withdrawn.iter_mut().find(|(q, _)| *q == p) {
                Some((_, m)) => *m += w,
                None => interest_withdrawn.push((p, w)),
            }
        }
        undone.push((used.journal_id().to_owned(), used.posted_on()));
    }
    let mut refund_reclaimed: Vec<(Period, Money)> = Vec::new();
    for used in r.uses.iter().rev() {
        if need.is_zero() {
            break;
        }
        let CreditUse::Refunded { period, amount, .. } = used else {
            continue;
        };
        let take = (*amount).min(need);
        if take.is_zero() || take.is_negative() {
            continue;
        }
        need -= take;
        lines.push(JournalLine::debit(
            Account::payor(r.payor_id, *period, Component::RefundReclaimed),
            take,
        ));
        match refund_reclaimed.iter_mut().find(|(q, _)| q == period) {
            Some((_, m)) => *m += take,
            None => refund_reclaimed.push((*period, take)),
        }
        undone.push((used.journal_id().to_owned(), used.posted_on()));
    }
    if !need.is_zero() {
        return Err(ReversalError::CreditNotFound { missing: need });
    }
    let journal = Journal::new(
        JournalKind::PaymentReversed,
        r.reversed_on,
        Cause::Payment {
            payment_id: r.payment_id.to_owned(),
        },
        format!(
            "payment {} reversed {}: {}",
            r.payment_id, r.reversed_on, r.reason
        ),
        lines,
    )?;
    Ok(ReversalPosting {
        journal,
        overpayment,
        credit_withdrawn,
        reopened,
        interest_withdrawn,
        refund_reclaimed,
        undone,
    })
}

/// Whether the lines of a stored reversal after the payment's negation
/// (`rest`) take back exactly the payment's credit `overpayment`, from the
/// places [`reversal_posting`] takes it (the payor's credit, at most
/// `overpayment`; its receivables; interest revenue withdrawn): the check's
/// reading of a reversal.
pub fn reversal_rest_is_sound(payor_id: &str, rest: &[JournalLine], overpayment: i64) -> bool {
    let mut credit = 0i64;
    for l in rest {
        match &l.account {
            Account::PayorCredit { payor_id: p } if p == payor_id => credit += l.amount_cents,
            Account::Payor { payor_id: p, .. } if p == payor_id => {}
            Account::Revenue(Component::Interest) => {}
            _ => return false,
        }
    }
    let sum: i128 = rest.iter().map(|l| i128::from(l.amount_cents)).sum();
    sum == i128::from(overpayment) && (0..=overpayment).contains(&credit)
}

#[cfg(test)]
mod tests;

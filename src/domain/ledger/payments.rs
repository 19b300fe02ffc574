//! The journal a payment posts ([`payment_journal`]) and its reversal
//! ([`reversal_journal`]).
//!
//! Contract (DESIGN §3 "Payments apply...", §5 "interest is computed as of a
//! date, posted only when settled"; issue 9 items 2 and 3):
//! - the payment goes to the payor's open periods oldest first; within a
//!   period the engine's [`apply_payment`] applies it in the period's policy's
//!   `payment_order` (presets: tax, interest, fees, penalties), each
//!   component's open amount being its balance (a negative balance, an
//!   amendment down beyond what was owed, counts as nothing open);
//! - interest: the part `x` of the period's tax this payment settles bears
//!   the engine's [`interest`] from the period's due date (never extended) to
//!   `received_on`; it is posted (receivable debit, revenue credit) in this
//!   journal and is then open like any interest, so the same payment pays it
//!   next in the order. Interest on tax still unpaid stays computed, never
//!   posted. Summed over the payments that settle a period's tax, interest is
//!   charged once on every cent of tax, for the months until that cent was
//!   paid. (`x` is taken from the order before the new interest is added:
//!   with tax first, as both presets and every sensible order put it, the
//!   final application settles exactly `x`.)
//! - Montello's late-payment forfeiture: when the payment settles tax of a
//!   period more than the policy's days after its filing due date (extended
//!   when an extension was granted) and no forfeiture is charged on the
//!   period yet, the engine's [`late_payment_forfeiture`] is posted here too
//!   (Hayward: the engine says there is none). "Charged yet" is what is
//!   posted, whenever: the book as of `received_on` and, through
//!   [`payment_journal_after`], the periods whose forfeiture the clerk's
//!   daily posting (or an earlier payment) charged on a later date than a
//!   payment recorded late, so it is never charged twice;
//! - what is left after every open charge is credited to the payor's credit
//!   account (an overpayment held as credit);
//! - the journal: cash debited with the payment, each charge posted, each
//!   allocation credited to its receivable, the credit; it sums to zero
//!   (`Journal::new` refuses anything else);
//! - a reversal (a bounced check; `super::reversal` takes its credit back
//!   from where it went since) negates the payment's journal, on its own
//!   date: what the payment settled is open again, and the interest it posted
//!   is withdrawn (computed again, posted when a payment settles the tax).
//!   The late-payment forfeiture it posted is NOT withdrawn
//!   ([`reversal_keeps`]): a payment posts it only when it settles tax more
//!   than the days after the filing due date, so that tax was "not paid
//!   within 30 days after the due date of the return" (Montello room tax,
//!   interest ¶) whether or not the payment stands; the reversal reopens the
//!   part of it the payment paid, and the charge stays (so the daily posting
//!   never charges it again and the period never reads it paid beyond its
//!   charge). Every other line is negated exactly; the journal still sums
//!   to zero (the forfeiture's charge and its revenue are both kept out).

use std::collections::{BTreeMap, BTreeSet};

use chrono::NaiveDate;

use super::account::{Account, Component};
use super::book::PayorBook;
use super::journal::{Cause, Journal, JournalKind, JournalLine, LedgerError};
use crate::domain::compute::{Charge, apply_payment, interest, late_payment_forfeiture};
use crate::domain::error::DomainError;
use crate::domain::explain::Line;
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::{ChargeKind, Policy};

/// What a period's charges are judged by.
#[derive(Debug, Clone)]
pub struct PeriodTerms {
    /// The policy governing the period.
    pub policy: Policy,
    /// The due date of the return and its tax (interest runs from it).
    pub due_date: NaiveDate,
    /// The filing due date (extended when an extension was granted): the
    /// forfeiture's days count from it.
    pub filing_due_date: NaiveDate,
    /// The tax imposed on the payor for the previous year (Montello's
    /// forfeiture; `None`: no previous year).
    pub previous_year_tax: Option<Money>,
}

/// The kind of charge a component is, for the policy's payment order.
pub fn charge_kind(component: Component) -> ChargeKind {
    match component {
        Component::Tax => ChargeKind::Tax,
        Component::Interest => ChargeKind::Interest,
        // Money paid out and owed back: a fee's place in the order, and
        // never tax (no interest runs on it).
        Component::LateFilingFee | Component::RefundReclaimed => ChargeKind::Fee,
        Component::LatePaymentForfeiture | Component::EstimatePenalty | Component::FraudPenalty => {
            ChargeKind::Penalty
        }
    }
}

/// A payment to post.
#[derive(Debug, Clone, Copy)]
pub struct PaymentIn<'a> {
    /// The payor.
    pub payor_id: &'a str,
    /// The payment's id (the journal's cause).
    pub payment_id: &'a str,
    /// The local date it was received (the journal's date).
    pub received_on: NaiveDate,
    /// The amount received (positive).
    pub amount: Money,
}

/// A part of the payment applied to one component of one period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The period.
    pub period: Period,
    /// The component.
    pub component: Component,
    /// The amount applied.
    pub amount: Money,
}

/// A charge the payment posted, with the engine's explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posted {
    /// The period.
    pub period: Period,
    /// `interest` or `late_payment_forfeiture`.
    pub component: Component,
    /// The engine's line (its amount is the charge).
    pub line: Line,
}

/// What a payment posts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentPosting {
    /// The balanced journal.
    pub journal: Journal,
    /// Where the payment went, in the order applied.
    pub allocations: Vec<Applied>,
    /// The interest and forfeiture posted because the payment settled tax.
    pub charges: Vec<Posted>,
    /// What was left over, held as the payor's credit.
    pub credit: Money,
}

fn domain(e: LedgerError) -> DomainError {
    DomainError::invalid("amount", "unbalanced", e.to_string())
}

/// The journal `payment` posts against `book` (the payor's accounts as of
/// `received_on`), each open period judged by its `terms` (see the module doc).
/// A period with open charges but no terms is [`DomainError::NoPolicy`].
pub fn payment_journal(
    payment: &PaymentIn<'_>,
    book: &PayorBook,
    terms: &BTreeMap<Period, PeriodTerms>,
) -> Result<PaymentPosting, DomainError> {
    payment_journal_after(payment, book, terms, &BTreeSet::new())
}

/// [`payment_journal`], where the periods in `forfeiture_posted` already
/// have their late-payment forfeiture charged (posted after `received_on`,
/// so not in `book`): the payment charges none on them.
pub fn payment_journal_after(
    payment: &PaymentIn<'_>,
    book: &PayorBook,
    terms: &BTreeMap<Period, PeriodTerms>,
    forfeiture_posted: &BTreeSet<Period>,
) -> Result<PaymentPosting, DomainError> {
    if payment.amount.is_negative() || payment.amount.is_zero() {
        return Err(DomainError::invalid(
            "amount",
            "positive",
            "a payment is more than 0.00",
        ));
    }
    let paid = payment.received_on;
    let mut left = payment.amount;
    let mut lines = vec![JournalLine::debit(Account::Cash, payment.amount)];
    let mut allocations = Vec::new();
    let mut charges = Vec::new();
    for (period, components) in &book.periods {
        if left.is_zero() {
            break;
        }
        let open: Vec<(Component, Money)> = components
            .iter()
            .map(|(c, b)| (*c, b.balance().max_zero()))
            .filter(|(_, m)| !m.is_zero())
            .collect();
        if open.is_empty() {
            continue;
        }
        let t = terms.get(period).ok_or(DomainError::NoPolicy {
            date: period.last_day(),
        })?;
        let as_charges = |open: &[(Component, Money)]| -> Vec<Charge> {
            open.iter()
                .map(|(c, amount)| Charge {
                    period: *period,
                    kind: charge_kind(*c),
                    amount: *amount,
                })
                .collect()
        };
        let first = apply_payment(&t.policy, left, &as_charges(&open))?;
        let tax_paid: Money = first
            .allocations
            .iter()
            .filter(|a| a.kind == ChargeKind::Tax)
            .map(|a| a.amount)
            .sum();
        let mut open = open;
        let mut post = |component: Component, line: Line, open: &mut Vec<(Component, Money)>| {
            if line.amount.is_zero() {
                return;
            }
            let account = Account::payor(payment.payor_id, *period, component);
            lines.push(JournalLine::debit(account, line.amount));
            lines.push(JournalLine::credit(
                Account::Revenue(component),
                line.amount,
            ));
            match open.iter_mut().find(|(c, _)| *c == component) {
                Some((_, amount)) => *amount += line.amount,
                None => open.push((component, line.amount)),
            }
            charges.push(Posted {
                period: *period,
                component,
                line,
            });
        };
        if !tax_paid.is_zero() {
            let i = interest(&t.policy, tax_paid, t.due_date, Some(paid))?;
            post(Component::Interest, i, &mut open);
            let forfeiture = book.component(period, Component::LatePaymentForfeiture);
            if forfeiture.charged.is_zero() && !forfeiture_posted.contains(period) {
                let tax = book.component(period, Component::Tax).charged;
                let f = late_payment_forfeiture(
                    &t.policy,
                    tax,
                    t.filing_due_date,
                    Some(paid),
                    t.previous_year_tax,
                )?;
                post(Component::LatePaymentForfeiture, f, &mut open);
            }
        }
        open.sort_by_key(|(c, _)| *c);
        let applied = apply_payment(&t.policy, left, &as_charges(&open))?;
        for a in &applied.allocations {
            let (component, _) = open[a.charge_index];
            lines.push(JournalLine::credit(
                Account::payor(payment.payor_id, *period, component),
                a.amount,
            ));
            allocations.push(Applied {
                period: *period,
                component,
                amount: a.amount,
            });
        }
        left = applied.unapplied;
    }
    if !left.is_zero() {
        lines.push(JournalLine::credit(
            Account::PayorCredit {
                payor_id: payment.payor_id.to_owned(),
            },
            left,
        ));
    }
    let journal = Journal::new(
        JournalKind::Payment,
        paid,
        Cause::Payment {
            payment_id: payment.payment_id.to_owned(),
        },
        format!("payment {} received {paid}", payment.payment_id),
        lines,
    )
    .map_err(domain)?;
    Ok(PaymentPosting {
        journal,
        allocations,
        charges,
        credit: left,
    })
}

/// Whether a line of a payment's journal is kept out of its reversal: the
/// late-payment forfeiture the payment charged (the debit on the payor's
/// forfeiture account and the credit to forfeiture revenue), which stands
/// (see the module doc).
pub fn reversal_keeps(account: &Account, amount_cents: i64) -> bool {
    match account {
        Account::Payor { component, .. } => {
            *component == Component::LatePaymentForfeiture && amount_cents > 0
        }
        Account::Revenue(component) => *component == Component::LatePaymentForfeiture,
        _ => false,
    }
}

/// The reversal of the payment `payment_id` whose journal had `lines`, its
/// credit all still held: every line negated except the forfeiture charged
/// ([`reversal_keeps`]), posted on `reversed_on`, the clerk's `reason` in its
/// memo (`super::reversal::reversal_posting` with nothing of the credit used).
pub fn reversal_journal(
    payment_id: &str,
    lines: &[JournalLine],
    reversed_on: NaiveDate,
    reason: &str,
) -> Result<Journal, LedgerError> {
    let payor_id = lines
        .iter()
        .find_map(|l| l.account.payor_id())
        .unwrap_or("payor");
    super::reversal::reversal_posting(&super::reversal::ReversalIn {
        payor_id,
        payment_id,
        payment_lines: lines,
        reversed_on,
        reason,
        held: Money::from_cents(i64::MAX),
        uses: &[],
    })
    .map(|p| p.journal)
    .map_err(|e| match e {
        super::reversal::ReversalError::Ledger(e) => e,
        super::reversal::ReversalError::CreditNotFound { .. } => LedgerError::Empty,
    })
}

#[cfg(test)]
pub(super) mod tests;

//! A payor's book: its accounts read back from posted lines, per period and
//! component, as charged, paid and owed.
//!
//! Contract: pure. [`PayorBook::from_lines`] takes the lines on the payor's
//! accounts of the journals posted on or before a date (the caller filters)
//! and classifies each line on a receivable account (`payor:<p>:<period>:<c>`):
//! - in a return's journal (filed, amended, annual adjustment) it is a charge
//!   (an amendment down is a negative charge);
//! - in a determination's journal, an estimate's replacement and the daily
//!   forfeiture posting, likewise a charge (a replacement is a negative one);
//! - in a payment's journal a debit is a charge the payment settled and
//!   posted (interest, forfeiture), a credit is the payment applied; the same
//!   for money applied from credit or from a security deposit (and a refund's
//!   or a deposit's own journal);
//! - in a credit application's journal (`credit_applied`), likewise, except
//!   that a debit on the tax is tax overpaid moved back to the credit (an
//!   amendment down after payment): it lowers what was paid, never a charge
//!   (tax itself is only ever charged by returns and determinations);
//! - in a reversal's journal (the negation of a payment's, and of the credit
//!   applications its credit paid) a credit undoes a charge and a debit
//!   undoes a payment, but for the refunded credit it claims back
//!   (`refund_reclaimed`), a charge.
//!
//! So for every account `balance = charged − paid` (the sum of its lines).
//! Lines on the payor's credit account are the credit held (an overpayment):
//! [`PayorBook::credit`] is what the payor has to its credit (positive).

use std::collections::BTreeMap;

use chrono::NaiveDate;

use super::account::{Account, Component};
use super::journal::JournalKind;
use crate::domain::money::Money;
use crate::domain::period::Period;

/// A line on one of the payor's accounts, with its journal's kind and date.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PostedLine {
    /// The kind of the journal the line belongs to.
    pub kind: JournalKind,
    /// The journal's date.
    pub posted_on: NaiveDate,
    /// The account.
    pub account: Account,
    /// Signed cents: debit positive.
    pub amount_cents: i64,
}

/// The lines of `lines`, in posting order (date first), posted on or before
/// `on`: a prefix, so the book on an earlier day comes from the lines read
/// to a later one without reading them again.
pub fn posted_by(lines: &[PostedLine], on: NaiveDate) -> &[PostedLine] {
    &lines[..lines.partition_point(|l| l.posted_on <= on)]
}

/// The security deposit held on the payor's deposit account by `lines` (a
/// payor's lines): the account is credited when money is received and
/// debited when it is applied or returned, so what is held is the negated
/// sum of its lines.
pub fn deposit_held(lines: &[PostedLine]) -> Money {
    -lines
        .iter()
        .filter(|l| matches!(l.account, Account::PayorSecurityDeposit { .. }))
        .map(|l| Money::from_cents(l.amount_cents))
        .sum::<Money>()
}

/// One component of one period: what was charged, what was paid, what is owed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ComponentBook {
    /// Charges posted (net of amendments down and reversals).
    pub charged: Money,
    /// Payments applied (net of reversals).
    pub paid: Money,
}

impl ComponentBook {
    /// What is still owed (negative: paid beyond the charge).
    pub fn balance(&self) -> Money {
        self.charged - self.paid
    }
}

/// The payor's accounts (see the module doc).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PayorBook {
    /// Per period, per component.
    pub periods: BTreeMap<Period, BTreeMap<Component, ComponentBook>>,
    /// Money of the payor held as credit (positive).
    pub credit: Money,
}

impl PayorBook {
    /// Read the book from `lines` (see the module doc); lines on other
    /// accounts (security deposit) are left out.
    pub fn from_lines(lines: &[PostedLine]) -> PayorBook {
        let mut book = PayorBook::default();
        book.add_lines(lines);
        book
    }

    /// Add `lines` to the book, read as [`PayorBook::from_lines`] reads them
    /// (a credit application's lines on a copy, lot after lot).
    pub fn add_lines(&mut self, lines: &[PostedLine]) {
        for line in lines {
            self.add_line(line);
        }
    }

    fn add_line(&mut self, line: &PostedLine) {
        let amount = Money::from_cents(line.amount_cents);
        match &line.account {
            Account::Payor {
                period, component, ..
            } => {
                let entry = self
                    .periods
                    .entry(*period)
                    .or_default()
                    .entry(*component)
                    .or_default();
                let is_charge = match line.kind {
                    // Tax overpaid (an amendment down after payment) moved
                    // back to credit: less paid, not more charged.
                    JournalKind::CreditApplied if *component == Component::Tax => false,
                    // A reversal's claim on credit already refunded is a
                    // charge (`reversal`), never a payment undone.
                    JournalKind::PaymentReversed if *component == Component::RefundReclaimed => {
                        true
                    }
                    JournalKind::Payment
                    | JournalKind::CreditApplied
                    | JournalKind::Refund
                    | JournalKind::SecurityReceived
                    | JournalKind::SecurityApplied
                    | JournalKind::SecurityReturned => line.amount_cents > 0,
                    JournalKind::PaymentReversed => line.amount_cents < 0,
                    JournalKind::ReturnFiled
                    | JournalKind::ReturnAmended
                    | JournalKind::AnnualAdjustment
                    | JournalKind::Determination
                    | JournalKind::EstimateReplaced
                    | JournalKind::ForfeiturePosted => true,
                    // The vehicle fee fund's journals move the municipality's
                    // cash and fund only, never a payor's account.
                    JournalKind::VehicleFeeRemittance
                    | JournalKind::VehicleFeeSpending
                    | JournalKind::VehicleFeeSpendingReversed => line.amount_cents > 0,
                    // Remittances post on the municipality's accounts only.
                    JournalKind::Remittance | JournalKind::RemittanceTransfer => true,
                };
                if is_charge {
                    entry.charged += amount;
                } else {
                    entry.paid -= amount;
                }
            }
            Account::PayorCredit { .. } => self.credit -= amount,
            _ => {}
        }
    }

    /// The component of `period`, zero when nothing was posted to it.
    pub fn component(&self, period: &Period, component: Component) -> ComponentBook {
        self.periods
            .get(period)
            .and_then(|c| c.get(&component))
            .copied()
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::{d, m};

    fn line(kind: JournalKind, account: Account, cents: i64) -> PostedLine {
        PostedLine {
            kind,
            posted_on: d("2026-05-01"),
            account,
            amount_cents: cents,
        }
    }

    #[test]
    fn the_deposit_held_is_the_negated_sum_of_its_account_alone() {
        let q1 = Period::parse("2026-Q1").unwrap();
        let deposit = Account::PayorSecurityDeposit {
            payor_id: "p".to_owned(),
        };
        let lines = [
            line(JournalKind::SecurityReceived, Account::Cash, 100_000),
            line(JournalKind::SecurityReceived, deposit.clone(), -100_000),
            line(
                JournalKind::ReturnFiled,
                Account::payor("p", q1, Component::Tax),
                55_556,
            ),
            line(JournalKind::SecurityApplied, deposit, 30_000),
        ];
        assert_eq!(deposit_held(&lines), m("700.00"));
        assert_eq!(deposit_held(&lines[..2]), m("1000.00"));
        assert_eq!(deposit_held(&lines[..0]), Money::ZERO);
    }

    #[test]
    fn the_lines_posted_by_a_day_are_a_prefix_of_the_later_ones() {
        let q1 = Period::parse("2026-Q1").unwrap();
        let tax = Account::payor("p", q1, Component::Tax);
        let on = |day: &str, cents: i64| PostedLine {
            posted_on: d(day),
            ..line(JournalKind::ReturnFiled, tax.clone(), cents)
        };
        let lines = [
            on("2026-04-30", 100),
            on("2026-05-01", 200),
            on("2026-05-01", 300),
            on("2026-06-01", 400),
        ];
        assert!(posted_by(&lines, d("2026-04-29")).is_empty());
        assert_eq!(posted_by(&lines, d("2026-05-01")), &lines[..3]);
        assert_eq!(posted_by(&lines, d("2026-05-31")), &lines[..3]);
        assert_eq!(posted_by(&lines, d("2026-06-01")), &lines[..]);
        assert_eq!(
            PayorBook::from_lines(posted_by(&lines, d("2026-05-01")))
                .component(&q1, Component::Tax)
                .charged,
            m("6.00")
        );
    }

    #[test]
    fn charges_payments_and_reversals_are_told_apart() {
        let q1 = Period::parse("2026-Q1").unwrap();
        let tax = Account::payor("p", q1, Component::Tax);
        let interest = Account::payor("p", q1, Component::Interest);
        let credit = Account::PayorCredit {
            payor_id: "p".into(),
        };
        let lines = [
            line(JournalKind::ReturnFiled, tax.clone(), 42750),
            line(JournalKind::ReturnAmended, tax.clone(), -4500),
            // A payment settling 100.00 of tax and posting 1.00 of interest.
            line(JournalKind::Payment, interest.clone(), 100),
            line(JournalKind::Payment, tax.clone(), -10000),
            line(JournalKind::Payment, interest.clone(), -100),
            // Its reversal.
            line(JournalKind::PaymentReversed, interest.clone(), -100),
            line(JournalKind::PaymentReversed, tax.clone(), 10000),
            line(JournalKind::PaymentReversed, interest.clone(), 100),
            // Another payment, overpaying by 5.00.
            line(JournalKind::Payment, tax.clone(), -38250),
            line(JournalKind::Payment, credit, -500),
        ];
        let book = PayorBook::from_lines(&lines);
        let t = book.component(&q1, Component::Tax);
        assert_eq!(
            (t.charged, t.paid, t.balance()),
            (m("382.50"), m("382.50"), m("0.00"))
        );
        let i = book.component(&q1, Component::Interest);
        assert_eq!((i.charged, i.paid), (m("0.00"), m("0.00")));
        assert_eq!(book.credit, m("5.00"));
    }
}

//! Hand-computed payments (Montello: interest 1 % a month, late filing fee
//! 25.00, forfeiture the lesser of 25 % of the previous year's tax and
//! 1,000.00 when the tax is paid more than 30 days after the filing due date).
//!
//! The payor: 2025-Q4 tax 360.00 (due 2026-01-31, filed on time, no year
//! before it); 2026-Q1 tax 427.50 filed 2026-05-01 (due 2026-04-30): fee
//! 25.00; its previous year's tax is 360.00, so its forfeiture would be
//! min(90.00, 1,000.00) = 90.00; in time until 2026-05-30.
//!
//! A, 500.00 on 2026-05-15:
//! - 2025-Q4 first: tax 360.00 settled; its interest (2026-01 → 2026-05: 4
//!   months) 360.00 × 1 % × 4 = 14.40 posted and paid; forfeiture none (no
//!   previous year); 125.60 left;
//! - 2026-Q1: 125.60 of tax settled; its interest 1 month, 1.256 → 1.26
//!   posted (not paid: nothing left); within 30 days: no forfeiture.
//!
//! B, 400.00 on 2026-07-10: 2026-Q1 tax 301.90 settled, its interest 3
//! months 9.057 → 9.06 posted, more than 30 days late: forfeiture 90.00
//! posted; applied tax 301.90, interest 1.26 + 9.06 = 10.32, fee 25.00,
//! forfeiture 62.78 (27.22 left open).
//!
//! C, 50.00 on 2026-07-20: forfeiture 27.22; 22.78 held as credit.

use super::*;
use crate::domain::compute::test_values::{d, m};
use crate::domain::ledger::book::PostedLine;
use crate::domain::ledger::journal::sum_cents;
use crate::domain::presets::montello;

/// The payor of these tests (also the replay's).
pub(crate) const P: &str = "payor-1";

pub(crate) fn q(text: &str) -> Period {
    Period::parse(text).unwrap()
}

/// Montello's terms for 2025-Q4 and 2026-Q1 (also the replay's tests).
pub(crate) fn terms() -> BTreeMap<Period, PeriodTerms> {
    BTreeMap::from([
        (
            q("2025-Q4"),
            PeriodTerms {
                policy: montello(),
                due_date: d("2026-01-31"),
                filing_due_date: d("2026-01-31"),
                previous_year_tax: None,
            },
        ),
        (
            q("2026-Q1"),
            PeriodTerms {
                policy: montello(),
                due_date: d("2026-04-30"),
                filing_due_date: d("2026-04-30"),
                previous_year_tax: Some(m("360.00")),
            },
        ),
    ])
}

fn posted(kind: JournalKind, journal: &Journal) -> Vec<PostedLine> {
    journal
        .lines()
        .iter()
        .filter(|l| l.account.payor_id().is_some())
        .map(|l| PostedLine {
            kind,
            posted_on: journal.posted_on(),
            account: l.account.clone(),
            amount_cents: l.amount_cents,
        })
        .collect()
}

fn charge(period: &str, component: Component, cents: i64) -> PostedLine {
    PostedLine {
        kind: JournalKind::ReturnFiled,
        posted_on: d("2026-05-01"),
        account: Account::payor(P, q(period), component),
        amount_cents: cents,
    }
}

fn pay(lines: &mut Vec<PostedLine>, id: &str, on: &str, amount: &str) -> PaymentPosting {
    let book = PayorBook::from_lines(lines);
    let posting = payment_journal(
        &PaymentIn {
            payor_id: P,
            payment_id: id,
            received_on: d(on),
            amount: m(amount),
        },
        &book,
        &terms(),
    )
    .unwrap();
    assert_eq!(
        sum_cents(posting.journal.lines().iter().map(|l| l.amount_cents)),
        0
    );
    lines.extend(posted(JournalKind::Payment, &posting.journal));
    posting
}

fn applied(p: &PaymentPosting) -> Vec<(String, &'static str, String)> {
    p.allocations
        .iter()
        .map(|a| {
            (
                a.period.to_string(),
                a.component.as_str(),
                a.amount.to_string(),
            )
        })
        .collect()
}

fn charged(p: &PaymentPosting) -> Vec<(String, &'static str, String)> {
    p.charges
        .iter()
        .map(|c| {
            (
                c.period.to_string(),
                c.component.as_str(),
                c.line.amount.to_string(),
            )
        })
        .collect()
}

fn row(period: &str, component: &'static str, amount: &str) -> (String, &'static str, String) {
    (period.to_owned(), component, amount.to_owned())
}

#[test]
fn a_late_return_paid_in_two_parts_then_an_overpayment() {
    let mut lines = vec![
        charge("2025-Q4", Component::Tax, 36000),
        charge("2026-Q1", Component::Tax, 42750),
        charge("2026-Q1", Component::LateFilingFee, 2500),
    ];
    let a = pay(&mut lines, "a", "2026-05-15", "500.00");
    assert_eq!(
        charged(&a),
        vec![
            row("2025-Q4", "interest", "14.40"),
            row("2026-Q1", "interest", "1.26")
        ]
    );
    assert_eq!(
        applied(&a),
        vec![
            row("2025-Q4", "tax", "360.00"),
            row("2025-Q4", "interest", "14.40"),
            row("2026-Q1", "tax", "125.60"),
        ]
    );
    assert_eq!(a.credit, Money::ZERO);
    assert_eq!(a.journal.lines()[0].amount_cents, 50000);

    let b = pay(&mut lines, "b", "2026-07-10", "400.00");
    assert_eq!(
        charged(&b),
        vec![
            row("2026-Q1", "interest", "9.06"),
            row("2026-Q1", "late_payment_forfeiture", "90.00"),
        ]
    );
    assert!(b.charges[1].line.explanation.contains("more than 30 days"));
    assert_eq!(
        applied(&b),
        vec![
            row("2026-Q1", "tax", "301.90"),
            row("2026-Q1", "interest", "10.32"),
            row("2026-Q1", "late_filing_fee", "25.00"),
            row("2026-Q1", "late_payment_forfeiture", "62.78"),
        ]
    );

    let c = pay(&mut lines, "c", "2026-07-20", "50.00");
    // No tax settled: no interest; the forfeiture is not charged twice.
    assert!(c.charges.is_empty());
    assert_eq!(
        applied(&c),
        vec![row("2026-Q1", "late_payment_forfeiture", "27.22")]
    );
    assert_eq!(c.credit, m("22.78"));
    let book = PayorBook::from_lines(&lines);
    assert!(
        book.periods
            .values()
            .flat_map(|c| c.values())
            .all(|b| b.balance().is_zero())
    );
    assert_eq!(book.credit, m("22.78"));
}

#[test]
fn a_reversal_negates_the_payment_and_reopens_what_it_settled() {
    let mut lines = vec![
        charge("2026-Q1", Component::Tax, 42750),
        charge("2026-Q1", Component::LateFilingFee, 2500),
    ];
    // Paid in full 2026-07-10: interest 3 months 12.83 (12.825), forfeiture 90.00.
    let b = pay(&mut lines, "b", "2026-07-10", "555.33");
    assert_eq!(b.credit, Money::ZERO);
    let reversal = reversal_journal("b", b.journal.lines(), d("2026-07-20"), "returned").unwrap();
    assert_eq!(reversal.kind(), JournalKind::PaymentReversed);
    assert_eq!(
        sum_cents(reversal.lines().iter().map(|l| l.amount_cents)),
        0
    );
    lines.extend(posted(JournalKind::PaymentReversed, &reversal));
    let book = PayorBook::from_lines(&lines);
    let q1 = q("2026-Q1");
    assert_eq!(book.component(&q1, Component::Tax).balance(), m("427.50"));
    // Interest withdrawn (charged again when a payment settles the tax); the
    // forfeiture stands: the tax was not paid within 30 days whether or not b
    // stands, so it stays charged (90.00) and is open again (b paid it).
    assert_eq!(book.component(&q1, Component::Interest).charged, m("0.00"));
    let forfeiture = book.component(&q1, Component::LatePaymentForfeiture);
    assert_eq!(
        (forfeiture.charged, forfeiture.balance()),
        (m("90.00"), m("90.00"))
    );
    // Only the forfeiture's charge and revenue lines are kept out; every
    // other line of b is negated exactly.
    let kept: Vec<_> = b
        .journal
        .lines()
        .iter()
        .filter(|l| reversal_keeps(&l.account, l.amount_cents))
        .map(|l| (l.account.to_string(), l.amount_cents))
        .collect();
    assert_eq!(
        kept,
        vec![
            (format!("payor:{P}:2026-Q1:late_payment_forfeiture"), 9000),
            (
                "municipality:revenue:late_payment_forfeiture".to_owned(),
                -9000
            )
        ]
    );
    assert_eq!(reversal.lines().len(), b.journal.lines().len() - 2);
    // 100.00 on 2026-08-03: interest 100 × 1 % × 4 months = 4.00; no second
    // forfeiture.
    let again = pay(&mut lines, "b2", "2026-08-03", "100.00");
    assert_eq!(charged(&again), vec![row("2026-Q1", "interest", "4.00")]);
}

#[test]
fn refused_amounts_and_periods_without_terms() {
    let lines = vec![charge("2024-Q1", Component::Tax, 100)];
    let book = PayorBook::from_lines(&lines);
    let input = |amount: &str| PaymentIn {
        payor_id: P,
        payment_id: "x",
        received_on: d("2026-05-01"),
        amount: m(amount),
    };
    assert!(payment_journal(&input("0.00"), &book, &terms()).is_err());
    assert!(payment_journal(&input("-1.00"), &book, &terms()).is_err());
    assert!(matches!(
        payment_journal(&input("1.00"), &book, &terms()),
        Err(DomainError::NoPolicy { .. })
    ));
    // Nothing open: all of it is credit.
    let none = payment_journal(&input("10.00"), &PayorBook::default(), &terms()).unwrap();
    assert_eq!(none.credit, m("10.00"));
    assert!(none.allocations.is_empty());
}

/// The daily posting charged 2026-Q1's forfeiture (90.00) on 2026-06-05; a
/// payment received 2026-06-01 and recorded after it sees a book as of
/// 2026-06-01 without the forfeiture. Told that it is posted, it charges
/// only interest: 2025-Q4 5 months 360.00 × 5 % = 18.00; 2026-Q1 2 months
/// 427.50 × 2 % = 8.55; applied 360.00 + 18.00 + 427.50 + 8.55 + 25.00 =
/// 839.05 of 1,000.00, 160.95 credit. Not told, it would charge 90.00 again.
#[test]
fn a_forfeiture_posted_after_the_receipt_is_not_charged_again() {
    let lines = vec![
        charge("2025-Q4", Component::Tax, 36000),
        charge("2026-Q1", Component::Tax, 42750),
        charge("2026-Q1", Component::LateFilingFee, 2500),
    ];
    let book = PayorBook::from_lines(&lines);
    let payment = PaymentIn {
        payor_id: P,
        payment_id: "pay-late",
        received_on: d("2026-06-01"),
        amount: m("1000.00"),
    };
    let posted = std::collections::BTreeSet::from([q("2026-Q1")]);
    let told = payment_journal_after(&payment, &book, &terms(), &posted).unwrap();
    assert_eq!(
        charged(&told),
        vec![
            row("2025-Q4", "interest", "18.00"),
            row("2026-Q1", "interest", "8.55")
        ]
    );
    assert_eq!(told.credit, m("160.95"));
    let untold = payment_journal(&payment, &book, &terms()).unwrap();
    assert!(
        charged(&untold).contains(&row("2026-Q1", "late_payment_forfeiture", "90.00")),
        "{:?}",
        charged(&untold)
    );
}

//! Hand-computed credit applications (Montello: interest 1 % a month from the
//! due date to the first of the month after payment; forfeiture only when tax
//! is settled more than 30 days after the filing due date).

use super::*;
use crate::domain::compute::test_values::{d, m};
use crate::domain::ledger::book::PostedLine;
use crate::domain::ledger::journal::sum_cents;
use crate::domain::presets::montello;

const P: &str = "payor-1";

fn q(text: &str) -> Period {
    Period::parse(text).unwrap()
}

fn terms() -> BTreeMap<Period, PeriodTerms> {
    BTreeMap::from([
        (
            q("2026-Q1"),
            PeriodTerms {
                policy: montello(),
                due_date: d("2026-04-30"),
                filing_due_date: d("2026-04-30"),
                previous_year_tax: None,
            },
        ),
        (
            q("2026-Q2"),
            PeriodTerms {
                policy: montello(),
                due_date: d("2026-07-31"),
                filing_due_date: d("2026-07-31"),
                previous_year_tax: None,
            },
        ),
    ])
}

fn line(kind: JournalKind, account: Account, cents: i64) -> PostedLine {
    PostedLine {
        kind,
        posted_on: d("2026-05-01"),
        account,
        amount_cents: cents,
    }
}

fn tax(period: &str) -> Account {
    Account::payor(P, q(period), Component::Tax)
}

fn credit() -> Account {
    Account::PayorCredit { payor_id: P.into() }
}

fn cause() -> Cause {
    Cause::ReturnVersion {
        return_id: "r2".into(),
        version: 1,
    }
}

fn lines_of(j: &Journal) -> Vec<(String, i64)> {
    j.lines()
        .iter()
        .map(|l| (l.account.to_string(), l.amount_cents))
        .collect()
}

fn with_journal(mut lines: Vec<PostedLine>, j: &Journal) -> PayorBook {
    for l in j.lines() {
        if l.account.payor_id().is_some() {
            lines.push(line(j.kind(), l.account.clone(), l.amount_cents));
        }
    }
    PayorBook::from_lines(&lines)
}

#[test]
fn tax_overpaid_by_an_amendment_down_moves_to_credit() {
    // Q1 tax 427.50 paid in full, then amended down by 45.00: the tax account is
    // 45.00 overpaid; nothing else is open, so the 45.00 is held as credit.
    let posted = vec![
        line(JournalKind::ReturnFiled, tax("2026-Q1"), 42750),
        line(JournalKind::Payment, tax("2026-Q1"), -42750),
        line(JournalKind::ReturnAmended, tax("2026-Q1"), -4500),
    ];
    let book = PayorBook::from_lines(&posted);
    let c = credit_journal(P, d("2026-05-10"), cause(), &book, &terms())
        .unwrap()
        .unwrap();
    assert_eq!(c.moved, vec![(q("2026-Q1"), m("45.00"))]);
    assert_eq!(c.credit_left, m("45.00"));
    assert!(c.allocations.is_empty());
    assert_eq!(
        lines_of(&c.journal),
        vec![
            (format!("payor:{P}:2026-Q1:tax"), 4500),
            (format!("payor:{P}:credit"), -4500)
        ]
    );
    assert_eq!(c.journal.kind(), JournalKind::CreditApplied);
    // Read back: Q1 charged 382.50 and paid 382.50 (not charged 427.50), credit 45.00.
    let after = with_journal(posted, &c.journal);
    let t = after.component(&q("2026-Q1"), Component::Tax);
    assert_eq!((t.charged, t.paid), (m("382.50"), m("382.50")));
    assert_eq!(after.credit, m("45.00"));
    // Nothing left to do a second time.
    assert_eq!(
        credit_journal(P, d("2026-05-10"), cause(), &after, &terms()).unwrap(),
        None
    );
}

#[test]
fn credit_held_pays_a_later_return_filed_on_time_without_interest() {
    // 52.50 of credit; Q2 tax 427.50 filed 2026-07-20 (due 2026-07-31): 52.50 to
    // the tax, no interest (settled before the due date), 375.00 still owed.
    let posted = vec![
        line(JournalKind::Payment, credit(), -5250),
        line(JournalKind::ReturnFiled, tax("2026-Q2"), 42750),
    ];
    let book = PayorBook::from_lines(&posted);
    let c = credit_journal(P, d("2026-07-20"), cause(), &book, &terms())
        .unwrap()
        .unwrap();
    assert_eq!(
        lines_of(&c.journal),
        vec![
            (format!("payor:{P}:2026-Q2:tax"), -5250),
            (format!("payor:{P}:credit"), 5250)
        ]
    );
    assert_eq!(c.credit_left, m("0.00"));
    assert!(c.charges.is_empty());
    let after = with_journal(posted, &c.journal);
    assert_eq!(
        after.component(&q("2026-Q2"), Component::Tax).balance(),
        m("375.00")
    );
    assert_eq!(after.credit, m("0.00"));
}

#[test]
fn credit_settling_late_tax_posts_its_interest_like_a_payment() {
    // 100.00 of credit; Q2 tax 427.50 and fee 25.00 filed late on 2026-08-05 (due
    // 2026-07-31): the credit settles 100.00 of tax, whose interest is 1 month:
    // 100.00 × 1 % = 1.00, posted and left open (nothing left to pay it); within
    // 30 days: no forfeiture.
    let posted = vec![
        line(JournalKind::Payment, credit(), -10000),
        line(JournalKind::ReturnFiled, tax("2026-Q2"), 42750),
        line(
            JournalKind::ReturnFiled,
            Account::payor(P, q("2026-Q2"), Component::LateFilingFee),
            2500,
        ),
    ];
    let book = PayorBook::from_lines(&posted);
    let c = credit_journal(P, d("2026-08-05"), cause(), &book, &terms())
        .unwrap()
        .unwrap();
    assert_eq!(
        lines_of(&c.journal),
        vec![
            (format!("payor:{P}:2026-Q2:interest"), 100),
            ("municipality:revenue:interest".to_owned(), -100),
            (format!("payor:{P}:2026-Q2:tax"), -10000),
            (format!("payor:{P}:credit"), 10000)
        ]
    );
    assert_eq!(c.charges.len(), 1);
    assert_eq!(c.charges[0].line.amount, m("1.00"));
    let after = with_journal(posted, &c.journal);
    let i = after.component(&q("2026-Q2"), Component::Interest);
    assert_eq!((i.charged, i.paid), (m("1.00"), m("0.00")));
}

#[test]
fn an_overpayment_moved_and_applied_in_one_journal() {
    // Q1 45.00 overpaid (amended down after payment); Q2 has 30.00 of tax open
    // (filed on time): 45.00 moved, 30.00 applied, 15.00 held; the credit
    // account's one line is the net 30.00 − 45.00 = −15.00.
    let posted = vec![
        line(JournalKind::ReturnFiled, tax("2026-Q1"), 42750),
        line(JournalKind::Payment, tax("2026-Q1"), -42750),
        line(JournalKind::ReturnAmended, tax("2026-Q1"), -4500),
        line(JournalKind::ReturnFiled, tax("2026-Q2"), 3000),
    ];
    let book = PayorBook::from_lines(&posted);
    let c = credit_journal(P, d("2026-07-15"), cause(), &book, &terms())
        .unwrap()
        .unwrap();
    assert_eq!(
        lines_of(&c.journal),
        vec![
            (format!("payor:{P}:2026-Q1:tax"), 4500),
            (format!("payor:{P}:2026-Q2:tax"), -3000),
            (format!("payor:{P}:credit"), -1500)
        ]
    );
    assert_eq!(
        sum_cents(c.journal.lines().iter().map(|l| l.amount_cents)),
        0
    );
    assert_eq!(c.credit_left, m("15.00"));
    let after = with_journal(posted, &c.journal);
    assert_eq!(after.credit, m("15.00"));
    for p in ["2026-Q1", "2026-Q2"] {
        assert_eq!(after.component(&q(p), Component::Tax).balance(), m("0.00"));
    }
}

#[test]
fn nothing_held_or_nothing_open_posts_nothing() {
    let owed = PayorBook::from_lines(&[line(JournalKind::ReturnFiled, tax("2026-Q2"), 42750)]);
    assert_eq!(
        credit_journal(P, d("2026-07-20"), cause(), &owed, &terms()).unwrap(),
        None
    );
    let held = PayorBook::from_lines(&[line(JournalKind::Payment, credit(), -5250)]);
    assert_eq!(
        credit_journal(P, d("2026-07-20"), cause(), &held, &terms()).unwrap(),
        None
    );
}

fn dated(kind: JournalKind, on: &str, account: Account, cents: i64) -> PostedLine {
    PostedLine {
        kind,
        posted_on: d(on),
        account,
        amount_cents: cents,
    }
}

#[test]
fn lots_are_used_oldest_first_and_a_reversal_withdraws_the_newest() {
    // Credit 100.00 (04-10), 50.00 (04-20), 30.00 (05-01); 120.00 applied
    // (oldest first: 100.00 of 04-10, 20.00 of 04-20); the 05-01 payment
    // reversed takes its 30.00 back; 10.00 refunded from 04-20's 30.00 left.
    let lines = vec![
        dated(JournalKind::Payment, "2026-04-10", credit(), -10000),
        dated(JournalKind::Payment, "2026-04-20", credit(), -5000),
        dated(JournalKind::Payment, "2026-05-01", credit(), -3000),
        dated(JournalKind::CreditApplied, "2026-05-05", credit(), 12000),
        dated(JournalKind::PaymentReversed, "2026-05-06", credit(), 3000),
        dated(JournalKind::Refund, "2026-05-07", credit(), 1000),
    ];
    assert_eq!(credit_lots(&lines), vec![(d("2026-04-20"), m("20.00"))]);
    assert_eq!(PayorBook::from_lines(&lines).credit, m("20.00"));
}

#[test]
fn credit_counts_as_paid_on_the_day_each_lot_was_deposited() {
    // Q1 tax 300.00 (due 2026-04-30) charged on 2026-07-20, credit 300.00 in
    // two lots: 100.00 deposited 2026-04-25 (before the due date: no
    // interest) and 200.00 deposited 2026-06-15 (interest 200 × 1 % × 2
    // months, to 2026-07-01, = 4.00; more than 30 days after the filing due
    // date, but no previous year: no forfeiture). 4.00 of interest is left
    // open after the lots (300.00 all applied to tax... then none left for the
    // interest): the 2026-06-15 lot pays tax 200.00 only.
    let posted = vec![
        line(JournalKind::Payment, credit(), -30000),
        line(JournalKind::ReturnFiled, tax("2026-Q1"), 30000),
    ];
    let book = PayorBook::from_lines(&posted);
    let lots = [
        (d("2026-04-25"), m("100.00")),
        (d("2026-06-15"), m("200.00")),
    ];
    let c = credit_journal_dated(P, d("2026-07-20"), cause(), &book, &lots, &terms())
        .unwrap()
        .unwrap();
    let interest: Vec<Money> = c
        .charges
        .iter()
        .filter(|p| p.component == Component::Interest)
        .map(|p| p.line.amount)
        .collect();
    assert_eq!(interest, vec![m("4.00")]);
    assert_eq!(c.credit_left, m("0.00"));
    let after = with_journal(posted.clone(), &c.journal);
    assert_eq!(
        after.component(&q("2026-Q1"), Component::Tax).balance(),
        m("0.00")
    );
    assert_eq!(
        after
            .component(&q("2026-Q1"), Component::Interest)
            .balance(),
        m("4.00")
    );
    assert_eq!(after.credit, m("0.00"));
    // All of it counted as deposited on the posting date instead: 3 months
    // on 300.00 (to 2026-08-01) = 9.00.
    let undated = credit_journal(P, d("2026-07-20"), cause(), &book, &terms())
        .unwrap()
        .unwrap();
    assert!(
        undated
            .charges
            .iter()
            .any(|p| p.component == Component::Interest && p.line.amount == m("9.00"))
    );
}

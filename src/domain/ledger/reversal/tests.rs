//! Hand-computed reversals (cents). A payor's 2026-Q1 tax 427.50 and its
//! 2026-Q2 tax 90.00; payment P of 500.00 pays Q1's 427.50 and leaves 72.50
//! of credit.

use super::*;
use crate::domain::compute::test_values::{d, m};

const P: &str = "payor-1";

fn q(text: &str) -> Period {
    Period::parse(text).unwrap()
}

fn line(account: Account, cents: i64) -> JournalLine {
    JournalLine {
        account,
        amount_cents: cents,
    }
}

fn credit() -> Account {
    Account::PayorCredit { payor_id: P.into() }
}

fn payment() -> Vec<JournalLine> {
    vec![
        line(Account::Cash, 50000),
        line(Account::payor(P, q("2026-Q1"), Component::Tax), -42750),
        line(credit(), -7250),
    ]
}

fn input<'a>(lines: &'a [JournalLine], held: &str, uses: &'a [CreditUse]) -> ReversalIn<'a> {
    ReversalIn {
        payor_id: P,
        payment_id: "p",
        payment_lines: lines,
        reversed_on: d("2026-08-01"),
        reason: "returned",
        held: m(held),
        uses,
    }
}

/// Q2's 90.00 filed late: the application posted 0.90 of interest on the
/// 72.50 of tax it paid and paid nothing else (the credit ran out).
fn application() -> CreditUse {
    CreditUse::Applied {
        journal_id: "k".into(),
        posted_on: d("2026-07-20"),
        lines: vec![
            line(Account::payor(P, q("2026-Q2"), Component::Interest), 90),
            line(Account::Revenue(Component::Interest), -90),
            line(Account::payor(P, q("2026-Q2"), Component::Tax), -7160),
            line(Account::payor(P, q("2026-Q2"), Component::Interest), -90),
            line(credit(), 7250),
        ],
    }
}

#[test]
fn credit_still_held_leaves_the_credit_account() {
    let lines = payment();
    let r = reversal_posting(&input(&lines, "100.00", &[])).unwrap();
    assert_eq!(r.credit_withdrawn, m("72.50"));
    assert!(r.reopened.is_empty() && r.refund_reclaimed.is_empty());
    let negated: Vec<i64> = r.journal.lines().iter().map(|l| l.amount_cents).collect();
    assert_eq!(negated, [-50000, 42750, 7250]);
}

#[test]
fn credit_applied_reopens_latest_first_and_withdraws_its_interest() {
    let lines = payment();
    let uses = [application()];
    // 20.00 still held: 52.50 from the application, its last allocation
    // first: interest 0.90, then 51.60 of tax; interest withdrawn
    // 0.90 × 51.60 / 71.60 = 0.6486 → 0.65.
    let r = reversal_posting(&input(&lines, "20.00", &uses)).unwrap();
    assert_eq!(r.credit_withdrawn, m("20.00"));
    let reopened: Vec<(Component, Money)> =
        r.reopened.iter().map(|a| (a.component, a.amount)).collect();
    assert_eq!(
        reopened,
        [
            (Component::Interest, m("0.90")),
            (Component::Tax, m("51.60"))
        ]
    );
    assert_eq!(r.interest_withdrawn, [(q("2026-Q2"), m("0.65"))]);
    assert_eq!(r.undone, [("k".to_owned(), d("2026-07-20"))]);
    // All of it applied: all of its interest withdrawn.
    let r = reversal_posting(&input(&lines, "0.00", &uses)).unwrap();
    assert_eq!(r.interest_withdrawn, [(q("2026-Q2"), m("0.90"))]);
}

#[test]
fn credit_refunded_becomes_a_receivable_never_a_negative_credit() {
    let lines = payment();
    let uses = [
        application(),
        CreditUse::Refunded {
            journal_id: "f".into(),
            posted_on: d("2026-07-25"),
            period: q("2026-Q1"),
            amount: m("30.00"),
        },
    ];
    // Nothing held: 72.50 from the application (all it used), nothing left
    // for the refund; with 42.50 needed beyond a smaller application the
    // refund is reached.
    let r = reversal_posting(&input(&lines, "0.00", &uses)).unwrap();
    assert!(r.refund_reclaimed.is_empty());
    let small = [
        CreditUse::Applied {
            journal_id: "k".into(),
            posted_on: d("2026-07-20"),
            lines: vec![
                line(Account::payor(P, q("2026-Q2"), Component::Tax), -4250),
                line(credit(), 4250),
            ],
        },
        uses[1].clone(),
    ];
    let r = reversal_posting(&input(&lines, "0.00", &small)).unwrap();
    assert_eq!(r.refund_reclaimed, [(q("2026-Q1"), m("30.00"))]);
    assert!(!r.journal.lines().iter().any(|l| l.account == credit()));
    // Something of the credit found nowhere: refused.
    let e = reversal_posting(&input(&lines, "0.00", &[])).unwrap_err();
    assert_eq!(
        e,
        ReversalError::CreditNotFound {
            missing: m("72.50")
        }
    );
}

#[test]
fn the_checks_reading_accepts_what_is_posted_and_refuses_other_accounts() {
    let lines = payment();
    let uses = [application()];
    let r = reversal_posting(&input(&lines, "20.00", &uses)).unwrap();
    let rest = &r.journal.lines()[2..];
    assert!(reversal_rest_is_sound(P, rest, 7250));
    assert!(!reversal_rest_is_sound(P, rest, 7251));
    let mut moved = rest.to_vec();
    moved.push(line(Account::Cash, 1));
    moved.push(line(credit(), -1));
    assert!(!reversal_rest_is_sound(P, &moved, 7250));
}

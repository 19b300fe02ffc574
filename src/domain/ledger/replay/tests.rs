//! The replay on hand-built ledgers (Montello terms, as in `payments::tests`:
//! 2025-Q4 tax 360.00 due 2026-01-31 with no year before it; 2026-Q1 tax
//! 427.50 due 2026-04-30 with a previous year's tax of 360.00, so a
//! forfeiture of 90.00 once it is paid more than 30 days late), and a
//! property: every ledger the payment code writes replays exactly, and
//! moving any amount between two lines of a payment journal is caught.

use proptest::prelude::*;

use super::*;
use crate::domain::compute::test_values::{d, m};
use crate::domain::ledger::journal::JournalKind;

use crate::domain::ledger::payments::tests::{P, q, terms};

fn charges() -> Vec<PostedLine> {
    [("2025-Q4", 36000), ("2026-Q1", 42750)]
        .iter()
        .map(|(p, cents)| PostedLine {
            kind: JournalKind::ReturnFiled,
            posted_on: d("2026-05-01"),
            account: Account::payor(P, q(p), Component::Tax),
            amount_cents: *cents,
        })
        .collect()
}

/// A stored payment: its receipt, amount and lines.
struct Stored {
    id: String,
    on: NaiveDate,
    amount: Money,
    lines: Vec<JournalLine>,
}

/// Post `payments` (date, cents) one after the other as the use case does,
/// each on the state its predecessors left; the prior lines and each
/// payment as stored.
fn write(payments: &[(NaiveDate, i64)]) -> (Vec<PostedLine>, Vec<(usize, Stored)>) {
    let mut prior = charges();
    let mut stored = Vec::new();
    for (n, (on, cents)) in payments.iter().enumerate() {
        let id = format!("pay-{n}");
        let state = state_before(&prior, *on);
        let posting = payment_journal_after(
            &PaymentIn {
                payor_id: P,
                payment_id: &id,
                received_on: *on,
                amount: Money::from_cents(*cents),
            },
            &state.book,
            &terms(),
            &state.forfeiture_posted,
        )
        .unwrap();
        let lines = posting.journal.lines().to_vec();
        stored.push((
            prior.len(),
            Stored {
                id,
                on: *on,
                amount: Money::from_cents(*cents),
                lines: lines.clone(),
            },
        ));
        prior.extend(
            lines
                .into_iter()
                .filter(|l| l.account.payor_id().is_some())
                .map(|l| PostedLine {
                    kind: JournalKind::Payment,
                    posted_on: *on,
                    account: l.account,
                    amount_cents: l.amount_cents,
                }),
        );
    }
    (prior, stored)
}

fn replay_all(prior: &[PostedLine], stored: &[(usize, Stored)]) -> Result<(), ReplayMismatch> {
    for (before, s) in stored {
        let state = state_before(&prior[..*before], s.on);
        replay_payment(P, &s.id, s.on, s.amount, &state, &terms(), &s.lines)?;
    }
    Ok(())
}

#[test]
fn a_sound_ledger_replays_and_a_forfeiture_moved_to_credit_is_caught() {
    // A 500.00 on 2026-05-15, B 400.00 on 2026-07-10 (forfeiture 90.00
    // posted, 62.78 of it paid), C 50.00 on 2026-07-20 (27.22 of the
    // forfeiture, 22.78 held).
    let (prior, mut stored) = write(&[
        (d("2026-05-15"), 50000),
        (d("2026-07-10"), 40000),
        (d("2026-07-20"), 5000),
    ]);
    replay_all(&prior, &stored).unwrap();
    let forfeiture = Account::payor(P, q("2026-Q1"), Component::LatePaymentForfeiture);
    let credit = Account::PayorCredit { payor_id: P.into() };
    let c = &mut stored[2].1.lines;
    let f = c
        .iter()
        .position(|l| l.account == forfeiture && l.amount_cents < 0)
        .unwrap();
    let k = c.iter().position(|l| l.account == credit).unwrap();
    // 10.00 moved from the forfeiture to the credit: still balanced.
    c[f].amount_cents += 1000;
    c[k].amount_cents -= 1000;
    assert_eq!(c.iter().map(|l| l.amount_cents).sum::<i64>(), 0);
    assert_eq!(
        replay_all(&prior, &stored),
        Err(ReplayMismatch::Line {
            line_no: f + 1,
            stored: Some(forfeiture.clone()),
            expected: Some(forfeiture),
        })
    );
}

#[test]
fn the_state_counts_only_what_was_posted_by_the_receipt_but_every_forfeiture() {
    let mut prior = charges();
    prior.push(PostedLine {
        kind: JournalKind::ForfeiturePosted,
        posted_on: d("2026-08-01"),
        account: Account::payor(P, q("2026-Q1"), Component::LatePaymentForfeiture),
        amount_cents: 9000,
    });
    let state = state_before(&prior, d("2026-07-10"));
    assert!(!state.book.periods[&q("2026-Q1")].contains_key(&Component::LatePaymentForfeiture));
    assert_eq!(state.forfeiture_posted, BTreeSet::from([q("2026-Q1")]));
    let early = state_before(&prior, d("2026-04-01"));
    assert!(early.book.periods.is_empty());
}

#[test]
fn a_payment_replayed_on_a_period_without_terms_is_refused() {
    let state = state_before(&charges(), d("2026-05-15"));
    let err = replay_payment(
        P,
        "x",
        d("2026-05-15"),
        m("1.00"),
        &state,
        &BTreeMap::new(),
        &[],
    )
    .unwrap_err();
    assert!(matches!(err, ReplayMismatch::Refused(_)), "{err:?}");
}

fn dates() -> impl Strategy<Value = Vec<(NaiveDate, i64)>> {
    proptest::collection::vec((0i64..200, 1i64..60_000), 1..6).prop_map(|steps| {
        let mut on = d("2026-05-01");
        steps
            .into_iter()
            .map(|(days, cents)| {
                on += chrono::Duration::days(days);
                (on, cents)
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn every_written_ledger_replays_and_any_moved_amount_is_caught(
        payments in dates(),
        pick in any::<proptest::sample::Index>(),
        line_a in any::<proptest::sample::Index>(),
        line_b in any::<proptest::sample::Index>(),
        cents in 1i64..10_000,
    ) {
        let (prior, mut stored) = write(&payments);
        prop_assert_eq!(replay_all(&prior, &stored), Ok(()));
        let s = &mut stored[pick.index(payments.len())].1;
        let n = s.lines.len();
        let (a, b) = (line_a.index(n), line_b.index(n));
        prop_assume!(a != b);
        s.lines[a].amount_cents += cents;
        s.lines[b].amount_cents -= cents;
        prop_assert!(replay_all(&prior, &stored).is_err());
    }
}

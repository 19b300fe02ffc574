//! `roomtax check`'s replay of every payment's allocation.
//!
//! Contract (issue 9 item 1: `roomtax check` verifies every invariant; a
//! tamper that keeps a payment's journal balanced, an amount moved from the
//! forfeiture line to the credit line, is caught):
//! - reads only, inside the check's read transaction of one municipality;
//! - a payor's journals are those with a line on its accounts
//!   (`payor:<payor>:...`), taken in the order they were stored
//!   (`created_at`, a credit application after the journal of the same
//!   moment that caused it, then the id). Every writer to a payor's ledger
//!   (filing and amending, payments and reversals, determinations, credit
//!   applied, refunds, the daily posting, security deposits) takes the
//!   payor's row lock before its first journal, and stamps each journal when
//!   it writes it, so that order is the order they committed in, on
//!   PostgreSQL as on SQLite (whose write units are serial);
//! - each `payment` journal is computed again by `domain::ledger::replay`
//!   from the journals stored before it, with the payment's amount and
//!   receipt date from its row and the terms of its periods as they stood
//!   when it was written (`payments::terms_stored_by`: the versions of
//!   returns stored by then), and compared line by line: a mismatch names
//!   the payor, the journal, the payment and the line (accounts, never
//!   amounts).

use std::collections::BTreeMap;

use crate::{
    db::{
        self, DbConn,
        ledger::{JournalRow, LineRow},
    },
    domain::{
        Money,
        ledger::{Account, JournalKind, JournalLine, PostedLine, replay_payment, state_before},
    },
    error::ApiError,
    usecases::returns::PayorTerms,
};

use super::payments::terms_stored_by;

/// Replay every payment journal of the municipality (see the module doc);
/// how many were replayed.
pub(super) fn check(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    journals: &[JournalRow],
    lines: &BTreeMap<String, Vec<LineRow>>,
    broken: &mut Vec<String>,
) -> Result<usize, ApiError> {
    let payments: BTreeMap<String, db::payments::PaymentRow> =
        db::payments::all(conn, municipality_id)?
            .into_iter()
            .map(|p| (p.id.clone(), p))
            .collect();
    // payor -> its journals, in storage order.
    let mut by_payor: BTreeMap<String, Vec<&JournalRow>> = BTreeMap::new();
    for j in journals {
        let mut payors: Vec<String> = lines
            .get(&j.id)
            .into_iter()
            .flatten()
            .filter_map(|l| Account::parse(&l.account).ok())
            .filter_map(|a| a.payor_id().map(str::to_owned))
            .collect();
        payors.sort();
        payors.dedup();
        for p in payors {
            by_payor.entry(p).or_default().push(j);
        }
    }
    let mut replayed = 0;
    for (payor_id, mut journals) in by_payor {
        journals.sort_by_key(|j| {
            (
                j.created_at,
                j.kind == JournalKind::CreditApplied.as_str(),
                j.id.clone(),
            )
        });
        let prefix = Account::payor_prefix(&payor_id);
        let mut terms: Option<PayorTerms> = None;
        let mut prior: Vec<PostedLine> = Vec::new();
        for j in journals {
            let Some(kind) = JournalKind::parse(&j.kind) else {
                continue;
            };
            let stored: Vec<&LineRow> = lines.get(&j.id).into_iter().flatten().collect();
            if kind == JournalKind::Payment
                && let Some(p) = payments.get(&j.cause_id)
                && p.payor_id == payor_id
            {
                replayed += 1;
                let terms = match &terms {
                    Some(t) => t,
                    None => terms.insert(PayorTerms::load(conn, municipality_id, &payor_id)?),
                };
                let state = state_before(&prior, p.received_on);
                let period_terms = terms_stored_by(conn, terms, &state.book, Some(j.created_at))?;
                let parsed: Option<Vec<JournalLine>> = stored
                    .iter()
                    .map(|l| {
                        Account::parse(&l.account).ok().map(|account| JournalLine {
                            account,
                            amount_cents: l.amount_cents,
                        })
                    })
                    .collect();
                if let Some(parsed) = parsed
                    && let Err(mismatch) = replay_payment(
                        &payor_id,
                        &p.id,
                        p.received_on,
                        Money::from_cents(p.amount_cents),
                        &state,
                        &period_terms,
                        &parsed,
                    )
                {
                    broken.push(format!(
                        "{slug}: payor {payor_id}: payment journal {} (payment {}) does not replay its allocation: {mismatch}",
                        j.id, p.id
                    ));
                }
            }
            for l in stored {
                if !l.account.starts_with(&prefix) {
                    continue;
                }
                if let Ok(account) = Account::parse(&l.account) {
                    prior.push(PostedLine {
                        kind,
                        posted_on: j.posted_on,
                        account,
                        amount_cents: l.amount_cents,
                    });
                }
            }
        }
    }
    Ok(replayed)
}

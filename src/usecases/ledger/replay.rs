//! `roomtax check`'s replay of payments: every payment's journal is computed
//! again and compared line by line with what is stored.
//!
//! Contract (issue 9 item 1, "`roomtax check` verifies every invariant"):
//! - a journal that sums to zero can still be wrong: an amount moved inside a
//!   payment's journal from the forfeiture line to the credit line leaves it
//!   balanced. So each payment's allocation is recomputed with the very
//!   function the payment use case posts with
//!   (`domain::ledger::payment_journal_after`, `payments::record`) from the
//!   ledger as it stood before that journal: the payor's lines of the
//!   journals stored before it (`created_at`) and posted on or before the
//!   receipt date (the book `record` read), the periods whose forfeiture was
//!   already charged by a journal stored before it (whatever its date), and
//!   each period's terms (`payments::terms_of`);
//! - "before it" is storage order, and storage order is not commit order:
//!   a return's version or a determination writes its journal before its
//!   unit takes the payor's lock (`db::payments::lock_payor`), so on
//!   PostgreSQL such a journal may carry an earlier `created_at` than a
//!   payment's yet commit after the payment read the book (the race of an
//!   amendment and a payment at once). The book without those journals
//!   (of those kinds, written within a minute before the payment's) is
//!   replayed too, and either replay agreeing is agreement; a payment, a
//!   credit application, a refund and a security application are written
//!   under the lock, so they are always in storage order;
//! - the replayed journal and the stored one must agree line for line
//!   (account and cents, in order); where they differ the violation names the
//!   payment, its journal and, per account, the difference in cents (stored
//!   minus replayed);
//! - a reversal is checked as the negation of the payment's stored journal
//!   (`check::check_payments`), so with the payment replayed the reversal is
//!   replayed too;
//! - reads only. The terms are today's (the latest version of each return,
//!   the previous year's tax as filed now); a return amended after the
//!   payment in a way that moves its due dates would read as a difference
//!   here, which is what a clerk should look at anyway.

use std::collections::{BTreeMap, BTreeSet};

use crate::{
    db::{
        self, DbConn,
        ledger::{JournalRow, LineRow},
    },
    domain::{
        Money, Period,
        ledger::{
            Account, Component, JournalKind, PaymentIn, PayorBook, PostedLine,
            payment_journal_after,
        },
    },
    error::ApiError,
    usecases::returns::PayorTerms,
};

/// The payor's lines (accounts starting with `prefix`) of `journals`, in
/// posting order (date, then storage order, then line number), as
/// `db::ledger::payor_lines_as_of` reads them.
fn payor_lines(
    journals: &[&JournalRow],
    lines: &BTreeMap<String, Vec<LineRow>>,
    prefix: &str,
) -> Option<Vec<PostedLine>> {
    let mut ordered: Vec<&JournalRow> = journals.to_vec();
    ordered.sort_by_key(|j| (j.posted_on, j.created_at));
    let mut out = Vec::new();
    for j in ordered {
        let kind = JournalKind::parse(&j.kind)?;
        let mut of_journal: Vec<&LineRow> = lines
            .get(&j.id)
            .into_iter()
            .flatten()
            .filter(|l| l.account.starts_with(prefix))
            .collect();
        of_journal.sort_by_key(|l| l.line_no);
        for l in of_journal {
            out.push(PostedLine {
                kind,
                posted_on: j.posted_on,
                account: Account::parse(&l.account).ok()?,
                amount_cents: l.amount_cents,
            });
        }
    }
    Some(out)
}

/// Journals a unit of work writes before it takes the payor's lock (a
/// return's version, a determination, an estimate replaced): on PostgreSQL
/// one of them may carry a `created_at` earlier than a payment's journal yet
/// commit after the payment read the book.
const POSTED_BEFORE_THE_LOCK: [&str; 5] = [
    "return_filed",
    "return_amended",
    "annual_adjustment",
    "determination",
    "estimate_replaced",
];

/// How long before a payment's journal such a journal may have been written
/// by a unit still uncommitted when the payment read the book.
const CONCURRENT_SECONDS: i64 = 60;

/// A replay's lines `(account, cents)` in order, or why the domain refused it.
type Replayed = Result<Vec<(String, i64)>, String>;

/// The lines payment `p` posts on the book of `earlier` (the journals the
/// payment could see): `None` when a stored kind or account does not parse,
/// `Some(Err)` when the domain refuses the replay.
fn replay(
    conn: &mut DbConn,
    municipality_id: i64,
    p: &db::payments::PaymentRow,
    earlier: &[&JournalRow],
    lines: &BTreeMap<String, Vec<LineRow>>,
    terms_by_payor: &mut BTreeMap<String, PayorTerms>,
) -> Result<Option<Replayed>, ApiError> {
    let prefix = Account::payor_prefix(&p.payor_id);
    let as_of: Vec<&JournalRow> = earlier
        .iter()
        .copied()
        .filter(|j| j.posted_on <= p.received_on)
        .collect();
    let (Some(before), Some(all_before)) = (
        payor_lines(&as_of, lines, &prefix),
        payor_lines(earlier, lines, &prefix),
    ) else {
        return Ok(None);
    };
    let book = PayorBook::from_lines(&before);
    let forfeiture_posted: BTreeSet<Period> = PayorBook::from_lines(&all_before)
        .periods
        .iter()
        .filter(|(_, c)| {
            c.get(&Component::LatePaymentForfeiture)
                .is_some_and(|b| !b.charged.is_zero())
        })
        .map(|(period, _)| *period)
        .collect();
    if !terms_by_payor.contains_key(&p.payor_id) {
        let loaded = PayorTerms::load(conn, municipality_id, &p.payor_id)?;
        terms_by_payor.insert(p.payor_id.clone(), loaded);
    }
    let terms = &terms_by_payor[&p.payor_id];
    let period_terms = super::payments::terms_of(conn, terms, &book)?;
    Ok(Some(
        payment_journal_after(
            &PaymentIn {
                payor_id: &p.payor_id,
                payment_id: &p.id,
                received_on: p.received_on,
                amount: Money::from_cents(p.amount_cents),
            },
            &book,
            &period_terms,
            &forfeiture_posted,
        )
        .map(|posting| {
            posting
                .journal
                .lines()
                .iter()
                .map(|l| (l.account.to_string(), l.amount_cents))
                .collect()
        })
        .map_err(|e| e.to_string()),
    ))
}

/// Replay every payment of the municipality (see the module doc); each
/// violation joins `broken`. Returns how many payments were replayed.
pub(super) fn check_payment_allocations(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    journals: &[JournalRow],
    lines: &BTreeMap<String, Vec<LineRow>>,
    broken: &mut Vec<String>,
) -> Result<usize, ApiError> {
    let mut replayed = 0;
    let mut terms_by_payor: BTreeMap<String, PayorTerms> = BTreeMap::new();
    for p in db::payments::all(conn, municipality_id)? {
        let journal = journals.iter().find(|j| {
            j.kind == JournalKind::Payment.as_str()
                && j.cause_type == "payment"
                && j.cause_id == p.id
        });
        // A payment without its journal is named by `check_payments`.
        let Some(journal) = journal else { continue };
        let name = format!("{slug}: payment {}", p.id);
        let earlier: Vec<&JournalRow> = journals
            .iter()
            .filter(|j| j.created_at < journal.created_at)
            .collect();
        // Journals written shortly before the payment's by a unit that had
        // not yet taken the payor's lock (see the module doc) may not have
        // been visible to it: the book without them is tried too.
        let window = journal.created_at - chrono::Duration::seconds(CONCURRENT_SECONDS);
        let unlocked: Vec<&JournalRow> = earlier
            .iter()
            .copied()
            .filter(|j| j.created_at >= window && POSTED_BEFORE_THE_LOCK.contains(&j.kind.as_str()))
            .collect();
        let mut candidates = vec![earlier.clone()];
        if !unlocked.is_empty() {
            candidates.push(
                earlier
                    .iter()
                    .copied()
                    .filter(|j| !unlocked.iter().any(|u| u.id == j.id))
                    .collect(),
            );
        }
        let mut replays = Vec::new();
        let mut failed = None;
        for candidate in &candidates {
            match replay(
                conn,
                municipality_id,
                &p,
                candidate,
                lines,
                &mut terms_by_payor,
            )? {
                Some(Ok(lines)) => replays.push(lines),
                Some(Err(e)) => failed = Some(e),
                // Unknown kinds or accounts are named by the journal checks.
                None => {}
            }
        }
        if replays.is_empty() {
            if let Some(e) = failed {
                broken.push(format!("{name} cannot be replayed: {e}"));
            }
            continue;
        }
        replayed += 1;
        let mut stored: Vec<&LineRow> = lines.get(&journal.id).into_iter().flatten().collect();
        stored.sort_by_key(|l| l.line_no);
        let stored: Vec<(String, i64)> = stored
            .iter()
            .map(|l| (l.account.clone(), l.amount_cents))
            .collect();
        if replays.contains(&stored) {
            continue;
        }
        let wanted = &replays[0];
        let mut by_account: BTreeMap<&str, i128> = BTreeMap::new();
        for (account, cents) in &stored {
            *by_account.entry(account).or_default() += i128::from(*cents);
        }
        for (account, cents) in wanted {
            *by_account.entry(account).or_default() -= i128::from(*cents);
        }
        let differences: Vec<String> = by_account
            .iter()
            .filter(|(_, d)| **d != 0)
            .map(|(account, d)| format!("{account} {d:+} cents"))
            .collect();
        broken.push(if differences.is_empty() {
            format!(
                "{name}: journal {} posts the replayed allocation's amounts in other lines ({} stored, {} replayed)",
                journal.id,
                stored.len(),
                wanted.len()
            )
        } else {
            format!(
                "{name}: journal {} differs from the payment replayed by the payment order (stored minus replayed: {})",
                journal.id,
                differences.join(", ")
            )
        });
    }
    Ok(replayed)
}

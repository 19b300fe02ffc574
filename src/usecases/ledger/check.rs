//! `roomtax check`: the ledger's invariants, verified on a live database.
//!
//! Contract: reads only (each municipality in its own read transaction,
//! scoped to it for row-level security, so the runtime role can run it) and
//! reports every invariant it verified ([`CheckReport::checked`]) and every
//! violation found ([`CheckReport::broken`], each naming the municipality and
//! the journal, version or table at fault; amounts are named only as a
//! journal's imbalance). The invariants:
//! - no migration is pending (else nothing else can be judged);
//! - the append-only triggers of every append-only table are in force, and on
//!   PostgreSQL no role but the owner (PUBLIC included) holds UPDATE, DELETE
//!   or TRUNCATE on them;
//! - every journal has lines, and its lines sum to zero;
//! - every journal's kind and cause, and every line's account, parse;
//! - every version's due-date columns are its stored assessment's dates (the
//!   ledger's terms read the columns);
//! - every version of every return has its journal, and that journal posts
//!   exactly what the version's stored assessment says
//!   (`domain::ledger::return_version_journal`); no return-version journal
//!   names a version that does not exist;
//! - every payment has one `payment` journal, posted on the day received,
//!   debiting cash with the amount received; each reversal of it negates that
//!   journal line for line, but for the forfeiture it charged, which stands
//!   (`domain::ledger::reversal_keeps`), and its credit, which the lines after
//!   the negation take back exactly, from the payor's credit (at most the
//!   credit it left), its receivables and interest revenue
//!   (`domain::ledger::reversal_rest_is_sound`); no payment journal names a
//!   payment that does not exist (the `payments` table's triggers and privileges are checked with
//!   the ledger's);
//! - every payment journal replays (`replay`): computed again from the
//!   payor's journals stored before it, on the terms as they stood then,
//!   with the payment's own domain code, it posts the same lines (a
//!   mismatch names the payor, the journal and the line);
//! - every payor's credit (`payor:<p>:credit`) is at least 0.00 as of every
//!   date: a reversal takes a payment's credit back from what is held, the
//!   charges it paid and the refunds it made (`domain::ledger::reversal`),
//!   never below zero;
//! - every determination has one `determination` journal posting exactly its
//!   stored charges on the day it was made, and its notice names that
//!   journal; an estimate's tax is taken back at most once and exactly; no
//!   journal names a determination that does not exist
//!   (`usecases::ledger::determinations::check`);
//! - every refund has one `refund` journal, on the day refunded, debiting the
//!   payor's credit with the refund and crediting cash with it and its
//!   interest; no refund journal names a refund that does not exist (the
//!   `refunds` table's triggers and privileges likewise checked);
//! - every security event that moves money (received, applied, returned)
//!   has its journal: of its kind, on its day, the deposit account credited
//!   with the amount received (cash debited) or debited with the amount
//!   applied or returned; every deposit journal is named by an event;
//! - every notice document's bytes match its stored SHA-256 (the notice as
//!   sent); the append-only triggers and privileges cover every table of
//!   `db::ledger::APPEND_ONLY_TABLES` (ledger, payments, refunds,
//!   determinations, security deposits and events, clearance certificates,
//!   notices and their documents);
//! - a `credit_applied` journal caused by a version is not that version's
//!   own journal (it is checked as a journal: balanced, known accounts);
//! - every vehicle registration fee remittance version and every spending
//!   from the fund has its one journal (cash and
//!   `municipality:vehicle_fee_fund` moved by what its row says, on its day),
//!   a remittance's versions follow each other, only those journals touch the
//!   fund, and the fund is never overdrawn (`usecases::vehicle_fee::check`);
//! - every remittance version has one `remittance` journal crediting the
//!   commission payable with its difference, every transfer one
//!   `remittance_transfer` journal paying its amount out of cash on its day,
//!   and no remittance journal names a version that does not exist
//!   (`usecases::remittances::check`).

use std::collections::{BTreeMap, BTreeSet};

use crate::{
    db::{self, DbConn, Mode, in_transaction_in, ledger::LineRow},
    domain::ledger::{Account, Cause, JournalKind},
    error::ApiError,
    tenancy::{DbScope, Tenant},
    usecases::returns::VersionRecord,
};

/// What the check verified and what it found broken.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CheckReport {
    /// One sentence per invariant verified, with what it covered.
    pub checked: Vec<String>,
    /// One sentence per violation (empty: the ledger is sound).
    pub broken: Vec<String>,
}

impl CheckReport {
    /// True when nothing is broken.
    pub fn is_sound(&self) -> bool {
        self.broken.is_empty()
    }
}

/// The triggers the migrations create on every append-only table
/// (`db::ledger::APPEND_ONLY_TABLES`), by backend (`table.trigger`).
fn expected_triggers(conn: &DbConn) -> Vec<String> {
    let names: [&str; 2] = match conn {
        DbConn::Sqlite(_) => ["no_update", "no_delete"],
        DbConn::Pg(_) => ["append_only", "no_truncate"],
    };
    db::ledger::APPEND_ONLY_TABLES
        .iter()
        .flat_map(|t| names.iter().map(move |n| format!("{t}.{t}_{n}")))
        .collect()
}

/// Run every check (see the module doc).
pub fn run(conn: &mut DbConn) -> Result<CheckReport, ApiError> {
    let mut report = CheckReport::default();
    let pending = match db::migrations::pending(conn) {
        Ok(n) => n,
        Err(e) => {
            report.broken.push(format!(
                "the applied migrations cannot be read ({e}): is this database migrated? run `roomtax migrate`"
            ));
            return Ok(report);
        }
    };
    if pending > 0 {
        report.broken.push(format!(
            "{pending} migration(s) not applied: run `roomtax migrate` first"
        ));
        return Ok(report);
    }
    report.checked.push("every migration is applied".into());
    let municipalities = in_transaction_in(conn, Mode::Read, |conn| {
        let expected = expected_triggers(conn);
        let present = db::ledger::triggers(conn)?;
        let mut missing = Vec::new();
        for t in &expected {
            if !present.iter().any(|p| p == t) {
                missing.push(t);
            }
        }
        if missing.is_empty() {
            report.checked.push(format!(
                "the append-only triggers are in force ({})",
                expected.join(", ")
            ));
        } else {
            for t in missing {
                report
                    .broken
                    .push(format!("append-only trigger {t} is missing or disabled"));
            }
        }
        if let DbConn::Pg(_) = conn {
            let grants = db::ledger::change_privileges(conn)?;
            if grants.is_empty() {
                report.checked.push(format!(
                    "no role but the owner may UPDATE, DELETE or TRUNCATE {}",
                    db::ledger::APPEND_ONLY_TABLES.join(", ")
                ));
            }
            for g in grants {
                report
                    .broken
                    .push(format!("privilege that breaks append-only: {g}"));
            }
        }
        Ok(db::municipalities::list(conn, None, i64::MAX)?)
    })?;
    let mut totals = Totals::default();
    for m in &municipalities {
        in_transaction_in(conn, Mode::Read, |conn| {
            db::rls::apply(conn, &DbScope::tenant(Tenant::Municipality(m.id)))?;
            check_municipality(conn, m.id, &m.slug, &mut report, &mut totals)
        })?;
    }
    // What each family of checks found nothing wrong with (in this order).
    let clean = [
        (
            totals.journal_faults,
            format!(
                "{} journal(s) in {} municipality(ies) have lines ({} line(s)) summing to zero, with known kinds, causes and accounts",
                totals.journals,
                municipalities.len(),
                totals.lines
            ),
        ),
        (
            totals.payment_faults,
            format!(
                "{} payment(s) each have one journal debiting cash with the amount received, {} reversal(s) each negate their payment's journal exactly",
                totals.payments, totals.reversals
            ),
        ),
        (
            totals.replay_faults,
            format!(
                "{} payment journal(s) replay exactly: each allocates its payment as the payment's rules do on the journals stored before it and the terms then",
                totals.replayed
            ),
        ),
        (
            totals.credit_faults,
            format!(
                "{} payor credit account(s) are never negative, on any date",
                totals.credit_accounts
            ),
        ),
        (
            totals.determination_faults,
            format!(
                "{} determination(s) each have their journal posting what they determined, and their notice",
                totals.determinations
            ),
        ),
        (
            totals.refund_faults,
            format!(
                "{} refund(s) each have one journal debiting the credit and crediting cash with the refund and its interest",
                totals.refunds
            ),
        ),
        (
            totals.security_faults,
            format!(
                "{} security event(s) that move money each have their journal (received: cash debited, the deposit credited with the amount; applied and returned: the deposit debited)",
                totals.security_events
            ),
        ),
        (
            totals.document_faults,
            format!(
                "{} notice document(s) each match their SHA-256",
                totals.documents
            ),
        ),
        (
            totals.vehicle_fee_faults,
            format!(
                "{} vehicle fee remittance version(s) and {} spending(s) each have their journal moving cash and the vehicle registration fee fund, and the fund is never overdrawn",
                totals.vehicle_fee_remittances, totals.vehicle_fee_spending
            ),
        ),
        (
            totals.version_faults,
            format!(
                "{} version(s) of {} return(s) each have their journal, posting what the version assessed, and their assessment's due dates",
                totals.versions, totals.returns
            ),
        ),
    ];
    report.checked.extend(
        clean
            .into_iter()
            .filter(|(faults, _)| *faults == 0)
            .map(|(_, checked)| checked),
    );
    Ok(report)
}

#[derive(Default)]
struct Totals {
    journals: usize,
    lines: usize,
    versions: usize,
    returns: usize,
    /// Violations found on journals and lines.
    journal_faults: usize,
    /// Violations found on versions and the journals they cause.
    version_faults: usize,
    payments: usize,
    reversals: usize,
    /// Violations found on payments and their journals.
    payment_faults: usize,
    determinations: usize,
    /// Violations found on determinations and their journals.
    determination_faults: usize,
    refunds: usize,
    /// Violations found on refunds and their journals.
    refund_faults: usize,
    security_events: usize,
    /// Violations found on security events and their journals.
    security_faults: usize,
    documents: usize,
    /// Notice documents whose bytes do not match their digest.
    document_faults: usize,
    /// Payment journals replayed (`replay`).
    replayed: usize,
    /// Payment journals whose replay differs.
    replay_faults: usize,
    /// Payors' credit accounts checked.
    credit_accounts: usize,
    /// Credit accounts found negative on some date.
    credit_faults: usize,
    vehicle_fee_remittances: usize,
    vehicle_fee_spending: usize,
    /// Violations found on the vehicle registration fee and its fund.
    vehicle_fee_faults: usize,
}

fn check_municipality(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    report: &mut CheckReport,
    totals: &mut Totals,
) -> Result<(), ApiError> {
    let journals = db::ledger::journals(conn, municipality_id)?;
    let sums: BTreeMap<String, (i64, i64)> = db::ledger::sums_by_journal(conn, municipality_id)?
        .into_iter()
        .map(|(id, sum, n)| (id, (sum, n)))
        .collect();
    let mut lines: BTreeMap<String, Vec<LineRow>> = BTreeMap::new();
    for line in db::ledger::all_lines(conn, municipality_id)? {
        lines.entry(line.journal_id.clone()).or_default().push(line);
    }
    totals.journals += journals.len();
    totals.lines += lines.values().map(Vec::len).sum::<usize>();
    let before = report.broken.len();
    let mut by_cause: BTreeMap<(String, String), Vec<&db::ledger::JournalRow>> = BTreeMap::new();
    for j in &journals {
        let name = format!("{slug}: journal {}", j.id);
        match sums.get(&j.id) {
            None => report.broken.push(format!("{name} has no lines")),
            Some((sum, _)) if *sum != 0 => report.broken.push(format!(
                "{name} does not sum to zero (its lines are off by {sum} cents)"
            )),
            Some(_) => {}
        }
        if JournalKind::parse(&j.kind).is_none() {
            report
                .broken
                .push(format!("{name} has an unknown kind `{}`", j.kind));
        }
        if Cause::parse(&j.cause_type, &j.cause_id).is_none() {
            report.broken.push(format!(
                "{name} has an unknown cause `{}` `{}`",
                j.cause_type, j.cause_id
            ));
        }
        for line in lines.get(&j.id).into_iter().flatten() {
            if Account::parse(&line.account).is_err() {
                report.broken.push(format!(
                    "{name} line {} names no account: `{}`",
                    line.line_no, line.account
                ));
            }
        }
        by_cause
            .entry((j.cause_type.clone(), j.cause_id.clone()))
            .or_default()
            .push(j);
    }
    for journal_id in lines.keys() {
        if !journals.iter().any(|j| &j.id == journal_id) {
            report.broken.push(format!(
                "{slug}: lines of journal {journal_id}, which does not exist"
            ));
        }
    }

    totals.journal_faults += report.broken.len() - before;
    let before = report.broken.len();
    let payors: BTreeMap<String, String> = db::ledger::return_payors(conn, municipality_id)?
        .into_iter()
        .collect();
    totals.returns += payors.len();
    let mut versions_seen = BTreeSet::new();
    for row in db::ledger::all_versions(conn, municipality_id)? {
        totals.versions += 1;
        let cause = Cause::ReturnVersion {
            return_id: row.return_id.clone(),
            version: row.version,
        };
        let name = format!("{slug}: return {} version {}", row.return_id, row.version);
        versions_seen.insert(cause.cause_id());
        // The version's own journal; a credit application it caused
        // (`credit_applied`, same cause) is not what it assessed.
        let posted: Vec<&db::ledger::JournalRow> = by_cause
            .get(&(cause.cause_type().to_owned(), cause.cause_id()))
            .into_iter()
            .flatten()
            .copied()
            .filter(|j| j.kind != JournalKind::CreditApplied.as_str())
            .collect();
        let Some(payor_id) = payors.get(&row.return_id) else {
            report.broken.push(format!("{name} has no return header"));
            continue;
        };
        let record = VersionRecord::from_row(row)?;
        let assessed = &record.assessed.assessment;
        if (record.row.due_date, record.row.filing_due_date)
            != (assessed.due_date, assessed.filing_due_date)
        {
            report.broken.push(format!(
                "{name}: its due dates ({}, filing {}) are not its assessment's ({}, filing {})",
                record.row.due_date,
                record.row.filing_due_date,
                assessed.due_date,
                assessed.filing_due_date
            ));
        }
        let expected = super::journal_of_version(
            payor_id,
            &record.row,
            &record.assessed.assessment,
            record.assessed.difference.as_ref(),
        )?;
        let [journal] = posted.as_slice() else {
            report.broken.push(if posted.is_empty() {
                format!("{name} has no journal")
            } else {
                format!("{name} has {} journals (expected one)", posted.len())
            });
            continue;
        };
        let stored: Vec<(&str, i64)> = lines
            .get(&journal.id)
            .into_iter()
            .flatten()
            .map(|l| (l.account.as_str(), l.amount_cents))
            .collect();
        let wanted: Vec<(String, i64)> = expected
            .lines()
            .iter()
            .map(|l| (l.account.to_string(), l.amount_cents))
            .collect();
        let agrees = stored.len() == wanted.len()
            && stored
                .iter()
                .zip(&wanted)
                .all(|((a, x), (b, y))| *a == b.as_str() && x == y);
        if !agrees
            || journal.kind != expected.kind().as_str()
            || journal.posted_on != expected.posted_on()
        {
            report.broken.push(format!(
                "{name}: journal {} does not post what the version assessed (kind {}, {} line(s); expected kind {}, {} line(s) on {})",
                journal.id,
                journal.kind,
                stored.len(),
                expected.kind(),
                wanted.len(),
                expected.posted_on()
            ));
        }
    }
    for ((cause_type, cause_id), posted) in &by_cause {
        if cause_type == "return_version" && !versions_seen.contains(cause_id) {
            for j in posted {
                report.broken.push(format!(
                    "{slug}: journal {} names return version {cause_id}, which does not exist",
                    j.id
                ));
            }
        }
    }
    totals.version_faults += report.broken.len() - before;
    let (lines, by_cause) = (&lines, &by_cause);
    let ((), faults) = faults_in(report, |report| {
        check_payments(conn, municipality_id, slug, by_cause, lines, report, totals)
    })?;
    totals.payment_faults += faults;
    let (replayed, faults) = faults_in(report, |report| {
        super::replay::check(
            conn,
            municipality_id,
            slug,
            &journals,
            lines,
            &mut report.broken,
        )
    })?;
    totals.replayed += replayed;
    totals.replay_faults += faults;
    let (accounts, faults) = faults_in(report, |report| {
        Ok(check_credit(slug, &journals, lines, &mut report.broken))
    })?;
    totals.credit_accounts += accounts;
    totals.credit_faults += faults;
    let (determinations, faults) = faults_in(report, |report| {
        super::determinations::check(conn, municipality_id, slug, by_cause, lines, report)
    })?;
    totals.determinations += determinations;
    totals.determination_faults += faults;
    let (refunds, faults) = faults_in(report, |report| {
        super::refunds::check(
            conn,
            municipality_id,
            slug,
            by_cause,
            lines,
            &mut report.broken,
        )
    })?;
    totals.refunds += refunds;
    totals.refund_faults += faults;
    let ((), faults) = faults_in(report, |report| {
        check_security(conn, municipality_id, slug, by_cause, lines, report, totals)
    })?;
    totals.security_faults += faults;
    let (vehicle, faults) = faults_in(report, |report| {
        crate::usecases::vehicle_fee::check(
            conn,
            municipality_id,
            slug,
            by_cause,
            lines,
            &mut report.broken,
        )
    })?;
    totals.vehicle_fee_remittances += vehicle.remittances;
    totals.vehicle_fee_spending += vehicle.spending;
    totals.vehicle_fee_faults += faults;
    let (documents, faults) = faults_in(report, |report| {
        let mut documents = 0;
        for d in db::notices::all_documents(conn, municipality_id)? {
            documents += 1;
            if crate::domain::attachment::sha256_hex(&d.bytes) != d.sha256 {
                report.broken.push(format!(
                    "{slug}: notice {}'s document does not match its SHA-256 (changed after it was sent)",
                    d.notice_id
                ));
            }
        }
        Ok(documents)
    })?;
    totals.documents += documents;
    totals.document_faults += faults;
    // Remittances to the zone: each version's and transfer's journal
    // (`usecases::remittances::check`).
    crate::usecases::remittances::check(
        conn,
        municipality_id,
        slug,
        &journals,
        lines,
        &mut report.broken,
    )?;
    Ok(())
}

/// Run one family of checks: what it returns, and how many faults it added to `report`.
fn faults_in<T>(
    report: &mut CheckReport,
    check: impl FnOnce(&mut CheckReport) -> Result<T, ApiError>,
) -> Result<(T, usize), ApiError> {
    let before = report.broken.len();
    let found = check(report)?;
    Ok((found, report.broken.len() - before))
}

pub(super) type ByCause<'a> = BTreeMap<(String, String), Vec<&'a db::ledger::JournalRow>>;

/// Every payment has one `payment` journal debiting cash with its amount, at
/// most one `payment_reversed` journal negating it line for line, and no
/// payment journal names a payment that does not exist.
fn check_payments(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    by_cause: &ByCause<'_>,
    lines: &BTreeMap<String, Vec<LineRow>>,
    report: &mut CheckReport,
    totals: &mut Totals,
) -> Result<(), ApiError> {
    let amounts_of = |journal_id: &str| -> Vec<(String, i64)> {
        lines
            .get(journal_id)
            .into_iter()
            .flatten()
            .map(|l| (l.account.clone(), l.amount_cents))
            .collect()
    };
    let payments = db::payments::all(conn, municipality_id)?;
    let mut seen = BTreeSet::new();
    for p in &payments {
        totals.payments += 1;
        seen.insert(p.id.clone());
        let name = format!("{slug}: payment {}", p.id);
        let posted = by_cause
            .get(&("payment".to_owned(), p.id.clone()))
            .map(Vec::as_slice)
            .unwrap_or_default();
        let of_kind = |kind: JournalKind| -> Vec<&db::ledger::JournalRow> {
            posted
                .iter()
                .copied()
                .filter(|j| j.kind == kind.as_str())
                .collect()
        };
        let [journal] = of_kind(JournalKind::Payment)[..] else {
            report.broken.push(format!(
                "{name} has {} payment journal(s) (expected one)",
                of_kind(JournalKind::Payment).len()
            ));
            continue;
        };
        let paid = amounts_of(&journal.id);
        let cash: i64 = paid
            .iter()
            .filter(|(a, _)| a == "municipality:cash")
            .map(|(_, c)| *c)
            .sum();
        if cash != p.amount_cents || journal.posted_on != p.received_on {
            report.broken.push(format!(
                "{name}: journal {} does not debit cash with the amount received on the day received",
                journal.id
            ));
        }
        let credit_account = Account::PayorCredit {
            payor_id: p.payor_id.clone(),
        }
        .to_string();
        for reversal in of_kind(JournalKind::PaymentReversed) {
            totals.reversals += 1;
            // The forfeiture the payment charged stands (domain
            // reversal_keeps); its credit is taken back after the negation,
            // from the credit held, the charges it paid since, the refunds
            // (domain reversal_rest_is_sound).
            let negated: Vec<(String, i64)> = paid
                .iter()
                .filter(|(a, c)| {
                    *a != credit_account
                        && !Account::parse(a)
                            .is_ok_and(|a| crate::domain::ledger::reversal_keeps(&a, *c))
                })
                .map(|(a, c)| (a.clone(), -c))
                .collect();
            let overpayment: i64 = -paid
                .iter()
                .filter(|(a, _)| *a == credit_account)
                .map(|(_, c)| *c)
                .sum::<i64>();
            let stored = amounts_of(&reversal.id);
            let rest: Option<Vec<crate::domain::ledger::JournalLine>> = stored
                .get(negated.len()..)
                .unwrap_or_default()
                .iter()
                .map(|(a, c)| {
                    Account::parse(a)
                        .ok()
                        .map(|account| crate::domain::ledger::JournalLine {
                            account,
                            amount_cents: *c,
                        })
                })
                .collect();
            let sound = stored.len() >= negated.len()
                && stored[..negated.len()] == negated[..]
                && rest.is_some_and(|rest| {
                    crate::domain::ledger::reversal_rest_is_sound(&p.payor_id, &rest, overpayment)
                });
            if !sound || reversal.posted_on < p.received_on {
                report.broken.push(format!(
                    "{name}: reversal journal {} does not negate journal {} and take back its credit",
                    reversal.id, journal.id
                ));
            }
        }
    }
    for ((cause_type, cause_id), posted) in by_cause {
        if cause_type == "payment" && !seen.contains(cause_id) {
            for j in posted {
                report.broken.push(format!(
                    "{slug}: journal {} names payment {cause_id}, which does not exist",
                    j.id
                ));
            }
        }
    }
    Ok(())
}

/// Every payor's credit (`payor:<p>:credit`, credit negative on the account)
/// is at least 0.00 as of every date: a violation names the payor, the first
/// date and the journals of that date that took the credit below zero.
/// Returns how many credit accounts were checked.
fn check_credit(
    slug: &str,
    journals: &[db::ledger::JournalRow],
    lines: &BTreeMap<String, Vec<LineRow>>,
    broken: &mut Vec<String>,
) -> usize {
    // payor -> date -> (sum of the day's lines, journals debiting it)
    type Day = (i64, Vec<String>);
    let mut days: BTreeMap<String, BTreeMap<chrono::NaiveDate, Day>> = BTreeMap::new();
    for j in journals {
        for l in lines.get(&j.id).into_iter().flatten() {
            if let Ok(Account::PayorCredit { payor_id }) = Account::parse(&l.account) {
                let day = days
                    .entry(payor_id)
                    .or_default()
                    .entry(j.posted_on)
                    .or_default();
                day.0 += l.amount_cents;
                if l.amount_cents > 0 && !day.1.contains(&j.id) {
                    day.1.push(j.id.clone());
                }
            }
        }
    }
    for (payor_id, by_date) in &days {
        let mut balance = 0i128;
        for (on, (sum, debits)) in by_date {
            balance -= i128::from(*sum);
            if balance < 0 {
                broken.push(format!(
                    "{slug}: payor {payor_id}'s credit is negative as of {on} (journal(s) {} debit it beyond what is held)",
                    debits.join(", ")
                ));
                break;
            }
        }
    }
    days.len()
}

/// Every security event that moves money (received, applied, returned with
/// something held) names one journal of its deposit, of its kind, posted on
/// its day, moving the deposit account by its amount (credited when received,
/// with cash debited; debited when applied or returned); every journal of a
/// deposit is named by one of its events.
fn check_security(
    conn: &mut DbConn,
    municipality_id: i64,
    slug: &str,
    by_cause: &ByCause<'_>,
    lines: &BTreeMap<String, Vec<LineRow>>,
    report: &mut CheckReport,
    totals: &mut Totals,
) -> Result<(), ApiError> {
    let payors: BTreeMap<String, String> = db::security::all_deposits(conn, municipality_id)?
        .into_iter()
        .map(|d| (d.id, d.payor_id))
        .collect();
    let mut named = BTreeSet::new();
    for e in db::security::all_events(conn, municipality_id)? {
        let name = format!(
            "{slug}: security event {} of deposit {}",
            e.id, e.deposit_id
        );
        let (kind, deposit_sign, cash_sign) = match e.kind.as_str() {
            "received" => (JournalKind::SecurityReceived, -1, 1),
            "applied" => (JournalKind::SecurityApplied, 1, 0),
            "returned" => (JournalKind::SecurityReturned, 1, -1),
            _ => continue,
        };
        totals.security_events += 1;
        let Some(payor_id) = payors.get(&e.deposit_id) else {
            report.broken.push(format!("{name} names no deposit"));
            continue;
        };
        let Some(journal_id) = &e.journal_id else {
            if !(kind == JournalKind::SecurityReturned && e.amount_cents == 0) {
                report
                    .broken
                    .push(format!("{name} ({}) has no journal", e.kind));
            }
            continue;
        };
        named.insert(journal_id.clone());
        let journal = by_cause
            .get(&("security_deposit".to_owned(), e.deposit_id.clone()))
            .into_iter()
            .flatten()
            .find(|j| &j.id == journal_id);
        let Some(journal) = journal else {
            report.broken.push(format!(
                "{name} names journal {journal_id}, which is not its deposit's"
            ));
            continue;
        };
        let deposit_account = Account::PayorSecurityDeposit {
            payor_id: payor_id.clone(),
        }
        .to_string();
        let sum = |account: &str| -> i64 {
            lines
                .get(journal_id)
                .into_iter()
                .flatten()
                .filter(|l| l.account == account)
                .map(|l| l.amount_cents)
                .sum()
        };
        if journal.kind != kind.as_str()
            || journal.posted_on != e.occurred_on
            || sum(&deposit_account) != deposit_sign * e.amount_cents
            || (cash_sign != 0 && sum("municipality:cash") != cash_sign * e.amount_cents)
        {
            report.broken.push(format!(
                "{name}: journal {journal_id} does not post the {} on its day",
                e.kind
            ));
        }
    }
    for ((cause_type, _), posted) in by_cause {
        if cause_type == "security_deposit" {
            for j in posted {
                if !named.contains(&j.id) {
                    report.broken.push(format!(
                        "{slug}: journal {} of a security deposit is named by none of its events",
                        j.id
                    ));
                }
            }
        }
    }
    Ok(())
}

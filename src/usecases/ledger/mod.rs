//! The ledger's use cases: posting journals, balances as of a date, and the
//! integrity check behind `roomtax check` ([`check`]); payments, the
//! statement of account and determinations (audits, estimates, fraud
//! findings: [`determinations`]) in their own modules. Posting a return's
//! version also replaces the tax of an estimate of its quarter
//! ([`determinations::replace_estimates`]).
//!
//! Contract: every function runs inside the caller's unit of work (posting
//! in the same transaction as what caused it, so a version of a return and
//! its journal land together or not at all) and takes the tenant. Journals
//! come from `domain::ledger`, which refuses an empty or unbalanced one, so
//! nothing unbalanced is ever written through here. A balance is the sum of
//! an account's lines in journals posted on or before the date; interest is
//! not a balance (it is computed as of a date and posted when settled).

pub mod check;
pub mod credit;
pub mod daily;
pub mod delinquency;
pub mod determinations;
pub mod payments;
pub mod receipt;
pub mod refunds;
pub mod replay;
pub mod security;
pub mod statement;

use std::collections::BTreeMap;

use chrono::{NaiveDate, Utc};

use crate::{
    db::{
        self, DbConn,
        ledger::{JournalRow, LineRow},
        returns::VersionRow,
    },
    domain::{
        Money,
        ledger::{Account, Journal, PostedVersion, VersionSource, return_version_journal},
        returns::{Assessment, TaxDifference},
    },
    error::ApiError,
};

/// Store `journal` in the municipality's ledger; returns its id.
pub fn post(
    conn: &mut DbConn,
    municipality_id: i64,
    journal: &Journal,
) -> Result<String, ApiError> {
    let id = db::identity::new_id();
    let header = JournalRow {
        municipality_id,
        id: id.clone(),
        posted_on: journal.posted_on(),
        kind: journal.kind().as_str().to_owned(),
        cause_type: journal.cause().cause_type().to_owned(),
        cause_id: journal.cause().cause_id(),
        memo: journal.memo().to_owned(),
        created_at: Utc::now().naive_utc(),
    };
    let lines: Vec<LineRow> = journal
        .lines()
        .iter()
        .zip(1..)
        .map(|(line, line_no)| LineRow {
            municipality_id,
            journal_id: id.clone(),
            line_no,
            account: line.account.to_string(),
            amount_cents: line.amount_cents,
        })
        .collect();
    db::ledger::insert(conn, &header, &lines)?;
    Ok(id)
}

/// The journal a stored version of a return posts (the payor's, with the
/// version's assessment and its difference from the previous version).
pub fn journal_of_version(
    payor_id: &str,
    row: &VersionRow,
    assessment: &Assessment,
    difference: Option<&TaxDifference>,
) -> Result<Journal, ApiError> {
    let source = VersionSource::parse(&row.source)
        .ok_or_else(|| ApiError::internal("stored version has an unknown source"))?;
    return_version_journal(&PostedVersion {
        payor_id,
        return_id: &row.return_id,
        version: row.version,
        source,
        filed_on: row.filed_on,
        assessment,
        difference,
    })
    .map_err(|e| ApiError::internal(format!("a return version's journal: {e}")))
}

/// Post the journal of a version of a return just stored (same transaction),
/// then apply the payor's credit to what it charged ([`credit`]).
pub fn post_return_version(
    conn: &mut DbConn,
    payor_id: &str,
    row: &VersionRow,
    assessment: &Assessment,
    difference: Option<&TaxDifference>,
) -> Result<(), ApiError> {
    let journal = journal_of_version(payor_id, row, assessment, difference)?;
    post(conn, row.municipality_id, &journal)?;
    determinations::replace_estimates(
        conn,
        row.municipality_id,
        payor_id,
        row,
        &assessment.period,
    )?;
    credit::apply_after_charge(conn, payor_id, row)?;
    Ok(())
}

/// The balance of every account of `payor_id` that has lines posted on or
/// before `as_of` (debit positive: what the payor owes), by account.
pub fn balances_as_of(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    as_of: NaiveDate,
) -> Result<BTreeMap<Account, Money>, ApiError> {
    let lines = db::ledger::lines_by_prefix_as_of(
        conn,
        municipality_id,
        &Account::payor_prefix(payor_id),
        as_of,
    )?;
    let mut sums: BTreeMap<Account, i128> = BTreeMap::new();
    for (name, cents) in lines {
        let account = Account::parse(&name)
            .map_err(|e| ApiError::internal(format!("stored ledger line: {e}")))?;
        *sums.entry(account).or_default() += i128::from(cents);
    }
    sums.into_iter()
        .map(|(account, cents)| {
            let cents = i64::try_from(cents)
                .map_err(|_| ApiError::internal("an account balance exceeds the cent range"))?;
            Ok((account, Money::from_cents(cents)))
        })
        .collect()
}

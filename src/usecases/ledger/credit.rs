//! Credit applied to later charges: the hook every posted version of a return
//! calls ([`apply_after_charge`]).
//!
//! Contract (issue 9 items 2, 3 and 11):
//! - automatic, not on the clerk's request: credit is the payor's money
//!   already held by the municipality, and a clerk-treasurer expects it to pay
//!   the next charge rather than sit while that charge draws interest and
//!   Montello's forfeiture (the state applies overpayments to the next
//!   liability the same way); what no charge needs stays as credit until the
//!   clerk refunds it (`refunds`);
//! - runs in the version's unit of work, right after its journal: the payor's
//!   row is locked first (`db::payments::lock_payor`, as payments and refunds
//!   do; a version takes it already before it is stored, `returns::filing`,
//!   so its journals are stored in commit order), so a payment and an amendment at the same moment never lose an
//!   update: on PostgreSQL whichever locks second reads the other's committed
//!   journal (READ COMMITTED reads afresh after the wait), on SQLite write
//!   units are serial anyway;
//! - the payor's book as of the version's filing date goes to
//!   `domain::ledger::credit_journal`: tax overpaid (an amendment or annual
//!   adjustment down after payment) moves back to credit, then the credit is
//!   applied to the open charges as a payment received that day would be
//!   (interest on the tax it settles, Montello's forfeiture); one
//!   `credit_applied` journal caused by the version (`return_version`,
//!   `<return id>:<version>`), or none when there is nothing to do;
//! - the credit counts as paid on the day it was deposited
//!   (`domain::ledger::credit_lots`, `credit_journal_dated`): the payor's
//!   lines as of the filing date give the lots (the receipt date of the
//!   payment whose overpayment made each, or the date an amendment's
//!   decrease was moved to credit), so credit deposited before a period's
//!   due date settles its tax with no interest and no forfeiture;
//! - a determination's charges take credit the same way ([`apply_credit`],
//!   called where the determination posts its journal, caused by the
//!   determination), and so does a payment recorded after charges posted
//!   later than its receipt date (its journal reads the book as of the
//!   receipt, so it leaves credit next to them: `payments::record` calls
//!   [`apply_credit`] on today's date, caused by the payment, and the credit
//!   still counts as deposited on the receipt date);
//! - only periods with terms take part (a return on file, or a
//!   determination's period: `payments::terms_of`).

use chrono::NaiveDate;

use crate::{
    db::{self, DbConn, returns::VersionRow},
    domain::{
        ledger::{Cause, Component, CreditPosting, PayorBook, credit_journal_dated, credit_lots},
        registry::Invalid,
    },
    error::ApiError,
    usecases::returns::PayorTerms,
};

use super::payments::{lines_as_of, terms_of};

/// Apply the payor's credit after the version `row` posted its charge (see
/// the module doc); what was posted, if anything.
pub fn apply_after_charge(
    conn: &mut DbConn,
    payor_id: &str,
    row: &VersionRow,
) -> Result<Option<CreditPosting>, ApiError> {
    let cause = Cause::ReturnVersion {
        return_id: row.return_id.clone(),
        version: row.version,
    };
    apply_credit(conn, row.municipality_id, payor_id, row.filed_on, cause)
}

/// Apply the payor's credit on `on` after a charge caused by `cause` posted
/// (a return's version, a determination); what was posted, if anything.
pub fn apply_credit(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    on: NaiveDate,
    cause: Cause,
) -> Result<Option<CreditPosting>, ApiError> {
    db::payments::lock_payor(conn, municipality_id, payor_id)?;
    let lines = lines_as_of(conn, municipality_id, payor_id, on)?;
    let mut book = PayorBook::from_lines(&lines);
    let overpaid = book
        .periods
        .values()
        .filter_map(|c| c.get(&Component::Tax))
        .any(|t| t.balance().is_negative());
    let held = !book.credit.is_negative() && !book.credit.is_zero();
    if !overpaid && !held {
        return Ok(None);
    }
    let terms = PayorTerms::load(conn, municipality_id, payor_id)?;
    let period_terms = terms_of(conn, &terms, &book)?;
    book.periods.retain(|p, _| period_terms.contains_key(p));
    let lots = credit_lots(&lines);
    let Some(posting) = credit_journal_dated(payor_id, on, cause, &book, &lots, &period_terms)
        .map_err(|e| ApiError::from(Invalid(vec![e])))?
    else {
        return Ok(None);
    };
    super::post(conn, municipality_id, &posting.journal)?;
    Ok(Some(posting))
}

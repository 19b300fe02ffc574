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
//!   do), so a payment and an amendment at the same moment never lose an
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
//! - only periods with a return on file take part (their terms: policy, due
//!   dates); a period charged only by a determination has no terms here yet
//!   and is left to the determination's own posting.

use crate::{
    db::{self, DbConn, returns::VersionRow},
    domain::{
        ledger::{Cause, Component, CreditPosting, credit_journal},
        registry::Invalid,
    },
    error::ApiError,
    usecases::returns::PayorTerms,
};

use super::payments::{book_as_of, terms_of};

/// Apply the payor's credit after the version `row` posted its charge (see
/// the module doc); what was posted, if anything.
pub fn apply_after_charge(
    conn: &mut DbConn,
    payor_id: &str,
    row: &VersionRow,
) -> Result<Option<CreditPosting>, ApiError> {
    let municipality_id = row.municipality_id;
    db::payments::lock_payor(conn, municipality_id, payor_id)?;
    let mut book = book_as_of(conn, municipality_id, payor_id, row.filed_on)?;
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
    let cause = Cause::ReturnVersion {
        return_id: row.return_id.clone(),
        version: row.version,
    };
    let Some(posting) = credit_journal(payor_id, row.filed_on, cause, &book, &period_terms)
        .map_err(|e| ApiError::from(Invalid(vec![e])))?
    else {
        return Ok(None);
    };
    super::post(conn, municipality_id, &posting.journal)?;
    Ok(Some(posting))
}

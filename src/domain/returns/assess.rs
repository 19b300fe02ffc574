//! What a filed return owes: [`assess`].
//!
//! Contract: an [`Assessment`] is the engine's [`quote`] of the filing's period, gross
//! and exempt receipts on its [`Timing`], with nothing computed here (so a quote and a
//! return always agree):
//! - `filed_on` is the municipality's local calendar date of the filing (America/Chicago
//!   in Wisconsin, never the UTC date; for a paper return the postmark or counter date):
//!   the caller converts the instant;
//! - `paid_on` absent = paid with the return, on `filed_on` (the tax must accompany the
//!   return: Montello room tax, administration ¶; Hayward room tax, due date, "must be
//!   received"), so a late return is never treated as paid on time; the assessment
//!   records the payment date it used;
//! - `extended_to`: a granted extension (Montello, at most the policy's limit) moves
//!   the filing due date, hence the late filing fee and the 30 days of the late-payment
//!   forfeiture, never the due date interest runs from (Montello room tax, interest ¶);
//!   Hayward has none (`extended_to`, `extension_not_allowed`);
//! - `previous_year_tax`: the tax imposed on the payor for the previous year (Montello's
//!   late-payment forfeiture; absent = no previous year, no forfeiture);
//! - an annual return owes only its own late filing fee here (the year's tax was owed
//!   on the quarterly returns; `quote/annual.rs`); its adjustments of the quarters come
//!   from [`reconcile`](super::annual::reconcile);
//! - faults are the quote's: [`DomainError::Invalid`] on `filed_on`, `paid_on`
//!   (`before_period_end`), `extended_to`, `previous_year_tax`, or
//!   [`DomainError::NoPolicy`].

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::filing::Filing;
use crate::domain::DomainError;
use crate::domain::compute::Distribution;
use crate::domain::explain::{DateLine, Line};
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::PolicyHistory;
use crate::domain::quote::{QuoteInput, quote};
use crate::domain::zone_membership::Stint;

/// When a return was filed and paid, and any extension granted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// The local calendar date the return was filed (or received, for a paper return).
    pub filed_on: NaiveDate,
    /// The local date the tax was received; `None` = with the return.
    pub paid_on: Option<NaiveDate>,
    /// The extended filing due date granted by the clerk-treasurer, if any.
    pub extended_to: Option<NaiveDate>,
}

impl Timing {
    /// Filed on `filed_on`, the tax with it, no extension.
    pub fn filed(filed_on: NaiveDate) -> Timing {
        Timing {
            filed_on,
            paid_on: None,
            extended_to: None,
        }
    }
}

/// What a filed return owes, every amount explained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Assessment {
    /// The return's period.
    pub period: Period,
    /// Gross receipts filed.
    pub gross_receipts: Money,
    /// Exempt receipts filed (the sum of the exemptions).
    pub exempt_receipts: Money,
    /// Room tax the return owes (0.00 for an annual return: its year's tax was owed on the quarterly returns).
    pub tax: Money,
    /// Collection fee the operator keeps out of the tax (0.00 unless the policy sets one).
    pub collection_fee: Money,
    /// Interest on tax paid after the due date.
    pub interest: Money,
    /// Fee for a return filed after its filing due date.
    pub late_filing_fee: Money,
    /// Montello's forfeiture for tax paid more than 30 days after the filing due date.
    pub late_payment_forfeiture: Money,
    /// Tax less the collection fee, plus interest, fee and forfeiture.
    pub amount_due: Money,
    /// The local date the return was filed.
    pub filed_on: NaiveDate,
    /// The date the tax counts as paid: the payment date given, or the filing date.
    pub paid_on: NaiveDate,
    /// True when no payment date was given, so the tax counts as paid with the return.
    pub paid_with_return: bool,
    /// True when filed after the filing due date.
    pub filed_late: bool,
    /// Due date of the return and its tax (interest runs from it; never extended).
    pub due_date: NaiveDate,
    /// Date by which the return had to be filed: the due date, or the extended date.
    pub filing_due_date: NaiveDate,
    /// The policy version used, identified by its effective date.
    pub policy_version: NaiveDate,
    /// Split of the tax principal between the commission and the municipality.
    pub distribution: Distribution,
    /// One line per amount: code, amount, explanation, citation, inputs.
    pub lines: Vec<Line>,
    /// One line per date: due date and filing due date.
    pub dates: Vec<DateLine>,
}

impl Assessment {
    /// The timing this assessment was made on: an amendment of the return is
    /// assessed on it too, so the filing's lateness, fee and forfeiture stay
    /// as they were and only the tax differs.
    pub fn timing(&self) -> Timing {
        Timing {
            filed_on: self.filed_on,
            paid_on: (!self.paid_with_return).then_some(self.paid_on),
            extended_to: (self.filing_due_date != self.due_date).then_some(self.filing_due_date),
        }
    }

    /// Tax principal: the tax less the collection fee (what interest runs on and the
    /// distribution splits).
    pub fn principal(&self) -> Money {
        self.tax - self.collection_fee
    }
}

/// Assesses `filing` on `timing` for a municipality whose zone memberships are `zone`
/// (see the module doc).
pub fn assess(
    history: &PolicyHistory,
    filing: &Filing,
    timing: &Timing,
    previous_year_tax: Option<Money>,
    zone: &[Stint],
) -> Result<Assessment, DomainError> {
    assess_receipts(
        history,
        &Receipts {
            period: filing.period(),
            gross_receipts: filing.gross_receipts(),
            exempt_receipts: filing.exempt_receipts(),
        },
        timing,
        previous_year_tax,
        zone,
    )
}

/// A period's receipts, as a version states them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Receipts {
    /// The return's period.
    pub period: Period,
    /// Gross receipts.
    pub gross_receipts: Money,
    /// Exempt receipts.
    pub exempt_receipts: Money,
}

/// [`assess`] on receipts alone: for a quarter's adjustment from the annual
/// return, which states the quarter's receipts (not a whole filing).
pub fn assess_receipts(
    history: &PolicyHistory,
    receipts: &Receipts,
    timing: &Timing,
    previous_year_tax: Option<Money>,
    zone: &[Stint],
) -> Result<Assessment, DomainError> {
    let input = QuoteInput {
        period: receipts.period,
        gross_receipts: receipts.gross_receipts,
        exempt_receipts: receipts.exempt_receipts,
        filed_on: Some(timing.filed_on),
        paid_on: timing.paid_on,
        extended_to: timing.extended_to,
        previous_year_tax,
    };
    let q = quote(history, &input, zone)?;
    Ok(Assessment {
        period: q.period,
        gross_receipts: receipts.gross_receipts,
        exempt_receipts: receipts.exempt_receipts,
        tax: q.tax,
        collection_fee: q.collection_fee,
        interest: q.interest,
        late_filing_fee: q.late_filing_fee,
        late_payment_forfeiture: q.late_payment_forfeiture,
        amount_due: q.total_due,
        filed_on: timing.filed_on,
        paid_on: timing.paid_on.unwrap_or(timing.filed_on),
        paid_with_return: timing.paid_on.is_none(),
        filed_late: timing.filed_on > q.filing_due_date,
        due_date: q.due_date,
        filing_due_date: q.filing_due_date,
        policy_version: q.policy_version,
        distribution: q.distribution,
        lines: q.lines,
        dates: q.dates,
    })
}

#[cfg(test)]
pub(crate) mod tests;

//! What a return owes: [`quote`], and the year's due dates: [`due_calendar`].
//!
//! Contract of [`quote`]:
//! - the policy is the version in force on the period's last day ([`PolicyHistory::for_period`];
//!   none → [`DomainError::NoPolicy`]);
//! - tax = rate × (gross − exempt), rounded once;
//! - an annual period (calendar or fiscal year) has the annual rule's due date
//!   (Montello: 90 days after the year closes; Hayward: with the Q4 return) and shows
//!   only what its reconciliation would owe, never the year's tax again: see
//!   `quote/annual.rs` (the year's tax is the information line `annual_summary`; a
//!   quote sees no quarterly return on file, so only a late filing fee can be owed);
//!   every date line of an annual return cites the annual-return paragraph;
//! - `filed_on` / `paid_on` absent = on time; both, when given, must be on or after the
//!   period's last day (rule `before_period_end`);
//! - the tax must accompany the return (Montello room tax, returns ¶: "The correct
//!   amount of tax shall accompany each quarterly tax return"; DESIGN §3): a return
//!   with a `filed_on` and no `paid_on` counts as paid when filed, so a late return
//!   without a payment date is never treated as paid on time; the lines say so;
//! - an extension moves the due date of the return for every purpose but interest
//!   (Montello room tax, interest ¶: it "shall not operate to extend the due date of the
//!   return for purposes of interest computation"; DESIGN §3 "Extension"): interest runs
//!   from the original due date; the late filing fee and the 30 days of the late-payment
//!   forfeiture count from the filing due date (the extended date when `extended_to` is
//!   given and allowed);
//! - the operator's collection fee (0 in both presets) is kept out of the tax, so the tax
//!   principal remitted is tax − collection fee; it is forfeited on a return filed late
//!   where the policy says so (Hayward). Interest runs on, and the distribution splits,
//!   that principal;
//! - the commission's share follows the policy only while the municipality is a member
//!   of a zone on the period's last day (`zone`: its membership stints; see
//!   `domain::zone_membership`): from the day after `left_on`, nothing goes to a
//!   commission and the municipality keeps the whole principal;
//! - total due = principal + interest + late filing fee + late-payment forfeiture;
//! - `lines` explains every amount (a quarter: codes `tax`, `collection_fee`,
//!   `interest`, `late_filing_fee`, `late_payment_forfeiture`, `commission_share`,
//!   `municipality_share`, `total_due`; a year: `annual_summary`, `reconciliation`,
//!   `late_filing_fee`, `total_due`), `dates` every date;
//! - invalid input is [`DomainError::Invalid`] on the request fields `period`,
//!   `gross_receipts`, `exempt_receipts`, `filed_on`, `paid_on`, `extended_to`,
//!   `previous_year_tax`.

mod annual;
mod due_calendar;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::compute::{
    Distribution, collection_fee, distribute, distribute_outside_zone, extended_filing_due_date,
    interest, late_filing_fee, late_payment_forfeiture, return_due_date, tax,
};
use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::{DateLine, Line};
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::PolicyHistory;
use crate::domain::zone_membership::{Stint, member_on};

pub use due_calendar::{DueItem, DueKind, due_calendar, due_date_of};

/// A return to quote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuoteInput {
    /// The return's period: "2026-Q1", "2026" or "FY2026-06".
    pub period: Period,
    /// Gross receipts from furnishing rooms or lodging in the period.
    pub gross_receipts: Money,
    /// Exempt receipts (federal government, Wis. Stat. § 77.54(9a) buyers, long stays);
    /// "0.00" when absent.
    #[serde(default)]
    pub exempt_receipts: Money,
    /// Date the return was filed; absent = on time.
    pub filed_on: Option<NaiveDate>,
    /// Date the tax was paid; absent = with the return (on `filed_on`, since the tax
    /// must accompany the return), or on time when `filed_on` is absent too.
    pub paid_on: Option<NaiveDate>,
    /// Extended filing due date granted by the clerk-treasurer (Montello only).
    pub extended_to: Option<NaiveDate>,
    /// Tax imposed on the payor for the previous year (Montello late-payment forfeiture).
    pub previous_year_tax: Option<Money>,
}

/// What a return owes, with every amount explained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Quote {
    /// The return's period.
    pub period: Period,
    /// Room tax this return owes: rate × taxable receipts for a quarter; 0.00 for an
    /// annual return, whose year's tax was owed on the quarterly returns (it is stated
    /// in the `annual_summary` line).
    pub tax: Money,
    /// Due date of the return and its tax (interest runs from it; never extended).
    #[serde(serialize_with = "crate::domain::iso_date::serialize")]
    pub due_date: NaiveDate,
    /// Date by which the return must be filed: the due date or the extended date. The
    /// late filing fee and the late-payment forfeiture's 30 days count from it.
    #[serde(serialize_with = "crate::domain::iso_date::serialize")]
    pub filing_due_date: NaiveDate,
    /// Interest on tax paid late.
    pub interest: Money,
    /// Fee for a return filed after the filing due date.
    pub late_filing_fee: Money,
    /// Montello's forfeiture for tax paid more than 30 days after the filing due date.
    pub late_payment_forfeiture: Money,
    /// Collection fee the operator keeps out of the tax (0 unless the policy sets one).
    pub collection_fee: Money,
    /// Tax less the collection fee, plus interest, fee and forfeiture.
    pub total_due: Money,
    /// Split of the tax principal between the commission and the municipality.
    pub distribution: Distribution,
    /// The policy version used, identified by its effective date (the version in force on the period's last day).
    #[serde(serialize_with = "crate::domain::iso_date::serialize")]
    pub policy_version: NaiveDate,
    /// One line per amount: code, amount, explanation, citation, inputs.
    pub lines: Vec<Line>,
    /// One line per date: due date and filing due date.
    pub dates: Vec<DateLine>,
}

fn not_before_period_end(
    field: &str,
    date: Option<NaiveDate>,
    period: &Period,
) -> Result<(), DomainError> {
    match date {
        Some(date) if date < period.last_day() => Err(DomainError::invalid(
            field,
            "before_period_end",
            format!(
                "{date} is before the end of {period} ({})",
                period.last_day()
            ),
        )),
        _ => Ok(()),
    }
}

/// Says on `line` that no payment date was given, so the tax counts as paid with the
/// return (the tax must accompany the return).
pub(crate) fn mark_paid_with_return(line: &mut Line, title: &str) {
    line.explanation.push_str(
        " (no payment date was given: the tax must accompany the return, so it counts as paid when the return was filed)",
    );
    line.citation = line
        .citation
        .joined(&format!("; {title}: the tax shall accompany each return"));
    line.inputs
        .insert("paid_on_source".into(), "filed_on".to_owned());
}

/// Quotes a return of a municipality whose zone memberships are `zone` (see the module
/// doc for the rules).
pub fn quote(
    history: &PolicyHistory,
    input: &QuoteInput,
    zone: &[Stint],
) -> Result<Quote, DomainError> {
    let period = input.period;
    let policy = history.governing(&period)?;
    let tax_line = tax(policy, input.gross_receipts, input.exempt_receipts)?;
    if let Some(previous) = input.previous_year_tax {
        require_not_negative("previous_year_tax", previous)?;
    }
    not_before_period_end("filed_on", input.filed_on, &period)?;
    not_before_period_end("paid_on", input.paid_on, &period)?;

    let due = return_due_date(policy, &period)?;
    let filing_due = extended_filing_due_date(policy, &due, input.extended_to)?;
    if period.is_annual() {
        return Ok(annual::annual_quote(
            policy, input, tax_line, due, filing_due,
        ));
    }
    let filed_late = input.filed_on.is_some_and(|filed| filed > filing_due.date);
    let paid_on = input.paid_on.or(input.filed_on);
    let paid_with_return = input.paid_on.is_none() && input.filed_on.is_some();

    let fee_line = collection_fee(policy, tax_line.amount, filed_late)?;
    let principal = tax_line.amount - fee_line.amount;
    let mut interest_line = interest(policy, principal, due.date, paid_on)?;
    let late_fee_line = late_filing_fee(policy, filing_due.date, input.filed_on);
    let mut forfeiture_line = late_payment_forfeiture(
        policy,
        principal,
        filing_due.date,
        paid_on,
        input.previous_year_tax,
    )?;
    if paid_with_return {
        for line in [&mut interest_line, &mut forfeiture_line] {
            mark_paid_with_return(line, &policy.title);
        }
    }
    let (distribution, distribution_lines) = if member_on(zone, period.last_day()) {
        distribute(policy, principal)
    } else {
        distribute_outside_zone(policy, principal, period.last_day())
    };

    let total_due =
        principal + interest_line.amount + late_fee_line.amount + forfeiture_line.amount;
    let total_line = Line::new(
        "total_due",
        total_due,
        format!(
            "tax {} − collection fee {} + interest {} + late filing fee {} + late-payment forfeiture {} = {total_due}",
            tax_line.amount, fee_line.amount, interest_line.amount, late_fee_line.amount, forfeiture_line.amount
        ),
        format!("{}: the amounts above, each with its own citation", policy.title),
    )
    .input("policy_effective_from", policy.effective_from);

    Ok(Quote {
        period,
        tax: tax_line.amount,
        due_date: due.date,
        filing_due_date: filing_due.date,
        interest: interest_line.amount,
        late_filing_fee: late_fee_line.amount,
        late_payment_forfeiture: forfeiture_line.amount,
        collection_fee: fee_line.amount,
        total_due,
        distribution,
        policy_version: policy.effective_from,
        lines: [
            tax_line,
            fee_line,
            interest_line,
            late_fee_line,
            forfeiture_line,
        ]
        .into_iter()
        .chain(distribution_lines)
        .chain([total_line])
        .collect(),
        dates: vec![due, filing_due],
    })
}

#[cfg(test)]
mod tests;

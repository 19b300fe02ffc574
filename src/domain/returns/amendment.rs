//! The difference a new version of a return makes: [`amend`].
//!
//! Contract: a filed return is never edited; an amendment is a new version that
//! supersedes the last (DESIGN §2 "Return"). Its [`TaxDifference`] against the previous
//! version:
//! - `tax_difference` = new tax − previous tax (signed); the principal difference is
//!   that less the difference in collection fee (0 in both presets);
//! - a positive principal difference is `additional_tax`, owed from the ORIGINAL due
//!   date of the return: interest runs from it (never from an extended date; Montello
//!   room tax, interest ¶; Hayward room tax, interest) to the month the additional tax
//!   is paid (`paid_on`, or the amendment's filing date: the tax must accompany the
//!   return), in whole months as `compute::interest` counts them;
//! - a negative one is a `credit` (the ledger applies or refunds it; refund interest,
//!   where the policy has it, is computed when it is refunded, by
//!   `compute::refund_interest`, from the same due date);
//! - `amount_due` = additional tax + its interest; the late filing fee and the
//!   late-payment forfeiture belong to the original filing and are not charged again
//!   (assess the new version on the original version's [`Timing`](super::Timing), so
//!   they stay as they were; an additional forfeiture is the clerk's determination);
//! - faults: versions of different periods (`period`, `not_the_same_period`), an
//!   amendment dated before the version it amends (`filed_on`,
//!   `before_previous_version`), a payment before the period's end (`paid_on`,
//!   `before_period_end`), no policy for the period ([`DomainError::NoPolicy`]).
//!
//! The annual return's adjustments of its quarters are [`TaxDifference`]s too
//! (`returns::annual`), so both read alike.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::assess::Assessment;
use crate::domain::DomainError;
use crate::domain::compute::interest;
use crate::domain::explain::Line;
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::{Policy, PolicyHistory};
use crate::domain::quote::mark_paid_with_return;

/// What a new version of a return changes, every amount explained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TaxDifference {
    /// The return's period.
    pub period: Period,
    /// Tax of the version superseded.
    pub previous_tax: Money,
    /// Tax of the new version.
    pub new_tax: Money,
    /// New tax − previous tax (negative: the tax went down).
    pub tax_difference: Money,
    /// Additional tax principal owed (0.00 unless the tax went up).
    pub additional_tax: Money,
    /// Tax principal credited to the payor (0.00 unless the tax went down).
    pub credit: Money,
    /// Interest on the additional tax from the original due date.
    pub interest: Money,
    /// Additional tax plus its interest.
    pub amount_due: Money,
    /// The original due date of the return, from which interest runs.
    pub due_date: NaiveDate,
    /// The date the additional tax counts as paid.
    pub paid_on: NaiveDate,
    /// The policy version used, identified by its effective date.
    pub policy_version: NaiveDate,
    /// One line per amount: code, amount, explanation, citation, inputs.
    pub lines: Vec<Line>,
}

/// The tax and collection fee of one version.
#[derive(Debug, Clone, Copy)]
pub(super) struct Version {
    pub tax: Money,
    pub collection_fee: Money,
}

/// When and why the difference is owed.
pub(super) struct Occasion<'a> {
    /// The original due date of the return.
    pub due: NaiveDate,
    /// The date the additional tax counts as paid.
    pub paid_on: NaiveDate,
    /// True when no payment date was given (paid with the return that revealed it).
    pub paid_with_return: bool,
    /// What revealed the difference, e.g. "the amended return".
    pub source: &'a str,
    /// Where the difference comes from, for the lines.
    pub citation: &'a str,
}

/// The difference between two versions of `period`'s return (the module doc's rules).
pub(super) fn difference(
    policy: &Policy,
    period: Period,
    previous: Version,
    new: Version,
    occasion: &Occasion,
) -> Result<TaxDifference, DomainError> {
    let delta = new.tax - previous.tax;
    let principal = delta - (new.collection_fee - previous.collection_fee);
    let (additional, credit) = if principal.is_negative() {
        (Money::ZERO, -principal)
    } else {
        (principal, Money::ZERO)
    };
    let mut lines = vec![
        Line::new(
            "tax_difference",
            delta,
            format!(
                "tax on {} {} − tax on the version it supersedes {} = {delta}",
                occasion.source, new.tax, previous.tax
            ),
            format!("{}; {}", policy.rate.citation, occasion.citation),
        )
        .input("previous_tax", previous.tax)
        .input("new_tax", new.tax),
    ];
    if new.collection_fee != previous.collection_fee {
        lines.push(Line::new(
            "collection_fee_difference",
            new.collection_fee - previous.collection_fee,
            format!(
                "collection fee {} − {} kept by the operator",
                new.collection_fee, previous.collection_fee
            ),
            &policy.collection_fee.citation,
        ));
    }
    lines.push(if credit.is_zero() {
        Line::new(
            "additional_tax",
            additional,
            format!(
                "additional tax {additional}, owed from the original due date {}",
                occasion.due
            ),
            occasion.citation,
        )
    } else {
        let refund = policy.refund_interest_monthly_rate.as_ref().map_or_else(
            || format!("{}: refunds bear no interest", policy.municipality),
            |rate| rate.citation.to_string(),
        );
        Line::new(
            "credit",
            credit,
            format!(
                "the tax went down by {credit}: a credit on the payor's account (any refund interest is computed when it is refunded, from the due date {})",
                occasion.due
            ),
            format!("{}; {refund}", occasion.citation),
        )
    });
    let mut interest_line = interest(policy, additional, occasion.due, Some(occasion.paid_on))?;
    if occasion.paid_with_return {
        mark_paid_with_return(&mut interest_line, &policy.title);
    }
    let amount_due = additional + interest_line.amount;
    let total = Line::new(
        "amount_due",
        amount_due,
        format!(
            "additional tax {additional} + interest {} = {amount_due}",
            interest_line.amount
        ),
        format!(
            "{}: the amounts above, each with its own citation",
            policy.title
        ),
    )
    .input("policy_effective_from", policy.effective_from);
    let interest_amount = interest_line.amount;
    lines.extend([interest_line, total]);
    Ok(TaxDifference {
        period,
        previous_tax: previous.tax,
        new_tax: new.tax,
        tax_difference: delta,
        additional_tax: additional,
        credit,
        interest: interest_amount,
        amount_due,
        due_date: occasion.due,
        paid_on: occasion.paid_on,
        policy_version: policy.effective_from,
        lines,
    })
}

/// The difference `new` makes to `previous`, filed on `amended_on` with the additional
/// tax paid on `paid_on` (absent: with the amendment). See the module doc.
pub fn amend(
    history: &PolicyHistory,
    previous: &Assessment,
    new: &Assessment,
    amended_on: NaiveDate,
    paid_on: Option<NaiveDate>,
) -> Result<TaxDifference, DomainError> {
    let period = previous.period;
    if new.period != period {
        return Err(DomainError::invalid(
            "period",
            "not_the_same_period",
            format!(
                "an amendment of the {period} return must be for {period}, not {}",
                new.period
            ),
        ));
    }
    if amended_on < previous.filed_on {
        return Err(DomainError::invalid(
            "filed_on",
            "before_previous_version",
            format!(
                "an amendment on {amended_on} is before the version it amends ({})",
                previous.filed_on
            ),
        ));
    }
    let paid = paid_on.unwrap_or(amended_on);
    if paid < period.last_day() {
        return Err(DomainError::invalid(
            "paid_on",
            "before_period_end",
            format!(
                "{paid} is before the end of {period} ({})",
                period.last_day()
            ),
        ));
    }
    let policy = history.governing(&period)?;
    let version = |a: &Assessment| Version {
        tax: a.tax,
        collection_fee: a.collection_fee,
    };
    let citation = format!(
        "{}: a filed return is never edited, the amended return supersedes it and the difference is owed from the due date of the return (roomtax DESIGN §2 \"Return\", §3); {}",
        policy.title, policy.interest_monthly_rate.citation
    );
    difference(
        policy,
        period,
        version(previous),
        version(new),
        &Occasion {
            due: previous.due_date,
            paid_on: paid,
            paid_with_return: paid_on.is_none(),
            source: "the amended return",
            citation: &citation,
        },
    )
}

#[cfg(test)]
mod tests;

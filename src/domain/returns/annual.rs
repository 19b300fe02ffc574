//! The annual return: which quarters it covers, which years a payor may file, and its
//! reconciliation with the quarterly returns on file.
//!
//! Contract:
//! - Montello: the payor elects, with its first return, "an annual calendar or fiscal
//!   year return ... filed within 90 days of the close of each such calendar or fiscal
//!   year" (Montello room tax, administration ¶); Hayward: "an annual calendar year
//!   return ... due and filed as part of the quarterly return for the fourth quarter"
//!   (Hayward room tax, returns ¶B). [`check_annual_period`] refuses (field `period`)
//!   a fiscal year where the policy allows none (`fiscal_year_not_allowed`; every
//!   payor there files calendar years, whatever election is stored) and a year the
//!   payor did not elect (`not_the_elected_year`: a calendar election files `2026`, a
//!   fiscal one ending June files `FY2026-06`). Quarters pass: they are not annual.
//! - Quarters of a year ([`quarters_of`]): a calendar year covers its Q1..Q4. A fiscal
//!   year covers the four calendar quarters that END within it. Our rule where the
//!   ordinance is silent on fiscal years that close mid-quarter (the registry allows a
//!   fiscal year ending in any month 1..11): quarterly returns are filed by calendar
//!   quarter and say nothing about months, so a quarter cannot be split between two
//!   fiscal years without inventing monthly figures. Giving each quarter to the year
//!   its last day falls in (the rule the engine already uses to pick a period's
//!   policy version) reconciles every quarterly return exactly once: consecutive
//!   fiscal years of one election cover disjoint runs of four whole quarters, none
//!   left out, and the annual return (due 90 days after the fiscal year closes) is
//!   always due after every quarter it covers. E.g. FY2026-01 (February 2025 ..
//!   January 2026) covers 2025-Q1..2025-Q4; FY2026-05 covers 2025-Q2..2026-Q1;
//!   FY2026-06 covers 2025-Q3..2026-Q2.
//! - Reconciliation ([`reconcile`]): per covered quarter, the receipts the annual
//!   return states against the latest version of that quarter's return on file
//!   ([`QuarterOnFile`]): the differences in gross, exempt and taxable receipts and in
//!   tax (the stated receipts taxed by `compute::tax` under the quarter's policy
//!   version). Each difference is an adjustment of that quarter, a
//!   [`TaxDifference`] like an amendment's: additional tax bears interest from THAT
//!   QUARTER's due date to the annual return's payment date; a decrease is a credit.
//!   The annual return itself owes only those adjustments (plus its own late filing
//!   fee), never the year's tax again. A quarter with no return on file is `missing`:
//!   the annual return does not stand in for it and adjusts nothing there (the
//!   quarterly return is still owed; the clerk's list shows it missing).
//!   Reconciling again after an adjustment was recorded (the latest versions now
//!   include it) yields only what changed since.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::amendment::{Occasion, TaxDifference, Version, difference};
use super::assess::Assessment;
use super::filing::Filing;
use crate::domain::DomainError;
use crate::domain::compute::{collection_fee, return_due_date, tax};
use crate::domain::explain::Line;
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::{Policy, PolicyHistory};
use crate::domain::registry::Election;

/// The four calendar quarters an annual period covers, oldest first (see the module
/// doc); `None` for a quarter.
pub fn quarters_of(period: &Period) -> Option<[Period; 4]> {
    if period.is_quarter() {
        return None;
    }
    let (first, last) = (period.first_day(), period.last_day());
    let mut covered = [period.year() - 1, period.year()]
        .into_iter()
        .flat_map(|year| [1, 2, 3, 4].map(|quarter| Period::Quarter { year, quarter }))
        .filter(|q| first <= q.last_day() && q.last_day() <= last);
    let mut next = || covered.next();
    match (next(), next(), next(), next()) {
        (Some(a), Some(b), Some(c), Some(d)) => Some([a, b, c, d]),
        _ => None,
    }
}

/// Refuses an annual `period` that `policy` or the payor's `election` does not allow
/// (field `period`; see the module doc). A quarter passes.
pub fn check_annual_period(
    period: &Period,
    election: Election,
    policy: &Policy,
) -> Result<(), DomainError> {
    let refuse = |why: String| {
        Err(DomainError::invalid(
            "period",
            "not_the_elected_year",
            format!("{why} ({})", policy.annual_return.citation),
        ))
    };
    match (*period, election) {
        (Period::Quarter { .. }, _) => Ok(()),
        (Period::FiscalYear { .. }, _) if !policy.fiscal_year_allowed.value => {
            Err(DomainError::invalid(
                "period",
                "fiscal_year_not_allowed",
                format!(
                    "{} allows calendar-year annual returns only ({})",
                    policy.municipality, policy.fiscal_year_allowed.citation
                ),
            ))
        }
        (Period::CalendarYear { .. }, _) if !policy.fiscal_year_allowed.value => Ok(()),
        (Period::CalendarYear { .. }, Election::Calendar) => Ok(()),
        (Period::FiscalYear { end_month, .. }, Election::Fiscal { year_end })
            if i64::from(end_month) == i64::from(year_end.month()) =>
        {
            Ok(())
        }
        (_, Election::Calendar) => refuse(format!(
            "the payor elected calendar-year annual returns, so {period} is not one of its annual periods"
        )),
        (_, Election::Fiscal { year_end }) => refuse(format!(
            "the payor elected fiscal years ending in month {}, so {period} is not one of its annual periods",
            year_end.month()
        )),
    }
}

/// The latest version of a quarterly return on file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuarterOnFile {
    /// The quarter.
    pub period: Period,
    /// Gross receipts on file.
    pub gross_receipts: Money,
    /// Exempt receipts on file.
    pub exempt_receipts: Money,
    /// Tax on file.
    pub tax: Money,
    /// Collection fee on file.
    pub collection_fee: Money,
    /// True when that return was filed late (a late return keeps no collection fee
    /// where the policy says so, and so does its adjustment).
    pub filed_late: bool,
}

/// How a quarter compares with the annual return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum QuarterStatus {
    /// The quarterly return on file states the same receipts and tax.
    Agrees,
    /// The figures differ: the difference is an adjustment of the quarter.
    Adjusted,
    /// No quarterly return is on file: nothing is adjusted, the return is still owed.
    Missing,
}

/// One quarter of the reconciliation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct QuarterReconciliation {
    /// The quarter.
    pub period: Period,
    /// "agrees", "adjusted" or "missing".
    pub status: QuarterStatus,
    /// Gross receipts the annual return states for the quarter.
    pub stated_gross_receipts: Money,
    /// Exempt receipts the annual return states for the quarter.
    pub stated_exempt_receipts: Money,
    /// Tax on the stated receipts.
    pub stated_tax: Money,
    /// Gross receipts of the quarterly return on file (absent when missing).
    pub filed_gross_receipts: Option<Money>,
    /// Exempt receipts of the quarterly return on file (absent when missing).
    pub filed_exempt_receipts: Option<Money>,
    /// Tax of the quarterly return on file (absent when missing).
    pub filed_tax: Option<Money>,
    /// Stated − filed gross receipts (0.00 when missing).
    pub gross_receipts_difference: Money,
    /// Stated − filed exempt receipts (0.00 when missing).
    pub exempt_receipts_difference: Money,
    /// Stated − filed taxable receipts (0.00 when missing).
    pub taxable_receipts_difference: Money,
    /// The adjustment of the quarter, when its figures differ.
    pub adjustment: Option<TaxDifference>,
}

/// The annual return with its reconciliation: what it owes in all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Reconciliation {
    /// The annual period.
    pub period: Period,
    /// The annual return's own assessment (its late filing fee, if any).
    pub annual: Assessment,
    /// Every quarter the year covers, oldest first.
    pub quarters: Vec<QuarterReconciliation>,
    /// Additional tax of all adjustments.
    pub additional_tax: Money,
    /// Interest on the additional tax, each from its quarter's due date.
    pub interest: Money,
    /// Tax credited by the adjustments that went down.
    pub credit: Money,
    /// Additional tax + interest + the annual return's own amount due (credits are
    /// applied by the ledger, not netted here).
    pub amount_due: Money,
    /// The totals, explained.
    pub lines: Vec<Line>,
}

/// Reconciles the annual `filing` (assessed as `annual`) with the quarterly returns
/// `on_file` (their latest versions; entries of other periods are ignored). The
/// adjustments' additional tax counts as paid on `annual.paid_on`.
pub fn reconcile(
    history: &PolicyHistory,
    filing: &Filing,
    annual: &Assessment,
    on_file: &[QuarterOnFile],
) -> Result<Reconciliation, DomainError> {
    let period = filing.period();
    if quarters_of(&period).is_none() || annual.period != period {
        return Err(DomainError::invalid(
            "period",
            "not_an_annual_period",
            format!(
                "{period} is not the annual return assessed ({})",
                annual.period
            ),
        ));
    }
    let annual_policy = history.governing(&period)?;
    let citation = format!(
        "{}; the annual return shall \"reconcile and adjust for errors in the quarterly returns\": each difference is an adjustment of its quarter, interest from that quarter's due date (roomtax DESIGN §3)",
        annual_policy.annual_return.citation
    );
    let mut quarters = Vec::new();
    for stated in filing.quarters() {
        let q = stated.period;
        let policy = history.governing(&q)?;
        let stated_tax = tax(policy, stated.gross_receipts, stated.exempt_receipts)?.amount;
        let filed = on_file.iter().find(|f| f.period == q);
        let mut row = QuarterReconciliation {
            period: q,
            status: QuarterStatus::Missing,
            stated_gross_receipts: stated.gross_receipts,
            stated_exempt_receipts: stated.exempt_receipts,
            stated_tax,
            filed_gross_receipts: filed.map(|f| f.gross_receipts),
            filed_exempt_receipts: filed.map(|f| f.exempt_receipts),
            filed_tax: filed.map(|f| f.tax),
            gross_receipts_difference: Money::ZERO,
            exempt_receipts_difference: Money::ZERO,
            taxable_receipts_difference: Money::ZERO,
            adjustment: None,
        };
        if let Some(f) = filed {
            row.gross_receipts_difference = stated.gross_receipts - f.gross_receipts;
            row.exempt_receipts_difference = stated.exempt_receipts - f.exempt_receipts;
            row.taxable_receipts_difference =
                row.gross_receipts_difference - row.exempt_receipts_difference;
            let agrees = row.gross_receipts_difference.is_zero()
                && row.exempt_receipts_difference.is_zero()
                && stated_tax == f.tax;
            row.status = QuarterStatus::Agrees;
            if !agrees {
                let fee = collection_fee(policy, stated_tax, f.filed_late)?.amount;
                let due = return_due_date(policy, &q)?.date;
                row.status = QuarterStatus::Adjusted;
                row.adjustment = Some(difference(
                    policy,
                    q,
                    Version {
                        tax: f.tax,
                        collection_fee: f.collection_fee,
                    },
                    Version {
                        tax: stated_tax,
                        collection_fee: fee,
                    },
                    &Occasion {
                        due,
                        paid_on: annual.paid_on,
                        paid_with_return: annual.paid_with_return,
                        source: &format!("the receipts the {period} annual return states"),
                        citation: &citation,
                    },
                )?);
            }
        }
        quarters.push(row);
    }
    let adjustments = || quarters.iter().filter_map(|q| q.adjustment.as_ref());
    let additional_tax: Money = adjustments().map(|a| a.additional_tax).sum();
    let interest: Money = adjustments().map(|a| a.interest).sum();
    let credit: Money = adjustments().map(|a| a.credit).sum();
    let amount_due = additional_tax + interest + annual.amount_due;
    let adjusted: Vec<String> = adjustments().map(|a| a.period.to_string()).collect();
    let missing: Vec<String> = quarters
        .iter()
        .filter(|q| q.status == QuarterStatus::Missing)
        .map(|q| q.period.to_string())
        .collect();
    let mut lines = vec![
        Line::new(
            "adjustments",
            additional_tax + interest,
            format!(
                "additional tax {additional_tax} + interest {interest} on the adjusted quarters ({}); credits {credit}",
                if adjusted.is_empty() { "none".to_owned() } else { adjusted.join(", ") }
            ),
            &citation,
        )
        .input("additional_tax", additional_tax)
        .input("interest", interest)
        .input("credit", credit),
    ];
    if !missing.is_empty() {
        lines.push(Line::new(
            "missing_quarters",
            Money::ZERO,
            format!(
                "no return on file for {}: the annual return adjusts nothing there, the quarterly return is still owed",
                missing.join(", ")
            ),
            &citation,
        ));
    }
    lines.push(
        Line::new(
            "amount_due",
            amount_due,
            format!(
                "adjustments {} + the annual return's own amount due {} (late filing fee {}) = {amount_due}; the year's tax is not owed again",
                additional_tax + interest,
                annual.amount_due,
                annual.late_filing_fee
            ),
            format!("{}: the amounts above, each with its own citation", annual_policy.title),
        )
        .input("policy_effective_from", annual_policy.effective_from),
    );
    Ok(Reconciliation {
        period,
        annual: annual.clone(),
        quarters,
        additional_tax,
        interest,
        credit,
        amount_due,
        lines,
    })
}

#[cfg(test)]
mod tests;

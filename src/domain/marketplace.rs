//! A marketplace provider's report to one municipality for one period, and what it owes.
//!
//! Contract:
//! - since 2020 a marketplace provider (a short-term-rental platform) collects and
//!   remits the room tax on the stays it facilitates and reports to each municipality,
//!   at least quarterly, its totals: sales, nights and tax, without property addresses
//!   ([`STATUTE`]). The report therefore has no address, host or property field at all:
//!   [`MarketplaceReport`] holds totals only;
//! - "at least quarterly": a report covers one calendar quarter; a calendar or fiscal
//!   year is refused (field `period`, rule `marketplace_report_quarterly`);
//! - the tax owed is computed by the engine exactly as on an operator's return
//!   (`compute::tax`: rate × (gross − exempt), rounded once, the rate of the policy in
//!   force on the period's last day; no policy → [`DomainError::NoPolicy`]);
//! - `difference` = tax owed − tax collected: positive when the provider collected too
//!   little (it still owes the difference), negative when it collected more than the
//!   tax (the excess is the municipality's to refund or to claim, not ours to decide);
//! - invalid input names the field: `gross_receipts`, `exempt_receipts` (rules
//!   `not_negative`, `exempt_not_above_gross`), `tax_collected` (`not_negative`).
//!
//! Pure; who may file or read a report (the provider its own, the clerk all) is the
//! API's business.

use chrono::NaiveDate;

use crate::domain::compute::tax;
use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::Line;
use crate::domain::money::Money;
use crate::domain::period::Period;
use crate::domain::policy::PolicyHistory;

/// The statute the reports rest on, as cited in every line.
pub const STATUTE: &str = "Wis. Stat. § 66.0615(1)(dm) and (1m)(f) (since 2020): a marketplace provider collects and remits the room tax on the stays it facilitates and reports its totals (sales, nights, tax) to each municipality at least quarterly, without property addresses";

/// A marketplace provider's totals for one municipality and one quarter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarketplaceReport {
    /// The quarter reported.
    pub period: Period,
    /// Gross receipts from the stays facilitated in the municipality.
    pub gross_receipts: Money,
    /// Exempt receipts among them (long stays, exempt buyers).
    pub exempt_receipts: Money,
    /// Nights sold.
    pub nights: u32,
    /// Room tax the provider collected from guests.
    pub tax_collected: Money,
}

/// What a report owes, explained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketplaceAssessment {
    /// Room tax on the taxable receipts.
    pub tax_owed: Money,
    /// Room tax the provider collected (as reported).
    pub tax_collected: Money,
    /// `tax_owed − tax_collected` (positive: collected too little).
    pub difference: Money,
    /// The policy version used (its effective date).
    pub policy_version: NaiveDate,
    /// Lines `tax` and `collection_difference`.
    pub lines: Vec<Line>,
}

/// Computes what `report` owes under `history` (see the module doc).
pub fn assess(
    history: &PolicyHistory,
    report: &MarketplaceReport,
) -> Result<MarketplaceAssessment, DomainError> {
    let period = report.period;
    if !period.is_quarter() {
        return Err(DomainError::invalid(
            "period",
            "marketplace_report_quarterly",
            format!(
                "a marketplace report covers one calendar quarter, e.g. \"2026-Q1\" (got {period}; {STATUTE})"
            ),
        ));
    }
    let policy = history.governing(&period)?;
    let collected = require_not_negative("tax_collected", report.tax_collected)?;
    let tax_line = tax(policy, report.gross_receipts, report.exempt_receipts)?
        .input("nights", report.nights)
        .input("period", period);
    let owed = tax_line.amount;
    let difference = owed - collected;
    let meaning = if difference.is_negative() {
        "collected more than the tax"
    } else if difference.is_zero() {
        "collected exactly the tax"
    } else {
        "collected less than the tax: the difference is still owed"
    };
    let difference_line = Line::new(
        "collection_difference",
        difference,
        format!("tax owed {owed} − tax collected {collected} = {difference} ({meaning})"),
        format!("{STATUTE}; {}", policy.rate.citation),
    )
    .input("tax_owed", owed)
    .input("tax_collected", collected);
    Ok(MarketplaceAssessment {
        tax_owed: owed,
        tax_collected: collected,
        difference,
        policy_version: policy.effective_from,
        lines: vec![tax_line, difference_line],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::{d, m};
    use crate::domain::presets::{hayward, montello};

    fn report(period: &str, gross: &str, exempt: &str, collected: &str) -> MarketplaceReport {
        MarketplaceReport {
            period: period.parse().unwrap(),
            gross_receipts: m(gross),
            exempt_receipts: m(exempt),
            nights: 212,
            tax_collected: m(collected),
        }
    }

    fn assessed(
        policy: crate::domain::Policy,
        r: &MarketplaceReport,
    ) -> Result<MarketplaceAssessment, DomainError> {
        assess(&PolicyHistory::single(policy).unwrap(), r)
    }

    #[test]
    fn hand_computed_reports() {
        // Montello 4.5 % of (38,450.00 − 1,450.00) = 37,000.00 × 0.045 = 1,665.00.
        let a = assessed(
            montello(),
            &report("2026-Q2", "38450.00", "1450.00", "1600.00"),
        )
        .unwrap();
        assert_eq!((a.tax_owed, a.difference), (m("1665.00"), m("65.00")));
        assert_eq!(a.policy_version, d("2020-01-01"));
        assert_eq!(a.lines[0].code, "tax");
        assert_eq!(a.lines[0].inputs["nights"], "212");
        assert_eq!(a.lines[1].code, "collection_difference");
        assert_eq!(
            a.lines[1].explanation,
            "tax owed 1665.00 − tax collected 1600.00 = 65.00 (collected less than the tax: the difference is still owed)"
        );
        assert!(a.lines[1].citation.contains("without property addresses"));
        // Hayward 4 % of 12,345.67 = 493.8268 → 493.83; collected 500.00 → −6.17.
        let a = assessed(hayward(), &report("2026-Q3", "12345.67", "0", "500.00")).unwrap();
        assert_eq!((a.tax_owed, a.difference), (m("493.83"), m("-6.17")));
        assert!(
            a.lines[1]
                .explanation
                .ends_with("(collected more than the tax)")
        );
        // Exactly right.
        let a = assessed(hayward(), &report("2026-Q3", "1000.00", "0", "40.00")).unwrap();
        assert!(a.difference.is_zero());
    }

    #[test]
    fn refusals_name_the_field() {
        let rule = |r: Result<MarketplaceAssessment, DomainError>| match r {
            Err(DomainError::Invalid { field, rule, .. }) => format!("{field}/{rule}"),
            other => format!("{other:?}"),
        };
        assert_eq!(
            rule(assessed(montello(), &report("2026", "1.00", "0", "0"))),
            "period/marketplace_report_quarterly"
        );
        assert_eq!(
            rule(assessed(montello(), &report("FY2026-06", "1.00", "0", "0"))),
            "period/marketplace_report_quarterly"
        );
        assert_eq!(
            rule(assessed(montello(), &report("2026-Q1", "-1.00", "0", "0"))),
            "gross_receipts/not_negative"
        );
        assert_eq!(
            rule(assessed(
                montello(),
                &report("2026-Q1", "1.00", "2.00", "0")
            )),
            "exempt_receipts/exempt_not_above_gross"
        );
        assert_eq!(
            rule(assessed(
                montello(),
                &report("2026-Q1", "1.00", "0", "-0.01")
            )),
            "tax_collected/not_negative"
        );
        assert_eq!(
            assessed(montello(), &report("2019-Q4", "1.00", "0", "0")),
            Err(DomainError::NoPolicy {
                date: d("2019-12-31")
            })
        );
    }
}

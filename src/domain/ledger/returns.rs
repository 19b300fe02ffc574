//! The journal a version of a return posts: [`return_version_journal`].
//!
//! Contract (DESIGN §2 "Return", §5 "The ledger"; issue 9 item 2):
//! - an original filing (`filed`, no difference) charges the payor's period
//!   with its tax principal (tax less the collection fee the operator keeps)
//!   and, when filed late, its late filing fee; each against the
//!   municipality's revenue of the same component;
//! - an amendment (`amended`) or an annual return's adjustment of a quarter
//!   (`annual_adjustment`) charges the principal difference of its
//!   [`TaxDifference`] (additional tax − credit: negative when the tax went
//!   down, which lowers what the period owes; a credit beyond what is owed is
//!   the payments slice's business); its fee is the original's, not charged
//!   again;
//! - interest and the late-payment forfeiture are never posted here: interest
//!   is computed as of a date and posted when a payment settles it, the
//!   forfeiture when the late payment arrives (issue 9 item 2);
//! - the tax lines are always present, 0.00 included (a zero return, an
//!   amendment changing only the signer), so every version has its journal;
//!   the fee lines only when there is a fee;
//! - posted on the version's filing date (an amendment's own date), caused by
//!   the version (`<return id>:<version>`).

use chrono::NaiveDate;

use super::account::{Account, Component};
use super::journal::{Cause, Journal, JournalKind, JournalLine, LedgerError};
use crate::domain::money::Money;
use crate::domain::returns::{Assessment, TaxDifference};

/// Where a version comes from (the `source` of a stored version).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VersionSource {
    /// Version 1, as filed.
    Filed,
    /// An amended return.
    Amended,
    /// A quarter's adjustment from the annual return.
    AnnualAdjustment,
}

impl VersionSource {
    /// The source stored as `text`.
    pub fn parse(text: &str) -> Option<VersionSource> {
        match text {
            "filed" => Some(VersionSource::Filed),
            "amended" => Some(VersionSource::Amended),
            "annual_adjustment" => Some(VersionSource::AnnualAdjustment),
            _ => None,
        }
    }

    /// The journal kind a version of this source posts.
    pub fn journal_kind(self) -> JournalKind {
        match self {
            VersionSource::Filed => JournalKind::ReturnFiled,
            VersionSource::Amended => JournalKind::ReturnAmended,
            VersionSource::AnnualAdjustment => JournalKind::AnnualAdjustment,
        }
    }
}

/// A version of a return, as the ledger needs it.
#[derive(Debug, Clone, Copy)]
pub struct PostedVersion<'a> {
    /// The payor whose account is charged.
    pub payor_id: &'a str,
    /// The return.
    pub return_id: &'a str,
    /// The version number (1 = as filed).
    pub version: i64,
    /// Where it comes from.
    pub source: VersionSource,
    /// The version's filing (or amendment) date.
    pub filed_on: NaiveDate,
    /// The engine's assessment of the version.
    pub assessment: &'a Assessment,
    /// Its difference from the previous version (none for the original).
    pub difference: Option<&'a TaxDifference>,
}

fn charge(
    lines: &mut Vec<JournalLine>,
    v: &PostedVersion<'_>,
    component: Component,
    amount: Money,
) {
    let period = v.assessment.period;
    lines.push(JournalLine::debit(
        Account::payor(v.payor_id, period, component),
        amount,
    ));
    lines.push(JournalLine::credit(Account::Revenue(component), amount));
}

/// The journal `v` posts (see the module doc).
pub fn return_version_journal(v: &PostedVersion<'_>) -> Result<Journal, LedgerError> {
    let mut lines = Vec::new();
    let memo = match v.difference {
        None => {
            charge(&mut lines, v, Component::Tax, v.assessment.principal());
            let fee = v.assessment.late_filing_fee;
            if !fee.is_zero() {
                charge(&mut lines, v, Component::LateFilingFee, fee);
            }
            format!(
                "return {} version {} for {}: tax and fees as filed",
                v.return_id, v.version, v.assessment.period
            )
        }
        Some(d) => {
            charge(&mut lines, v, Component::Tax, d.additional_tax - d.credit);
            format!(
                "return {} version {} for {}: tax difference from version {}",
                v.return_id,
                v.version,
                v.assessment.period,
                v.version - 1
            )
        }
    };
    Journal::new(
        v.source.journal_kind(),
        v.filed_on,
        Cause::ReturnVersion {
            return_id: v.return_id.to_owned(),
            version: v.version,
        },
        memo,
        lines,
    )
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::domain::compute::test_values::{d, m};
    use crate::domain::ledger::journal::sum_cents;
    use crate::domain::policy::{Policy, PolicyHistory};
    use crate::domain::presets::{hayward, montello};
    use crate::domain::returns::assess::tests::filing;
    use crate::domain::returns::{Timing, amend, assess};

    const MOTEL: &str = "motel-1";

    fn journal_sum(j: &Journal) -> i128 {
        sum_cents(j.lines().iter().map(|l| l.amount_cents))
    }

    fn assessed(p: &Policy, gross: &str, exempt: &str, timing: &Timing) -> Assessment {
        let f = filing(p, "2026-Q1", gross, exempt);
        assess(
            &PolicyHistory::single(p.clone()).unwrap(),
            &f,
            timing,
            None,
            &[],
        )
        .unwrap()
    }

    fn posted<'a>(
        a: &'a Assessment,
        diff: Option<&'a TaxDifference>,
        version: i64,
    ) -> PostedVersion<'a> {
        PostedVersion {
            payor_id: MOTEL,
            return_id: "r1",
            version,
            source: if diff.is_some() {
                VersionSource::Amended
            } else {
                VersionSource::Filed
            },
            filed_on: a.filed_on,
            assessment: a,
            difference: diff,
        }
    }

    fn amounts(j: &Journal) -> Vec<(String, i64)> {
        j.lines()
            .iter()
            .map(|l| (l.account.to_string(), l.amount_cents))
            .collect()
    }

    #[test]
    fn a_late_montello_return_charges_tax_and_fee_not_interest() {
        // 4.5 % × 9,500.00 = 427.50, filed 2026-05-01 (due 2026-04-30): fee 25.00;
        // its interest 4.28 is computed, not posted.
        let a = assessed(
            &montello(),
            "10000.00",
            "500.00",
            &Timing::filed(d("2026-05-01")),
        );
        assert_eq!(a.interest, m("4.28"));
        let j = return_version_journal(&posted(&a, None, 1)).unwrap();
        assert_eq!(j.kind(), JournalKind::ReturnFiled);
        assert_eq!(j.posted_on(), d("2026-05-01"));
        assert_eq!(
            amounts(&j),
            vec![
                ("payor:motel-1:2026-Q1:tax".into(), 42750),
                ("municipality:revenue:tax".into(), -42750),
                ("payor:motel-1:2026-Q1:late_filing_fee".into(), 2500),
                ("municipality:revenue:late_filing_fee".into(), -2500),
            ]
        );
        assert_eq!(j.cause().cause_id(), "r1:1");
    }

    #[test]
    fn a_zero_return_posts_zero_tax_lines() {
        let a = assessed(&hayward(), "0.00", "0.00", &Timing::filed(d("2026-04-10")));
        let j = return_version_journal(&posted(&a, None, 1)).unwrap();
        assert_eq!(
            amounts(&j),
            vec![
                ("payor:motel-1:2026-Q1:tax".into(), 0),
                ("municipality:revenue:tax".into(), 0),
            ]
        );
    }

    #[test]
    fn amendments_post_the_principal_difference_only() {
        // Up: 427.50 → 472.50, +45.00 (its interest 1.35 is not posted, nor the fee again).
        let p = montello();
        let t = Timing::filed(d("2026-05-01"));
        let v1 = assessed(&p, "10000.00", "500.00", &t);
        let v2 = assessed(&p, "11000.00", "500.00", &t);
        let h = PolicyHistory::single(p.clone()).unwrap();
        let up = amend(&h, &v1, &v2, d("2026-07-15"), None).unwrap();
        let j = return_version_journal(&PostedVersion {
            filed_on: d("2026-07-15"),
            ..posted(&v2, Some(&up), 2)
        })
        .unwrap();
        assert_eq!(j.kind(), JournalKind::ReturnAmended);
        assert_eq!(j.posted_on(), d("2026-07-15"));
        assert_eq!(
            amounts(&j),
            vec![
                ("payor:motel-1:2026-Q1:tax".into(), 4500),
                ("municipality:revenue:tax".into(), -4500),
            ]
        );
        // Down: 427.50 → 382.50, −45.00 credited to the period's tax.
        let v3 = assessed(&p, "9000.00", "500.00", &t);
        let down = amend(&h, &v1, &v3, d("2026-07-15"), None).unwrap();
        let j = return_version_journal(&posted(&v3, Some(&down), 2)).unwrap();
        assert_eq!(
            amounts(&j),
            vec![
                ("payor:motel-1:2026-Q1:tax".into(), -4500),
                ("municipality:revenue:tax".into(), 4500),
            ]
        );
    }

    proptest! {
        /// Every journal a filing or an amendment builds sums to zero and is
        /// not empty, whatever the receipts and dates, in both presets.
        #[test]
        fn every_return_journal_sums_to_zero(
            hay in any::<bool>(),
            gross in 0i64..50_000_000,
            exempt_share in 0i64..=100,
            new_gross in 0i64..50_000_000,
            late_days in 0u64..400,
            amend_after in 0u64..400,
        ) {
            let p = if hay { hayward() } else { montello() };
            let cents = |c: i64| Money::from_cents(c).to_string();
            let filed_on = d("2026-04-01") + chrono::Days::new(late_days);
            let t = Timing::filed(filed_on);
            let v1 = assessed(&p, &cents(gross), &cents(gross * exempt_share / 100), &t);
            let j1 = return_version_journal(&posted(&v1, None, 1)).unwrap();
            prop_assert_eq!(journal_sum(&j1), 0);
            let v2 = assessed(&p, &cents(new_gross), "0.00", &t);
            let h = PolicyHistory::single(p.clone()).unwrap();
            let diff = amend(&h, &v1, &v2, filed_on + chrono::Days::new(amend_after), None).unwrap();
            let j2 = return_version_journal(&posted(&v2, Some(&diff), 2)).unwrap();
            prop_assert_eq!(journal_sum(&j2), 0);
            prop_assert!(!j2.lines().is_empty());
            // The two versions' tax lines add up to the new version's principal.
            let tax_of = |j: &Journal| j.lines()[0].amount_cents;
            prop_assert_eq!(tax_of(&j1) + tax_of(&j2), v2.principal().cents());
        }
    }
}

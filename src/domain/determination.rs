//! Determinations: amounts the clerk-treasurer sets in writing (issue 9 item 6).
//!
//! Contract: pure (no I/O). The use case (`usecases::ledger::determinations`)
//! reads the stored facts and calls these rules:
//! - [`DeterminationKind`]: `office_audit`, `field_audit` (Montello room tax,
//!   audit ¶A and ¶B; Hayward: records ¶ and Wis. Stat. § 66.0615(2)(a), the
//!   statute's audit power), `non_filer_estimate` (Montello, non-filer estimate
//!   ¶; Hayward, estimate), `fraud` (Montello, fraud ¶; Hayward, fraud);
//! - the four-year limit ([`limit_deadline`], [`check_limit`]): Wis. Stat.
//!   § 66.0615(2)(a), a determination is made in writing within 4 years after
//!   the due date of the return, unless no return was filed. "The due date of
//!   the return" is the filing due date, extended when the clerk granted an
//!   extension (DESIGN §3: an extension moves the due date for every purpose
//!   but interest). The deadline is the same day 48 months later (a 29
//!   February due date ends on 28 February); a determination on the deadline
//!   is in time, the day after is refused (field `determined_on`, rule
//!   `four_year_limit`, the detail naming the statute and the deadline). A
//!   non-filer estimate has no limit (no return was filed). Montello's field
//!   audit ¶ says nothing "shall prevent ... a determination of tax at any
//!   time"; an ordinance cannot extend the statute's limit, so the limit
//!   applies to audits and fraud findings in both municipalities;
//! - Hayward's yearly cap on estimate forfeitures: [`penalties_in_year`] sums
//!   the penalties of the payor's earlier estimates whose period falls in the
//!   same calendar year; `compute::non_filer_estimate` limits the new one;
//! - the journals: [`determination_journal`] (kind `determination`, cause the
//!   determination; each charge debits the payor's component of the period
//!   and credits the municipality's revenue of that component; an audit that
//!   finds less tax posts a negative tax charge) and [`replacement_journal`]
//!   (kind `estimate_replaced`: a return filed for an estimated period takes
//!   back the estimate's tax; its penalty stands).

use std::fmt;

use chrono::{Datelike, Months, NaiveDate};
use serde::{Deserialize, Serialize};

use crate::domain::error::DomainError;
use crate::domain::ledger::{Account, Cause, Component, Journal, JournalKind, JournalLine};
use crate::domain::money::Money;
use crate::domain::period::Period;

/// The statute behind the limit.
pub const LIMIT_CITATION: &str = "Wis. Stat. § 66.0615(2)(a): a determination shall be made in writing within 4 years after the due date of the return, unless no return was filed";

/// The statute's best-judgment determination for a non-filer (what an estimate notice tells the payor).
pub const ESTIMATE_STATUTE: &str = "Wis. Stat. § 66.0615(2)(c) and (d): a non-filer's tax determined on the best information available bears interest on the unpaid balance, and is not refunded or changed until a correct return is filed and the records are audited";

/// What kind of determination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeterminationKind {
    /// An office audit of a return on file.
    OfficeAudit,
    /// A field audit (books and records examined) of a return on file.
    FieldAudit,
    /// The clerk's estimate for a period with no return filed.
    NonFilerEstimate,
    /// A false or fraudulent return: the 50 % penalty.
    Fraud,
}

impl DeterminationKind {
    /// Every kind.
    pub const ALL: [DeterminationKind; 4] = [
        DeterminationKind::OfficeAudit,
        DeterminationKind::FieldAudit,
        DeterminationKind::NonFilerEstimate,
        DeterminationKind::Fraud,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            DeterminationKind::OfficeAudit => "office_audit",
            DeterminationKind::FieldAudit => "field_audit",
            DeterminationKind::NonFilerEstimate => "non_filer_estimate",
            DeterminationKind::Fraud => "fraud",
        }
    }

    /// The kind named `text`.
    pub fn parse(text: &str) -> Option<DeterminationKind> {
        DeterminationKind::ALL
            .into_iter()
            .find(|k| k.as_str() == text)
    }

    /// Whether it audits a return on file (and so needs one).
    pub fn is_audit(self) -> bool {
        matches!(
            self,
            DeterminationKind::OfficeAudit | DeterminationKind::FieldAudit
        )
    }

    /// The ordinance paragraph that empowers the clerk, by municipality slug.
    pub fn authority(self, municipality: &str) -> &'static str {
        let hayward = municipality == "hayward";
        match (self, hayward) {
            (DeterminationKind::OfficeAudit, false) => {
                "Montello room tax, audit ¶A: the Municipal Clerk-Treasurer \"may, by office audit, determine the tax required to be paid\""
            }
            (DeterminationKind::FieldAudit, false) => {
                "Montello room tax, audit ¶B: the Municipal Clerk-Treasurer \"may, by field audit, determine the tax required to be paid\""
            }
            (DeterminationKind::OfficeAudit | DeterminationKind::FieldAudit, true) => {
                "Hayward room tax, records: records are kept \"to enable the City Clerk/Treasurer to determine the tax due\"; Wis. Stat. § 66.0615(2)(a) (audit)"
            }
            (DeterminationKind::NonFilerEstimate, false) => {
                "Montello room tax, non-filer estimate ¶: the Clerk-Treasurer \"shall make an estimate of the amount of the gross receipts\" of a person who fails to file"
            }
            (DeterminationKind::NonFilerEstimate, true) => {
                "Hayward room tax, estimate: \"the City Clerk/Treasurer shall make an estimate of the amount of the gross receipts\" of a person who fails to timely file"
            }
            (DeterminationKind::Fraud, false) => {
                "Montello room tax, fraud ¶: \"a penalty of 50% shall be added to the tax required to be paid, exclusive of interest and other penalties\""
            }
            (DeterminationKind::Fraud, true) => {
                "Hayward room tax, fraud: \"a penalty of 50% shall be added to the tax required to be paid exclusive of interest and other penalties\""
            }
        }
    }

    /// A title for its notice.
    pub fn title(self) -> &'static str {
        match self {
            DeterminationKind::OfficeAudit => "Notice of office audit determination",
            DeterminationKind::FieldAudit => "Notice of field audit determination",
            DeterminationKind::NonFilerEstimate => "Notice of non-filer estimate",
            DeterminationKind::Fraud => "Notice of fraud penalty determination",
        }
    }
}

impl fmt::Display for DeterminationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The last day a determination of a return due `due_date` may be made
/// (48 months later, clamped to the month's end).
pub fn limit_deadline(due_date: NaiveDate) -> NaiveDate {
    due_date
        .checked_add_months(Months::new(48))
        .unwrap_or(NaiveDate::MAX)
}

/// Refuse a determination made after the limit (see the module doc):
/// `return_due_date` is the filed return's (extended) due date, `None` when
/// no return was filed (no limit).
pub fn check_limit(
    return_due_date: Option<NaiveDate>,
    determined_on: NaiveDate,
) -> Result<(), DomainError> {
    let Some(due) = return_due_date else {
        return Ok(());
    };
    let deadline = limit_deadline(due);
    if determined_on > deadline {
        return Err(DomainError::invalid(
            "determined_on",
            "four_year_limit",
            format!(
                "the return was due {due}: a determination had to be made by {deadline} ({LIMIT_CITATION})"
            ),
        ));
    }
    Ok(())
}

/// The penalties of the payor's earlier estimates whose period falls in
/// `year` (the calendar year of a quarter: its last day's year).
pub fn penalties_in_year(earlier: &[(Period, Money)], year: i32) -> Money {
    earlier
        .iter()
        .filter(|(p, _)| p.last_day().year() == year)
        .map(|(_, m)| *m)
        .sum()
}

/// One charge a determination posts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeterminedCharge {
    /// `tax`, `estimate_penalty` or `fraud_penalty`.
    pub component: Component,
    /// The amount (negative: an audit found less tax than assessed).
    pub amount: Money,
}

/// The journal a determination posts (see the module doc). Charges of 0.00
/// are left out; when nothing is left the journal posts one 0.00 charge
/// (the fraud penalty for a fraud finding, else the tax: an audit confirming
/// the return), so every determination has its journal, and the same
/// charges always give the same lines.
pub fn determination_journal(
    payor_id: &str,
    determination_id: &str,
    period: Period,
    determined_on: NaiveDate,
    kind: DeterminationKind,
    charges: &[DeterminedCharge],
) -> Result<Journal, DomainError> {
    let mut lines = Vec::new();
    for c in charges {
        if c.amount.is_zero() {
            continue;
        }
        lines.push(JournalLine::debit(
            Account::payor(payor_id, period, c.component),
            c.amount,
        ));
        lines.push(JournalLine::credit(Account::Revenue(c.component), c.amount));
    }
    if lines.is_empty() {
        let zero = DeterminedCharge {
            component: if kind == DeterminationKind::Fraud {
                Component::FraudPenalty
            } else {
                Component::Tax
            },
            amount: Money::ZERO,
        };
        lines.push(JournalLine::debit(
            Account::payor(payor_id, period, zero.component),
            zero.amount,
        ));
        lines.push(JournalLine::credit(
            Account::Revenue(zero.component),
            zero.amount,
        ));
    }
    Journal::new(
        JournalKind::Determination,
        determined_on,
        Cause::Determination {
            determination_id: determination_id.to_owned(),
        },
        format!("determination {determination_id} ({kind}) for {period}"),
        lines,
    )
    .map_err(|e| DomainError::invalid("determination", "unbalanced", e.to_string()))
}

/// The journal that takes back an estimate's tax once a return is filed for
/// its period (posted on the filing date; the penalty is not touched).
pub fn replacement_journal(
    payor_id: &str,
    determination_id: &str,
    period: Period,
    filed_on: NaiveDate,
    estimate_tax: Money,
) -> Result<Journal, DomainError> {
    Journal::new(
        JournalKind::EstimateReplaced,
        filed_on,
        Cause::Determination {
            determination_id: determination_id.to_owned(),
        },
        format!(
            "estimate {determination_id} for {period}: its tax replaced by the return filed {filed_on}; the penalty stands"
        ),
        vec![
            JournalLine::credit(Account::payor(payor_id, period, Component::Tax), estimate_tax),
            JournalLine::debit(Account::Revenue(Component::Tax), estimate_tax),
        ],
    )
    .map_err(|e| DomainError::invalid("determination", "unbalanced", e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::non_filer_estimate;
    use crate::domain::compute::test_values::{d, m};
    use crate::domain::ledger::journal::sum_cents;
    use crate::domain::presets::hayward;

    fn p(s: &str) -> Period {
        Period::parse(s).unwrap()
    }

    #[test]
    fn the_limit_is_four_years_after_the_due_date() {
        // Due 2025-04-30: last day 2029-04-30; 2029-05-01 is late.
        assert_eq!(limit_deadline(d("2025-04-30")), d("2029-04-30"));
        assert!(check_limit(Some(d("2025-04-30")), d("2029-04-30")).is_ok());
        let late = check_limit(Some(d("2025-04-30")), d("2029-05-01")).unwrap_err();
        let text = late.to_string();
        assert!(text.contains("2029-04-30"), "{text}");
        assert!(text.contains("66.0615(2)(a)"), "{text}");
        match late {
            DomainError::Invalid { field, rule, .. } => {
                assert_eq!(
                    (field.as_str(), rule.as_str()),
                    ("determined_on", "four_year_limit")
                );
            }
            other => panic!("{other:?}"),
        }
        // 29 February: 48 months later is 29 February again (a leap year);
        // a date with no match ends on the month's last day.
        assert_eq!(limit_deadline(d("2024-02-29")), d("2028-02-29"));
        assert_eq!(limit_deadline(d("2023-02-28")), d("2027-02-28"));
        // No return filed: no limit, however late.
        assert!(check_limit(None, d("2099-01-01")).is_ok());
    }

    #[test]
    fn the_cap_sums_only_the_same_calendar_years_estimates() {
        let earlier = [
            (p("2026-Q1"), m("2000.00")),
            (p("2026-Q2"), m("2400.00")),
            (p("2025-Q4"), m("3000.00")),
        ];
        assert_eq!(penalties_in_year(&earlier, 2026), m("4400.00"));
        assert_eq!(penalties_in_year(&earlier, 2025), m("3000.00"));
        assert_eq!(penalties_in_year(&earlier, 2024), m("0.00"));
        // Hayward, Q3 2026 on 400,000.00: tax 16,000.00, 10 % = 1,600.00,
        // but only 5,000.00 − 4,400.00 = 600.00 is left under the cap.
        let e = non_filer_estimate(
            &hayward(),
            m("400000.00"),
            penalties_in_year(&earlier, 2026),
        )
        .unwrap();
        assert_eq!(
            (e.tax.amount, e.penalty.amount),
            (m("16000.00"), m("600.00"))
        );
    }

    #[test]
    fn journals_balance_and_name_their_cause() {
        let charges = [
            DeterminedCharge {
                component: Component::Tax,
                amount: m("800.00"),
            },
            DeterminedCharge {
                component: Component::EstimatePenalty,
                amount: m("80.00"),
            },
        ];
        let j = determination_journal(
            "p1",
            "d1",
            p("2026-Q1"),
            d("2026-06-01"),
            DeterminationKind::NonFilerEstimate,
            &charges,
        )
        .unwrap();
        assert_eq!(j.kind(), JournalKind::Determination);
        assert_eq!(j.cause().cause_id(), "d1");
        assert_eq!(sum_cents(j.lines().iter().map(|l| l.amount_cents)), 0);
        let names: Vec<(String, i64)> = j
            .lines()
            .iter()
            .map(|l| (l.account.to_string(), l.amount_cents))
            .collect();
        assert_eq!(
            names,
            vec![
                ("payor:p1:2026-Q1:tax".into(), 80000),
                ("municipality:revenue:tax".into(), -80000),
                ("payor:p1:2026-Q1:estimate_penalty".into(), 8000),
                ("municipality:revenue:estimate_penalty".into(), -8000),
            ]
        );
        // A fraud finding posts only its penalty; an audit confirming the
        // return posts 0.00 of tax.
        let fraud = determination_journal(
            "p1",
            "d2",
            p("2026-Q1"),
            d("2026-06-01"),
            DeterminationKind::Fraud,
            &[DeterminedCharge {
                component: Component::FraudPenalty,
                amount: m("45.00"),
            }],
        )
        .unwrap();
        assert_eq!(fraud.lines().len(), 2);
        assert_eq!(fraud.lines()[0].amount_cents, 4500);
        let nil = determination_journal(
            "p1",
            "d3",
            p("2026-Q1"),
            d("2026-06-01"),
            DeterminationKind::OfficeAudit,
            &[DeterminedCharge {
                component: Component::Tax,
                amount: Money::ZERO,
            }],
        )
        .unwrap();
        assert_eq!(nil.lines().len(), 2);
        let r =
            replacement_journal("p1", "d1", p("2026-Q1"), d("2026-07-01"), m("800.00")).unwrap();
        assert_eq!(r.kind(), JournalKind::EstimateReplaced);
        assert_eq!(r.lines()[0].amount_cents, -80000);
        assert_eq!(sum_cents(r.lines().iter().map(|l| l.amount_cents)), 0);
    }

    #[test]
    fn kinds_round_trip() {
        for k in DeterminationKind::ALL {
            assert_eq!(DeterminationKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(DeterminationKind::parse("desk_audit"), None);
    }
}

//! Request and response bodies of determinations.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    domain::{Line, Money, Period, determination::DeterminationKind},
    usecases::ledger::determinations::DeterminationRecord,
};

/// A determination as the clerk-treasurer makes it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeterminationRequest {
    /// `office_audit`, `field_audit` (a return on file), `non_filer_estimate` (no return filed) or `fraud` (a false or fraudulent return on file).
    pub kind: DeterminationKind,
    /// The calendar quarter determined, e.g. "2026-Q1".
    #[schema(value_type = String, example = "2026-Q1")]
    pub period: Period,
    /// The local date the determination is made (default today; not after today; after the quarter's end; audits and fraud within 4 years after the return's due date).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub determined_on: Option<NaiveDate>,
    /// The clerk-treasurer's written basis (1 to 4,000 characters), e.g. the records examined.
    pub basis: String,
    /// Audits: the audited gross receipts of the quarter (with `exempt_receipts`), instead of `tax_found`.
    #[serde(default)]
    pub gross_receipts: Option<Money>,
    /// Audits: the audited exempt receipts (default "0.00" when `gross_receipts` is given).
    #[serde(default)]
    pub exempt_receipts: Option<Money>,
    /// Audits: the tax found due for the quarter, instead of receipts.
    #[serde(default)]
    pub tax_found: Option<Money>,
    /// Non-filer estimates: the estimated gross receipts of the quarter.
    #[serde(default)]
    pub estimated_receipts: Option<Money>,
}

/// A charge a determination posted.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DeterminationCharges {
    /// The tax charged: an audit's difference from the tax already assessed (negative when the audit found less), an estimate's tax; "0.00" for a fraud finding.
    pub tax: Money,
    /// The 10 % penalty of a non-filer estimate (Hayward: capped at 5,000.00 a calendar year).
    pub estimate_penalty: Money,
    /// The 50 % fraud penalty.
    pub fraud_penalty: Money,
    /// The three added.
    pub total: Money,
}

/// A determination made.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Determination {
    /// Its id.
    pub id: String,
    /// The payor.
    pub payor_id: String,
    /// Its kind.
    pub kind: DeterminationKind,
    /// The quarter.
    #[schema(value_type = String)]
    pub period: Period,
    /// The local date it was made.
    #[schema(value_type = String, format = Date)]
    pub determined_on: NaiveDate,
    /// The clerk-treasurer's written basis.
    pub basis: String,
    /// Audits: the audited gross receipts; estimates: the estimated receipts.
    pub gross_receipts: Option<Money>,
    /// Audits: the audited exempt receipts.
    pub exempt_receipts: Option<Money>,
    /// The quarter's tax as the determination found it (audit: the audited tax; estimate: the estimated tax; fraud: the tax the penalty is 50 % of).
    pub tax_found: Option<Money>,
    /// What its journal charged.
    pub charges: DeterminationCharges,
    /// How each amount was computed, with its inputs and citation.
    pub lines: Vec<Line>,
    /// The provisions relied on (ordinance paragraphs and statute).
    pub citations: Vec<String>,
    /// Audits and fraud: the last day of the 4-year limit (Wis. Stat. § 66.0615(2)(a)); absent for an estimate.
    #[schema(value_type = Option<String>, format = Date)]
    pub limit_date: Option<NaiveDate>,
    /// The ledger journal it posted (kind `determination`).
    pub journal_id: String,
    /// The written notice issued with it (kind `determination` or `estimate`).
    pub notice_id: String,
    /// Who made it (`user:ID`).
    pub determined_by: String,
}

/// A payor's determinations.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DeterminationList {
    /// Oldest first.
    pub items: Vec<Determination>,
}

impl From<DeterminationRecord> for Determination {
    fn from(d: DeterminationRecord) -> Self {
        let tax = Money::from_cents(d.row.tax_charged_cents);
        let estimate_penalty = Money::from_cents(d.row.estimate_penalty_cents);
        let fraud_penalty = Money::from_cents(d.row.fraud_penalty_cents);
        Determination {
            id: d.row.id,
            payor_id: d.row.payor_id,
            kind: d.kind,
            period: d.period,
            determined_on: d.row.determined_on,
            basis: d.row.basis,
            gross_receipts: d.content.gross_receipts,
            exempt_receipts: d.content.exempt_receipts,
            tax_found: d.content.tax_found,
            charges: DeterminationCharges {
                tax,
                estimate_penalty,
                fraud_penalty,
                total: tax + estimate_penalty + fraud_penalty,
            },
            lines: d.content.lines,
            citations: d.content.citations,
            limit_date: d.content.limit_date,
            journal_id: d.row.journal_id,
            notice_id: d.row.notice_id,
            determined_by: d.row.determined_by,
        }
    }
}

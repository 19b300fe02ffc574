//! What the returns API shows: a return as one of its versions, lists of
//! them, obligations and the period view.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    domain::{
        DateLine, Line, Money, Period,
        obligations::{Obligation, ObligationStatus},
        returns::{EstablishmentReceipts, ExemptionClaim, QuarterReceipts, Reconciliation, Signer},
    },
    usecases::returns::{ReturnRecord, reading::PeriodEntry},
};

/// A return as one of its versions, with everything the engine computed.
#[derive(Debug, Serialize, ToSchema)]
pub struct TaxReturn {
    /// Return id (the same for every version).
    pub id: String,
    /// The payor it is filed for.
    pub payor_id: String,
    /// The return's period.
    pub period: Period,
    /// `quarterly` or `annual`.
    pub kind: String,
    /// This version's number: 1 is the original, each amendment adds one.
    pub version: i64,
    /// The latest version's number (the `ETag` an amendment must name).
    pub latest_version: i64,
    /// `filed`, `filed_late` (the original came after its filing due date) or
    /// `incomplete` (a document the policy requires is not attached: see `missing_attachments`).
    pub status: String,
    /// How this version came: `filed`, `amended` or `annual_adjustment` (from the annual return).
    pub source: String,
    /// This version's filing date (the municipality's local date; a paper return's received date).
    pub filed_on: NaiveDate,
    /// A paper return's postmark or counter date, as staff entered it.
    pub received_on: Option<NaiveDate>,
    /// `operator` (filed online by the payor) or `staff` (entered by the clerk-treasurer or staff).
    pub entered_as: String,
    /// Gross receipts.
    pub gross_receipts: Money,
    /// Exempt receipts (the sum of `exemptions`, or as the annual return stated them).
    pub exempt_receipts: Money,
    /// Gross less exempt receipts.
    pub taxable_receipts: Money,
    /// Exemptions claimed, by the policy's codes.
    pub exemptions: Vec<ExemptionClaim>,
    /// Gross receipts per establishment, when given.
    pub establishments: Option<Vec<EstablishmentReceipts>>,
    /// Room nights sold, when given.
    pub nights_sold: Option<u32>,
    /// An annual return's receipts by quarter (empty for a quarter).
    pub quarters: Vec<QuarterReceipts>,
    /// Who signed and attested it.
    pub signer: Signer,
    /// Due date of the return and its tax (interest runs from it; an extension never moves it).
    pub due_date: NaiveDate,
    /// The date it had to be filed by: the due date, or the extended date granted.
    pub filing_due_date: NaiveDate,
    /// Room tax on the taxable receipts (an annual return: 0.00, the year's tax was owed quarterly).
    pub tax: Money,
    /// Interest on tax paid late (the tax accompanies the return).
    pub interest: Money,
    /// Fee for a return filed after its filing due date.
    pub late_filing_fee: Money,
    /// Montello's forfeiture for tax paid more than 30 days late.
    pub late_payment_forfeiture: Money,
    /// What this version owes: the original's tax, interest and fees; an
    /// amendment's additional tax and its interest; an annual return's adjustments.
    pub amount_due: Money,
    /// Against the previous version: new tax − previous tax (null for the original).
    pub tax_difference: Option<Money>,
    /// Interest on the additional tax from the original due date (null for the original).
    pub difference_interest: Option<Money>,
    /// Tax credited by this version (a decrease; null for the original).
    pub credit: Option<Money>,
    /// The policy version used, by its effective date.
    pub policy_version: NaiveDate,
    /// Attachment kinds the policy requires and the return lacks.
    pub missing_attachments: Vec<String>,
    /// An annual return's reconciliation with the quarterly returns on file.
    pub reconciliation: Option<Reconciliation>,
    /// Every amount explained: code, amount, rule, citation, inputs.
    pub lines: Vec<Line>,
    /// Every date explained.
    pub dates: Vec<DateLine>,
    /// When this version was recorded (UTC).
    pub recorded_at: DateTime<Utc>,
}

impl TaxReturn {
    /// Version `index` (0 = the original) of `record`.
    pub fn of_version(record: &ReturnRecord, index: usize) -> TaxReturn {
        let v = &record.versions[index];
        let a = &v.assessed.assessment;
        let mut lines = a.lines.clone();
        if let Some(d) = &v.assessed.difference {
            lines.extend(d.lines.iter().cloned());
        }
        if let Some(r) = &v.assessed.reconciliation {
            lines.extend(r.lines.iter().cloned());
        }
        TaxReturn {
            id: record.header.id.clone(),
            payor_id: record.header.payor_id.clone(),
            period: a.period,
            kind: record.header.kind.clone(),
            version: v.row.version,
            latest_version: record.latest().row.version,
            status: record.status().to_owned(),
            source: v.row.source.clone(),
            filed_on: v.row.filed_on,
            received_on: v.row.received_on,
            entered_as: v.entered_as().to_owned(),
            gross_receipts: a.gross_receipts,
            exempt_receipts: a.exempt_receipts,
            taxable_receipts: a.gross_receipts - a.exempt_receipts,
            exemptions: v.filing.exemptions.clone(),
            establishments: v.filing.establishments.clone(),
            nights_sold: v.filing.nights_sold,
            quarters: v.filing.quarters.clone(),
            signer: v.filing.signer.clone(),
            due_date: a.due_date,
            filing_due_date: a.filing_due_date,
            tax: a.tax,
            interest: a.interest,
            late_filing_fee: a.late_filing_fee,
            late_payment_forfeiture: a.late_payment_forfeiture,
            amount_due: Money::from_cents(v.row.amount_due_cents),
            tax_difference: v.assessed.difference.as_ref().map(|d| d.tax_difference),
            difference_interest: v.assessed.difference.as_ref().map(|d| d.interest),
            credit: v.assessed.difference.as_ref().map(|d| d.credit),
            policy_version: a.policy_version,
            missing_attachments: record.missing_attachments.clone(),
            reconciliation: v.assessed.reconciliation.clone(),
            lines,
            dates: a.dates.clone(),
            recorded_at: v.row.created_at.and_utc(),
        }
    }

    /// The latest version of `record`.
    pub fn latest(record: &ReturnRecord) -> TaxReturn {
        Self::of_version(record, record.versions.len() - 1)
    }
}

/// Every version of a return, the original first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReturnVersionList {
    /// The versions, oldest first.
    pub items: Vec<TaxReturn>,
}

/// One return the payor owes.
#[derive(Debug, Serialize, ToSchema)]
pub struct ObligationView {
    /// The return's period.
    pub period: Period,
    /// `quarterly` or `annual`.
    pub kind: String,
    /// Its due date.
    pub due_date: NaiveDate,
    /// The date it must be filed by (the extended date when one was granted).
    pub filing_due_date: NaiveDate,
    /// `filed`, `filed_late`, `missing`, `not_yet_due` or `extended`.
    #[schema(value_type = String, example = "missing")]
    pub status: ObligationStatus,
    /// The return on file, if any.
    pub return_id: Option<String>,
    /// When it was filed, if it was.
    pub filed_on: Option<NaiveDate>,
}

impl From<Obligation> for ObligationView {
    fn from(o: Obligation) -> Self {
        ObligationView {
            period: o.period,
            kind: match o.kind {
                crate::domain::DueKind::Quarterly => "quarterly",
                crate::domain::DueKind::Annual => "annual",
            }
            .to_owned(),
            due_date: o.due_date,
            filing_due_date: o.filing_due_date,
            status: o.status,
            return_id: o.return_id,
            filed_on: o.filed_on,
        }
    }
}

/// A payor's obligations in a range of due dates.
#[derive(Debug, Serialize, ToSchema)]
pub struct ObligationList {
    /// The returns due, by due date.
    pub items: Vec<ObligationView>,
}

/// One payor's return for the period in the municipality's view.
#[derive(Debug, Serialize, ToSchema)]
pub struct PeriodReturn {
    /// The payor.
    pub payor_id: String,
    /// Its legal name.
    pub legal_name: String,
    /// Where its return stands (`missing` when none is on file).
    pub obligation: ObligationView,
    /// Tax on its latest version (null when not filed).
    pub tax: Option<Money>,
    /// What the original filing owed (its tax, interest and fees; later versions'
    /// differences are on the return's versions); null when not filed.
    pub amount_due_on_filing: Option<Money>,
    /// The return's status (`filed`, `filed_late`, `incomplete`; null when not filed).
    pub return_status: Option<String>,
    /// Attachment kinds still missing.
    pub missing_attachments: Vec<String>,
}

impl From<PeriodEntry> for PeriodReturn {
    fn from(e: PeriodEntry) -> Self {
        let (tax, amount_due_on_filing, return_status, missing) = match &e.record {
            Some(r) => (
                Some(r.latest().assessed.assessment.tax),
                Some(Money::from_cents(r.original().row.amount_due_cents)),
                Some(r.status().to_owned()),
                r.missing_attachments.clone(),
            ),
            None => (None, None, None, Vec::new()),
        };
        PeriodReturn {
            payor_id: e.payor_id,
            legal_name: e.legal_name,
            obligation: e.obligation.into(),
            tax,
            amount_due_on_filing,
            return_status,
            missing_attachments: missing,
        }
    }
}

/// A page of the municipality's returns for a period.
#[derive(Debug, Serialize, ToSchema)]
pub struct PeriodReturnList {
    /// One entry per payor owing a return for the period, in payor-id order.
    pub items: Vec<PeriodReturn>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

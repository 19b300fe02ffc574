//! A return as stored: the header, its versions (the filing's details and
//! the engine's assessment kept as JSON beside the integer-cent columns),
//! and what its attachments leave missing.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::{
    db::returns::{ReturnRow, VersionRow},
    domain::{
        Period,
        returns::{
            Assessment, EstablishmentReceipts, ExemptionClaim, QuarterReceipts, Reconciliation,
            Signer, TaxDifference,
        },
    },
    error::ApiError,
    tenancy::EnteredAs,
};

/// The details of a filing that have no column of their own.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredFiling {
    /// Exemptions claimed.
    pub exemptions: Vec<ExemptionClaim>,
    /// Per-establishment receipts, when given.
    pub establishments: Option<Vec<EstablishmentReceipts>>,
    /// Room nights sold, when given.
    pub nights_sold: Option<u32>,
    /// An annual return's receipts by quarter.
    #[serde(default)]
    pub quarters: Vec<QuarterReceipts>,
    /// Who signed it (the filing was attested).
    pub signer: Signer,
    /// The annual return an adjustment comes from.
    #[serde(default)]
    pub from_annual_return: Option<String>,
}

/// What the engine computed for a version.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredAssessment {
    /// The assessment of the version's figures on the return's timing.
    pub assessment: Assessment,
    /// Against the previous version (none for the original).
    pub difference: Option<TaxDifference>,
    /// An annual return's reconciliation with the quarters.
    #[serde(default)]
    pub reconciliation: Option<Reconciliation>,
}

/// One version, read back.
#[derive(Debug, Clone)]
pub struct VersionRecord {
    /// Its row.
    pub row: VersionRow,
    /// Its details.
    pub filing: StoredFiling,
    /// Its assessment.
    pub assessed: StoredAssessment,
}

impl VersionRecord {
    /// Parse a stored version (a row that does not parse is an internal error).
    pub fn from_row(row: VersionRow) -> Result<Self, ApiError> {
        let filing = serde_json::from_str(&row.filing)
            .map_err(|e| ApiError::internal(format!("stored filing does not parse: {e}")))?;
        let assessed = serde_json::from_str(&row.assessment)
            .map_err(|e| ApiError::internal(format!("stored assessment does not parse: {e}")))?;
        Ok(Self {
            row,
            filing,
            assessed,
        })
    }

    /// Whose hand entered it.
    pub fn entered_as(&self) -> &str {
        &self.row.entered_as
    }

    /// Whether it was entered for the payor by staff.
    pub fn by_staff(&self) -> bool {
        self.row.entered_as == EnteredAs::Staff.as_str()
    }
}

/// A return with every version, the original first, and what it lacks.
#[derive(Debug, Clone)]
pub struct ReturnRecord {
    /// The header.
    pub header: ReturnRow,
    /// Every version, the original first (never empty).
    pub versions: Vec<VersionRecord>,
    /// Required attachment kinds not attached yet (Hayward: the state
    /// sales-tax return); non-empty makes the return `incomplete`.
    pub missing_attachments: Vec<String>,
}

impl ReturnRecord {
    /// The version in force: the latest.
    pub fn latest(&self) -> &VersionRecord {
        self.versions.last().expect("a return has a version")
    }

    /// The original filing.
    pub fn original(&self) -> &VersionRecord {
        self.versions.first().expect("a return has a version")
    }

    /// The return's period.
    pub fn period(&self) -> Result<Period, ApiError> {
        Period::parse(&self.header.period)
            .map_err(|_| ApiError::internal("stored return has an invalid period"))
    }

    /// `incomplete` (a required attachment is missing), `filed_late` (the
    /// original was filed after its filing due date) or `filed`.
    pub fn status(&self) -> &'static str {
        if !self.missing_attachments.is_empty() {
            "incomplete"
        } else if self.original().assessed.assessment.filed_late {
            "filed_late"
        } else {
            "filed"
        }
    }

    /// The local date the return was first filed.
    pub fn filed_on(&self) -> NaiveDate {
        self.original().row.filed_on
    }
}

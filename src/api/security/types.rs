//! Request and response bodies of security deposits.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    api::payments::{PaymentAllocation, PostedCharge},
    domain::Money,
    usecases::ledger::{
        payments::PaymentMethod,
        security::{AppliedDeposit, Deposit},
    },
};

/// A security deposit the clerk-treasurer requires of a payor.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecurityRequirementRequest {
    /// The amount required, more than "0.00" and at most the policy's maximum (Montello: "5000.00").
    pub amount: Money,
    /// Why the clerk-treasurer requires it (1 to 500 characters); printed on the notice.
    pub reason: String,
}

/// Money received for a deposit.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecurityReceiptRequest {
    /// The local date received (not after today, not before the requirement).
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub received_on: NaiveDate,
    /// The amount received; with earlier receipts at most the amount required.
    pub amount: Money,
    /// How it was paid: `check`, `ach`, `card` or `cash`.
    pub method: PaymentMethod,
    /// Check number, transaction id or receipt number (1 to 100 characters).
    pub reference: String,
}

/// The written notice of application (no fields: it is dated today).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecurityNoticeRequest {}

/// An application of the deposit to unpaid tax.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecurityApplicationRequest {
    /// The local date of the application (default today); at least 10 days after the notice.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub applied_on: Option<NaiveDate>,
}

/// The return of a deposit (no fields: it is returned today).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecurityReturnRequest {}

/// Where a deposit stands.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SecurityStatus {
    /// Required, nothing held.
    Required,
    /// Money held.
    Held,
    /// Returned (closed).
    Returned,
}

/// One event of a deposit.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SecurityEventBody {
    /// `received`, `application_notice`, `applied` or `returned`.
    pub kind: String,
    /// Its local date.
    #[schema(value_type = String, format = Date)]
    pub occurred_on: NaiveDate,
    /// The amount ("0.00" for a notice).
    pub amount: Money,
    /// The ledger journal it posted, if any.
    pub journal_id: Option<String>,
    /// The notice it issued, if any.
    pub notice_id: Option<String>,
}

/// A security deposit.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SecurityDeposit {
    /// Its id.
    pub id: String,
    /// The payor.
    pub payor_id: String,
    /// The amount required.
    pub required: Money,
    /// Why it was required.
    pub reason: String,
    /// The local date it was required.
    #[schema(value_type = String, format = Date)]
    pub required_on: NaiveDate,
    /// The `security_required` notice.
    pub notice_id: String,
    /// Received in all.
    pub received: Money,
    /// Applied to unpaid tax in all.
    pub applied: Money,
    /// Returned to the payor.
    pub returned: Money,
    /// Held now (received less applied and returned); it earns no interest.
    pub held: Money,
    /// Where it stands.
    pub status: SecurityStatus,
    /// The date of the latest notice of application, if any.
    #[schema(value_type = Option<String>, format = Date)]
    pub notice_given_on: Option<NaiveDate>,
    /// The first date it may be applied (notice + 10 days), if notice was given.
    #[schema(value_type = Option<String>, format = Date)]
    pub applicable_from: Option<NaiveDate>,
    /// What happened to it, oldest first.
    pub events: Vec<SecurityEventBody>,
}

impl From<Deposit> for SecurityDeposit {
    fn from(d: Deposit) -> Self {
        let s = d.state;
        let status = if s.closed {
            SecurityStatus::Returned
        } else if s.held().is_zero() {
            SecurityStatus::Required
        } else {
            SecurityStatus::Held
        };
        SecurityDeposit {
            id: d.row.id,
            payor_id: d.row.payor_id,
            required: s.required,
            reason: d.row.reason,
            required_on: d.row.required_on,
            notice_id: d.row.notice_id,
            received: s.received,
            applied: s.applied,
            returned: s.returned,
            held: s.held(),
            status,
            notice_given_on: s.notice_on,
            applicable_from: d.applicable_from,
            events: d
                .events
                .into_iter()
                .map(|e| SecurityEventBody {
                    kind: e.kind,
                    occurred_on: e.occurred_on,
                    amount: Money::from_cents(e.amount_cents),
                    journal_id: e.journal_id,
                    notice_id: e.notice_id,
                })
                .collect(),
        }
    }
}

/// A deposit's list.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SecurityDepositList {
    /// The payor's deposits, oldest first.
    pub items: Vec<SecurityDeposit>,
}

/// A receipt, notice or return recorded.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SecurityPosting {
    /// The deposit after it.
    pub deposit: SecurityDeposit,
    /// The ledger journal posted (a receipt, a return of money held).
    pub journal_id: Option<String>,
    /// The notice issued (a notice of application).
    pub notice_id: Option<String>,
}

/// An application recorded.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SecurityApplied {
    /// The deposit after it.
    pub deposit: SecurityDeposit,
    /// The `security_applied` journal.
    pub journal_id: String,
    /// The amount applied (at most what was held).
    pub applied: Money,
    /// The tax it settled, oldest period first (tax only).
    pub allocations: Vec<PaymentAllocation>,
    /// Interest (and Montello's forfeiture) posted because tax was settled; they remain owed.
    pub charges_posted: Vec<PostedCharge>,
}

impl From<AppliedDeposit> for SecurityApplied {
    fn from(a: AppliedDeposit) -> Self {
        SecurityApplied {
            deposit: a.deposit.into(),
            journal_id: a.journal_id,
            applied: a.applied,
            allocations: a
                .allocations
                .into_iter()
                .map(|x| PaymentAllocation {
                    period: x.period,
                    component: x.component.as_str().to_owned(),
                    amount: x.amount,
                })
                .collect(),
            charges_posted: a
                .charges
                .into_iter()
                .map(|c| PostedCharge {
                    period: c.period,
                    component: c.component.as_str().to_owned(),
                    amount: c.line.amount,
                    explanation: c.line.explanation,
                    citation: c.line.citation.into(),
                })
                .collect(),
        }
    }
}

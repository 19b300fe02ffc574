//! Returns: what an operator files, what it owes, what an amendment or the annual
//! return changes.
//!
//! Contract: pure (no I/O, no HTTP, no SQL) and no arithmetic of its own beyond sums
//! and differences: every amount comes from `domain::quote` and `domain::compute`, so a
//! quote and a filed return always agree. The engine computes, the return records:
//! the use cases store what these functions return (with the policy version used) and
//! post it to the ledger.
//!
//! Map:
//! - [`filing`]: the request body of a return ([`ReturnFiling`]) parsed against the
//!   policy and the payor's annual election into a checked [`Filing`], every fault at
//!   once;
//! - [`assess`]: what a filed return owes ([`Assessment`]) on its filing date,
//!   payment date and extension ([`Timing`]);
//! - [`amendment`]: the difference a new version makes ([`TaxDifference`]): additional
//!   tax with interest from the original due date, or a credit;
//! - [`annual`]: which quarters an annual return covers ([`quarters_of`]) and its
//!   reconciliation with the quarterly returns on file ([`Reconciliation`]).

pub mod amendment;
pub mod annual;
pub mod assess;
pub mod filing;

pub use amendment::{TaxDifference, amend};
pub use annual::{
    QuarterOnFile, QuarterReconciliation, QuarterStatus, Reconciliation, check_annual_period,
    quarters_of, reconcile,
};
pub use assess::{Assessment, Receipts, Timing, assess, assess_receipts};
pub use filing::{
    EstablishmentReceipts, ExemptionClaim, Filing, QuarterReceipts, ReturnFiling, Signer,
};

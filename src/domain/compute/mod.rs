//! The computations, one file per rule family. Each takes the governing [`Policy`]
//! (where the rule is the ordinance's) and returns its amount inside a [`Line`] (or a
//! date inside a [`DateLine`]) with rule id, inputs, sentence and citation; invalid input
//! is a [`DomainError::Invalid`](crate::domain::DomainError) naming the field and rule.
//!
//! [`Policy`]: crate::domain::Policy
//! [`Line`]: crate::domain::Line
//! [`DateLine`]: crate::domain::DateLine

pub mod distribution;
pub mod due;
pub mod enforcement;
pub mod estimate;
pub mod fees;
pub mod fraud;
pub mod interest;
pub mod payments;
pub mod seats;
pub mod tax;
pub mod vehicle_fee;

pub use distribution::{Distribution, distribute, distribute_outside_zone};
pub use due::{annual_due_date, extended_filing_due_date, quarterly_due_date, return_due_date};
pub use enforcement::{
    ForfeitureLimits, confidentiality_forfeiture_limits, security_application_date,
    security_deposit, violation_forfeiture_limits,
};
pub use estimate::{NonFilerEstimate, non_filer_estimate};
pub use fees::{collection_fee, late_filing_fee, late_payment_forfeiture};
pub use fraud::fraud_penalty;
pub use interest::{RefundInterestExclusions, interest, months_late, refund_interest};
pub use payments::{Allocation, Charge, PaymentApplication, apply_payment};
pub use seats::{SeatAllocation, commission_seats};
pub use tax::{tax, tax_on_taxable, taxable_receipts};
pub use vehicle_fee::{VehicleFeeRemittance, vehicle_fee_remittance};

use crate::domain::policy::Policy;

/// The citation of a rule the municipality's ordinance does not have.
pub(crate) fn no_provision(policy: &Policy) -> String {
    format!("{}: no such provision", policy.title)
}

/// Test values written as text: `m("12.34")` money, `d("2026-04-30")` a date,
/// `p("2026-Q1")` a period; `history(policy)` a policy history of that one version.
#[cfg(test)]
pub(crate) mod test_values {
    use chrono::NaiveDate;

    use crate::domain::money::Money;
    use crate::domain::period::Period;
    use crate::domain::policy::{Policy, PolicyHistory};

    /// The history of a municipality that has only ever had `policy`.
    pub fn history(policy: Policy) -> PolicyHistory {
        PolicyHistory::single(policy).unwrap()
    }

    /// Money from its decimal text.
    pub fn m(s: &str) -> Money {
        Money::parse(s).unwrap()
    }

    /// A date from its ISO 8601 text.
    pub fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    /// A period from its text (`2026-Q1`, `2025`, `FY2026-06`).
    pub fn p(s: &str) -> Period {
        s.parse().unwrap()
    }
}

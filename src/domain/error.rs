//! The one error type of the domain computations.
//!
//! Contract: [`DomainError::Invalid`] names the request field (exactly as the API spells
//! it, e.g. `exempt_receipts`) and a stable rule id (e.g. `exempt_not_above_gross`); the
//! API maps it to HTTP 422. [`DomainError::NoPolicy`] means no policy version of the
//! municipality was in force on the date that governs the computation.

use chrono::NaiveDate;

use super::money::{Money, MoneyParseError};
use super::period::PeriodParseError;

/// Why a computation could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    /// An input breaks a rule. `field` is the request field, `rule` a stable id.
    #[error("{field}: {message} (rule {rule})")]
    Invalid {
        /// The request field at fault, e.g. `exempt_receipts`.
        field: String,
        /// Stable machine id of the broken rule, e.g. `exempt_not_above_gross`.
        rule: String,
        /// A sentence for people, naming the limit that was broken.
        message: String,
    },
    /// No policy version was in force on `date` (a period's last day, usually).
    #[error("no policy version is in force on {date}")]
    NoPolicy {
        /// The date that needed a policy.
        date: NaiveDate,
    },
}

impl DomainError {
    /// Builds [`DomainError::Invalid`].
    pub fn invalid(field: &str, rule: &str, message: impl Into<String>) -> DomainError {
        DomainError::Invalid {
            field: field.to_owned(),
            rule: rule.to_owned(),
            message: message.into(),
        }
    }

    /// Maps a period that did not parse to `Invalid` on `field` (for the API's text input).
    pub fn from_period_parse(field: &str, error: &PeriodParseError) -> DomainError {
        DomainError::invalid(field, error.rule(), error.to_string())
    }

    /// Maps an amount that did not parse to `Invalid` on `field`.
    pub fn from_money_parse(field: &str, error: &MoneyParseError) -> DomainError {
        DomainError::invalid(field, error.rule(), error.to_string())
    }
}

/// Refuses a negative amount on `field` (rule `not_negative`).
pub fn require_not_negative(field: &str, amount: Money) -> Result<Money, DomainError> {
    if amount.is_negative() {
        Err(DomainError::invalid(
            field,
            "not_negative",
            format!("must not be negative (got {amount})"),
        ))
    } else {
        Ok(amount)
    }
}

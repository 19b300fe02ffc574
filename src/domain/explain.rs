//! Explanations: every computed figure carries its rule id, inputs, sentence and citation.
//!
//! Contract: the computations in `compute/` return a [`Line`] (the amount is
//! `line.amount`, so there is no separate `Computed` wrapper) or, for dates, a
//! [`DateLine`]. `code` is a stable rule id ("tax", "interest", "late_filing_fee", ...);
//! `explanation` is a sentence with the inputs written out; `citation` names the
//! ordinance paragraph (and statute) the rule comes from; `inputs` holds the inputs as
//! strings (amounts as two-decimal strings, dates ISO 8601, rates as decimals).

use std::collections::BTreeMap;

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{citation::Citation, money::Money};

/// One computed amount with the rule, inputs and ordinance citation it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Line {
    /// Stable rule id, e.g. `tax`, `interest`, `late_filing_fee`, `commission_share`.
    pub code: String,
    /// The amount computed, a decimal string with two decimals.
    pub amount: Money,
    /// A sentence for people with the inputs written out, e.g.
    /// "4.5 % of taxable receipts 12345.67 = 555.56".
    pub explanation: String,
    /// The ordinance paragraph and statute the rule comes from.
    #[schema(value_type = String)]
    pub citation: Citation,
    /// The inputs of the computation by name, as strings.
    pub inputs: BTreeMap<String, String>,
}

impl Line {
    /// Starts a line; add inputs with [`Line::input`].
    pub fn new(
        code: &str,
        amount: Money,
        explanation: impl Into<String>,
        citation: impl Into<Citation>,
    ) -> Line {
        Line {
            code: code.to_owned(),
            amount,
            explanation: explanation.into(),
            citation: citation.into(),
            inputs: BTreeMap::new(),
        }
    }

    /// Records one input by name.
    pub fn input(mut self, name: &str, value: impl ToString) -> Line {
        self.inputs.insert(name.to_owned(), value.to_string());
        self
    }
}

/// One computed date (a due date, a limit) with its rule, inputs and citation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DateLine {
    /// Stable rule id, e.g. `quarterly_due_date`, `annual_due_date`, `filing_due_date`.
    pub code: String,
    /// The date computed (ISO 8601).
    #[serde(serialize_with = "crate::domain::iso_date::serialize")]
    pub date: NaiveDate,
    /// A sentence for people with the inputs written out.
    pub explanation: String,
    /// The ordinance paragraph and statute the rule comes from.
    #[schema(value_type = String)]
    pub citation: Citation,
    /// The inputs of the computation by name, as strings.
    pub inputs: BTreeMap<String, String>,
}

impl DateLine {
    /// Starts a date line; add inputs with [`DateLine::input`].
    pub fn new(
        code: &str,
        date: NaiveDate,
        explanation: impl Into<String>,
        citation: impl Into<Citation>,
    ) -> DateLine {
        DateLine {
            code: code.to_owned(),
            date,
            explanation: explanation.into(),
            citation: citation.into(),
            inputs: BTreeMap::new(),
        }
    }

    /// Records one input by name.
    pub fn input(mut self, name: &str, value: impl ToString) -> DateLine {
        self.inputs.insert(name.to_owned(), value.to_string());
        self
    }
}

/// Writes a rate as a percentage for sentences: 0.045 → "4.5 %", 0.01 → "1 %".
pub fn percent(rate: Decimal) -> String {
    format!("{} %", (rate * Decimal::ONE_HUNDRED).normalize())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn percent_is_written_without_trailing_zeros() {
        for (rate, text) in [
            ("0.045", "4.5 %"),
            ("0.01", "1 %"),
            ("0.75", "75 %"),
            ("0", "0 %"),
            ("0.10", "10 %"),
        ] {
            assert_eq!(percent(Decimal::from_str(rate).unwrap()), text);
        }
    }

    #[test]
    fn line_serializes_amount_as_string() {
        let line = Line::new("tax", Money::from_cents(55556), "x", "c").input("rate", "0.045");
        let json = serde_json::to_value(&line).unwrap();
        assert_eq!(json["amount"], "555.56");
        assert_eq!(json["inputs"]["rate"], "0.045");
    }
}

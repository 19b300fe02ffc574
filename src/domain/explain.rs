//! Explanations: every computed figure carries its rule id, inputs, sentence and citation.
//!
//! Contract: the computations in `compute/` return a [`Line`] (the amount is
//! `line.amount`, so there is no separate `Computed` wrapper) or, for dates, a
//! [`DateLine`]. `code` is a stable rule id ("tax", "interest", "late_filing_fee", ...);
//! `explanation` is a sentence with the inputs written out; `citation` names the
//! ordinance paragraph (and statute) the rule comes from; `inputs` holds the inputs as
//! strings (amounts as two-decimal strings, dates ISO 8601, rates as decimals).

use std::{borrow::Cow, collections::BTreeMap};

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{citation::Citation, iso_date::Iso, money::Money, period::Period};

/// A rule id or an input's name: written in the code (`"tax"`, `"due_date"`), so
/// borrowed for the program's life rather than copied into every line; owned only
/// when read back from stored JSON.
pub type Name = Cow<'static, str>;

/// A line's inputs by name, in name order (as they are written in JSON).
pub type Inputs = BTreeMap<Name, String>;

/// A value recorded as a line's input: amounts with two decimals, dates in ISO
/// 8601, rates as decimals, counts, flags and periods as they read.
pub trait InputValue {
    /// The value as the input's string.
    fn input_text(&self) -> String;
}

impl InputValue for NaiveDate {
    fn input_text(&self) -> String {
        Iso(*self).to_string()
    }
}

impl<T: InputValue + ?Sized> InputValue for &T {
    fn input_text(&self) -> String {
        (**self).input_text()
    }
}

/// Values written as `Display` writes them.
macro_rules! input_by_display {
    ($($t:ty),* $(,)?) => {
        $(impl InputValue for $t {
            fn input_text(&self) -> String {
                self.to_string()
            }
        })*
    };
}

input_by_display!(
    Money, Decimal, Period, str, String, bool, u8, u16, u32, u64, usize, i32, i64
);

/// One computed amount with the rule, inputs and ordinance citation it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Line {
    /// Stable rule id, e.g. `tax`, `interest`, `late_filing_fee`, `commission_share`.
    #[schema(value_type = String)]
    pub code: Name,
    /// The amount computed, a decimal string with two decimals.
    pub amount: Money,
    /// A sentence for people with the inputs written out, e.g.
    /// "4.5 % of taxable receipts 12345.67 = 555.56".
    pub explanation: String,
    /// The ordinance paragraph and statute the rule comes from.
    #[schema(value_type = String)]
    pub citation: Citation,
    /// The inputs of the computation by name, as strings.
    #[schema(value_type = BTreeMap<String, String>)]
    pub inputs: Inputs,
}

impl Line {
    /// Starts a line; add inputs with [`Line::input`].
    pub fn new(
        code: impl Into<Name>,
        amount: Money,
        explanation: impl Into<String>,
        citation: impl Into<Citation>,
    ) -> Line {
        Line {
            code: code.into(),
            amount,
            explanation: explanation.into(),
            citation: citation.into(),
            inputs: BTreeMap::new(),
        }
    }

    /// Records one input by name.
    pub fn input(mut self, name: &'static str, value: impl InputValue) -> Line {
        self.inputs.insert(Cow::Borrowed(name), value.input_text());
        self
    }
}

/// One computed date (a due date, a limit) with its rule, inputs and citation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct DateLine {
    /// Stable rule id, e.g. `quarterly_due_date`, `annual_due_date`, `filing_due_date`.
    #[schema(value_type = String)]
    pub code: Name,
    /// The date computed (ISO 8601).
    #[serde(serialize_with = "crate::domain::iso_date::serialize")]
    pub date: NaiveDate,
    /// A sentence for people with the inputs written out.
    pub explanation: String,
    /// The ordinance paragraph and statute the rule comes from.
    #[schema(value_type = String)]
    pub citation: Citation,
    /// The inputs of the computation by name, as strings.
    #[schema(value_type = BTreeMap<String, String>)]
    pub inputs: Inputs,
}

impl DateLine {
    /// Starts a date line; add inputs with [`DateLine::input`].
    pub fn new(
        code: impl Into<Name>,
        date: NaiveDate,
        explanation: impl Into<String>,
        citation: impl Into<Citation>,
    ) -> DateLine {
        DateLine {
            code: code.into(),
            date,
            explanation: explanation.into(),
            citation: citation.into(),
            inputs: BTreeMap::new(),
        }
    }

    /// Records one input by name.
    pub fn input(mut self, name: &'static str, value: impl InputValue) -> DateLine {
        self.inputs.insert(Cow::Borrowed(name), value.input_text());
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

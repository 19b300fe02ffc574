//! Hand-written value types and OpenAPI schemas of the policy: [`MonthDay`] and the
//! schema of [`Cited`].
//!
//! Contract: `Cited<T>`'s schema is an object `{value, citation}` in which `value` keeps
//! `T`'s schema and always carries a description (utoipa's derive drops the description
//! of a generic field). It implements utoipa 6's `__dev::ComposeSchema`, the hook its
//! derive calls for generic types; a test in this file checks the generated document.

use std::fmt;
use std::str::FromStr;

use chrono::NaiveDate;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{
    KnownFormat, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type,
};

use super::{AnnualReturnRule, Cited};

/// A month and day recurring every year, written "MM-DD" (e.g. "07-04").
/// February 29 is refused (a fixed holiday must exist every year).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MonthDay {
    month: u32,
    day: u32,
}

impl MonthDay {
    /// Parses "MM-DD" (two digits each).
    pub fn parse(text: &str) -> Result<MonthDay, String> {
        let bad = || format!("a fixed holiday is written \"MM-DD\", e.g. \"07-04\" (got {text:?})");
        let (month, day) = text.split_once('-').ok_or_else(bad)?;
        let two_digits = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
        if !two_digits(month) || !two_digits(day) {
            return Err(bad());
        }
        let (month, day): (u32, u32) = (
            month.parse().map_err(|_| bad())?,
            day.parse().map_err(|_| bad())?,
        );
        if (month, day) == (2, 29) {
            return Err("February 29 does not recur every year: list it under dates".to_owned());
        }
        // 2023 is not a leap year, so this accepts exactly the days every year has.
        NaiveDate::from_ymd_opt(2023, month, day).ok_or_else(bad)?;
        Ok(MonthDay { month, day })
    }

    /// Month, 1..=12.
    pub fn month(&self) -> u32 {
        self.month
    }

    /// Day of the month.
    pub fn day(&self) -> u32 {
        self.day
    }
}

impl fmt::Display for MonthDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}-{:02}", self.month, self.day)
    }
}

impl FromStr for MonthDay {
    type Err = String;
    fn from_str(s: &str) -> Result<MonthDay, String> {
        MonthDay::parse(s)
    }
}

impl Serialize for MonthDay {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for MonthDay {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<MonthDay, D::Error> {
        let text = String::deserialize(deserializer)?;
        MonthDay::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for MonthDay {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some("A month and day recurring every year, \"MM-DD\"."))
            .pattern(Some(r"^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"))
            .examples([serde_json::Value::from("07-04")])
            .into()
    }
}

impl utoipa::ToSchema for MonthDay {
    fn name() -> std::borrow::Cow<'static, str> {
        "MonthDay".into()
    }
}

/// The schema of one tagged variant of [`AnnualReturnRule`].
fn annual_variant(kind: &str, description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .description(Some(description))
        .property(
            "kind",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some([kind]))
                .description(Some("Which annual-return rule this is.")),
        )
        .required("kind")
}

impl utoipa::PartialSchema for AnnualReturnRule {
    fn schema() -> RefOr<Schema> {
        let days = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
            .minimum(Some(1))
            .description(Some(
                "Days after the year's last day; the last of them is the due date.",
            ));
        OneOfBuilder::new()
            .description(Some("When the annual return is due."))
            .item(
                annual_variant(
                    "within_days_of_year_end",
                    "Within `days` days after the close of the elected calendar or fiscal year (Montello: 90).",
                )
                .property("days", days)
                .required("days"),
            )
            .item(annual_variant(
                "with_fourth_quarter_return",
                "A calendar-year return due with the fourth-quarter return (Hayward).",
            ))
            .into()
    }
}

impl utoipa::ToSchema for AnnualReturnRule {
    fn name() -> std::borrow::Cow<'static, str> {
        "AnnualReturnRule".into()
    }
}

const VALUE_DESCRIPTION: &str = "The value (rates are decimal strings: \"0.045\" is 4.5 %).";

/// Sets the description of a schema, whatever its kind.
fn described(schema: RefOr<Schema>, description: &str) -> RefOr<Schema> {
    let text = Some(description.to_owned());
    match schema {
        RefOr::Ref(mut reference) => {
            reference.description = description.to_owned();
            RefOr::Ref(reference)
        }
        RefOr::T(Schema::Object(mut s)) => {
            s.description = text;
            RefOr::T(Schema::Object(s))
        }
        RefOr::T(Schema::Array(mut s)) => {
            s.description = text;
            RefOr::T(Schema::Array(s))
        }
        RefOr::T(Schema::OneOf(mut s)) => {
            s.description = text;
            RefOr::T(Schema::OneOf(s))
        }
        RefOr::T(Schema::AllOf(mut s)) => {
            s.description = text;
            RefOr::T(Schema::AllOf(s))
        }
        RefOr::T(Schema::AnyOf(mut s)) => {
            s.description = text;
            RefOr::T(Schema::AnyOf(s))
        }
        other => other,
    }
}

impl<T> utoipa::__dev::ComposeSchema for Cited<T> {
    fn compose(generics: Vec<RefOr<Schema>>) -> RefOr<Schema> {
        let value = generics
            .into_iter()
            .next()
            .unwrap_or_else(|| utoipa::openapi::schema::empty().into());
        ObjectBuilder::new()
            .description(Some(
                "A value with the ordinance paragraph (and statute) it comes from.",
            ))
            .property("value", described(value, VALUE_DESCRIPTION))
            .property(
                "citation",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .description(Some(
                        "Where the value comes from, e.g. \"Montello room tax, interest ¶\".",
                    )),
            )
            .required("value")
            .required("citation")
            .into()
    }
}

impl<T: utoipa::ToSchema> utoipa::ToSchema for Cited<T> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_day_parses_fixed_holidays() {
        assert_eq!(
            MonthDay::parse("07-04").map(|m| (m.month(), m.day())),
            Ok((7, 4))
        );
        assert_eq!(MonthDay::parse("12-31").unwrap().to_string(), "12-31");
        for bad in [
            "7-4", "02-29", "02-30", "13-01", "00-10", "07/04", "07-04x", "",
        ] {
            assert!(MonthDay::parse(bad).is_err(), "{bad}");
        }
    }
}

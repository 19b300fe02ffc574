//! Calendar dates exactly as ISO 8601 writes them: `YYYY-MM-DD`, nothing else.
//!
//! Contract: [`parse`] accepts only ten characters, four-digit year, two-digit
//! month and day, a real calendar date (DESIGN §4: "Dates are ISO 8601
//! (`2026-04-30`)"). chrono's own parser is lenient (`2026-4-30`, `+2026-04-30`
//! and surrounding spaces pass it), so every request date goes through this
//! module instead: the serde helpers below are applied with
//! `#[serde(deserialize_with = ...)]` to each date field a client sends, and
//! query strings use the same helpers. Pure: no I/O, no HTTP.

use std::fmt;

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Deserializer, Serializer, de::Error as _};

/// The rule name a refused date reports.
pub const RULE: &str = "iso_8601_date";

/// The pattern of an ISO 8601 calendar date, as the OpenAPI document states it.
pub const PATTERN: &str = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$";

/// Parse `YYYY-MM-DD`; anything else (other widths, a time, a sign, spaces) is refused.
pub fn parse(text: &str) -> Result<NaiveDate, String> {
    let b = text.as_bytes();
    let shape_ok = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    if !shape_ok {
        return Err(format!(
            "`{}` is not an ISO 8601 date: write YYYY-MM-DD, e.g. 2026-04-30",
            text.escape_debug()
        ));
    }
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map_err(|_| format!("`{text}` is not a calendar date"))
}

/// `deserialize_with` for a `NaiveDate` field.
pub fn strict<'de, D: Deserializer<'de>>(de: D) -> Result<NaiveDate, D::Error> {
    let text = String::deserialize(de)?;
    parse(&text).map_err(D::Error::custom)
}

/// `deserialize_with` for an `Option<NaiveDate>` field (pair it with `#[serde(default)]`).
pub fn strict_option<'de, D: Deserializer<'de>>(de: D) -> Result<Option<NaiveDate>, D::Error> {
    match Option::<String>::deserialize(de)? {
        Some(text) => parse(&text).map(Some).map_err(D::Error::custom),
        None => Ok(None),
    }
}

/// `deserialize_with` for a patch field `Option<Option<NaiveDate>>`: absent is
/// `None` (with `#[serde(default)]`), `null` is `Some(None)`, a date `Some(Some(d))`.
pub fn strict_patch<'de, D: Deserializer<'de>>(
    de: D,
) -> Result<Option<Option<NaiveDate>>, D::Error> {
    strict_option(de).map(Some)
}

/// A date written as `YYYY-MM-DD` without going through `core::fmt` (chrono's
/// `Display` does, digit by digit): a quote writes a dozen dates, in its lines'
/// sentences and inputs and in its fields. Years outside 0..=9999 are written
/// by chrono (with their sign), as before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Iso(pub NaiveDate);

impl Iso {
    /// The ten bytes of the date, when its year has four digits.
    fn bytes(self) -> Option<[u8; 10]> {
        let (year, month, day) = (self.0.year(), self.0.month(), self.0.day());
        let year = u32::try_from(year).ok().filter(|y| *y <= 9999)?;
        let digit = |n: u32| b'0' + (n % 10) as u8;
        Some([
            digit(year / 1000),
            digit(year / 100),
            digit(year / 10),
            digit(year),
            b'-',
            digit(month / 10),
            digit(month),
            b'-',
            digit(day / 10),
            digit(day),
        ])
    }
}

impl fmt::Display for Iso {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bytes() {
            Some(bytes) => f.write_str(std::str::from_utf8(&bytes).expect("ASCII digits")),
            None => write!(f, "{}", self.0),
        }
    }
}

/// `serialize_with` for a `NaiveDate` field: the same text as chrono's, faster.
pub fn serialize<S: Serializer>(date: &NaiveDate, serializer: S) -> Result<S::Ok, S::Error> {
    match Iso(*date).bytes() {
        Some(bytes) => serializer.serialize_str(std::str::from_utf8(&bytes).expect("ASCII digits")),
        None => serializer.collect_str(date),
    }
}

/// `deserialize_with` for a list of dates.
pub fn strict_vec<'de, D: Deserializer<'de>>(de: D) -> Result<Vec<NaiveDate>, D::Error> {
    Vec::<String>::deserialize(de)?
        .iter()
        .map(|t| parse(t).map_err(D::Error::custom))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_iso_form_is_a_date() {
        assert_eq!(
            parse("2026-04-30").unwrap(),
            NaiveDate::from_ymd_opt(2026, 4, 30).unwrap()
        );
        for bad in [
            "2026-4-30",
            "2026-04-3",
            "2026-04-30T00:00",
            "+2026-04-30",
            " 2026-04-30",
            "2026-04-30 ",
            "20260430",
            "2026/04/30",
            "٢٠٢٦-04-30",
            "",
        ] {
            assert!(parse(bad).is_err(), "{bad:?} was accepted");
        }
        assert!(
            parse("2026-02-30")
                .unwrap_err()
                .contains("not a calendar date")
        );
    }

    #[test]
    fn written_as_chrono_writes_it() {
        for date in [
            NaiveDate::MIN,
            NaiveDate::from_ymd_opt(-1, 12, 31).unwrap(),
            NaiveDate::from_ymd_opt(0, 1, 1).unwrap(),
            NaiveDate::from_ymd_opt(7, 2, 3).unwrap(),
            NaiveDate::from_ymd_opt(999, 10, 9).unwrap(),
            NaiveDate::from_ymd_opt(2026, 4, 30).unwrap(),
            NaiveDate::from_ymd_opt(9999, 12, 31).unwrap(),
            NaiveDate::from_ymd_opt(10000, 1, 1).unwrap(),
            NaiveDate::MAX,
        ] {
            assert_eq!(Iso(date).to_string(), date.to_string());
            #[derive(serde::Serialize)]
            struct Out(#[serde(serialize_with = "serialize")] NaiveDate);
            assert_eq!(
                serde_json::to_string(&Out(date)).unwrap(),
                serde_json::to_string(&date).unwrap()
            );
        }
        let mut day = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap();
        while day.year() < 2027 {
            assert_eq!(Iso(day).to_string(), day.to_string());
            day = day.succ_opt().unwrap();
        }
    }

    #[derive(Debug, serde::Deserialize)]
    struct Body {
        #[serde(deserialize_with = "strict")]
        on: NaiveDate,
        #[serde(default, deserialize_with = "strict_option")]
        maybe: Option<NaiveDate>,
        #[serde(default, deserialize_with = "strict_patch")]
        patch: Option<Option<NaiveDate>>,
        #[serde(default, deserialize_with = "strict_vec")]
        many: Vec<NaiveDate>,
    }

    #[test]
    fn serde_helpers_apply_the_rule() {
        let b: Body = serde_json::from_str(r#"{"on":"2026-01-02"}"#).unwrap();
        assert_eq!(b.on, NaiveDate::from_ymd_opt(2026, 1, 2).unwrap());
        assert_eq!((b.maybe, b.patch, b.many.len()), (None, None, 0));
        let b: Body =
            serde_json::from_str(r#"{"on":"2026-01-02","maybe":null,"patch":null}"#).unwrap();
        assert_eq!((b.maybe, b.patch), (None, Some(None)));
        for bad in [
            r#"{"on":"2026-1-02"}"#,
            r#"{"on":"2026-01-02","maybe":"2026-01-02T00:00"}"#,
            r#"{"on":"2026-01-02","patch":"2026-1-2"}"#,
            r#"{"on":"2026-01-02","many":["2026-01-02","2026-1-3"]}"#,
        ] {
            assert!(serde_json::from_str::<Body>(bad).is_err(), "{bad}");
        }
    }
}

//! Tax periods: calendar quarters, calendar years and fiscal years.
//!
//! Contract:
//! - text forms (and JSON, as a string): `"2026-Q1"` (calendar quarter), `"2026"`
//!   (calendar year), `"FY2026-06"` (the fiscal year ending on the last day of June 2026,
//!   i.e. 2025-07-01..=2026-06-30);
//! - years are within 1990..=2200, quarters within 1..=4, fiscal-year end months within
//!   1..=11. A fiscal year ending in December *is* the calendar year, so `"FY2026-12"` is
//!   refused and `"2026"` is its one spelling (one text per period, so periods compare
//!   and store without aliases);
//! - build periods with [`Period::parse`] or the checked constructors; a variant built by
//!   hand with values those refuse makes the date methods panic;
//! - periods order by their last day, then by their first day (a year before its fourth
//!   quarter), which is the "oldest period first" order of payment application.
//!
//! The quarterly return and the annual return are the ordinances' two filing periods
//! (Montello room tax, administration ¶; Hayward room tax, returns ¶A and ¶B).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use chrono::{Datelike, Days, NaiveDate};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};

use super::calendar::last_day_of_month;

/// The first year a period may be in.
pub const MIN_YEAR: i32 = 1990;
/// The last year a period may be in.
pub const MAX_YEAR: i32 = 2200;

/// A tax period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Period {
    /// A calendar quarter: Q1 is January..=March.
    Quarter {
        /// Calendar year.
        year: i32,
        /// Quarter, 1..=4.
        quarter: u8,
    },
    /// A calendar year, January 1 ..= December 31.
    CalendarYear {
        /// Calendar year.
        year: i32,
    },
    /// A fiscal year of twelve months ending on the last day of `end_month` of `end_year`
    /// (`end_month` 1..=11; December is [`Period::CalendarYear`]).
    FiscalYear {
        /// Calendar year in which the fiscal year ends.
        end_year: i32,
        /// Month (1..=11) whose last day closes the fiscal year.
        end_month: u32,
    },
}

/// Why a text or values are not a period. [`PeriodParseError::rule`] gives a stable id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PeriodParseError {
    /// Not one of the three text forms.
    #[error(
        "a period is written \"2026-Q1\" (quarter), \"2026\" (calendar year) or \"FY2026-06\" (fiscal year ending June 2026)"
    )]
    Format,
    /// Year outside 1990..=2200.
    #[error("the year {0} is outside {MIN_YEAR}..={MAX_YEAR}")]
    YearOutOfRange(i32),
    /// Quarter outside 1..=4.
    #[error("the quarter {0} is outside 1..=4")]
    QuarterOutOfRange(u32),
    /// Fiscal-year end month outside 1..=12.
    #[error("the month {0} is outside 1..=12")]
    MonthOutOfRange(u32),
    /// A fiscal year ending in December, which is the calendar year.
    #[error("a fiscal year ending in December is the calendar year: write \"{0}\"")]
    DecemberFiscalYear(i32),
}

impl PeriodParseError {
    /// Stable rule id for API problem details.
    pub fn rule(&self) -> &'static str {
        match self {
            PeriodParseError::Format => "period_format",
            PeriodParseError::YearOutOfRange(_) => "period_year_range",
            PeriodParseError::QuarterOutOfRange(_) => "period_quarter_range",
            PeriodParseError::MonthOutOfRange(_) => "period_month_range",
            PeriodParseError::DecemberFiscalYear(_) => "period_fiscal_year_december",
        }
    }
}

fn check_year(year: i32) -> Result<i32, PeriodParseError> {
    if (MIN_YEAR..=MAX_YEAR).contains(&year) {
        Ok(year)
    } else {
        Err(PeriodParseError::YearOutOfRange(year))
    }
}

/// Parses exactly `len` ASCII digits.
fn digits(text: &str, len: usize) -> Result<u32, PeriodParseError> {
    if text.len() == len && text.bytes().all(|b| b.is_ascii_digit()) {
        text.parse().map_err(|_| PeriodParseError::Format)
    } else {
        Err(PeriodParseError::Format)
    }
}

fn year_digits(text: &str) -> Result<i32, PeriodParseError> {
    let year = digits(text, 4)?;
    check_year(i32::try_from(year).map_err(|_| PeriodParseError::Format)?)
}

impl Period {
    /// A calendar quarter, checked.
    pub fn quarter(year: i32, quarter: u8) -> Result<Period, PeriodParseError> {
        check_year(year)?;
        if !(1..=4).contains(&quarter) {
            return Err(PeriodParseError::QuarterOutOfRange(u32::from(quarter)));
        }
        Ok(Period::Quarter { year, quarter })
    }

    /// A calendar year, checked.
    pub fn calendar_year(year: i32) -> Result<Period, PeriodParseError> {
        Ok(Period::CalendarYear {
            year: check_year(year)?,
        })
    }

    /// A fiscal year ending on the last day of `end_month` of `end_year`, checked
    /// (December is refused: that is [`Period::calendar_year`]).
    pub fn fiscal_year(end_year: i32, end_month: u32) -> Result<Period, PeriodParseError> {
        check_year(end_year)?;
        match end_month {
            1..=11 => Ok(Period::FiscalYear {
                end_year,
                end_month,
            }),
            12 => Err(PeriodParseError::DecemberFiscalYear(end_year)),
            _ => Err(PeriodParseError::MonthOutOfRange(end_month)),
        }
    }

    /// Parses `"2026-Q1"`, `"2026"` or `"FY2026-06"`.
    pub fn parse(text: &str) -> Result<Period, PeriodParseError> {
        if let Some(rest) = text.strip_prefix("FY") {
            let (year, month) = rest.split_once('-').ok_or(PeriodParseError::Format)?;
            let month = digits(month, 2)?;
            return Period::fiscal_year(year_digits(year)?, month);
        }
        if let Some((year, quarter)) = text.split_once("-Q") {
            let quarter = digits(quarter, 1)?;
            let year = year_digits(year)?;
            return u8::try_from(quarter)
                .map_err(|_| PeriodParseError::QuarterOutOfRange(quarter))
                .and_then(|q| Period::quarter(year, q));
        }
        Period::calendar_year(year_digits(text)?)
    }

    /// The four quarters of a calendar year, in order (year assumed within range).
    pub fn quarters_of_year(year: i32) -> [Period; 4] {
        [1, 2, 3, 4].map(|quarter| Period::Quarter { year, quarter })
    }

    /// The calendar quarter containing `date`.
    pub fn quarter_containing(date: NaiveDate) -> Period {
        let quarter = u8::try_from((date.month() - 1) / 3 + 1).unwrap_or(4);
        Period::Quarter {
            year: date.year(),
            quarter,
        }
    }

    /// True for a calendar quarter (a quarterly return).
    pub fn is_quarter(&self) -> bool {
        matches!(self, Period::Quarter { .. })
    }

    /// True for a calendar or fiscal year (an annual return).
    pub fn is_annual(&self) -> bool {
        !self.is_quarter()
    }

    /// The year the period ends in (a fiscal year's `end_year`).
    pub fn year(&self) -> i32 {
        match *self {
            Period::Quarter { year, .. } | Period::CalendarYear { year } => year,
            Period::FiscalYear { end_year, .. } => end_year,
        }
    }

    /// The period's first day.
    ///
    /// # Panics
    /// If the period was built by hand with values [`Period::parse`] refuses.
    pub fn first_day(&self) -> NaiveDate {
        match *self {
            Period::Quarter { year, quarter } => {
                NaiveDate::from_ymd_opt(year, u32::from(quarter) * 3 - 2, 1)
            }
            Period::CalendarYear { year } => NaiveDate::from_ymd_opt(year, 1, 1),
            Period::FiscalYear {
                end_year,
                end_month,
            } => last_day_of_month(end_year - 1, end_month).checked_add_days(Days::new(1)),
        }
        .expect("a period built by Period::parse or its constructors has valid dates")
    }

    /// The period's last day (the day whose policy version governs the period).
    ///
    /// # Panics
    /// If the period was built by hand with values [`Period::parse`] refuses.
    pub fn last_day(&self) -> NaiveDate {
        match *self {
            Period::Quarter { year, quarter } => last_day_of_month(year, u32::from(quarter) * 3),
            Period::CalendarYear { year } => last_day_of_month(year, 12),
            Period::FiscalYear {
                end_year,
                end_month,
            } => last_day_of_month(end_year, end_month),
        }
    }

    /// True when `date` falls within the period.
    pub fn contains(&self, date: NaiveDate) -> bool {
        self.first_day() <= date && date <= self.last_day()
    }

    fn kind_rank(&self) -> u8 {
        match self {
            Period::CalendarYear { .. } => 0,
            Period::FiscalYear { .. } => 1,
            Period::Quarter { .. } => 2,
        }
    }
}

impl Ord for Period {
    fn cmp(&self, other: &Period) -> Ordering {
        (self.last_day(), self.first_day(), self.kind_rank()).cmp(&(
            other.last_day(),
            other.first_day(),
            other.kind_rank(),
        ))
    }
}

impl PartialOrd for Period {
    fn partial_cmp(&self, other: &Period) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Period::Quarter { year, quarter } => write!(f, "{year}-Q{quarter}"),
            Period::CalendarYear { year } => write!(f, "{year}"),
            Period::FiscalYear {
                end_year,
                end_month,
            } => write!(f, "FY{end_year}-{end_month:02}"),
        }
    }
}

impl FromStr for Period {
    type Err = PeriodParseError;
    fn from_str(s: &str) -> Result<Period, PeriodParseError> {
        Period::parse(s)
    }
}

impl Serialize for Period {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Period {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Period, D::Error> {
        let text = String::deserialize(deserializer)?;
        Period::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl utoipa::PartialSchema for Period {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A tax period: \"2026-Q1\" (calendar quarter), \"2026\" (calendar year) or \
                 \"FY2026-06\" (fiscal year ending on the last day of June 2026). Years \
                 1990..=2200.",
            ))
            .pattern(Some(r"^(FY[0-9]{4}-(0[1-9]|1[01])|[0-9]{4}(-Q[1-4])?)$"))
            .examples([serde_json::Value::from("2026-Q1")])
            .into()
    }
}

impl utoipa::ToSchema for Period {
    fn name() -> std::borrow::Cow<'static, str> {
        "Period".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::d;

    #[test]
    fn parses_and_prints_the_three_forms() {
        let cases = [
            (
                "2026-Q1",
                Period::Quarter {
                    year: 2026,
                    quarter: 1,
                },
                "2026-01-01",
                "2026-03-31",
            ),
            (
                "2025-Q4",
                Period::Quarter {
                    year: 2025,
                    quarter: 4,
                },
                "2025-10-01",
                "2025-12-31",
            ),
            (
                "2024-Q1",
                Period::Quarter {
                    year: 2024,
                    quarter: 1,
                },
                "2024-01-01",
                "2024-03-31",
            ),
            (
                "2026",
                Period::CalendarYear { year: 2026 },
                "2026-01-01",
                "2026-12-31",
            ),
            (
                "FY2026-06",
                Period::FiscalYear {
                    end_year: 2026,
                    end_month: 6,
                },
                "2025-07-01",
                "2026-06-30",
            ),
            (
                "FY2024-02",
                Period::FiscalYear {
                    end_year: 2024,
                    end_month: 2,
                },
                "2023-03-01",
                "2024-02-29",
            ),
            (
                "FY2025-01",
                Period::FiscalYear {
                    end_year: 2025,
                    end_month: 1,
                },
                "2024-02-01",
                "2025-01-31",
            ),
            (
                "1990",
                Period::CalendarYear { year: 1990 },
                "1990-01-01",
                "1990-12-31",
            ),
            (
                "2200-Q4",
                Period::Quarter {
                    year: 2200,
                    quarter: 4,
                },
                "2200-10-01",
                "2200-12-31",
            ),
        ];
        for (text, period, first, last) in cases {
            assert_eq!(Period::parse(text), Ok(period), "{text}");
            assert_eq!(period.to_string(), text);
            assert_eq!(period.first_day(), d(first), "{text}");
            assert_eq!(period.last_day(), d(last), "{text}");
        }
    }

    #[test]
    fn refuses_what_is_not_a_period() {
        let cases = [
            ("2026-Q5", "period_quarter_range"),
            ("2026-Q0", "period_quarter_range"),
            ("2026-Q12", "period_format"),
            ("2026-q1", "period_format"),
            ("1989", "period_year_range"),
            ("2201-Q1", "period_year_range"),
            ("FY2026-12", "period_fiscal_year_december"),
            ("FY2026-13", "period_month_range"),
            ("FY2026-00", "period_month_range"),
            ("FY2026-6", "period_format"),
            ("26", "period_format"),
            ("", "period_format"),
            (" 2026", "period_format"),
            ("2026-01", "period_format"),
            ("+2026", "period_format"),
        ];
        for (text, rule) in cases {
            assert_eq!(
                Period::parse(text).map_err(|e| e.rule()),
                Err(rule),
                "{text:?}"
            );
        }
    }

    #[test]
    fn helpers() {
        assert!(Period::parse("2026-Q2").unwrap().is_quarter());
        assert!(Period::parse("FY2026-06").unwrap().is_annual());
        assert_eq!(Period::parse("FY2026-06").unwrap().year(), 2026);
        assert_eq!(Period::quarters_of_year(2026)[3].to_string(), "2026-Q4");
        assert_eq!(
            Period::quarter_containing(d("2026-05-31")).to_string(),
            "2026-Q2"
        );
        assert_eq!(
            Period::quarter_containing(d("2026-12-31")).to_string(),
            "2026-Q4"
        );
        assert!(Period::parse("2026").unwrap().contains(d("2026-07-04")));
    }

    #[test]
    fn orders_oldest_first() {
        let mut periods: Vec<Period> = ["2026-Q1", "2025", "2025-Q4", "FY2025-06", "2025-Q1"]
            .iter()
            .map(|t| t.parse().unwrap())
            .collect();
        periods.sort();
        let texts: Vec<String> = periods.iter().map(ToString::to_string).collect();
        assert_eq!(
            texts,
            ["2025-Q1", "FY2025-06", "2025", "2025-Q4", "2026-Q1"]
        );
    }

    #[test]
    fn serde_is_the_text_form() {
        let period: Period = serde_json::from_str("\"2026-Q1\"").unwrap();
        assert_eq!(serde_json::to_string(&period).unwrap(), "\"2026-Q1\"");
        assert!(serde_json::from_str::<Period>("\"2026-Q9\"").is_err());
        assert!(serde_json::from_str::<Period>("2026").is_err());
    }
}

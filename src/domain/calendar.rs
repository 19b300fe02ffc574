//! Calendar arithmetic and business days.
//!
//! Contract:
//! - a business day is Monday..=Friday that is not a configured legal holiday
//!   (DESIGN §3; Hayward room tax, due date: "the last business day of the month");
//! - legal holidays come from the policy: explicit dates, plus fixed month-day holidays
//!   (e.g. `07-04`). A fixed holiday falling on a Saturday is observed on the Friday
//!   before; one falling on a Sunday is observed on the Monday after (the usual
//!   public-office rule; the ordinances do not say, so this is ours). Explicit dates are
//!   taken as given, with no observance shift;
//! - [`add_months_clamped`] keeps the day number and clamps it to the end of a shorter
//!   month (2026-01-31 + 1 month = 2026-02-28); [`add_months_month_end`] also takes a
//!   month's last day to the last day of the target month (2026-04-30 + 1 = 2026-05-31):
//!   our reading of "one month" after a month-end due date (Montello room tax,
//!   administration ¶, extension).

use std::collections::BTreeSet;

use chrono::{Datelike, Days, Months, NaiveDate, Weekday};

use super::policy::{LegalHolidays, Policy};

/// Weekends plus the legal holidays observed in some range of years.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BusinessCalendar {
    /// Days (other than weekends) on which the municipal office is closed.
    pub holidays: BTreeSet<NaiveDate>,
}

impl BusinessCalendar {
    /// A calendar with exactly these holidays.
    pub fn new(holidays: BTreeSet<NaiveDate>) -> BusinessCalendar {
        BusinessCalendar { holidays }
    }

    /// The holidays of `config` observed in the years `first_year..=last_year` (fixed
    /// holidays are expanded one year beyond each end, so that a January 1 falling on a
    /// Saturday is observed on the December 31 before), plus every explicit date.
    pub fn from_legal_holidays(
        config: &LegalHolidays,
        first_year: i32,
        last_year: i32,
    ) -> BusinessCalendar {
        let mut holidays: BTreeSet<NaiveDate> = config.dates.iter().copied().collect();
        for year in (first_year - 1)..=(last_year + 1) {
            for fixed in &config.fixed {
                if let Some(date) = NaiveDate::from_ymd_opt(year, fixed.month(), fixed.day()) {
                    holidays.insert(observed(date));
                }
            }
        }
        BusinessCalendar { holidays }
    }

    /// The calendar of a policy's legal holidays for `first_year..=last_year`.
    pub fn for_policy(policy: &Policy, first_year: i32, last_year: i32) -> BusinessCalendar {
        BusinessCalendar::from_legal_holidays(&policy.legal_holidays.value, first_year, last_year)
    }

    /// True on Monday..=Friday unless the date is a holiday.
    pub fn is_business_day(&self, date: NaiveDate) -> bool {
        !is_weekend(date) && !self.holidays.contains(&date)
    }

    /// The last business day of a month: its last day, stepped back over weekends and
    /// holidays.
    ///
    /// # Panics
    /// If `month` is outside 1..=12 or the year is outside chrono's range.
    pub fn last_business_day_of_month(&self, year: i32, month: u32) -> NaiveDate {
        let mut date = last_day_of_month(year, month);
        while !self.is_business_day(date) {
            date = date
                .pred_opt()
                .expect("dates within chrono's range have a previous day");
        }
        date
    }
}

/// True on Saturday and Sunday.
pub fn is_weekend(date: NaiveDate) -> bool {
    matches!(date.weekday(), Weekday::Sat | Weekday::Sun)
}

/// The day a fixed holiday is observed: Saturday → Friday before, Sunday → Monday after.
pub fn observed(date: NaiveDate) -> NaiveDate {
    let shifted = match date.weekday() {
        Weekday::Sat => date.checked_sub_days(Days::new(1)),
        Weekday::Sun => date.checked_add_days(Days::new(1)),
        _ => Some(date),
    };
    shifted.unwrap_or(date)
}

/// The last day of a month (February 29 in leap years).
///
/// # Panics
/// If `month` is outside 1..=12 or the year is outside chrono's range.
pub fn last_day_of_month(year: i32, month: u32) -> NaiveDate {
    let (next_year, next_month) = if month == 12 {
        (year + 1, 1)
    } else {
        (year, month + 1)
    };
    NaiveDate::from_ymd_opt(next_year, next_month, 1)
        .and_then(|first| first.pred_opt())
        .expect("month within 1..=12 and year within chrono's range")
}

/// `date` plus `months` calendar months, keeping the day number and clamping it to the
/// last day of a shorter month (2026-01-31 + 1 = 2026-02-28; 2026-04-30 + 1 = 2026-05-30).
///
/// # Panics
/// If the result is outside chrono's range.
pub fn add_months_clamped(date: NaiveDate, months: u32) -> NaiveDate {
    date.checked_add_months(Months::new(months))
        .expect("date within chrono's range")
}

/// `date` plus `months` calendar months, where a month's last day goes to the last day
/// of the target month (2026-04-30 + 1 = 2026-05-31; 2026-01-31 + 1 = 2026-02-28) and
/// any other day keeps its number, clamped ([`add_months_clamped`]). Every due date the
/// ordinances set is a month's last day (or, for Hayward, the last business day), so an
/// extension of "one month" then always reaches the end of the following month.
///
/// # Panics
/// If the result is outside chrono's range.
pub fn add_months_month_end(date: NaiveDate, months: u32) -> NaiveDate {
    let shifted = add_months_clamped(date, months);
    if date == last_day_of_month(date.year(), date.month()) {
        last_day_of_month(shifted.year(), shifted.month())
    } else {
        shifted
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::policy::MonthDay;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn last_day_of_month_knows_leap_years() {
        let cases = [
            (2024, 2, "2024-02-29"),
            (2025, 2, "2025-02-28"),
            (2100, 2, "2100-02-28"),
            (2000, 2, "2000-02-29"),
            (2026, 12, "2026-12-31"),
            (2026, 4, "2026-04-30"),
        ];
        for (year, month, last) in cases {
            assert_eq!(last_day_of_month(year, month), d(last));
        }
    }

    #[test]
    fn add_months_clamps_to_month_end() {
        let cases = [
            ("2026-01-31", 1, "2026-02-28"),
            ("2024-01-31", 1, "2024-02-29"),
            ("2026-04-30", 1, "2026-05-30"),
            ("2026-03-31", 1, "2026-04-30"),
            ("2025-12-31", 1, "2026-01-31"),
            ("2026-07-15", 0, "2026-07-15"),
        ];
        for (date, months, expected) in cases {
            assert_eq!(
                add_months_clamped(d(date), months),
                d(expected),
                "{date} + {months}"
            );
        }
    }

    #[test]
    fn month_end_goes_to_month_end() {
        let cases = [
            ("2026-04-30", "2026-05-31"),
            ("2026-01-31", "2026-02-28"),
            ("2028-01-31", "2028-02-29"),
            ("2026-10-31", "2026-11-30"),
            ("2026-07-31", "2026-08-31"),
            ("2026-01-30", "2026-02-28"),
            ("2026-04-29", "2026-05-29"),
        ];
        for (date, expected) in cases {
            assert_eq!(add_months_month_end(d(date), 1), d(expected), "{date}");
        }
    }

    #[test]
    fn last_business_day_skips_weekends_and_holidays() {
        let calendar = BusinessCalendar::new([d("2026-04-30")].into_iter().collect());
        let cases = [
            (2026, 1, "2026-01-30"),  // Jan 31 is a Saturday
            (2026, 5, "2026-05-29"),  // May 31 is a Sunday
            (2026, 4, "2026-04-29"),  // Apr 30 configured as a holiday
            (2026, 7, "2026-07-31"),  // a Friday
            (2026, 10, "2026-10-30"), // Oct 31 is a Saturday
        ];
        for (year, month, expected) in cases {
            assert_eq!(
                calendar.last_business_day_of_month(year, month),
                d(expected)
            );
        }
    }

    #[test]
    fn fixed_holidays_are_observed_on_the_nearest_weekday() {
        let config = LegalHolidays {
            fixed: vec![
                MonthDay::parse("07-04").unwrap(),
                MonthDay::parse("01-01").unwrap(),
            ],
            dates: vec![d("2026-11-27")],
        };
        let calendar = BusinessCalendar::from_legal_holidays(&config, 2026, 2027);
        // 2026-07-04 is a Saturday: observed Friday 2026-07-03.
        assert!(!calendar.is_business_day(d("2026-07-03")));
        // 2027-07-04 is a Sunday: observed Monday 2027-07-05.
        assert!(!calendar.is_business_day(d("2027-07-05")));
        // 2028-01-01 is a Saturday: observed Friday 2027-12-31.
        assert!(!calendar.is_business_day(d("2027-12-31")));
        // explicit date
        assert!(!calendar.is_business_day(d("2026-11-27")));
        assert!(calendar.is_business_day(d("2026-07-06")));
        assert!(!calendar.is_business_day(d("2026-07-05")));
    }
}

//! Due dates of returns and tax, and the extended filing due date.
//!
//! Contract:
//! - quarterly: the last day of the month after the quarter, either the calendar day
//!   even on a weekend (Montello room tax, administration ¶) or the last business day
//!   (Hayward room tax, due date), per the policy's [`QuarterlyDueRule`];
//! - annual: `days` days after the close of the calendar or fiscal year (Montello: 90;
//!   day 90 is the last day "within 90 days", so calendar 2025 → 2026-03-31 and calendar
//!   2023 → 2024-03-30 in a leap year), or with the fourth-quarter return, i.e. on the
//!   Q4 due date (Hayward room tax, returns ¶B); a fiscal year is refused where the
//!   policy allows none (field `period`, rule `fiscal_year_not_allowed`);
//! - the return and its tax share one due date in both ordinances;
//! - extension (Montello room tax, administration ¶): the filing due date may move to
//!   at most `max_extension_months` past the due date, "one month" after a month's last
//!   day being the next month's last day (2026-04-30 → 2026-05-31, 2026-01-31 →
//!   2026-02-28), otherwise the same day number clamped (2026-01-30 → 2026-02-28,
//!   Hayward's business-day due dates aside); no extension where the policy has none (Hayward): field
//!   `extended_to`, rules `extension_not_allowed`, `extension_before_due_date`,
//!   `extension_beyond_limit`. An extension moves the filing due date, which counts
//!   for every purpose but interest (the late filing fee and the late-payment
//!   forfeiture's 30 days; Montello room tax, interest ¶), never the due date used for
//!   interest.

use chrono::{Days, NaiveDate};

use crate::domain::calendar::{BusinessCalendar, add_months_month_end, last_day_of_month};
use crate::domain::error::DomainError;
use crate::domain::explain::DateLine;
use crate::domain::period::Period;
use crate::domain::policy::{AnnualReturnRule, Policy, QuarterlyDueRule};

/// The due date of a quarterly return and its tax (line code `quarterly_due_date`).
/// A period that is not a quarter is refused (field `period`, rule `not_a_quarter`).
pub fn quarterly_due_date(policy: &Policy, period: &Period) -> Result<DateLine, DomainError> {
    let Period::Quarter { year, quarter } = *period else {
        return Err(DomainError::invalid(
            "period",
            "not_a_quarter",
            format!("{period} is not a calendar quarter"),
        ));
    };
    let (due_year, due_month) = if quarter == 4 {
        (year + 1, 1)
    } else {
        (year, u32::from(quarter) * 3 + 1)
    };
    let rule = policy.quarterly_due.value;
    let month_end = last_day_of_month(due_year, due_month);
    let (date, how) = match rule {
        QuarterlyDueRule::LastCalendarDayOfFollowingMonth => {
            (month_end, "the last calendar day".to_owned())
        }
        QuarterlyDueRule::LastBusinessDayOfFollowingMonth => {
            let calendar = BusinessCalendar::for_policy(policy, due_year, due_year);
            let date = calendar.last_business_day_of_month(due_year, due_month);
            let how = if date == month_end {
                "the last business day".to_owned()
            } else {
                format!("the last business day ({month_end} is a weekend day or legal holiday)")
            };
            (date, how)
        }
    };
    let explanation = format!("{period} is due on {how} of the month after the quarter: {date}");
    Ok(DateLine::new(
        "quarterly_due_date",
        date,
        explanation,
        &policy.quarterly_due.citation,
    )
    .input("period", period)
    .input("rule", rule.code()))
}

/// The due date of an annual return (line code `annual_due_date`). Refuses a quarter
/// (rule `not_an_annual_period`) and a fiscal year where none is allowed.
pub fn annual_due_date(policy: &Policy, period: &Period) -> Result<DateLine, DomainError> {
    match period {
        Period::Quarter { .. } => {
            return Err(DomainError::invalid(
                "period",
                "not_an_annual_period",
                format!("{period} is a quarter, not a calendar or fiscal year"),
            ));
        }
        Period::FiscalYear { .. } if !policy.fiscal_year_allowed.value => {
            return Err(DomainError::invalid(
                "period",
                "fiscal_year_not_allowed",
                format!(
                    "{} allows calendar-year annual returns only",
                    policy.municipality
                ),
            ));
        }
        _ => {}
    }
    let rule = policy.annual_return.value;
    let close = period.last_day();
    let citation = &policy.annual_return.citation;
    let line = match rule {
        AnnualReturnRule::WithinDaysOfYearEnd { days } => {
            let date = close
                .checked_add_days(Days::new(u64::from(days)))
                .unwrap_or(close);
            let explanation = format!(
                "the annual return for {period} is due within {days} days after the year closed on {close}: {date}"
            );
            DateLine::new("annual_due_date", date, explanation, citation).input("days", days)
        }
        AnnualReturnRule::WithFourthQuarterReturn => {
            let q4 = Period::Quarter {
                year: period.year(),
                quarter: 4,
            };
            let date = quarterly_due_date(policy, &q4)?.date;
            let explanation =
                format!("the annual return for {period} is due with the return for {q4}: {date}");
            DateLine::new("annual_due_date", date, explanation, citation)
                .input("fourth_quarter", q4)
        }
    };
    Ok(line
        .input("period", period)
        .input("year_closed_on", close)
        .input("rule", rule.code()))
}

/// The due date of a return of either kind.
pub fn return_due_date(policy: &Policy, period: &Period) -> Result<DateLine, DomainError> {
    if period.is_quarter() {
        quarterly_due_date(policy, period)
    } else {
        annual_due_date(policy, period)
    }
}

/// The filing due date after an optional extension of the return due on `due` (line
/// code `filing_due_date`). Without an extension the line cites the paragraph `due`
/// cites (the quarterly rule for a quarter, the annual-return rule for a year).
pub fn extended_filing_due_date(
    policy: &Policy,
    due: &DateLine,
    extended_to: Option<NaiveDate>,
) -> Result<DateLine, DomainError> {
    let (due_line, due) = (due, due.date);
    let Some(extended) = extended_to else {
        let explanation = format!("no extension: the return is due on the due date {due}");
        return Ok(
            DateLine::new("filing_due_date", due, explanation, &due_line.citation)
                .input("due_date", due),
        );
    };
    let Some(months) = &policy.max_extension_months else {
        return Err(DomainError::invalid(
            "extended_to",
            "extension_not_allowed",
            format!(
                "{}'s ordinance provides no extension of the time to file",
                policy.municipality
            ),
        ));
    };
    if extended < due {
        return Err(DomainError::invalid(
            "extended_to",
            "extension_before_due_date",
            format!("an extension to {extended} is before the due date {due}"),
        ));
    }
    let limit = add_months_month_end(due, months.value);
    if extended > limit {
        return Err(DomainError::invalid(
            "extended_to",
            "extension_beyond_limit",
            format!(
                "an extension may run at most {} month(s) past the due date {due}, i.e. to {limit} (asked {extended})",
                months.value
            ),
        ));
    }
    let explanation = format!(
        "filing due date extended from {due} to {extended} (limit {} month(s): {limit}); interest still runs from {due}",
        months.value
    );
    Ok(
        DateLine::new("filing_due_date", extended, explanation, &months.citation)
            .input("due_date", due)
            .input("extended_to", extended)
            .input("limit", limit),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::{d, p};
    use crate::domain::presets::{hayward, montello};

    #[test]
    fn quarterly_due_dates() {
        let cases = [
            (montello(), "2026-Q1", "2026-04-30"),
            (montello(), "2025-Q4", "2026-01-31"), // a Saturday: stays
            (montello(), "2026-Q3", "2026-10-31"), // a Saturday: stays
            (montello(), "2025-Q1", "2025-04-30"),
            (montello(), "2025-Q2", "2025-07-31"),
            (hayward(), "2025-Q4", "2026-01-30"), // 2026-01-31 is a Saturday
            (hayward(), "2026-Q1", "2026-04-30"), // a Thursday
            (hayward(), "2026-Q3", "2026-10-30"), // 2026-10-31 is a Saturday
            (hayward(), "2025-Q2", "2025-07-31"), // a Thursday
            (hayward(), "2026-Q4", "2027-01-29"), // 2027-01-31 is a Sunday
            (hayward(), "2027-Q1", "2027-04-30"), // a Friday
            (hayward(), "2027-Q2", "2027-07-30"), // 2027-07-31 is a Saturday
        ];
        for (policy, period, due) in cases {
            let line = quarterly_due_date(&policy, &p(period)).unwrap();
            assert_eq!(line.date, d(due), "{} {period}", policy.municipality);
            assert_eq!(line.citation, policy.quarterly_due.citation);
        }
    }

    #[test]
    fn hayward_holiday_moves_the_due_date() {
        let mut policy = hayward();
        policy.legal_holidays.value.dates.push(d("2026-04-30"));
        assert_eq!(
            quarterly_due_date(&policy, &p("2026-Q1")).unwrap().date,
            d("2026-04-29")
        );
    }

    #[test]
    fn annual_due_dates() {
        let cases = [
            (montello(), "2025", "2026-03-31"),
            (montello(), "2023", "2024-03-30"), // leap year: February has 29 days
            (montello(), "2024", "2025-03-31"),
            (montello(), "FY2026-06", "2026-09-28"),
            (montello(), "FY2024-02", "2024-05-29"), // year closes 2024-02-29
            (hayward(), "2025", "2026-01-30"),       // with the Q4 return
            (hayward(), "2026", "2027-01-29"),
        ];
        for (policy, period, due) in cases {
            assert_eq!(
                annual_due_date(&policy, &p(period)).unwrap().date,
                d(due),
                "{} {period}",
                policy.municipality
            );
            assert_eq!(return_due_date(&policy, &p(period)).unwrap().date, d(due));
        }
    }

    #[test]
    fn annual_refusals() {
        let rule = |policy: &Policy, period: &str| match annual_due_date(policy, &p(period)) {
            Err(DomainError::Invalid { field, rule, .. }) => format!("{field}/{rule}"),
            other => format!("{other:?}"),
        };
        assert_eq!(
            rule(&hayward(), "FY2026-06"),
            "period/fiscal_year_not_allowed"
        );
        assert_eq!(rule(&montello(), "2026-Q1"), "period/not_an_annual_period");
        assert!(quarterly_due_date(&montello(), &p("2026")).is_err());
    }

    #[test]
    fn extensions() {
        let m = montello();
        let due_line = |due: &str| DateLine::new("quarterly_due_date", d(due), "", "c");
        let ok = |due: &str, to: &str| {
            extended_filing_due_date(&m, &due_line(due), Some(d(to))).map(|l| l.date)
        };
        assert_eq!(ok("2026-04-30", "2026-05-30"), Ok(d("2026-05-30")));
        assert_eq!(ok("2026-04-30", "2026-05-31"), Ok(d("2026-05-31")));
        assert_eq!(ok("2026-04-30", "2026-05-15"), Ok(d("2026-05-15")));
        assert_eq!(ok("2026-04-30", "2026-04-30"), Ok(d("2026-04-30")));
        assert_eq!(ok("2026-01-31", "2026-02-28"), Ok(d("2026-02-28")));
        assert_eq!(ok("2026-03-31", "2026-04-30"), Ok(d("2026-04-30")));
        assert_eq!(ok("2024-03-30", "2024-04-30"), Ok(d("2024-04-30")));
        let refused = |policy: &Policy, due: &str, to: &str| match extended_filing_due_date(
            policy,
            &due_line(due),
            Some(d(to)),
        ) {
            Err(DomainError::Invalid { field, rule, .. }) => format!("{field}/{rule}"),
            other => format!("{other:?}"),
        };
        assert_eq!(
            refused(&m, "2026-04-30", "2026-06-01"),
            "extended_to/extension_beyond_limit"
        );
        assert_eq!(
            refused(&m, "2026-01-31", "2026-03-01"),
            "extended_to/extension_beyond_limit"
        );
        assert_eq!(
            refused(&m, "2026-04-30", "2026-04-29"),
            "extended_to/extension_before_due_date"
        );
        assert_eq!(
            refused(&hayward(), "2026-04-30", "2026-05-15"),
            "extended_to/extension_not_allowed"
        );
        let none = extended_filing_due_date(&hayward(), &due_line("2026-04-30"), None).unwrap();
        assert_eq!(none.date, d("2026-04-30"));
    }

    #[test]
    fn an_annual_filing_due_date_cites_the_annual_return_paragraph() {
        // Issue 8 item 10: without an extension the filing due date of an annual return
        // is its annual due date, cited to the annual-return paragraph (it used to cite
        // the quarterly due-date paragraph).
        for policy in [montello(), hayward()] {
            let due = annual_due_date(&policy, &p("2025")).unwrap();
            let filing = extended_filing_due_date(&policy, &due, None).unwrap();
            assert_eq!(filing.date, due.date);
            assert_eq!(filing.citation, policy.annual_return.citation);
            let quarter = quarterly_due_date(&policy, &p("2026-Q1")).unwrap();
            let filing = extended_filing_due_date(&policy, &quarter, None).unwrap();
            assert_eq!(filing.citation, policy.quarterly_due.citation);
        }
    }
}

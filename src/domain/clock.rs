//! The time of day, and the municipality's calendar date.
//!
//! Contract:
//! - the service reads "now" only through a [`Clock`] ([`SystemClock`] in production,
//!   [`FixedClock`] in tests), so a test can place a filing at any instant;
//! - filing and payment dates are the municipality's local calendar date, never the
//!   UTC date of the instant (DESIGN §3): every Wisconsin municipality keeps
//!   [`MUNICIPAL_TIME_ZONE`] (America/Chicago: CST, UTC−6, and CDT, UTC−5, from the
//!   second Sunday of March to the first Sunday of November). A return sent at 23:30 on
//!   its due date is filed on the due date, though the UTC date is already the next day;
//! - [`local_date`] is total: every instant has exactly one local date (the DST gaps and
//!   overlaps concern local times, never the date an instant falls on).
//!
//! Pure apart from [`SystemClock::now`], which reads the system clock.

use std::sync::Mutex;

use chrono::{DateTime, NaiveDate, TimeDelta, Utc};
use chrono_tz::Tz;

/// The time zone of every municipality the service serves (Wisconsin: America/Chicago).
pub const MUNICIPAL_TIME_ZONE: Tz = chrono_tz::America::Chicago;

/// The municipality's calendar date of `instant` (see the module doc).
pub fn local_date(instant: DateTime<Utc>) -> NaiveDate {
    instant.with_timezone(&MUNICIPAL_TIME_ZONE).date_naive()
}

/// Where the service reads the current instant from.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The current instant.
    fn now(&self) -> DateTime<Utc>;

    /// The municipality's calendar date now ([`local_date`] of [`Clock::now`]).
    fn today(&self) -> NaiveDate {
        local_date(self.now())
    }
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that stands still at an instant until a test moves it.
#[derive(Debug)]
pub struct FixedClock {
    instant: Mutex<DateTime<Utc>>,
}

impl FixedClock {
    /// A clock standing at `instant`.
    pub fn new(instant: DateTime<Utc>) -> FixedClock {
        FixedClock {
            instant: Mutex::new(instant),
        }
    }

    /// A clock standing at an RFC 3339 instant, e.g. `"2026-05-01T04:30:00Z"`; `None`
    /// when the text is not one.
    pub fn at(rfc3339: &str) -> Option<FixedClock> {
        DateTime::parse_from_rfc3339(rfc3339)
            .ok()
            .map(|instant| FixedClock::new(instant.with_timezone(&Utc)))
    }

    /// Moves the clock to `instant`.
    pub fn set(&self, instant: DateTime<Utc>) {
        *self.lock() = instant;
    }

    /// Moves the clock forward by `delta` (backward when negative).
    pub fn advance(&self, delta: TimeDelta) {
        let mut instant = self.lock();
        *instant += delta;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, DateTime<Utc>> {
        // The guarded value is a plain instant, valid even if a holder panicked.
        self.instant
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Clock for FixedClock {
    fn now(&self) -> DateTime<Utc> {
        *self.lock()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::d;
    use crate::domain::presets::montello;
    use crate::domain::{PolicyHistory, QuoteInput, quote};

    fn utc(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn local_dates_across_standard_and_daylight_time() {
        let cases = [
            // CDT (UTC−5): 04:30Z is 23:30 the day before.
            ("2026-04-30T04:30:00Z", "2026-04-29"),
            ("2026-04-30T04:59:59Z", "2026-04-29"),
            ("2026-04-30T05:00:00Z", "2026-04-30"),
            // CST (UTC−6): 05:30Z is 23:30 the day before.
            ("2026-01-31T05:30:00Z", "2026-01-30"),
            ("2026-01-31T06:00:00Z", "2026-01-31"),
            // Spring forward, 2026-03-08 02:00 CST → 03:00 CDT.
            ("2026-03-08T05:59:59Z", "2026-03-07"),
            ("2026-03-08T06:00:00Z", "2026-03-08"),
            ("2026-03-08T08:00:00Z", "2026-03-08"), // 03:00 CDT
            ("2026-03-09T04:59:59Z", "2026-03-08"), // 23:59:59 CDT
            // Fall back, 2026-11-01 02:00 CDT → 01:00 CST: 01:30 happens twice.
            ("2026-11-01T06:30:00Z", "2026-11-01"), // 01:30 CDT
            ("2026-11-01T07:30:00Z", "2026-11-01"), // 01:30 CST
            ("2026-11-01T04:59:59Z", "2026-10-31"),
            ("2026-11-02T05:59:59Z", "2026-11-01"), // 23:59:59 CST
            // New Year's Eve in Chicago while it is already 2027 in UTC.
            ("2027-01-01T05:59:59Z", "2026-12-31"),
        ];
        for (instant, date) in cases {
            assert_eq!(local_date(utc(instant)), d(date), "{instant}");
        }
    }

    #[test]
    fn a_return_sent_at_23_30_on_the_due_date_is_on_time() {
        // 2026-Q1 is due 2026-04-30 in Montello; 23:30 CDT that day is 04:30Z the next.
        let clock = FixedClock::at("2026-05-01T04:30:00Z").unwrap();
        assert_eq!(clock.now().date_naive(), d("2026-05-01"), "UTC says late");
        let history = PolicyHistory::single(montello()).unwrap();
        let mut input = QuoteInput {
            period: "2026-Q1".parse().unwrap(),
            gross_receipts: "10000.00".parse().unwrap(),
            exempt_receipts: Default::default(),
            filed_on: Some(clock.today()),
            paid_on: None,
            extended_to: None,
            previous_year_tax: None,
        };
        let on_time = quote(&history, &input, &[]).unwrap();
        assert_eq!(on_time.late_filing_fee.cents(), 0);
        assert_eq!(on_time.interest.cents(), 0);
        assert_eq!(on_time.total_due.cents(), 45_000);

        // Half an hour later it is 2026-05-01 in Montello too: late.
        clock.advance(TimeDelta::minutes(30));
        input.filed_on = Some(clock.today());
        let late = quote(&history, &input, &[]).unwrap();
        assert_eq!(late.late_filing_fee.cents(), 2_500);
        assert_eq!(late.interest.cents(), 450); // 1 % of 450.00 for one month
    }

    #[test]
    fn the_fixed_clock_moves_only_when_told() {
        let clock = FixedClock::new(utc("2026-01-31T05:30:00Z"));
        assert_eq!(clock.today(), d("2026-01-30"));
        clock.set(utc("2026-07-01T12:00:00Z"));
        assert_eq!(clock.now(), utc("2026-07-01T12:00:00Z"));
        clock.advance(TimeDelta::hours(-13));
        assert_eq!(clock.today(), d("2026-06-30"));
        assert!(FixedClock::at("2026-07-01").is_none());
        let system: &dyn Clock = &SystemClock;
        assert!(system.now() > utc("2026-01-01T00:00:00Z"));
    }
}

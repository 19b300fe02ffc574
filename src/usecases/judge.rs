//! The field checks several use cases share, each adding what it finds to the
//! request's faults so that one 422 names every fault at once
//! (`ApiError::refused`).
//!
//! Contract: pure functions over values already parsed; the rules themselves
//! live in `domain` (`registry::text::one_line`); nothing here reads the
//! database.

use chrono::NaiveDate;

use crate::error::FieldError;

/// A one-line text of 1 to `max` characters, trimmed
/// (`domain::registry::text::one_line`); a fault joins `faults` (and the
/// trimmed text is returned, never used once refused).
pub fn one_line(field: &str, text: &str, max: usize, faults: &mut Vec<FieldError>) -> String {
    crate::domain::registry::text::one_line(field, text, max).unwrap_or_else(|e| {
        faults.push(e.into());
        text.trim().to_owned()
    })
}

/// A date that must not be after `today` (rule `in_the_future` on `field`).
pub fn not_after_today(
    field: &str,
    date: NaiveDate,
    today: NaiveDate,
    faults: &mut Vec<FieldError>,
) {
    if date > today {
        faults.push(FieldError::new(
            field,
            "in_the_future",
            format!("must not be after today ({today})"),
        ));
    }
}

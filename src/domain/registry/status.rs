//! Whether a payor or establishment is open, closing or closed.
//!
//! Contract: derived, never stored: no closing date recorded is `open`; a
//! closing date after today is `closing` (it still operates, and still owes
//! returns, until that date); a closing date of today or earlier is
//! `closed`. "Today" is the caller's (the service's) date.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Whether a closing date has been recorded, and whether it has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RegistryStatus {
    /// No closing date recorded.
    Open,
    /// A closing date is recorded and is still to come.
    Closing,
    /// The recorded closing date has come (`closed_on` is today or earlier).
    Closed,
}

impl RegistryStatus {
    /// The status on `today` of something with this closing date.
    pub fn on(closed_on: Option<NaiveDate>, today: NaiveDate) -> Self {
        match closed_on {
            None => Self::Open,
            Some(on) if on > today => Self::Closing,
            Some(_) => Self::Closed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_future_closing_date_is_closing_until_it_comes() {
        let d = |s: &str| s.parse::<NaiveDate>().unwrap();
        let today = d("2026-12-01");
        assert_eq!(RegistryStatus::on(None, today), RegistryStatus::Open);
        assert_eq!(
            RegistryStatus::on(Some(d("2026-12-02")), today),
            RegistryStatus::Closing
        );
        assert_eq!(
            RegistryStatus::on(Some(today), today),
            RegistryStatus::Closed
        );
        assert_eq!(
            RegistryStatus::on(Some(d("2026-01-31")), today),
            RegistryStatus::Closed
        );
    }
}

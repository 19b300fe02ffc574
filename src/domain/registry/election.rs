//! The annual election: which year a payor's annual return covers, judged
//! against the municipality's ordinance.
//!
//! Contract: [`AnnualElection`] is the wire vocabulary (`calendar`,
//! `fiscal`; rule `one_of`); [`FiscalYearEnd`] is the month a fiscal year
//! ends in, 1 to 11 (December is the calendar year; rule `range`);
//! [`Election`] is the valid pair: a fiscal election needs its month (rule
//! `required_for_fiscal` on `fiscal_year_end_month`), a calendar one has none
//! (`only_for_fiscal`). [`Election::allowed_by`] applies the policy's
//! `fiscal_year_allowed`: Montello lets a payor "elect to file an annual
//! calendar or fiscal year return" (Montello room tax, administration ¶);
//! Hayward requires "an annual calendar year return ... filed as part of the
//! quarterly return for the fourth quarter" (Hayward room tax, returns ¶B),
//! so a fiscal election there is refused (rule `fiscal_year_not_allowed` on
//! `annual_election`, citing the policy). With no policy recorded no fiscal
//! year can be shown to be allowed, so only a calendar election passes.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{DomainError, Policy};

/// Which year the payor's annual return covers (Montello: elected with its first return).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnnualElection {
    /// The calendar year.
    Calendar,
    /// A fiscal year ending in `fiscal_year_end_month`.
    Fiscal,
}

impl AnnualElection {
    /// Every election.
    pub const ALL: [Self; 2] = [Self::Calendar, Self::Fiscal];

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Calendar => "calendar",
            Self::Fiscal => "fiscal",
        }
    }

    /// Parse the value of `field` (trimmed).
    pub fn parse(field: &str, raw: &str) -> Result<Self, DomainError> {
        Self::ALL
            .into_iter()
            .find(|e| e.as_str() == raw.trim())
            .ok_or_else(|| {
                DomainError::invalid(field, "one_of", "must be one of: calendar, fiscal")
            })
    }
}

/// The month (1 to 11) a fiscal year ends in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FiscalYearEnd(u8);

impl FiscalYearEnd {
    /// Parse the value of `field`.
    pub fn parse(field: &str, raw: i64) -> Result<Self, DomainError> {
        match u8::try_from(raw) {
            Ok(m) if (1..=11).contains(&m) => Ok(Self(m)),
            _ => Err(DomainError::invalid(
                field,
                "range",
                "must be a month from 1 to 11 (a fiscal year ending in December is the calendar year)",
            )),
        }
    }

    /// The month number.
    pub fn month(self) -> i32 {
        i32::from(self.0)
    }
}

/// A valid election: the calendar year, or a fiscal year with its closing month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Election {
    /// The calendar year.
    Calendar,
    /// A fiscal year ending in `year_end`.
    Fiscal {
        /// The month the fiscal year ends in.
        year_end: FiscalYearEnd,
    },
}

const MONTH_FIELD: &str = "fiscal_year_end_month";

impl Election {
    /// The pair, judged together (faults name `fiscal_year_end_month`).
    pub fn new(kind: AnnualElection, month: Option<FiscalYearEnd>) -> Result<Self, DomainError> {
        match (kind, month) {
            (AnnualElection::Calendar, None) => Ok(Self::Calendar),
            (AnnualElection::Fiscal, Some(year_end)) => Ok(Self::Fiscal { year_end }),
            (AnnualElection::Fiscal, None) => Err(DomainError::invalid(
                MONTH_FIELD,
                "required_for_fiscal",
                "a fiscal election needs the month (1 to 11) its fiscal year ends in",
            )),
            (AnnualElection::Calendar, Some(_)) => Err(DomainError::invalid(
                MONTH_FIELD,
                "only_for_fiscal",
                "only a fiscal election has a fiscal year end month",
            )),
        }
    }

    /// The election as stored (`annual_election`, `fiscal_year_end_month`);
    /// `None` when the stored pair is not a valid election.
    pub fn from_stored(kind: &str, month: Option<i32>) -> Option<Self> {
        let kind = AnnualElection::parse("annual_election", kind).ok()?;
        let month = match month {
            Some(m) => Some(FiscalYearEnd::parse(MONTH_FIELD, i64::from(m)).ok()?),
            None => None,
        };
        Self::new(kind, month).ok()
    }

    /// The election after a change: an absent part keeps the stored one,
    /// except that switching to `calendar` without naming the month clears it.
    pub fn changed(
        self,
        kind: Option<AnnualElection>,
        month: Option<Option<FiscalYearEnd>>,
    ) -> Result<Self, DomainError> {
        let kind = kind.unwrap_or(self.kind());
        let month = match month {
            Some(m) => m,
            None if kind == AnnualElection::Calendar => None,
            None => self.year_end(),
        };
        Self::new(kind, month)
    }

    /// Calendar or fiscal.
    pub fn kind(self) -> AnnualElection {
        match self {
            Self::Calendar => AnnualElection::Calendar,
            Self::Fiscal { .. } => AnnualElection::Fiscal,
        }
    }

    /// The fiscal year's closing month, if fiscal.
    pub fn year_end(self) -> Option<FiscalYearEnd> {
        match self {
            Self::Calendar => None,
            Self::Fiscal { year_end } => Some(year_end),
        }
    }

    /// The election if the municipality's policy allows it (see the module doc).
    pub fn allowed_by(self, policy: Option<&Policy>) -> Result<Self, DomainError> {
        match (self, policy) {
            (Self::Calendar, _) => Ok(self),
            (Self::Fiscal { .. }, Some(p)) if p.fiscal_year_allowed.value => Ok(self),
            (Self::Fiscal { .. }, Some(p)) => Err(DomainError::invalid(
                "annual_election",
                "fiscal_year_not_allowed",
                format!(
                    "{} allows only a calendar-year annual return ({})",
                    p.municipality, p.fiscal_year_allowed.citation
                ),
            )),
            (Self::Fiscal { .. }, None) => Err(DomainError::invalid(
                "annual_election",
                "fiscal_year_not_allowed",
                "this municipality has no policy version recorded, so no fiscal year is allowed yet; elect calendar",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::presets;

    fn rule(r: Result<Election, DomainError>) -> (String, String) {
        match r {
            Err(DomainError::Invalid { field, rule, .. }) => (field, rule),
            other => panic!("not refused: {other:?}"),
        }
    }

    fn m(n: i64) -> FiscalYearEnd {
        FiscalYearEnd::parse(MONTH_FIELD, n).unwrap()
    }

    #[test]
    fn the_month_goes_with_a_fiscal_election_only() {
        assert_eq!(
            rule(Election::new(AnnualElection::Fiscal, None)),
            (MONTH_FIELD.into(), "required_for_fiscal".into())
        );
        assert_eq!(
            rule(Election::new(AnnualElection::Calendar, Some(m(6)))),
            (MONTH_FIELD.into(), "only_for_fiscal".into())
        );
        assert!(FiscalYearEnd::parse(MONTH_FIELD, 12).is_err());
        assert!(FiscalYearEnd::parse(MONTH_FIELD, 0).is_err());
        assert!(AnnualElection::parse("annual_election", "lunar").is_err());
    }

    #[test]
    fn switching_to_calendar_drops_the_month_and_clearing_it_is_refused_for_fiscal() {
        let fiscal = Election::Fiscal { year_end: m(6) };
        assert_eq!(
            fiscal
                .changed(Some(AnnualElection::Calendar), None)
                .unwrap(),
            Election::Calendar
        );
        assert_eq!(
            fiscal.changed(None, Some(Some(m(3)))).unwrap().year_end(),
            Some(m(3))
        );
        assert_eq!(
            rule(fiscal.changed(None, Some(None))),
            (MONTH_FIELD.into(), "required_for_fiscal".into())
        );
    }

    #[test]
    fn hayward_allows_only_a_calendar_year_and_montello_both() {
        let hayward = presets::hayward();
        let montello = presets::montello();
        let fiscal = Election::Fiscal { year_end: m(6) };
        let (field, r) = rule(fiscal.allowed_by(Some(&hayward)));
        assert_eq!(
            (field.as_str(), r.as_str()),
            ("annual_election", "fiscal_year_not_allowed")
        );
        match fiscal.allowed_by(Some(&hayward)) {
            Err(DomainError::Invalid { message, .. }) => {
                assert!(message.contains("Hayward room tax"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        assert!(fiscal.allowed_by(Some(&montello)).is_ok());
        assert!(Election::Calendar.allowed_by(Some(&hayward)).is_ok());
        assert!(Election::Calendar.allowed_by(None).is_ok());
        assert!(fiscal.allowed_by(None).is_err());
    }

    #[test]
    fn stored_pairs_round_trip() {
        assert_eq!(
            Election::from_stored("fiscal", Some(6)),
            Some(Election::Fiscal { year_end: m(6) })
        );
        assert_eq!(
            Election::from_stored("calendar", None),
            Some(Election::Calendar)
        );
        assert_eq!(Election::from_stored("calendar", Some(6)), None);
        assert_eq!(Election::from_stored("lunar", None), None);
    }
}

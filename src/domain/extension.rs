//! Extensions of the time to file a return: the request, and the clerk-treasurer's
//! decision.
//!
//! Contract:
//! - only a policy with `max_extension_months` has extensions (Montello room tax,
//!   administration ¶: the Clerk-Treasurer "may, for good cause, extend the time for
//!   filing any return, but in no event longer than one month from the filing date").
//!   Where it is absent (Hayward, whose returns ¶A fixes the filing date and provides no
//!   extension) every request and every grant is refused: field `period`, rule
//!   `extension_not_allowed`, the message naming the municipality and citing its
//!   due-date rule;
//! - a request carries the good cause as a [`Reason`]: trimmed, at most [`REASON_MAX`]
//!   characters, not blank, no control characters but line breaks and tabs (field
//!   `reason`; rules `non_empty`, `max_length`, `no_control_characters`);
//! - a grant sets a new filing due date strictly after the return's due date (field
//!   `extended_to`, rule `extension_not_after_due_date`) and at most
//!   `max_extension_months` past it, a month's last day going to the next month's last
//!   day (rule `extension_beyond_limit`, see `compute::due`). The limit always counts
//!   from the original due date, so a second grant can lengthen an extension up to the
//!   same limit, never beyond it. The grant's note is optional; a refusal needs its
//!   reason;
//! - the granted date moves the filing due date for the late filing fee and the
//!   late-payment forfeiture's 30 days, never the due date interest runs from (Montello
//!   room tax, interest ¶); [`GrantedExtension::extended_to`] is what `QuoteInput::
//!   extended_to` takes.
//!
//! Pure: the caller looks up the return and records the decision.

use chrono::NaiveDate;

use crate::domain::calendar::add_months_month_end;
use crate::domain::compute::{extended_filing_due_date, return_due_date};
use crate::domain::error::DomainError;
use crate::domain::explain::DateLine;
use crate::domain::period::Period;
use crate::domain::policy::{Cited, Policy, PolicyHistory};
use crate::domain::registry::text::{judge, registry_fault};

/// Longest reason (or note) of an extension request or decision, in characters.
pub const REASON_MAX: usize = 2000;

/// Why an extension is asked for, granted or refused: free text, judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason(String);

impl Reason {
    /// Parses the value of `field` (see the module doc for the rules).
    pub fn parse(field: &str, raw: &str) -> Result<Reason, DomainError> {
        judge(raw, REASON_MAX, true)
            .map(Reason)
            .map_err(|fault| registry_fault(field, fault, REASON_MAX))
    }

    /// The text, trimmed.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The policy's extension limit, or the refusal of a municipality that has none.
pub fn extension_limit(policy: &Policy) -> Result<&Cited<u32>, DomainError> {
    policy.max_extension_months.as_ref().ok_or_else(|| {
        DomainError::invalid(
            "period",
            "extension_not_allowed",
            format!(
                "{}'s ordinance provides no extension of the time to file a return ({}: no such provision; the return is due as {})",
                policy.municipality, policy.title, policy.quarterly_due.citation
            ),
        )
    })
}

/// An extension request that may be put to the clerk-treasurer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtensionRequest {
    /// The return's period.
    pub period: Period,
    /// The good cause given.
    pub reason: Reason,
}

impl ExtensionRequest {
    /// Judges a request for the return of `period` (refused where the governing policy
    /// has no extension, or the reason is not acceptable text).
    pub fn new(
        history: &PolicyHistory,
        period: Period,
        reason: &str,
    ) -> Result<ExtensionRequest, DomainError> {
        extension_limit(history.governing(&period)?)?;
        Ok(ExtensionRequest {
            period,
            reason: Reason::parse("reason", reason)?,
        })
    }
}

/// A granted extension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantedExtension {
    /// The return's due date (interest still runs from it).
    pub due_date: NaiveDate,
    /// The new filing due date.
    pub extended_to: NaiveDate,
    /// The latest date the policy allowed.
    pub limit: NaiveDate,
    /// The clerk-treasurer's note, if any.
    pub note: Option<Reason>,
    /// The new filing due date explained (code `filing_due_date`), citing the policy.
    pub line: DateLine,
}

/// The clerk-treasurer's decision on a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExtensionDecision {
    /// Granted, with the new filing due date.
    Granted(GrantedExtension),
    /// Refused, with the reason.
    Refused {
        /// Why.
        reason: Reason,
    },
}

/// Grants an extension of the return of `period` to `extended_to` (see the module doc);
/// `note` is optional (field `note`).
pub fn grant(
    history: &PolicyHistory,
    period: &Period,
    extended_to: NaiveDate,
    note: Option<&str>,
) -> Result<ExtensionDecision, DomainError> {
    let policy = history.governing(period)?;
    let months = extension_limit(policy)?.value;
    let due_line = return_due_date(policy, period)?;
    let due = due_line.date;
    if extended_to <= due {
        return Err(DomainError::invalid(
            "extended_to",
            "extension_not_after_due_date",
            format!(
                "an extension must move the filing date past the due date {due} (asked {extended_to})"
            ),
        ));
    }
    let line = extended_filing_due_date(policy, &due_line, Some(extended_to))?;
    let limit = add_months_month_end(due, months);
    let note = note.map(|text| Reason::parse("note", text)).transpose()?;
    Ok(ExtensionDecision::Granted(GrantedExtension {
        due_date: due,
        extended_to,
        limit,
        note,
        line,
    }))
}

/// Refuses an extension, with its reason (field `reason`).
pub fn refuse(reason: &str) -> Result<ExtensionDecision, DomainError> {
    Ok(ExtensionDecision::Refused {
        reason: Reason::parse("reason", reason)?,
    })
}

/// Where an extension request stands.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum ExtensionStatus {
    /// Waiting for the clerk-treasurer's decision.
    Requested,
    /// Granted, with the new filing due date.
    Granted,
    /// Refused, with the reason.
    Refused,
}

impl ExtensionStatus {
    /// Every status.
    pub const ALL: [ExtensionStatus; 3] = [
        ExtensionStatus::Requested,
        ExtensionStatus::Granted,
        ExtensionStatus::Refused,
    ];

    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            ExtensionStatus::Requested => "requested",
            ExtensionStatus::Granted => "granted",
            ExtensionStatus::Refused => "refused",
        }
    }

    /// The status stored as `text`, if it is one.
    pub fn from_stored(text: &str) -> Option<ExtensionStatus> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// The dates an extension of the return of `period` is judged by, explained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtensionWindow {
    /// The return's due date (interest runs from it whatever is granted).
    pub due: DateLine,
    /// The latest filing due date a grant may set (`None`: the policy has no extension).
    pub limit: Option<NaiveDate>,
    /// The filing due date: the granted date when `extended_to` is given, else the due date.
    pub filing_due: DateLine,
}

/// The window of the return of `period` under the governing policy, with the filing due
/// date `extended_to` (a granted extension) sets, if any.
pub fn window(
    history: &PolicyHistory,
    period: &Period,
    extended_to: Option<NaiveDate>,
) -> Result<ExtensionWindow, DomainError> {
    let policy = history.governing(period)?;
    let due = return_due_date(policy, period)?;
    let limit = policy
        .max_extension_months
        .as_ref()
        .map(|months| add_months_month_end(due.date, months.value));
    let filing_due = extended_filing_due_date(policy, &due, extended_to)?;
    Ok(ExtensionWindow {
        due,
        limit,
        filing_due,
    })
}

/// Whether an extension for `period` may still be asked on `today` (the
/// municipality's local date): not before the period has begun (there is no
/// return to extend yet: `period_not_started`), and not after the latest date
/// the policy could extend its filing to (Montello room tax, administration ¶:
/// "in no event longer than one month from the filing date"; after it, an
/// extension could only waive what lateness already owes: `extension_too_late`).
pub fn check_asked_in_time(
    history: &PolicyHistory,
    period: &Period,
    today: NaiveDate,
) -> Result<(), DomainError> {
    if today < period.first_day() {
        return Err(DomainError::invalid(
            "period",
            "period_not_started",
            format!(
                "{period} begins on {}: no return of it can be extended yet",
                period.first_day()
            ),
        ));
    }
    let window = window(history, period, None)?;
    if let Some(limit) = window.limit
        && today > limit
    {
        return Err(DomainError::invalid(
            "period",
            "extension_too_late",
            format!(
                "the time to file {period} could be extended to {limit} at the latest, a date already passed (today is {today})"
            ),
        ));
    }
    Ok(())
}

/// Whether a grant's date is still to come: an extension to a date already
/// passed would only waive the lateness the return already owes
/// (`extension_in_the_past`, field `extended_to`).
pub fn check_granted_in_time(extended_to: NaiveDate, today: NaiveDate) -> Result<(), DomainError> {
    if extended_to < today {
        return Err(DomainError::invalid(
            "extended_to",
            "extension_in_the_past",
            format!(
                "{extended_to} has already passed (today is {today}): an extension moves a date still to come"
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::d;
    use crate::domain::presets::{hayward, montello};

    fn history(policy: Policy) -> PolicyHistory {
        PolicyHistory::single(policy).unwrap()
    }

    fn p(text: &str) -> Period {
        text.parse().unwrap()
    }

    fn fault<T: std::fmt::Debug>(result: Result<T, DomainError>) -> (String, String, String) {
        match result {
            Err(DomainError::Invalid {
                field,
                rule,
                message,
            }) => (field, rule, message),
            other => panic!("not refused: {other:?}"),
        }
    }

    fn granted(decision: ExtensionDecision) -> GrantedExtension {
        match decision {
            ExtensionDecision::Granted(grant) => grant,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn montello_grants_up_to_one_month_past_the_due_date() {
        let m = history(montello());
        // 2026-Q1 due 2026-04-30: one month later is 2026-05-31 (a month's end).
        let g = granted(grant(&m, &p("2026-Q1"), d("2026-05-31"), Some("flood")).unwrap());
        assert_eq!(
            (g.due_date, g.extended_to, g.limit),
            (d("2026-04-30"), d("2026-05-31"), d("2026-05-31"))
        );
        assert_eq!(g.note.as_ref().map(Reason::as_str), Some("flood"));
        assert_eq!(g.line.code, "filing_due_date");
        assert!(
            g.line.citation.contains("for good cause"),
            "{}",
            g.line.citation
        );
        // 2025-Q4 due 2026-01-31: the limit is February's last day.
        let g = granted(grant(&m, &p("2025-Q4"), d("2026-02-28"), None).unwrap());
        assert_eq!(g.limit, d("2026-02-28"));
        assert!(g.note.is_none());
        // The annual return for 2025, due 2026-03-31: limit 2026-04-30.
        let g = granted(grant(&m, &p("2025"), d("2026-04-15"), None).unwrap());
        assert_eq!((g.due_date, g.limit), (d("2026-03-31"), d("2026-04-30")));
        // A day after the due date is the shortest extension.
        assert!(grant(&m, &p("2026-Q1"), d("2026-05-01"), None).is_ok());
    }

    #[test]
    fn montello_refuses_dates_outside_the_window() {
        let m = history(montello());
        let (field, rule, _) = fault(grant(&m, &p("2026-Q1"), d("2026-06-01"), None));
        assert_eq!(
            (field.as_str(), rule.as_str()),
            ("extended_to", "extension_beyond_limit")
        );
        for date in ["2026-04-30", "2026-04-01"] {
            let (field, rule, _) = fault(grant(&m, &p("2026-Q1"), d(date), None));
            assert_eq!(
                (field.as_str(), rule.as_str()),
                ("extended_to", "extension_not_after_due_date"),
                "{date}"
            );
        }
        let (field, rule, _) = fault(grant(&m, &p("2026-Q1"), d("2026-05-15"), Some(" ")));
        assert_eq!((field.as_str(), rule.as_str()), ("note", "non_empty"));
    }

    #[test]
    fn hayward_has_no_extension_and_says_so_citing_its_policy() {
        let h = history(hayward());
        let (field, rule, message) = fault(ExtensionRequest::new(&h, p("2026-Q1"), "flood"));
        assert_eq!(
            (field.as_str(), rule.as_str()),
            ("period", "extension_not_allowed")
        );
        assert!(
            message.starts_with("City of Hayward's ordinance provides no extension"),
            "{message}"
        );
        assert!(message.contains("Ord. No. 301"), "{message}");
        assert!(message.contains("Hayward room tax, due date"), "{message}");
        let (_, rule, _) = fault(grant(&h, &p("2026-Q1"), d("2026-05-15"), None));
        assert_eq!(rule, "extension_not_allowed");
    }

    #[test]
    fn requests_need_a_reason_and_refusals_too() {
        let m = history(montello());
        let request = ExtensionRequest::new(&m, p("2026-Q2"), "  the bookkeeper is ill\n").unwrap();
        assert_eq!(request.reason.as_str(), "the bookkeeper is ill");
        for (raw, expected) in [
            ("", "non_empty"),
            ("\u{200B}", "non_empty"),
            ("a\u{0007}b", "no_control_characters"),
        ] {
            let (field, rule, _) = fault(ExtensionRequest::new(&m, p("2026-Q2"), raw));
            assert_eq!(
                (field.as_str(), rule.as_str()),
                ("reason", expected),
                "{raw:?}"
            );
        }
        let long = "x".repeat(REASON_MAX + 1);
        assert_eq!(
            fault(ExtensionRequest::new(&m, p("2026-Q2"), &long)).1,
            "max_length"
        );
        assert!(ExtensionRequest::new(&m, p("2026-Q2"), &long[1..]).is_ok());

        assert_eq!(
            refuse("no good cause shown"),
            Ok(ExtensionDecision::Refused {
                reason: Reason("no good cause shown".into())
            })
        );
        assert_eq!(fault(refuse("")).1, "non_empty");
    }

    #[test]
    fn no_policy_in_force_is_no_policy() {
        let m = history(montello()); // effective 2020-01-01
        assert_eq!(
            ExtensionRequest::new(&m, p("2019-Q4"), "flood"),
            Err(DomainError::NoPolicy {
                date: d("2019-12-31")
            })
        );
    }

    #[test]
    fn the_window_names_the_due_date_the_limit_and_the_filing_due_date() {
        let m = history(montello());
        let w = window(&m, &p("2026-Q1"), None).unwrap();
        assert_eq!(
            (w.due.date, w.limit, w.filing_due.date),
            (d("2026-04-30"), Some(d("2026-05-31")), d("2026-04-30"))
        );
        let w = window(&m, &p("2026-Q1"), Some(d("2026-05-20"))).unwrap();
        assert_eq!(w.filing_due.date, d("2026-05-20"));
        assert_eq!(w.filing_due.code, "filing_due_date");
        let w = window(&history(hayward()), &p("2026-Q1"), None).unwrap();
        assert_eq!((w.due.date, w.limit), (d("2026-04-30"), None));
        for s in ExtensionStatus::ALL {
            assert_eq!(ExtensionStatus::from_stored(s.as_str()), Some(s));
        }
        assert_eq!(ExtensionStatus::from_stored("open"), None);
    }

    #[test]
    fn an_extension_is_asked_between_the_periods_start_and_the_latest_date_allowed() {
        let h = history(montello());
        let q3 = Period::parse("2026-Q3").unwrap();
        // Due 2026-10-31; at most one month: 2026-11-30.
        assert!(check_asked_in_time(&h, &q3, d("2026-11-30")).is_ok());
        let late = check_asked_in_time(&h, &q3, d("2026-12-01")).unwrap_err();
        assert!(format!("{late:?}").contains("extension_too_late"));
        let early = check_asked_in_time(&h, &q3, d("2026-06-30")).unwrap_err();
        assert!(format!("{early:?}").contains("period_not_started"));
        assert!(check_granted_in_time(d("2026-11-30"), d("2026-11-30")).is_ok());
        assert!(check_granted_in_time(d("2026-11-29"), d("2026-11-30")).is_err());
    }
}

//! The terms of a disclosure grant: a court order or legal duty that lets
//! one person read named payors for a limited time.
//!
//! Contract: [`DisclosureTerms::parse`] judges a request's own fields and
//! reports every fault at once: the reference is free text of 1 to 200
//! characters (rule `length`; control characters `no_control_characters`),
//! the basis is `court_order` or `legal_duty` (`disclosure_basis`), the
//! grantee e-mail carries no control character, the payors are 1 to
//! [`MAX_PAYORS`] ids (`count`), each named once (`distinct` on
//! `payor_ids[i]`) and free of control characters, and the expiry is an
//! RFC 3339 instant (`rfc3339`) in the future (`in_future`) at most
//! [`MAX_TERM_DAYS`] days away (`max_term`). Montello's ordinance keeps
//! returns confidential and lets the clerk-treasurer divulge them only to
//! the filer, the office, "other persons for use in the discharge of their
//! duties as imposed by law" or "by an order of a court" (Montello room
//! tax, confidentiality ¶); the grant is read-only and time-limited so that
//! the exception stays narrow.
//! Whether the grantee and the payors exist is for the use case to ask.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::{
    DomainError,
    registry::{Faults, Invalid, TextFault, text::judge},
};

/// The longest a disclosure grant may run, in days from its creation.
pub const MAX_TERM_DAYS: i64 = 366;
/// The most payors one grant may name.
pub const MAX_PAYORS: usize = 100;
/// Longest reference, in characters.
pub const REFERENCE_MAX: usize = 200;

/// Why the law allows the disclosure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DisclosureBasis {
    /// A court order.
    CourtOrder,
    /// A person whose legal duties require the information.
    LegalDuty,
}

impl DisclosureBasis {
    /// The basis named `text`, if any.
    pub fn from_name(text: &str) -> Option<Self> {
        match text {
            "court_order" => Some(Self::CourtOrder),
            "legal_duty" => Some(Self::LegalDuty),
            _ => None,
        }
    }

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::CourtOrder => "court_order",
            Self::LegalDuty => "legal_duty",
        }
    }
}

/// A disclosure request as sent (the transport fills it).
#[derive(Debug, Clone, Copy)]
pub struct DisclosureDraft<'a> {
    /// The court order's or legal duty's reference.
    pub reference: &'a str,
    /// `court_order` or `legal_duty`.
    pub basis: &'a str,
    /// E-mail of the grantee.
    pub grantee_email: &'a str,
    /// The payor ids named.
    pub payor_ids: &'a [String],
    /// The expiry, as sent.
    pub expires_at: &'a str,
}

/// The valid terms of a grant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisclosureTerms {
    /// The reference, trimmed.
    pub reference: String,
    /// The basis.
    pub basis: DisclosureBasis,
    /// The grantee's e-mail, trimmed.
    pub grantee_email: String,
    /// The payor ids, in the order sent (each once).
    pub payor_ids: Vec<String>,
    /// The expiry (UTC).
    pub expires_at: DateTime<Utc>,
}

fn control(field: &str) -> DomainError {
    DomainError::invalid(
        field,
        "no_control_characters",
        "must not contain control characters",
    )
}

impl DisclosureTerms {
    /// Judge every field at once, `now` being the time of the request.
    pub fn parse(draft: DisclosureDraft<'_>, now: DateTime<Utc>) -> Result<Self, Invalid> {
        let mut f = Faults::default();
        let reference = match judge(draft.reference, REFERENCE_MAX, false) {
            Ok(r) => Some(r),
            Err(TextFault::Control) => {
                f.add(control("reference"));
                None
            }
            Err(_) => {
                f.invalid("reference", "length", "give 1 to 200 characters");
                None
            }
        };
        let basis = DisclosureBasis::from_name(draft.basis);
        if basis.is_none() {
            f.invalid(
                "basis",
                "disclosure_basis",
                "one of `court_order`, `legal_duty`",
            );
        }
        let grantee_email = draft.grantee_email.trim();
        if grantee_email.chars().any(char::is_control) {
            f.add(control("grantee_email"));
        }
        let ids = draft.payor_ids;
        if ids.is_empty() || ids.len() > MAX_PAYORS {
            f.invalid(
                "payor_ids",
                "count",
                format!("name 1 to {MAX_PAYORS} payors"),
            );
        }
        for (i, id) in ids.iter().enumerate() {
            let field = format!("payor_ids[{i}]");
            if id.chars().any(char::is_control) {
                f.add(control(&field));
            } else if ids[..i].contains(id) {
                f.invalid(&field, "distinct", "this payor is already named");
            }
        }
        let expires_at = f.take(expiry(draft.expires_at, now));
        f.check()?;
        match (reference, basis, expires_at) {
            (Some(reference), Some(basis), Some(expires_at)) => Ok(Self {
                reference,
                basis,
                grantee_email: grantee_email.to_owned(),
                payor_ids: ids.to_vec(),
                expires_at,
            }),
            _ => Err(Invalid(Vec::new())),
        }
    }
}

/// An expiry: RFC 3339, in the future, at most [`MAX_TERM_DAYS`] days from `now`.
pub fn expiry(raw: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, DomainError> {
    let at = DateTime::parse_from_rfc3339(raw)
        .map_err(|_| {
            DomainError::invalid(
                "expires_at",
                "rfc3339",
                "an RFC 3339 instant, e.g. 2027-01-31T23:59:59Z",
            )
        })?
        .with_timezone(&Utc);
    if at <= now {
        return Err(DomainError::invalid(
            "expires_at",
            "in_future",
            "must be in the future",
        ));
    }
    if at > now + Duration::days(MAX_TERM_DAYS) {
        return Err(DomainError::invalid(
            "expires_at",
            "max_term",
            format!("at most {MAX_TERM_DAYS} days from now; record a new grant to extend"),
        ));
    }
    Ok(at)
}

/// Whether a grant is in force at `now`.
pub fn in_force(revoked: bool, expires_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    !revoked && expires_at > now
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::registry::faults::testing::{pair, refused};

    fn now() -> DateTime<Utc> {
        "2026-12-01T12:00:00Z".parse().unwrap()
    }

    #[test]
    fn valid_terms_are_trimmed() {
        let ids = vec!["a".to_owned(), "b".to_owned()];
        let t = DisclosureTerms::parse(
            DisclosureDraft {
                reference: " Case 1 ",
                basis: "legal_duty",
                grantee_email: " x@y.example ",
                payor_ids: &ids,
                expires_at: "2027-06-30T18:00:00-05:00",
            },
            now(),
        )
        .unwrap();
        assert_eq!(t.reference, "Case 1");
        assert_eq!(t.grantee_email, "x@y.example");
        assert_eq!(t.expires_at.to_rfc3339(), "2027-06-30T23:00:00+00:00");
    }

    #[test]
    fn every_fault_is_reported_at_once() {
        let ids = vec!["a".to_owned(), "a".to_owned(), "b\0".to_owned()];
        let got = refused(DisclosureTerms::parse(
            DisclosureDraft {
                reference: "\u{200B}",
                basis: "curiosity",
                grantee_email: "x\0@y",
                payor_ids: &ids,
                expires_at: "next month",
            },
            now(),
        ));
        assert_eq!(
            got,
            vec![
                pair("reference", "length"),
                pair("basis", "disclosure_basis"),
                pair("grantee_email", "no_control_characters"),
                pair("payor_ids[1]", "distinct"),
                pair("payor_ids[2]", "no_control_characters"),
                pair("expires_at", "rfc3339"),
            ]
        );
    }

    #[test]
    fn the_term_is_bounded() {
        let n = now();
        assert!(
            expiry("2026-12-01T12:00:00Z", n).is_err(),
            "now is not the future"
        );
        assert!(expiry("2026-12-01T12:00:01Z", n).is_ok());
        let last = (n + Duration::days(MAX_TERM_DAYS)).to_rfc3339();
        assert!(expiry(&last, n).is_ok());
        let over = (n + Duration::days(MAX_TERM_DAYS) + Duration::seconds(1)).to_rfc3339();
        assert!(
            matches!(expiry(&over, n), Err(DomainError::Invalid { rule, .. }) if rule == "max_term")
        );
        assert!(in_force(false, n + Duration::seconds(1), n));
        assert!(!in_force(true, n + Duration::seconds(1), n));
        assert!(!in_force(false, n, n));
    }

    #[test]
    fn a_control_character_in_the_reference_is_named() {
        let ids = vec!["a".to_owned()];
        let got = refused(DisclosureTerms::parse(
            DisclosureDraft {
                reference: "Case\u{7}",
                basis: "court_order",
                grantee_email: "x@y.example",
                payor_ids: &ids,
                expires_at: "2027-01-01T00:00:00Z",
            },
            now(),
        ));
        assert_eq!(got, vec![pair("reference", "no_control_characters")]);
    }
}

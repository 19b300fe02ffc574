//! Written notices: what a notice says, before it is stored and rendered.
//!
//! Contract: pure. A [`NoticeDraft`] is the whole content of one notice (its
//! kind, the payor it is addressed to, the date it is issued, a title, the
//! addressee block, paragraphs of text, the amounts it states and the
//! citations it relies on) plus what it is tied to: the ledger journal it
//! reports, if any, and its cause (`cause_type`/`cause_id`, named like the
//! ledger's [`Cause`](super::ledger::Cause)). The use case that makes a
//! determination, requires security, writes a delinquency letter or issues a
//! clearance certificate builds the draft; `usecases::notices::issue` stores
//! it in the same unit of work as the journal it reports; the document is
//! rendered from the stored content. A notice is never changed: a corrected
//! notice is a new one.

use std::fmt;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::domain::money::Money;

/// What kind of written notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// The notice of an office or field audit or a fraud determination.
    Determination,
    /// The notice of a non-filer estimate.
    Estimate,
    /// The clerk requires a security deposit.
    SecurityRequired,
    /// The written notice before a security deposit is applied (the 10-day
    /// clock starts at its date).
    SecurityApplication,
    /// A letter about unpaid amounts past due.
    Delinquency,
    /// A clearance certificate on the sale of a business (Montello).
    ClearanceCertificate,
}

impl NoticeKind {
    /// Every kind.
    pub const ALL: [NoticeKind; 6] = [
        NoticeKind::Determination,
        NoticeKind::Estimate,
        NoticeKind::SecurityRequired,
        NoticeKind::SecurityApplication,
        NoticeKind::Delinquency,
        NoticeKind::ClearanceCertificate,
    ];

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            NoticeKind::Determination => "determination",
            NoticeKind::Estimate => "estimate",
            NoticeKind::SecurityRequired => "security_required",
            NoticeKind::SecurityApplication => "security_application",
            NoticeKind::Delinquency => "delinquency",
            NoticeKind::ClearanceCertificate => "clearance_certificate",
        }
    }

    /// The kind named `text`.
    pub fn parse(text: &str) -> Option<NoticeKind> {
        NoticeKind::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

impl fmt::Display for NoticeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One amount a notice states (a table row: what, for which period, how much).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoticeAmount {
    /// What the amount is ("Tax", "Interest to 2026-12-01", "Penalty (10 %)").
    pub label: String,
    /// The period it belongs to, if any (`2025-Q3`).
    pub period: Option<String>,
    /// The amount.
    pub amount: Money,
}

/// The whole content of a notice (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoticeDraft {
    /// Its kind.
    pub kind: NoticeKind,
    /// The payor it is addressed to.
    pub payor_id: String,
    /// The date it is issued (the municipality's local date); a clock that
    /// runs from the notice (security: 10 days) starts here.
    pub issued_on: NaiveDate,
    /// Its title ("Notice of non-filer estimate, 2025-Q2").
    pub title: String,
    /// The addressee block, one line per entry (name, mailing address).
    pub addressee: Vec<String>,
    /// The body, one paragraph per entry.
    pub paragraphs: Vec<String>,
    /// The amounts it states, in order.
    pub amounts: Vec<NoticeAmount>,
    /// The provisions it relies on ("Montello room tax ordinance, ¶ ...",
    /// "Wis. Stat. § 66.0615(2)(a)").
    pub citations: Vec<String>,
    /// The ledger journal it reports, if it posts one.
    pub journal_id: Option<String>,
    /// What it is about: a cause type as the ledger names them
    /// (`determination`, `security_deposit`, `return`, ...) or `payor`.
    pub cause_type: String,
    /// The id of what it is about.
    pub cause_id: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip() {
        for k in NoticeKind::ALL {
            assert_eq!(NoticeKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(NoticeKind::parse("reminder"), None);
    }
}

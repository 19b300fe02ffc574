//! The commission's review of an expenditure report: the acts and their rules.
//!
//! Contract (issue 10 item 4; Montello room tax, distribution ¶B): a
//! commission member comments on the report or one of its items, asks a
//! question (the tourism entity answers it, once), accepts the latest
//! version, or returns it for correction with a reason. Each version is
//! decided at most once ([`ReviewFault::Conflict`] `already_decided`): a
//! returned version is corrected by a new version, which is reviewed again;
//! an accepted report is final: it cannot be amended
//! (`accepted_reports_are_final`). A version's [`Status`] follows from the
//! acts: its decision, else `superseded` when a later version exists, else
//! `submitted`. Pure: no I/O.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{LINE_MAX, TEXT_MAX};
use crate::domain::{
    DomainError,
    registry::text::{judge, registry_fault},
};

/// Where a version of a report stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Filed and awaiting the commission's decision.
    Submitted,
    /// Returned for correction (a new version corrects it).
    Returned,
    /// Accepted by the commission: final.
    Accepted,
    /// A later version replaced it before any decision.
    Superseded,
}

/// One act of the review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    /// A remark on the report or one item.
    Comment,
    /// A question the tourism entity answers.
    Question,
    /// The tourism entity's answer to a question.
    Answer,
    /// The commission accepts the version.
    Accept,
    /// The commission returns the version for correction, with a reason.
    Return,
}

impl Act {
    /// Every act.
    pub const ALL: [Act; 5] = [
        Act::Comment,
        Act::Question,
        Act::Answer,
        Act::Accept,
        Act::Return,
    ];

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            Act::Comment => "comment",
            Act::Question => "question",
            Act::Answer => "answer",
            Act::Accept => "accept",
            Act::Return => "return",
        }
    }

    /// A stored act.
    pub fn from_stored(raw: &str) -> Option<Act> {
        Act::ALL.into_iter().find(|a| a.as_str() == raw)
    }
}

/// Why an act is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReviewFault {
    /// A field breaks a rule (422).
    Invalid(DomainError),
    /// The report's state does not allow it (409): field, rule, message.
    Conflict(&'static str, &'static str, String),
}

/// The status of `version` given its decision (if any) and the latest version.
pub fn status_of(version: i64, latest: i64, decision: Option<Act>) -> Status {
    match decision {
        Some(Act::Accept) => Status::Accepted,
        Some(Act::Return) => Status::Returned,
        _ if version < latest => Status::Superseded,
        _ => Status::Submitted,
    }
}

/// Judge a commission member's act on the latest version, whose status is
/// `latest`, and whose item lines are `lines`; answers the judged text.
pub fn judge_act(
    act: Act,
    item: Option<i64>,
    text: Option<&str>,
    latest: Status,
    lines: &[i64],
) -> Result<Option<String>, ReviewFault> {
    if act == Act::Answer {
        return Err(ReviewFault::Invalid(DomainError::invalid(
            "act",
            "one_of",
            "the commission comments, asks, accepts or returns; the tourism entity answers a question at its own path",
        )));
    }
    if let Some(line) = item
        && !lines.contains(&line)
    {
        return Err(ReviewFault::Invalid(DomainError::invalid(
            "item",
            "no_such_item",
            format!("the latest version has no item line {line}"),
        )));
    }
    let judged = match text {
        Some(raw) => Some(
            judge(raw, TEXT_MAX, true)
                .map_err(|f| ReviewFault::Invalid(registry_fault("text", f, TEXT_MAX)))?,
        ),
        None => None,
    };
    if judged.is_none() && act != Act::Accept {
        let rule = if act == Act::Return {
            "reason_required"
        } else {
            "required"
        };
        return Err(ReviewFault::Invalid(DomainError::invalid(
            "text",
            rule,
            "a comment, a question and a return for correction state their text",
        )));
    }
    if matches!(act, Act::Accept | Act::Return) {
        if item.is_some() {
            return Err(ReviewFault::Invalid(DomainError::invalid(
                "item",
                "decides_the_report",
                "a version is accepted or returned as a whole",
            )));
        }
        if latest != Status::Submitted {
            return Err(ReviewFault::Conflict(
                "act",
                "already_decided",
                format!(
                    "the latest version is {}: only a submitted version is accepted or returned",
                    serde_json::to_value(latest)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_owned))
                        .unwrap_or_default()
                ),
            ));
        }
    }
    Ok(judged)
}

/// Judge the tourism entity's answer text.
pub fn judge_answer(text: &str) -> Result<String, DomainError> {
    judge(text, TEXT_MAX, true).map_err(|f| registry_fault("text", f, TEXT_MAX))
}

/// Refuse an amendment of an accepted report.
pub fn may_amend(latest: Status) -> Result<(), ReviewFault> {
    if latest == Status::Accepted {
        return Err(ReviewFault::Conflict(
            "version",
            "accepted_reports_are_final",
            "the commission accepted this report: it cannot be amended".into(),
        ));
    }
    Ok(())
}

/// Judge one line of free text of `field` (at most [`LINE_MAX`] characters).
pub fn one_line(field: &str, raw: &str) -> Result<String, DomainError> {
    crate::domain::registry::text::one_line(field, raw, LINE_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_acts() {
        assert_eq!(status_of(1, 1, None), Status::Submitted);
        assert_eq!(status_of(1, 2, None), Status::Superseded);
        assert_eq!(status_of(1, 2, Some(Act::Return)), Status::Returned);
        assert_eq!(status_of(2, 2, Some(Act::Accept)), Status::Accepted);
    }

    #[test]
    fn acts_are_judged() {
        let lines = [1, 2];
        assert_eq!(
            judge_act(
                Act::Comment,
                Some(2),
                Some(" ok "),
                Status::Submitted,
                &lines
            ),
            Ok(Some("ok".into()))
        );
        assert!(matches!(
            judge_act(Act::Comment, Some(3), Some("x"), Status::Submitted, &lines),
            Err(ReviewFault::Invalid(_))
        ));
        assert!(matches!(
            judge_act(Act::Return, None, None, Status::Submitted, &lines),
            Err(ReviewFault::Invalid(DomainError::Invalid { rule, .. })) if rule == "reason_required"
        ));
        assert_eq!(
            judge_act(Act::Accept, None, None, Status::Submitted, &lines),
            Ok(None)
        );
        assert!(matches!(
            judge_act(Act::Accept, None, None, Status::Returned, &lines),
            Err(ReviewFault::Conflict(_, "already_decided", _))
        ));
        assert!(matches!(
            judge_act(
                Act::Question,
                None,
                Some("a\u{1}b"),
                Status::Accepted,
                &lines
            ),
            Err(ReviewFault::Invalid(_))
        ));
        assert!(may_amend(Status::Returned).is_ok());
        assert!(matches!(
            may_amend(Status::Accepted),
            Err(ReviewFault::Conflict(_, "accepted_reports_are_final", _))
        ));
    }
}

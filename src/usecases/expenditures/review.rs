//! The commission's review of a report, and the tourism entity's answers.
//!
//! Contract: [`act`] (`ReviewExpenditureReports`: commission members, as
//! persons) records a comment or question on the latest version (on the
//! report or one of its item lines), or decides it: accepts it or returns it
//! for correction with a reason (each version once: 409 `already_decided`).
//! [`answer`] (`FileExpenditureReports`: the tourism entity) answers a
//! question once (409 `already_answered`; the database's unique index holds
//! it under concurrency). Every act is a row with who and when; the report's
//! JSON lists them all.

use chrono::NaiveDateTime;

use super::{actor, conflict, filing::review_fault, load};
use crate::{
    db::{self, DbConn, expenditures::ReviewRow},
    domain::expenditure::review::{Act, judge_act, judge_answer},
    error::ApiError,
    tenancy::{ZoneAction, ZoneContext},
};

/// A commission member's act.
#[derive(Debug, Clone)]
pub struct NewAct {
    /// What it is (not `answer`).
    pub act: Act,
    /// The item line it is about, if any.
    pub item: Option<i64>,
    /// Its text (a return's reason).
    pub text: Option<String>,
}

/// Record a commission member's act on a report's latest version.
pub fn act(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    report_id: &str,
    new: NewAct,
    now: NaiveDateTime,
) -> Result<ReviewRow, ApiError> {
    ctx.require(ZoneAction::ReviewExpenditureReports)?;
    let view = load(conn, ctx.zone_id, report_id, None)?;
    let latest = view.latest();
    let lines: Vec<i64> = view.items.iter().map(|(i, _)| i.line).collect();
    let text = judge_act(
        new.act,
        new.item,
        new.text.as_deref(),
        latest.status,
        &lines,
    )
    .map_err(review_fault)?;
    let row = ReviewRow {
        zone_id: ctx.zone_id,
        id: db::identity::new_id(),
        report_id: report_id.to_owned(),
        seq: view.reviews.len() as i64 + 1,
        version: latest.row.version,
        act: new.act.as_str().to_owned(),
        item_line: new.item,
        answers: None,
        text,
        by_actor: actor(ctx),
        at: now,
    };
    db::expenditures::insert_review(conn, &row)?;
    Ok(row)
}

/// The tourism entity answers a question of the review.
pub fn answer(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    report_id: &str,
    question_id: &str,
    text: &str,
    now: NaiveDateTime,
) -> Result<ReviewRow, ApiError> {
    ctx.require(ZoneAction::FileExpenditureReports)?;
    let view = load(conn, ctx.zone_id, report_id, None)?;
    let question = view
        .reviews
        .iter()
        .find(|r| r.id == question_id && r.act == Act::Question.as_str())
        .ok_or(ApiError::NotFound("question"))?
        .clone();
    let text = judge_answer(text)?;
    if view
        .reviews
        .iter()
        .any(|r| r.answers.as_deref() == Some(question_id))
    {
        return Err(conflict(
            "question",
            "already_answered",
            "this question has been answered",
        ));
    }
    let row = ReviewRow {
        zone_id: ctx.zone_id,
        id: db::identity::new_id(),
        report_id: report_id.to_owned(),
        seq: view.reviews.len() as i64 + 1,
        version: question.version,
        act: Act::Answer.as_str().to_owned(),
        item_line: question.item_line,
        answers: Some(question.id),
        text: Some(text),
        by_actor: actor(ctx),
        at: now,
    };
    db::expenditures::insert_review(conn, &row)?;
    Ok(row)
}

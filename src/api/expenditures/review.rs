//! `POST .../expenditure-reports/{report}/review` (a commission member's act)
//! and `POST .../review/{act}/answer` (the tourism entity answers a question).
//!
//! Contract: thin handlers over `usecases::expenditures::review`; the act is
//! recorded with who and when and listed in the report's `review`.

use actix_web::{HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{ReviewActOut, report_location};
use crate::{
    api::{
        caller::{InZone, ZoneUnit},
        extract::ApiJson,
        idempotency::Reply,
    },
    app::AppState,
    domain::expenditure::review::Act,
    error::{ApiError, Problem},
    tenancy::ZoneAction,
    usecases::expenditures::review::{self, NewAct},
};

/// A commission member's act on the latest version.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewIn {
    /// `comment`, `question`, `accept` or `return` (for correction).
    pub act: Act,
    /// The item line the comment or question is about (absent: the report).
    #[serde(default)]
    pub item: Option<i64>,
    /// The comment, the question or the reason for a return (required but for `accept`; 1 to 2000 characters).
    #[serde(default)]
    pub text: Option<String>,
}

/// The tourism entity's answer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerIn {
    /// The answer (1 to 2000 characters).
    pub text: String,
}

/// `{zone}/expenditure-reports/{report}/review/{act}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
struct QuestionPath {
    /// Zone slug, e.g. `marquette-county`.
    zone: String,
    /// Report id (UUID).
    report: String,
    /// The question's id (a review act).
    act: String,
}

/// Review a report: comment, ask, accept or return it for correction.
///
/// Only commission members, as persons (the tourism entity, the zone admin and member
/// municipalities' users 403; anyone else 404). Acts on the latest version; a comment or
/// question may name an item `line`. Accepting or returning decides the version once (409
/// `already_decided`); a returned report is corrected by a new version (amend), an
/// accepted one is final. Montello room tax, distribution ¶B: the tourism entity reports
/// to the commission.
#[utoipa::path(
    operation_id = "review_expenditure_report",
    tag = "expenditures",
    security(("bearer" = [])),
    params(super::ReportPath),
    request_body = ReviewIn,
    responses(
        (status = 201, description = "The act recorded", body = ReviewActOut,
            headers(("Location" = String, description = "Path of the report"))),
        (status = 409, description = "`already_decided`: the latest version was accepted or returned", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`text` missing (`required`, `reason_required`) or not text, `item` no line of the latest version (`no_such_item`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/expenditure-reports/{report}/review")]
pub async fn act(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
    body: Result<ApiJson<ReviewIn>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (zone, report) = path.into_inner();
    let now = crate::api::stamp::now(&state);
    let location = report_location(&zone, &report);
    let row = here
        .write_for(
            &state,
            ZoneAction::ReviewExpenditureReports,
            move |ZoneUnit { conn, ctx, .. }| {
                let body = body?.0;
                let new = NewAct {
                    act: body.act,
                    item: body.item,
                    text: body.text,
                };
                review::act(conn, &ctx, &report, new, now)
            },
        )
        .await?;
    Ok(Reply::created(location, &ReviewActOut::of(&row)?)?.response())
}

/// Answer a question of the commission's review.
///
/// Only the tourism entity, as a person. Each question is answered once (409
/// `already_answered`); the answer joins the review trail.
#[utoipa::path(
    operation_id = "answer_review_question",
    tag = "expenditures",
    security(("bearer" = [])),
    params(QuestionPath),
    request_body = AnswerIn,
    responses(
        (status = 201, description = "The answer recorded", body = ReviewActOut,
            headers(("Location" = String, description = "Path of the report"))),
        (status = 409, description = "`already_answered`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`text` blank, too long or with control characters", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/expenditure-reports/{report}/review/{act}/answer")]
pub async fn answer(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String, String)>,
    body: Result<ApiJson<AnswerIn>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (zone, report, question) = path.into_inner();
    let now = crate::api::stamp::now(&state);
    let location = report_location(&zone, &report);
    let row = here
        .write_for(
            &state,
            ZoneAction::FileExpenditureReports,
            move |ZoneUnit { conn, ctx, .. }| {
                let body = body?.0;
                review::answer(conn, &ctx, &report, &question, &body.text, now)
            },
        )
        .await?;
    Ok(Reply::created(location, &ReviewActOut::of(&row)?)?.response())
}

//! `POST /app/z/{zone}/expenditures/{report}/review`: a commission member
//! comments on, questions, accepts or returns the latest version, through
//! `usecases::expenditures::review::act` (the API's `POST .../reviews`:
//! `ReviewExpenditureReports`, each version decided once). Answers `303 See
//! Other` to the report; a refused act (422, 409) shows the report again
//! with the API's problem next to the review form's field.
//!
//! `POST /app/z/{zone}/expenditures/{report}/review/{act}/answer`: the
//! tourism entity answers a question, through
//! `usecases::expenditures::review::answer` (the API's
//! `POST .../review/{act}/answer`: `FileExpenditureReports`, each question
//! once); the same `303` or the report again with the problem next to the
//! answer's field (`answer-{act}`).

use actix_web::{HttpResponse, ResponseError as _, web};

use super::{base, caller_of, report::page};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    domain::expenditure::review::Act,
    error::{ApiError, FieldError},
    usecases::expenditures::{
        self,
        review::{self, NewAct},
    },
    web::{Posted, WebError, see_other, session::Visit},
};

/// `POST .../review`.
pub async fn act(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, report) = path.into_inner();
    let act = form.get("act").and_then(Act::from_stored).ok_or_else(|| {
        ApiError::Validation(vec![FieldError::new(
            "act",
            "one_of",
            "comment, question, accept or return",
        )])
    })?;
    let item = match form.get("item") {
        None => None,
        Some(raw) => Some(raw.parse::<i64>().map_err(|_| {
            ApiError::Validation(vec![FieldError::new("item", "integer", "an item line")])
        })?),
    };
    let new = NewAct {
        act,
        item,
        text: form.get("text").map(str::to_owned),
    };
    let now = crate::api::stamp::now(&state);
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let id = report.clone();
    let done = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            ctx.require_presence()?;
            review::act(conn, &ctx, &id, new, now)
        })
        .await;
    settle(&state, &visit, slug, report, done.map(|_| ()), |f| f).await
}

/// `303` to the report, or the report again with a refused act's problem
/// (422, 409) next to its field (`field` renames the API's field).
async fn settle(
    state: &AppState,
    visit: &Visit,
    slug: String,
    report: String,
    done: Result<(), ApiError>,
    field: impl Fn(String) -> String,
) -> Result<HttpResponse, WebError> {
    match done {
        Ok(()) => Ok(see_other(&format!("{}/expenditures/{report}", base(&slug)))),
        Err(err @ (ApiError::Validation(_) | ApiError::RuleConflict(_))) => {
            // The report again, the API's problem next to the form's fields.
            let problem = err.to_problem();
            let here = InZone::new(caller_of(visit)?, slug.clone());
            let (roles, view) = here
                .read(state, move |ZoneUnit { conn, ctx, .. }| {
                    let roles = ctx.require_presence()?;
                    Ok((roles, expenditures::show(conn, &ctx, &report, None)?))
                })
                .await?;
            let errors: Vec<FieldError> = problem
                .errors
                .iter()
                .map(|e| FieldError {
                    field: field(e.field.clone()),
                    ..e.clone()
                })
                .collect();
            Ok(page(
                visit,
                err.status_code(),
                &slug,
                &view,
                &roles,
                Some(&problem.detail),
                &errors,
            ))
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST .../review/{act}/answer`.
pub async fn answer(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, report, question) = path.into_inner();
    let text = form.shown("text").to_owned();
    let now = crate::api::stamp::now(&state);
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let (id, q) = (report.clone(), question.clone());
    let done = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            ctx.require_presence()?;
            review::answer(conn, &ctx, &id, &q, &text, now).map(|_| ())
        })
        .await;
    let named = format!("answer-{question}");
    settle(&state, &visit, slug, report, done, move |f| {
        if f == "text" || f == "question" {
            named.clone()
        } else {
            f
        }
    })
    .await
}

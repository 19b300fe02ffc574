//! `POST /app/z/{zone}/expenditures/{report}/review`: a commission member
//! comments on, questions, accepts or returns the latest version, through
//! `usecases::expenditures::review::act` (the API's `POST .../reviews`:
//! `ReviewExpenditureReports`, each version decided once). Answers `303 See
//! Other` to the report; a refused act (422, 409) shows the report again
//! with the API's problem next to the review form's field.

use actix_web::{HttpResponse, ResponseError as _, web};
use chrono::SubsecRound;

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
    web::{FormData, WebError, see_other, session::Visit},
};

/// `POST .../review`.
pub async fn act(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, WebError> {
    let form = FormData::checked(&visit, &body)?;
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
    let now = state.clock.now().naive_utc().trunc_subsecs(6);
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let id = report.clone();
    let done = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            ctx.require_presence()?;
            review::act(conn, &ctx, &id, new, now)
        })
        .await;
    match done {
        Ok(_) => Ok(see_other(&format!("{}/expenditures/{report}", base(&slug)))),
        Err(err @ (ApiError::Validation(_) | ApiError::RuleConflict(_))) => {
            // The report again, the API's problem next to the review form's fields.
            let problem = err.to_problem();
            let here = InZone::new(caller_of(&visit)?, slug.clone());
            let (roles, view) = here
                .read(&state, move |ZoneUnit { conn, ctx, .. }| {
                    let roles = ctx.require_presence()?;
                    Ok((roles, expenditures::show(conn, &ctx, &report, None)?))
                })
                .await?;
            Ok(page(
                &visit,
                err.status_code(),
                &slug,
                &view,
                &roles,
                Some(&problem.detail),
                &problem.errors,
            ))
        }
        Err(other) => Err(other.into()),
    }
}

//! `GET /app/m/{municipality}/clerk/delinquencies[?as_of=]` (every payor
//! with amounts past due, by period and age) and
//! `GET .../clerk/special-assessments.csv[?as_of=]` (the special-assessment
//! roll of unpaid tax, Montello).
//!
//! Contract: `usecases::ledger::delinquency::{list, special_assessments}`,
//! the use cases of the API's `GET .../delinquencies` and
//! `GET .../special-assessments` (`Action::ReviewReturns`; every payor
//! whose account is read is logged there); the CSV is the API's
//! (`api::delinquencies::roll_csv`). Hayward has no special assessment: the
//! page says why (the use case's 422, cited) instead of offering the file.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, http::header, web};
use chrono::NaiveDate;
use maud::html;

use super::{Menu, enter, gate, href, nav, query_value};
use crate::{
    api::{
        caller::MunicipalUnit,
        delinquencies::{roll_csv, roll_of},
    },
    app::AppState,
    domain::delinquency::special_assessment,
    error::ApiError,
    usecases::ledger::delinquency,
    web::{WebError, layout, render, session::Visit},
};

fn as_of_of(req: &HttpRequest) -> Result<Option<NaiveDate>, ApiError> {
    query_value(req.query_string(), "as_of")
        .map(|raw| {
            NaiveDate::parse_from_str(&raw, "%Y-%m-%d")
                .map_err(|_| ApiError::invalid("as_of", "date", "a date as YYYY-MM-DD"))
        })
        .transpose()
}

/// `GET .../clerk/delinquencies`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let as_of = as_of_of(&req);
    let ((as_of, found), menu) = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            Ok((
                delinquency::list(conn, &ctx, as_of?, today)?,
                Menu::of(&ctx),
            ))
        })
        .await?;
    let assessment = special_assessment(&slug);
    let total: crate::domain::Money = found.iter().map(|d| d.past_due()).sum();
    let body = html! {
        (nav(&slug, "/delinquencies", menu))
        h1 { "Delinquencies as of " (as_of) }
        form.inline.no-print method="get" action=(href(&slug, "/delinquencies")) {
            (layout::Field { kind: "date", ..layout::Field::text("as_of", "As of", &as_of.to_string()) }.render(&[]))
            div { button type="submit" { "Show" } }
        }
        @match assessment {
            Ok(citation) => p.no-print {
                a href=(href(&slug, &format!("/special-assessments.csv?as_of={as_of}"))) download { "Special-assessment roll (CSV)" }
                " " span.cite { "(" (citation) ")" }
            },
            Err(why) => p.note { "No special-assessment roll: " (why) },
        }
        @if found.is_empty() {
            p { "No payor owes anything past due on " (as_of) "." }
        } @else {
            table #delinquencies {
                caption { "Past due by payor and period" }
                thead { tr {
                    th scope="col" { "Payor" } th scope="col" { "Period" } th scope="col" { "Due" }
                    th.num scope="col" { "Days past due" } th.num scope="col" { "Interest accrued" } th.num scope="col" { "Owed" }
                } }
                tbody {
                    @for d in &found {
                        @for p in &d.periods {
                            tr {
                                th scope="row" { a href=(href(&slug, &format!("/payors/{}", d.payor.id))) { (d.payor.legal_name) } }
                                td { (p.period) } td { (p.due_date) }
                                td.num { (p.days_past_due) } td.num { (p.interest_accrued) } td.num { (p.balance) }
                            }
                        }
                        @if !d.credit.is_zero() {
                            tr { th scope="row" { (d.payor.legal_name) } td colspan="4" { "Credit held" } td.num { (d.credit) } }
                        }
                    }
                }
                tfoot { tr.total { th scope="row" colspan="5" { "Past due" } td.num { (total) } } }
            }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Delinquencies", body),
    ))
}

/// `GET .../clerk/special-assessments.csv`.
pub async fn special_assessments_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug)?;
    let today = state.clock.today();
    let as_of = as_of_of(&req);
    let roll = here
        .read(
            &state,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                gate(&ctx)?;
                let as_of = as_of?.unwrap_or(today);
                let (citation, rows) = delinquency::special_assessments(
                    conn,
                    &ctx,
                    &municipality.slug,
                    Some(as_of),
                    today,
                )?;
                Ok(roll_of(as_of, citation, rows))
            },
        )
        .await?;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!(
                "attachment; filename=\"special-assessments-{}.csv\"",
                roll.as_of
            ),
        ))
        .body(roll_csv(&roll)))
}

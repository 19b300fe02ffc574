//! `GET /app/m/{municipality}/clerk/remittances[?year=]`: the
//! municipality's quarters of a year as remitted to its zone (due date,
//! status, the commission's share submitted, transferred, outstanding).
//!
//! Contract: `usecases::remittances::view::of_municipality`, the use case
//! of the API's `GET .../remittances?year=` (`Action::ReviewReturns`:
//! clerk-treasurer and staff; totals only, no payor figure); the year
//! defaults to this year. Submitting and recording transfers stay with the
//! API for now (the page links to it).

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use chrono::Datelike;
use maud::html;

use super::{enter, gate, href, nav, query_value};
use crate::{
    api::caller::MunicipalUnit,
    app::AppState,
    domain::Money,
    error::ApiError,
    usecases::remittances::view,
    web::{WebError, layout, render, session::Visit},
};

/// `GET .../clerk/remittances`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let year = match query_value(req.query_string(), "year") {
        Some(raw) => raw
            .parse::<i32>()
            .map_err(|_| ApiError::invalid("year", "integer", "a year such as 2026")),
        None => Ok(today.year()),
    };
    let (year, quarters) = here
        .write(
            &state,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                gate(&ctx)?;
                let y = year?;
                let quarters = view::of_municipality(conn, &ctx, &municipality, Ok(y), today)?;
                Ok((y, quarters))
            },
        )
        .await?;
    let body = html! {
        (nav(&slug, "/remittances"))
        h1 { "Remittances to the zone, " (year) }
        p.no-print {
            a href=(href(&slug, &format!("/remittances?year={}", year - 1))) { (year - 1) }
            " · " a href=(href(&slug, &format!("/remittances?year={}", year + 1))) { (year + 1) }
        }
        @if quarters.is_empty() {
            p.note { "The municipality was not a member of a tourism zone on the last day of any quarter of " (year) "." }
        } @else {
            table #remittances {
                caption { "Quarters of " (year) }
                thead { tr {
                    th scope="col" { "Quarter" } th scope="col" { "Due" } th scope="col" { "Status" }
                    th.num scope="col" { "Tax collected" } th.num scope="col" { "Commission's share" }
                    th.num scope="col" { "Transferred" } th.num scope="col" { "Outstanding" }
                } }
                tbody { @for q in &quarters {
                    tr {
                        th scope="row" { a href=(href(&slug, &format!("?period={}", q.period))) { (q.period) } }
                        td { (q.due_on) }
                        td { (q.status.as_str()) }
                        td.num { @if let Some(l) = &q.latest { (Money::from_cents(l.tax_collected_cents)) } }
                        td.num { @if let Some(l) = &q.latest { (Money::from_cents(l.commission_cents)) } }
                        td.num { (q.transferred) }
                        td.num { (q.outstanding) }
                    }
                } }
            }
        }
        p.cite { "The commission's share is the policy's part of the tax principal received in the quarter (Montello room tax, distribution ¶A). The clerk-treasurer submits a quarter and records its transfer through the "
            a href="/docs/" { "JSON API" } " (POST …/remittances)." }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Remittances", body),
    ))
}

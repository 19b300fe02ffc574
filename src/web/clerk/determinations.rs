//! `GET /app/m/{municipality}/clerk/determinations`: every determination of
//! the municipality, newest first, each with its payor (a link to the
//! payor's determinations, where the clerk-treasurer makes new ones) and its
//! letter (the notice issued with it, as a PDF).
//!
//! Contract: `usecases::ledger::determinations::of_municipality`
//! (`Action::ReviewReturns`: the clerk-treasurer and staff; related roles
//! 403, anyone else 404; each determination read is logged there, as the
//! API's `GET .../determinations` logs it); the letters are served by
//! [`super::notices::document`]. No payor name is read here (the id links to
//! the payor's page, which reads and logs it).

use actix_web::{HttpResponse, http::StatusCode, web};
use maud::html;

use super::{Menu, enter, href, nav};
use crate::{
    api::caller::MunicipalUnit,
    app::AppState,
    domain::Money,
    usecases::ledger::determinations,
    web::{WebError, layout, render, session::Visit},
};

/// `GET .../clerk/determinations`.
pub async fn page(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let (made, menu) = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            let made = determinations::of_municipality(conn, &ctx)?;
            Ok((made, Menu::of(&ctx)))
        })
        .await?;
    let body = html! {
        (nav(&slug, "/determinations", menu))
        h1 { "Determinations" }
        p { "Audits, non-filer estimates and fraud findings of the municipality, newest first. A determination is made from its payor's page." }
        @if made.is_empty() {
            p #no-determinations { "No determination has been made." }
        } @else {
            table #all-determinations {
                caption { "Determinations, newest first" }
                thead { tr {
                    th scope="col" { "Made on" } th scope="col" { "Payor" } th scope="col" { "Kind" } th scope="col" { "Period" }
                    th.num scope="col" { "Tax" } th.num scope="col" { "Penalties" } th scope="col" { "Letter" }
                } }
                tbody { @for d in &made {
                    @let p = &d.row.payor_id;
                    tr #(format!("determination-{}", d.row.id)) {
                        th scope="row" { (d.row.determined_on) }
                        td { a href=(href(&slug, &format!("/payors/{p}/notices"))) { code { (p) } } }
                        td { (d.row.kind.replace('_', " ")) }
                        td { (d.row.period) }
                        td.num { (Money::from_cents(d.row.tax_charged_cents)) }
                        td.num { (Money::from_cents(d.row.estimate_penalty_cents + d.row.fraud_penalty_cents)) }
                        td { a href=(href(&slug, &format!("/payors/{p}/notices/{}/document", d.row.notice_id))) download {
                            "PDF" span.visually-hidden { " of the letter of " (d.row.determined_on) } } }
                    }
                } }
            }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Determinations", body),
    ))
}

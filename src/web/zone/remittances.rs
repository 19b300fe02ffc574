//! `GET /app/z/{zone}/remittances[?year=]`: what each member forwarded to
//! the commission, by quarter, and the commission's seats for the year.
//!
//! Contract: the figures are `usecases::remittances::view::of_zone` and
//! `::seats`, the API's `GET .../remittances` and `GET .../seats`
//! (`ReadDistributions`: the zone admin, commission members and the tourism
//! entity): totals per municipality, never a payor's. Links to each
//! member's report back and SL-304 figures.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::html;

use super::{base, caller_of, year_of};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    domain::Money,
    usecases::remittances::view,
    web::{WebError, layout, render, session::Visit},
};

/// `GET .../remittances`.
pub async fn show(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let today = state.clock.today();
    let year = year_of(req.query_string(), today)?;
    let slug = path.into_inner();
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let (name, quarters, seats) = here
        .read(&state, move |ZoneUnit { conn, ctx, zone }| {
            ctx.require_presence()?;
            let quarters = view::of_zone(conn, &ctx, Ok(year), today)?;
            let seats = view::seats(conn, &ctx, Ok(year))?;
            Ok((zone.name, quarters, seats))
        })
        .await?;
    let b = base(&slug);
    let mut members: Vec<(String, String)> = Vec::new();
    for q in &quarters {
        if !members.iter().any(|(m, _)| *m == q.municipality) {
            members.push((q.municipality.clone(), q.name.clone()));
        }
    }
    let title = format!("Remittances to the commission, {year}");
    let body = html! {
        h1 { (title) }
        p { (name) ". What each member submitted and transferred, by quarter (dollars)." }
        nav aria-label="Years" { p {
            a href=(format!("{b}/remittances?year={}", year - 1)) { "Previous year" } " · "
            a href=(format!("{b}/remittances?year={}", year + 1)) { "Next year" } } }
        table {
            caption { "Member remittances by quarter, " (year) }
            thead { tr {
                th scope="col" { "Member" } th scope="col" { "Quarter" } th scope="col" { "Due" } th scope="col" { "Status" }
                th scope="col" class="num" { "Tax collected" } th scope="col" class="num" { "Commission share" }
                th scope="col" class="num" { "Transferred" } th scope="col" class="num" { "Outstanding" } th scope="col" { "Last transfer" }
            } }
            tbody { @for q in &quarters {
                tr {
                    th scope="row" { (q.name) }
                    td { (q.period) }
                    td { (q.due_on) }
                    td { (q.status.as_str()) }
                    td.num { @if let Some(r) = &q.latest { (Money::from_cents(r.tax_collected_cents)) } @else { "—" } }
                    td.num { @if let Some(r) = &q.latest { (Money::from_cents(r.commission_cents)) } @else { "—" } }
                    td.num { (q.transferred) }
                    td.num { (q.outstanding) }
                    td { @if let Some(d) = q.last_paid_on { (d) } @else { "—" } }
                }
            } }
        }
        h2 { "Seats on the commission in " (year) }
        table {
            caption { "Seats from the previous year's submitted collections (Wis. Stat. § 66.0615(1m)(c))" }
            thead { tr { th scope="col" { "Member" } th scope="col" class="num" { "Collections " (year - 1) } th scope="col" class="num" { "Seats" } th scope="col" { "Quarters not submitted" } } }
            tbody { @for s in &seats {
                tr {
                    th scope="row" { (s.name) }
                    td.num { (s.seats.collections) }
                    td.num { (s.seats.allocation.seats) }
                    td { @if s.seats.missing.is_empty() { "none" } @else {
                        (s.seats.missing.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")) } }
                }
            } }
        }
        h2 { "Each member's reports" }
        ul { @for (m, n) in &members {
            li { (n) ": "
                a href=(format!("{b}/report-back/{m}?year={year}")) { "the commission's report back" } " · "
                a href=(format!("{b}/sl-304/{m}?year={year}")) { "SL-304 figures" } }
        } }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &title, body),
    ))
}

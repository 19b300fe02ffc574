//! Each member's reports: the commission's report back
//! (`GET /app/z/{zone}/report-back/{municipality}[?year=]`,
//! `usecases::reports::report_back`, as the API's
//! `GET .../reports/{municipality}`: commission members and the tourism
//! entity; the zone admin 403) and Form SL-304's figures
//! (`GET /app/z/{zone}/sl-304/{municipality}[?year=]`,
//! `usecases::reports::state::state_report`, the API's public
//! `GET /v1/municipalities/{m}/state-report`, shown here for the zone's
//! members to whoever reads the zone's distributions).
//!
//! Contract: totals per municipality only; a municipality that is not a
//! member of the zone is the 404 page.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::{Markup, html};

use super::{caller_of, words, year_of};
use crate::{
    api::caller::{InZone, PublicMunicipality, ZoneUnit},
    app::AppState,
    db,
    domain::state_report::Breakdown,
    error::ApiError,
    tenancy::ZoneAction,
    usecases::reports::{self, Spending, state},
    web::{WebError, layout, render, session::Visit},
};

fn spending_tables(s: &Spending) -> Markup {
    let b: &Breakdown = &s.breakdown;
    html! {
        table {
            caption { "Spending by category (accepted reports)" }
            thead { tr { th scope="col" { "Category" } th scope="col" class="num" { "Expenditures" } th scope="col" class="num" { "Under $1,000" } th scope="col" class="num" { "Total" } } }
            tbody { @for (c, v) in &b.by_category {
                tr { th scope="row" { (words(c.as_str())) } td.num { (v.count) } td.num { (v.small) } td.num { (v.total) } }
            } }
            tfoot { tr { th scope="row" { "All categories" } td {} td {} td.num.total { (b.total) } } }
        }
        @if !b.large.is_empty() {
            table {
                caption { "Each expenditure of $1,000 or more" }
                thead { tr { th scope="col" { "Date" } th scope="col" { "Paid to" } th scope="col" { "Category" } th scope="col" class="num" { "Amount" } } }
                tbody { @for e in &b.large { tr { td { (e.date) } td { (e.payee) } td { (words(e.category.as_str())) } td.num { (e.amount) } } } }
            }
        }
        @if !s.pending.is_empty() {
            p.note { "Not counted (not accepted yet): "
                @for p in &s.pending { (p.period_start) " to " (p.period_end) " (" (super::report::status_name(p.status)) "); " } }
        }
    }
}

/// `GET .../report-back/{municipality}`.
pub async fn report_back(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let today = state.clock.today();
    let year = year_of(req.query_string(), today)?;
    let (slug, member) = path.into_inner();
    let here = InZone::new(caller_of(&visit)?, slug);
    let r = here
        .read(&state, move |ZoneUnit { conn, ctx, zone }| {
            ctx.require_presence()?;
            reports::report_back(conn, &ctx, &zone, &member, Ok(year), today)
        })
        .await?;
    let title = format!(
        "{}: report back to {}, {}",
        r.commission, r.municipality.name, r.year
    );
    let body = html! {
        h1 { (title) }
        p { "What the room tax the commission received was spent on (Montello room tax, distribution ¶B)." }
        table {
            caption { "What " (r.municipality.name) " forwarded in " (r.year) }
            thead { tr { th scope="col" { "Quarter" } th scope="col" { "Status" } th scope="col" class="num" { "Transferred" } th scope="col" class="num" { "Outstanding" } } }
            tbody { @for q in &r.quarters { tr { th scope="row" { (q.period) } td { (q.status.as_str()) } td.num { (q.transferred) } td.num { (q.outstanding) } } } }
        }
        p { "The commission received " strong { (r.commission_received) } " from all members in " (r.year) "." }
        (spending_tables(&r.spending))
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &title, body),
    ))
}

/// `GET .../sl-304/{municipality}`.
pub async fn state_report(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let today = state.clock.today();
    let year = year_of(req.query_string(), today)?;
    let (slug, member) = path.into_inner();
    let here = InZone::new(caller_of(&visit)?, slug);
    let wanted = member.clone();
    here.read_for(
        &state,
        ZoneAction::ReadDistributions,
        move |ZoneUnit { conn, ctx, .. }| {
            ctx.require_presence()?;
            let members = db::zones::members(conn, &[ctx.zone_id])?;
            if members.iter().any(|(_, m)| m.slug == wanted) {
                Ok(())
            } else {
                Err(ApiError::NotFound("municipality"))
            }
        },
    )
    .await?;
    let r = PublicMunicipality::new(member)
        .read(&state, move |conn, municipality| {
            state::state_report(conn, &municipality, Ok(year))
        })
        .await?;
    let title = format!("Form SL-304 figures: {}, {}", r.municipality.name, r.year);
    let body = html! {
        h1 { (title) }
        p { "Due " (r.due_on) " (Wis. Stat. § 66.0615(4)). " (r.note) }
        table {
            caption { "Room tax by quarter (dollars)" }
            thead { tr { th scope="col" { "Quarter" } th scope="col" { "Source" } th scope="col" class="num" { "Collected" } th scope="col" class="num" { "Forwarded to the commission" } th scope="col" class="num" { "Retained" } } }
            tbody { @for q in &r.quarters {
                tr { th scope="row" { (q.period) } td { (q.source.as_str()) } td.num { (q.collected) } td.num { (q.forwarded) } td.num { (q.retained) } }
            } }
            tfoot { tr { th scope="row" { "Year" } td {} td.num.total { (r.totals.collected) } td.num.total { (r.totals.forwarded) } td.num.total { (r.totals.retained) } } }
        }
        @if let Some(c) = &r.commission {
            h2 { (c.name) }
            (spending_tables(&c.spending))
            table {
                caption { "Commission members on December 31" }
                thead { tr { th scope="col" { "Name" } th scope="col" { "Affiliation" } th scope="col" { "Lodging or tourism industry" } } }
                tbody { @for m in &c.members { tr { th scope="row" { (m.name) } td { (m.affiliation) } td { @if m.industry { "yes" } @else { "no" } } } } }
            }
            @if let Some(w) = &c.warning { p.alert { (w) } }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &title, body),
    ))
}

//! `GET /app/z/{zone}/expenditures`: the zone's expenditure reports at
//! their latest version (`usecases::expenditures::list`, as the API's
//! `GET .../expenditure-reports`: commission members and the tourism
//! entity; the zone admin 403), with a link to write a new one for the
//! tourism entity.

use actix_web::{HttpResponse, http::StatusCode, web};
use maud::html;

use super::{base, caller_of, report::status_name};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    auth::Role,
    usecases::expenditures,
    web::{WebError, layout, render, session::Visit},
};

/// `GET .../expenditures`.
pub async fn list(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let (name, roles, reports) = here
        .read(&state, |ZoneUnit { conn, ctx, zone }| {
            let roles = ctx.require_presence()?;
            let reports = expenditures::list(conn, &ctx, None)?;
            Ok((zone.name, roles, reports))
        })
        .await?;
    let b = base(&slug);
    let body = html! {
        h1 { "Expenditure reports" }
        p { (name) }
        @if roles.contains(&Role::TourismEntity) {
            p { a.button href=(format!("{b}/expenditures/new")) { "Write a new expenditure report" } }
        }
        @if reports.is_empty() { p { "No report yet." } } @else {
            table {
                caption { "Reports of the tourism entity, latest version" }
                thead { tr { th scope="col" { "Period" } th scope="col" { "Version" } th scope="col" { "Status" }
                    th scope="col" class="num" { "Spent" } th scope="col" class="num" { "Received" } } }
                tbody { @for r in &reports {
                    @let v = r.latest();
                    tr {
                        th scope="row" { a href=(format!("{b}/expenditures/{}", r.report.id)) { (v.row.period_start) " to " (v.row.period_end) } }
                        td { (v.row.version) }
                        td { (status_name(v.status)) }
                        td.num { (r.totals.spent) }
                        td.num { (r.totals.received) }
                    }
                } }
            }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Expenditure reports", body),
    ))
}

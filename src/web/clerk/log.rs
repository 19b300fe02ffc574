//! `GET /app/m/{municipality}/clerk/access-log[?record_id=]`: the access
//! log, newest first (who read or wrote which confidential record, when,
//! under which role or grant).
//!
//! Contract: the same read as the API's `GET .../access-log`: only the
//! clerk-treasurer (`Action::ReadAccessLog`; staff, operators 403, anyone
//! else 404), `db::access_log::list` for the municipality, at most [`PAGE`]
//! entries; reading the log is not itself logged; nothing is editable.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::html;

use super::{enter, href, nav, query_value};
use crate::{
    api::caller::MunicipalUnit,
    app::AppState,
    db::{self, access_log::LogQuery},
    tenancy::Action,
    web::{WebError, layout, render, session::Visit},
};

/// Entries shown.
pub const PAGE: i64 = 200;

/// `GET .../clerk/access-log`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let record_id = query_value(req.query_string(), "record_id");
    let shown = record_id.clone();
    let rows = here
        .read_for(
            &state,
            Action::ReadAccessLog,
            move |MunicipalUnit {
                      conn, municipality, ..
                  }| {
                Ok(db::access_log::list(
                    conn,
                    municipality.id,
                    &LogQuery {
                        record_id,
                        actor_id: None,
                        since: None,
                        before: None,
                        limit: PAGE,
                    },
                )?)
            },
        )
        .await?;
    let body = html! {
        (nav(&slug, "/access-log"))
        h1 { "Access log" }
        p { "Every read and write of the municipality's confidential records, newest first (the latest " (PAGE) ")." }
        form.inline.no-print method="get" action=(href(&slug, "/access-log")) {
            (layout::Field { hint: Some("A payor's, return's or payment's id."),
                ..layout::Field::text("record_id", "Only this record", shown.as_deref().unwrap_or("")) }.render(&[]))
            div { button type="submit" { "Show" } }
        }
        table #access-log {
            caption { "Access log entries" }
            thead { tr {
                th scope="col" { "When (UTC)" } th scope="col" { "Who" } th scope="col" { "As" }
                th scope="col" { "Record" } th scope="col" { "Id" } th scope="col" { "Action" }
            } }
            tbody { @for r in &rows {
                tr {
                    th scope="row" { (r.at.format("%Y-%m-%d %H:%M:%S")) }
                    td { (r.actor_kind) " " code { (r.actor_id) } }
                    td { (r.basis) }
                    td { (r.record_type) }
                    td { code { (r.record_id) } }
                    td { (r.action) }
                }
            } }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Access log", body),
    ))
}

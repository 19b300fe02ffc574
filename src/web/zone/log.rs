//! `GET /app/z/{zone}/access-log[?record_id=]`: the zone's access log,
//! newest first (who downloaded which expenditure report's attachment,
//! when, under which zone role).
//!
//! Contract: the same read as the API's `GET /v1/zones/{zone}/access-log`:
//! `usecases::expenditures::attachments::access_log`, which authorises
//! (`ZoneAction::ReadAccessLog`: the zone admin only; the zone's other roles
//! and members' clerks the 403 page, anyone else the 404 page), at most
//! [`PAGE`] entries; reading the log is not itself logged; entries name
//! records by type and id, never by a content.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::html;

use super::{base, caller_of};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    db::access_log::LogQuery,
    usecases::expenditures::attachments,
    web::{WebError, access_log, clerk::query_value, layout, render, session::Visit},
};

/// Entries shown.
pub const PAGE: i64 = 200;

/// `GET .../access-log`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let record_id = query_value(req.query_string(), "record_id");
    let shown = record_id.clone();
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let rows = here
        .read(&state, move |ZoneUnit { conn, ctx, .. }| {
            attachments::access_log(
                conn,
                &ctx,
                &LogQuery {
                    record_id,
                    actor_id: None,
                    since: None,
                    before: None,
                    limit: PAGE,
                },
            )
        })
        .await?;
    let b = base(&slug);
    let body = html! {
        h1 { "The zone's access log" }
        p { "Every download of an expenditure report's receipt or invoice, newest first (the latest " (PAGE) ")." }
        (access_log::filter(&format!("{b}/access-log"), "An attachment's record id ({report}/attachments/{id}).", shown.as_deref()))
        (access_log::table(&rows))
        p { a href=(b.clone()) { "The zone" } }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "The zone's access log", body),
    ))
}

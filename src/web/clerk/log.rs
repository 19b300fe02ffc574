//! `GET /app/m/{municipality}/clerk/access-log[?record_id=&limit=&cursor=]`: the access
//! log, newest first (who read or wrote which confidential record, when,
//! under which role or grant).
//!
//! Contract: the same read as the API's `GET .../access-log`: only the
//! clerk-treasurer (`Action::ReadAccessLog`; staff, operators 403, anyone
//! else 404), `db::access_log::list` for the municipality, a page of
//! [`PAGE`] entries (or `limit`, 1 to 200) with the API's cursor
//! (`api::admin::Page`) and links to the next and previous pages
//! ([`super::pager`]); reading the log is not itself logged; nothing is
//! editable.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::html;

use super::{
    Menu, enter, href, nav,
    pager::{Pager, limit_of},
    query_value,
};
use crate::{
    api::{admin::Page, caller::MunicipalUnit},
    app::AppState,
    db::{self, access_log::LogQuery},
    tenancy::Action,
    web::{WebError, access_log, layout, render, session::Visit},
};

/// Entries per page when `limit` is not given.
pub const PAGE: u32 = 200;

/// `GET .../clerk/access-log`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let q = req.query_string();
    let record_id = query_value(q, "record_id");
    let shown = record_id.clone();
    let limit = limit_of(q, PAGE);
    let cursor = query_value(q, "cursor");
    let asked = cursor.clone();
    let (rows, next, menu) = here
        .read_for(
            &state,
            Action::ReadAccessLog,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                let page = Page::parse(Some(limit?), asked.as_deref())?;
                let rows = db::access_log::list(
                    conn,
                    municipality.id,
                    &LogQuery {
                        record_id,
                        actor_id: None,
                        since: None,
                        before: page.before.clone(),
                        limit: i64::from(page.limit),
                    },
                )?;
                let next = page.next(&rows, |r| (r.at, r.id.clone()));
                Ok((rows, next, Menu::of(&ctx)))
            },
        )
        .await?;
    let pages = Pager {
        base: href(&slug, "/access-log"),
        param: "cursor",
        keep: shown.iter().map(|r| ("record_id", r.clone())).collect(),
        limit: query_value(q, "limit"),
        after: cursor,
        trail: query_value(q, "trail")
            .map(|t| t.split(',').map(str::to_owned).collect())
            .unwrap_or_default(),
        next,
    };
    let body = html! {
        (nav(&slug, "/access-log", menu))
        h1 { "Access log" }
        p { "Every read and write of the municipality's confidential records, newest first." }
        (access_log::filter(&href(&slug, "/access-log"), "A payor's, return's or payment's id.", shown.as_deref()))
        (access_log::table(&rows))
        (pages.links())
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Access log", body),
    ))
}

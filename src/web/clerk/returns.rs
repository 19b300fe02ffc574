//! `GET /app/m/{municipality}/clerk/returns?period=2026-Q1[&status=missing][&limit=&cursor=]`:
//! every payor's return for a period, filed or not (who filed, who is late,
//! who is missing).
//!
//! Contract: `usecases::returns::reading::for_period`, the use case of the
//! API's `GET .../returns` (`Action::ReviewReturns`; every payor and return
//! shown is logged there), a page of [`PAGE`] payors (or `limit`, 1 to 200)
//! in payor-id order with the API's cursor (`api::pagination::KeyCursor`)
//! and links to the next and previous pages ([`super::pager`]); the period
//! defaults to the dashboard's quarter (the latest ended); `status` keeps
//! one status (`missing` is the API's missing-returns list).

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::html;

use super::{
    Menu,
    dashboard::default_quarter,
    enter, gate, href, nav,
    pager::{Pager, limit_of},
    query_value,
};
use crate::{
    api::{
        caller::MunicipalUnit,
        pagination::{KeyCursor, next_cursor},
    },
    app::AppState,
    domain::{Money, Period, obligations::ObligationStatus},
    error::ApiError,
    usecases::returns::reading,
    web::{WebError, layout, render, session::Visit},
};

/// Payors per page when `limit` is not given.
pub const PAGE: u32 = 200;

fn status_of(raw: Option<String>) -> Result<Option<ObligationStatus>, ApiError> {
    raw.map(|s| {
        ObligationStatus::ALL
            .into_iter()
            .find(|o| o.as_str() == s)
            .ok_or_else(|| {
                ApiError::invalid(
                    "status",
                    "one_of",
                    "filed, filed_late, missing, not_yet_due or extended",
                )
            })
    })
    .transpose()
}

/// `GET .../clerk/returns`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let q = req.query_string();
    let asked_period = query_value(q, "period");
    let asked_status = query_value(q, "status");
    let limit = limit_of(q, PAGE);
    let cursor = query_value(q, "cursor");
    let asked_cursor = cursor.clone();
    let (period, status, entries, menu, limit) = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            let (limit, after) = KeyCursor::page(Some(limit?), asked_cursor.as_deref())?;
            let period = match asked_period {
                Some(raw) => Period::parse(&raw)
                    .map_err(|e| ApiError::invalid("period", e.rule(), e.to_string()))?,
                None => default_quarter(today),
            };
            let status = status_of(asked_status)?;
            let entries = reading::for_period(
                conn,
                &ctx,
                period,
                status,
                after.as_deref(),
                limit as usize,
                today,
            )?;
            Ok((period, status, entries, Menu::of(&ctx), limit))
        })
        .await?;
    let mut keep = vec![("period", period.to_string())];
    if let Some(s) = status {
        keep.push(("status", s.as_str().to_owned()));
    }
    let pages = Pager {
        base: href(&slug, "/returns"),
        param: "cursor",
        keep,
        limit: query_value(q, "limit"),
        after: cursor,
        trail: query_value(q, "trail")
            .map(|t| t.split(',').map(str::to_owned).collect())
            .unwrap_or_default(),
        next: next_cursor(&entries, limit, |e| KeyCursor::encode(&e.payor_id)),
    };
    let statuses = ObligationStatus::ALL;
    let title = match status {
        Some(s) => format!("Returns of {period}: {}", s.as_str().replace('_', " ")),
        None => format!("Returns of {period}"),
    };
    let body = html! {
        (nav(&slug, "/returns", menu))
        h1 { (title) }
        form.inline.no-print method="get" action=(href(&slug, "/returns")) {
            (layout::Field { hint: Some("A quarter (2026-Q1) or a year (2025) for annual returns."),
                ..layout::Field::text("period", "Period", &period.to_string()) }.render(&[]))
            div.field {
                label for="status" { "Status" }
                select #status name="status" {
                    option value="" selected[status.is_none()] { "Any" }
                    @for s in statuses {
                        option value=(s.as_str()) selected[status == Some(s)] { (s.as_str().replace('_', " ")) }
                    }
                }
            }
            div { button type="submit" { "Show" } }
        }
        @if entries.is_empty() {
            p { "No payor owes a return for " (period) " with this status." }
        } @else {
            table #period-returns {
                caption { (title) }
                thead { tr {
                    th scope="col" { "Payor" } th scope="col" { "Status" } th scope="col" { "File by" }
                    th scope="col" { "Filed" } th.num scope="col" { "Tax" } th.num scope="col" { "Owed on filing" }
                    th scope="col" { "Attachments missing" }
                } }
                tbody { @for e in &entries {
                    tr {
                        th scope="row" { a href=(href(&slug, &format!("/payors/{}", e.payor_id))) { (e.legal_name) } }
                        td.status { (e.obligation.status.as_str().replace('_', " "))
                            @if e.record.as_ref().is_some_and(|r| r.status() == "incomplete") { ", incomplete" } }
                        td { (e.obligation.filing_due_date) }
                        td { @if let Some(d) = e.obligation.filed_on { (d) } @else { "—" } }
                        td.num { @if let Some(r) = &e.record { (r.latest().assessed.assessment.tax) } }
                        td.num { @if let Some(r) = &e.record { (Money::from_cents(r.original().row.amount_due_cents)) } }
                        td { @if let Some(r) = &e.record { (r.missing_attachments.join(", ").replace('_', " ")) } }
                    }
                } }
            }
        }
        (pages.links())
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &title, body),
    ))
}

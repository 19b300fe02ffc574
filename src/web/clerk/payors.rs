//! `GET /app/m/{municipality}/clerk/payors[?name=&after=]` (the payor
//! registry) and `GET /app/m/{municipality}/clerk/payors/{payor}` (one
//! payor: the registry's record, its balance by period and the form to
//! record a payment).
//!
//! Contract: the list is `usecases::payors::registry::list` (the API's
//! `GET .../payors`: every payor on the page is logged), a page of
//! [`PAGE`] (or `?limit=`, 1 to 200, as the API) in id order with links to
//! the next and the previous page ([`super::pager`]); the payor's page is
//! `registry::show` (logged `payor`) and `ledger::statement::statement`
//! (logged `payor_account`), the use cases of `GET .../payors/{payor}` and
//! `GET .../account`, in one unit of work, after [`super::gate`] (an
//! operator, even for its own payor, uses its own pages, not these).

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::html;

use super::{
    Menu, enter, gate, href, nav,
    pager::{Pager, limit_of},
    payment, query_value,
};
use crate::{
    api::{caller::MunicipalUnit, pagination::next_cursor},
    app::AppState,
    domain::registry::RegistryStatus,
    usecases::{
        ledger::statement::{self, Statement},
        payors::{Actor, Call, PayorRecord, registry},
    },
    web::{WebError, layout, render, session::Visit},
};

/// Payors per page of the registry.
pub const PAGE: u32 = 100;

fn status_of(row: &crate::db::models::PayorRow, today: chrono::NaiveDate) -> &'static str {
    match RegistryStatus::on(row.closed_on, today) {
        RegistryStatus::Open => "open",
        RegistryStatus::Closing => "closing",
        RegistryStatus::Closed => "closed",
    }
}

/// `GET /app/m/{municipality}/clerk/payors`.
pub async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let q = req.query_string();
    let name = query_value(q, "name");
    let after = query_value(q, "after");
    let trail: Vec<String> = query_value(q, "trail")
        .map(|t| t.split(',').map(str::to_owned).collect())
        .unwrap_or_default();
    let limit = limit_of(q, PAGE);
    let asked = name.clone();
    let cursor = after.clone();
    let (rows, menu, limit) = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            let menu = Menu::of(&ctx);
            let limit = limit?;
            let actor = Actor::of(&ctx)?;
            registry::list(
                Call {
                    conn,
                    ctx,
                    actor,
                    input: registry::ListRequest {
                        status: None,
                        name_prefix: asked.filter(|n| n.chars().count() <= 200),
                        after: cursor,
                        limit,
                    },
                    precondition: (),
                },
                today,
            )
            .map(|rows| (rows, menu, limit))
        })
        .await?;
    let pages = Pager {
        base: href(&slug, "/payors"),
        param: "after",
        keep: name.iter().map(|n| ("name", n.clone())).collect(),
        limit: query_value(q, "limit"),
        after,
        trail,
        next: next_cursor(&rows, limit, |r| r.id.clone()),
    };
    let body = html! {
        (nav(&slug, "/payors", menu))
        h1 { "Payor registry" }
        form.inline method="get" action=(href(&slug, "/payors")) {
            (layout::Field { hint: Some("The start of the legal name, any case."),
                ..layout::Field::text("name", "Legal name starts with", name.as_deref().unwrap_or("")) }.render(&[]))
            div { button type="submit" { "Search" } }
        }
        @if rows.is_empty() {
            p { "No payor matches." }
        } @else {
            table #payors {
                caption { "Payors" }
                thead { tr { th scope="col" { "Legal name" } th scope="col" { "Doing business as" } th scope="col" { "Mailing address" } th scope="col" { "Status" } } }
                tbody { @for p in &rows {
                    tr {
                        th scope="row" { a href=(href(&slug, &format!("/payors/{}", p.id))) { (p.legal_name) } }
                        td { (p.dba.clone().unwrap_or_default()) }
                        td { (p.mailing_address) }
                        td { (status_of(p, today)) }
                    }
                } }
            }
        }
        (pages.links())
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Payor registry", body),
    ))
}

/// The balance table of a statement (the payor's page and the statement page).
pub fn balances(statement: &Statement) -> maud::Markup {
    html! {
        table #balances {
            caption { "Balance by period as of " (statement.as_of) }
            thead { tr {
                th scope="col" { "Period" } th scope="col" { "Due" }
                th.num scope="col" { "Charged" } th.num scope="col" { "Paid" }
                th.num scope="col" { "Interest accrued" } th.num scope="col" { "Balance" }
            } }
            tbody { @for p in &statement.periods {
                tr {
                    th scope="row" { (p.period) }
                    td { @if let Some(d) = p.due_date { (d) } }
                    td.num { (p.charged()) }
                    td.num { (p.paid()) }
                    td.num { (p.accrued()) }
                    td.num { (p.balance()) }
                }
            } }
            tfoot {
                tr { th scope="row" colspan="5" { "Credit held" } td.num { (statement.credit) } }
                tr.total { th scope="row" colspan="5" { "Balance owed" } td.num #balance-total { (statement.balance()) } }
            }
        }
    }
}

/// `GET /app/m/{municipality}/clerk/payors/{payor}`.
pub async fn show(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor_id) = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let id = payor_id.clone();
    let (record, statement, menu): (PayorRecord, Statement, Menu) = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            let statement = statement::statement(conn, &ctx, &id, None, today)?;
            let menu = Menu::of(&ctx);
            let actor = Actor::of(&ctx)?;
            let record = registry::show(
                Call {
                    conn,
                    ctx,
                    actor,
                    input: (),
                    precondition: (),
                },
                &id,
            )?;
            Ok((record, statement, menu))
        })
        .await?;
    let p = &record.payor;
    let body = html! {
        (nav(&slug, "/payors", menu))
        h1 { (p.legal_name) }
        dl.record {
            @if let Some(dba) = &p.dba { dt { "Doing business as" } dd { (dba) } }
            dt { "Mailing address" } dd { (p.mailing_address) }
            dt { "Status" } dd { (status_of(p, today)) }
            dt { "Annual return" } dd { (p.annual_election) }
            dt { "Payor id" } dd { code { (p.id) } }
        }
        @if !record.establishments.is_empty() {
            table {
                caption { "Establishments" }
                thead { tr { th scope="col" { "Name" } th scope="col" { "Address" } th scope="col" { "Kind" } th.num scope="col" { "Units" } } }
                tbody { @for e in &record.establishments {
                    tr { th scope="row" { (e.name) } td { (e.address) } td { (e.kind) } td.num { (e.units) } }
                } }
            }
        }
        h2 { "Account" }
        (balances(&statement))
        p { a href=(href(&slug, &format!("/payors/{payor_id}/statement"))) { "The full statement of account" }
            " (payments, components, printable, CSV)" " · "
            a href=(href(&slug, &format!("/payors/{payor_id}/notices"))) { "Determinations and notices" } }
        h2 #record-payment { "Record a payment" }
        (payment::form(&visit, &slug, &payor_id, &payment::Entered::new(today), &[]))
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &p.legal_name, body),
    ))
}

//! `GET /app/m/{municipality}/clerk/payors/{payor}/statement[?as_of=]` (the
//! statement of account, printable) and `.../statement.csv` (its CSV).
//!
//! Contract: both are `usecases::ledger::statement::statement`, the use case
//! of the API's `GET .../account` (each read logged `payor_account`), after
//! [`super::gate`]; the CSV is the API's own (`api::payments::account_csv`
//! over the same `Account` shape), so the page's download and the API's
//! `Accept: text/csv` answer are one file. The print layout is the
//! stylesheet's `@media print` (navigation and forms dropped).

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, http::header, web};
use chrono::NaiveDate;
use maud::html;

use super::{Menu, enter, gate, href, nav, payors::balances, query_value};
use crate::{
    api::{
        caller::MunicipalUnit,
        payments::{Account, account_csv},
    },
    app::AppState,
    domain::Money,
    error::ApiError,
    usecases::ledger::statement::{self, Statement},
    web::{WebError, layout, render, session::Visit},
};

fn as_of_of(req: &HttpRequest) -> Result<Option<NaiveDate>, ApiError> {
    query_value(req.query_string(), "as_of")
        .map(|raw| {
            NaiveDate::parse_from_str(&raw, "%Y-%m-%d")
                .map_err(|_| ApiError::invalid("as_of", "date", "a date as YYYY-MM-DD"))
        })
        .transpose()
}

async fn load(
    req: &HttpRequest,
    state: &AppState,
    visit: &Visit,
    slug: String,
    payor_id: String,
) -> Result<(String, Statement, Menu), WebError> {
    let here = enter(visit, slug)?;
    let today = state.clock.today();
    let as_of = as_of_of(req);
    Ok(here
        .read(state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            let statement = statement::statement(conn, &ctx, &payor_id, as_of?, today)?;
            // The name on the statement: the registry row (already read
            // under the statement's access-log entry).
            let name = crate::db::payors::get(conn, ctx.municipality_id, &payor_id)?
                .map(|p| p.legal_name)
                .ok_or(ApiError::NotFound("payor"))?;
            Ok((name, statement, Menu::of(&ctx)))
        })
        .await?)
}

/// `GET .../clerk/payors/{payor}/statement`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor_id) = path.into_inner();
    let (name, s, menu) = load(&req, &state, &visit, slug.clone(), payor_id.clone()).await?;
    let csv = href(
        &slug,
        &format!("/payors/{payor_id}/statement.csv?as_of={}", s.as_of),
    );
    let body = html! {
        (nav(&slug, "/payors", menu))
        h1 { "Statement of account" }
        p.statement-head { strong { (name) } br; "Payor " code { (s.payor_id) } br; "As of " (s.as_of) }
        form.inline.no-print method="get" action=(href(&slug, &format!("/payors/{payor_id}/statement"))) {
            (layout::Field { kind: "date", hint: Some("What was posted by that day (not after today)."),
                ..layout::Field::text("as_of", "As of", &s.as_of.to_string()) }.render(&[]))
            div { button type="submit" { "Show" } }
        }
        p.no-print { a href=(csv) download { "Download as CSV" } " · Print this page for a paper copy (the print layout leaves out the menus)." }
        (balances(&s))
        h2 { "By component" }
        table #components {
            caption { "Charged and paid by period and component" }
            thead { tr { th scope="col" { "Period" } th scope="col" { "Component" } th.num scope="col" { "Charged" } th.num scope="col" { "Paid" } th.num scope="col" { "Balance" } } }
            tbody {
                @for p in &s.periods {
                    @for (c, b) in &p.components {
                        tr { th scope="row" { (p.period) } td { (c.as_str().replace('_', " ")) } td.num { (b.charged) } td.num { (b.paid) } td.num { (b.balance()) } }
                    }
                    @if let Some(line) = &p.interest_accrued {
                        tr { th scope="row" { (p.period) } td { "interest accrued to " (s.as_of) " (not posted)" br; span.cite { (line.explanation) } } td.num { (line.amount) } td.num { "0.00" } td.num { (line.amount) } }
                    }
                }
            }
        }
        h2 { "Payments" }
        @if s.payments.is_empty() {
            p { "No payment received by " (s.as_of) "." }
        } @else {
            table #payments {
                caption { "Payments received" }
                thead { tr { th scope="col" { "Received" } th scope="col" { "Method" } th scope="col" { "Reference" } th.num scope="col" { "Amount" } th scope="col" { "Reversed" } } }
                tbody { @for p in &s.payments {
                    tr {
                        th scope="row" { a href=(href(&slug, &format!("/payors/{payor_id}/payments/{}", p.row.id))) { (p.row.received_on) } }
                        td { (p.row.method) } td { (p.row.reference) }
                        td.num { (Money::from_cents(p.row.amount_cents)) }
                        td { @if let Some(d) = p.reversed_on { (d) } @else { "—" } }
                    }
                } }
            }
        }
        p { "Security deposit held (not deducted from the balance): " (s.security_deposit) }
        p.no-print { a href=(href(&slug, &format!("/payors/{payor_id}#record-payment"))) { "Record a payment" } }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &format!("Statement: {name}"), body),
    ))
}

/// `GET .../clerk/payors/{payor}/statement.csv`.
pub async fn csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor_id) = path.into_inner();
    let (_, s, _) = load(&req, &state, &visit, slug, payor_id.clone()).await?;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!(
                "attachment; filename=\"statement-{payor_id}-{}.csv\"",
                s.as_of
            ),
        ))
        .body(account_csv(&Account::from(&s))))
}

//! `GET /app/m/{municipality}/clerk/payors/{payor}/notices` (the payor's
//! determinations and written notices) and
//! `GET .../notices/{notice}/document` (a notice's PDF, as sent).
//!
//! Contract: `usecases::ledger::determinations::list` and
//! `usecases::notices::list` (the API's `GET .../determinations` and
//! `GET .../notices`; each determination read and the notices listing are
//! logged there), after [`super::gate`]; the PDF is `notices::document`
//! (the API's `GET .../notices/{notice}/document`, logged `notice`) sent as
//! the API sends it (`api::notices::pdf_response`). At most [`PAGE`]
//! notices, newest first.

use actix_web::{HttpResponse, http::StatusCode, web};
use maud::html;

use super::{enter, gate, href, nav};
use crate::{
    api::{caller::MunicipalUnit, notices::pdf_response},
    app::AppState,
    domain::Money,
    usecases::{ledger::determinations, notices},
    web::{WebError, layout, render, session::Visit},
};

/// Notices listed.
pub const PAGE: i64 = 200;

/// `GET .../clerk/payors/{payor}/notices`.
pub async fn page(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor_id) = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let id = payor_id.clone();
    let (made, sent) = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            let made = determinations::list(conn, &ctx, &id)?;
            let sent = notices::list(conn, &ctx, &id, None, PAGE)?;
            Ok((made, sent))
        })
        .await?;
    let body = html! {
        (nav(&slug, "/payors"))
        h1 { "Determinations and notices" }
        p { "Payor " a href=(href(&slug, &format!("/payors/{payor_id}"))) { code { (payor_id) } } }
        h2 { "Determinations" }
        @if made.is_empty() {
            p { "No determination has been made." }
        } @else {
            table #determinations {
                caption { "Determinations, as made" }
                thead { tr {
                    th scope="col" { "Made on" } th scope="col" { "Kind" } th scope="col" { "Period" }
                    th scope="col" { "Basis" } th.num scope="col" { "Tax" } th.num scope="col" { "Penalties" }
                } }
                tbody { @for d in &made {
                    tr {
                        th scope="row" { (d.row.determined_on) }
                        td { (d.row.kind.replace('_', " ")) }
                        td { (d.row.period) }
                        td { (d.row.basis) }
                        td.num { (Money::from_cents(d.row.tax_charged_cents)) }
                        td.num { (Money::from_cents(d.row.estimate_penalty_cents + d.row.fraud_penalty_cents)) }
                    }
                } }
            }
        }
        h2 { "Written notices" }
        @if sent.is_empty() {
            p { "No notice has been issued." }
        } @else {
            table #notices {
                caption { "Notices, newest first" }
                thead { tr { th scope="col" { "Issued" } th scope="col" { "Kind" } th scope="col" { "Title" } th scope="col" { "Document" } } }
                tbody { @for n in &sent {
                    tr {
                        th scope="row" { (n.issued_on) }
                        td { (n.kind.replace('_', " ")) }
                        td { (n.title) }
                        td { a href=(href(&slug, &format!("/payors/{payor_id}/notices/{}/document", n.id))) download { "PDF" span.visually-hidden { " of " (n.title) } } }
                    }
                } }
            }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Determinations and notices", body),
    ))
}

/// `GET .../clerk/payors/{payor}/notices/{notice}/document`.
pub async fn document(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor_id, notice_id) = path.into_inner();
    let here = enter(&visit, slug)?;
    let (row, doc) = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            notices::document(conn, &ctx, &payor_id, &notice_id)
        })
        .await?;
    Ok(pdf_response(&row, doc))
}

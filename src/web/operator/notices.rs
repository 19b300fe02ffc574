//! `GET /app/m/{m}/payors/{payor}/notices` and
//! `.../notices/{notice}/document`: the payor's written notices and each
//! one's PDF as sent.
//!
//! Contract: through `usecases::notices::list` and `::document` (the payor's
//! operator, the clerk-treasurer or staff; anyone else 404; each read
//! written to the access log as the API's reads are: `payor_notices`,
//! `notice`); the PDF is the stored document, answered as the API answers
//! it (`api::notices::pdf_response`). The newest 100 are listed.

use actix_web::{HttpResponse, http::StatusCode, web};
use maud::html;

use super::{caller_of, payor_path};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        notices::pdf_response,
    },
    app::AppState,
    usecases::notices,
    web::{WebError, layout, render, session::Visit},
};

/// How many notices the page lists.
const SHOWN: i64 = 100;

/// `GET .../notices`.
pub async fn list(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor) = path.into_inner();
    let p = payor.clone();
    let rows = InMunicipality::new(caller_of(&visit)?, slug.clone())
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            notices::list(conn, &ctx, &p, None, SHOWN)
        })
        .await?;
    let base = payor_path(&slug, &payor);
    let body = html! {
        p.no-print { a href=(format!("/app/m/{slug}")) { "← What is due" } " · " a href=(format!("{base}/account")) { "Statement of account" } }
        h1 { "Notices" }
        p { "Written notices to payor " code { (payor) } ", newest first." }
        @if rows.is_empty() {
            p #no-notices { "No notice has been sent to this payor." }
        } @else {
            table #notices {
                caption { "Notices sent" }
                thead { tr { th scope="col" { "Issued" } th scope="col" { "Notice" } th scope="col" { "Document" } } }
                tbody { @for n in &rows {
                    tr { th scope="row" { (n.issued_on) } td { (n.title) }
                        td { a href=(format!("{base}/notices/{}/document", n.id)) download { "PDF" span.visually-hidden { " of " (n.title) } } } }
                } }
            }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Notices", body),
    ))
}

/// `GET .../notices/{notice}/document`: the PDF as sent.
pub async fn document(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor, notice) = path.into_inner();
    let (row, doc) = InMunicipality::new(caller_of(&visit)?, slug)
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            notices::document(conn, &ctx, &payor, &notice)
        })
        .await?;
    Ok(pdf_response(&row, doc))
}

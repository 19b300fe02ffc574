//! `GET /app/m/{m}/payors/{payor}/account[?as_of=]`, `.../account.csv` and
//! `.../account.pdf`:
//! the payor's statement of account, on screen (printable: the print
//! stylesheet hides the navigation and the buttons) and as the API's CSV.
//!
//! Contract: both read through `usecases::ledger::statement::statement` (the
//! payor's operator, the clerk-treasurer or staff; anyone else 404; each
//! read written to the access log as `payor_account`, as the API's
//! `GET .../account` does) with the API's own query parsing
//! (`api::payments::statement::AccountParams`) and its shaping
//! (`api::payments::Account`, `account_csv`), so the page, the CSV and the
//! JSON show the same figures. `.../account.pdf` is the same statement as a
//! PDF: `statement::document` (the same read, logged the same way) renders
//! the statement's own rows with the notices' renderer (`render`), so its
//! figures are the page's.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, http::header, web};
use maud::html;

use super::{caller_of, payor_path};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::parse_query,
        payments::{Account, AccountParams, account_csv},
    },
    app::AppState,
    usecases::ledger::statement,
    web::{WebError, layout, render, session::Visit},
};

async fn load(
    req: &HttpRequest,
    state: &AppState,
    visit: &Visit,
    slug: &str,
    payor: &str,
) -> Result<Account, WebError> {
    let params: AccountParams = parse_query(req.query_string())?;
    let today = state.clock.today();
    let p = payor.to_owned();
    let s = InMunicipality::new(caller_of(visit)?, slug.to_owned())
        .read(state, move |MunicipalUnit { conn, ctx, .. }| {
            statement::statement(conn, &ctx, &p, params.as_of, today)
        })
        .await?;
    Ok(Account::from(&s))
}

/// `GET .../account`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor) = path.into_inner();
    let a = load(&req, &state, &visit, &slug, &payor).await?;
    let csv = format!(
        "{}/account.csv?as_of={}",
        payor_path(&slug, &payor),
        a.as_of
    );
    let body = html! {
        p.no-print { a href=(format!("/app/m/{slug}")) { "← What is due" } }
        h1 { "Statement of account" }
        p { "Payor " code { (payor) } ", as of " (a.as_of) ". Balance: " strong #balance { "$" (a.totals.balance) }
            " (charged $" (a.totals.charged) ", paid $" (a.totals.paid) ", interest accrued $" (a.totals.interest_accrued)
            ", credit held $" (a.totals.credit) ")." }
        form.no-print method="get" action=(format!("{}/account", payor_path(&slug, &payor))) {
            (layout::Field { kind: "date", ..layout::Field::text("as_of", "As of", &a.as_of.to_string()) }.render(&[]))
            button type="submit" { "Show" }
        }
        p.no-print { a href=(csv) download { "Download as CSV" } " · "
            a #statement-pdf href=(format!("{}/account.pdf?as_of={}", payor_path(&slug, &payor), a.as_of)) download { "Download as PDF" } " · " a href=(format!("{}/notices", payor_path(&slug, &payor))) { "Notices" } " · print this page for a paper copy." }
        table #periods {
            caption { "By period" }
            thead { tr { th scope="col" { "Period" } th scope="col" { "Due" } th scope="col" { "Component" }
                th scope="col" class="num" { "Charged" } th scope="col" class="num" { "Paid" } th scope="col" class="num" { "Balance" } } }
            tbody { @for p in &a.periods {
                @for c in &p.components {
                    tr { th scope="row" { (p.period) } td { @if let Some(d) = p.due_date { (d) } @else { "—" } }
                        td { (c.component.replace('_', " ")) } td.num { (c.charged) } td.num { (c.paid) } td.num { (c.balance) } }
                }
                @if p.interest_accrued.cents() != 0 {
                    tr { th scope="row" { (p.period) } td { "—" } td { "interest accrued (not posted)" }
                        td.num { (p.interest_accrued) } td.num { "0.00" } td.num { (p.interest_accrued) } }
                }
                tr.total { th scope="row" { (p.period) } td {} td { "period balance" } td.num { (p.charged) } td.num { (p.paid) } td.num { (p.balance) } }
            } }
        }
        table #payments {
            caption { "Payments received" }
            thead { tr { th scope="col" { "Received" } th scope="col" { "Method" } th scope="col" { "Reference" } th scope="col" class="num" { "Amount" } th scope="col" { "Reversed" } } }
            tbody { @for pay in &a.payments {
                tr { th scope="row" { (pay.received_on) } td { (format!("{:?}", pay.method).to_lowercase()) } td { (pay.reference) }
                    td.num { (pay.amount) } td { @if let Some(d) = pay.reversed_on { (d) } @else { "—" } } }
            } }
        }
        @if a.security_deposit.cents() != 0 {
            p { "Security deposit held: $" (a.security_deposit) " (not deducted from the balance)." }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Statement of account", body),
    ))
}

/// `GET .../account.csv`: the API's CSV of the same statement.
pub async fn csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor) = path.into_inner();
    let a = load(&req, &state, &visit, &slug, &payor).await?;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"account-{}.csv\"", a.as_of),
        ))
        .body(account_csv(&a)))
}

/// `GET .../account.pdf`: the same statement as a PDF document.
pub async fn pdf(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor) = path.into_inner();
    let params: AccountParams = parse_query(req.query_string())?;
    let today = state.clock.today();
    let (s, bytes) = InMunicipality::new(caller_of(&visit)?, slug)
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            statement::document(conn, &ctx, &payor, params.as_of, today)
        })
        .await?;
    Ok(HttpResponse::Ok()
        .content_type(crate::usecases::notices::PDF)
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"account-{}.pdf\"", s.as_of),
        ))
        .body(bytes))
}

//! `GET /app/m/{m}/payors/{payor}/extensions[?period=]` (the payor's
//! extension requests with their decisions, and the form to ask for one)
//! and `POST .../extensions` (ask).
//!
//! Contract: the list is `usecases::returns::extensions::of_payor` (the
//! API's `GET .../payors/{payor}/extensions`: whoever may read the payor's
//! returns, anyone else 404; each request shown written to the access log),
//! newest first, at most [`SHOWN`]; asking is `extensions::request` (the
//! API's `POST .../payors/{payor}/extensions`), the caller authorised
//! (`return_filer`) before the form is judged, after the CSRF check. Success
//! is a `303` back to the list; a refusal by the use case (a policy with no
//! extension, Hayward's; a period whose extension could no longer reach a
//! date to come; a return already on file; a request already open; a blank
//! reason) is the page again (422) with what was typed and each problem next
//! to its field (`period`, `reason`). The due list links here, with the
//! period filled in, for the periods `extensions::askable` offers.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::{Markup, html};
use serde::Deserialize;

use super::{caller_of, payor_path};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::parse_query,
    },
    app::AppState,
    db::returns::extensions::ExtensionQuery,
    domain::Period,
    error::{ApiError, FieldError},
    usecases::returns::extensions::{self as ext, ExtensionRecord},
    web::{Posted, WebError, layout, render, see_other, session::Visit},
};

/// How many requests the page lists.
pub const SHOWN: i64 = 100;

/// The page's query: the period to fill in.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AskParams {
    period: Option<String>,
}

/// The form as typed, with its problems.
#[derive(Debug, Default)]
struct Ask {
    period: String,
    reason: String,
    errors: Vec<FieldError>,
}

/// The path of the payor's extensions page (and of its POST).
pub fn extensions_path(slug: &str, payor: &str) -> String {
    format!("{}/extensions", payor_path(slug, payor))
}

/// The reason: one line (a form value may hold no line break, the edge
/// rule of `api::input_guard`).
fn reason_field(a: &Ask) -> Markup {
    layout::Field {
        required: true,
        hint: Some(
            "Why the return cannot be filed by its due date; the clerk-treasurer decides on it.",
        ),
        ..layout::Field::text("reason", "Good cause for more time", &a.reason)
    }
    .render(&a.errors)
}

fn status_of(r: &ExtensionRecord) -> String {
    match r.row.extended_to {
        Some(to) if r.row.status == "granted" => format!("granted: file by {to}"),
        _ => r.row.status.replace('_', " "),
    }
}

fn page(visit: &Visit, slug: &str, payor: &str, records: &[ExtensionRecord], a: &Ask) -> Markup {
    let base = payor_path(slug, payor);
    html! {
        p.no-print { a href=(format!("/app/m/{slug}")) { "← What is due" } " · " a href=(format!("{base}/account")) { "Statement of account" } }
        h1 { "Extensions of the time to file" }
        p { "Payor " code { (payor) } ". Where the ordinance allows it, the clerk-treasurer may extend, for good cause, the time to file a return. "
            "The late filing fee counts from the extended date; interest still runs from the original due date." }
        h2 #ask { "Ask for more time" }
        @if !a.errors.is_empty() {
            (layout::alert("The request was not made.", &a.errors, &["period", "reason"]))
        }
        form.stack.no-print #extension-form method="post" action=(extensions_path(slug, payor)) novalidate {
            (layout::csrf_field(visit))
            (layout::Field { required: true, hint: Some("A quarter such as 2026-Q1, or a year such as 2026."),
                ..layout::Field::text("period", "Return (period)", &a.period) }.render(&a.errors))
            (reason_field(a))
            div.actions { button type="submit" { "Ask for the extension" } }
        }
        h2 { "Requests and decisions" }
        @if records.is_empty() {
            p #no-extensions { "No extension has been asked for this payor." }
        } @else {
            table #extensions {
                caption { "Extension requests, newest first" }
                thead { tr { th scope="col" { "Period" } th scope="col" { "Asked (UTC)" } th scope="col" { "Reason given" }
                    th scope="col" { "Due" } th scope="col" { "Decision" } th scope="col" { "Note" } } }
                tbody { @for r in records {
                    tr #(format!("extension-{}", r.row.id)) {
                        th scope="row" { (r.period) }
                        td { (r.row.requested_at.format("%Y-%m-%d")) }
                        td { (r.row.reason) }
                        td { (r.window.due.date) }
                        td.status { (status_of(r)) }
                        td { @if let Some(n) = &r.row.decision_reason { (n) } @else { "—" } }
                    }
                } }
            }
        }
    }
}

async fn show(
    state: &AppState,
    visit: &Visit,
    slug: &str,
    payor: &str,
    ask: Ask,
    status: StatusCode,
) -> Result<HttpResponse, WebError> {
    let p = payor.to_owned();
    let records = InMunicipality::new(caller_of(visit)?, slug.to_owned())
        .read(state, move |MunicipalUnit { conn, ctx, .. }| {
            ext::of_payor(
                conn,
                &ctx,
                &p,
                ExtensionQuery {
                    limit: SHOWN,
                    ..ExtensionQuery::default()
                },
            )
        })
        .await?;
    Ok(render(
        visit,
        status,
        layout::page(
            visit,
            "Extensions",
            page(visit, slug, payor, &records, &ask),
        ),
    ))
}

/// `GET .../extensions[?period=]`.
pub async fn list(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let params: AskParams = parse_query(req.query_string())?;
    let (slug, payor) = path.into_inner();
    let ask = Ask {
        period: params.period.unwrap_or_default(),
        ..Ask::default()
    };
    show(&state, &visit, &slug, &payor, ask, StatusCode::OK).await
}

/// `POST .../extensions`: ask, then back to the list.
pub async fn request(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor) = path.into_inner();
    let period = Period::parse(form.shown("period").trim()).map_err(|_| {
        ApiError::invalid(
            "period",
            "period",
            "a quarter such as 2026-Q1, or a year such as 2026",
        )
    });
    let reason = form.shown("reason").to_owned();
    let now = state.clock.now();
    let p = payor.clone();
    let asked = InMunicipality::new(caller_of(&visit)?, slug.clone())
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            // Authorised first, as the API: then the form.
            ctx.return_filer(&p)?;
            ext::request(conn, &ctx, &p, period?, &reason, now)
        })
        .await;
    let errors = match asked {
        Ok(_) => return Ok(see_other(&extensions_path(&slug, &payor))),
        Err(ApiError::Validation(errors)) => errors,
        Err(ApiError::RuleConflict(error)) => vec![error],
        Err(other) => return Err(other.into()),
    };
    let ask = Ask {
        period: form.shown("period").to_owned(),
        reason: form.shown("reason").to_owned(),
        errors,
    };
    show(
        &state,
        &visit,
        &slug,
        &payor,
        ask,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await
}

//! `GET /app/m/{municipality}/clerk/remittances[?year=]`: the
//! municipality's quarters of a year as remitted to its zone (due date,
//! status, the commission's share submitted, transferred, outstanding),
//! with, for the clerk-treasurer, a link to preview and submit each ended
//! quarter ([`super::remittance_submit`]) and a form to record the transfer
//! of a submitted quarter's outstanding share;
//! `POST .../clerk/remittances/{remittance}/transfer` (record it).
//!
//! Contract: the list is `usecases::remittances::view::of_municipality`,
//! the use case of the API's `GET .../remittances?year=`
//! (`Action::ReviewReturns`: clerk-treasurer and staff; totals only, no
//! payor figure); the year defaults to this year. The transfer is the API's
//! `POST .../remittances/{remittance}/transfer`: the same use case
//! (`usecases::remittances::transfer`), the same check first
//! (`Action::SubmitRemittances`: the clerk-treasurer only, a person; staff
//! see no form and get the API's 403) and the same idempotency (a hidden
//! key, as the payment form). After the CSRF check; success is a `303` to
//! the quarter's year; a refusal the list again (422) with each problem
//! next to its field in that quarter's form (a rule of the transfer, such as
//! `already_paid`, above the list).

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use chrono::{Datelike, NaiveDate};
use maud::{Markup, html};

use super::{Menu, enter, gate, href, nav, query_value};
use crate::{
    api::{
        caller::MunicipalUnit,
        idempotency::Reply,
        remittances::{Transfer, TransferRequest},
    },
    app::AppState,
    domain::Money,
    error::{ApiError, FieldError},
    tenancy::Action,
    usecases::remittances::{self, NewTransfer, TransferMethod, view},
    web::{
        FormData, Posted, WebError,
        keyed::{self, KeyedPost, Outcome},
        layout::{self, Field},
        render,
        session::Visit,
    },
};

/// A refused transfer form, shown again on its quarter's row.
struct Refused {
    remittance_id: String,
    paid_on: String,
    method: String,
    reference: String,
    key: String,
    errors: Vec<FieldError>,
}

const FIELDS: [&str; 3] = ["paid_on", "method", "reference"];

fn year_of(raw: Option<String>, today: NaiveDate) -> Result<i32, ApiError> {
    match raw {
        Some(raw) => raw
            .parse::<i32>()
            .map_err(|_| ApiError::invalid("year", "integer", "a year such as 2026")),
        None => Ok(today.year()),
    }
}

/// `GET .../clerk/remittances`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let year = query_value(req.query_string(), "year");
    list(&state, &visit, path.into_inner(), year, None).await
}

async fn list(
    state: &AppState,
    visit: &Visit,
    slug: String,
    year: Option<String>,
    refused: Option<Refused>,
) -> Result<HttpResponse, WebError> {
    let here = enter(visit, slug.clone())?;
    let today = state.clock.today();
    let year = year_of(year, today);
    let (year, quarters, menu, may_submit) = here
        .read(
            state,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                gate(&ctx)?;
                let y = year?;
                let quarters = view::of_municipality(conn, &ctx, &municipality, Ok(y), today)?;
                let may = ctx.require(Action::SubmitRemittances).is_ok();
                Ok((y, quarters, Menu::of(&ctx), may))
            },
        )
        .await?;
    let status = if refused.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let body = html! {
        (nav(&slug, "/remittances", menu))
        h1 { "Remittances to the zone, " (year) }
        p.no-print {
            a href=(href(&slug, &format!("/remittances?year={}", year - 1))) { (year - 1) }
            " · " a href=(href(&slug, &format!("/remittances?year={}", year + 1))) { (year + 1) }
        }
        @if let Some(r) = &refused {
            (layout::alert("The transfer was not recorded.", &r.errors, &FIELDS))
        }
        @if quarters.is_empty() {
            p.note { "The municipality was not a member of a tourism zone on the last day of any quarter of " (year) "." }
        } @else {
            table #remittances {
                caption { "Quarters of " (year) }
                thead { tr {
                    th scope="col" { "Quarter" } th scope="col" { "Due" } th scope="col" { "Status" }
                    th.num scope="col" { "Tax collected" } th.num scope="col" { "Commission's share" }
                    th.num scope="col" { "Transferred" } th.num scope="col" { "Outstanding" }
                    @if may_submit { th scope="col" { "Action" } }
                } }
                tbody { @for q in &quarters {
                    tr #(format!("remittance-{}", q.period)) {
                        th scope="row" { a href=(href(&slug, &format!("?period={}", q.period))) { (q.period) } }
                        td { (q.due_on) }
                        td { (q.status.as_str()) }
                        td.num { @if let Some(l) = &q.latest { (Money::from_cents(l.tax_collected_cents)) } }
                        td.num { @if let Some(l) = &q.latest { (Money::from_cents(l.commission_cents)) } }
                        td.num { (q.transferred) }
                        td.num { (q.outstanding) }
                        @if may_submit {
                            td {
                                @if q.period.last_day() < today {
                                    a href=(href(&slug, &format!("/remittances/submit?period={}", q.period))) {
                                        @if q.latest.is_some() { "Preview a correction" } @else { "Preview and submit" }
                                        span.visually-hidden { " " (q.period) }
                                    }
                                }
                                @if let Some(l) = q.latest.as_ref().filter(|_| q.outstanding > Money::ZERO) {
                                    (transfer_form(visit, &slug, &l.id, &q.period.to_string(), today,
                                        refused.as_ref().filter(|r| r.remittance_id == l.id)))
                                }
                            }
                        }
                    }
                } }
            }
        }
        p.cite { "The commission's share is the policy's part of the tax principal received in the quarter (Montello room tax, distribution ¶A). The clerk-treasurer submits a quarter (from the ledger, previewed first) and records the transfer of its share when paid." }
    };
    Ok(render(
        visit,
        status,
        layout::page(visit, "Remittances", body),
    ))
}

fn transfer_form(
    visit: &Visit,
    slug: &str,
    id: &str,
    period: &str,
    today: NaiveDate,
    refused: Option<&Refused>,
) -> Markup {
    let methods = [
        ("check", "Check"),
        ("ach", "ACH transfer"),
        ("wire", "Wire"),
        ("card", "Card"),
        ("cash", "Cash"),
    ];
    let no_errors = Vec::new();
    let errors = refused.map_or(&no_errors, |r| &r.errors);
    let paid_on = refused.map_or(today.to_string(), |r| r.paid_on.clone());
    let method = refused.map_or("check".to_owned(), |r| r.method.clone());
    let reference = refused.map_or(String::new(), |r| r.reference.clone());
    let key = refused.map_or_else(keyed::new_key, |r| r.key.clone());
    html! {
        details open[refused.is_some()] {
            summary { "Record the transfer" span.visually-hidden { " of " (period) } }
            form.stack method="post" action=(href(slug, &format!("/remittances/{id}/transfer"))) novalidate {
                (layout::csrf_field(visit))
                (keyed::key_field(&key))
                input type="hidden" name="year" value=(period.get(..4).unwrap_or_default());
                (Field { kind: "date", required: true, hint: Some("The day the share was paid to the commission."),
                         ..Field::text("paid_on", "Paid on", &paid_on) }.render(errors))
                (layout::select("method", "Method", &method, methods, errors))
                (Field { required: true, hint: Some("The check number or transaction id."),
                         ..Field::text("reference", "Reference", &reference) }.render(errors))
                div { button type="submit" { "Record the transfer of the outstanding share" } }
            }
        }
    }
}

fn method_of(raw: &str) -> Option<TransferMethod> {
    match raw {
        "check" => Some(TransferMethod::Check),
        "ach" => Some(TransferMethod::Ach),
        "card" => Some(TransferMethod::Card),
        "cash" => Some(TransferMethod::Cash),
        "wire" => Some(TransferMethod::Wire),
        _ => None,
    }
}

fn parse(form: &FormData) -> Result<TransferRequest, Vec<FieldError>> {
    let mut faults = Vec::new();
    let paid_on = NaiveDate::parse_from_str(form.shown("paid_on").trim(), "%Y-%m-%d")
        .map_err(|_| {
            faults.push(FieldError::new(
                "paid_on",
                "date",
                "enter the date as YYYY-MM-DD",
            ))
        })
        .ok();
    let method = method_of(form.shown("method"));
    if method.is_none() {
        faults.push(FieldError::new(
            "method",
            "one_of",
            "choose check, ACH, wire, card or cash",
        ));
    }
    match (paid_on, method) {
        (Some(paid_on), Some(method)) if faults.is_empty() => Ok(TransferRequest {
            paid_on,
            method,
            reference: form.shown("reference").to_owned(),
        }),
        _ => Err(faults),
    }
}

/// `POST .../clerk/remittances/{remittance}/transfer`.
pub async fn transfer(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, id) = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let (s, version) = (slug.clone(), id.clone());
    let post = KeyedPost {
        form: &form,
        target: href(&slug, &format!("/remittances/{id}/transfer")),
        shows_conflicts: true,
        unlocated: "a transfer without its location",
    };
    let outcome = post
        .run(
            &state,
            here,
            parse(&form),
            |ctx| ctx.require(Action::SubmitRemittances),
            move |MunicipalUnit { conn, ctx, .. }, body| {
                let recorded = remittances::transfer(
                    conn,
                    &ctx,
                    &version,
                    NewTransfer {
                        paid_on: body.paid_on,
                        method: body.method,
                        reference: body.reference,
                    },
                    today,
                )?;
                let year = recorded.row.period.get(..4).unwrap_or_default().to_owned();
                let location = href(
                    &s,
                    &format!(
                        "/remittances?year={year}#remittance-{}",
                        recorded.row.period
                    ),
                );
                Reply::created(location, &Transfer::from(recorded))
            },
        )
        .await?;
    let (key, errors) = match outcome {
        Outcome::Done(res) => return Ok(res),
        Outcome::Refused(refused) => (refused.key, refused.errors),
    };
    let refused = Refused {
        remittance_id: id,
        paid_on: form.shown("paid_on").to_owned(),
        method: form.shown("method").to_owned(),
        reference: form.shown("reference").to_owned(),
        key,
        errors,
    };
    let year = form.get("year").map(str::to_owned);
    list(&state, &visit, slug, year, Some(refused)).await
}

//! The public pages (no sign-in, issue 11 item 7): the index, the room-tax
//! calculator, each municipality's rules and filing calendar, and a zone's
//! public statistics with suppressed cells marked.
//!
//! Contract: public law and published figures only, through the same use
//! cases as the API (`usecases::public_law`, `usecases::statistics`) and the
//! API's own request parsing (`api::quotes::QuoteRequest`, so a field is
//! refused here exactly as `POST .../quotes` refuses it, with the same
//! field and rule). The calculator is a plain form post (a whole page, 422
//! when a field is wrong) and, with JavaScript, live through htmx: a request
//! with `HX-Request` gets only the result and the fields' errors (swapped
//! out of band next to each field), always 200 so htmx swaps it.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use chrono::{Datelike, NaiveDate};
use maud::{Markup, html};
use rust_decimal::Decimal;

use super::{
    FormData, Posted, WebError, from_htmx,
    layout::{self, Field},
    render,
    session::Visit,
};
use crate::{
    api::{
        caller::{PublicMunicipality, PublicZone},
        extract::{parse_json, parse_query},
        quotes::QuoteRequest,
        statistics::PublicStatistics,
    },
    app::AppState,
    db::{self, models::MunicipalityRow},
    domain::{Quote, QuoteInput},
    error::{ApiError, FieldError},
    usecases,
};

/// The calculator's fields, named as the API's quote request names them.
const QUOTE_FIELDS: [&str; 7] = [
    "period",
    "gross_receipts",
    "exempt_receipts",
    "filed_on",
    "paid_on",
    "extended_to",
    "previous_year_tax",
];

/// How late the "what lateness would cost" example is.
const LATE_EXAMPLE_DAYS: i64 = 45;

fn percent(rate: Decimal) -> String {
    format!("{} %", (rate * Decimal::ONE_HUNDRED).normalize())
}

async fn all_municipalities(state: &AppState) -> Result<Vec<MunicipalityRow>, ApiError> {
    state
        .db
        .read(|conn| Ok(db::municipalities::list(conn, None, 500)?))
        .await
}

/// `GET /app/public`.
pub async fn index(state: web::Data<AppState>, visit: Visit) -> Result<HttpResponse, WebError> {
    let (munis, zones) = state
        .db
        .read(|conn| {
            Ok((
                db::municipalities::list(conn, None, 500)?,
                db::zones::list(conn, None, 500)?,
            ))
        })
        .await?;
    let body = html! {
        h1 { "Room tax: public information" }
        p { "What a return owes, when it is due, and what the municipalities collected. No sign-in needed." }
        ul.cards {
            li { h2 { a href="/app/public/calculator" { "Room-tax calculator" } }
                 p { "Period and receipts in; tax, due date and what lateness would cost out, every amount with its ordinance paragraph." } }
            @for m in &munis {
                li { h2 { a href=(format!("/app/public/municipalities/{}", m.slug)) { (m.name) } }
                     p { "Rules and filing calendar (" (m.county) " County)." } }
            }
            @for z in &zones {
                li { h2 { a href=(format!("/app/public/zones/{}/statistics", z.slug)) { (z.name) } }
                     p { "Room tax collected by member and quarter; small cells withheld." } }
            }
        }
        p { a href="/app/sign-in" { "Sign in" } " to file returns or administer the tax." }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Public information", body),
    ))
}

/// The form's values and what came of them.
struct Calculation {
    municipality: String,
    values: Vec<(&'static str, String)>,
    errors: Vec<FieldError>,
    quote: Option<(Quote, Option<(NaiveDate, Quote)>)>,
}

impl Calculation {
    fn value(&self, name: &str) -> &str {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

fn calculator_form(visit: &Visit, munis: &[MunicipalityRow], c: &Calculation) -> Markup {
    let date = |name: &'static str, label: &'static str, hint: &'static str| Field {
        kind: "date",
        hint: Some(hint),
        ..Field::text(name, label, c.value(name))
    };
    let money = |name: &'static str, label: &'static str, hint: Option<&'static str>| Field {
        hint,
        inputmode: Some("decimal"),
        ..Field::text(name, label, c.value(name))
    };
    html! {
        form.stack #calculator method="post" action="/app/public/calculator" novalidate
            hx-post="/app/public/calculator" hx-trigger="input changed delay:400ms, submit"
            hx-target="#quote-result" hx-swap="innerHTML" {
            (layout::csrf_field(visit))
            (layout::select("municipality", "Municipality", &c.municipality, munis.iter().map(|m| (&m.slug, &m.name)), &c.errors))
            (Field { required: true, hint: Some("A quarter (2026-Q1), a calendar year (2026) or a fiscal year (FY2026-06)."),
                     ..Field::text("period", "Period", c.value("period")) }.render(&c.errors))
            (Field { required: true, ..money("gross_receipts", "Gross receipts from rooms and lodging", Some("Dollars and cents, e.g. 12345.67.")) }.render(&c.errors))
            (money("exempt_receipts", "Exempt receipts", Some("Federal government, Wis. Stat. § 77.54(9a) buyers, stays of a month or more. Leave empty for none.")).render(&c.errors))
            (date("filed_on", "Date filed", "Leave empty for a return filed on time.").render(&c.errors))
            (date("paid_on", "Date paid", "Leave empty when paid with the return.").render(&c.errors))
            (date("extended_to", "Extended filing date", "Only when the clerk-treasurer granted an extension (Montello).").render(&c.errors))
            (money("previous_year_tax", "Room tax of the previous year", Some("Montello's late-payment forfeiture is a share of it.")).render(&c.errors))
            div { button type="submit" { "Calculate" } " " span.htmx-indicator { "Calculating…" } }
        }
    }
}

fn lines_table(caption: &str, quote: &Quote) -> Markup {
    html! {
        table {
            caption { (caption) }
            thead { tr { th scope="col" { "Amount" } th scope="col" class="num" { "Dollars" } th scope="col" { "How and why" } } }
            tbody {
                @for line in &quote.lines {
                    tr .total[line.code == "total_due"] {
                        th scope="row" { (line.code.replace('_', " ")) }
                        td.num { (line.amount) }
                        td { (line.explanation) br; span.cite { (line.citation) } }
                    }
                }
            }
        }
    }
}

fn result(c: &Calculation) -> Markup {
    html! {
        @if let Some((quote, late)) = &c.quote {
            h2 { "What the return owes" }
            p.total { "Total due: $" (quote.total_due) " (tax $" (quote.tax) "), due " (quote.due_date)
                @if quote.filing_due_date != quote.due_date { ", to be filed by " (quote.filing_due_date) } "." }
            (lines_table("Every amount, with its ordinance paragraph", quote))
            table {
                caption { "Dates" }
                thead { tr { th scope="col" { "Date" } th scope="col" { "When" } th scope="col" { "How and why" } } }
                tbody { @for d in &quote.dates {
                    tr { th scope="row" { (d.code.replace('_', " ")) } td { (d.date) } td { (d.explanation) br; span.cite { (d.citation) } } }
                } }
            }
            @if let Some((on, late)) = late {
                h2 { "What lateness would cost" }
                p { "The same return filed and paid on " (on) ", " (LATE_EXAMPLE_DAYS) " days after its filing due date: total due $" (late.total_due) "." }
                (lines_table("If filed and paid late", late))
            }
        } @else if !c.errors.is_empty() {
            (layout::alert("The calculation needs other values.", &c.errors, &QUOTE_FIELDS_AND_MUNICIPALITY))
        } @else {
            p { "Enter a period and the gross receipts." }
        }
    }
}

const QUOTE_FIELDS_AND_MUNICIPALITY: [&str; 8] = [
    "municipality",
    "period",
    "gross_receipts",
    "exempt_receipts",
    "filed_on",
    "paid_on",
    "extended_to",
    "previous_year_tax",
];

fn calculator_page(visit: &Visit, munis: &[MunicipalityRow], c: &Calculation) -> Markup {
    layout::page(
        visit,
        "Room-tax calculator",
        html! {
            h1 { "Room-tax calculator" }
            p { "What a return owes under the ordinance in force for its period. Nothing you enter is stored." }
            (calculator_form(visit, munis, c))
            section #quote-result aria-live="polite" { (result(c)) }
        },
    )
}

/// `GET /app/public/calculator[?municipality=]`.
pub async fn calculator(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
) -> Result<HttpResponse, WebError> {
    #[derive(serde::Deserialize)]
    struct Params {
        municipality: Option<String>,
    }
    let params: Params = parse_query(req.query_string())?;
    let munis = all_municipalities(&state).await?;
    let c = Calculation {
        municipality: params
            .municipality
            .or_else(|| munis.first().map(|m| m.slug.clone()))
            .unwrap_or_default(),
        values: Vec::new(),
        errors: Vec::new(),
        quote: None,
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        calculator_page(&visit, &munis, &c),
    ))
}

/// The API's quote request from the form's non-empty fields.
fn quote_input(form: &FormData) -> Result<QuoteInput, ApiError> {
    let mut object = serde_json::Map::new();
    for name in QUOTE_FIELDS {
        if let Some(v) = form.get(name) {
            object.insert(name.to_owned(), serde_json::Value::String(v.to_owned()));
        }
    }
    let mut missing = Vec::new();
    for (name, what) in [
        ("period", "enter the period"),
        ("gross_receipts", "enter the gross receipts"),
    ] {
        if !object.contains_key(name) {
            missing.push(FieldError::new(name, "required", what));
        }
    }
    if !missing.is_empty() {
        return Err(ApiError::Validation(missing));
    }
    let body = serde_json::to_vec(&object).map_err(ApiError::internal)?;
    parse_json::<QuoteRequest>(&body)?.into_input()
}

/// `POST /app/public/calculator` (a plain form post, or htmx as one types).
pub async fn calculate(
    req: HttpRequest,
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
) -> Result<HttpResponse, WebError> {
    let municipality = form.get("municipality").unwrap_or("").to_owned();
    let values = QUOTE_FIELDS
        .iter()
        .map(|n| (*n, form.shown(n).to_owned()))
        .collect();
    let mut c = Calculation {
        municipality: municipality.clone(),
        values,
        errors: Vec::new(),
        quote: None,
    };
    let outcome = match quote_input(&form) {
        Ok(input) => {
            PublicMunicipality::new(municipality)
                .read(&state, move |conn, muni| {
                    let quote = usecases::public_law::quote_for(conn, &muni, &input)?;
                    let late = if input.filed_on.is_none() && input.paid_on.is_none() {
                        let on = quote.filing_due_date + chrono::Duration::days(LATE_EXAMPLE_DAYS);
                        let late_input = QuoteInput {
                            filed_on: Some(on),
                            paid_on: Some(on),
                            ..input.clone()
                        };
                        Some((
                            on,
                            usecases::public_law::quote_for(conn, &muni, &late_input)?,
                        ))
                    } else {
                        None
                    };
                    Ok((quote, late))
                })
                .await
        }
        Err(e) => Err(e),
    };
    match outcome {
        Ok(q) => c.quote = Some(q),
        Err(ApiError::NotFound(_)) => c.errors.push(FieldError::new(
            "municipality",
            "exists",
            "choose one of the municipalities listed",
        )),
        Err(
            e @ (ApiError::Validation(_)
            | ApiError::InvalidFieldType { .. }
            | ApiError::UnknownField { .. }),
        ) => {
            c.errors = e.to_problem().errors;
        }
        Err(e) => return Err(e.into()),
    }
    if from_htmx(&req) {
        let fragment = html! {
            (result(&c))
            @for name in QUOTE_FIELDS_AND_MUNICIPALITY {
                span.error id=(layout::error_id(name)) hx-swap-oob="true" {
                    (layout::error_of(&c.errors, name).unwrap_or_default())
                }
            }
        };
        return Ok(render(&visit, StatusCode::OK, fragment));
    }
    let munis = all_municipalities(&state).await?;
    let status = crate::web::form_status(&c.errors);
    Ok(render(&visit, status, calculator_page(&visit, &munis, &c)))
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct YearParams {
    year: Option<i32>,
}

/// `GET /app/public/municipalities/{municipality}[?year=]`: the rules in force and the filing calendar.
pub async fn municipality(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let params: YearParams = parse_query(req.query_string())?;
    let today = state.clock.today();
    let year = params.year.unwrap_or(today.year());
    let (muni, policy, calendar) = PublicMunicipality::new(path.into_inner())
        .read(&state, move |conn, muni| {
            let history = db::policies::load_history(conn, muni.id)?;
            let policy = history.in_force_on(today).cloned();
            let calendar = usecases::public_law::calendar_of(conn, &muni, year)?;
            Ok((muni, policy, calendar))
        })
        .await?;
    let title = format!("{}: room tax rules", muni.name);
    let body = html! {
        h1 { (title) }
        @if let Some(p) = &policy {
            p { (p.title) ", in force since " (p.effective_from) "." }
            table {
                caption { "The rules in force today" }
                thead { tr { th scope="col" { "Rule" } th scope="col" { "Value" } th scope="col" { "Source" } } }
                tbody {
                    tr { th scope="row" { "Tax rate" } td { (percent(p.rate.value)) " of taxable receipts" } td.cite { (p.rate.citation) } }
                    tr { th scope="row" { "Interest on late tax" } td { (percent(p.interest_monthly_rate.value)) " per month or part of a month" } td.cite { (p.interest_monthly_rate.citation) } }
                    tr { th scope="row" { "Late filing fee" } td { "$" (p.late_filing_fee.value) } td.cite { (p.late_filing_fee.citation) } }
                    tr { th scope="row" { "Extension of the filing date" }
                         td { @match &p.max_extension_months { Some(m) => { "up to " (m.value) " month(s), on request" }, None => { "none" } } }
                         td.cite { @if let Some(m) = &p.max_extension_months { (m.citation) } } }
                    tr { th scope="row" { "Fiscal year for the annual return" }
                         td { @if p.fiscal_year_allowed.value { "allowed" } @else { "not allowed" } } td.cite { (p.fiscal_year_allowed.citation) } }
                    tr { th scope="row" { "Quarterly returns due" } td { "see the calendar below" } td.cite { (p.quarterly_due.citation) } }
                    tr { th scope="row" { "Annual return due" } td { "see the calendar below" } td.cite { (p.annual_return.citation) } }
                }
            }
            @if !p.exemptions.is_empty() {
                h2 { "Exempt sales" }
                ul { @for e in &p.exemptions { li { (serde_json::to_value(e).ok().and_then(|v| v.get("description").and_then(|d| d.as_str()).map(str::to_owned)).unwrap_or_else(|| format!("{e:?}"))) } } }
            }
        } @else {
            p { "No policy version of this municipality is in force today." }
        }
        h2 #calendar { "Filing calendar " (year) }
        form method="get" action=(format!("/app/public/municipalities/{}", muni.slug)) {
            label for="year" { "Year " }
            input #year name="year" type="number" inputmode="numeric" value=(year);
            " " button type="submit" { "Show" }
        }
        table {
            caption { "Returns due in " (year) }
            thead { tr { th scope="col" { "Return" } th scope="col" { "Due" } th scope="col" { "Rule" } } }
            tbody { @for item in &calendar {
                tr { th scope="row" { (item.period) } td { (item.due_date) } td { (item.explanation) br; span.cite { (item.citation) } } }
            } }
        }
        p { a href=(format!("/app/public/calculator?municipality={}", muni.slug)) { "Calculate a return of " (muni.name) } }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &title, body),
    ))
}

/// `GET /app/public/zones/{zone}/statistics[?year=]`: room tax collected by member and quarter.
pub async fn zone_statistics(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let params: YearParams = parse_query(req.query_string())?;
    let today = state.clock.today();
    let (name, s) = PublicZone::new(path.into_inner())
        .read(&state, move |conn, zone| {
            let s = usecases::statistics::of_zone(conn, &zone, params.year, today)?;
            Ok((zone.name.clone(), PublicStatistics::of(zone.slug, s)))
        })
        .await?;
    let title = format!("{name}: room tax collected in {}", s.year);
    let body = html! {
        h1 { (title) }
        p.note { (s.rule) }
        table {
            caption { "Room tax collected by member municipality and quarter (dollars)" }
            thead { tr {
                th scope="col" { "Municipality" }
                @for p in &s.periods { th scope="col" class="num" { (p) } }
                th scope="col" class="num" { "Year" }
            } }
            tbody {
                @for r in &s.rows {
                    tr {
                        th scope="row" { (r.name) @if let Some(note) = &r.note { br; span.cite { (note) } } }
                        @for c in &r.quarters {
                            @match (&c.tax_collected, c.withheld) {
                                (Some(m), false) => { td.num { (m) } },
                                _ => { td.num.withheld title=[c.explanation.as_deref()] { "withheld" span.cite { " (" (c.reason.as_deref().unwrap_or("")) ")" } } },
                            }
                        }
                        td.num { (r.total) }
                    }
                }
            }
            tfoot { tr {
                th scope="row" { "All members" }
                @for c in &s.quarter_totals {
                    @match (&c.tax_collected, c.withheld) {
                        (Some(m), false) => { td.num { (m) } },
                        _ => { td.num.withheld { "withheld" } },
                    }
                }
                td.num.total { (s.total) }
            } }
        }
        p { "A cell marked " em { "withheld" } " is not published: it rests on too few payors to keep each one's receipts confidential." }
        p { a href=(format!("/v1/zones/{}/statistics?year={}", s.of, s.year)) { "The same table as JSON" } }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &title, body),
    ))
}

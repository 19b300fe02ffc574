//! `GET /app/m/{municipality}/clerk/payors/{payor}/notices` (the payor's
//! determinations, each with its letter, and written notices; for the
//! clerk-treasurer the form to make a determination),
//! `POST .../payors/{payor}/determinations` (make one) and
//! `GET .../notices/{notice}/document` (a notice's PDF, as sent: a
//! determination's letter is its notice).
//!
//! Contract: `usecases::ledger::determinations::list` and
//! `usecases::notices::list` (the API's `GET .../determinations` and
//! `GET .../notices`; each determination read and the notices listing are
//! logged there), after [`super::gate`]; the PDF is `notices::document`
//! (the API's `GET .../notices/{notice}/document`, logged `notice`) sent as
//! the API sends it (`api::notices::pdf_response`). At most [`PAGE`]
//! notices, newest first. Making is the API's
//! `POST .../determinations`: the same use case
//! (`determinations::make`), the same check first
//! (`Action::MakeDeterminations`: the clerk-treasurer only, a person; staff
//! see no form and get the API's 403; anyone else 404) and the same
//! idempotency (a hidden key, as the payment form: a second submit answers
//! the first determination); the CSRF token is checked before anything
//! else; a refused form is the page again (422) with each problem next to
//! its field; success is a `303 See Other` to the page, at the new
//! determination, whose letter (its notice's PDF) is linked on its row.

use actix_web::{HttpResponse, web};
use chrono::NaiveDate;
use maud::{Markup, html};

use super::{Menu, enter, gate, href, nav};
use crate::{
    api::{
        caller::MunicipalUnit,
        determinations::{Determination, DeterminationRequest},
        idempotency::Reply,
        notices::pdf_response,
    },
    app::AppState,
    domain::{Money, Period, determination::DeterminationKind},
    error::FieldError,
    tenancy::Action,
    usecases::{
        ledger::determinations::{self, NewDetermination},
        notices,
    },
    web::{
        Posted, WebError,
        echo::echo_form,
        keyed::{self, KeyedPost, Outcome},
        layout::{self, Field},
        render,
        session::Visit,
    },
};

/// Notices listed.
pub const PAGE: i64 = 200;

echo_form! {
    /// What the determination form holds (as typed, to show again).
    #[derive(Debug, Clone)]
    pub struct Entered {
        kind,
        period,
        determined_on,
        basis,
        gross_receipts,
        exempt_receipts,
        tax_found,
        estimated_receipts,
        key = keyed::KEY_FIELD,
    }
}

const FIELDS: [&str; 8] = [
    "kind",
    "period",
    "determined_on",
    "basis",
    "gross_receipts",
    "exempt_receipts",
    "tax_found",
    "estimated_receipts",
];

impl Entered {
    /// An empty form with a fresh idempotency key.
    fn new() -> Self {
        Entered {
            kind: "office_audit".into(),
            period: String::new(),
            determined_on: String::new(),
            basis: String::new(),
            gross_receipts: String::new(),
            exempt_receipts: String::new(),
            tax_found: String::new(),
            estimated_receipts: String::new(),
            key: keyed::new_key(),
        }
    }

    /// The API's request body, or the problems of each field.
    fn parse(&self) -> Result<DeterminationRequest, Vec<FieldError>> {
        let mut faults = Vec::new();
        let kind = DeterminationKind::parse(self.kind.trim());
        if kind.is_none() {
            faults.push(FieldError::new(
                "kind",
                "one_of",
                "choose an office audit, a field audit, a non-filer estimate or fraud",
            ));
        }
        let period = Period::parse(self.period.trim())
            .map_err(|e| {
                faults.push(FieldError::new(
                    "period",
                    e.rule(),
                    "enter a quarter such as 2026-Q1",
                ))
            })
            .ok();
        let determined_on = match self.determined_on.trim() {
            "" => None,
            raw => NaiveDate::parse_from_str(raw, "%Y-%m-%d")
                .map_err(|_| {
                    faults.push(FieldError::new(
                        "determined_on",
                        "date",
                        "enter the date as YYYY-MM-DD, or leave it blank for today",
                    ))
                })
                .ok(),
        };
        let mut amount = |field: &str, raw: &str| match raw.trim() {
            "" => None,
            raw => Money::parse(raw)
                .map_err(|e| {
                    faults.push(FieldError::new(
                        field,
                        "amount",
                        format!("enter an amount like 1234.50 ({e})"),
                    ))
                })
                .ok(),
        };
        let gross_receipts = amount("gross_receipts", &self.gross_receipts);
        let exempt_receipts = amount("exempt_receipts", &self.exempt_receipts);
        let tax_found = amount("tax_found", &self.tax_found);
        let estimated_receipts = amount("estimated_receipts", &self.estimated_receipts);
        match (kind, period) {
            (Some(kind), Some(period)) if faults.is_empty() => Ok(DeterminationRequest {
                kind,
                period,
                determined_on,
                basis: self.basis.clone(),
                gross_receipts,
                exempt_receipts,
                tax_found,
                estimated_receipts,
            }),
            _ => Err(faults),
        }
    }
}

fn action(slug: &str, payor_id: &str) -> String {
    href(slug, &format!("/payors/{payor_id}/determinations"))
}

fn page_of(slug: &str, payor_id: &str) -> String {
    href(slug, &format!("/payors/{payor_id}/notices"))
}

/// The form to make a determination (the clerk-treasurer's).
fn form(visit: &Visit, slug: &str, payor_id: &str, e: &Entered, errors: &[FieldError]) -> Markup {
    let kinds = [
        ("office_audit", "Office audit (a return on file)"),
        ("field_audit", "Field audit (a return on file)"),
        ("non_filer_estimate", "Non-filer estimate (no return filed)"),
        ("fraud", "Fraud (a false or fraudulent return on file)"),
    ];
    html! {
        form.stack.no-print #determination-form method="post" action=(action(slug, payor_id)) novalidate {
            (layout::csrf_field(visit))
            (keyed::key_field(&e.key))
            (layout::select("kind", "Kind", &e.kind, kinds, errors))
            (Field { required: true, hint: Some("The calendar quarter determined, e.g. 2026-Q1."),
                     ..Field::text("period", "Quarter", &e.period) }.render(errors))
            (Field { kind: "date", hint: Some("Blank: today. Not after today, nor before the payor's latest payment."),
                     ..Field::text("determined_on", "Determined on", &e.determined_on) }.render(errors))
            (Field { required: true, hint: Some("The written basis: the records examined, the facts found (up to 4,000 characters)."),
                     ..Field::text("basis", "Basis", &e.basis) }.render(errors))
            fieldset {
                legend { "Audits: the audited receipts, or the tax found" }
                (Field { inputmode: Some("decimal"), ..Field::text("gross_receipts", "Audited gross receipts", &e.gross_receipts) }.render(errors))
                (Field { inputmode: Some("decimal"), hint: Some("Blank: 0.00 with gross receipts."),
                         ..Field::text("exempt_receipts", "Audited exempt receipts", &e.exempt_receipts) }.render(errors))
                (Field { inputmode: Some("decimal"), hint: Some("Instead of the receipts."),
                         ..Field::text("tax_found", "Tax found due", &e.tax_found) }.render(errors))
            }
            fieldset {
                legend { "Non-filer estimates" }
                (Field { inputmode: Some("decimal"), ..Field::text("estimated_receipts", "Estimated gross receipts", &e.estimated_receipts) }.render(errors))
            }
            div { button type="submit" { "Make the determination" } }
        }
    }
}

/// `GET .../clerk/payors/{payor}/notices`.
pub async fn page(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor_id) = path.into_inner();
    show(&state, &visit, slug, payor_id, Entered::new(), Vec::new()).await
}

async fn show(
    state: &AppState,
    visit: &Visit,
    slug: String,
    payor_id: String,
    entered: Entered,
    errors: Vec<FieldError>,
) -> Result<HttpResponse, WebError> {
    let here = enter(visit, slug.clone())?;
    let id = payor_id.clone();
    let (made, sent, menu, may_determine) = here
        .read(state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            let made = determinations::list(conn, &ctx, &id)?;
            let sent = notices::list(conn, &ctx, &id, None, PAGE)?;
            let may = ctx.require(Action::MakeDeterminations).is_ok();
            Ok((made, sent, Menu::of(&ctx), may))
        })
        .await?;
    let status = crate::web::form_status(&errors);
    let letter = |notice: &str| {
        href(
            &slug,
            &format!("/payors/{payor_id}/notices/{notice}/document"),
        )
    };
    let body = html! {
        (nav(&slug, "/payors", menu))
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
                    th scope="col" { "Letter" }
                } }
                tbody { @for d in &made {
                    tr #(format!("determination-{}", d.row.id)) {
                        th scope="row" { (d.row.determined_on) }
                        td { (d.row.kind.replace('_', " ")) }
                        td { (d.row.period) }
                        td { (d.row.basis) }
                        td.num { (Money::from_cents(d.row.tax_charged_cents)) }
                        td.num { (Money::from_cents(d.row.estimate_penalty_cents + d.row.fraud_penalty_cents)) }
                        td { a href=(letter(&d.row.notice_id)) download { "PDF" span.visually-hidden { " of the letter of " (d.row.determined_on) } } }
                    }
                } }
            }
        }
        @if may_determine {
            h2 #make-determination { "Make a determination" }
            @if !errors.is_empty() {
                (layout::alert("The determination was not made.", &errors, &FIELDS))
            }
            (form(visit, &slug, &payor_id, &entered, &errors))
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
                        td { a href=(letter(&n.id)) download { "PDF" span.visually-hidden { " of " (n.title) } } }
                    }
                } }
            }
        }
    };
    Ok(render(
        visit,
        status,
        layout::page(visit, "Determinations and notices", body),
    ))
}

/// `POST .../clerk/payors/{payor}/determinations`.
pub async fn make(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor_id) = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let mut entered = Entered::of(&form);
    let parsed = entered.parse();
    let (s, p) = (slug.clone(), payor_id.clone());
    let post = KeyedPost {
        form: &form,
        target: action(&slug, &payor_id),
        shows_conflicts: true,
        unlocated: "a determination without its location",
    };
    let outcome = post
        .run(
            &state,
            here,
            parsed,
            |ctx| ctx.require(Action::MakeDeterminations),
            move |MunicipalUnit { conn, ctx, .. }, body| {
                let made = determinations::make(
                    conn,
                    &ctx,
                    &s,
                    &p,
                    NewDetermination {
                        kind: body.kind,
                        period: body.period,
                        determined_on: body.determined_on,
                        basis: body.basis,
                        gross_receipts: body.gross_receipts,
                        exempt_receipts: body.exempt_receipts,
                        tax_found: body.tax_found,
                        estimated_receipts: body.estimated_receipts,
                    },
                    today,
                )?;
                let location = format!("{}#determination-{}", page_of(&s, &p), made.row.id);
                Reply::created(location, &Determination::from(made))
            },
        )
        .await?;
    let refused = match outcome {
        Outcome::Done(res) => return Ok(res),
        Outcome::Refused(refused) => refused,
    };
    entered.key = refused.key;
    show(&state, &visit, slug, payor_id, entered, refused.errors).await
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
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            notices::document(conn, &ctx, &payor_id, &notice_id)
        })
        .await?;
    Ok(pdf_response(&row, doc))
}

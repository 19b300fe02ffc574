//! `POST /app/m/{municipality}/clerk/payors/{payor}/payments` (record a
//! payment from the payor's page) and
//! `GET /app/m/{municipality}/clerk/payors/{payor}/payments/{payment}` (the
//! receipt: where the payment went).
//!
//! Contract:
//! - recording is the API's `POST .../payments`: the same use case
//!   (`usecases::ledger::payments::record`), the same check first
//!   (`Action::RecordPayments`: the clerk-treasurer and staff, as persons;
//!   related roles 403, anyone else 404) and the same idempotency
//!   (`api::idempotency::Idempotency`): the form carries a fresh key in a
//!   hidden field, so a second submit of the same form (a double click, a
//!   reload of the POST, the back button) answers the first payment's
//!   receipt and records nothing more; the same key with other figures is
//!   refused (422, shown on the form);
//! - the CSRF token is checked before anything else; a form the use case
//!   refuses is shown again (422) with each problem next to its field and
//!   the same key (the refused request claimed nothing);
//! - success is a `303 See Other` to the receipt, which shows the
//!   allocation read back from the ledger (`usecases::ledger::receipt`,
//!   logged as a read of the payment).

use actix_web::{HttpResponse, http::StatusCode, web};
use chrono::NaiveDate;
use maud::{Markup, html};

use super::{Menu, enter, href, nav};
use crate::{
    api::{
        caller::MunicipalUnit,
        idempotency::Reply,
        payments::{Payment, PaymentRequest},
    },
    app::AppState,
    domain::Money,
    error::FieldError,
    tenancy::Action,
    usecases::ledger::{
        payments::{self, NewPayment, PaymentMethod},
        receipt,
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

echo_form! {
    /// What the form holds (as typed, to show again; `key`: the hidden idempotency key).
    #[derive(Debug, Clone)]
    pub struct Entered {
        received_on,
        amount,
        method,
        reference,
        key = keyed::KEY_FIELD,
    }
}

impl Entered {
    /// An empty form dated `today`, with a fresh key.
    pub fn new(today: NaiveDate) -> Self {
        Entered {
            received_on: today.to_string(),
            amount: String::new(),
            method: "check".into(),
            reference: String::new(),
            key: keyed::new_key(),
        }
    }

    /// The API's request body, or the problems of each field.
    fn parse(&self) -> Result<PaymentRequest, Vec<FieldError>> {
        let mut faults = Vec::new();
        let received_on = NaiveDate::parse_from_str(self.received_on.trim(), "%Y-%m-%d")
            .map_err(|_| {
                faults.push(FieldError::new(
                    "received_on",
                    "date",
                    "enter the date received as YYYY-MM-DD",
                ))
            })
            .ok();
        let amount = Money::parse(self.amount.trim())
            .map_err(|e| {
                faults.push(FieldError::new(
                    "amount",
                    "amount",
                    format!("enter an amount like 1234.50 ({e})"),
                ))
            })
            .ok();
        let method = match self.method.as_str() {
            "check" => Some(PaymentMethod::Check),
            "ach" => Some(PaymentMethod::Ach),
            "card" => Some(PaymentMethod::Card),
            "cash" => Some(PaymentMethod::Cash),
            _ => {
                faults.push(FieldError::new(
                    "method",
                    "one_of",
                    "choose check, ACH, card or cash",
                ));
                None
            }
        };
        match (received_on, amount, method) {
            (Some(received_on), Some(amount), Some(method)) if faults.is_empty() => {
                Ok(PaymentRequest {
                    received_on,
                    amount,
                    method,
                    reference: self.reference.clone(),
                })
            }
            _ => Err(faults),
        }
    }
}

fn action(slug: &str, payor_id: &str) -> String {
    href(slug, &format!("/payors/{payor_id}/payments"))
}

/// The payment form (on the payor's page, and again when refused).
pub fn form(
    visit: &Visit,
    slug: &str,
    payor_id: &str,
    entered: &Entered,
    errors: &[FieldError],
) -> Markup {
    let methods = [
        ("check", "Check"),
        ("ach", "ACH transfer"),
        ("card", "Card"),
        ("cash", "Cash"),
    ];
    html! {
        form.stack.no-print #payment-form method="post" action=(action(slug, payor_id)) novalidate {
            (layout::csrf_field(visit))
            (keyed::key_field(&entered.key))
            (Field { kind: "date", required: true, hint: Some("The day the municipality received it (not after today)."),
                     ..Field::text("received_on", "Received on", &entered.received_on) }.render(errors))
            (Field { required: true, inputmode: Some("decimal"), hint: Some("Dollars and cents, e.g. 1234.50. It goes to the oldest period first: tax, then interest, then fees and penalties."),
                     ..Field::text("amount", "Amount", &entered.amount) }.render(errors))
            (layout::select("method", "Method", &entered.method, methods, errors))
            (Field { required: true, hint: Some("Check number, transaction id or receipt number."),
                     ..Field::text("reference", "Reference", &entered.reference) }.render(errors))
            div { button type="submit" { "Record the payment" } }
        }
    }
}

fn refused_page(
    visit: &Visit,
    menu: Menu,
    slug: &str,
    payor_id: &str,
    entered: &Entered,
    errors: &[FieldError],
) -> HttpResponse {
    let fields = ["received_on", "amount", "method", "reference"];
    let body = html! {
        (nav(slug, "/payors", menu))
        h1 { "Record a payment" }
        (layout::alert("The payment was not recorded.", errors, &fields))
        (form(visit, slug, payor_id, entered, errors))
        p { a href=(href(slug, &format!("/payors/{payor_id}"))) { "Back to the payor" } }
    };
    render(
        visit,
        StatusCode::UNPROCESSABLE_ENTITY,
        layout::page(visit, "Record a payment", body),
    )
}

/// `POST .../clerk/payors/{payor}/payments`.
pub async fn record(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor_id) = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let entered = Entered::of(&form);
    let parsed = entered.parse();
    let (s, p) = (slug.clone(), payor_id.clone());
    let post = KeyedPost {
        form: &form,
        target: action(&slug, &payor_id),
        shows_conflicts: false,
        unlocated: "a recorded payment without its location",
    };
    let outcome = post
        .run(
            &state,
            here,
            parsed,
            |ctx| ctx.require(Action::RecordPayments),
            move |MunicipalUnit { conn, ctx, .. }, body| {
                let recorded = payments::record(
                    conn,
                    &ctx,
                    &p,
                    NewPayment {
                        received_on: body.received_on,
                        amount: body.amount,
                        method: body.method,
                        reference: body.reference,
                    },
                    today,
                )?;
                let location = href(&s, &format!("/payors/{p}/payments/{}", recorded.row.id));
                Reply::created(location, &Payment::from(recorded))
            },
        )
        .await?;
    match outcome {
        Outcome::Done(res) => Ok(res),
        Outcome::Refused(refused) => Ok(refused_page(
            &visit,
            Menu::read(&state, &visit, &slug).await?,
            &slug,
            &payor_id,
            &Entered {
                key: refused.key,
                ..entered
            },
            &refused.errors,
        )),
    }
}

fn component_name(c: crate::domain::ledger::Component) -> String {
    c.as_str().replace('_', " ")
}

/// `GET .../clerk/payors/{payor}/payments/{payment}`: the receipt.
pub async fn receipt(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor_id, payment_id) = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let id = payor_id.clone();
    let (r, menu) = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            super::gate(&ctx)?;
            Ok((
                receipt::receipt(conn, &ctx, &id, &payment_id)?,
                Menu::of(&ctx),
            ))
        })
        .await?;
    let paid: Money = r.allocations.iter().map(|a| a.amount).sum();
    let body = html! {
        (nav(&slug, "/payors", menu))
        h1 { "Payment recorded" }
        dl.record #payment {
            dt { "Received on" } dd { (r.row.received_on) }
            dt { "Amount" } dd #payment-amount { (Money::from_cents(r.row.amount_cents)) }
            dt { "Method" } dd { (r.row.method) }
            dt { "Reference" } dd { (r.row.reference) }
            @if let Some(on) = r.reversed_on { dt { "Reversed on" } dd { (on) } }
        }
        @if !r.charges.is_empty() {
            table #charges {
                caption { "Charges posted because it settled tax" }
                thead { tr { th scope="col" { "Period" } th scope="col" { "Charge" } th.num scope="col" { "Amount" } } }
                tbody { @for (period, component, amount) in &r.charges {
                    tr { th scope="row" { (period) } td { (component_name(*component)) } td.num { (amount) } }
                } }
            }
        }
        table #allocation {
            caption { "Where it went (oldest period first; tax, then interest, then fees and penalties)" }
            thead { tr { th scope="col" { "Period" } th scope="col" { "Component" } th.num scope="col" { "Applied" } } }
            tbody { @for a in &r.allocations {
                tr {
                    th scope="row" { (a.period) }
                    td { (component_name(a.component)) @if a.from_credit { " (from credit, applied after)" } }
                    td.num { (a.amount) }
                }
            } }
            tfoot {
                tr.total { th scope="row" colspan="2" { "Applied" } td.num { (paid) } }
                tr { th scope="row" colspan="2" { "Left as credit" } td.num #payment-credit { (r.credit) } }
            }
        }
        p {
            a href=(href(&slug, &format!("/payors/{payor_id}/statement"))) { "The statement of account" }
            " · " a href=(href(&slug, &format!("/payors/{payor_id}"))) { "Back to the payor" }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Payment recorded", body),
    ))
}

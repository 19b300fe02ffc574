//! `GET /app/m/{municipality}/clerk/remittances/submit?period=2026-Q1` (what
//! the quarter's remittance comes to now, with the button to submit it) and
//! `POST /app/m/{municipality}/clerk/remittances` (submit it).
//!
//! Contract: the clerk-treasurer only (`Action::SubmitRemittances`, a
//! person, as the API: staff and related roles 403, anyone else 404),
//! checked first. The preview is the API's `GET .../remittances/preview`
//! (`usecases::remittances::preview`, shaped by `api::remittances::RemittancePreview`;
//! nothing is written); a municipality administering its tax elsewhere has
//! nothing to preview (the use case's 409 `entered_totals`), and its form
//! takes the totals instead. Submitting is the API's `POST .../remittances`:
//! the same use case (`usecases::remittances::submit`) and idempotency (a
//! hidden key, as the payment form: a second submit answers the first
//! version). After the CSRF check; success is a `303` to the quarter's year
//! on the remittances page; a refusal is this page again (422) with each
//! problem next to its field (a rule of the submission, such as
//! `not_a_zone_member`, above the form).

use actix_web::{HttpRequest, HttpResponse, web};
use maud::html;

use super::{Menu, enter, href, nav, query_value};
use crate::{
    api::{
        caller::MunicipalUnit,
        idempotency::Reply,
        remittances::{Remittance, RemittancePreview, RemittanceRequest},
    },
    app::AppState,
    domain::Money,
    error::{ApiError, FieldError},
    tenancy::Action,
    usecases::remittances::{self, Submission},
    web::{
        FormData, Posted, WebError,
        echo::echo_form,
        keyed::{self, KeyedPost, Outcome},
        layout::{self, Field},
        render,
        session::Visit,
    },
};

echo_form! {
    /// What the form held.
    #[derive(Debug, Clone, Default)]
    struct Entered {
        gross_receipts,
        tax_collected,
        payor_count,
        key = keyed::KEY_FIELD,
    }
}

// `period` is a hidden field: its problems are listed in the alert.
const FIELDS: [&str; 3] = ["gross_receipts", "tax_collected", "payor_count"];

/// `GET .../clerk/remittances/submit?period=`.
pub async fn preview(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let period = query_value(req.query_string(), "period").unwrap_or_default();
    let entered = Entered {
        key: keyed::new_key(),
        ..Entered::default()
    };
    show(
        &state,
        &visit,
        path.into_inner(),
        period,
        entered,
        Vec::new(),
    )
    .await
}

async fn show(
    state: &AppState,
    visit: &Visit,
    slug: String,
    period: String,
    entered: Entered,
    mut errors: Vec<FieldError>,
) -> Result<HttpResponse, WebError> {
    let here = enter(visit, slug.clone())?;
    let today = state.clock.today();
    let asked = period.clone();
    let (computed, menu) = here
        .read_for(
            state,
            Action::SubmitRemittances,
            move |MunicipalUnit { conn, ctx, .. }| {
                let computed = match remittances::preview(conn, &ctx, Ok(asked), today) {
                    Ok(c) => Ok(RemittancePreview::from(c)),
                    Err(ApiError::RuleConflict(e)) => Err(e),
                    Err(ApiError::Validation(e)) => {
                        Err(e.into_iter().next().unwrap_or_else(|| {
                            FieldError::new("period", "invalid", "a quarter such as 2026-Q1")
                        }))
                    }
                    Err(ApiError::InvalidParameter { name, message }) => {
                        Err(FieldError::new(name, "invalid", message))
                    }
                    Err(other) => return Err(other),
                };
                Ok((computed, Menu::of(&ctx)))
            },
        )
        .await?;
    // Entered totals: the municipality's tax is administered elsewhere.
    let entering = matches!(&computed, Err(e) if e.rule == "entered_totals");
    if let Err(e) = &computed
        && !entering
        && !errors
            .iter()
            .any(|x| x.field == e.field && x.rule == e.rule)
    {
        errors.push(e.clone());
    }
    let status = crate::web::form_status(&errors);
    let year = period.get(..4).unwrap_or_default().to_owned();
    let body = html! {
        (nav(&slug, "/remittances", menu))
        h1 { "Remittance of " (period) " to the zone" }
        @if !errors.is_empty() {
            (layout::alert("The remittance was not submitted.", &errors, &FIELDS))
        }
        @if let Ok(p) = &computed {
            dl.record #remittance-preview {
                dt { "Zone" } dd { (p.zone) }
                dt { "Taxable receipts" } dd #preview-gross { (p.gross_receipts) }
                dt { "Tax collected" } dd #preview-tax { (p.tax_collected) }
                dt { "Payors who paid" } dd { (p.payor_count) }
                dt { "Commission's share" } dd #preview-commission { (p.commission) " (" (p.commission_share) ")" }
                dt { "Retained" } dd #preview-retained { (p.retained) }
                dt { "Moved to the commission payable now" } dd #preview-difference { (p.commission_difference) }
                @if let Some(v) = p.latest_version { dt { "Version on file" } dd { (v) } }
            }
            table {
                caption { "How the split was computed" }
                tbody { @for l in &p.explanation {
                    tr { th scope="row" { (l.code.replace('_', " ")) } td.num { (l.amount) } td { (l.explanation) br; span.cite { (l.citation) } } }
                } }
            }
            @if p.unchanged {
                p.note #unchanged { "These are the figures of the version on file: submitting again changes nothing." }
            }
        }
        @if computed.is_ok() || entering {
            form.stack method="post" action=(href(&slug, "/remittances")) novalidate {
                (layout::csrf_field(visit))
                (keyed::key_field(&entered.key))
                input type="hidden" name="period" value=(period);
                @if entering {
                    p { "The municipality's tax is administered elsewhere: enter the quarter's totals." }
                    (Field { required: true, inputmode: Some("decimal"), ..Field::text("gross_receipts", "Taxable gross receipts", &entered.gross_receipts) }.render(&errors))
                    (Field { required: true, inputmode: Some("decimal"), ..Field::text("tax_collected", "Room tax collected", &entered.tax_collected) }.render(&errors))
                    (Field { required: true, inputmode: Some("numeric"), ..Field::text("payor_count", "Payors who paid", &entered.payor_count) }.render(&errors))
                }
                div { button type="submit" { "Submit the remittance of " (period) } }
            }
        }
        p { a href=(href(&slug, &format!("/remittances?year={year}"))) { "Back to the remittances" } }
    };
    Ok(render(
        visit,
        status,
        layout::page(visit, "Submit a remittance", body),
    ))
}

fn parse(form: &FormData) -> Result<RemittanceRequest, Vec<FieldError>> {
    let mut faults = Vec::new();
    let mut money = |field: &str| match form.get(field) {
        None => None,
        Some(raw) => Money::parse(raw)
            .map_err(|e| {
                faults.push(FieldError::new(
                    field,
                    "amount",
                    format!("enter an amount like 1234.50 ({e})"),
                ))
            })
            .ok(),
    };
    let gross_receipts = money("gross_receipts");
    let tax_collected = money("tax_collected");
    let payor_count = form.get("payor_count").and_then(|raw| {
        raw.parse::<i64>()
            .map_err(|_| faults.push(FieldError::new("payor_count", "integer", "a whole number")))
            .ok()
    });
    if !faults.is_empty() {
        return Err(faults);
    }
    Ok(RemittanceRequest {
        period: form.shown("period").trim().to_owned(),
        gross_receipts,
        tax_collected,
        payor_count,
    })
}

/// `POST .../clerk/remittances`.
pub async fn submit(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let today = state.clock.today();
    let s = slug.clone();
    let post = KeyedPost {
        form: &form,
        target: href(&slug, "/remittances"),
        shows_conflicts: true,
        unlocated: "a remittance without its location",
    };
    let outcome = post
        .run(
            &state,
            here,
            parse(&form),
            |ctx| ctx.require(Action::SubmitRemittances),
            move |MunicipalUnit { conn, ctx, .. }, body| {
                let recorded = remittances::submit(
                    conn,
                    &ctx,
                    &Submission {
                        period: body.period,
                        gross_receipts: body.gross_receipts,
                        tax_collected: body.tax_collected,
                        payor_count: body.payor_count,
                    },
                    today,
                )?;
                let period = recorded.row.period.clone();
                let location = href(
                    &s,
                    &format!(
                        "/remittances?year={}#remittance-{period}",
                        period.get(..4).unwrap_or_default()
                    ),
                );
                let out = Remittance::of(&s, &recorded);
                if recorded.created {
                    Reply::created(location, &out)
                } else {
                    Reply::ok(location, &out)
                }
            },
        )
        .await?;
    let refused = match outcome {
        Outcome::Done(res) => return Ok(res),
        Outcome::Refused(refused) => refused,
    };
    let entered = Entered {
        key: refused.key,
        ..Entered::of(&form)
    };
    let errors = refused.errors;
    let period = form.shown("period").trim().to_owned();
    show(&state, &visit, slug, period, entered, errors).await
}

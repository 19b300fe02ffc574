//! `POST /app/m/{m}/payors/{payor}/returns/{period}/zero`: a zero return in
//! one click (a button on the obligation row and on the return's form).
//!
//! Contract: files through the API's filing use case
//! (`usecases::returns::filing::file`) the body `gross_receipts` 0.00, no
//! exemptions, signed by the signed-in person (their sign-in email, title
//! "Operator, filed online") and attested by the button itself, whose label
//! says so; behind the button's idempotency key like every filing form; `303`
//! to the return as filed. A refusal (a period not ended, one already on
//! file) is the API's problem on the error page.

use actix_web::{HttpRequest, HttpResponse, web};
use maud::{Markup, html};
use serde_json::json;

use super::{
    file::{KeyedFiling, to_filed},
    new_key, payor_path, period_of,
};
use crate::{
    api::caller::MunicipalUnit,
    app::AppState,
    domain::{
        Money, Period,
        idempotency::canonical_json,
        returns::{ReturnFiling, Signer},
    },
    tenancy::Subject,
    usecases::returns::filing,
    web::{Posted, WebError, keyed::KEY_FIELD, layout, session::Visit},
};

/// The one-click button (its own small form) for `period`.
pub fn button(visit: &Visit, slug: &str, payor: &str, period: &Period) -> Markup {
    html! {
        form.inline method="post" action=(format!("{}/returns/{period}/zero", payor_path(slug, payor))) {
            (layout::csrf_field(visit))
            (crate::web::keyed::key_field(&new_key()))
            button type="submit" aria-label=(format!("File a zero return for {period}: no receipts; I attest it is true and complete")) {
                "File a zero return"
            }
        }
    }
}

/// `POST .../returns/{period}/zero`.
pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor, period) = path.into_inner();
    let period = period_of(&period)?;
    let today = state.clock.today();
    let fingerprint = canonical_json(&json!({"period": period.to_string(), "zero": true}));
    let p = payor.clone();
    let filing = KeyedFiling {
        visit: &visit,
        target: req.path(),
        key: form.get(KEY_FIELD),
        slug: &slug,
        payor: &payor,
    };
    let id = filing
        .run(
            &state,
            Some(fingerprint),
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                let name = match &ctx.caller.subject {
                    Subject::User { email, .. } => email.clone(),
                    Subject::Client { id, .. } => id.clone(),
                };
                let body = ReturnFiling {
                    period,
                    gross_receipts: Money::from_cents(0),
                    exemptions: Vec::new(),
                    establishments: None,
                    nights_sold: None,
                    quarters: None,
                    signer: Signer {
                        name,
                        title: "Operator, filed online".into(),
                    },
                    attested: true,
                    received_on: None,
                };
                filing::file(conn, &ctx, &municipality.slug, &p, body, today)
            },
        )
        .await?;
    Ok(to_filed(&slug, &payor, &id))
}

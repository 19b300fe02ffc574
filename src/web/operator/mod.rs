//! The operator's pages (issue 11 item 3): file a return with the tax
//! computed as one types, a zero return in one click, amend, attach the
//! documents a return needs, ask for more time to file, and the statement
//! of account with its CSV and PDF, for the operator's own payors.
//!
//! Contract:
//! - every page enters through `api::caller::InMunicipality` with the web
//!   session as the caller, and calls the same use case as the API's
//!   endpoint: filing `usecases::returns::filing::file` (and `preview`, which
//!   assesses through the same path without storing), amending
//!   `filing::amend_return`, reading `reading::versions` (each version shown
//!   is written to the access log), the statement
//!   `usecases::ledger::statement::statement` (logged as `payor_account`),
//!   the notices `usecases::notices` (their PDFs as sent), the statement's
//!   PDF `usecases::ledger::statement::document` (rendered by `render`, as
//!   the notices are), a return's attachments
//!   `usecases::returns::attachments` ([`attachments`]), the payor's
//!   extension requests `usecases::returns::extensions` ([`extensions`]);
//!   no rule is written here: the form is turned into the API's own
//!   [`ReturnFiling`] body by the API's JSON parser, so a field is refused
//!   exactly as `POST .../returns` refuses it, and its problem appears next
//!   to the field ([`form_field`] maps the API's field names to the form's);
//! - a payor the caller may not file for or read is the 404 page (the use
//!   cases' check), nothing of it is read before;
//! - filing and amending carry a generated `idempotency_key` in a hidden
//!   field and go through `api::idempotency` as the API's `Idempotency-Key`
//!   does: a double submit of one rendered form files once and lands on the
//!   same return;
//! - every POST checks its CSRF token first ([`crate::web::Posted`], the
//!   upload's `web::multipart::Multipart::checked`) and
//!   answers `303 See Other` on success; every page works without
//!   JavaScript (the live preview is htmx on top of a "Preview" button).

pub mod account;
pub mod amend;
pub mod attachments;
pub mod extensions;
pub mod file;
pub mod filed;
pub mod notices;
pub mod zero;

use actix_web::web;
use maud::{Markup, html};
use serde_json::{Map, Value, json};

use super::{FormData, WebError, session::Visit};
use crate::{
    api::extract::parse_json,
    domain::{Period, returns::Assessment, returns::ReturnFiling},
    error::{ApiError, FieldError},
};

/// The operator's routes (inside the `/app` scope).
pub fn routes(cfg: &mut web::ServiceConfig) {
    let base = "/m/{municipality}/payors/{payor}";
    cfg.route(
        &format!("{base}/returns/{{period}}/file"),
        web::get().to(file::form),
    )
    .route(
        &format!("{base}/returns/{{period}}/file"),
        web::post().to(file::submit),
    )
    .route(
        &format!("{base}/returns/{{period}}/preview"),
        web::post().to(file::preview),
    )
    .route(
        &format!("{base}/returns/{{period}}/zero"),
        web::post().to(zero::submit),
    )
    .route(
        &format!("{base}/filed/{{return_id}}"),
        web::get().to(filed::show),
    )
    .route(
        &format!("{base}/filed/{{return_id}}/amend"),
        web::post().to(amend::submit),
    )
    .service(
        web::resource(format!("{base}/filed/{{return_id}}/attachments"))
            .app_data(web::PayloadConfig::new(crate::web::multipart::MAX_BODY))
            .route(web::post().to(attachments::upload)),
    )
    .route(
        &format!("{base}/filed/{{return_id}}/attachments/{{attachment}}"),
        web::get().to(attachments::download),
    )
    .route(
        &format!("{base}/extensions"),
        web::get().to(extensions::list),
    )
    .route(
        &format!("{base}/extensions"),
        web::post().to(extensions::request),
    )
    .route(&format!("{base}/account"), web::get().to(account::page))
    .route(&format!("{base}/account.csv"), web::get().to(account::csv))
    .route(&format!("{base}/account.pdf"), web::get().to(account::pdf))
    .route(&format!("{base}/notices"), web::get().to(notices::list))
    .route(
        &format!("{base}/notices/{{notice}}/document"),
        web::get().to(notices::document),
    );
}

/// What an operator can do from an obligation row of its home: see the
/// return on file, or file it (and a zero return in one click) once its
/// period has ended; and ask for more time where `askable` (the periods
/// `usecases::returns::extensions::askable` offers) has its period.
pub fn row_actions(
    visit: &Visit,
    slug: &str,
    payor: &str,
    o: &crate::domain::obligations::Obligation,
    today: chrono::NaiveDate,
    askable: &[Period],
) -> Markup {
    let base = payor_path(slug, payor);
    let ask = askable.contains(&o.period).then(|| {
        format!(
            "{}?period={}",
            extensions::extensions_path(slug, payor),
            o.period
        )
    });
    html! {
        @if let Some(id) = &o.return_id {
            a href=(format!("{base}/filed/{id}")) { "See the return" span.visually-hidden { " for " (o.period) } }
        } @else if o.period.last_day() <= today {
            a href=(file::file_path(slug, payor, &o.period)) { "File" span.visually-hidden { " the return for " (o.period) } }
            @if o.period.is_quarter() { " " (zero::button(visit, slug, payor, &o.period)) }
        } @else if ask.is_none() {
            "—"
        }
        @if let Some(ask) = &ask {
            " " a.ask-extension href=(ask) { "Ask for more time" span.visually-hidden { " to file " (o.period) } }
        }
    }
}

pub(crate) use super::caller_of;

/// The portal path of a payor's pages.
pub fn payor_path(slug: &str, payor: &str) -> String {
    format!("/app/m/{slug}/payors/{payor}")
}

/// The period in a path (404 when it is none).
pub(crate) fn period_of(raw: &str) -> Result<Period, WebError> {
    Period::parse(raw).map_err(|_| WebError::Api(ApiError::NotFound("return")))
}

pub(crate) use super::keyed::new_key;

/// The form's name for an API field (`signer.name` → `signer_name`,
/// `exemptions[i].…` → the line of the i-th exemption sent).
pub fn form_field(api: &str, sent_codes: &[String]) -> String {
    if let Some(rest) = api.strip_prefix("exemptions[")
        && let Some((i, _)) = rest.split_once(']')
        && let Some(code) = i.parse::<usize>().ok().and_then(|i| sent_codes.get(i))
    {
        return format!("exempt_{code}");
    }
    api.replace('.', "_")
}

/// The return's fields as typed, ready to show again and to send.
pub struct ReturnForm {
    /// Every field's value by form name.
    pub values: Vec<(String, String)>,
    /// The exemption codes the policy offers, with their descriptions.
    pub codes: Vec<(String, String)>,
    /// The problems, named by form field.
    pub errors: Vec<FieldError>,
}

impl ReturnForm {
    /// An empty form (or prefilled with `values`).
    pub fn new(codes: Vec<(String, String)>, values: Vec<(String, String)>) -> Self {
        ReturnForm {
            values,
            codes,
            errors: Vec::new(),
        }
    }

    /// The form as posted.
    pub fn posted(codes: Vec<(String, String)>, form: &FormData) -> Self {
        let mut names = vec![
            "gross_receipts".to_owned(),
            "nights_sold".to_owned(),
            "signer_name".to_owned(),
            "signer_title".to_owned(),
            "attested".to_owned(),
        ];
        names.extend(codes.iter().map(|(c, _)| format!("exempt_{c}")));
        let values = names
            .into_iter()
            .map(|n| {
                let v = form.shown(&n).to_owned();
                (n, v)
            })
            .collect();
        ReturnForm::new(codes, values)
    }

    /// The value of `name`.
    pub fn value(&self, name: &str) -> &str {
        self.values
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }

    fn get(&self, name: &str) -> Option<&str> {
        Some(self.value(name).trim()).filter(|v| !v.is_empty())
    }

    /// The API's filing body for `period`, parsed by the API's parser. For a
    /// preview, a missing signer and attestation are filled in (the figures
    /// do not depend on them; filing needs them).
    pub fn filing(&mut self, period: &Period, preview: bool) -> Result<ReturnFiling, ApiError> {
        let mut body = Map::new();
        body.insert("period".into(), json!(period.to_string()));
        match self.get("gross_receipts") {
            Some(g) => body.insert("gross_receipts".into(), json!(g)),
            None => {
                return Err(ApiError::Validation(vec![FieldError::new(
                    "gross_receipts",
                    "required",
                    "enter the gross receipts (0.00 for a zero return)",
                )]));
            }
        };
        let exemptions: Vec<Value> = self
            .codes
            .iter()
            .filter_map(|(c, _)| {
                self.get(&format!("exempt_{c}"))
                    .map(|a| json!({"code": c, "amount": a}))
            })
            .collect();
        body.insert("exemptions".into(), Value::Array(exemptions));
        if let Some(n) = self.get("nights_sold") {
            let n: i64 = n.parse().map_err(|_| {
                ApiError::Validation(vec![FieldError::new(
                    "nights_sold",
                    "integer",
                    "a whole number of room nights",
                )])
            })?;
            body.insert("nights_sold".into(), json!(n));
        }
        let placeholder = |v: Option<&str>| v.map(str::to_owned).or(preview.then(|| "—".into()));
        body.insert(
            "signer".into(),
            json!({
                "name": placeholder(self.get("signer_name")).unwrap_or_default(),
                "title": placeholder(self.get("signer_title")).unwrap_or_default(),
            }),
        );
        body.insert(
            "attested".into(),
            json!(preview || self.get("attested") == Some("yes")),
        );
        let bytes = serde_json::to_vec(&Value::Object(body)).map_err(ApiError::internal)?;
        parse_json::<ReturnFiling>(&bytes)
    }

    /// Keep the problems of `err` that a form can show (naming its fields);
    /// any other error is given back.
    pub fn absorb(&mut self, err: ApiError) -> Result<(), WebError> {
        match err {
            e @ (ApiError::Validation(_)
            | ApiError::InvalidFieldType { .. }
            | ApiError::UnknownField { .. }
            | ApiError::RuleConflict(_)
            | ApiError::InvalidParameter { .. }) => {
                let sent: Vec<String> = self
                    .codes
                    .iter()
                    .filter(|(c, _)| self.get(&format!("exempt_{c}")).is_some())
                    .map(|(c, _)| c.clone())
                    .collect();
                self.errors = e
                    .to_problem()
                    .errors
                    .into_iter()
                    .map(|f| FieldError {
                        field: form_field(&f.field, &sent),
                        ..f
                    })
                    .collect();
                if self.errors.is_empty() {
                    self.errors
                        .push(FieldError::new("form", e.to_problem().code, e.to_string()));
                }
                Ok(())
            }
            other => Err(other.into()),
        }
    }

    /// The names of the form's fields (for errors that name none of them).
    pub fn names(&self) -> Vec<String> {
        self.values.iter().map(|(n, _)| n.clone()).collect()
    }
}

/// The figures of an assessment: the amounts with their explanation and
/// citation, then the dates.
pub fn assessment_table(caption: &str, a: &Assessment) -> Markup {
    html! {
        p.total #amount-due { "Amount due: $" (a.amount_due) " (tax $" (a.tax)
            @if a.late_filing_fee.cents() > 0 { ", late filing fee $" (a.late_filing_fee) }
            @if a.interest.cents() > 0 { ", interest $" (a.interest) }
            @if a.late_payment_forfeiture.cents() > 0 { ", late-payment forfeiture $" (a.late_payment_forfeiture) }
            "). Due " (a.due_date) ", to be filed by " (a.filing_due_date)
            @if a.filed_late { "; filed late on " (a.filed_on) } "." }
        table {
            caption { (caption) }
            thead { tr { th scope="col" { "Amount" } th scope="col" class="num" { "Dollars" } th scope="col" { "How and why" } } }
            tbody { @for line in &a.lines {
                tr .total[line.code == "amount_due" || line.code == "total_due"] {
                    th scope="row" { (line.code.replace('_', " ")) }
                    td.num { (line.amount) }
                    td { (line.explanation) br; span.cite { (line.citation) } }
                }
            } }
        }
    }
}

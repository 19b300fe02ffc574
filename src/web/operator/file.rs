//! `GET|POST /app/m/{m}/payors/{payor}/returns/{period}/file` and
//! `POST .../preview`: the return's form, its figures as one types, filing.
//!
//! Contract: the form has the fields of the API's filing body (gross
//! receipts, one exempt line per exemption code of the period's policy,
//! nights sold, signer, attestation). `POST .../preview` (htmx, as one types;
//! a fragment and the errors out of band) and the "Preview" button (no
//! JavaScript; the whole page) show what `usecases::returns::filing::preview`
//! assesses: the filing's own computation, storing nothing. "File the
//! return" files through `filing::file` behind the form's idempotency key
//! (`api::idempotency`, as `POST .../returns` with `Idempotency-Key`), then
//! `303` to the return as filed; a refused return is the form again (422)
//! with each problem next to its field.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, http::header, web};
use maud::{Markup, html};

use super::{ReturnForm, assessment_table, caller_of, new_key, payor_path, period_of};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        idempotency::{Idempotency, Reply, fingerprint},
        payors::precondition::etag,
        returns::{TaxReturn, return_location},
    },
    app::AppState,
    domain::{Period, returns::Assessment},
    error::ApiError,
    usecases::returns::{ReturnRecord, filing},
    web::{
        Posted, WebError, from_htmx, keyed::KEY_FIELD, layout, render, see_other, session::Visit,
    },
};

/// The path of the form (and of its POST).
pub fn file_path(slug: &str, payor: &str, period: &Period) -> String {
    format!("{}/returns/{period}/file", payor_path(slug, payor))
}

/// The form's fields.
fn fields(visit: &Visit, slug: &str, payor: &str, period: &Period, f: &ReturnForm) -> Markup {
    let base = format!("{}/returns/{period}", payor_path(slug, payor));
    let money = |name: String, label: String, hint: Option<&'static str>, required: bool| {
        (name, label, hint, required)
    };
    let mut lines = vec![money(
        "gross_receipts".into(),
        "Gross receipts from rooms and lodging".into(),
        Some("Dollars and cents, e.g. 12345.67; 0.00 for a zero return."),
        true,
    )];
    for (code, description) in &f.codes {
        lines.push(money(
            format!("exempt_{code}"),
            format!("Exempt: {description}"),
            Some("Leave empty for none."),
            false,
        ));
    }
    html! {
        form.stack #return-form method="post" action=(format!("{base}/file")) novalidate
            hx-post=(format!("{base}/preview")) hx-trigger="input changed delay:300ms"
            hx-target="#preview" hx-swap="innerHTML" {
            (layout::csrf_field(visit))
            (crate::web::keyed::key_field(&new_key()))
            @for (name, label, hint, required) in &lines {
                (layout::Field { hint: *hint, inputmode: Some("decimal"), required: *required,
                    ..layout::Field::text(name, label, f.value(name)) }.render(&f.errors))
            }
            (layout::Field { inputmode: Some("numeric"), hint: Some("Optional."),
                ..layout::Field::text("nights_sold", "Room nights sold", f.value("nights_sold")) }.render(&f.errors))
            (layout::Field { required: true, autocomplete: Some("name"),
                ..layout::Field::text("signer_name", "Signed by (full name)", f.value("signer_name")) }.render(&f.errors))
            (layout::Field { required: true, hint: Some("Owner, manager or authorized agent."),
                ..layout::Field::text("signer_title", "Title or capacity", f.value("signer_title")) }.render(&f.errors))
            (attestation(f))
            div.actions {
                button type="submit" name="action" value="preview" { "Preview" }
                " "
                button type="submit" name="action" value="file" { "File the return" }
                " " span.htmx-indicator { "Computing…" }
            }
        }
    }
}

/// The attestation checkbox with its error.
pub(crate) fn attestation(f: &ReturnForm) -> Markup {
    let error = layout::error_of(&f.errors, "attested");
    html! {
        div.field.check {
            span.error id=(layout::error_id("attested")) { (error.clone().unwrap_or_default()) }
            input #attested type="checkbox" name="attested" value="yes"
                checked[f.value("attested") == "yes"]
                aria-invalid=[error.is_some().then_some("true")]
                aria-describedby=(layout::error_id("attested"));
            label for="attested" { "I attest that this return is true and complete, and that I am the person required to file it or an authorized agent." }
        }
    }
}

/// What the return would owe, or why it cannot be computed yet.
fn figures(f: &ReturnForm, assessed: Option<&Assessment>) -> Markup {
    let names = f.names();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    html! {
        @if let Some(a) = assessed {
            h2 { "What this return owes if filed today" }
            (assessment_table("Every amount, with its ordinance paragraph", a))
        } @else if !f.errors.is_empty() {
            (layout::alert("The return needs other values.", &f.errors, &names))
        } @else {
            p { "Enter the gross receipts: the tax appears here as you type." }
        }
    }
}

fn page(
    visit: &Visit,
    slug: &str,
    payor: &str,
    period: &Period,
    f: &ReturnForm,
    assessed: Option<&Assessment>,
) -> Markup {
    let title = format!("File the return for {period}");
    layout::page(
        visit,
        &title,
        html! {
            p { a href=(format!("/app/m/{slug}")) { "← What is due" } }
            h1 { (title) }
            p { "Payor " code { (payor) } ". The figures are computed by the same rules as the filing itself; nothing is stored until you file." }
            (fields(visit, slug, payor, period, f))
            section #preview aria-live="polite" { (figures(f, assessed)) }
        },
    )
}

/// The exemption codes of the period's policy (authorised as filing is).
async fn codes(
    state: &AppState,
    visit: &Visit,
    slug: &str,
    payor: &str,
    period: Period,
) -> Result<Vec<(String, String)>, WebError> {
    let payor = payor.to_owned();
    Ok(InMunicipality::new(caller_of(visit)?, slug.to_owned())
        .read(state, move |MunicipalUnit { conn, ctx, .. }| {
            filing::exemption_codes(conn, &ctx, &payor, &period)
        })
        .await?)
}

/// `GET .../returns/{period}/file`.
pub async fn form(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor, period) = path.into_inner();
    let period = period_of(&period)?;
    let codes = codes(&state, &visit, &slug, &payor, period).await?;
    let f = ReturnForm::new(codes, Vec::new());
    Ok(render(
        &visit,
        StatusCode::OK,
        page(&visit, &slug, &payor, &period, &f, None),
    ))
}

/// The assessment of the form as typed (the form keeps the problems).
async fn assess(
    state: &AppState,
    visit: &Visit,
    slug: &str,
    payor: &str,
    period: &Period,
    f: &mut ReturnForm,
) -> Result<Option<Assessment>, WebError> {
    let body = match f.filing(period, true) {
        Ok(b) => b,
        Err(e) => {
            f.absorb(e)?;
            return Ok(None);
        }
    };
    let today = state.clock.today();
    let (s, p) = (slug.to_owned(), payor.to_owned());
    let outcome = InMunicipality::new(caller_of(visit)?, slug.to_owned())
        .read(state, move |MunicipalUnit { conn, ctx, .. }| {
            filing::preview(conn, &ctx, &s, &p, body, today)
        })
        .await;
    match outcome {
        Ok(a) => Ok(Some(a)),
        Err(e) => {
            f.absorb(e)?;
            Ok(None)
        }
    }
}

/// The preview as a fragment: the figures, and each field's error out of band.
fn fragment(f: &ReturnForm, assessed: Option<&Assessment>) -> Markup {
    html! {
        (figures(f, assessed))
        @for name in f.names() {
            span.error id=(layout::error_id(&name)) hx-swap-oob="true" {
                (layout::error_of(&f.errors, &name).unwrap_or_default())
            }
        }
    }
}

/// `POST .../returns/{period}/preview` (htmx as one types, or a plain post).
pub async fn preview(
    req: HttpRequest,
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor, period) = path.into_inner();
    let period = period_of(&period)?;
    let codes = codes(&state, &visit, &slug, &payor, period).await?;
    let mut f = ReturnForm::posted(codes, &form);
    let assessed = assess(&state, &visit, &slug, &payor, &period, &mut f).await?;
    let markup = if from_htmx(&req) {
        fragment(&f, assessed.as_ref())
    } else {
        page(&visit, &slug, &payor, &period, &f, assessed.as_ref())
    };
    Ok(render(&visit, StatusCode::OK, markup))
}

/// `POST .../returns/{period}/file`: "Preview" (the page with the figures) or "File the return".
pub async fn submit(
    req: HttpRequest,
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor, period) = path.into_inner();
    let period = period_of(&period)?;
    let codes = codes(&state, &visit, &slug, &payor, period).await?;
    let mut f = ReturnForm::posted(codes, &form);
    if form.get("action") != Some("file") {
        let assessed = assess(&state, &visit, &slug, &payor, &period, &mut f).await?;
        return Ok(render(
            &visit,
            StatusCode::OK,
            page(&visit, &slug, &payor, &period, &f, assessed.as_ref()),
        ));
    }
    let filed = match f.filing(&period, false) {
        Ok(body) => {
            file(
                &state,
                &visit,
                &req,
                &slug,
                &payor,
                form.get(KEY_FIELD),
                body,
            )
            .await
        }
        Err(e) => Err(e),
    };
    match filed {
        Ok(return_id) => Ok(to_filed(&slug, &payor, &return_id)),
        Err(e) => {
            f.absorb(e)?;
            Ok(render(
                &visit,
                StatusCode::UNPROCESSABLE_ENTITY,
                page(&visit, &slug, &payor, &period, &f, None),
            ))
        }
    }
}

/// File `body` through the API's filing use case behind the form's key; the
/// new return's id (a retry of the same form: the first one's).
async fn file(
    state: &AppState,
    visit: &Visit,
    req: &HttpRequest,
    slug: &str,
    payor: &str,
    key: Option<&str>,
    body: crate::domain::returns::ReturnFiling,
) -> Result<String, ApiError> {
    let today = state.clock.today();
    let fingerprint = fingerprint(&body);
    let p = payor.to_owned();
    let filing = KeyedFiling {
        visit,
        target: req.path(),
        key,
        slug,
        payor,
    };
    filing
        .run(
            state,
            fingerprint,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| filing::file(conn, &ctx, &municipality.slug, &p, body, today),
        )
        .await
}

/// A return filed or amended from a form behind its idempotency key, as the
/// API's `POST .../returns` and `POST .../amendments` with an
/// `Idempotency-Key`: the payor's filer check first (`return_filer`), then
/// the work in the request's unit, answered `201` at the return with its
/// `ETag` (what a retry of the same form gets again).
pub(crate) struct KeyedFiling<'a> {
    /// The visit (its caller enters the municipality).
    pub visit: &'a Visit,
    /// The path posted to (the key's scope).
    pub target: &'a str,
    /// The form's key (`None`: no key, as without the header).
    pub key: Option<&'a str>,
    /// The municipality.
    pub slug: &'a str,
    /// The payor filing.
    pub payor: &'a str,
}

impl KeyedFiling<'_> {
    /// Run `work` (fingerprinted as `fingerprint`); the return's id.
    pub async fn run<W>(
        self,
        state: &AppState,
        fingerprint: Option<Vec<u8>>,
        work: W,
    ) -> Result<String, ApiError>
    where
        W: for<'c> FnOnce(MunicipalUnit<'c>) -> Result<ReturnRecord, ApiError> + Send + 'static,
    {
        let caller =
            caller_of(self.visit).map_err(|_| ApiError::Unauthorized("sign in first".into()))?;
        let here = InMunicipality::new(caller, self.slug.to_owned());
        let (s, p) = (self.slug.to_owned(), self.payor.to_owned());
        let check = p.clone();
        let res = Idempotency::from_form(self.key, self.target)
            .write(
                state,
                here,
                fingerprint,
                move |ctx| ctx.return_filer(&check),
                move |unit| {
                    let record = work(unit)?;
                    let tax_return = TaxReturn::latest(&record);
                    Ok(
                        Reply::created(return_location(&s, &p, &tax_return.id), &tax_return)?
                            .with_etag(etag(tax_return.latest_version)),
                    )
                },
            )
            .await?;
        // The return id at the end of the `Location` the filing answered.
        res.headers()
            .get(header::LOCATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|l| l.rsplit('/').next())
            .map(str::to_owned)
            .ok_or_else(|| ApiError::internal("a filing answered without its Location"))
    }
}

/// `303 See Other` to the payor's return `id` as filed.
pub(crate) fn to_filed(slug: &str, payor: &str, id: &str) -> HttpResponse {
    see_other(&format!("{}/filed/{id}", payor_path(slug, payor)))
}

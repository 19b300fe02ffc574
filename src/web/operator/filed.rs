//! `GET /app/m/{m}/payors/{payor}/filed/{return_id}`: a return as filed,
//! every version, and the form to amend it.
//!
//! Contract: read through `usecases::returns::reading::versions` (as the
//! API's `GET .../versions`: who may read the payor's returns, 404 for
//! anyone else; each version shown written to the access log). Shows the
//! figures of the version in force with the late filing fee and interest
//! when the return was late, what an attachment still lacks, the documents
//! attached with the form to attach one (`attachments`). The amend
//! form is prefilled with the version in force and carries its number (the
//! API's `If-Match`) and an idempotency key.

use actix_web::{HttpResponse, http::StatusCode, web};
use maud::{Markup, html};

use super::{
    ReturnForm, assessment_table,
    attachments::{self, Uploads},
    caller_of,
    file::attestation,
    new_key, payor_path,
};
use crate::{
    api::caller::{InMunicipality, MunicipalUnit},
    app::AppState,
    db::returns::rows::AttachmentMeta,
    domain::Money,
    usecases::returns::{self, ReturnRecord, filing, reading},
    web::{WebError, layout, render, session::Visit},
};

/// The figures of the version in force, as the amend form's values.
pub(crate) fn values_of(record: &ReturnRecord) -> Vec<(String, String)> {
    let latest = record.latest();
    let mut values = vec![
        (
            "gross_receipts".to_owned(),
            Money::from_cents(latest.row.gross_receipts_cents).to_string(),
        ),
        (
            "nights_sold".to_owned(),
            latest
                .filing
                .nights_sold
                .map(|n| n.to_string())
                .unwrap_or_default(),
        ),
        ("signer_name".to_owned(), latest.filing.signer.name.clone()),
        (
            "signer_title".to_owned(),
            latest.filing.signer.title.clone(),
        ),
        ("attested".to_owned(), String::new()),
    ];
    for e in &latest.filing.exemptions {
        values.push((format!("exempt_{}", e.code), e.amount.to_string()));
    }
    values
}

/// Read the return (logged), the exemption codes of its period and its
/// attachments (logged).
pub(crate) async fn load(
    state: &AppState,
    visit: &Visit,
    slug: &str,
    payor: &str,
    return_id: &str,
) -> Result<(ReturnRecord, Vec<(String, String)>, Vec<AttachmentMeta>), WebError> {
    let (p, id) = (payor.to_owned(), return_id.to_owned());
    Ok(InMunicipality::new(caller_of(visit)?, slug.to_owned())
        .read(state, move |MunicipalUnit { conn, ctx, .. }| {
            let record = reading::versions(conn, &ctx, &p, &id)?;
            let period = record.period()?;
            // An operator may amend; a reader who may not file sees no form.
            let codes = filing::exemption_codes(conn, &ctx, &p, &period).unwrap_or_default();
            let items = returns::attachments::list(conn, &ctx, &p, &id)?;
            Ok((record, codes, items))
        })
        .await?)
}

fn amend_form(visit: &Visit, action: &str, version: i64, f: &ReturnForm) -> Markup {
    let names = f.names();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    html! {
        @if !f.errors.is_empty() {
            (layout::alert("The amendment was not filed.", &f.errors, &names))
        }
        form.stack #amend-form method="post" action=(action) novalidate {
            (layout::csrf_field(visit))
            (crate::web::keyed::key_field(&new_key()))
            input type="hidden" name="version" value=(version);
            (layout::Field { required: true, inputmode: Some("decimal"),
                ..layout::Field::text("gross_receipts", "Gross receipts from rooms and lodging", f.value("gross_receipts")) }.render(&f.errors))
            @for (code, description) in &f.codes {
                @let name = format!("exempt_{code}");
                @let label = format!("Exempt: {description}");
                (layout::Field { inputmode: Some("decimal"), hint: Some("Leave empty for none."),
                    ..layout::Field::text(&name, &label, f.value(&name)) }.render(&f.errors))
            }
            (layout::Field { inputmode: Some("numeric"), hint: Some("Optional."),
                ..layout::Field::text("nights_sold", "Room nights sold", f.value("nights_sold")) }.render(&f.errors))
            (layout::Field { required: true, autocomplete: Some("name"),
                ..layout::Field::text("signer_name", "Signed by (full name)", f.value("signer_name")) }.render(&f.errors))
            (layout::Field { required: true,
                ..layout::Field::text("signer_title", "Title or capacity", f.value("signer_title")) }.render(&f.errors))
            (attestation(f))
            div.actions { button type="submit" { "File the amendment" } }
        }
    }
}

/// The return's page (with `f` the amend form as shown).
pub(crate) fn page(
    visit: &Visit,
    slug: &str,
    payor: &str,
    record: &ReturnRecord,
    f: &ReturnForm,
    uploads: &Uploads,
) -> Markup {
    let latest = record.latest();
    let a = &latest.assessed.assessment;
    let title = format!("Return {} as filed", record.header.period);
    let base = payor_path(slug, payor);
    let amend = format!("{base}/filed/{}/amend", record.header.id);
    html! {
        p { a href=(format!("/app/m/{slug}")) { "← What is due" } " · "
            a href=(format!("{base}/account")) { "Statement of account" } }
        h1 { (title) }
        p.status { "Status: " strong #return-status { (record.status().replace('_', " ")) }
            ". First filed on " (record.filed_on()) "; version " (latest.row.version) " is in force." }
        @if a.filed_late {
            p.alert #late-notice role="status" { "Filed after its filing due date (" (a.filing_due_date) "): a late filing fee of $"
                (a.late_filing_fee) " and interest of $" (a.interest) " are owed with the tax." }
        }
        @if !record.missing_attachments.is_empty() {
            p.note { "Incomplete: still to attach " (record.missing_attachments.join(", ").replace('_', " ")) "." }
        }
        (assessment_table("The version in force, every amount with its ordinance paragraph", a))
        table #versions {
            caption { "Versions (nothing is overwritten)" }
            thead { tr { th scope="col" { "Version" } th scope="col" { "Kind" } th scope="col" { "Filed" }
                th scope="col" class="num" { "Gross receipts" } th scope="col" class="num" { "Tax" }
                th scope="col" class="num" { "Amount due" } th scope="col" class="num" { "Tax difference" } } }
            tbody { @for v in &record.versions {
                tr {
                    th scope="row" { (v.row.version) }
                    td { (v.row.source.replace('_', " ")) }
                    td { (v.row.filed_on) }
                    td.num { (Money::from_cents(v.row.gross_receipts_cents)) }
                    td.num { (Money::from_cents(v.row.tax_cents)) }
                    td.num { (Money::from_cents(v.row.amount_due_cents)) }
                    td.num { @if let Some(d) = &v.assessed.difference { (d.tax_difference) } @else { "—" } }
                }
            } }
        }
        (attachments::section(visit, slug, payor, &record.header.id, &record.missing_attachments, uploads))
        @if !f.codes.is_empty() || !f.values.is_empty() {
            h2 #amend { "Amend this return" }
            p { "An amendment is a new version; it keeps the original's filing date, fee and lateness. An increase is owed from the original due date with interest; a decrease is a credit." }
            (amend_form(visit, &amend, latest.row.version, f))
        }
    }
}

/// `GET .../filed/{return_id}`.
pub async fn show(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor, return_id) = path.into_inner();
    let (record, codes, items) = load(&state, &visit, &slug, &payor, &return_id).await?;
    let f = ReturnForm::new(codes, values_of(&record));
    let uploads = Uploads::listed(items);
    let title = format!("Return {}", record.header.period);
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(
            &visit,
            &title,
            page(&visit, &slug, &payor, &record, &f, &uploads),
        ),
    ))
}

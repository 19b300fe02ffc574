//! `POST /app/m/{m}/payors/{payor}/filed/{return_id}/attachments` (a
//! document, as `multipart/form-data` from a plain file field) and
//! `GET .../filed/{return_id}/attachments/{attachment}` (its bytes): the
//! copy of the state sales-tax return Hayward requires with every return
//! (Hayward room tax, returns ¶A), or another document of the return.
//!
//! Contract: the body is read by the portal's one multipart parser
//! (`web::multipart`), its `csrf_token` part checked before anything else;
//! then, as the API's `POST .../returns/{return}/attachments`: the caller is
//! authorised first (`MunicipalityContext::return_filer`: another payor's
//! return is 404 before the upload is judged), the kind parsed by
//! `AttachmentKind::parse`, the document judged by `Attachment::accept`
//! (PDF, PNG or JPEG from the content, at most 10 MiB) with the API's
//! refusals (`api::returns::attachments::refusal`), and stored by
//! `usecases::returns::attachments::attach` (written to the access log).
//! Success is a `303` to the return's page; a refusal is that page again
//! (422) with the problem next to the field it concerns (`document`,
//! `kind`). The list on the return's page is `attachments::list` and a
//! download `attachments::download` (both logged as reads), answered as the
//! API answers it (`api::returns::attachments::attachment_response`).

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::{Markup, html};

use super::{ReturnForm, caller_of, filed, payor_path};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        returns::attachments::{attachment_response, refusal},
    },
    app::AppState,
    db::returns::rows::AttachmentMeta,
    domain::attachment::{Attachment, AttachmentKind},
    error::{ApiError, FieldError},
    usecases::returns::attachments,
    web::{WebError, layout, multipart::Multipart, render, see_other, session::Visit},
};

/// The attachments of a return as its page shows them, with the upload
/// form's kind and problems.
#[derive(Debug, Default)]
pub struct Uploads {
    /// The documents attached, oldest first.
    pub items: Vec<AttachmentMeta>,
    /// The kind chosen in the form (`state_sales_tax_return` when none).
    pub kind: String,
    /// The problems of a refused upload, by form field.
    pub errors: Vec<FieldError>,
}

impl Uploads {
    /// The attachments listed, with an empty form.
    pub fn listed(items: Vec<AttachmentMeta>) -> Self {
        Uploads {
            items,
            ..Uploads::default()
        }
    }
}

/// The path of the return's attachments.
fn attachments_path(slug: &str, payor: &str, return_id: &str) -> String {
    format!("{}/filed/{return_id}/attachments", payor_path(slug, payor))
}

/// The list of attachments and the upload form.
pub fn section(
    visit: &Visit,
    slug: &str,
    payor: &str,
    return_id: &str,
    missing: &[String],
    u: &Uploads,
) -> Markup {
    let here = attachments_path(slug, payor, return_id);
    let chosen = if u.kind.is_empty() {
        AttachmentKind::StateSalesTaxReturn.as_str()
    } else {
        u.kind.as_str()
    };
    let doc_error = layout::error_of(&u.errors, "document");
    html! {
        section #attachments {
            h2 { "Attachments" }
            @if !missing.is_empty() {
                p.note #attachments-required { "The municipality's ordinance requires with this return: "
                    strong { (missing.join(", ").replace('_', " ")) } ". Until it is attached the return is incomplete." }
            }
            @if u.items.is_empty() {
                p #no-attachments { "Nothing is attached to this return." }
            } @else {
                table #attachment-list {
                    caption { "Documents attached (nothing attached is ever replaced or removed)" }
                    thead { tr { th scope="col" { "Document" } th scope="col" { "Type" } th scope="col" class="num" { "Bytes" } th scope="col" { "Uploaded (UTC)" } } }
                    tbody { @for a in &u.items {
                        tr {
                            th scope="row" { a href=(format!("{here}/{}", a.id)) download { (a.kind.replace('_', " ")) } }
                            td { (a.content_type) }
                            td.num { (a.size_bytes) }
                            td { (a.uploaded_at.format("%Y-%m-%d %H:%M")) }
                        }
                    } }
                }
            }
            @if !u.errors.is_empty() {
                (layout::alert("The document was not attached.", &u.errors, &["kind", "document"]))
            }
            form.stack.no-print #attach-form method="post" action=(here) enctype="multipart/form-data" {
                (layout::csrf_field(visit))
                (layout::select("kind", "What the document is", chosen, AttachmentKind::ALL.iter().map(|k| (k.as_str(), k.as_str().replace('_', " "))), &u.errors))
                div.field {
                    label for="document" { "Document" }
                    span.hint #hint-document { "A PDF, PNG or JPEG of at most 10 MiB." }
                    span.error id=(layout::error_id("document")) { (doc_error.clone().unwrap_or_default()) }
                    input #document type="file" name="document" accept="application/pdf,image/png,image/jpeg" required
                        aria-describedby=(format!("hint-document {}", layout::error_id("document")))
                        aria-invalid=[doc_error.is_some().then_some("true")];
                }
                div.actions { button type="submit" { "Attach" } }
            }
        }
    }
}

/// The problems of a refused upload named by the form's fields; any other
/// error is given back.
fn on_fields(err: ApiError) -> Result<Vec<FieldError>, ApiError> {
    match err {
        ApiError::UnsupportedContent(f) => Ok(vec![FieldError {
            field: "document".into(),
            ..f
        }]),
        ApiError::PayloadTooLarge { limit } => Ok(vec![FieldError::new(
            "document",
            "attachment_too_large",
            format!("the document is too large: at most {limit} bytes (10 MiB)"),
        )]),
        ApiError::Validation(errors) => Ok(errors),
        other => Err(other),
    }
}

/// `POST .../filed/{return_id}/attachments`.
pub async fn upload(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, WebError> {
    let form = Multipart::checked(&visit, &req, &body)?;
    let (slug, payor, return_id) = path.into_inner();
    let kind = form.text("kind").unwrap_or_default();
    let document = form
        .part("document")
        .map(|d| (d.content_type.clone(), d.bytes.to_vec()));
    let now = crate::api::stamp::now(&state);
    let (p, id, k) = (payor.clone(), return_id.clone(), kind.clone());
    let attached = InMunicipality::new(caller_of(&visit)?, slug.clone())
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            // Authorised first, as the API: then the kind, then the document.
            ctx.return_filer(&p)?;
            let kind = AttachmentKind::parse("kind", &k)?;
            let (doc_type, bytes) = document.ok_or_else(|| {
                ApiError::Validation(vec![FieldError::new(
                    "document",
                    "required",
                    "choose the document to attach",
                )])
            })?;
            let upload = Attachment::accept(kind, &doc_type, &bytes).map_err(refusal)?;
            attachments::attach(conn, &ctx, &p, &id, &upload, &bytes, now)
        })
        .await;
    let errors = match attached {
        Ok(_) => {
            return Ok(see_other(&format!(
                "{}/filed/{return_id}#attachments",
                payor_path(&slug, &payor)
            )));
        }
        Err(e) => on_fields(e)?,
    };
    let (record, codes, items) = filed::load(&state, &visit, &slug, &payor, &return_id).await?;
    let f = ReturnForm::new(codes, filed::values_of(&record));
    let uploads = Uploads {
        items,
        kind,
        errors,
    };
    let title = format!("Return {}", record.header.period);
    Ok(render(
        &visit,
        StatusCode::UNPROCESSABLE_ENTITY,
        layout::page(
            &visit,
            &title,
            filed::page(&visit, &slug, &payor, &record, &f, &uploads),
        ),
    ))
}

/// `GET .../filed/{return_id}/attachments/{attachment}`: the document (the read is logged).
pub async fn download(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, payor, return_id, attachment) = path.into_inner();
    let (meta, bytes) = InMunicipality::new(caller_of(&visit)?, slug)
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            attachments::download(conn, &ctx, &payor, &return_id, &attachment)
        })
        .await?;
    Ok(attachment_response(&meta, bytes)?)
}

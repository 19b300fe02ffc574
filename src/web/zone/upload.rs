//! `POST /app/z/{zone}/expenditures/{report}/attachments` (a receipt or
//! invoice, as `multipart/form-data` from a plain file field) and
//! `GET .../attachments/{attachment}` (its bytes).
//!
//! Contract: the upload is judged exactly as the API's is
//! (`domain::attachment::Attachment::accept`: PDF, PNG or JPEG from the
//! content, the part's `Content-Type` naming it, at most 10 MiB; the API's
//! refusals, `api::expenditures::attachments::refusal`) and stored by
//! `usecases::expenditures::attachments::attach` (the tourism entity only).
//! The CSRF token is the form's `csrf_token` part, checked before anything
//! else. The multipart body is parsed by the portal's one parser
//! (`web::multipart`). A download goes through `attachments::download`,
//! which writes the read to the zone's access log as the API's does.

use actix_web::{
    HttpRequest, HttpResponse,
    http::header::{self, HeaderValue},
    web,
};

use super::{base, caller_of};
use crate::{
    api::{
        caller::{InZone, ZoneUnit},
        expenditures::attachments::refusal,
    },
    app::AppState,
    domain::{
        attachment::{Attachment, AttachmentKind},
        expenditure::DocumentKind,
    },
    error::{ApiError, FieldError},
    usecases::expenditures::attachments,
    web::{WebError, multipart::Multipart, see_other, session::Visit},
};

/// `POST .../attachments`: attach the uploaded document, then back to the report.
pub async fn attach(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
    body: web::Bytes,
) -> Result<HttpResponse, WebError> {
    let form = Multipart::checked(&visit, &req, &body)?;
    let (slug, report) = path.into_inner();
    let kind = form.text("kind").unwrap_or_default();
    let document = form.part("document").ok_or_else(|| {
        ApiError::Validation(vec![FieldError::new(
            "document",
            "required",
            "choose the document to attach",
        )])
    })?;
    let (doc_type, bytes) = (document.content_type.clone(), document.bytes.to_vec());
    let now = crate::api::stamp::now(&state);
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let id = report.clone();
    here.write(&state, move |ZoneUnit { conn, ctx, .. }| {
        ctx.require_presence()?;
        let kind = DocumentKind::parse("kind", &kind)?;
        let upload =
            Attachment::accept(AttachmentKind::Other, &doc_type, &bytes).map_err(refusal)?;
        attachments::attach(conn, &ctx, &id, kind, &upload, &bytes, now)
    })
    .await?;
    Ok(see_other(&format!("{}/expenditures/{report}", base(&slug))))
}

/// `GET .../attachments/{attachment}`: the document (the read is logged).
pub async fn download(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, report, id) = path.into_inner();
    let now = crate::api::stamp::now(&state);
    let here = InZone::new(caller_of(&visit)?, slug);
    let (meta, bytes) = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            ctx.require_presence()?;
            attachments::download(conn, &ctx, &report, &id, now)
        })
        .await?;
    let value = |v: String| HeaderValue::try_from(v).map_err(|e| ApiError::internal(e.to_string()));
    Ok(HttpResponse::Ok()
        .content_type(value(meta.content_type.clone())?)
        .insert_header((
            header::CONTENT_DISPOSITION,
            value(format!(
                "attachment; filename=\"{}-{}\"",
                meta.kind, meta.id
            ))?,
        ))
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .body(bytes))
}

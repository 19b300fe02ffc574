//! `POST .../expenditure-reports/{report}/attachments?kind=` (upload a
//! receipt or invoice) and `GET .../attachments/{attachment}` (download).
//!
//! Contract: the body of an upload is the document itself, read and judged
//! exactly as a return's attachment is (`api::returns::attachments`: at most
//! 10 MiB, 413 beyond; PDF, PNG or JPEG judged from the content and named
//! by `Content-Type`, else 415). The tourism entity uploads; readers of
//! reports download, and every download is written to the zone's access log
//! (`usecases::expenditures::attachments`). Downloads are never cached.

use actix_web::{HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::{AttachmentOut, report_location};
use crate::{
    api::{
        caller::{InZone, ZoneUnit},
        documents,
        extract::ApiQuery,
        idempotency::Reply,
        returns::attachments::AttachmentBody,
    },
    app::AppState,
    domain::{
        attachment::{Attachment, AttachmentKind},
        expenditure::DocumentKind,
    },
    error::{ApiError, Problem},
    tenancy::ZoneAction,
    usecases::expenditures::attachments,
};

/// What the document is.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct UploadParams {
    /// `receipt`, `invoice` or `other` (required).
    #[param(value_type = DocumentKind, example = "receipt")]
    pub kind: String,
}

/// `{zone}/expenditure-reports/{report}/attachments/{attachment}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
struct AttachmentPath {
    /// Zone slug, e.g. `marquette-county`.
    zone: String,
    /// Report id (UUID).
    report: String,
    /// Attachment id (UUID).
    attachment: String,
}

/// The refusal the API answers for an upload the attachment rules refused
/// (one rule for every upload: `api::documents`).
pub(crate) use crate::api::documents::refusal;

/// Attach a receipt or invoice to a report: the raw bytes of a PDF, PNG or JPEG, at most 10 MiB.
///
/// Only the tourism entity, as a person. The type is judged from the content (the
/// attachment rules of returns). Listed in the report's `attachments`.
#[utoipa::path(
    operation_id = "upload_expenditure_attachment",
    tag = "expenditures",
    security(("bearer" = [])),
    params(super::ReportPath, UploadParams),
    request_body(
        description = "The document's bytes, at most 10 MiB (10485760 bytes)",
        content(("application/pdf"), ("image/png"), ("image/jpeg"))
    ),
    responses(
        (status = 201, description = "Attached", body = AttachmentOut,
            headers(("Location" = String, description = "Path of the attachment (its bytes)"))),
        (status = 413, description = "Body over 10 MiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "No PDF, PNG or JPEG, or not the type `Content-Type` names", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`kind` missing or unknown", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/expenditure-reports/{report}/attachments")]
pub async fn upload(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
    params: Result<ApiQuery<UploadParams>, ApiError>,
    body: Result<AttachmentBody, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (zone, report) = path.into_inner();
    let now = crate::api::stamp::now(&state);
    let base = report_location(&zone, &report);
    let meta = here
        .write_for(
            &state,
            ZoneAction::FileExpenditureReports,
            move |ZoneUnit { conn, ctx, .. }| {
                let kind = DocumentKind::parse("kind", &params?.0.kind)?;
                let body = body?;
                // The kind of returns' vocabulary is not used: the document's kind is `kind`.
                let upload =
                    Attachment::accept(AttachmentKind::Other, &body.content_type, &body.bytes)
                        .map_err(refusal)?;
                attachments::attach(conn, &ctx, &report, kind, &upload, &body.bytes, now)
            },
        )
        .await?;
    let location = format!("{base}/attachments/{}", meta.id);
    Ok(Reply::created(location, &AttachmentOut::of(&meta)?)?.response())
}

/// One receipt or invoice: its bytes (every download is written to the zone's access log).
///
/// Only commission members, the tourism entity and the zone's API clients; the zone admin
/// and member municipalities' users 403, anyone else 404.
#[utoipa::path(
    operation_id = "download_expenditure_attachment",
    tag = "expenditures",
    security(("bearer" = [])),
    params(AttachmentPath),
    responses(
        (status = 200, description = "The document's bytes",
            content(("application/pdf"), ("image/png"), ("image/jpeg")))
    )
)]
#[get("/v1/zones/{zone}/expenditure-reports/{report}/attachments/{attachment}")]
pub async fn download(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, report, id) = path.into_inner();
    let now = crate::api::stamp::now(&state);
    let (meta, bytes) = here
        .write_for(
            &state,
            ZoneAction::ReadExpenditureReports,
            move |ZoneUnit { conn, ctx, .. }| attachments::download(conn, &ctx, &report, &id, now),
        )
        .await?;
    documents::download(
        &meta.content_type,
        Vec::new(),
        &format!("{}-{}", meta.kind, meta.id),
        bytes,
    )
}

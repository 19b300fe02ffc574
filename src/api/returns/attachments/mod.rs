//! `POST .../returns/{return}/attachments?kind=...` (upload),
//! `GET .../returns/{return}/attachments` (list) and
//! `GET .../returns/{return}/attachments/{attachment}` (download).
//!
//! Contract: an upload's body is the document itself, not JSON: its bytes
//! with their `Content-Type`, read by [`AttachmentBody`] up to
//! [`MAX_ATTACHMENT_BYTES`] (10 MiB), a limit of this route only (every JSON
//! body stays at `extract::JSON_LIMIT`); a larger body is 413, and the body
//! is not read past the limit (not at all when `Content-Length` already says
//! so). Its type is judged from the content by [`Attachment::accept`] (PDF,
//! PNG, JPEG, and the `Content-Type` must name it): anything else is 415
//! naming the rule (`attachment_type_unsupported`, `attachment_type_mismatch`,
//! `attachment_empty`). The bytes are binary, so the control-character rule
//! of `input_guard` does not apply to them; it still applies to the path and
//! to `kind` (its middleware and `ApiQuery`). As everywhere, the caller is
//! authorised before the query or the body is judged. A download answers the
//! bytes with their `Content-Type`, `Content-Length`, `Repr-Digest` (RFC 9530)
//! and `Digest` (RFC 3230) of their SHA-256, `Content-Disposition: attachment`
//! and `X-Content-Type-Options: nosniff`, never cached.

mod types;

pub use types::*;

use actix_web::{HttpResponse, get, post, web};
use base64::Engine as _;
use utoipa::IntoParams;

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        documents,
        extract::ApiQuery,
        idempotency::{Idempotency, Reply, raw_body},
        returns::may_file,
    },
    app::AppState,
    db::returns::rows::AttachmentMeta,
    domain::attachment::{Attachment, AttachmentKind, MediaType},
    error::{ApiError, Problem},
    usecases::returns::attachments,
};
/// Attach a document to a return: the raw bytes of a PDF, PNG or JPEG, at most 10 MiB.
///
/// Whoever may file for the payor: its operator, the clerk-treasurer or staff; anyone
/// else gets 404. The body is the document itself (not JSON) with its `Content-Type`;
/// the type is judged from the content, never from a name or the header alone (a text
/// file sent as `application/pdf` is refused), and the header must name that type.
/// Stored with its SHA-256 in the same transaction as its record. Hayward requires a
/// copy of the state sales-tax return (`kind=state_sales_tax_return`) with every
/// quarterly and annual return: until it is attached, the return is `incomplete`.
/// Written to the access log (`return_attachment`, `create`).
#[utoipa::path(
    operation_id = "upload_return_attachment",
    tag = "returns",
    security(("bearer" = [])),
    params(
        crate::api::params::ReturnPath,
        UploadParams,
        crate::api::idempotency::KeyHeader
    ),
    request_body(
        description = "The document's bytes, at most 10 MiB (10485760 bytes)",
        content(("application/pdf"), ("image/png"), ("image/jpeg"))
    ),
    responses(
        (status = 201, description = "Attached; the body is the attachment's record", body = AttachmentMetadata,
            headers(("Location" = String, description = "Path of the attachment (its bytes)"))),
        (status = 400, description = "A query parameter is unknown, repeated or of the wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over 10 MiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The content is no PDF, PNG or JPEG (`attachment_type_unsupported`, `attachment_empty`), or not the type its `Content-Type` names (`attachment_type_mismatch`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this `Idempotency-Key` is still being processed (`Idempotency-Key`, `idempotency_key_in_progress`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`kind` is missing or unknown (`required`, `one_of`); or the `Idempotency-Key` was used for another request (`Idempotency-Key`, `idempotency_key_reused`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/returns/{return}/attachments")]
pub async fn upload(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
    idempotency: Idempotency,
    params: Result<ApiQuery<UploadParams>, ApiError>,
    body: Result<AttachmentBody, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id, return_id) = path.into_inner();
    let now = crate::api::stamp::now(&state);
    let fingerprinted = body
        .as_ref()
        .ok()
        .map(|b| raw_body(&b.content_type, &b.bytes));
    idempotency
        .write(
            &state,
            here,
            fingerprinted,
            may_file(&payor_id),
            move |MunicipalUnit { conn, ctx, .. }| {
                // Authorised; now judge the query, then the body.
                let kind = AttachmentKind::parse("kind", &params?.0.kind)?;
                let body = body?;
                let upload =
                    Attachment::accept(kind, &body.content_type, &body.bytes).map_err(refusal)?;
                let meta = attachments::attach(
                    conn,
                    &ctx,
                    &payor_id,
                    &return_id,
                    &upload,
                    &body.bytes,
                    now,
                )?;
                let location = attachment_location(&slug, &payor_id, &return_id, &meta.id);
                Reply::created(location, &AttachmentMetadata::of(&meta)?)
            },
        )
        .await
}

/// The documents attached to a return (their records, not their bytes).
///
/// Whoever may read the payor's returns: its operator, the clerk-treasurer, staff, or a
/// disclosure grantee for the payor; anyone else gets 404. Written to the access log
/// (`return_attachment`, `read`: one entry per attachment listed, or one for the list
/// when there is none).
#[utoipa::path(
    operation_id = "list_return_attachments",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::ReturnPath),
    responses(
        (status = 200, description = "The attachments, oldest first", body = AttachmentList)
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/returns/{return}/attachments")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
) -> Result<web::Json<AttachmentList>, ApiError> {
    let (_, payor_id, return_id) = path.into_inner();
    let items = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            attachments::list(conn, &ctx, &payor_id, &return_id)
        })
        .await?;
    let items = items
        .iter()
        .map(AttachmentMetadata::of)
        .collect::<Result<_, _>>()?;
    Ok(web::Json(AttachmentList { items }))
}

/// `{municipality}/payors/{payor}/returns/{return}/attachments/{attachment}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
struct AttachmentPath {
    /// Municipality slug, e.g. `hayward`.
    municipality: String,
    /// Payor id (UUID).
    payor: String,
    /// Return id (UUID).
    #[param(rename = "return")]
    r#return: String,
    /// Attachment id (UUID).
    attachment: String,
}

/// The `Repr-Digest` (RFC 9530) and `Digest` (RFC 3230) values of a hex SHA-256.
fn digests(sha256_hex: &str) -> Result<(String, String), ApiError> {
    let bytes = (0..sha256_hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(sha256_hex.get(i..i + 2).unwrap_or("zz"), 16))
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|_| ApiError::internal("stored attachment has an invalid SHA-256"))?;
    let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    Ok((format!("sha-256=:{b64}:"), format!("sha-256={b64}")))
}

/// One attached document: its bytes, as uploaded.
///
/// Whoever may read the payor's returns: its operator, the clerk-treasurer, staff, or a
/// disclosure grantee for the payor; anyone else gets 404. The bytes come with their
/// `Content-Type`, `Content-Length`, their SHA-256 in `Repr-Digest` and `Digest`, and
/// `Content-Disposition: attachment`. Written to the access log (`return_attachment`,
/// `read`).
#[utoipa::path(
    operation_id = "download_return_attachment",
    tag = "returns",
    security(("bearer" = [])),
    params(AttachmentPath),
    responses(
        (status = 200, description = "The document's bytes",
            content(("application/pdf"), ("image/png"), ("image/jpeg")),
            headers(
                ("Content-Length" = u64, description = "Size in bytes"),
                ("Repr-Digest" = String, description = "SHA-256 of the bytes (RFC 9530), e.g. `sha-256=:<base64>:`"),
                ("Digest" = String, description = "SHA-256 of the bytes (RFC 3230), e.g. `sha-256=<base64>`"),
                ("Content-Disposition" = String, description = "`attachment` with a file name of the kind and id")
            ))
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/returns/{return}/attachments/{attachment}")]
pub async fn download(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id, return_id, attachment_id) = path.into_inner();
    let (meta, bytes) = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            attachments::download(conn, &ctx, &payor_id, &return_id, &attachment_id)
        })
        .await?;
    attachment_response(&meta, bytes)
}

/// The answer of a download: the bytes with their headers (see the module
/// doc); the portal's download answers the same (`web::operator::attachments`).
pub(crate) fn attachment_response(
    meta: &AttachmentMeta,
    bytes: Vec<u8>,
) -> Result<HttpResponse, ApiError> {
    let extension = match MediaType::ALL
        .into_iter()
        .find(|m| m.mime() == meta.content_type)
    {
        Some(MediaType::Pdf) => "pdf",
        Some(MediaType::Png) => "png",
        Some(MediaType::Jpeg) => "jpg",
        None => return Err(ApiError::internal("stored attachment has an unknown type")),
    };
    let (repr_digest, digest) = digests(&meta.sha256)?;
    documents::download(
        &meta.content_type,
        vec![("repr-digest", repr_digest), ("digest", digest)],
        &format!("{}-{}.{extension}", meta.kind, meta.id),
        bytes,
    )
}

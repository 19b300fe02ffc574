//! Documents attached to a return: upload, list, download.
//!
//! Contract:
//! - uploading is for whoever may file for the payor
//!   (`MunicipalityContext::return_filer`: its operator, the clerk-treasurer,
//!   staff; anyone else 404); the upload was judged by
//!   [`Attachment::accept`] (size, type sniffed from the content) before it
//!   gets here, and its record and bytes are inserted in the request's one
//!   transaction, so there is never a record without its bytes nor bytes
//!   without their record; the write is in the access log
//!   (`return_attachment`, `create`);
//! - listing and downloading are for whoever may read the payor's returns
//!   ([`reading_for`]); both are in the access log as reads of
//!   `return_attachment`: a download names `{return}/attachments/{id}`, a
//!   list one entry per attachment shown under the same name, or, when the
//!   return has none, one entry naming the list `{return}/attachments`, so
//!   that every list leaves a trace;
//! - a download's bytes are checked against the SHA-256 kept with them (a
//!   difference is an internal error, never bytes served as something else).
//!
//! Attachments are append-only (the database refuses UPDATE and DELETE).

use chrono::NaiveDateTime;

use super::filing::Filer;
use super::{log_read, reading_for};
use crate::{
    db::{
        self, DbConn,
        returns::rows::{AttachmentMeta, NewAttachment},
    },
    domain::attachment::{Attachment, sha256_hex},
    error::ApiError,
    tenancy::MunicipalityContext,
    usecases::payors::Actor,
};

/// The record type of attachments in the access log.
pub const RECORD_TYPE: &str = "return_attachment";

/// The access-log name of attachment `id` of `return_id`.
fn record_id(return_id: &str, id: &str) -> String {
    format!("{return_id}/attachments/{id}")
}

/// 404 unless `return_id` is one of the payor's returns.
fn require_return(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    return_id: &str,
) -> Result<(), ApiError> {
    db::returns::get(conn, municipality_id, return_id)?
        .filter(|h| h.payor_id == payor_id)
        .map(|_| ())
        .ok_or(ApiError::NotFound("return"))
}

/// Attach the accepted `upload` (whose bytes are `bytes`) to the payor's
/// return, uploaded at `now` (UTC); returns the stored record.
pub fn attach(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    return_id: &str,
    upload: &Attachment,
    bytes: &[u8],
    now: NaiveDateTime,
) -> Result<AttachmentMeta, ApiError> {
    let filer = Filer::authorised(ctx, "", payor_id)?;
    let meta = record_attachment(conn, &filer, payor_id, return_id, upload, bytes, now)?;
    Actor::of(ctx)?.log_write(
        conn,
        ctx,
        RECORD_TYPE,
        &record_id(return_id, &meta.id),
        "create",
    )?;
    Ok(meta)
}

/// [`attach`] once authorised, without the access log (the demo attaches this way).
pub fn record_attachment(
    conn: &mut DbConn,
    filer: &Filer,
    payor_id: &str,
    return_id: &str,
    upload: &Attachment,
    bytes: &[u8],
    now: NaiveDateTime,
) -> Result<AttachmentMeta, ApiError> {
    require_return(conn, filer.municipality_id, payor_id, return_id)?;
    let size = i64::try_from(upload.size).map_err(ApiError::internal)?;
    let row = NewAttachment {
        municipality_id: filer.municipality_id,
        id: &db::identity::new_id(),
        return_id,
        kind: upload.kind.as_str(),
        content_type: upload.media_type.mime(),
        size_bytes: size,
        sha256: &upload.sha256,
        content: bytes,
        uploaded_by: &filer.entered_by,
        uploaded_at: now,
    };
    db::returns::attachments::insert(conn, &row)?;
    Ok(AttachmentMeta {
        municipality_id: row.municipality_id,
        id: row.id.to_owned(),
        return_id: return_id.to_owned(),
        kind: row.kind.to_owned(),
        content_type: row.content_type.to_owned(),
        size_bytes: size,
        sha256: upload.sha256.clone(),
        uploaded_by: filer.entered_by.clone(),
        uploaded_at: now,
    })
}

/// The attachments of the payor's return, oldest first, without their bytes
/// (logged: see the module doc).
pub fn list(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    return_id: &str,
) -> Result<Vec<AttachmentMeta>, ApiError> {
    let reading = reading_for(conn, ctx, payor_id)?;
    require_return(conn, ctx.municipality_id, payor_id, return_id)?;
    let items = db::returns::attachments::of_return(conn, ctx.municipality_id, return_id)?;
    if items.is_empty() {
        let list = format!("{return_id}/attachments");
        log_read(conn, ctx, &reading, payor_id, RECORD_TYPE, &list)?;
    }
    for item in &items {
        let id = record_id(return_id, &item.id);
        log_read(conn, ctx, &reading, payor_id, RECORD_TYPE, &id)?;
    }
    Ok(items)
}

/// One attachment of the payor's return, with its bytes (logged).
pub fn download(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    return_id: &str,
    attachment_id: &str,
) -> Result<(AttachmentMeta, Vec<u8>), ApiError> {
    let reading = reading_for(conn, ctx, payor_id)?;
    require_return(conn, ctx.municipality_id, payor_id, return_id)?;
    let (meta, bytes) =
        db::returns::attachments::get(conn, ctx.municipality_id, return_id, attachment_id)?
            .ok_or(ApiError::NotFound("attachment"))?;
    if sha256_hex(&bytes) != meta.sha256 {
        return Err(ApiError::internal(
            "a stored attachment's bytes differ from its SHA-256",
        ));
    }
    let id = record_id(return_id, attachment_id);
    log_read(conn, ctx, &reading, payor_id, RECORD_TYPE, &id)?;
    Ok((meta, bytes))
}

//! Receipts and invoices attached to an expenditure report.
//!
//! Contract: the store and rules of returns' attachments, reused: the upload
//! was judged by `domain::attachment::Attachment::accept` (PDF, PNG or JPEG
//! sniffed from the content, the `Content-Type` naming it, at most 10 MiB)
//! before it gets here; its kind here is a [`DocumentKind`] (receipt,
//! invoice, other). [`attach`] is the tourism entity's
//! (`FileExpenditureReports`); record and bytes land in the request's one
//! transaction. [`download`] is for whoever reads reports
//! (`ReadExpenditureReports`) and **every download is logged** in the
//! zone's own access log (`zone_access_log`: the municipal `access_log` is
//! keyed by municipality, and these records are the zone's), as a `read` of
//! `expenditure_attachment` named `{report}/attachments/{id}`, with who, on
//! which basis (the zone role, or `api_client`) and the request id, in the
//! same transaction as the read. The records of a report's attachments
//! (kind, type, size, digest, never the bytes) are part of the report.
//! [`access_log`] is the zone admin's reader of that log.

use chrono::NaiveDateTime;

use crate::{
    auth::Role,
    db::{
        self, DbConn,
        expenditures::{AttachmentMeta, NewAttachment, ZoneAccessRow},
    },
    domain::{
        attachment::{Attachment, sha256_hex},
        expenditure::DocumentKind,
    },
    error::ApiError,
    tenancy::{ZoneAction, ZoneContext},
};

use super::actor;

/// The record type of these attachments in the zone's access log.
pub const RECORD_TYPE: &str = "expenditure_attachment";

/// The access-log name of attachment `id` of `report_id`.
pub fn record_id(report_id: &str, id: &str) -> String {
    format!("{report_id}/attachments/{id}")
}

/// Attach an accepted upload to a report of the zone.
pub fn attach(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    report_id: &str,
    kind: DocumentKind,
    upload: &Attachment,
    bytes: &[u8],
    now: NaiveDateTime,
) -> Result<AttachmentMeta, ApiError> {
    ctx.require(ZoneAction::FileExpenditureReports)?;
    db::expenditures::report(conn, ctx.zone_id, report_id)?.ok_or(ApiError::NotFound("report"))?;
    let id = db::identity::new_id();
    let by = actor(ctx);
    let size = i64::try_from(upload.size).map_err(ApiError::internal)?;
    db::expenditures::insert_attachment(
        conn,
        &NewAttachment {
            zone_id: ctx.zone_id,
            id: &id,
            report_id,
            kind: kind.as_str(),
            content_type: upload.media_type.mime(),
            size_bytes: size,
            sha256: &upload.sha256,
            content: bytes,
            uploaded_by: &by,
            uploaded_at: now,
        },
    )?;
    Ok(AttachmentMeta {
        zone_id: ctx.zone_id,
        id,
        report_id: report_id.to_owned(),
        kind: kind.as_str().to_owned(),
        content_type: upload.media_type.mime().to_owned(),
        size_bytes: size,
        sha256: upload.sha256.clone(),
        uploaded_by: by,
        uploaded_at: now,
    })
}

/// One attachment with its bytes; the read is logged (see the module doc).
pub fn download(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    report_id: &str,
    id: &str,
    now: NaiveDateTime,
) -> Result<(AttachmentMeta, Vec<u8>), ApiError> {
    ctx.require(ZoneAction::ReadExpenditureReports)?;
    let (meta, bytes) = db::expenditures::attachment(conn, ctx.zone_id, report_id, id)?
        .ok_or(ApiError::NotFound("attachment"))?;
    if sha256_hex(&bytes) != meta.sha256 {
        return Err(ApiError::internal(
            "a stored attachment's bytes differ from its SHA-256",
        ));
    }
    let actor = ctx.caller.actor();
    let basis = [Role::CommissionMember, Role::TourismEntity]
        .into_iter()
        .find(|r| ctx.caller.has_zone_role(ctx.zone_id, *r))
        .map_or("api_client", |r| r.as_str());
    let request_id = crate::request_context::current()
        .map(|c| c.id)
        .ok_or_else(|| ApiError::internal("no request context for the access log"))?;
    db::expenditures::log_access(
        conn,
        &ZoneAccessRow {
            zone_id: ctx.zone_id,
            id: db::identity::new_id(),
            at: now,
            actor_kind: actor.kind().to_owned(),
            actor_id: actor.id().to_owned(),
            basis: basis.to_owned(),
            record_type: RECORD_TYPE.to_owned(),
            record_id: record_id(report_id, id),
            action: "read".to_owned(),
            request_id,
        },
    )?;
    Ok((meta, bytes))
}

/// The zone's access log, newest first (the zone admin only,
/// `ZoneAction::ReadAccessLog`: other zone roles 403, anyone unrelated 404).
/// Entries name records by type and id, never a content; reading the log is
/// not itself logged.
pub fn access_log(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    query: &db::access_log::LogQuery,
) -> Result<Vec<ZoneAccessRow>, ApiError> {
    ctx.require(ZoneAction::ReadAccessLog)?;
    Ok(db::expenditures::access_list(conn, ctx.zone_id, query)?)
}

//! Issuing and reading written notices (issue 9, item 10).
//!
//! Contract:
//! - [`issue`] stores a [`NoticeDraft`] in the caller's unit of work, the
//!   same one that posts the journal the notice reports, so a determination
//!   and its notice land together or not at all. The caller has already
//!   checked who may issue it (the clerk-treasurer or staff). The stored
//!   content is the draft as JSON; the document is rendered **once, here**
//!   (`render::pdf`, with the municipality's name as sender) and its bytes
//!   stored beside the notice with their SHA-256: the document as sent,
//!   shown again byte for byte whatever later changes the renderer.
//! - [`list`], [`show`] and [`document`] read a payor's notices: the
//!   clerk-treasurer, staff and the payor's own operator
//!   (`MunicipalityContext::account_reader`); anyone else 404, as if the
//!   payor did not exist. Every read is written to the access log
//!   (`payor_notices` with the payor's id for a list, `notice` with the
//!   notice's id for one notice or its document).
//! - Nothing about a notice reaches a log line (it names the payor and
//!   states amounts).

use chrono::NaiveDateTime;

use crate::{
    db::{
        self, DbConn,
        notices::{DocumentRow, NoticeRow},
    },
    domain::{attachment::sha256_hex, notice::NoticeDraft},
    error::ApiError,
    render::pdf::{NoticeHeader, notice_pdf},
    tenancy::MunicipalityContext,
    usecases::payors::Actor,
};

/// The media type of a notice's stored document.
pub const PDF: &str = "application/pdf";

/// Store `draft` as a notice of the municipality, issued by `issued_by`
/// (`user:ID`), with its rendered document; returns the stored row.
pub fn issue(
    conn: &mut DbConn,
    municipality_id: i64,
    draft: &NoticeDraft,
    issued_by: &str,
) -> Result<NoticeRow, ApiError> {
    let content = serde_json::to_string(draft)
        .map_err(|e| ApiError::internal(format!("a notice's content: {e}")))?;
    let row = NoticeRow {
        municipality_id,
        id: db::identity::new_id(),
        payor_id: draft.payor_id.clone(),
        kind: draft.kind.as_str().to_owned(),
        issued_on: draft.issued_on,
        title: draft.title.clone(),
        content,
        journal_id: draft.journal_id.clone(),
        cause_type: draft.cause_type.clone(),
        cause_id: draft.cause_id.clone(),
        issued_by: issued_by.to_owned(),
        created_at: db::identity::now(),
    };
    db::notices::insert(conn, &row)?;
    let municipality = db::notices::municipality_name(conn, municipality_id)?;
    let bytes = notice_pdf(
        NoticeHeader {
            municipality: &municipality,
            notice_id: &row.id,
        },
        draft,
    );
    db::notices::insert_document(
        conn,
        &DocumentRow {
            municipality_id,
            notice_id: row.id.clone(),
            media_type: PDF.to_owned(),
            sha256: sha256_hex(&bytes),
            bytes,
        },
    )?;
    Ok(row)
}

/// The draft a stored notice holds.
pub fn content_of(row: &NoticeRow) -> Result<NoticeDraft, ApiError> {
    serde_json::from_str(&row.content)
        .map_err(|e| ApiError::internal(format!("a stored notice's content: {e}")))
}

fn log(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    basis: &str,
    record_type: &str,
    record_id: &str,
) -> Result<(), ApiError> {
    let actor = Actor::of(ctx)?;
    db::access_log::record(
        conn,
        ctx.municipality_id,
        &actor.reader(basis),
        record_type,
        record_id,
    )?;
    Ok(())
}

/// One page of the payor's notices, newest first, after `after` (the
/// previous page's last `created_at` and id); see the module doc.
pub fn list(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    after: Option<(NaiveDateTime, String)>,
    limit: i64,
) -> Result<Vec<NoticeRow>, ApiError> {
    let basis = ctx.account_reader(payor_id)?;
    let municipality_id = ctx.municipality_id;
    db::payors::get(conn, municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))?;
    let rows = db::notices::page_of_payor(
        conn,
        municipality_id,
        payor_id,
        after.as_ref().map(|(at, id)| (*at, id.as_str())),
        limit,
    )?;
    log(conn, ctx, &basis, "payor_notices", payor_id)?;
    Ok(rows)
}

/// One notice of the payor with its content and its document's digest.
pub fn show(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    notice_id: &str,
) -> Result<(NoticeRow, NoticeDraft, Option<String>), ApiError> {
    let basis = ctx.account_reader(payor_id)?;
    let row = db::notices::get(conn, ctx.municipality_id, payor_id, notice_id)?
        .ok_or(ApiError::NotFound("notice"))?;
    let draft = content_of(&row)?;
    let digest = db::notices::document_of(conn, ctx.municipality_id, notice_id)?.map(|d| d.sha256);
    log(conn, ctx, &basis, "notice", notice_id)?;
    Ok((row, draft, digest))
}

/// The document of one notice of the payor, as sent.
pub fn document(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    notice_id: &str,
) -> Result<(NoticeRow, DocumentRow), ApiError> {
    let basis = ctx.account_reader(payor_id)?;
    let row = db::notices::get(conn, ctx.municipality_id, payor_id, notice_id)?
        .ok_or(ApiError::NotFound("notice"))?;
    let doc = db::notices::document_of(conn, ctx.municipality_id, notice_id)?
        .ok_or_else(|| ApiError::internal("a notice without its document"))?;
    log(conn, ctx, &basis, "notice", notice_id)?;
    Ok((row, doc))
}

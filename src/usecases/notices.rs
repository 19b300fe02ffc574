//! Issuing written notices (issue 9, item 10).
//!
//! Contract: [`issue`] stores a [`NoticeDraft`] in the caller's unit of work,
//! the same one that posts the journal the notice reports, so a determination
//! and its notice land together or not at all. The caller has already checked
//! who may issue it (the clerk-treasurer or staff). The stored content is the
//! draft as JSON; nothing about a notice reaches a log line (it names the
//! payor and states amounts).

use crate::{
    db::{self, DbConn, notices::NoticeRow},
    domain::notice::NoticeDraft,
    error::ApiError,
};

/// Store `draft` as a notice of the municipality, issued by `issued_by`
/// (`user:ID`); returns the stored row.
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
    Ok(row)
}

/// The draft a stored notice holds.
pub fn content_of(row: &NoticeRow) -> Result<NoticeDraft, ApiError> {
    serde_json::from_str(&row.content)
        .map_err(|e| ApiError::internal(format!("a stored notice's content: {e}")))
}

//! Row structs of the return tables, in `schema.rs` column order.

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use crate::db::schema::{return_attachments, return_extensions, return_versions, tax_returns};

/// A return's header: who, which period, which kind.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = tax_returns)]
pub struct ReturnRow {
    pub municipality_id: i64,
    pub id: String,
    pub payor_id: String,
    pub period: String,
    pub kind: String,
    pub created_at: NaiveDateTime,
}

/// One version of a return, as filed and assessed.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = return_versions)]
pub struct VersionRow {
    pub municipality_id: i64,
    pub return_id: String,
    pub version: i64,
    pub source: String,
    pub filed_on: NaiveDate,
    pub received_on: Option<NaiveDate>,
    /// The actor: `user:ID` or `client:ID`.
    pub entered_by: String,
    pub entered_as: String,
    pub gross_receipts_cents: i64,
    pub exempt_receipts_cents: i64,
    pub tax_cents: i64,
    pub amount_due_cents: i64,
    pub policy_version: NaiveDate,
    /// JSON: the filing's details (`usecases::returns` writes and reads it).
    pub filing: String,
    /// JSON: the engine's assessment of this version.
    pub assessment: String,
    pub created_at: NaiveDateTime,
    /// The assessment's due date (interest runs from it), copied from
    /// `assessment` so the ledger's terms read it without the document.
    pub due_date: NaiveDate,
    /// The assessment's filing due date (extended when an extension was
    /// granted), copied likewise.
    pub filing_due_date: NaiveDate,
}

/// An attachment's record without its bytes (selected by its field names:
/// `AttachmentMeta::as_select()`).
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = return_attachments)]
pub struct AttachmentMeta {
    pub municipality_id: i64,
    pub id: String,
    pub return_id: String,
    pub kind: String,
    pub content_type: String,
    pub size_bytes: i64,
    pub sha256: String,
    pub uploaded_by: String,
    pub uploaded_at: NaiveDateTime,
}

/// An attachment to insert, bytes included.
#[derive(Debug, Insertable)]
#[diesel(table_name = return_attachments)]
pub struct NewAttachment<'a> {
    pub municipality_id: i64,
    pub id: &'a str,
    pub return_id: &'a str,
    pub kind: &'a str,
    pub content_type: &'a str,
    pub size_bytes: i64,
    pub sha256: &'a str,
    pub content: &'a [u8],
    pub uploaded_by: &'a str,
    pub uploaded_at: NaiveDateTime,
}

/// An extension request and its decision.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = return_extensions)]
pub struct ExtensionRow {
    pub municipality_id: i64,
    pub id: String,
    pub payor_id: String,
    pub period: String,
    pub reason: String,
    pub status: String,
    pub requested_by: String,
    pub requested_at: NaiveDateTime,
    pub extended_to: Option<NaiveDate>,
    pub decision_reason: Option<String>,
    pub decided_by: Option<String>,
    pub decided_at: Option<NaiveDateTime>,
}

//! Attachments of returns: bytes in the database, metadata listed apart.

use diesel::prelude::*;

use super::rows::{AttachmentMeta, NewAttachment};
use crate::db::native::Native as _;
use crate::db::{DbConn, schema::return_attachments as a};

/// Store an attachment (its record and bytes, in the caller's transaction).
pub fn insert(conn: &mut DbConn, row: &NewAttachment<'_>) -> QueryResult<()> {
    crate::db::insert_row(conn, a::table, row)
}

/// The attachments of one return, oldest first, without their bytes.
pub fn of_return(
    conn: &mut DbConn,
    municipality_id: i64,
    return_id: &str,
) -> QueryResult<Vec<AttachmentMeta>> {
    a::table
        .filter(a::municipality_id.eq(municipality_id))
        .filter(a::return_id.eq(return_id))
        .order((a::uploaded_at.asc(), a::id.asc()))
        .select(AttachmentMeta::as_select())
        .load(conn)
}

/// The kinds attached to each of these returns: `(return_id, kind)` pairs.
pub fn kinds_of_many(
    conn: &mut DbConn,
    municipality_id: i64,
    return_ids: &[String],
) -> QueryResult<Vec<(String, String)>> {
    a::table
        .filter(a::municipality_id.eq(municipality_id))
        .filter(a::return_id.eq_any(return_ids))
        .select((a::return_id, a::kind))
        .load_native(conn)
}

/// One attachment's record and bytes.
pub fn get(
    conn: &mut DbConn,
    municipality_id: i64,
    return_id: &str,
    id: &str,
) -> QueryResult<Option<(AttachmentMeta, Vec<u8>)>> {
    a::table
        .filter(a::municipality_id.eq(municipality_id))
        .filter(a::return_id.eq(return_id))
        .filter(a::id.eq(id))
        .select((AttachmentMeta::as_select(), a::content))
        .get_result(conn)
        .optional()
}

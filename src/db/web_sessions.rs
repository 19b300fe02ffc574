//! Queries over web portal sessions (`web_sessions`).
//!
//! Contract: a session is found by the digest of its cookie's secret, never by
//! the secret itself (the plaintext is never stored); a live session is one
//! not revoked and not expired. Not tenant-owned: read before any tenant is
//! known, like refresh tokens.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::{DbConn, models::WebSessionRow, schema::web_sessions};
use crate::db::native::Native as _;

/// Insert a session.
pub fn insert(conn: &mut DbConn, row: &WebSessionRow) -> QueryResult<()> {
    super::insert_row(conn, web_sessions::table, row)
}

/// The live session with this digest at `now`.
pub fn live_by_digest(
    conn: &mut DbConn,
    digest: &str,
    now: NaiveDateTime,
) -> QueryResult<Option<WebSessionRow>> {
    web_sessions::table
        .filter(web_sessions::digest.eq(digest))
        .filter(web_sessions::revoked_at.is_null())
        .filter(web_sessions::expires_at.gt(now))
        .get_native(conn)
        .optional()
}

/// Revoke the session with this digest (sign-out); how many rows changed.
pub fn revoke_by_digest(conn: &mut DbConn, digest: &str, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(
        web_sessions::table
            .filter(web_sessions::digest.eq(digest))
            .filter(web_sessions::revoked_at.is_null()),
    )
    .set(web_sessions::revoked_at.eq(Some(now)))
    .execute_native(conn)
}

/// Revoke every live session of a user (a password change).
pub fn revoke_of_user(conn: &mut DbConn, user_id: &str, now: NaiveDateTime) -> QueryResult<usize> {
    diesel::update(
        web_sessions::table
            .filter(web_sessions::user_id.eq(user_id))
            .filter(web_sessions::revoked_at.is_null()),
    )
    .set(web_sessions::revoked_at.eq(Some(now)))
    .execute_native(conn)
}

//! Queries over users, role grants, refresh tokens and API clients.
//!
//! Contract: sign-in and refresh read `users` and `refresh_tokens` (not
//! tenant-owned) before any tenant is known; a caller's grants, disclosures
//! and client record are read with `app.user_id` / `app.client_id` set, which
//! the row-level policies allow for the caller's own rows only. Emails are
//! stored lowercased. Refresh tokens and client secrets are stored as digests.
//! A password hash is replaced only if it is still the one the caller verified.

use chrono::{NaiveDateTime, Utc};
use diesel::prelude::*;

use super::{
    DbConn,
    models::{
        ApiClientRow, DisclosureGrantRow, MunicipalityGrantRow, RefreshTokenRow, UserRow,
        ZoneGrantRow,
    },
    schema::{
        api_clients, disclosure_grants, municipality_grants, refresh_tokens, users, zone_grants,
    },
};
use crate::db::native::Native as _;

/// A fresh UUID text id, version 7: time-ordered (48 bits of milliseconds,
/// then 74 random bits), so a new row's key lands beside the last one's in
/// every index on `id`, instead of on a random page of it as a version 4 id
/// did: fewer pages read and written by each insert, on both backends. Ids
/// are names, never secrets (tokens and codes come from `opaque`); what one
/// shows is when the row was made, to the millisecond, which the record
/// itself states anyway (`created_at`, `filed_on`).
pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// Now, as stored (UTC, naive).
pub fn now() -> NaiveDateTime {
    Utc::now().naive_utc()
}

/// The live (not deleted) user with this email.
pub fn user_by_email(conn: &mut DbConn, email: &str) -> QueryResult<Option<UserRow>> {
    users::table
        .filter(users::email.eq(email.trim().to_lowercase()))
        .filter(users::deleted_at.is_null())
        .get_native(conn)
        .optional()
}

/// The live user with this id.
pub fn user_by_id(conn: &mut DbConn, id: &str) -> QueryResult<Option<UserRow>> {
    users::table
        .filter(users::id.eq(id))
        .filter(users::deleted_at.is_null())
        .get_native(conn)
        .optional()
}

/// The users with these ids (deleted ones included: a list of grants still names them).
pub fn users_by_ids(conn: &mut DbConn, ids: &[String]) -> QueryResult<Vec<UserRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    users::table
        .filter(users::id.eq_any(ids.to_vec()))
        .load_native(conn)
}

/// Insert a user.
pub fn insert_user(conn: &mut DbConn, row: &UserRow) -> QueryResult<()> {
    super::epochs::ACCESS.bump();
    super::insert_row(conn, users::table, row)
}

/// Replace a user's password hash, only if it is still `expected` (a concurrent change
/// wins, and this one reports `false`).
pub fn replace_password_hash(
    conn: &mut DbConn,
    user_id: &str,
    expected: &str,
    new_hash: &str,
) -> QueryResult<bool> {
    super::epochs::ACCESS.bump();
    diesel::update(
        users::table
            .filter(users::id.eq(user_id))
            .filter(users::deleted_at.is_null())
            .filter(users::password_hash.eq(expected)),
    )
    .set(users::password_hash.eq(new_hash))
    .execute_native(conn)
    .map(|n| n == 1)
}

/// Revoke every live refresh token of a user (a password change signs out everywhere).
pub fn revoke_user_refresh_tokens(conn: &mut DbConn, user_id: &str) -> QueryResult<usize> {
    diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::user_id.eq(user_id))
            .filter(refresh_tokens::revoked_at.is_null())
            .filter(refresh_tokens::used_at.is_null()),
    )
    .set(refresh_tokens::revoked_at.eq(Some(now())))
    .execute_native(conn)
}

/// Whether the user holds any active role grant (municipality or zone) or unexpired
/// disclosure at `at` (needs `app.user_id` on PostgreSQL).
pub fn holds_any_access(conn: &mut DbConn, user_id: &str, at: NaiveDateTime) -> QueryResult<bool> {
    use diesel::dsl::{exists, select};
    let municipal = select(exists(
        municipality_grants::table
            .filter(municipality_grants::user_id.eq(user_id))
            .filter(municipality_grants::revoked_at.is_null()),
    ))
    .get_result::<bool>(conn)?;
    if municipal {
        return Ok(true);
    }
    let zone = select(exists(
        zone_grants::table
            .filter(zone_grants::user_id.eq(user_id))
            .filter(zone_grants::revoked_at.is_null()),
    ))
    .get_result::<bool>(conn)?;
    if zone {
        return Ok(true);
    }
    select(exists(
        disclosure_grants::table
            .filter(disclosure_grants::grantee_user_id.eq(user_id))
            .filter(disclosure_grants::revoked_at.is_null())
            .filter(disclosure_grants::expires_at.gt(at)),
    ))
    .get_result::<bool>(conn)
}

/// Mark a user deleted (their tokens stop working at the next request).
pub fn delete_user(conn: &mut DbConn, id: &str) -> QueryResult<usize> {
    super::epochs::ACCESS.bump();
    diesel::update(users::table.filter(users::id.eq(id)))
        .set(users::deleted_at.eq(Some(now())))
        .execute_native(conn)
}

/// The caller's active municipality grants (needs `app.user_id` on PostgreSQL).
pub fn active_municipality_grants(
    conn: &mut DbConn,
    user_id: &str,
) -> QueryResult<Vec<MunicipalityGrantRow>> {
    municipality_grants::table
        .filter(municipality_grants::user_id.eq(user_id))
        .filter(municipality_grants::revoked_at.is_null())
        .load_native(conn)
}

/// The caller's active zone grants (needs `app.user_id` on PostgreSQL).
pub fn active_zone_grants(conn: &mut DbConn, user_id: &str) -> QueryResult<Vec<ZoneGrantRow>> {
    zone_grants::table
        .filter(zone_grants::user_id.eq(user_id))
        .filter(zone_grants::revoked_at.is_null())
        .load_native(conn)
}

/// The caller's active, unexpired disclosure grants (needs `app.user_id`).
pub fn active_disclosures(
    conn: &mut DbConn,
    user_id: &str,
    at: NaiveDateTime,
) -> QueryResult<Vec<DisclosureGrantRow>> {
    disclosure_grants::table
        .filter(disclosure_grants::grantee_user_id.eq(user_id))
        .filter(disclosure_grants::revoked_at.is_null())
        .filter(disclosure_grants::expires_at.gt(at))
        .load_native(conn)
}

/// Insert a municipality grant (needs the tenant set).
pub fn insert_municipality_grant(conn: &mut DbConn, row: &MunicipalityGrantRow) -> QueryResult<()> {
    super::epochs::ACCESS.bump();
    super::insert_row(conn, municipality_grants::table, row)
}

/// Insert a zone grant (needs the zone set).
pub fn insert_zone_grant(conn: &mut DbConn, row: &ZoneGrantRow) -> QueryResult<()> {
    super::epochs::ACCESS.bump();
    super::insert_row(conn, zone_grants::table, row)
}

/// Store a refresh token's digest.
pub fn insert_refresh_token(conn: &mut DbConn, row: &RefreshTokenRow) -> QueryResult<()> {
    super::insert_row(conn, refresh_tokens::table, row)
}

/// The refresh token with this digest.
pub fn refresh_token_by_digest(
    conn: &mut DbConn,
    digest: &str,
) -> QueryResult<Option<RefreshTokenRow>> {
    refresh_tokens::table
        .filter(refresh_tokens::digest.eq(digest))
        .get_native(conn)
        .optional()
}

/// Mark a refresh token spent; returns false when it was already spent (a race lost).
pub fn spend_refresh_token(conn: &mut DbConn, id: &str) -> QueryResult<bool> {
    diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::id.eq(id))
            .filter(refresh_tokens::used_at.is_null()),
    )
    .set(refresh_tokens::used_at.eq(Some(now())))
    .execute_native(conn)
    .map(|n| n == 1)
}

/// Revoke every token of a family (reuse detected, or logout).
pub fn revoke_family(conn: &mut DbConn, family_id: &str) -> QueryResult<usize> {
    diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::family_id.eq(family_id))
            .filter(refresh_tokens::revoked_at.is_null()),
    )
    .set(refresh_tokens::revoked_at.eq(Some(now())))
    .execute_native(conn)
}

/// The API client with this id (needs `app.client_id`, or its tenant, on PostgreSQL).
pub fn api_client(conn: &mut DbConn, id: &str) -> QueryResult<Option<ApiClientRow>> {
    api_clients::table
        .filter(api_clients::id.eq(id))
        .get_native(conn)
        .optional()
}

/// Register an API client.
pub fn insert_api_client(conn: &mut DbConn, row: &ApiClientRow) -> QueryResult<()> {
    super::epochs::ACCESS.bump();
    super::insert_row(conn, api_clients::table, row)
}

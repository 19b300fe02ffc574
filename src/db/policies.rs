//! Queries over policy versions (the ordinance as data, per municipality).
//!
//! Contract: every query takes the municipality id; versions are appended,
//! never updated, so a past period always computes with the version it had.
//! A stored document that no longer parses is an internal error (500), never
//! silently skipped.
//!
//! Parsed histories are cached in memory ([`load`]): a quote or a filing reads
//! the versions (one indexed query) but parses their JSON only when a version was
//! added since, by this process or any other sharing the database, since the
//! cache is checked against the rows just read, never trusted by time.

use std::{
    collections::HashMap,
    sync::{Arc, LazyLock, Mutex},
};

use diesel::prelude::*;

use super::{
    DbConn,
    models::{NewPolicyVersion, PolicyVersionRow},
    schema::policy_versions,
};
use crate::db::native::Native as _;
use crate::{
    domain::{Policy, PolicyHistory},
    error::ApiError,
};

/// Every version of one municipality's policy, oldest first.
pub fn history(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<PolicyVersionRow>> {
    policy_versions::table
        .filter(policy_versions::municipality_id.eq(municipality_id))
        .order(policy_versions::effective_from.asc())
        .load_native(conn)
}

/// A stored version with its parsed policy.
#[derive(Debug, Clone)]
pub struct StoredPolicy {
    /// The row as stored.
    pub row: PolicyVersionRow,
    /// The parsed document.
    pub policy: Policy,
}

/// A parsed history with the rows it was parsed from.
struct Parsed {
    stored: Vec<StoredPolicy>,
    history: PolicyHistory,
}

/// The last history parsed for each municipality id. Keyed by id alone: a hit
/// is used only when the rows read now are the very rows it was parsed from,
/// so another process's new version, or another database with the same ids
/// (the tests open many), is a miss, never a stale answer.
static CACHE: LazyLock<Mutex<HashMap<i64, Arc<Parsed>>>> = LazyLock::new(Mutex::default);

fn same_rows(a: &[StoredPolicy], b: &[PolicyVersionRow]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(s, r)| {
            s.row.effective_from == r.effective_from
                && s.row.created_at == r.created_at
                && s.row.source == r.source
                && s.row.document == r.document
        })
}

/// Every version, parsed, oldest first, and the history built from them (from
/// the cache when the stored rows are those it holds; see the module doc).
pub fn load(
    conn: &mut DbConn,
    municipality_id: i64,
) -> Result<(Vec<StoredPolicy>, PolicyHistory), ApiError> {
    let parsed = cached(conn, municipality_id)?;
    Ok((parsed.stored.clone(), parsed.history.clone()))
}

/// The history alone ([`load`] without copying the stored rows).
pub fn load_history(conn: &mut DbConn, municipality_id: i64) -> Result<PolicyHistory, ApiError> {
    Ok(cached(conn, municipality_id)?.history.clone())
}

fn cached(conn: &mut DbConn, municipality_id: i64) -> Result<Arc<Parsed>, ApiError> {
    // Read once a unit of work (`super::unit`): the versions cannot change
    // under it but by its own insert, which forgets them.
    if let Some(read) = super::unit::policies::<Parsed>(municipality_id) {
        return Ok(read);
    }
    let parsed = cached_read(conn, municipality_id)?;
    super::unit::remember_policies(municipality_id, Arc::clone(&parsed));
    Ok(parsed)
}

fn cached_read(conn: &mut DbConn, municipality_id: i64) -> Result<Arc<Parsed>, ApiError> {
    let rows = history(conn, municipality_id)?;
    let hit = CACHE
        .lock()
        .ok()
        .and_then(|c| c.get(&municipality_id).cloned());
    if let Some(hit) = hit.filter(|p| same_rows(&p.stored, &rows)) {
        return Ok(hit);
    }
    let (stored, history) = parse(rows)?;
    let parsed = Arc::new(Parsed { stored, history });
    if let Ok(mut cache) = CACHE.lock() {
        cache.insert(municipality_id, Arc::clone(&parsed));
    }
    Ok(parsed)
}

/// Parse stored rows into versions and their history.
fn parse(rows: Vec<PolicyVersionRow>) -> Result<(Vec<StoredPolicy>, PolicyHistory), ApiError> {
    let stored = rows
        .into_iter()
        .map(|row| {
            let policy: Policy = serde_json::from_str(&row.document).map_err(|e| {
                ApiError::internal(format!(
                    "stored policy version {} does not parse: {e}",
                    row.effective_from
                ))
            })?;
            Ok(StoredPolicy { row, policy })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let history = PolicyHistory::new(stored.iter().map(|s| s.policy.clone()).collect())
        .map_err(|e| ApiError::internal(format!("stored policy history is invalid: {e}")))?;
    Ok((stored, history))
}

/// Append a version without checks: `usecases::policies::add_version` checks it first
/// (the demo seeds presets with it directly).
pub fn insert(conn: &mut DbConn, new: &NewPolicyVersion<'_>) -> QueryResult<()> {
    super::epochs::PUBLIC_LAW.bump();
    super::unit::forget_policies(new.municipality_id);
    diesel::insert_into(policy_versions::table)
        .values(new)
        .execute_native(conn)
        .map(|_| ())
}

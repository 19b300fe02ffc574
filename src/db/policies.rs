//! Queries over policy versions (the ordinance as data, per municipality).
//!
//! Contract: every query takes the municipality id; versions are appended,
//! never updated, so a past period always computes with the version it had.
//! A stored document that no longer parses is an internal error (500), never
//! silently skipped.

use diesel::prelude::*;

use super::{
    DbConn,
    models::{NewPolicyVersion, PolicyVersionRow},
    schema::policy_versions,
};
use crate::{
    domain::{Policy, PolicyHistory},
    error::ApiError,
};

/// Every version of one municipality's policy, oldest first.
pub fn history(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<PolicyVersionRow>> {
    policy_versions::table
        .filter(policy_versions::municipality_id.eq(municipality_id))
        .order(policy_versions::effective_from.asc())
        .load(conn)
}

/// A stored version with its parsed policy.
#[derive(Debug, Clone)]
pub struct StoredPolicy {
    /// The row as stored.
    pub row: PolicyVersionRow,
    /// The parsed document.
    pub policy: Policy,
}

/// Every version, parsed, oldest first, and the history built from them.
pub fn load(
    conn: &mut DbConn,
    municipality_id: i64,
) -> Result<(Vec<StoredPolicy>, PolicyHistory), ApiError> {
    let stored = history(conn, municipality_id)?
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
    diesel::insert_into(policy_versions::table)
        .values(new)
        .execute(conn)
        .map(|_| ())
}

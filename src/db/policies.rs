//! Queries over policy versions (the ordinance as data, per municipality).
//!
//! Contract: every query takes the municipality id; versions are appended,
//! never updated, so a past period always computes with the version it had.

use diesel::prelude::*;

use super::{
    DbConn,
    models::{NewPolicyVersion, PolicyVersionRow},
    schema::policy_versions,
};

/// Every version of one municipality's policy, oldest first.
pub fn history(conn: &mut DbConn, municipality_id: i64) -> QueryResult<Vec<PolicyVersionRow>> {
    policy_versions::table
        .filter(policy_versions::municipality_id.eq(municipality_id))
        .order(policy_versions::effective_from.asc())
        .load(conn)
}

/// Append a version.
pub fn insert(conn: &mut DbConn, new: &NewPolicyVersion<'_>) -> QueryResult<()> {
    diesel::insert_into(policy_versions::table)
        .values(new)
        .execute(conn)
        .map(|_| ())
}

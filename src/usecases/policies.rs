//! Adding a policy version: one implementation for `POST
//! /v1/municipalities/{m}/policies` and `roomtax policy add`.
//!
//! Contract: a version is stored only when it is a valid policy
//! (`Policy::validate`, including the 8 % cap of Wis. Stat. § 66.0615(1m)(a)),
//! takes effect on a date no other version has and that changes no ended period
//! (`PolicyHistory::can_add`, the forward-only rule), and keeps the zone's one rate
//! when the municipality is a zone member (`usecases::membership::check_policy_rate`,
//! a 409). Runs inside the caller's transaction; versions are appended, never edited.

use chrono::NaiveDate;

use crate::{
    db::{self, DbConn, models::MunicipalityRow, models::NewPolicyVersion, policies::StoredPolicy},
    domain::{Policy, PolicyError},
    error::ApiError,
};

/// Append `policy` to `municipality`'s history on `today`, recording `source`; returns
/// the stored version.
pub fn add_version(
    conn: &mut DbConn,
    municipality: &MunicipalityRow,
    policy: &Policy,
    source: &str,
    today: NaiveDate,
) -> Result<StoredPolicy, ApiError> {
    policy.validate().map_err(|e| match &e {
        PolicyError::Invalid { field, .. } => {
            ApiError::invalid(field, "valid_policy", e.to_string())
        }
        _ => ApiError::invalid("policy", "valid_policy", e.to_string()),
    })?;
    let history = db::policies::load_history(conn, municipality.id)?;
    history
        .can_add(policy.effective_from, today)
        .map_err(|e| match e {
            PolicyError::DuplicateEffectiveDate(date) => {
                ApiError::Conflict(format!("a policy version already takes effect on {date}"))
            }
            other => ApiError::invalid("effective_from", "not_retroactive", other.to_string()),
        })?;
    super::membership::check_policy_rate(conn, municipality, policy)?;
    let document = serde_json::to_string(policy).map_err(ApiError::internal)?;
    db::policies::insert(
        conn,
        &NewPolicyVersion {
            municipality_id: municipality.id,
            effective_from: policy.effective_from,
            document: &document,
            source,
        },
    )?;
    let (stored, _) = db::policies::load(conn, municipality.id)?;
    stored
        .into_iter()
        .find(|s| s.row.effective_from == policy.effective_from)
        .ok_or_else(|| ApiError::internal("recorded version not found"))
}

//! `/v1/municipalities/{municipality}/policies`: the ordinance as data (public law).
//!
//! Contract: reading is public; every version is listed with the date it took
//! effect and where it came from. New versions are added by the municipality's
//! clerk-treasurer (`POST`, or `roomtax policy add`; both call
//! `usecases::policies::add_version`), never by editing a version, only from a
//! date that changes no period that has ended, at most 8 % unless grandfathered
//! (Wis. Stat. § 66.0615(1m)(a)), and with the zone's one rate for a member.

use actix_web::{HttpResponse, get, post, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    caller::{InMunicipality, MunicipalUnit, PublicMunicipality},
    extract::ApiJson,
    idempotency::Reply,
};
use crate::{
    app::AppState,
    db::{self, policies::StoredPolicy},
    domain::Policy,
    error::{ApiError, Problem},
    tenancy::Action,
    usecases,
};

/// One version of a municipality's room-tax policy.
#[derive(Debug, Serialize, ToSchema)]
pub struct PolicyVersion {
    /// The first day this version governs (it governs every period whose last day is on or after it, until the next version).
    pub effective_from: NaiveDate,
    /// Where the version came from: `preset:<municipality>` or the clerk-treasurer who recorded it.
    pub source: String,
    /// When the version was recorded (RFC 3339, UTC).
    pub recorded_at: DateTime<Utc>,
    /// The ordinance as data, every value with its citation.
    pub policy: Policy,
}

impl From<StoredPolicy> for PolicyVersion {
    fn from(s: StoredPolicy) -> Self {
        Self {
            effective_from: s.row.effective_from,
            source: s.row.source,
            recorded_at: s.row.created_at.and_utc(),
            policy: s.policy,
        }
    }
}

/// A municipality's policy history.
#[derive(Debug, Serialize, ToSchema)]
pub struct PolicyHistoryResponse {
    /// Slug of the municipality.
    pub municipality: String,
    /// Every version, oldest first.
    pub items: Vec<PolicyVersion>,
}

/// Every policy version of a municipality, oldest first.
///
/// Public law, no sign-in: the ordinance as data, each value with its citation, every
/// version the municipality has recorded. A computed amount uses the version in force
/// on its period's last day. Not written to the access log.
#[utoipa::path(
    operation_id = "list_policy_versions",
    tag = "policies",
    params(crate::api::params::MunicipalityPath),
    responses(
        (status = 200, description = "The policy history", body = PolicyHistoryResponse)
    )
)]
#[get("/v1/municipalities/{municipality}/policies")]
pub async fn history(
    state: web::Data<AppState>,
    at: PublicMunicipality,
) -> Result<web::Json<PolicyHistoryResponse>, ApiError> {
    at.read(&state, |conn, muni| {
        let (stored, _) = db::policies::load(conn, muni.id)?;
        Ok(web::Json(PolicyHistoryResponse {
            municipality: muni.slug,
            items: stored.into_iter().map(Into::into).collect(),
        }))
    })
    .await
}

/// The policy version in force today.
///
/// Public law, no sign-in. Not written to the access log.
#[utoipa::path(
    operation_id = "get_current_policy",
    tag = "policies",
    params(crate::api::params::MunicipalityPath),
    responses(
        (status = 200, description = "The version in force today", body = PolicyVersion),
        (status = 404, description = "No such municipality, or no version in force yet", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/policies/current")]
pub async fn current(
    state: web::Data<AppState>,
    at: PublicMunicipality,
) -> Result<web::Json<PolicyVersion>, ApiError> {
    let today = state.clock.today();
    at.read(&state, move |conn, muni| {
        let (stored, _) = db::policies::load(conn, muni.id)?;
        stored
            .into_iter()
            .rev()
            .find(|s| s.row.effective_from <= today)
            .map(|s| web::Json(s.into()))
            .ok_or(ApiError::NotFound("policy version in force today"))
    })
    .await
}

/// Record a new policy version (clerk-treasurer).
///
/// Only the municipality's clerk-treasurer (staff, operators and API clients get 403).
/// Forward-only: a version may not change a period that has ended. A rate above 8 % is
/// refused unless the policy records the higher rate in effect on 1994-05-13 (Wis.
/// Stat. § 66.0615(1m)(a)); a zone member's rate must equal the other members' (Wis.
/// Stat. § 66.0615). Not written to the access log.
#[utoipa::path(
    operation_id = "create_policy_version",
    tag = "policies",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath),
    request_body(content = Policy, description = "The whole policy, every value with its citation (the format of GET .../policies/current `policy`)"),
    responses(
        (status = 201, description = "The version was recorded", body = PolicyVersion),
        (status = 409, description = "A version already takes effect on that date, or (rule `zone_same_rate`, Wis. Stat. § 66.0615) the municipality is a zone member and the rate differs from the other members'", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid policy (`errors` names the field; a rate above 8 % needs `grandfathered_rate`, Wis. Stat. § 66.0615(1m)(a)), or an effective date that would change an ended period", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/policies")]
pub async fn create(
    state: web::Data<AppState>,
    at: InMunicipality,
    body: Result<ApiJson<Policy>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let slug = at.slug().to_owned();
    let version = at
        .write_for(
            &state,
            Action::ManagePolicies,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                let ApiJson(policy) = body?;
                let source = ctx.caller.actor().to_string();
                usecases::policies::add_version(conn, &municipality, &policy, &source, today)
            },
        )
        .await
        .map(PolicyVersion::from)?;
    let location = format!("/v1/municipalities/{slug}/policies");
    Ok(Reply::created(location, &version)?.response())
}

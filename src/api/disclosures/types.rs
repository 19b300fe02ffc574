//! Request and response bodies of the disclosure grants.
//!
//! Contract: every field is documented (utoipa turns the docs into the
//! spec); [`DisclosureRequest::terms`] hands the request's fields to
//! `domain::disclosure` for judging; a stored basis the domain does not know
//! is an internal error, never shown.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::admin::{GrantUser, utc},
    domain::disclosure::{DisclosureDraft, DisclosureTerms, in_force},
    error::ApiError,
    usecases::disclosures::DisclosureRecord,
};

use crate::domain::disclosure::DisclosureBasis;

/// A disclosure to record.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DisclosureRequest {
    /// The court order's or legal duty's reference (case number, statute), 1 to 200 characters.
    #[schema(example = "Marquette County Circuit Court 2026CV000123")]
    pub reference: String,
    /// `court_order` or `legal_duty`.
    #[schema(value_type = DisclosureBasis)]
    pub basis: String,
    /// Email of the existing user who may read the payors.
    #[schema(example = "auditor@state.example")]
    pub grantee_email: String,
    /// The payors of this municipality the grant covers: 1 to 100 distinct ids.
    pub payor_ids: Vec<String>,
    /// When the access ends: an RFC 3339 instant in the future, at most 366 days away.
    #[schema(value_type = String, format = DateTime, example = "2027-01-31T23:59:59Z")]
    pub expires_at: String,
}

/// A recorded disclosure grant.
#[derive(Debug, Serialize, ToSchema)]
pub struct Disclosure {
    /// Disclosure grant id.
    pub id: String,
    /// The court order's or legal duty's reference.
    pub reference: String,
    /// `court_order` or `legal_duty`.
    pub basis: DisclosureBasis,
    /// The user who may read the payors.
    pub grantee: GrantUser,
    /// The payors covered, in id order.
    pub payor_ids: Vec<String>,
    /// When the access ends (UTC).
    pub expires_at: DateTime<Utc>,
    /// When it was recorded (UTC).
    pub created_at: DateTime<Utc>,
    /// User id of the clerk-treasurer who recorded it.
    pub created_by: String,
    /// When it was revoked (UTC); null unless revoked.
    pub revoked_at: Option<DateTime<Utc>>,
    /// Whether it is in force now (neither revoked nor expired).
    pub active: bool,
}

/// A page of disclosure grants.
#[derive(Debug, Serialize, ToSchema)]
pub struct DisclosureList {
    /// Grants on this page, newest first.
    pub items: Vec<Disclosure>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// Paging and filter parameters of the list of disclosure grants.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DisclosureListParams {
    /// `true`: only grants in force now (neither revoked nor expired); absent or `false`: all.
    pub active: Option<bool>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

impl DisclosureRequest {
    /// The request's own terms, judged (every fault at once).
    pub fn terms(&self, now: DateTime<Utc>) -> Result<DisclosureTerms, ApiError> {
        Ok(DisclosureTerms::parse(
            DisclosureDraft {
                reference: &self.reference,
                basis: &self.basis,
                grantee_email: &self.grantee_email,
                payor_ids: &self.payor_ids,
                expires_at: &self.expires_at,
            },
            now,
        )?)
    }
}

impl Disclosure {
    pub(super) fn from_record(
        record: DisclosureRecord,
        now: DateTime<Utc>,
    ) -> Result<Self, ApiError> {
        let DisclosureRecord {
            grant: row,
            payor_ids,
            grantee,
        } = record;
        let basis = DisclosureBasis::from_name(&row.basis)
            .ok_or_else(|| ApiError::internal("stored disclosure basis is unknown"))?;
        let expires_at = utc(row.expires_at);
        Ok(Self {
            id: row.id,
            reference: row.reference,
            basis,
            grantee: GrantUser {
                id: grantee.id,
                email: grantee.email,
                display_name: grantee.display_name,
            },
            payor_ids,
            active: in_force(row.revoked_at.is_some(), expires_at, now),
            expires_at,
            created_at: utc(row.created_at),
            created_by: row.created_by,
            revoked_at: row.revoked_at.map(utc),
        })
    }
}

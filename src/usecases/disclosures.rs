//! Disclosure grants: record, list and revoke the court orders and legal
//! duties that let one person read named payors of a municipality.
//!
//! Contract: the caller has authorised `Action::ManageDisclosures` and
//! parsed the request's terms (`domain::disclosure`); these functions run in
//! the tenant's unit of work and ask the database what the terms cannot say
//! alone: the grantee is an existing user (rule `existing_user` on
//! `grantee_email`), every payor exists in this municipality
//! (`payor_exists` on `payor_ids[i]`). All such faults are reported at once.
//! Revoking is idempotent and keeps the record. Nothing here is logged
//! (references and payor ids stay out of application logs).

use chrono::{DateTime, Utc};

use crate::{
    db::{
        self, DbConn,
        models::{DisclosureGrantRow, UserRow},
    },
    domain::{disclosure::DisclosureTerms, registry::Faults},
    error::ApiError,
    tenancy::MunicipalityContext,
};

/// A grant with the payors it covers and its grantee.
#[derive(Debug, Clone)]
pub struct DisclosureRecord {
    /// The grant as stored.
    pub grant: DisclosureGrantRow,
    /// The payors covered, in id order.
    pub payor_ids: Vec<String>,
    /// The grantee.
    pub grantee: UserRow,
}

/// Which grants a list returns: the query's own filters and page.
pub use crate::db::disclosures::DisclosureQuery as ListRequest;

/// Record a grant recorded by user `created_by` at `now`.
pub fn create(
    conn: &mut DbConn,
    municipality_id: i64,
    created_by: String,
    terms: DisclosureTerms,
    now: DateTime<Utc>,
) -> Result<DisclosureRecord, ApiError> {
    let mut faults = Faults::default();
    let grantee = db::identity::user_by_email(conn, &terms.grantee_email)?;
    if grantee.is_none() {
        faults.invalid(
            "grantee_email",
            "existing_user",
            "no user has this email; the grantee needs an account first",
        );
    }
    for (i, id) in terms.payor_ids.iter().enumerate() {
        if db::payors::get(conn, municipality_id, id)?.is_none() {
            faults.invalid(
                &format!("payor_ids[{i}]"),
                "payor_exists",
                "no such payor in this municipality",
            );
        }
    }
    let Some(grantee) = grantee.filter(|_| faults.is_empty()) else {
        return Err(faults.into_invalid().into());
    };
    let grant = DisclosureGrantRow {
        municipality_id,
        id: db::identity::new_id(),
        reference: terms.reference,
        basis: terms.basis.as_str().to_owned(),
        grantee_user_id: grantee.id.clone(),
        expires_at: terms.expires_at.naive_utc(),
        created_at: now.naive_utc(),
        created_by,
        revoked_at: None,
    };
    let mut payor_ids = terms.payor_ids;
    payor_ids.sort();
    db::disclosures::insert(conn, &grant, &payor_ids)?;
    Ok(DisclosureRecord {
        grant,
        payor_ids,
        grantee,
    })
}

/// Record a grant as the caller in `ctx`, who must be a person (the grant
/// names who recorded it): what the API's `POST .../disclosures` and the
/// clerk's disclosures page do once `Action::ManageDisclosures` is allowed.
pub fn record(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    terms: DisclosureTerms,
    now: DateTime<Utc>,
) -> Result<DisclosureRecord, ApiError> {
    let created_by = ctx
        .caller
        .user_id()
        .map(str::to_owned)
        .ok_or_else(|| ApiError::Forbidden("only a person records disclosures".into()))?;
    create(conn, ctx.municipality_id, created_by, terms, now)
}

/// A page of the municipality's grants, newest first.
pub fn list(
    conn: &mut DbConn,
    municipality_id: i64,
    request: &ListRequest,
) -> Result<Vec<DisclosureRecord>, ApiError> {
    let rows = db::disclosures::list(conn, municipality_id, request)?;
    let mut ids: Vec<String> = rows
        .iter()
        .map(|(r, _)| r.grantee_user_id.clone())
        .collect();
    ids.sort();
    ids.dedup();
    let users = db::identity::users_by_ids(conn, &ids)?;
    rows.into_iter()
        .map(|(grant, payor_ids)| {
            let grantee = users
                .iter()
                .find(|u| u.id == grant.grantee_user_id)
                .cloned()
                .ok_or_else(|| {
                    ApiError::internal("a disclosure names a user that does not exist")
                })?;
            Ok(DisclosureRecord {
                grant,
                payor_ids,
                grantee,
            })
        })
        .collect()
}

/// Revoke a grant (404 when it does not exist here; revoking twice is fine).
pub fn revoke(conn: &mut DbConn, municipality_id: i64, id: &str) -> Result<(), ApiError> {
    db::disclosures::get(conn, municipality_id, id)?.ok_or(ApiError::NotFound("disclosure"))?;
    db::disclosures::revoke(conn, municipality_id, id, db::identity::now())?;
    Ok(())
}

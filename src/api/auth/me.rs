//! `GET /v1/me`: who the caller is and what it holds.
//!
//! Contract: one read unit of work (no SQLite write lock): the caller's grants
//! and disclosures, and the slugs of only the tenants they name.

use actix_web::{get, web};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    api::caller::{Authenticated, CallerUnit},
    app::AppState,
    auth::Role,
    db,
    error::ApiError,
    tenancy::{Caller, Subject},
};

/// One role the caller holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct MeGrant {
    /// Grant id.
    pub id: String,
    /// The role.
    pub role: Role,
    /// Slug of the municipality, for municipality-scoped roles.
    pub municipality: Option<String>,
    /// Slug of the zone, for zone-scoped roles.
    pub zone: Option<String>,
    /// The payor an operator acts for.
    pub payor_id: Option<String>,
}

/// A disclosure the caller holds.
#[derive(Debug, Serialize, ToSchema)]
pub struct MeDisclosure {
    /// Disclosure grant id.
    pub id: String,
    /// Slug of the municipality.
    pub municipality: String,
    /// When it stops (RFC 3339, UTC).
    pub expires_at: DateTime<Utc>,
}

/// The caller.
#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    /// `user` or `client`.
    pub kind: &'static str,
    /// User or client id.
    pub id: String,
    /// The user's email (users only).
    pub email: Option<String>,
    /// The client's scopes (clients only).
    pub scopes: Vec<String>,
    /// Role grants (users only).
    pub grants: Vec<MeGrant>,
    /// Active disclosure grants (users only).
    pub disclosures: Vec<MeDisclosure>,
}

/// The caller's identity, role grants and disclosures.
///
/// Any signed-in caller, person or API client: who the token belongs to, the role
/// grants in force and the disclosure grants (court orders, legal duties) it holds. Not
/// written to the access log.
#[utoipa::path(
    operation_id = "get_me",
    tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller", body = Me)
    )
)]
#[get("/v1/me")]
pub async fn me(
    state: web::Data<AppState>,
    caller: Authenticated,
) -> Result<web::Json<Me>, ApiError> {
    caller
        .read(&state, move |CallerUnit { conn, caller }| {
            let (municipality_ids, zone_ids) = tenant_ids(&caller);
            let munis = db::municipalities::slugs_of(conn, &municipality_ids)?;
            let zones = db::zones::slugs_of(conn, &zone_ids)?;
            let muni_slug = |id: i64| munis.iter().find(|(m, _)| *m == id).map(|(_, s)| s.clone());
            let zone_slug = |id: i64| zones.iter().find(|(z, _)| *z == id).map(|(_, s)| s.clone());
            let (kind, id, email, scopes) = match &caller.subject {
                Subject::User { id, email } => ("user", id.clone(), Some(email.clone()), vec![]),
                Subject::Client { id, scopes } => (
                    "client",
                    id.clone(),
                    None,
                    scopes.iter().map(|s| s.as_str().to_owned()).collect(),
                ),
            };
            Ok(web::Json(Me {
                kind,
                id,
                email,
                scopes,
                grants: caller
                    .grants
                    .iter()
                    .map(|g| MeGrant {
                        id: g.id.clone(),
                        role: g.role,
                        municipality: g.tenant.municipality_id().and_then(muni_slug),
                        zone: g.tenant.zone_id().and_then(zone_slug),
                        payor_id: g.payor_id.clone(),
                    })
                    .collect(),
                disclosures: caller
                    .disclosures
                    .iter()
                    .filter_map(|d| {
                        Some(MeDisclosure {
                            id: d.id.clone(),
                            municipality: muni_slug(d.municipality_id)?,
                            expires_at: d.expires_at.and_utc(),
                        })
                    })
                    .collect(),
            }))
        })
        .await
}

/// The municipalities and zones the caller's grants and disclosures name.
fn tenant_ids(caller: &Caller) -> (Vec<i64>, Vec<i64>) {
    let mut municipalities: Vec<i64> = caller
        .grants
        .iter()
        .filter_map(|g| g.tenant.municipality_id())
        .chain(caller.disclosures.iter().map(|d| d.municipality_id))
        .collect();
    let mut zones: Vec<i64> = caller
        .grants
        .iter()
        .filter_map(|g| g.tenant.zone_id())
        .collect();
    municipalities.sort_unstable();
    municipalities.dedup();
    zones.sort_unstable();
    zones.dedup();
    (municipalities, zones)
}

//! `GET /v1/me`: who the caller is and what it holds.
//!
//! Contract: one read unit of work (no SQLite write lock): the caller's grants
//! and disclosures, and the slugs of only the tenants they name. A caller
//! remembered by `api::caller::remembered` whose tenants' slugs were read for
//! it under the same count of access writes is answered without the database
//! (slugs never change once a tenant is created).

use actix_web::{get, web};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    api::caller::{Authenticated, CallerUnit, remembered},
    app::AppState,
    auth::Role,
    db,
    error::ApiError,
    tenancy::{Caller, Subject, Tenant},
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
    let key = caller.remembered_key();
    if let (Some(key), Some(held)) = (&key, caller.remembered())
        && let Some(slugs) = SLUGS.get(key)
        && let Some(me) = me_of(&held, &slugs)
    {
        return Ok(web::Json(me));
    }
    caller
        .read(&state, move |CallerUnit { conn, caller }| {
            let epoch = remembered::epoch();
            let (municipality_ids, zone_ids) = tenant_ids(&caller);
            let slugs = Slugs {
                municipalities: db::municipalities::slugs_of(conn, &municipality_ids)?,
                zones: db::zones::slugs_of(conn, &zone_ids)?,
            };
            let me = me_of(&caller, &slugs).ok_or_else(|| {
                ApiError::internal("a grant or disclosure names a tenant that does not exist")
            })?;
            if let Some(key) = key {
                SLUGS.put(key, &slugs, epoch);
            }
            Ok(web::Json(me))
        })
        .await
}

/// The slugs of the tenants one caller's grants and disclosures name.
#[derive(Debug, Clone)]
struct Slugs {
    municipalities: Vec<(i64, String)>,
    zones: Vec<(i64, String)>,
}

static SLUGS: remembered::Memo<Slugs> = remembered::Memo::new();

/// The answer for `caller`, when `slugs` names every tenant it holds anything in.
fn me_of(caller: &Caller, slugs: &Slugs) -> Option<Me> {
    let find = |list: &[(i64, String)], id: i64| {
        list.iter().find(|(t, _)| *t == id).map(|(_, s)| s.clone())
    };
    let muni_slug = |id: i64| find(&slugs.municipalities, id);
    let zone_slug = |id: i64| find(&slugs.zones, id);
    let (kind, id, email, scopes) = match &caller.subject {
        Subject::User { id, email } => ("user", id.clone(), Some(email.clone()), vec![]),
        Subject::Client { id, scopes } => (
            "client",
            id.clone(),
            None,
            scopes.iter().map(|s| s.as_str().to_owned()).collect(),
        ),
    };
    let mut grants = Vec::with_capacity(caller.grants.len());
    for g in &caller.grants {
        let (municipality, zone) = match g.tenant {
            Tenant::Municipality(m) => (Some(muni_slug(m)?), None),
            Tenant::Zone(z) => (None, Some(zone_slug(z)?)),
        };
        grants.push(MeGrant {
            id: g.id.clone(),
            role: g.role,
            municipality,
            zone,
            payor_id: g.payor_id.clone(),
        });
    }
    let mut disclosures = Vec::with_capacity(caller.disclosures.len());
    for d in &caller.disclosures {
        disclosures.push(MeDisclosure {
            id: d.id.clone(),
            municipality: muni_slug(d.municipality_id)?,
            expires_at: d.expires_at.and_utc(),
        });
    }
    Some(Me {
        kind,
        id,
        email,
        scopes,
        grants,
        disclosures,
    })
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

//! `GET /v1/me`: who the caller is and what it holds.

use actix_web::{get, web};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    app::AppState,
    auth::Role,
    db,
    error::{ApiError, Problem},
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
#[utoipa::path(
    operation_id = "get_me",
    tag = "auth",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller", body = Me),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/me")]
pub async fn me(state: web::Data<AppState>, caller: Caller) -> Result<web::Json<Me>, ApiError> {
    state
        .db
        .run(move |conn| {
            let munis = db::municipalities::list(conn, None, i64::MAX)?;
            let zones = db::zones::list(conn, None, i64::MAX)?;
            let muni_slug = |id: i64| munis.iter().find(|m| m.id == id).map(|m| m.slug.clone());
            let zone_slug = |id: i64| zones.iter().find(|z| z.id == id).map(|z| z.slug.clone());
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
                        municipality: g.municipality_id.and_then(muni_slug),
                        zone: g.zone_id.and_then(zone_slug),
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

//! Extractors that authenticate the caller and put it in its tenant.
//!
//! Contract: [`Caller`] validates the bearer token (EdDSA only, `exp`, `iat`,
//! `iss`, `aud`, `sub` required) and loads the caller's live account, grants
//! and disclosures once per request; a deleted user, a revoked client or any
//! token fault is a 401. [`InMunicipality`] adds the municipality named by the
//! `{municipality}` path segment (by name, never by position) and yields the
//! [`MunicipalityContext`] every confidential handler authorises with;
//! [`InZone`] does the same for the `{zone}` segment ([`ZoneContext`]). No
//! handler reads tenant ids from anywhere else.

use std::{future::Future, pin::Pin};

use actix_web::{FromRequest, HttpRequest, dev::Payload, http::header, web};
use chrono::Utc;

use crate::{
    app::AppState,
    auth::{Role, TokenKind, parse_scopes},
    db::{
        self,
        models::{MunicipalityRow, ZoneRow},
    },
    error::ApiError,
    tenancy::{
        Caller, DbScope, DisclosureRef, GrantRef, MunicipalityContext, Subject, ZoneContext,
    },
};

fn state(req: &HttpRequest) -> Result<web::Data<AppState>, ApiError> {
    req.app_data::<web::Data<AppState>>()
        .cloned()
        .ok_or_else(|| ApiError::internal("AppState missing"))
}

fn bearer(req: &HttpRequest) -> Result<String, ApiError> {
    let value = req.headers().get(header::AUTHORIZATION).ok_or_else(|| {
        ApiError::Unauthorized("send `Authorization: Bearer <access token>`".into())
    })?;
    let text = value
        .to_str()
        .map_err(|_| ApiError::Unauthorized("the Authorization header is not text".into()))?;
    match text.split_once(' ') {
        Some((scheme, token))
            if scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty() =>
        {
            Ok(token.trim().to_owned())
        }
        _ => Err(ApiError::Unauthorized(
            "the Authorization header must use the Bearer scheme".into(),
        )),
    }
}

fn grant_role(role: &str) -> Result<Role, ApiError> {
    Role::parse(role).map_err(|e| ApiError::internal(format!("stored grant: {e}")))
}

/// Load a user's live account, grants and disclosures.
async fn load_user(state: &AppState, user_id: String) -> Result<Caller, ApiError> {
    let scope = DbScope {
        user_id: Some(user_id.clone()),
        ..DbScope::default()
    };
    state
        .db
        .run_scoped(scope, move |conn| {
            let user = db::identity::user_by_id(conn, &user_id)?
                .ok_or_else(|| ApiError::Unauthorized("this account no longer exists".into()))?;
            let mut grants = Vec::new();
            for g in db::identity::active_municipality_grants(conn, &user.id)? {
                grants.push(GrantRef {
                    id: g.id,
                    role: grant_role(&g.role)?,
                    municipality_id: Some(g.municipality_id),
                    zone_id: None,
                    payor_id: g.payor_id,
                });
            }
            for g in db::identity::active_zone_grants(conn, &user.id)? {
                grants.push(GrantRef {
                    id: g.id,
                    role: grant_role(&g.role)?,
                    municipality_id: None,
                    zone_id: Some(g.zone_id),
                    payor_id: None,
                });
            }
            let disclosures: Vec<DisclosureRef> =
                db::identity::active_disclosures(conn, &user.id, db::identity::now())?
                    .into_iter()
                    .map(|d| DisclosureRef {
                        id: d.id,
                        municipality_id: d.municipality_id,
                        expires_at: d.expires_at,
                    })
                    .collect();
            if grants.is_empty() && disclosures.is_empty() {
                // Every grant was revoked: the account can do nothing, so its
                // tokens are refused outright rather than answered with 404s.
                return Err(ApiError::Unauthorized(
                    "this account holds no active role or disclosure".into(),
                ));
            }
            Ok(Caller {
                subject: Subject::User {
                    id: user.id,
                    email: user.email,
                },
                grants,
                disclosures,
                client_tenant: None,
            })
        })
        .await
}

/// Load an API client; the token's scopes are narrowed to what the client still holds.
async fn load_client(
    state: &AppState,
    client_id: String,
    token_scope: Option<String>,
) -> Result<Caller, ApiError> {
    let scope = DbScope {
        client_id: Some(client_id.clone()),
        ..DbScope::default()
    };
    state
        .db
        .run_scoped(scope, move |conn| {
            let client = db::identity::api_client(conn, &client_id)?
                .filter(|c| c.revoked_at.is_none())
                .ok_or_else(|| ApiError::Unauthorized("this API client has been revoked".into()))?;
            let held = parse_scopes(&client.scopes).map_err(ApiError::internal)?;
            let asked = parse_scopes(token_scope.as_deref().unwrap_or(""))
                .map_err(|_| ApiError::Unauthorized("the token carries an unknown scope".into()))?;
            let scopes = asked.into_iter().filter(|s| held.contains(s)).collect();
            Ok(Caller {
                subject: Subject::Client {
                    id: client.id,
                    scopes,
                },
                grants: Vec::new(),
                disclosures: Vec::new(),
                client_tenant: Some((client.municipality_id, client.zone_id)),
            })
        })
        .await
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let token = bearer(req);
        let state = state(req);
        Box::pin(async move {
            let (token, state) = (token?, state?);
            let claims = state
                .auth
                .verifier
                .verify(&token)
                .map_err(|e| ApiError::Unauthorized(e.to_string()))?;
            match claims.kind {
                TokenKind::User => load_user(&state, claims.sub).await,
                TokenKind::Client => load_client(&state, claims.sub, claims.scope).await,
            }
        })
    }
}

/// An authenticated caller inside the municipality named by the path.
#[derive(Debug, Clone)]
pub struct InMunicipality {
    /// What the caller may do here.
    pub ctx: MunicipalityContext,
    /// The municipality.
    pub municipality: MunicipalityRow,
}

impl FromRequest for InMunicipality {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let caller = Caller::from_request(req, payload);
        let slug = req.match_info().get("municipality").map(str::to_owned);
        let state = state(req);
        Box::pin(async move {
            let caller = caller.await?;
            let state = state?;
            let slug = slug.ok_or_else(|| ApiError::internal("route lacks {municipality}"))?;
            let today = Utc::now().date_naive();
            let (municipality, zone_id) = state
                .db
                .run(move |conn| {
                    let m = db::municipalities::require(conn, &slug)?;
                    let zone = db::municipalities::memberships_on(conn, &[m.id], today)?
                        .into_iter()
                        .next()
                        .map(|(membership, _)| membership.zone_id);
                    Ok((m, zone))
                })
                .await?;
            let ctx = caller.in_municipality(municipality.id, zone_id);
            Ok(Self { ctx, municipality })
        })
    }
}

/// An authenticated caller inside the zone named by the path.
#[derive(Debug, Clone)]
pub struct InZone {
    /// What the caller may do here.
    pub ctx: ZoneContext,
    /// The zone.
    pub zone: ZoneRow,
}

impl FromRequest for InZone {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let caller = Caller::from_request(req, payload);
        let slug = req.match_info().get("zone").map(str::to_owned);
        let state = state(req);
        Box::pin(async move {
            let caller = caller.await?;
            let state = state?;
            let slug = slug.ok_or_else(|| ApiError::internal("route lacks {zone}"))?;
            let today = Utc::now().date_naive();
            let (zone, members) = state
                .db
                .run(move |conn| {
                    let zone =
                        db::zones::by_slug(conn, &slug)?.ok_or(ApiError::NotFound("zone"))?;
                    let members: Vec<i64> = db::zones::members(conn, &[zone.id])?
                        .into_iter()
                        .filter(|(m, _)| {
                            m.joined_on <= today && m.left_on.is_none_or(|left| left >= today)
                        })
                        .map(|(m, _)| m.municipality_id)
                        .collect();
                    Ok((zone, members))
                })
                .await?;
            let ctx = caller.in_zone(zone.id, &members);
            Ok(Self { ctx, zone })
        })
    }
}

//! Who is calling, in which tenant, and the request's one unit of work.
//!
//! Contract: the extractors touch no database. [`Authenticated`] verifies the
//! bearer token (EdDSA only, `exp`, `iat`, `iss`, `aud`, `sub` required; any
//! fault is a 401); [`InMunicipality`] and [`InZone`] (one [`InTenant`] over a
//! [`Place`]) add the slug of the `{municipality}` / `{zone}` path segment (by name, never by position). No
//! handler reads tenant ids from anywhere else. [`Public`] is the same
//! segment for a public read: no caller, one read unit of work that finds the
//! tenant (404 when there is none) and hands its row to the handler.
//!
//! The handler then opens exactly one unit of work, `read` or `write` (see
//! `db::Mode`), and everything the request needs runs in that one
//! transaction, in this order: the row-level-security settings for the
//! caller alone; the caller's live account, grants and disclosures (a deleted
//! user, a revoked client or an account with nothing left is a 401; read
//! again once this process changes any of them, and every few seconds for
//! changes by other processes: see `remembered`); the tenant by slug (404 when there is none); the settings widened to the
//! caller in its tenant; and the handler's closure, which receives the
//! connection and the tenant context ([`MunicipalUnit`], [`ZoneUnit`],
//! [`CallerUnit`]) and authorises first through it.

pub mod remembered;

use std::{
    future::{Ready, ready},
    marker::PhantomData,
};

use actix_web::{FromRequest, HttpRequest, dev::Payload, http::header, web};
use chrono::NaiveDate;

use crate::{
    app::AppState,
    auth::{Role, TokenKind, parse_scopes},
    db::{
        self, DbConn, Mode,
        models::{MunicipalityRow, ZoneRow},
    },
    error::ApiError,
    tenancy::{
        Action, Caller, DbScope, DisclosureRef, GrantRef, MunicipalityContext, Subject, Tenant,
        ZoneAction, ZoneContext,
    },
};

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

/// A caller whose access token verified; what it holds is loaded in the unit of work.
#[derive(Debug, Clone)]
pub enum Authenticated {
    /// A person (user id).
    User(String),
    /// A person signed in to the web portal: the digest of the session
    /// cookie's secret (never built from a bearer token; `crate::web` builds
    /// it, and the unit of work finds the live session and its user).
    WebSession(String),
    /// An API client, with the scopes its token asks for.
    Client {
        /// Client id.
        id: String,
        /// The token's `scope` claim.
        scope: Option<String>,
    },
}

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready((|| {
            let token = bearer(req)?;
            let state = req
                .app_data::<web::Data<AppState>>()
                .ok_or_else(|| ApiError::internal("AppState missing"))?;
            let claims = state
                .auth
                .verifier
                .verify(&token)
                .map_err(|e| ApiError::Unauthorized(e.to_string()))?;
            Ok(match claims.kind {
                TokenKind::User => Authenticated::User(claims.sub),
                TokenKind::Client => Authenticated::Client {
                    id: claims.sub,
                    scope: claims.scope,
                },
            })
        })())
    }
}

fn grant_role(role: &str) -> Result<Role, ApiError> {
    Role::parse(role).map_err(|e| ApiError::internal(format!("stored grant: {e}")))
}

impl Authenticated {
    /// Load what the caller holds, with row-level security set to the caller alone.
    fn load(self, conn: &mut DbConn) -> Result<Caller, ApiError> {
        self.load_in(conn, Settings::Always)
    }

    /// [`Self::load`] for a unit about to enter a tenant, which sets its own
    /// row-level-security settings next: the caller-alone settings only when
    /// the caller's rows are read (one round trip fewer for a remembered one).
    fn load_entering(self, conn: &mut DbConn) -> Result<Caller, ApiError> {
        self.load_in(conn, Settings::WhenRead)
    }

    fn load_in(self, conn: &mut DbConn, settings: Settings) -> Result<Caller, ApiError> {
        match self {
            Authenticated::User(user_id) => load_user(conn, user_id, settings),
            Authenticated::WebSession(digest) => {
                let session =
                    db::web_sessions::live_by_digest(conn, &digest, db::identity::now())?
                        .ok_or_else(|| {
                            ApiError::Unauthorized(
                                "this session has ended (signed out, expired or the password changed); sign in again".into(),
                            )
                        })?;
                load_user(conn, session.user_id, settings)
            }
            Authenticated::Client { id, scope } => load_client(conn, id, scope, settings),
        }
    }

    /// The key this caller is remembered under (see `remembered`); none for a
    /// web session, whose row is read on every request.
    pub fn remembered_key(&self) -> Option<String> {
        match self {
            Authenticated::User(id) => Some(remembered::user_key(id)),
            Authenticated::WebSession(_) => None,
            Authenticated::Client { id, scope } => {
                Some(remembered::client_key(id, scope.as_deref()))
            }
        }
    }

    /// What this caller holds, if it is remembered and still fresh, without
    /// the database.
    pub fn remembered(&self) -> Option<Caller> {
        remembered::get(&self.remembered_key()?, db::identity::now())
    }

    /// One read unit of work for a request outside any tenant (`GET /v1/me`).
    pub async fn read<T, F>(self, state: &AppState, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(CallerUnit<'c>) -> Result<T, ApiError> + Send + 'static,
    {
        state
            .db
            .run_in(Mode::Read, move |conn| {
                let caller = self.load(conn)?;
                work(CallerUnit { conn, caller })
            })
            .await
    }
}

/// The unit of work of a request outside any tenant.
pub struct CallerUnit<'c> {
    /// The open transaction (row-level security: the caller alone).
    pub conn: &'c mut DbConn,
    /// The caller and what it holds.
    pub caller: Caller,
}

/// When [`load_user`] and [`load_client`] set the caller-alone row-level
/// security settings.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Settings {
    /// Always: the unit goes on as the caller alone (`CallerUnit`).
    Always,
    /// Only before reading the caller's rows: the unit enters a tenant next,
    /// whose settings replace these.
    WhenRead,
}

/// A person: remembered (see `remembered`) or read, with row-level security
/// set to the person alone as `settings` says.
fn load_user(conn: &mut DbConn, user_id: String, settings: Settings) -> Result<Caller, ApiError> {
    let key = remembered::user_key(&user_id);
    let hit = remembered::get(&key, db::identity::now());
    if hit.is_none() || settings == Settings::Always {
        db::rls::apply(conn, &DbScope::user(&user_id))?;
    }
    if let Some(caller) = hit {
        return Ok(caller);
    }
    let epoch = remembered::epoch();
    let caller = read_user(conn, user_id)?;
    remembered::put(key, &caller, epoch);
    Ok(caller)
}

fn read_user(conn: &mut DbConn, user_id: String) -> Result<Caller, ApiError> {
    let user = db::identity::user_by_id(conn, &user_id)?
        .ok_or_else(|| ApiError::Unauthorized("this account no longer exists".into()))?;
    let mut grants = Vec::new();
    for g in db::identity::active_municipality_grants(conn, &user.id)? {
        grants.push(GrantRef {
            id: g.id,
            role: grant_role(&g.role)?,
            tenant: Tenant::Municipality(g.municipality_id),
            payor_id: g.payor_id,
        });
    }
    for g in db::identity::active_zone_grants(conn, &user.id)? {
        grants.push(GrantRef {
            id: g.id,
            role: grant_role(&g.role)?,
            tenant: Tenant::Zone(g.zone_id),
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
        // Every grant was revoked: the account can do nothing, so its tokens
        // are refused outright rather than answered with 404s.
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
}

/// An API client; the token's scopes are narrowed to what the client still holds.
fn load_client(
    conn: &mut DbConn,
    client_id: String,
    token_scope: Option<String>,
    settings: Settings,
) -> Result<Caller, ApiError> {
    let key = remembered::client_key(&client_id, token_scope.as_deref());
    let hit = remembered::get(&key, db::identity::now());
    if hit.is_none() || settings == Settings::Always {
        db::rls::apply(conn, &DbScope::client(&client_id))?;
    }
    if let Some(caller) = hit {
        return Ok(caller);
    }
    let epoch = remembered::epoch();
    let caller = read_client(conn, client_id, token_scope)?;
    remembered::put(key, &caller, epoch);
    Ok(caller)
}

fn read_client(
    conn: &mut DbConn,
    client_id: String,
    token_scope: Option<String>,
) -> Result<Caller, ApiError> {
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
        client_tenant: Tenant::from_columns(client.municipality_id, client.zone_id),
    })
}

/// The path segment `name`, or a 500 for a route registered without it.
fn segment(req: &HttpRequest, name: &'static str) -> Result<String, ApiError> {
    req.match_info()
        .get(name)
        .map(str::to_owned)
        .ok_or_else(|| ApiError::internal(format!("route lacks {{{name}}}")))
}

/// A kind of tenant a request can run inside: the path segment that names it
/// and how the unit of work enters it. [`Municipality`] and [`Zone`] are the
/// two; [`InTenant`] is the one extractor and unit-of-work core over both.
pub trait Place: Send + 'static {
    /// The path segment holding the tenant's slug (read by name).
    const SEGMENT: &'static str;
    /// What a caller may be allowed to do in this kind of tenant.
    type Action: Copy + Send + 'static;
    /// The tenant's stored row.
    type Row: Send + 'static;
    /// What the handler's closure receives.
    type Unit<'c>;
    /// The tenant with this slug (404 when there is none).
    fn find(conn: &mut DbConn, slug: &str) -> Result<Self::Row, ApiError>;
    /// Inside the open transaction, with row-level security set to the caller
    /// alone: find the tenant by `slug` (404 when there is none), build the
    /// caller's context in it, widen row-level security to that context.
    fn enter<'c>(
        conn: &'c mut DbConn,
        caller: Caller,
        slug: &str,
        today: NaiveDate,
    ) -> Result<Self::Unit<'c>, ApiError>;
    /// Authorise `action` in the unit: 404 without a relation to the tenant,
    /// 403 with one.
    fn require(unit: &Self::Unit<'_>, action: Self::Action) -> Result<(), ApiError>;
    /// Keep only what tenant-generic work needs of an authorised unit.
    fn authorised<'c>(unit: Self::Unit<'c>) -> Authorised<'c>;
}

/// A unit of work whose caller was allowed one action in its tenant: what
/// code written once for both kinds of tenant receives.
pub struct Authorised<'c> {
    /// The open transaction (row-level security: the caller in this tenant).
    pub conn: &'c mut DbConn,
    /// The tenant.
    pub tenant: Tenant,
    /// The caller.
    pub caller: Caller,
}

/// An authenticated caller inside the tenant named by the path.
#[derive(Debug, Clone)]
pub struct InTenant<P> {
    caller: Authenticated,
    slug: String,
    place: PhantomData<fn() -> P>,
}

/// An authenticated caller inside the municipality named by the path.
pub type InMunicipality = InTenant<Municipality>;

/// An authenticated caller inside the zone named by the path.
pub type InZone = InTenant<Zone>;

impl<P: Place> FromRequest for InTenant<P> {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        ready(
            Authenticated::from_request(req, payload)
                .into_inner()
                .and_then(|caller| {
                    Ok(Self {
                        caller,
                        slug: segment(req, P::SEGMENT)?,
                        place: PhantomData,
                    })
                }),
        )
    }
}

impl<P: Place> InTenant<P> {
    /// `caller` inside the tenant with this slug (the web portal names the
    /// tenant in its own paths; the API's extractor reads `P::SEGMENT`).
    pub fn new(caller: Authenticated, slug: String) -> Self {
        Self {
            caller,
            slug,
            place: PhantomData,
        }
    }

    /// The tenant's slug, as the path gave it (equal to the stored slug once
    /// the unit of work has found the tenant).
    pub fn slug(&self) -> &str {
        &self.slug
    }

    /// One read unit of work here (no SQLite write lock; READ ONLY on PostgreSQL).
    pub async fn read<T, F>(self, state: &AppState, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(P::Unit<'c>) -> Result<T, ApiError> + Send + 'static,
    {
        self.unit(state, Mode::Read, work).await
    }

    /// One write unit of work here.
    pub async fn write<T, F>(self, state: &AppState, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(P::Unit<'c>) -> Result<T, ApiError> + Send + 'static,
    {
        self.unit(state, Mode::Write, work).await
    }

    /// One read unit of work here whose caller must be allowed `action`
    /// before `work` gets the unit.
    pub async fn read_for<T, F>(
        self,
        state: &AppState,
        action: P::Action,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(P::Unit<'c>) -> Result<T, ApiError> + Send + 'static,
    {
        self.unit_for(state, Mode::Read, action, work).await
    }

    /// One write unit of work here whose caller must be allowed `action`
    /// before `work` gets the unit.
    pub async fn write_for<T, F>(
        self,
        state: &AppState,
        action: P::Action,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(P::Unit<'c>) -> Result<T, ApiError> + Send + 'static,
    {
        self.unit_for(state, Mode::Write, action, work).await
    }

    /// [`Self::read_for`] for tenant-generic work: `work` gets the [`Authorised`] parts.
    pub async fn read_as<T, F>(
        self,
        state: &AppState,
        action: P::Action,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(Authorised<'c>) -> Result<T, ApiError> + Send + 'static,
    {
        self.read_for(state, action, move |unit| work(P::authorised(unit)))
            .await
    }

    /// [`Self::write_for`] for tenant-generic work: `work` gets the [`Authorised`] parts.
    pub async fn write_as<T, F>(
        self,
        state: &AppState,
        action: P::Action,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(Authorised<'c>) -> Result<T, ApiError> + Send + 'static,
    {
        self.write_for(state, action, move |unit| work(P::authorised(unit)))
            .await
    }

    async fn unit_for<T, F>(
        self,
        state: &AppState,
        mode: Mode,
        action: P::Action,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(P::Unit<'c>) -> Result<T, ApiError> + Send + 'static,
    {
        self.unit(state, mode, move |unit| {
            P::require(&unit, action)?;
            work(unit)
        })
        .await
    }

    /// One unit of work here in `mode` (what [`Self::read`] and
    /// [`Self::write`] open).
    pub(crate) async fn unit<T, F>(
        self,
        state: &AppState,
        mode: Mode,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: for<'c> FnOnce(P::Unit<'c>) -> Result<T, ApiError> + Send + 'static,
    {
        let Self { caller, slug, .. } = self;
        let today = state.clock.today();
        state
            .db
            .run_in(mode, move |conn| {
                let caller = caller.load_entering(conn)?;
                work(P::enter(conn, caller, &slug, today)?)
            })
            .await
    }
}

/// A public request about the tenant named by the path (no caller, no grants:
/// public law and public registry data only).
#[derive(Debug, Clone)]
pub struct Public<P> {
    slug: String,
    place: PhantomData<fn() -> P>,
}

/// A public request about the municipality named by `{municipality}`.
pub type PublicMunicipality = Public<Municipality>;

/// A public request about the zone named by `{zone}`.
pub type PublicZone = Public<Zone>;

impl<P: Place> FromRequest for Public<P> {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(segment(req, P::SEGMENT).map(|slug| Self {
            slug,
            place: PhantomData,
        }))
    }
}

impl<P: Place> Public<P> {
    /// The slug of the tenant the request is about (not yet looked up).
    pub fn slug(&self) -> &str {
        &self.slug
    }

    /// A public request about the tenant with this slug.
    pub fn new(slug: String) -> Self {
        Self {
            slug,
            place: PhantomData,
        }
    }

    /// One read unit of work (no row-level security widening: public rows
    /// only) about the tenant: `work` gets the connection and the tenant's
    /// row; no such tenant is a 404 before `work` runs.
    pub async fn read<T, F>(self, state: &AppState, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn, P::Row) -> Result<T, ApiError> + Send + 'static,
    {
        let slug = self.slug;
        state
            .db
            .read(move |conn| {
                let row = P::find(conn, &slug)?;
                work(conn, row)
            })
            .await
    }
}

/// The municipality named by `{municipality}`.
#[derive(Debug, Clone, Copy)]
pub enum Municipality {}

/// The unit of work of a request inside a municipality.
pub struct MunicipalUnit<'c> {
    /// The open transaction (row-level security: the caller in this municipality).
    pub conn: &'c mut DbConn,
    /// What the caller may do here: authorise with it first.
    pub ctx: MunicipalityContext,
    /// The municipality.
    pub municipality: MunicipalityRow,
}

impl Place for Municipality {
    const SEGMENT: &'static str = "municipality";
    type Action = Action;
    type Row = MunicipalityRow;
    type Unit<'c> = MunicipalUnit<'c>;

    fn find(conn: &mut DbConn, slug: &str) -> Result<MunicipalityRow, ApiError> {
        db::municipalities::require(conn, slug)
    }

    fn enter<'c>(
        conn: &'c mut DbConn,
        caller: Caller,
        slug: &str,
        today: NaiveDate,
    ) -> Result<MunicipalUnit<'c>, ApiError> {
        let (municipality, zone_id) = db::municipalities::by_slug_with_zone_on(conn, slug, today)?
            .ok_or(ApiError::NotFound("municipality"))?;
        let ctx = caller.in_municipality(municipality.id, zone_id);
        db::rls::apply(conn, &ctx.db_scope())?;
        Ok(MunicipalUnit {
            conn,
            ctx,
            municipality,
        })
    }

    fn require(unit: &MunicipalUnit<'_>, action: Action) -> Result<(), ApiError> {
        unit.ctx.require(action)
    }

    fn authorised<'c>(unit: Self::Unit<'c>) -> Authorised<'c> {
        Authorised {
            conn: unit.conn,
            tenant: unit.ctx.tenant(),
            caller: unit.ctx.caller,
        }
    }
}

/// The zone named by `{zone}`.
#[derive(Debug, Clone, Copy)]
pub enum Zone {}

/// The unit of work of a request inside a zone.
pub struct ZoneUnit<'c> {
    /// The open transaction (row-level security: the caller in this zone).
    pub conn: &'c mut DbConn,
    /// What the caller may do here: authorise with it first.
    pub ctx: ZoneContext,
    /// The zone.
    pub zone: ZoneRow,
}

impl Place for Zone {
    const SEGMENT: &'static str = "zone";
    type Action = ZoneAction;
    type Row = ZoneRow;
    type Unit<'c> = ZoneUnit<'c>;

    fn find(conn: &mut DbConn, slug: &str) -> Result<ZoneRow, ApiError> {
        db::zones::by_slug(conn, slug)?.ok_or(ApiError::NotFound("zone"))
    }

    fn enter<'c>(
        conn: &'c mut DbConn,
        caller: Caller,
        slug: &str,
        today: NaiveDate,
    ) -> Result<ZoneUnit<'c>, ApiError> {
        let zone = Self::find(conn, slug)?;
        let members: Vec<i64> = db::zones::members(conn, &[zone.id])?
            .into_iter()
            .filter(|(m, _)| m.joined_on <= today && m.left_on.is_none_or(|l| l >= today))
            .map(|(m, _)| m.municipality_id)
            .collect();
        let ctx = caller.in_zone(zone.id, &members);
        db::rls::apply(conn, &ctx.db_scope())?;
        Ok(ZoneUnit { conn, ctx, zone })
    }

    fn require(unit: &ZoneUnit<'_>, action: ZoneAction) -> Result<(), ApiError> {
        unit.ctx.require(action)
    }

    fn authorised<'c>(unit: Self::Unit<'c>) -> Authorised<'c> {
        Authorised {
            conn: unit.conn,
            tenant: unit.ctx.tenant(),
            caller: unit.ctx.caller,
        }
    }
}

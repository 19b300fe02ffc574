//! `Idempotency-Key` on creating `POST`s (IETF draft-ietf-httpapi-idempotency-key-header,
//! DESIGN §4): one mechanism every creating operation in a municipality adopts.
//!
//! Contract:
//! - the header is optional; without it the operation runs as before, in one unit of
//!   work. With it, a retry with the same key and the same request (method, path with
//!   query, canonical body: see `domain::idempotency`) gets the first response again:
//!   the same status, body, `Location` and `ETag`; the same key with another request is
//!   422 (`Idempotency-Key`, `idempotency_key_reused`); a retry while the first is still
//!   processed is 409 (`Idempotency-Key`, `idempotency_key_in_progress`); a malformed
//!   value is 400 (`invalid-parameter` naming `Idempotency-Key`). Keys are scoped to the
//!   caller (its actor, `user:ID` / `client:ID`) and the municipality, kept 24 hours
//!   (`RETENTION_HOURS`), then forgotten: the key is new again;
//! - authorisation comes first: the caller is authorised (the operation's own check)
//!   before the key is judged or anything is stored, so an outsider gets its 404 and
//!   leaves no row; a request whose body is refused stores nothing either (its error
//!   comes from the work, as without a key);
//! - one transaction per request: the key is held (a PostgreSQL advisory lock for
//!   the transaction, so a concurrent retry is the 409 at once; SQLite runs one writer
//!   at a time), claimed, the work done and its response stored (`done`) in the same
//!   unit, so a stored response always describes committed work, work that fails
//!   takes its claim with it (a retry may try again) and a crash leaves none behind;
//! - lease: a claim still `in_progress` after the lease (`idempotency_lease_secs`,
//!   default `LEASE_MINUTES` = 5 minutes) was left by a version of the service that
//!   claimed in a unit of its own and died before the work's; the next request with
//!   the key takes it over;
//! - a replayed response is logged with its status only, never its body or the key
//!   (both may be confidential); since it shows the record again, it is written to the
//!   access log as a read (record type `replayed_response`, the record's path as id).
//!
//! Adopting it in a handler (`POST` under `/v1/municipalities/{municipality}/...`):
//! 1. take `idempotency: Idempotency` among the extractors (or, for a JSON body,
//!    [`Creating`] in place of the application, the caller, the key and the body,
//!    and [`Creating::run`] in place of step 2);
//! 2. replace `here.write(&state, work)` (and the response shaping after it) with
//!    `idempotency.write_json(&state, here, body, authorise, work)` (`work` gets the
//!    unit and the parsed body) or `idempotency.write(&state, here, json_body(&body),
//!    authorise, work)`, where
//!    `authorise` is the operation's check on the context (`|ctx| ctx.return_filer(&p)`,
//!    `|ctx| ctx.require(Action::…)`, …; it runs before anything else in each unit) and
//!    `work` no longer authorises, and returns a [`Reply`] built inside the unit
//!    (`Reply::created(location, &body)?`, `.with_etag(…)` when the response has one);
//!    a raw (non-JSON) body passes `Some(raw_body(content_type, &bytes))` instead of
//!    `json_body(&body)` (the JSON body type must derive `Serialize`);
//! 3. list [`KeyHeader`] in the operation's `params(...)` and mention the 400/409/422 in
//!    its responses.

use std::{future::Future, pin::Pin};

use actix_web::{
    FromRequest, HttpRequest, HttpResponse,
    dev::Payload,
    http::{StatusCode, header},
    web,
};
use chrono::NaiveDate;
use serde::{Serialize, de::DeserializeOwned};
use utoipa::IntoParams;

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiJson,
    },
    app::AppState,
    db::idempotency::{Claim, StoredResponse},
    domain::{
        DomainError,
        idempotency::{Fingerprint, HEADER, IdempotencyKey, canonical_json},
    },
    error::ApiError,
    tenancy::{Action, MunicipalityContext},
    usecases::idempotency::{self as usecase, Begun},
};

/// The `Idempotency-Key` header, documented once (never extracted: [`Idempotency`] is).
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct KeyHeader {
    /// A key unique to this request, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"` (an RFC 8941
    /// string, or bare): a retry with the same key and body gets the first response (status,
    /// body, `Location`, `ETag`); the same key with another body is 422, a retry while the first
    /// is processed 409, a malformed key 400. Scoped to the caller and the municipality, kept 24
    /// hours.
    #[param(rename = "Idempotency-Key", value_type = String, required = false, max_length = 255)]
    idempotency_key: Option<String>,
}

/// The request's key (judged only after authorisation) and what its fingerprint covers.
#[derive(Debug)]
pub struct Idempotency {
    key: Option<Result<IdempotencyKey, ApiError>>,
    method: String,
    target: String,
}

fn malformed(err: DomainError) -> ApiError {
    let message = match err {
        DomainError::Invalid { message, .. } => message,
        other => other.to_string(),
    };
    ApiError::InvalidParameter {
        name: HEADER.into(),
        message,
    }
}

impl FromRequest for Idempotency {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let mut values = req.headers().get_all(HEADER);
        let key = values.next().map(|value| {
            if values.next().is_some() {
                return Err(ApiError::InvalidParameter {
                    name: HEADER.into(),
                    message: "send the header once".into(),
                });
            }
            let text = value.to_str().map_err(|_| ApiError::InvalidParameter {
                name: HEADER.into(),
                message: "must be printable ASCII".into(),
            })?;
            IdempotencyKey::parse(text).map_err(malformed)
        });
        let target = req
            .uri()
            .path_and_query()
            .map_or_else(|| req.path().to_owned(), |pq| pq.as_str().to_owned());
        std::future::ready(Ok(Idempotency {
            key,
            method: req.method().as_str().to_owned(),
            target,
        }))
    }
}

impl Idempotency {
    /// The key a web form carries in a hidden field (the portal's pages post
    /// forms, not headers) for a `POST` to `target`: the same mechanism as the
    /// header, judged the same way after authorisation: a double submit of one
    /// rendered form does the work once and gets the first answer again.
    /// `None`: as without a header.
    pub fn from_form(key: Option<&str>, target: &str) -> Self {
        Idempotency {
            key: key.map(|k| IdempotencyKey::parse(k).map_err(malformed)),
            method: "POST".to_owned(),
            target: target.to_owned(),
        }
    }
}

/// The fingerprinted bytes of a JSON body that parsed (`None` when it was refused:
/// such a request is never claimed). Canonical: key order and spacing do not count.
pub fn json_body<T: Serialize>(body: &Result<ApiJson<T>, ApiError>) -> Option<Vec<u8>> {
    fingerprint(&body.as_ref().ok()?.0)
}

/// The fingerprinted bytes of a body already parsed (a web form's, built as
/// the API's JSON body): its canonical JSON, as [`json_body`] takes it.
pub fn fingerprint<T: Serialize>(body: &T) -> Option<Vec<u8>> {
    let value = serde_json::to_value(body).ok()?;
    Some(canonical_json(&value))
}

/// The fingerprinted bytes of a raw body: its declared `Content-Type` and its bytes.
pub fn raw_body(content_type: &str, bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 + content_type.len() + bytes.len());
    out.extend_from_slice(&(content_type.len() as u64).to_be_bytes());
    out.extend_from_slice(content_type.as_bytes());
    out.extend_from_slice(bytes);
    out
}

/// A successful answer of a creating operation, as it is sent and stored: a
/// keyed operation's by [`Idempotency::write`], any other's sent as it is
/// ([`Reply::response`]), so every `201` with a `Location` is built one way.
#[derive(Debug, Clone)]
pub struct Reply {
    status: StatusCode,
    location: Option<String>,
    etag: Option<String>,
    body: String,
}

impl Reply {
    /// 201 Created at `location` with a JSON `body`.
    pub fn created(location: String, body: &impl Serialize) -> Result<Reply, ApiError> {
        Ok(Reply {
            status: StatusCode::CREATED,
            location: Some(location),
            etag: None,
            body: serde_json::to_string(body).map_err(ApiError::internal)?,
        })
    }

    /// 200 OK at `location` with a JSON `body`: a creating request that found
    /// what it would create already on file (a remittance submitted again with
    /// the same figures).
    pub fn ok(location: String, body: &impl Serialize) -> Result<Reply, ApiError> {
        Ok(Reply {
            status: StatusCode::OK,
            location: Some(location),
            etag: None,
            body: serde_json::to_string(body).map_err(ApiError::internal)?,
        })
    }

    /// The same answer with an `ETag`.
    pub fn with_etag(self, etag: String) -> Reply {
        Reply {
            etag: Some(etag),
            ..self
        }
    }

    fn stored(&self) -> StoredResponse {
        StoredResponse {
            status: i32::from(self.status.as_u16()),
            location: self.location.clone(),
            etag: self.etag.clone(),
            body: self.body.clone(),
        }
    }

    fn replayed(stored: StoredResponse) -> Result<Reply, ApiError> {
        let status = u16::try_from(stored.status)
            .ok()
            .and_then(|s| StatusCode::from_u16(s).ok())
            .ok_or_else(|| ApiError::internal("idempotency_keys: a stored status out of range"))?;
        Ok(Reply {
            status,
            location: stored.location,
            etag: stored.etag,
            body: stored.body,
        })
    }

    /// The answer as sent: the status, `Location` and `ETag` when set, and
    /// the JSON body (`application/json`).
    pub fn response(self) -> HttpResponse {
        let mut builder = HttpResponse::build(self.status);
        if let Some(location) = self.location {
            builder.insert_header((header::LOCATION, location));
        }
        if let Some(etag) = self.etag {
            builder.insert_header((header::ETAG, etag));
        }
        builder.content_type("application/json").body(self.body)
    }
}

impl Idempotency {
    /// Run a creating operation in `here` (see the module doc): `authorise` is the
    /// operation's check, run first in every unit; `work` does the operation in the
    /// request's unit of work and returns its [`Reply`]; `body` is [`json_body`] or
    /// [`raw_body`] of the request's body.
    pub async fn write<A, R, W>(
        self,
        state: &AppState,
        here: InMunicipality,
        body: Option<Vec<u8>>,
        authorise: A,
        work: W,
    ) -> Result<HttpResponse, ApiError>
    where
        A: Fn(&MunicipalityContext) -> Result<R, ApiError> + Clone + Send + 'static,
        W: for<'c> FnOnce(MunicipalUnit<'c>) -> Result<Reply, ApiError> + Send + 'static,
    {
        let keyed = self.key.map(|key| Keyed {
            key,
            fingerprint: body.map(|b| Fingerprint::of(&self.method, &self.target, &b)),
            now: state.clock.now(),
            lease: state.idempotency_lease,
            target: self.target.clone(),
        });
        in_one_unit(state, here, keyed, authorise, work).await
    }
}

/// The first response again, for a retry.
fn replayed(stored: StoredResponse) -> Result<HttpResponse, ApiError> {
    tracing::info!(
        status = stored.status,
        "answered an idempotent retry with its first response"
    );
    Ok(Reply::replayed(stored)?.response())
}

/// A keyed request's key, fingerprint and clock.
struct Keyed {
    key: Result<IdempotencyKey, ApiError>,
    fingerprint: Option<Fingerprint>,
    now: chrono::DateTime<chrono::Utc>,
    lease: chrono::TimeDelta,
    target: String,
}

impl Keyed {
    /// In `unit`, once authorised: the key judged (a malformed one is the
    /// 400), then claimed or its first response found, a replay logged as the
    /// read it is. `None` for a body that does not parse: nothing is claimed
    /// and the work refuses it.
    fn begin(self, unit: &mut MunicipalUnit<'_>) -> Result<Option<Begun>, ApiError> {
        let key = self.key?;
        let Some(fingerprint) = self.fingerprint else {
            return Ok(None);
        };
        let actor = unit.ctx.caller.actor().to_string();
        let begun = usecase::begin(
            unit.conn,
            unit.ctx.municipality_id,
            &actor,
            &key,
            &fingerprint,
            self.now,
            self.lease,
        )?;
        if let Begun::Replay(stored) = &begun {
            // A replay shows the confidential record again: it is a read.
            let record = stored.location.as_deref().unwrap_or(&self.target);
            log_replay(unit.conn, &unit.ctx, record)?;
        }
        Ok(Some(begun))
    }
}

/// The request's one unit of work: authorised, then with a key (`keyed`)
/// the key held and claimed or its first response found, the work, and its
/// response stored as the claim's. A concurrent request with the key gets
/// the 409 at once (`db::idempotency::hold`); work that fails rolls its claim
/// back with it, so a retry may try again; a crash leaves no claim behind.
/// (Until 2026-12-03 the claim committed in a unit of its own first: one
/// more transaction, five more round trips a filing on PostgreSQL, and a
/// claim a crash left in progress kept its key for the lease.)
async fn in_one_unit<A, R, W>(
    state: &AppState,
    here: InMunicipality,
    keyed: Option<Keyed>,
    authorise: A,
    work: W,
) -> Result<HttpResponse, ApiError>
where
    A: Fn(&MunicipalityContext) -> Result<R, ApiError> + Send + 'static,
    W: for<'c> FnOnce(MunicipalUnit<'c>) -> Result<Reply, ApiError> + Send + 'static,
{
    enum Outcome {
        Done(Reply),
        Replay(StoredResponse),
    }
    let outcome = here
        .write(state, move |mut unit| {
            authorise(&unit.ctx)?;
            let begun = match keyed {
                Some(keyed) => keyed.begin(&mut unit)?,
                None => None,
            };
            let claim = match begun {
                Some(Begun::Replay(stored)) => return Ok(Outcome::Replay(stored)),
                Some(Begun::Claimed(claim)) => Some(claim),
                None => None,
            };
            work_and_finish(unit, claim.as_ref(), work).map(Outcome::Done)
        })
        .await?;
    match outcome {
        Outcome::Done(reply) => Ok(reply.response()),
        Outcome::Replay(stored) => replayed(stored),
    }
}

impl Idempotency {
    /// [`Self::write`] for an operation with a JSON body, the common case: the body
    /// is fingerprinted with [`json_body`], and `work` gets it parsed, in the unit,
    /// once `authorise` has passed (a refused body is the work's error, after
    /// authorisation, as without this helper).
    pub async fn write_json<B, A, R, W>(
        self,
        state: &AppState,
        here: InMunicipality,
        body: Result<ApiJson<B>, ApiError>,
        authorise: A,
        work: W,
    ) -> Result<HttpResponse, ApiError>
    where
        B: Serialize + Send + 'static,
        A: Fn(&MunicipalityContext) -> Result<R, ApiError> + Clone + Send + 'static,
        W: for<'c> FnOnce(MunicipalUnit<'c>, B) -> Result<Reply, ApiError> + Send + 'static,
    {
        let fingerprinted = json_body(&body);
        self.write(state, here, fingerprinted, authorise, move |unit| {
            work(unit, body?.0)
        })
        .await
    }
}

/// The `authorise` of a write whose caller needs one action in the
/// municipality: `ctx.require(action)` (404 without a relation to it, 403
/// with one), cloned into each unit the write runs.
pub fn allowed_to(
    action: Action,
) -> impl Fn(&MunicipalityContext) -> Result<(), ApiError> + Clone + Send + 'static {
    move |ctx| ctx.require(action)
}

/// A creating `POST` in a municipality with a JSON body, its extractors at once: the
/// application, the caller in the municipality named by the path, the
/// `Idempotency-Key` and the body (judged only once authorised, in [`Creating::run`]).
pub struct Creating<B> {
    state: web::Data<AppState>,
    here: InMunicipality,
    idempotency: Idempotency,
    body: Result<ApiJson<B>, ApiError>,
}

impl<B: DeserializeOwned + 'static> FromRequest for Creating<B> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let here = InMunicipality::from_request(req, payload).into_inner();
        let idempotency = Idempotency::from_request(req, payload).into_inner();
        let body = ApiJson::<B>::from_request(req, payload);
        Box::pin(async move {
            let state = state.ok_or_else(|| ApiError::internal("AppState missing"))?;
            let here = here?;
            let idempotency = idempotency?;
            Ok(Creating {
                state,
                here,
                idempotency,
                body: body.await,
            })
        })
    }
}

impl<B: Serialize + Send + 'static> Creating<B> {
    /// The municipality's slug, as the path gave it.
    pub fn slug(&self) -> &str {
        self.here.slug()
    }

    /// [`Idempotency::write_json`] here: `work` gets the unit, the parsed body and
    /// today (the municipality's calendar date, read from the application's clock
    /// before the unit opens).
    pub async fn run<A, R, W>(self, authorise: A, work: W) -> Result<HttpResponse, ApiError>
    where
        A: Fn(&MunicipalityContext) -> Result<R, ApiError> + Clone + Send + 'static,
        W: for<'c> FnOnce(MunicipalUnit<'c>, B, NaiveDate) -> Result<Reply, ApiError>
            + Send
            + 'static,
    {
        let Creating {
            state,
            here,
            idempotency,
            body,
        } = self;
        let today = state.clock.today();
        idempotency
            .write_json(&state, here, body, authorise, move |unit, body| {
                work(unit, body, today)
            })
            .await
    }
}

/// Append the access-log entry of a replayed response: record type
/// `replayed_response`, the record's path (its `Location`) as its id.
fn log_replay(
    conn: &mut crate::db::DbConn,
    ctx: &MunicipalityContext,
    record: &str,
) -> Result<(), ApiError> {
    let actor = crate::usecases::payors::Actor::of(ctx)?;
    let basis = ctx.role_basis();
    crate::db::access_log::record(
        conn,
        ctx.municipality_id,
        &actor.reader(&basis),
        "replayed_response",
        record,
    )?;
    Ok(())
}

/// `work` in `unit`, and with a `claim` its response stored as the claim's.
fn work_and_finish<W>(
    unit: MunicipalUnit<'_>,
    claim: Option<&Claim>,
    work: W,
) -> Result<Reply, ApiError>
where
    W: for<'c> FnOnce(MunicipalUnit<'c>) -> Result<Reply, ApiError>,
{
    let MunicipalUnit {
        conn,
        ctx,
        municipality,
    } = unit;
    let reply = work(MunicipalUnit {
        conn: &mut *conn,
        ctx,
        municipality,
    })?;
    if let Some(claim) = claim {
        usecase::finish(conn, claim, &reply.stored())?;
    }
    Ok(reply)
}

//! Idempotent creating requests in storage: begin (claim, or find the first
//! response), finish (store the response with the work), release.
//!
//! Contract: every function runs in a unit of work already entered in the
//! municipality (row-level security set) whose caller was authorised for the
//! operation. [`begin`] runs in its own short unit, committed before the
//! work, so that a concurrent request with the key sees the claim; it first
//! forgets the tenant's keys past retention (`domain::idempotency::expired`),
//! treats a claim in progress past its lease as abandoned
//! (`domain::idempotency::abandoned`, taken over by a conditional update),
//! and applies the decision table (`domain::idempotency::decide`): a claim or
//! the stored response, or the refusal (409 `Idempotency-Key` /
//! `idempotency_key_in_progress`, 422 `Idempotency-Key` /
//! `idempotency_key_reused`). [`finish`] runs in the work's own unit: when the
//! claim is no longer this request's (taken over), it fails, so the work
//! rolls back. [`release`] removes a claim whose work failed. Nothing here
//! reads or logs a response body.

use chrono::{DateTime, SubsecRound, TimeDelta, Utc};

use crate::{
    db::{
        DbConn,
        idempotency::{self as store, Claim, KeyRow, StoredResponse},
    },
    domain::idempotency::{
        Decision, Fingerprint, HEADER, IdempotencyKey, RETENTION_HOURS, Stored, abandoned, decide,
    },
    error::{ApiError, FieldError},
};

/// What a request carrying a key does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Begun {
    /// The key is this request's: do the work, then [`finish`] (or [`release`]).
    Claimed(Claim),
    /// A retry of a finished request: answer with the first response.
    Replay(StoredResponse),
}

/// The 409 of a retry while the first request is still being processed.
pub fn in_progress() -> ApiError {
    ApiError::RuleConflict(FieldError::new(
        HEADER,
        "idempotency_key_in_progress",
        "a request with this key is still being processed; retry later to get its response",
    ))
}

/// The 422 of a key used before for a different request.
pub fn reused() -> ApiError {
    ApiError::invalid(
        HEADER,
        "idempotency_key_reused",
        "this key was used for a different request (another operation or body); use a new key",
    )
}

fn stored(row: &KeyRow) -> Result<Stored, ApiError> {
    let first = Fingerprint::from_stored(&row.fingerprint)
        .ok_or_else(|| ApiError::internal("idempotency_keys: a malformed fingerprint"))?;
    Ok(match row.state.as_str() {
        "in_progress" => Stored::InProgress(first),
        "done" => Stored::Done(first),
        other => {
            return Err(ApiError::internal(format!(
                "idempotency_keys: state {other}"
            )));
        }
    })
}

fn response(row: KeyRow) -> Result<StoredResponse, ApiError> {
    match (row.response_status, row.response_body) {
        (Some(status), Some(body)) => Ok(StoredResponse {
            status,
            location: row.response_location,
            etag: row.response_etag,
            body,
        }),
        _ => Err(ApiError::internal(
            "idempotency_keys: a done key without its response",
        )),
    }
}

/// Claim `key` for `actor` in the municipality, or find its first response
/// (see the module doc). `now` is the application's clock; `lease` how long a claim
/// in progress holds its key (the installation's setting).
pub fn begin(
    conn: &mut DbConn,
    municipality_id: i64,
    actor: &str,
    key: &IdempotencyKey,
    fingerprint: &Fingerprint,
    now: DateTime<Utc>,
    lease: TimeDelta,
) -> Result<Begun, ApiError> {
    let now = now.trunc_subsecs(6);
    store::expire(
        conn,
        municipality_id,
        (now - TimeDelta::hours(RETENTION_HOURS)).naive_utc(),
    )?;
    let claim = Claim {
        municipality_id,
        actor: actor.to_owned(),
        idem_key: key.as_str().to_owned(),
        fingerprint: fingerprint.as_str().to_owned(),
        claimed_at: now.naive_utc(),
    };
    let row = store::get(conn, municipality_id, actor, key.as_str())?;
    let (state, abandoned_at) = match &row {
        None => (Stored::None, None),
        Some(r) if r.state == "in_progress" && abandoned(r.created_at.and_utc(), now, lease) => {
            (Stored::None, Some(r.created_at))
        }
        Some(r) => (stored(r)?, None),
    };
    match decide(&state, fingerprint) {
        Decision::Proceed => {
            match abandoned_at {
                Some(at) => {
                    if !store::take_over(conn, &claim, at)? {
                        return Err(in_progress());
                    }
                }
                None => store::claim(conn, &claim).map_err(|e| match e {
                    // PostgreSQL: a concurrent first request committed its claim.
                    diesel::result::Error::DatabaseError(
                        diesel::result::DatabaseErrorKind::UniqueViolation,
                        _,
                    ) => in_progress(),
                    other => other.into(),
                })?,
            }
            Ok(Begun::Claimed(claim))
        }
        Decision::Replay => row
            .ok_or_else(|| ApiError::internal("idempotency_keys: a replay without its row"))
            .and_then(response)
            .map(Begun::Replay),
        Decision::InProgress => Err(in_progress()),
        Decision::Mismatch => Err(reused()),
    }
}

/// Store `response` as the claim's, in the work's unit of work; a claim taken
/// over meanwhile is a 409 (and the work rolls back with this error).
pub fn finish(conn: &mut DbConn, claim: &Claim, response: &StoredResponse) -> Result<(), ApiError> {
    if store::complete(conn, claim, response)? {
        Ok(())
    } else {
        Err(in_progress())
    }
}

/// Remove the claim of a request whose work failed (a retry may try again).
pub fn release(conn: &mut DbConn, claim: &Claim) -> Result<(), ApiError> {
    Ok(store::release(conn, claim)?)
}

//! Idempotent creating requests in storage: begin (claim, or find the first
//! response) and finish (store the response with the work), in the
//! request's one unit of work.
//!
//! Contract: every function runs in a unit of work already entered in the
//! municipality (row-level security set) whose caller was authorised for the
//! operation. [`begin`] first holds the key for the unit
//! (`db::idempotency::hold`: a request with the key still running is the 409
//! `Idempotency-Key` / `idempotency_key_in_progress` at once), forgets the
//! tenant's keys past retention (at most once a minute, and any key found
//! past it), treats a claim in progress past its lease as abandoned (rows
//! left by versions that claimed in a unit of its own;
//! `domain::idempotency::abandoned`, taken over by a conditional update),
//! and applies the decision table (`domain::idempotency::decide`): a claim or
//! the stored response, or the refusal (409 in progress, 422
//! `Idempotency-Key` / `idempotency_key_reused`). [`finish`] stores the
//! response in the same unit: work that fails rolls back its claim with it.
//! Nothing here reads or logs a response body.

use std::{collections::BTreeMap, sync::Mutex};

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
    /// The key is this request's: do the work, then [`finish`] in the same unit.
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

/// How often one process forgets a tenant's keys past retention when a key
/// is claimed there (in the application's clock). Correctness does not rest
/// on it: a key found past retention is forgotten there and then.
const EXPIRE_EVERY: TimeDelta = TimeDelta::minutes(1);

/// When this process last forgot each tenant's expired keys.
static EXPIRED_AT: Mutex<BTreeMap<i64, DateTime<Utc>>> = Mutex::new(BTreeMap::new());

/// Whether the tenant's keys past retention are due to be forgotten now
/// (and, if so, noted as forgotten).
fn expiry_due(municipality_id: i64, now: DateTime<Utc>) -> bool {
    let Ok(mut last) = EXPIRED_AT.lock() else {
        return true;
    };
    match last.get(&municipality_id) {
        // A clock set back (the tests' clock) is due too.
        Some(at) if *at <= now && now - *at < EXPIRE_EVERY => false,
        _ => {
            last.insert(municipality_id, now);
            true
        }
    }
}

/// Claim `key` for `actor` in the municipality, or find its first response
/// (see the module doc). `now` is the application's clock; `lease` how long a claim
/// in progress holds its key (the installation's setting).
///
/// Most keys are new, so the claim is inserted first (`ON CONFLICT DO
/// NOTHING`: one statement) and the stored key read only when there is one;
/// the tenant's keys past retention are forgotten at most once a minute
/// ([`EXPIRE_EVERY`]), and at once when the key found is past retention.
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
    let retained_from = (now - TimeDelta::hours(RETENTION_HOURS)).naive_utc();
    if expiry_due(municipality_id, now) {
        store::expire(conn, municipality_id, retained_from)?;
    }
    let claim = Claim {
        municipality_id,
        actor: actor.to_owned(),
        idem_key: key.as_str().to_owned(),
        fingerprint: fingerprint.as_str().to_owned(),
        claimed_at: now.naive_utc(),
    };
    // A request with the key still running holds it (PostgreSQL; SQLite's
    // writers run one at a time): the 409, at once.
    if !store::hold(conn, municipality_id, actor, key.as_str())? {
        return Err(in_progress());
    }
    if store::claim_new(conn, &claim)? {
        return Ok(Begun::Claimed(claim));
    }
    let mut row = store::get(conn, municipality_id, actor, key.as_str())?;
    if row.as_ref().is_some_and(|r| r.created_at < retained_from) {
        // Past retention: forgotten, and the key is new again.
        store::expire(conn, municipality_id, retained_from)?;
        row = None;
    }
    let Some(row) = row else {
        // Forgotten (retention), or rolled back by its request, since the insert
        // met it: the key is free now.
        return if store::claim_new(conn, &claim)? {
            Ok(Begun::Claimed(claim))
        } else {
            Err(in_progress())
        };
    };
    let (state, abandoned_at) =
        if row.state == "in_progress" && abandoned(row.created_at.and_utc(), now, lease) {
            (Stored::None, Some(row.created_at))
        } else {
            (stored(&row)?, None)
        };
    match decide(&state, fingerprint) {
        Decision::Proceed => match abandoned_at {
            Some(at) if store::take_over(conn, &claim, at)? => Ok(Begun::Claimed(claim)),
            _ => Err(in_progress()),
        },
        Decision::Replay => response(row).map(Begun::Replay),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn at(rfc3339: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(rfc3339).unwrap().to_utc()
    }

    #[test]
    fn expiry_runs_at_most_once_a_minute_per_tenant() {
        // A tenant id no test database has: the memo is the process's.
        let (m, other) = (-9_001, -9_002);
        assert!(expiry_due(m, at("2026-05-01T10:00:00Z")));
        assert!(!expiry_due(m, at("2026-05-01T10:00:59Z")));
        assert!(expiry_due(other, at("2026-05-01T10:00:59Z")), "per tenant");
        assert!(expiry_due(m, at("2026-05-01T10:01:00Z")));
        assert!(
            expiry_due(m, at("2026-05-01T09:00:00Z")),
            "a clock set back"
        );
    }
}

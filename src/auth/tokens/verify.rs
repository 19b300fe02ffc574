//! Access-token verification.
//!
//! Contract: [`TokenVerifier::verify`] returns the claims only for a compact JWS whose
//! header says exactly `alg: EdDSA` with a `kid` of a key in the ring (current or
//! previous), whose Ed25519 signature checks out under that key, and whose payload has
//! `exp`, `iat`, `iss`, `aud` and `sub` present and well typed (numbers for the times,
//! strings otherwise), the configured issuer and audience, and `exp`/`nbf`/`iat` that
//! hold within [`LEEWAY_SECS`] of the clock. `none`, HMAC (even keyed with the public
//! key), RSA and ECDSA tokens, unknown keys and JWE are refused before any signature
//! check. Every refusal is a [`TokenError`] naming its cause; none carries the token.
//!
//! A token that verified is remembered (in memory, at most [`REMEMBERED`] tokens, until
//! its `exp`), so its next requests skip the Ed25519 check, about a fifth of an
//! authenticated read's time (bench/results/README.md). Nothing about the answer
//! changes: a token's signature, key, issuer, audience and `iat`/`nbf` cannot change,
//! the key ring is fixed for the process's life (a rotation restarts the service), and
//! an entry is dropped at `exp`, after which the token is checked in full again (and
//! refused once past the leeway). Only a byte-identical token hits.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use serde_json::{Map, Value};

use super::Claims;
use crate::auth::keys::KeyRing;

/// Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds.
pub const LEEWAY_SECS: u64 = 30;

/// Longest token accepted, in bytes (ours are well under 1 KiB).
pub const MAX_TOKEN_BYTES: usize = 8 * 1024;

/// How many verified tokens are remembered at most (about 500 bytes each).
pub const REMEMBERED: usize = 4096;

/// The claims a token must carry.
const REQUIRED_CLAIMS: [&str; 5] = ["exp", "iat", "iss", "aud", "sub"];

/// Why a token was refused. All map to 401; [`TokenError::code`] gives a stable machine
/// code. Messages never contain the token or any claim value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Not a compact JWS of three base64url parts with JSON header and payload, or too
    /// long, or a claim outside the required ones does not fit [`Claims`].
    #[error("the access token is malformed")]
    Malformed,
    /// The header's `alg` is not `EdDSA` (`none`, `HS256`, `RS256`, missing, ...).
    #[error("the access token's algorithm is not accepted; only EdDSA is")]
    WrongAlgorithm,
    /// The header has no `kid`, or one naming no key in the ring.
    #[error("the access token was signed by a key this service does not hold")]
    UnknownKey,
    /// The signature does not verify under the named key.
    #[error("the access token's signature is invalid")]
    BadSignature,
    /// A required claim is absent.
    #[error("the access token lacks the required claim `{0}`")]
    MissingClaim(&'static str),
    /// A claim has the wrong type (a string `exp`) or an impossible value.
    #[error("the access token's claim `{0}` has the wrong type or an impossible value")]
    InvalidClaim(&'static str),
    /// `exp` has passed (beyond the leeway).
    #[error("the access token has expired")]
    Expired,
    /// `nbf` or `iat` lies in the future (beyond the leeway).
    #[error("the access token is not valid yet")]
    NotYetValid,
    /// `aud` is not this service.
    #[error("the access token is meant for another audience")]
    WrongAudience,
    /// `iss` is not this service.
    #[error("the access token was issued by another issuer")]
    WrongIssuer,
}

impl TokenError {
    /// A stable machine code for problem details (`token_expired`, ...).
    pub fn code(&self) -> &'static str {
        match self {
            Self::Malformed => "token_malformed",
            Self::WrongAlgorithm => "token_wrong_algorithm",
            Self::UnknownKey => "token_unknown_key",
            Self::BadSignature => "token_bad_signature",
            Self::MissingClaim(_) => "token_missing_claim",
            Self::InvalidClaim(_) => "token_invalid_claim",
            Self::Expired => "token_expired",
            Self::NotYetValid => "token_not_yet_valid",
            Self::WrongAudience => "token_wrong_audience",
            Self::WrongIssuer => "token_wrong_issuer",
        }
    }
}

/// Verifies access tokens against every key of a ring.
#[derive(Debug, Clone)]
pub struct TokenVerifier {
    ring: Arc<KeyRing>,
    validation: Validation,
    /// Tokens that verified, with their claims (shared by the clones).
    verified: Arc<Mutex<HashMap<String, Claims>>>,
}

impl TokenVerifier {
    /// A verifier accepting tokens with `iss` = `issuer` and `aud` = `audience`.
    pub fn new(ring: Arc<KeyRing>, issuer: &str, audience: &str) -> Self {
        let mut validation = Validation::new(Algorithm::EdDSA);
        validation.algorithms = vec![Algorithm::EdDSA];
        // jsonwebtoken enforces exp, iss, aud and sub; it ignores "iat", which
        // `check_iat` below enforces.
        validation.set_required_spec_claims(&REQUIRED_CLAIMS);
        validation.validate_exp = true;
        validation.validate_nbf = true;
        validation.validate_aud = true;
        validation.leeway = LEEWAY_SECS;
        validation.set_issuer(&[issuer]);
        validation.set_audience(&[audience]);
        Self {
            ring,
            validation,
            verified: Arc::default(),
        }
    }

    /// The claims of `token` if it passes every check in the module contract.
    pub fn verify(&self, token: &str) -> Result<Claims, TokenError> {
        if token.len() > MAX_TOKEN_BYTES {
            return Err(TokenError::Malformed);
        }
        let now = chrono::Utc::now().timestamp();
        if let Some(claims) = self.remembered(token, now) {
            return Ok(claims);
        }
        let claims = self.verify_in_full(token, now)?;
        self.remember(token, &claims, now);
        Ok(claims)
    }

    /// The claims of `token` if it verified before and its `exp` is still ahead.
    fn remembered(&self, token: &str, now: i64) -> Option<Claims> {
        let mut verified = self.verified.lock().ok()?;
        match verified.get(token) {
            Some(claims) if now < claims.exp => Some(claims.clone()),
            Some(_) => {
                verified.remove(token);
                None
            }
            None => None,
        }
    }

    fn remember(&self, token: &str, claims: &Claims, now: i64) {
        let Ok(mut verified) = self.verified.lock() else {
            return;
        };
        if verified.len() >= REMEMBERED {
            verified.retain(|_, c| now < c.exp);
            if verified.len() >= REMEMBERED {
                verified.clear();
            }
        }
        verified.insert(token.to_owned(), claims.clone());
    }

    /// Every check of the module doc, with the signature.
    fn verify_in_full(&self, token: &str, now: i64) -> Result<Claims, TokenError> {
        let header = decode_part(token, 0)?;
        match header.get("alg") {
            Some(Value::String(alg)) if alg == "EdDSA" => {}
            _ => return Err(TokenError::WrongAlgorithm),
        }
        let pair = match header.get("kid") {
            Some(Value::String(kid)) => self.ring.find(kid).ok_or(TokenError::UnknownKey)?,
            _ => return Err(TokenError::UnknownKey),
        };
        let payload =
            jsonwebtoken::decode::<Map<String, Value>>(token, &pair.decoding_key, &self.validation)
                .map_err(|e| map_jwt_error(e.into_kind(), token))?
                .claims;
        check_iat(&payload, now)?;
        // A previous key verifies only the tokens it signed while it was current:
        // after a rotation (say, because the key leaked) it can mint nothing new.
        if let (Some(retired_at), Some(iat)) =
            (pair.retired_at, payload.get("iat").and_then(Value::as_i64))
            && iat > retired_at.saturating_add(LEEWAY_SECS as i64)
        {
            return Err(TokenError::UnknownKey);
        }
        serde_json::from_value(Value::Object(payload)).map_err(|_| TokenError::Malformed)
    }
}

/// Part `index` (0 header, 1 payload) of a compact JWS of exactly three parts, decoded
/// as a JSON object. Reading a part verifies nothing.
fn decode_part(token: &str, index: usize) -> Result<Map<String, Value>, TokenError> {
    let parts: Vec<&str> = token.splitn(4, '.').collect();
    let [header, payload, _signature] = parts[..] else {
        return Err(TokenError::Malformed);
    };
    let part = if index == 0 { header } else { payload };
    let bytes = URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|_| TokenError::Malformed)?;
    serde_json::from_slice(&bytes).map_err(|_| TokenError::Malformed)
}

/// `iat` must be an integer, not in the future beyond the leeway, and not after `exp`.
fn check_iat(payload: &Map<String, Value>, now: i64) -> Result<(), TokenError> {
    let iat = match payload.get("iat") {
        None | Some(Value::Null) => return Err(TokenError::MissingClaim("iat")),
        Some(value) => value.as_i64().ok_or(TokenError::InvalidClaim("iat"))?,
    };
    let leeway = LEEWAY_SECS as i64;
    if iat > now.saturating_add(leeway) {
        return Err(TokenError::NotYetValid);
    }
    let exp = payload.get("exp").and_then(Value::as_i64);
    if exp.is_none_or(|exp| exp < iat) {
        return Err(TokenError::InvalidClaim("exp"));
    }
    Ok(())
}

/// Maps a `jsonwebtoken` failure to its cause. `token` is consulted only after the
/// signature has verified, to tell a missing claim from a mistyped one.
fn map_jwt_error(kind: ErrorKind, token: &str) -> TokenError {
    match kind {
        ErrorKind::InvalidSignature | ErrorKind::InvalidEddsaKey | ErrorKind::InvalidKeyFormat => {
            TokenError::BadSignature
        }
        ErrorKind::InvalidAlgorithm
        | ErrorKind::MissingAlgorithm
        | ErrorKind::UnsupportedAlgorithm
        | ErrorKind::InvalidAlgorithmName => TokenError::WrongAlgorithm,
        ErrorKind::MissingRequiredClaim(claim) => {
            // Claim checks run only after the signature verified, so reading the payload
            // here trusts nothing unverified.
            let present = decode_part(token, 1)
                .is_ok_and(|payload| payload.get(&claim).is_some_and(|v| !v.is_null()));
            let claim = claim_name(&claim);
            if present {
                TokenError::InvalidClaim(claim)
            } else {
                TokenError::MissingClaim(claim)
            }
        }
        ErrorKind::InvalidClaimFormat(claim) => TokenError::InvalidClaim(claim_name(&claim)),
        ErrorKind::ExpiredSignature => TokenError::Expired,
        ErrorKind::ImmatureSignature => TokenError::NotYetValid,
        ErrorKind::InvalidIssuer => TokenError::WrongIssuer,
        ErrorKind::InvalidAudience => TokenError::WrongAudience,
        _ => TokenError::Malformed,
    }
}

/// The claim name as a static string (errors carry no text from the token).
fn claim_name(claim: &str) -> &'static str {
    match claim {
        "exp" => "exp",
        "iat" => "iat",
        "iss" => "iss",
        "aud" => "aud",
        "sub" => "sub",
        "nbf" => "nbf",
        _ => "unknown",
    }
}

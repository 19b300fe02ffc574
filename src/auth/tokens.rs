//! Access tokens: short-lived EdDSA-signed JWTs issued by this service.
//!
//! Contract: [`TokenIssuer`] signs with the ring's current key only, always with header
//! `alg: EdDSA` and the key's `kid`, and always sets `iss`, `aud`, `sub`, `exp`, `iat` and
//! `jti`. [`TokenVerifier`] (in [`verify`]) accepts nothing else: one pinned algorithm, a
//! `kid` found in the ring, a valid signature, all six claims present and well typed, the
//! configured issuer and audience, not expired, not issued in the future. The tenant
//! fields of [`Claims`] are hints for routing and logging; authorisation always loads the
//! caller's grants. Tokens are bearer secrets: no `Debug` output or error message here
//! contains one.

pub mod verify;

#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, Header};
use serde::{Deserialize, Serialize};

use super::keys::KeyRing;

pub use verify::{TokenError, TokenVerifier};

/// Lifetime of an access token unless configured otherwise: 15 minutes.
pub const DEFAULT_ACCESS_TOKEN_TTL: Duration = Duration::from_secs(15 * 60);

/// Who a token speaks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenKind {
    /// A person signed in with email and password; `sub` is the user id.
    User,
    /// A third-party app (OAuth2 client credentials); `sub` is the client id.
    Client,
}

/// The tenant a token was issued for: a hint only, never a substitute for the grants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TenantHint {
    /// The municipality (its database id) an API client belongs to.
    Municipality(i64),
    /// The zone (its database id) an API client belongs to.
    Zone(i64),
}

/// The payload of an access token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// Issuer: this service's configured issuer URL.
    pub iss: String,
    /// Audience: this service's configured audience.
    pub aud: String,
    /// Subject: the user id or API client id, per `kind`.
    pub sub: String,
    /// Expiry, Unix seconds.
    pub exp: i64,
    /// Issue time, Unix seconds.
    pub iat: i64,
    /// Unique token id (base64url of 16 random bytes).
    pub jti: String,
    /// Whether `sub` is a user or an API client.
    pub kind: TokenKind,
    /// Space-separated OAuth2 scopes (API clients only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Hint: the municipality an API client belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub municipality_id: Option<i64>,
    /// Hint: the zone an API client belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zone_id: Option<i64>,
}

/// A freshly signed access token. `Debug` redacts `token`.
#[derive(Clone)]
pub struct IssuedToken {
    /// The compact JWT, for the `access_token` field of the response. A bearer secret.
    pub token: String,
    /// Seconds until it expires, for the `expires_in` field of the response.
    pub expires_in_secs: u64,
    /// Its `jti` claim.
    pub jti: String,
}

impl fmt::Debug for IssuedToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("IssuedToken")
            .field("token", &"[redacted]")
            .field("expires_in_secs", &self.expires_in_secs)
            .field("jti", &self.jti)
            .finish()
    }
}

/// Why a token could not be issued (a server fault, never the caller's).
#[derive(Debug, thiserror::Error)]
pub enum IssueError {
    /// Signing failed.
    #[error("signing the access token failed")]
    Signing,
    /// The OS random number generator failed while making the `jti`.
    #[error("the OS random number generator failed")]
    Rng,
}

/// Signs access tokens with the ring's current key.
#[derive(Debug, Clone)]
pub struct TokenIssuer {
    ring: Arc<KeyRing>,
    issuer: String,
    audience: String,
    ttl: Duration,
}

impl TokenIssuer {
    /// An issuer for `iss` = `issuer` and `aud` = `audience`, with the default lifetime.
    pub fn new(ring: Arc<KeyRing>, issuer: impl Into<String>, audience: impl Into<String>) -> Self {
        Self {
            ring,
            issuer: issuer.into(),
            audience: audience.into(),
            ttl: DEFAULT_ACCESS_TOKEN_TTL,
        }
    }

    /// The same issuer with another token lifetime (whole seconds; at least one).
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl.max(Duration::from_secs(1));
        self
    }

    /// The token lifetime.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The verifier matching this issuer (same ring, issuer and audience).
    pub fn verifier(&self) -> TokenVerifier {
        TokenVerifier::new(self.ring.clone(), &self.issuer, &self.audience)
    }

    /// Signs a token for `sub` (a user id or client id, per `kind`) with the given
    /// space-separated `scope` (API clients), expiring after the configured lifetime.
    pub fn issue(
        &self,
        sub: &str,
        kind: TokenKind,
        scope: Option<&str>,
    ) -> Result<IssuedToken, IssueError> {
        self.issue_for_tenant(sub, kind, scope, None)
    }

    /// [`TokenIssuer::issue`] with a tenant hint in the claims.
    pub fn issue_for_tenant(
        &self,
        sub: &str,
        kind: TokenKind,
        scope: Option<&str>,
        tenant: Option<TenantHint>,
    ) -> Result<IssuedToken, IssueError> {
        let now = chrono::Utc::now().timestamp();
        let ttl_secs = self.ttl.as_secs();
        let claims = Claims {
            iss: self.issuer.clone(),
            aud: self.audience.clone(),
            sub: sub.to_owned(),
            exp: now.saturating_add(i64::try_from(ttl_secs).unwrap_or(i64::MAX)),
            iat: now,
            jti: new_jti()?,
            kind,
            scope: scope.map(str::to_owned),
            municipality_id: match tenant {
                Some(TenantHint::Municipality(id)) => Some(id),
                _ => None,
            },
            zone_id: match tenant {
                Some(TenantHint::Zone(id)) => Some(id),
                _ => None,
            },
        };
        let current = &self.ring.current;
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(current.kid.clone());
        let token = jsonwebtoken::encode(&header, &claims, &current.encoding_key)
            .map_err(|_| IssueError::Signing)?;
        Ok(IssuedToken {
            token,
            expires_in_secs: ttl_secs,
            jti: claims.jti,
        })
    }
}

fn new_jti() -> Result<String, IssueError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|_| IssueError::Rng)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

//! Authentication core: passwords, signing keys, access tokens, opaque secrets,
//! sign-in throttling and the role vocabulary.
//!
//! Contract: every module here is pure. Nothing touches the database or HTTP; the
//! handlers and the tenant-context extractor in `api/` call into these functions and own
//! the I/O around them. Nothing here logs, and no secret (password, private key, access or
//! refresh token, client secret, password hash) appears in any `Debug` or `Display`
//! output or error message.

pub mod keys;
pub mod opaque;
pub mod password;
pub mod roles;
pub mod secret;
pub mod throttle;
pub mod tokens;

pub use keys::{Jwk, Jwks, KeyError, KeyPair, KeyRing, SigningKey};
pub use password::{
    PasswordError, check_password_policy, hash_password, verify_against_dummy, verify_password,
};
pub use roles::{ApiScope, ConfidentialAccess, Role, ScopeKind, parse_scopes};
pub use secret::SecretString;
pub use throttle::{RetryAfter, SignInThrottle, Throttle, ThrottleKey, ThrottlePolicy};
pub use tokens::{
    Claims, IssueError, IssuedToken, TenantHint, TokenError, TokenIssuer, TokenKind, TokenVerifier,
};

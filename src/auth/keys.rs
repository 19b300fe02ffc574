//! Ed25519 signing keys for the service's EdDSA access tokens, and the key ring.
//!
//! Contract: the ring holds one *current* key, which signs every new token, and any
//! number of *previous* keys, which only verify: after a rotation, tokens signed by the
//! old key stay valid until they expire. Each key is named by its `kid`, the RFC 7638
//! JWK thumbprint of its public key, so the same key always has the same id. Only the
//! public halves leave this module (as the JWKS). Private key material is held in types
//! whose `Debug` redacts it and whose memory is zeroed on drop; nothing here logs.
//! Reading and writing key files lives in [`files`]; the published JSON shapes in [`jwks`].

pub mod files;
pub mod jwks;

use std::fmt;
use std::path::PathBuf;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::pkcs8::spki::der::pem::LineEnding;
use ed25519_dalek::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use jsonwebtoken::{DecodingKey, EncodingKey};
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

pub use jwks::{Jwk, Jwks};

/// Why a key could not be read, made or stored. Messages name files, never key material.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// A key file or the key directory could not be read or written.
    #[error("key file {path}: {source}")]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The text is not a PEM-encoded PKCS#8 Ed25519 private key.
    #[error("{what} is not a PKCS#8 PEM Ed25519 private key")]
    InvalidPem {
        /// Which key: a file path or "the current key" / "previous key n".
        what: String,
    },
    /// The operating system's random number generator failed.
    #[error("the OS random number generator failed")]
    Rng,
    /// Encoding a key as PKCS#8 failed (a bug, not an input error).
    #[error("encoding a key as PKCS#8 failed")]
    Encode,
}

/// An Ed25519 private key. `Debug` prints no key material; memory is zeroed on drop.
pub struct SigningKey(ed25519_dalek::SigningKey);

impl SigningKey {
    /// A new key from 32 bytes of the OS random number generator.
    pub fn generate() -> Result<Self, KeyError> {
        let mut seed = Zeroizing::new([0u8; 32]);
        getrandom::fill(seed.as_mut()).map_err(|_| KeyError::Rng)?;
        Ok(Self(ed25519_dalek::SigningKey::from_bytes(&seed)))
    }

    /// Parses a PEM-encoded PKCS#8 private key (`-----BEGIN PRIVATE KEY-----`), as written
    /// by [`SigningKey::to_pkcs8_pem`] or `openssl genpkey -algorithm ed25519`. `what`
    /// names the key in the error.
    pub fn from_pkcs8_pem(pem: &str, what: &str) -> Result<Self, KeyError> {
        ed25519_dalek::SigningKey::from_pkcs8_pem(pem.trim())
            .map(Self)
            .map_err(|_| KeyError::InvalidPem {
                what: what.to_owned(),
            })
    }

    /// The key as PEM-encoded PKCS#8, zeroed when dropped.
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>, KeyError> {
        self.0
            .to_pkcs8_pem(LineEnding::LF)
            .map_err(|_| KeyError::Encode)
    }

    /// The 32-byte public key.
    pub fn public_key(&self) -> [u8; 32] {
        self.0.verifying_key().to_bytes()
    }
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SigningKey([redacted])")
    }
}

/// One key of the ring, ready to sign (`encoding_key`) and verify (`decoding_key`).
/// Build it with [`KeyPair::new`] so that the four fields agree.
#[derive(Clone)]
pub struct KeyPair {
    /// RFC 7638 thumbprint of the public key: the JWT header's `kid`.
    pub kid: String,
    /// The private key in the form `jsonwebtoken` signs with (redacted in `Debug`).
    pub encoding_key: EncodingKey,
    /// The public key in the form `jsonwebtoken` verifies with.
    pub decoding_key: DecodingKey,
    /// The public key as published in the JWKS.
    pub public_jwk: Jwk,
    /// When the key stopped signing (Unix seconds), for previous keys read from files
    /// named `signing-previous-<unix-seconds>.pem`; `None` for the current key or when
    /// unknown.
    pub retired_at: Option<i64>,
}

impl KeyPair {
    /// Derives the pair, its public JWK and its `kid` from a private key.
    pub fn new(key: &SigningKey) -> Result<Self, KeyError> {
        let der = key.0.to_pkcs8_der().map_err(|_| KeyError::Encode)?;
        let public = key.public_key();
        let x = URL_SAFE_NO_PAD.encode(public);
        let kid = thumbprint(&x);
        Ok(Self {
            encoding_key: EncodingKey::from_ed_der(der.as_bytes()),
            decoding_key: DecodingKey::from_ed_der(&public),
            public_jwk: Jwk::ed25519(x, kid.clone()),
            kid,
            retired_at: None,
        })
    }
}

impl fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyPair")
            .field("kid", &self.kid)
            .field("retired_at", &self.retired_at)
            .finish_non_exhaustive()
    }
}

/// RFC 7638 JWK thumbprint of an Ed25519 public key given as base64url `x`: base64url
/// (no padding) of the SHA-256 of `{"crv":"Ed25519","kty":"OKP","x":"<x>"}`.
pub fn thumbprint(x: &str) -> String {
    let canonical = format!(r#"{{"crv":"Ed25519","kty":"OKP","x":"{x}"}}"#);
    URL_SAFE_NO_PAD.encode(Sha256::digest(canonical.as_bytes()))
}

/// The signing keys: `current` signs, every key in the ring verifies.
#[derive(Debug, Clone)]
pub struct KeyRing {
    /// The key that signs new tokens.
    pub current: KeyPair,
    /// Keys that signed earlier tokens; they verify only. Most recently retired first.
    pub previous: Vec<KeyPair>,
}

impl KeyRing {
    /// A ring from PEM-encoded PKCS#8 private keys (for keys supplied through settings).
    /// A previous key equal to the current one, or repeated, is kept once.
    pub fn from_pems(current_pem: &str, previous_pems: &[String]) -> Result<Self, KeyError> {
        let current = KeyPair::new(&SigningKey::from_pkcs8_pem(current_pem, "the current key")?)?;
        let mut ring = Self {
            current,
            previous: Vec::with_capacity(previous_pems.len()),
        };
        for (index, pem) in previous_pems.iter().enumerate() {
            let what = format!("previous key {}", index + 1);
            ring.push_previous(KeyPair::new(&SigningKey::from_pkcs8_pem(pem, &what)?)?);
        }
        Ok(ring)
    }

    /// A ring of one freshly generated key, kept only in memory (for tests and
    /// throwaway instances: its tokens die with the process).
    pub fn ephemeral() -> Result<Self, KeyError> {
        Ok(Self {
            current: KeyPair::new(&SigningKey::generate()?)?,
            previous: Vec::new(),
        })
    }

    /// The key named `kid`, current or previous.
    pub fn find(&self, kid: &str) -> Option<&KeyPair> {
        std::iter::once(&self.current)
            .chain(&self.previous)
            .find(|pair| pair.kid == kid)
    }

    /// The public keys as a JWK Set, current key first.
    pub fn jwks(&self) -> Jwks {
        Jwks {
            keys: std::iter::once(&self.current)
                .chain(&self.previous)
                .map(|pair| pair.public_jwk.clone())
                .collect(),
        }
    }

    /// Adds a previous key unless the ring already holds it.
    fn push_previous(&mut self, pair: KeyPair) {
        if self.find(&pair.kid).is_none() {
            self.previous.push(pair);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8037 appendix A.1 private key; its RFC 7638 thumbprint is given in A.3.
    const RFC8037_PEM: &str = "-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g
-----END PRIVATE KEY-----";

    #[test]
    fn kid_is_the_rfc_7638_thumbprint() {
        let key = SigningKey::from_pkcs8_pem(RFC8037_PEM, "test").unwrap();
        let pair = KeyPair::new(&key).unwrap();
        assert_eq!(
            pair.public_jwk.x,
            "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
        );
        assert_eq!(pair.kid, "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k");
    }

    #[test]
    fn pem_round_trips_and_debug_redacts() {
        let key = SigningKey::generate().unwrap();
        let pem = key.to_pkcs8_pem().unwrap();
        assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----"));
        let again = SigningKey::from_pkcs8_pem(&pem, "test").unwrap();
        assert_eq!(key.public_key(), again.public_key());
        let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        for printed in [
            format!("{key:?}"),
            format!("{:?}", KeyPair::new(&key).unwrap()),
        ] {
            assert!(!printed.contains(&body), "{printed}");
            assert!(!printed.contains(&format!("{:?}", key.0.to_bytes())));
        }
    }

    #[test]
    fn garbage_pem_is_refused_without_echoing_it() {
        let err = SigningKey::from_pkcs8_pem("-----BEGIN PRIVATE KEY-----\nAAAA\n", "x")
            .unwrap_err()
            .to_string();
        assert!(!err.contains("AAAA"), "{err}");
    }

    #[test]
    fn from_pems_finds_every_key_and_lists_current_first() {
        let current = SigningKey::generate().unwrap();
        let old = SigningKey::generate().unwrap();
        let old_pem = old.to_pkcs8_pem().unwrap().to_string();
        let ring = KeyRing::from_pems(
            &current.to_pkcs8_pem().unwrap(),
            &[old_pem.clone(), old_pem],
        )
        .unwrap();
        assert_eq!(ring.previous.len(), 1, "a repeated key is kept once");
        let jwks = ring.jwks();
        assert_eq!(jwks.keys.len(), 2);
        assert_eq!(jwks.keys[0].kid, ring.current.kid);
        assert!(ring.find(&ring.previous[0].kid).is_some());
        assert!(ring.find("nope").is_none());
    }
}

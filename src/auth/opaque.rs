//! Opaque secrets: refresh tokens and API client secrets.
//!
//! Contract: a secret is 32 bytes from the OS random number generator, shown to its owner
//! once as base64url without padding (43 characters). The database stores only its
//! digest, the lowercase hex SHA-256 of that text: the secret has 256 bits of entropy, so
//! a fast hash suffices (no salt or Argon2 needed) and a digest can be looked up by index.
//! The plaintext travels in a [`SecretString`], whose `Debug` is redacted; digests are not
//! secret but are still kept out of logs.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq as _;

use super::secret::SecretString;

/// Random bytes in a secret.
pub const SECRET_BYTES: usize = 32;

/// The OS random number generator failed.
#[derive(Debug, thiserror::Error)]
#[error("the OS random number generator failed")]
pub struct RngError;

/// A new secret and its digest: `(plaintext, digest)`. Show the plaintext once, store
/// the digest.
///
/// # Panics
/// If the OS random number generator fails (see [`try_new_secret`] to handle that).
pub fn new_secret() -> (SecretString, String) {
    try_new_secret().expect("the OS random number generator failed")
}

/// [`new_secret`] reporting an RNG failure instead of panicking.
pub fn try_new_secret() -> Result<(SecretString, String), RngError> {
    let mut bytes = zeroize::Zeroizing::new([0u8; SECRET_BYTES]);
    getrandom::fill(bytes.as_mut()).map_err(|_| RngError)?;
    let plaintext = SecretString::new(URL_SAFE_NO_PAD.encode(bytes.as_ref()));
    let digest = digest(plaintext.expose());
    Ok((plaintext, digest))
}

/// Lowercase hex SHA-256 of any bytes (the content digest of a static file).
pub fn digest_bytes(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let hash = Sha256::digest(bytes);
    let mut out = String::with_capacity(hash.len() * 2);
    for byte in hash.iter() {
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    out
}

/// The stored form of a secret: lowercase hex SHA-256 of its text.
pub fn digest(plaintext: &str) -> String {
    digest_bytes(plaintext.as_bytes())
}

/// Whether `plaintext` is the secret whose digest is `stored_digest`, compared in
/// constant time.
pub fn digest_matches(plaintext: &str, stored_digest: &str) -> bool {
    digest(plaintext)
        .as_bytes()
        .ct_eq(stored_digest.as_bytes())
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_43_base64url_characters_and_distinct() {
        let (a, a_digest) = new_secret();
        let (b, _) = new_secret();
        assert_eq!(a.expose().len(), 43);
        assert!(
            a.expose()
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        );
        assert_ne!(a.expose(), b.expose());
        assert_eq!(a_digest, digest(a.expose()));
        assert!(!format!("{a:?}").contains(a.expose()));
    }

    #[test]
    fn digest_is_hex_sha256() {
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn digests_match_only_the_right_plaintext() {
        let (secret, stored) = new_secret();
        assert!(digest_matches(secret.expose(), &stored));
        let mut wrong = secret.expose().to_owned();
        wrong.pop();
        assert!(!digest_matches(&wrong, &stored));
        assert!(!digest_matches("", &stored));
        assert!(!digest_matches(secret.expose(), &stored[..63]));
        assert!(!digest_matches(secret.expose(), &stored.to_uppercase()));
    }
}

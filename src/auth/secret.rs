//! A string that must never be printed.
//!
//! Contract: [`SecretString`] holds a plaintext secret (a password on its way to the
//! hasher, a freshly generated refresh token or client secret on its way to the one
//! response that shows it). Its `Debug` prints `[redacted]`, it has no `Display` and no
//! `Serialize`, and its memory is zeroed on drop. Reading it takes an explicit
//! [`SecretString::expose`], which is easy to find in review.

use std::fmt;

use serde::{Deserialize, Deserializer};
use zeroize::Zeroizing;

/// A plaintext secret whose `Debug` output is redacted and whose memory is zeroed on drop.
#[derive(Clone)]
pub struct SecretString(Zeroizing<String>);

impl SecretString {
    /// Wraps a plaintext secret.
    pub fn new(value: String) -> Self {
        Self(Zeroizing::new(value))
    }

    /// The plaintext. Use it only to hash, compare or hand it to the one response that
    /// shows it; never log it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl From<String> for SecretString {
    fn from(value: String) -> Self {
        Self::new(value)
    }
}

impl fmt::Debug for SecretString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretString([redacted])")
    }
}

/// Deserialises from a JSON string, so request bodies can carry a password as a
/// `SecretString` field without the plaintext ever reaching a `Debug` print.
impl<'de> Deserialize<'de> for SecretString {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_is_redacted() {
        let secret = SecretString::new("hunter2-hunter2".to_owned());
        let printed = format!("{secret:?}");
        assert!(!printed.contains("hunter2"));
        assert!(printed.contains("redacted"));
        assert_eq!(secret.expose(), "hunter2-hunter2");
    }

    #[test]
    fn deserialises_from_a_json_string() {
        let secret: SecretString = serde_json::from_str("\"correct horse\"").unwrap();
        assert_eq!(secret.expose(), "correct horse");
    }
}

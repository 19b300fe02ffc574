//! The public JSON Web Key Set served at `/.well-known/jwks.json` (RFC 7517, RFC 8037).
//!
//! Contract: these types carry public keys only; there is no field for private material.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A JSON Web Key Set: the public keys that verify this service's access tokens.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Jwks {
    /// The keys, the one signing new tokens first; the others verify tokens signed before
    /// the last rotation until those expire.
    pub keys: Vec<Jwk>,
}

/// One Ed25519 public key as an RFC 8037 octet key pair JWK.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Jwk {
    /// Key type: always `OKP` (octet key pair).
    #[schema(example = "OKP")]
    pub kty: String,
    /// Curve: always `Ed25519`.
    #[schema(example = "Ed25519")]
    pub crv: String,
    /// The 32-byte public key, base64url without padding.
    #[schema(example = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo")]
    pub x: String,
    /// Key id: the RFC 7638 thumbprint of this key; matches the `kid` in a token's header.
    #[schema(example = "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k")]
    pub kid: String,
    /// The only algorithm this key is used with: `EdDSA`.
    #[schema(example = "EdDSA")]
    pub alg: String,
    /// Intended use: `sig` (signature verification).
    #[serde(rename = "use")]
    #[schema(example = "sig")]
    pub use_: String,
}

impl Jwk {
    /// The JWK of an Ed25519 public key `x` (base64url) named `kid`.
    pub fn ed25519(x: String, kid: String) -> Self {
        Self {
            kty: "OKP".to_owned(),
            crv: "Ed25519".to_owned(),
            x,
            kid,
            alg: "EdDSA".to_owned(),
            use_: "sig".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_with_the_registered_member_names() {
        let jwks = Jwks {
            keys: vec![Jwk::ed25519("xx".to_owned(), "kk".to_owned())],
        };
        let json = serde_json::to_value(&jwks).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"keys": [{
                "kty": "OKP", "crv": "Ed25519", "x": "xx", "kid": "kk",
                "alg": "EdDSA", "use": "sig"
            }]})
        );
    }

    #[test]
    fn every_schema_field_is_described() {
        use utoipa::PartialSchema as _;
        let schema = serde_json::to_value(Jwk::schema()).unwrap();
        let properties = schema["properties"].as_object().unwrap();
        assert_eq!(properties.len(), 6);
        assert!(properties.contains_key("use"));
        for (name, property) in properties {
            assert!(property["description"].is_string(), "{name}: {property}");
        }
        let set = serde_json::to_value(Jwks::schema()).unwrap();
        assert!(
            set["properties"]["keys"]["description"].is_string(),
            "{set}"
        );
    }
}

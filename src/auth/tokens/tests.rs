//! Token issue/verify tests, including the attacks of issue 4 item 9.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Value, json};

use super::verify::MAX_TOKEN_BYTES;
use super::*;
use crate::auth::keys::{KeyPair, KeyRing, SigningKey};

const ISS: &str = "https://roomtax.example";
const AUD: &str = "roomtax";

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

fn setup() -> (TokenIssuer, TokenVerifier, Arc<KeyRing>) {
    let ring = Arc::new(KeyRing::ephemeral().unwrap());
    let issuer = TokenIssuer::new(ring.clone(), ISS, AUD);
    let verifier = issuer.verifier();
    (issuer, verifier, ring)
}

/// Claims that pass every check; tests edit one thing at a time.
fn good_claims() -> Value {
    json!({
        "iss": ISS, "aud": AUD, "sub": "user-1", "exp": now() + 600, "iat": now(),
        "jti": "jti-1", "kind": "user"
    })
}

fn b64(value: &Value) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(value).unwrap())
}

/// Signs `claims` with `pair` (EdDSA), naming `kid` in the header.
fn sign(pair: &KeyPair, kid: Option<&str>, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = kid.map(str::to_owned);
    jsonwebtoken::encode(&header, claims, &pair.encoding_key).unwrap()
}

fn sign_current(ring: &KeyRing, claims: &Value) -> String {
    sign(&ring.current, Some(&ring.current.kid), claims)
}

fn with(mut claims: Value, key: &str, value: Value) -> Value {
    claims[key] = value;
    claims
}

fn without(mut claims: Value, key: &str) -> Value {
    claims.as_object_mut().unwrap().remove(key);
    claims
}

fn public_key_bytes(ring: &KeyRing) -> Vec<u8> {
    URL_SAFE_NO_PAD.decode(&ring.current.public_jwk.x).unwrap()
}

#[test]
fn issued_token_verifies_with_its_claims() {
    let (issuer, verifier, ring) = setup();
    let issued = issuer.issue("user-42", TokenKind::User, None).unwrap();
    assert_eq!(issued.expires_in_secs, 15 * 60);
    let header = jsonwebtoken::decode_header(&issued.token).unwrap();
    assert_eq!(header.alg, Algorithm::EdDSA);
    assert_eq!(header.kid.as_deref(), Some(ring.current.kid.as_str()));
    let claims = verifier.verify(&issued.token).unwrap();
    assert_eq!(claims.sub, "user-42");
    assert_eq!(claims.kind, TokenKind::User);
    assert_eq!((claims.iss.as_str(), claims.aud.as_str()), (ISS, AUD));
    assert_eq!(claims.exp - claims.iat, 900);
    assert_eq!(claims.jti, issued.jti);
    assert_eq!(claims.scope, None);
}

#[test]
fn client_token_carries_scope_and_tenant_hint() {
    let (issuer, verifier, _) = setup();
    let issuer = issuer.with_ttl(Duration::from_secs(300));
    let issued = issuer
        .issue_for_tenant(
            "client-7",
            TokenKind::Client,
            Some("payors:read returns:write"),
            Some(TenantHint::Municipality(3)),
        )
        .unwrap();
    assert_eq!(issued.expires_in_secs, 300);
    let claims = verifier.verify(&issued.token).unwrap();
    assert_eq!(claims.kind, TokenKind::Client);
    assert_eq!(claims.scope.as_deref(), Some("payors:read returns:write"));
    assert_eq!((claims.municipality_id, claims.zone_id), (Some(3), None));
}

#[test]
fn each_token_has_its_own_jti_and_debug_hides_the_token() {
    let (issuer, _, _) = setup();
    let a = issuer.issue("u", TokenKind::User, None).unwrap();
    let b = issuer.issue("u", TokenKind::User, None).unwrap();
    assert_ne!(a.jti, b.jti);
    let printed = format!("{a:?}");
    assert!(!printed.contains(&a.token), "{printed}");
    assert!(!printed.contains(a.token.split('.').nth(2).unwrap()));
}

#[test]
fn hand_signed_good_claims_verify() {
    let (_, verifier, ring) = setup();
    assert!(
        verifier
            .verify(&sign_current(&ring, &good_claims()))
            .is_ok()
    );
}

#[test]
fn alg_none_is_refused() {
    let (_, verifier, ring) = setup();
    for alg in ["none", "None", "NONE"] {
        let header = json!({"alg": alg, "typ": "JWT", "kid": ring.current.kid});
        let unsigned = format!("{}.{}.", b64(&header), b64(&good_claims()));
        assert_eq!(verifier.verify(&unsigned), Err(TokenError::WrongAlgorithm));
        // Even with a real EdDSA signature pasted on, the header decides.
        let real = sign_current(&ring, &good_claims());
        let pasted = format!("{unsigned}{}", real.rsplit('.').next().unwrap());
        assert_eq!(verifier.verify(&pasted), Err(TokenError::WrongAlgorithm));
    }
}

#[test]
fn missing_alg_is_refused() {
    let (_, verifier, ring) = setup();
    let header = json!({"typ": "JWT", "kid": ring.current.kid});
    let token = format!("{}.{}.AAAA", b64(&header), b64(&good_claims()));
    assert_eq!(verifier.verify(&token), Err(TokenError::WrongAlgorithm));
}

#[test]
fn hmac_signed_with_the_public_key_is_refused() {
    let (_, verifier, ring) = setup();
    let secrets = [
        public_key_bytes(&ring),
        ring.current.public_jwk.x.as_bytes().to_vec(),
        serde_json::to_vec(&ring.current.public_jwk).unwrap(),
    ];
    for secret in secrets {
        for alg in [Algorithm::HS256, Algorithm::HS384, Algorithm::HS512] {
            let mut header = Header::new(alg);
            header.kid = Some(ring.current.kid.clone());
            let key = EncodingKey::from_secret(&secret).unwrap();
            let token = jsonwebtoken::encode(&header, &good_claims(), &key).unwrap();
            assert_eq!(verifier.verify(&token), Err(TokenError::WrongAlgorithm));
        }
    }
}

#[test]
fn other_asymmetric_algorithms_are_refused() {
    let (_, verifier, ring) = setup();
    let real = sign_current(&ring, &good_claims());
    let (_, rest) = real.split_once('.').unwrap();
    for alg in ["RS256", "ES256", "PS256", "EdDSA ", "eddsa", "Ed25519"] {
        let header = json!({"alg": alg, "typ": "JWT", "kid": ring.current.kid});
        let token = format!("{}.{rest}", b64(&header));
        assert_eq!(
            verifier.verify(&token),
            Err(TokenError::WrongAlgorithm),
            "{alg}"
        );
    }
}

#[test]
fn a_flipped_signature_byte_is_refused() {
    let (_, verifier, ring) = setup();
    let token = sign_current(&ring, &good_claims());
    let (message, signature) = token.rsplit_once('.').unwrap();
    let mut bytes = URL_SAFE_NO_PAD.decode(signature).unwrap();
    for index in [0, 31, 63] {
        bytes[index] ^= 0x01;
        let forged = format!("{message}.{}", URL_SAFE_NO_PAD.encode(&bytes));
        assert_eq!(verifier.verify(&forged), Err(TokenError::BadSignature));
        bytes[index] ^= 0x01;
    }
    let truncated = format!("{message}.{}", URL_SAFE_NO_PAD.encode(&bytes[..32]));
    assert_eq!(verifier.verify(&truncated), Err(TokenError::BadSignature));
}

#[test]
fn edited_claims_under_the_old_signature_are_refused() {
    let (_, verifier, ring) = setup();
    let token = sign_current(&ring, &good_claims());
    let parts: Vec<&str> = token.split('.').collect();
    let escalated = b64(&with(good_claims(), "sub", json!("admin")));
    let forged = format!("{}.{escalated}.{}", parts[0], parts[2]);
    assert_eq!(verifier.verify(&forged), Err(TokenError::BadSignature));
}

#[test]
fn a_key_outside_the_ring_is_refused() {
    let (_, verifier, ring) = setup();
    let stranger = KeyPair::new(&SigningKey::generate().unwrap()).unwrap();
    // Under its own kid: unknown.
    let own_kid = sign(&stranger, Some(&stranger.kid), &good_claims());
    assert_eq!(verifier.verify(&own_kid), Err(TokenError::UnknownKey));
    // Claiming our kid: the signature does not verify.
    let borrowed_kid = sign(&stranger, Some(&ring.current.kid), &good_claims());
    assert_eq!(
        verifier.verify(&borrowed_kid),
        Err(TokenError::BadSignature)
    );
}

#[test]
fn unknown_or_missing_kid_is_refused() {
    let (_, verifier, ring) = setup();
    let claims = good_claims();
    let unknown = sign(&ring.current, Some("not-a-kid"), &claims);
    assert_eq!(verifier.verify(&unknown), Err(TokenError::UnknownKey));
    let missing = sign(&ring.current, None, &claims);
    assert_eq!(verifier.verify(&missing), Err(TokenError::UnknownKey));
}

#[test]
fn missing_required_claims_are_refused() {
    let (_, verifier, ring) = setup();
    for claim in ["exp", "iat", "iss", "aud", "sub"] {
        let token = sign_current(&ring, &without(good_claims(), claim));
        assert_eq!(
            verifier.verify(&token),
            Err(TokenError::MissingClaim(claim)),
            "{claim}"
        );
        let null = sign_current(&ring, &with(good_claims(), claim, Value::Null));
        assert_eq!(verifier.verify(&null), Err(TokenError::MissingClaim(claim)));
    }
}

#[test]
fn string_typed_times_are_refused() {
    let (_, verifier, ring) = setup();
    let later = (now() + 600).to_string();
    let exp = sign_current(&ring, &with(good_claims(), "exp", json!(later)));
    assert_eq!(verifier.verify(&exp), Err(TokenError::InvalidClaim("exp")));
    let iat = sign_current(&ring, &with(good_claims(), "iat", json!(now().to_string())));
    assert_eq!(verifier.verify(&iat), Err(TokenError::InvalidClaim("iat")));
    let sub = sign_current(&ring, &with(good_claims(), "sub", json!(42)));
    assert_eq!(verifier.verify(&sub), Err(TokenError::InvalidClaim("sub")));
    let fractional = sign_current(&ring, &with(good_claims(), "exp", json!(1e12)));
    assert_eq!(
        verifier.verify(&fractional),
        Err(TokenError::InvalidClaim("exp"))
    );
}

#[test]
fn expired_tokens_are_refused_beyond_the_leeway() {
    let (_, verifier, ring) = setup();
    let stale = with(good_claims(), "iat", json!(now() - 3_600));
    let expired = sign_current(&ring, &with(stale.clone(), "exp", json!(now() - 120)));
    assert_eq!(verifier.verify(&expired), Err(TokenError::Expired));
    let within_leeway = sign_current(&ring, &with(stale, "exp", json!(now() - 5)));
    assert!(verifier.verify(&within_leeway).is_ok());
}

#[test]
fn tokens_from_the_future_are_refused() {
    let (_, verifier, ring) = setup();
    let nbf = sign_current(&ring, &with(good_claims(), "nbf", json!(now() + 300)));
    assert_eq!(verifier.verify(&nbf), Err(TokenError::NotYetValid));
    let iat = sign_current(&ring, &with(good_claims(), "iat", json!(now() + 300)));
    assert_eq!(verifier.verify(&iat), Err(TokenError::NotYetValid));
    let backwards = with(good_claims(), "exp", json!(now() + 10));
    let backwards = sign_current(&ring, &with(backwards, "iat", json!(now() + 20)));
    assert_eq!(
        verifier.verify(&backwards),
        Err(TokenError::InvalidClaim("exp"))
    );
}

#[test]
fn wrong_audience_or_issuer_is_refused() {
    let (_, verifier, ring) = setup();
    let aud = sign_current(&ring, &with(good_claims(), "aud", json!("another-service")));
    assert_eq!(verifier.verify(&aud), Err(TokenError::WrongAudience));
    let auds = sign_current(
        &ring,
        &with(good_claims(), "aud", json!(["another-service"])),
    );
    assert_eq!(verifier.verify(&auds), Err(TokenError::WrongAudience));
    let iss = sign_current(
        &ring,
        &with(good_claims(), "iss", json!("https://evil.example")),
    );
    assert_eq!(verifier.verify(&iss), Err(TokenError::WrongIssuer));
    // Same keys, other configuration: the issuer's own tokens do not cross over.
    let other = TokenVerifier::new(ring.clone(), ISS, "other-audience");
    let ours = sign_current(&ring, &good_claims());
    assert_eq!(other.verify(&ours), Err(TokenError::WrongAudience));
}

#[test]
fn unknown_token_kind_is_malformed() {
    let (_, verifier, ring) = setup();
    let token = sign_current(&ring, &with(good_claims(), "kind", json!("root")));
    assert_eq!(verifier.verify(&token), Err(TokenError::Malformed));
}

#[test]
fn malformed_shapes_are_refused() {
    let (_, verifier, ring) = setup();
    let good = sign_current(&ring, &good_claims());
    let (header, _) = good.split_once('.').unwrap();
    let oversized = format!("{good}{}", "A".repeat(MAX_TOKEN_BYTES));
    for token in [
        "",
        "abc",
        "a.b",
        "!!!.e30.AAAA",
        &format!("{good}.extra"),
        &format!("{header}.e30.AAAA.AAAA.AAAA"),
        &format!("{header}.not*base64.AAAA"),
        &format!("{}.e30.AAAA", URL_SAFE_NO_PAD.encode("not json")),
        &oversized,
    ] {
        assert!(verifier.verify(token).is_err(), "{token}");
    }
    assert_eq!(verifier.verify("a.b"), Err(TokenError::Malformed));
}

#[test]
fn error_messages_never_echo_the_token() {
    let (_, verifier, ring) = setup();
    let tokens = [
        sign_current(&ring, &with(good_claims(), "exp", json!("SECRET-EXP"))),
        sign_current(&ring, &with(good_claims(), "aud", json!("SECRET-AUD"))),
        sign_current(&ring, &with(good_claims(), "kind", json!("SECRET-KIND"))),
        sign(&ring.current, Some("SECRET-KID"), &good_claims()),
    ];
    for token in tokens {
        let err = verifier.verify(&token).unwrap_err();
        let text = format!("{err} {err:?} {}", err.code());
        assert!(!text.contains("SECRET"), "{text}");
        for part in token.split('.') {
            assert!(!text.contains(part), "{text}");
        }
    }
}

#[test]
fn rotation_keeps_old_tokens_valid_until_the_old_key_is_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let before = Arc::new(KeyRing::load_or_generate(dir.path()).unwrap());
    let old_token = TokenIssuer::new(before.clone(), ISS, AUD)
        .issue("user-1", TokenKind::User, None)
        .unwrap()
        .token;

    let retired_at = now();
    let rotated = Arc::new(KeyRing::rotate_with(dir.path(), retired_at, None).unwrap());
    assert_ne!(rotated.current.kid, before.current.kid);
    let issuer = TokenIssuer::new(rotated.clone(), ISS, AUD);
    let verifier = issuer.verifier();
    assert_eq!(verifier.verify(&old_token).unwrap().sub, "user-1");
    let new_token = issuer.issue("user-2", TokenKind::User, None).unwrap().token;
    let header = jsonwebtoken::decode_header(&new_token).unwrap();
    assert_eq!(header.kid.as_deref(), Some(rotated.current.kid.as_str()));
    assert!(verifier.verify(&new_token).is_ok());
    let kids: Vec<String> = rotated.jwks().keys.into_iter().map(|k| k.kid).collect();
    assert_eq!(
        kids,
        [rotated.current.kid.clone(), before.current.kid.clone()]
    );

    // A day later, with a one-hour retention, the old key goes.
    let hour = Duration::from_secs(3_600);
    KeyRing::prune_previous(dir.path(), retired_at + 86_400, hour).unwrap();
    let pruned = Arc::new(KeyRing::load_or_generate(dir.path()).unwrap());
    let verifier = TokenVerifier::new(pruned, ISS, AUD);
    assert_eq!(verifier.verify(&old_token), Err(TokenError::UnknownKey));
    assert!(verifier.verify(&new_token).is_ok());
}

#[test]
fn a_remembered_token_does_not_let_a_forged_twin_through() {
    let (_, verifier, ring) = setup();
    let token = sign_current(&ring, &good_claims());
    let first = verifier.verify(&token).unwrap();
    // The second verification is answered from memory, with the same claims,
    // and a clone of the verifier shares what it remembers.
    assert_eq!(verifier.clone().verify(&token).unwrap(), first);
    let (message, signature) = token.rsplit_once('.').unwrap();
    let mut bytes = URL_SAFE_NO_PAD.decode(signature).unwrap();
    bytes[7] ^= 0x01;
    let forged = format!("{message}.{}", URL_SAFE_NO_PAD.encode(&bytes));
    assert_eq!(verifier.verify(&forged), Err(TokenError::BadSignature));
    assert!(verifier.verify(&format!("{token}x")).is_err());
}

//! Idempotent creating requests: the `Idempotency-Key` value, the request's
//! fingerprint, and what to do with a retry.
//!
//! Contract (IETF draft-ietf-httpapi-idempotency-key-header):
//! - the header's value is a Structured Field String (RFC 8941 §3.3.3): `"…"`, printable
//!   ASCII (0x20..=0x7E), `\"` and `\\` the only escapes, no parameters. For clients
//!   that send the value bare, a bare value of visible ASCII (0x21..=0x7E) other than
//!   `"` and `\` is taken as the same key (`abc` and `"abc"` are one key). The key is
//!   1..=[`KEY_MAX`] characters (header field `Idempotency-Key`; rules
//!   `idempotency_key_empty`, `idempotency_key_too_long`, `idempotency_key_format`).
//!   The draft answers a malformed key with 400;
//! - a key is scoped to the caller (the store keys entries by caller and key) and kept
//!   at least [`RETENTION_HOURS`] hours; an entry older than that may be forgotten
//!   ([`expired`]), after which the key is new again;
//! - the fingerprint of a request is SHA-256 over its method, path and canonical body,
//!   each length-prefixed so that no two different requests share an input;
//!   [`canonical_json`] gives a JSON body's canonical bytes (object keys sorted, no
//!   white space), so a retry whose body differs only in key order or spacing matches;
//! - [`decide`] is the draft's table: no entry → [`Decision::Proceed`] (record "in
//!   progress" and process); an entry with another fingerprint → [`Decision::Mismatch`]
//!   (422), whether or not the first request has finished (the key is being reused for
//!   a different request, and saying so helps the client more than "wait"); same
//!   fingerprint still in progress → [`Decision::InProgress`] (409); same fingerprint
//!   done → [`Decision::Replay`] (the first response, as stored);
//! - a claim still in progress after [`LEASE_MINUTES`] minutes is abandoned (its
//!   request crashed or lost its connection before releasing it): [`abandoned`] says
//!   so, and the store treats it as no entry, so the next request with the key takes
//!   it over instead of being refused with 409 for a day.
//!
//! Pure: no clock, no store.

use chrono::{DateTime, TimeDelta, Utc};

use crate::domain::attachment::sha256_hex;
use crate::domain::error::DomainError;

/// The longest key accepted, in characters.
pub const KEY_MAX: usize = 255;

/// How long an entry is kept at least, in hours.
pub const RETENTION_HOURS: i64 = 24;

/// How long a claim may stay in progress before another request may take it
/// over, in minutes, unless the installation sets another lease (a request's work
/// takes seconds; see [`abandoned`]).
pub const LEASE_MINUTES: i64 = 5;

/// The shortest and longest lease an installation may set, in seconds: a shorter
/// one could let a retry run beside a slow request that is still working; a longer
/// one keeps a key whose request died blocked for most of a working session.
pub const LEASE_SECS_RANGE: std::ops::RangeInclusive<u64> = 10..=3600;

/// The request header (and the `field` of its refusals).
pub const HEADER: &str = "Idempotency-Key";

/// A valid `Idempotency-Key`, unquoted and unescaped.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IdempotencyKey(String);

fn refuse(rule: &str, message: impl Into<String>) -> DomainError {
    DomainError::invalid(HEADER, rule, message)
}

/// Unescapes the inside of a Structured Field String (after the opening quote).
fn sf_string(inner: &str) -> Result<String, DomainError> {
    let bad = || {
        refuse(
            "idempotency_key_format",
            "must be a string of printable ASCII in double quotes, with \\\" and \\\\ the only escapes and nothing after the closing quote",
        )
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    loop {
        match chars.next().ok_or_else(bad)? {
            '"' => {
                return if chars.next().is_none() {
                    Ok(out)
                } else {
                    Err(bad())
                };
            }
            '\\' => match chars.next() {
                Some(c @ ('"' | '\\')) => out.push(c),
                _ => return Err(bad()),
            },
            c if (' '..='~').contains(&c) => out.push(c),
            _ => return Err(bad()),
        }
    }
}

impl IdempotencyKey {
    /// Parses a header value (see the module doc).
    pub fn parse(raw: &str) -> Result<IdempotencyKey, DomainError> {
        let raw = raw.trim_matches(|c| c == ' ' || c == '\t');
        let key = match raw.strip_prefix('"') {
            Some(inner) => sf_string(inner)?,
            None if raw
                .chars()
                .all(|c| ('!'..='~').contains(&c) && c != '"' && c != '\\') =>
            {
                raw.to_owned()
            }
            None => {
                return Err(refuse(
                    "idempotency_key_format",
                    "a bare key may hold visible ASCII only (no spaces, quotes or backslashes); quote it as a string otherwise",
                ));
            }
        };
        if key.is_empty() {
            return Err(refuse("idempotency_key_empty", "must not be empty"));
        }
        if key.len() > KEY_MAX {
            return Err(refuse(
                "idempotency_key_too_long",
                format!("must be at most {KEY_MAX} characters"),
            ));
        }
        Ok(IdempotencyKey(key))
    }

    /// The key (ASCII, so its length in bytes is its length in characters).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The SHA-256 fingerprint of a request, as 64 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fingerprint(String);

impl Fingerprint {
    /// Fingerprints `method`, `path` (with its query, as the caller routes it) and the
    /// canonical `body` bytes.
    pub fn of(method: &str, path: &str, body: &[u8]) -> Fingerprint {
        let mut input = Vec::with_capacity(64 + method.len() + path.len() + body.len());
        input.extend_from_slice(b"roomtax-idempotency-v1\n");
        for part in [method.as_bytes(), path.as_bytes(), body] {
            input.extend_from_slice(&(part.len() as u64).to_be_bytes());
            input.extend_from_slice(part);
        }
        Fingerprint(sha256_hex(&input))
    }

    /// A stored fingerprint, if it is 64 lowercase hex digits.
    pub fn from_stored(hex: &str) -> Option<Fingerprint> {
        (hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
            .then(|| Fingerprint(hex.to_owned()))
    }

    /// The hex digits.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The canonical bytes of a JSON body: object keys sorted (by their UTF-8 bytes), no
/// white space, numbers and strings as `serde_json` writes them.
pub fn canonical_json(value: &serde_json::Value) -> Vec<u8> {
    fn write(value: &serde_json::Value, out: &mut Vec<u8>) {
        match value {
            serde_json::Value::Object(map) => {
                let mut entries: Vec<_> = map.iter().collect();
                entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
                out.push(b'{');
                for (i, (key, inner)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write(&serde_json::Value::String(key.clone()), out);
                    out.push(b':');
                    write(inner, out);
                }
                out.push(b'}');
            }
            serde_json::Value::Array(items) => {
                out.push(b'[');
                for (i, inner) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    write(inner, out);
                }
                out.push(b']');
            }
            scalar => out.extend_from_slice(scalar.to_string().as_bytes()),
        }
    }
    let mut out = Vec::new();
    write(value, &mut out);
    out
}

/// What the store holds for the caller's key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stored {
    /// Nothing (or an expired entry).
    None,
    /// The first request with this key is still being processed.
    InProgress(Fingerprint),
    /// The first request with this key finished; its response is stored.
    Done(Fingerprint),
}

/// What to do with a request carrying a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// A new key: record it in progress, process the request, store the response.
    Proceed,
    /// A retry of a finished request: answer with the stored response.
    Replay,
    /// A retry while the first request is still processed: 409.
    InProgress,
    /// The key was used for a different request: 422.
    Mismatch,
}

impl Decision {
    /// The HTTP status of a refusal (`None` for proceed and replay).
    pub fn status(self) -> Option<u16> {
        match self {
            Decision::Proceed | Decision::Replay => None,
            Decision::InProgress => Some(409),
            Decision::Mismatch => Some(422),
        }
    }
}

/// The decision table (see the module doc).
pub fn decide(stored: &Stored, this: &Fingerprint) -> Decision {
    match stored {
        Stored::None => Decision::Proceed,
        Stored::InProgress(first) | Stored::Done(first) if first != this => Decision::Mismatch,
        Stored::InProgress(_) => Decision::InProgress,
        Stored::Done(_) => Decision::Replay,
    }
}

/// Whether an entry created at `created_at` may be forgotten at `now` (older than
/// [`RETENTION_HOURS`]).
pub fn expired(created_at: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now - created_at > TimeDelta::hours(RETENTION_HOURS)
}

/// Whether a claim made at `claimed_at` and still in progress at `now` is abandoned
/// (older than `lease`, by default [`LEASE_MINUTES`]): its request may be taken over.
pub fn abandoned(claimed_at: DateTime<Utc>, now: DateTime<Utc>, lease: TimeDelta) -> bool {
    now - claimed_at > lease
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rule(raw: &str) -> String {
        match IdempotencyKey::parse(raw) {
            Err(DomainError::Invalid { field, rule, .. }) => {
                assert_eq!(field, HEADER);
                rule
            }
            other => panic!("{raw:?}: {other:?}"),
        }
    }

    #[test]
    fn keys_as_structured_strings_or_bare() {
        let key = |raw: &str| IdempotencyKey::parse(raw).unwrap().as_str().to_owned();
        assert_eq!(
            key("\"8e03978e-40d5-43e8-bc93-6894a57f9324\""),
            "8e03978e-40d5-43e8-bc93-6894a57f9324"
        );
        assert_eq!(
            key("8e03978e-40d5-43e8-bc93-6894a57f9324"),
            "8e03978e-40d5-43e8-bc93-6894a57f9324"
        );
        assert_eq!(key("\"abc\""), key("abc"));
        assert_eq!(key(" \"a b\" "), "a b");
        assert_eq!(key(r#""say \"hi\" \\ bye""#), r#"say "hi" \ bye"#);
        assert_eq!(key(&"k".repeat(KEY_MAX)).len(), KEY_MAX);
        assert_eq!(key(&format!("\"{}\"", "k".repeat(KEY_MAX))).len(), KEY_MAX);
    }

    #[test]
    fn malformed_keys_are_refused_with_their_rule() {
        assert_eq!(rule(""), "idempotency_key_empty");
        assert_eq!(rule("\"\""), "idempotency_key_empty");
        assert_eq!(rule(&"k".repeat(KEY_MAX + 1)), "idempotency_key_too_long");
        for raw in [
            "\"abc",         // unterminated
            "\"abc\";a=1",   // parameters
            "\"abc\" x",     // trailing text
            "\"a\\nb\"",     // an escape other than \" and \\
            "\"caf\u{e9}\"", // not ASCII
            "\"a\u{7}b\"",   // a control character
            "a b",           // bare with a space
            "ab\"c",         // bare with a quote
            "a\\b",          // bare with a backslash
            "caf\u{e9}",     // bare, not ASCII
        ] {
            assert_eq!(rule(raw), "idempotency_key_format", "{raw:?}");
        }
    }

    #[test]
    fn fingerprints_separate_method_path_and_body() {
        let base = Fingerprint::of(
            "POST",
            "/v1/municipalities/m/payors/p/returns",
            b"{\"a\":1}",
        );
        assert_eq!(
            base,
            Fingerprint::of(
                "POST",
                "/v1/municipalities/m/payors/p/returns",
                b"{\"a\":1}"
            )
        );
        assert_ne!(
            base,
            Fingerprint::of("PUT", "/v1/municipalities/m/payors/p/returns", b"{\"a\":1}")
        );
        assert_ne!(
            base,
            Fingerprint::of(
                "POST",
                "/v1/municipalities/m/payors/q/returns",
                b"{\"a\":1}"
            )
        );
        assert_ne!(
            base,
            Fingerprint::of(
                "POST",
                "/v1/municipalities/m/payors/p/returns",
                b"{\"a\":2}"
            )
        );
        // Moving bytes between parts changes the fingerprint (length prefixes).
        assert_ne!(
            Fingerprint::of("POST", "/ab", b"c"),
            Fingerprint::of("POST", "/a", b"bc")
        );
        assert_eq!(base.as_str().len(), 64);
        assert_eq!(Fingerprint::from_stored(base.as_str()), Some(base.clone()));
        assert_eq!(Fingerprint::from_stored("ABC"), None);
        // The documented construction, by hand.
        let mut input = b"roomtax-idempotency-v1\n".to_vec();
        for part in [&b"POST"[..], b"/x", b"{}"] {
            input.extend_from_slice(&(part.len() as u64).to_be_bytes());
            input.extend_from_slice(part);
        }
        let hex: String = <sha2::Sha256 as sha2::Digest>::digest(&input)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(Fingerprint::of("POST", "/x", b"{}").as_str(), hex);
    }

    #[test]
    fn canonical_json_ignores_key_order_and_spacing_only() {
        let a: serde_json::Value = serde_json::from_str(r#"{ "period": "2026-Q1", "gross_receipts": "100.00", "signer": {"title": "Owner", "name": "Ann"}, "exemptions": [{"code": "x", "amount": "1.00"}] }"#).unwrap();
        let b: serde_json::Value = serde_json::from_str(r#"{"exemptions":[{"amount":"1.00","code":"x"}],"signer":{"name":"Ann","title":"Owner"},"gross_receipts":"100.00","period":"2026-Q1"}"#).unwrap();
        assert_eq!(canonical_json(&a), canonical_json(&b));
        assert_eq!(
            String::from_utf8(canonical_json(&a)).unwrap(),
            r#"{"exemptions":[{"amount":"1.00","code":"x"}],"gross_receipts":"100.00","period":"2026-Q1","signer":{"name":"Ann","title":"Owner"}}"#
        );
        let reordered: serde_json::Value =
            serde_json::from_str(r#"{"exemptions":[{"code":"y"},{"code":"x"}]}"#).unwrap();
        let original: serde_json::Value =
            serde_json::from_str(r#"{"exemptions":[{"code":"x"},{"code":"y"}]}"#).unwrap();
        assert_ne!(
            canonical_json(&reordered),
            canonical_json(&original),
            "array order counts"
        );
        let escaped: serde_json::Value = serde_json::from_str(r#"{"k":"a\"b\u00e9"}"#).unwrap();
        assert_eq!(
            String::from_utf8(canonical_json(&escaped)).unwrap(),
            "{\"k\":\"a\\\"bé\"}"
        );
    }

    #[test]
    fn the_decision_table() {
        let f = Fingerprint::of("POST", "/x", b"1");
        let g = Fingerprint::of("POST", "/x", b"2");
        let cases = [
            (Stored::None, &f, Decision::Proceed, None),
            (
                Stored::InProgress(f.clone()),
                &f,
                Decision::InProgress,
                Some(409),
            ),
            (
                Stored::InProgress(f.clone()),
                &g,
                Decision::Mismatch,
                Some(422),
            ),
            (Stored::Done(f.clone()), &f, Decision::Replay, None),
            (Stored::Done(f.clone()), &g, Decision::Mismatch, Some(422)),
        ];
        for (stored, this, decision, status) in cases {
            assert_eq!(decide(&stored, this), decision, "{stored:?}");
            assert_eq!(decision.status(), status);
        }
    }

    #[test]
    fn entries_are_kept_for_a_day() {
        let t0 = DateTime::parse_from_rfc3339("2026-05-01T04:30:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert!(!expired(t0, t0 + TimeDelta::hours(24)));
        assert!(expired(
            t0,
            t0 + TimeDelta::hours(24) + TimeDelta::seconds(1)
        ));
    }

    #[test]
    fn a_claim_in_progress_is_leased_for_five_minutes_unless_set_otherwise() {
        let t0 = DateTime::parse_from_rfc3339("2026-05-01T04:30:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let lease = TimeDelta::minutes(LEASE_MINUTES);
        assert!(!abandoned(t0, t0 + TimeDelta::minutes(5), lease));
        assert!(abandoned(
            t0,
            t0 + TimeDelta::minutes(5) + TimeDelta::seconds(1),
            lease
        ));
        // An installation's shorter lease.
        let short = TimeDelta::seconds(20);
        assert!(!abandoned(t0, t0 + short, short));
        assert!(abandoned(t0, t0 + short + TimeDelta::seconds(1), short));
    }

    proptest! {
        #[test]
        fn every_printable_string_round_trips_through_its_quoted_form(key in "[ -~]{1,255}") {
            let quoted = format!("\"{}\"", key.replace('\\', "\\\\").replace('"', "\\\""));
            let parsed = IdempotencyKey::parse(&quoted).unwrap();
            // Leading and trailing spaces survive inside quotes.
            prop_assert_eq!(parsed.as_str(), key.as_str());
        }
    }
}

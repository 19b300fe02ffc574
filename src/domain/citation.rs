//! A citation: the ordinance paragraph (and statute) a rule or figure comes from.
//!
//! Contract: reads as the text it holds (`Deref<Target = str>`, `Display`,
//! equality with `str`), serialises and deserialises as a JSON string, so a
//! [`Citation`] field looks exactly like a `String` one on the wire and in
//! the OpenAPI document (fields say `#[schema(value_type = String)]`).
//!
//! Why a type: a policy's citations are long quotations of the ordinance
//! (hundreds of bytes, full of `"` to escape) and every computed [`Line`]
//! repeats one. A quote carried ten copies of them, each copied into a new
//! `String` and escaped anew into the response: half of a quote's body and
//! about a quarter of its instructions (callgrind, bench/results/README.md).
//! A citation is shared instead (a clone is a reference count), and its JSON
//! form is written once, the first time it is serialised, then reused by
//! every line and every response that shares it (the policies are kept in
//! memory, `usecases::public_law`).
//!
//! Serialisation writes the stored JSON text through `serde_json`'s raw
//! values, which only `serde_json`'s serialisers (`to_string`, `to_writer`,
//! `to_value`, actix's `Json`) understand; every body the service sends is
//! written by them. A citation is never changed in place: [`Citation::joined`]
//! makes a new one.
//!
//! [`Line`]: super::Line

use std::{
    fmt,
    ops::Deref,
    sync::{Arc, OnceLock},
};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// Where a rule or figure comes from, e.g. "Montello room tax, interest ¶".
#[derive(Clone)]
pub struct Citation(Arc<Shared>);

struct Shared {
    text: Box<str>,
    /// The text as a JSON string, written the first time it is serialised.
    json: OnceLock<Box<RawValue>>,
}

impl Citation {
    /// A citation reading `text`.
    pub fn new(text: impl Into<Box<str>>) -> Citation {
        Citation(Arc::new(Shared {
            text: text.into(),
            json: OnceLock::new(),
        }))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0.text
    }

    /// A new citation: this one followed by `more` (this one is unchanged, so
    /// the lines that share it are too).
    pub fn joined(&self, more: &str) -> Citation {
        Citation::new(format!("{}{more}", self.as_str()))
    }

    fn json(&self) -> &RawValue {
        self.0.json.get_or_init(|| {
            serde_json::value::to_raw_value(self.as_str())
                .expect("a string always serialises to JSON")
        })
    }
}

/// An empty citation (where none applies).
impl Default for Citation {
    fn default() -> Citation {
        Citation::new("")
    }
}

impl Deref for Citation {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Citation {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Citation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for Citation {
    fn eq(&self, other: &Citation) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.as_str() == other.as_str()
    }
}

impl Eq for Citation {}

impl PartialEq<str> for Citation {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Citation {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl From<&str> for Citation {
    fn from(text: &str) -> Citation {
        Citation::new(text)
    }
}

impl From<String> for Citation {
    fn from(text: String) -> Citation {
        Citation::new(text)
    }
}

impl From<&String> for Citation {
    fn from(text: &String) -> Citation {
        Citation::new(text.as_str())
    }
}

/// A shared citation: the same text, no copy.
impl From<&Citation> for Citation {
    fn from(citation: &Citation) -> Citation {
        citation.clone()
    }
}

impl From<Citation> for String {
    fn from(citation: Citation) -> String {
        citation.as_str().to_owned()
    }
}

impl Serialize for Citation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Citation {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Citation, D::Error> {
        String::deserialize(deserializer).map(Citation::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUOTED: &str =
        "Montello room tax, interest ¶: \"at the rate of 12% per annum\"\n\\ § 66.0615 \u{1}";

    #[test]
    fn serialises_as_the_json_string_of_its_text_every_time() {
        let c = Citation::from(QUOTED);
        let expected = serde_json::to_string(QUOTED).unwrap();
        assert_eq!(serde_json::to_string(&c).unwrap(), expected);
        // The second time the stored form is written: the same bytes.
        assert_eq!(serde_json::to_string(&c.clone()).unwrap(), expected);
        assert_eq!(serde_json::to_string_pretty(&c).unwrap(), expected);
    }

    #[test]
    fn reads_back_and_converts_to_values_as_a_string() {
        let c = Citation::from(QUOTED);
        let json = serde_json::to_string(&c).unwrap();
        let back: Citation = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
        assert_eq!(back, QUOTED);
        assert_eq!(
            serde_json::to_value(&c).unwrap(),
            serde_json::Value::String(QUOTED.to_owned())
        );
        // Inside a map and a list, as a line's field is written.
        let nested = serde_json::json!({ "lines": [{ "citation": c }] });
        assert_eq!(nested["lines"][0]["citation"], QUOTED);
    }

    #[test]
    fn joined_leaves_the_shared_citation_unchanged() {
        let shared = Citation::from("Hayward room tax");
        let copy = shared.clone();
        let longer = copy.joined("; the tax shall accompany each return");
        assert_eq!(shared, "Hayward room tax");
        assert_eq!(copy, "Hayward room tax");
        assert_eq!(
            longer,
            "Hayward room tax; the tax shall accompany each return"
        );
        assert_eq!(
            serde_json::to_string(&longer).unwrap(),
            "\"Hayward room tax; the tax shall accompany each return\""
        );
    }
}

//! Free text of the registry: names and addresses.
//!
//! Contract: text is trimmed (Unicode white space) before it is judged and
//! stored. Refused: control characters (Unicode category Cc, rule
//! `no_control_characters`; line breaks and tabs are allowed in an
//! [`Address`] only), text that is empty or made only of white space or
//! invisible characters (zero-width spaces and joiners, word joiner, BOM,
//! soft hyphen, Hangul fillers, ...; rule `non_empty`), and text over the
//! limit in characters (rule `max_length`). Invisible characters inside
//! visible text are kept as sent.

use crate::domain::DomainError;

/// Longest name (legal name, trade name, contact, establishment name), in characters.
pub const NAME_MAX: usize = 200;
/// Longest address, in characters.
pub const ADDRESS_MAX: usize = 500;

/// Why a text was refused; callers name the rule (the registry and the
/// disclosure requests spell "empty" and "too long" differently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFault {
    /// A control character (other than a permitted line break or tab).
    Control,
    /// Empty after trimming, or only invisible characters.
    Empty,
    /// Longer than the limit.
    TooLong,
}

/// Whether `c` shows nothing on its own: white space, or a format or filler
/// character that renders as nothing.
pub fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{2800}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// Trim and judge `raw`: at most `max` characters, something visible, no
/// control characters except line breaks and tabs when `lines` is true.
pub fn judge(raw: &str, max: usize, lines: bool) -> Result<String, TextFault> {
    let value = raw.trim();
    let allowed = |c: char| !c.is_control() || (lines && matches!(c, '\n' | '\r' | '\t'));
    if !value.chars().all(allowed) {
        return Err(TextFault::Control);
    }
    if value.chars().all(is_invisible) {
        return Err(TextFault::Empty);
    }
    if value.chars().count() > max {
        return Err(TextFault::TooLong);
    }
    Ok(value.to_owned())
}

/// The registry's error for a text fault on `field`.
pub fn registry_fault(field: &str, fault: TextFault, max: usize) -> DomainError {
    match fault {
        TextFault::Control => DomainError::invalid(
            field,
            "no_control_characters",
            "must not contain control characters",
        ),
        TextFault::Empty => DomainError::invalid(
            field,
            "non_empty",
            "must not be empty, blank or made only of invisible characters",
        ),
        TextFault::TooLong => DomainError::invalid(
            field,
            "max_length",
            format!("must be at most {max} characters"),
        ),
    }
}

/// One line of free text on `field` (a payment's reference, a reversal's or a
/// deposit's reason): trimmed, 1 to `max` characters, something visible, no
/// control characters (the registry's rules and rule names).
pub fn one_line(field: &str, raw: &str, max: usize) -> Result<String, DomainError> {
    judge(raw, max, false).map_err(|fault| registry_fault(field, fault, max))
}

/// The key a legal name is searched by: its Unicode lower case (Rust's
/// `to_lowercase`, per character, so a prefix's key is a prefix of the
/// name's key). Stored beside the name so that the prefix filter is
/// case-insensitive on both backends (SQLite's `lower()` folds ASCII only).
pub fn search_key(text: &str) -> String {
    text.to_lowercase()
}

/// Free text of the registry, trimmed and judged (see the module docs): at
/// most `MAX` characters, line breaks and tabs only when `LINES`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text<const MAX: usize, const LINES: bool>(String);

/// A one-line name, 1 to 200 characters.
pub type Name = Text<NAME_MAX, false>;

/// A postal or street address, 1 to 500 characters, line breaks allowed.
pub type Address = Text<ADDRESS_MAX, true>;

impl<const MAX: usize, const LINES: bool> Text<MAX, LINES> {
    /// Parse the value of `field`.
    pub fn parse(field: &str, raw: &str) -> Result<Self, DomainError> {
        judge(raw, MAX, LINES)
            .map(Self)
            .map_err(|f| registry_fault(field, f, MAX))
    }

    /// The trimmed text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The trimmed text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rule(r: Result<Name, DomainError>) -> String {
        match r {
            Err(DomainError::Invalid { rule, .. }) => rule,
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn names_are_trimmed() {
        assert_eq!(
            Name::parse("legal_name", "  Lakeside Motel LLC ")
                .unwrap()
                .as_str(),
            "Lakeside Motel LLC"
        );
    }

    #[test]
    fn invisible_only_names_are_refused() {
        for raw in [
            "",
            "   ",
            "\u{200B}",
            "\u{00A0}\u{00A0}",
            "\u{200B}\u{200C}\u{200D}\u{2060}\u{FEFF}",
            "\u{3164}",
            "\u{00AD}",
        ] {
            assert_eq!(rule(Name::parse("legal_name", raw)), "non_empty", "{raw:?}");
        }
        assert!(Name::parse("legal_name", "Zero\u{200B}Width Inn").is_ok());
    }

    #[test]
    fn control_characters_are_refused_and_lines_only_in_addresses() {
        for raw in [
            "Lake\0side",
            "Lake\u{7}",
            "Line\nbreak",
            "\u{1B}[31m",
            "A\u{85}B",
        ] {
            assert_eq!(
                rule(Name::parse("legal_name", raw)),
                "no_control_characters",
                "{raw:?}"
            );
        }
        assert!(Address::parse("mailing_address", "12 Lake St\r\nMontello\tWI").is_ok());
        assert!(Address::parse("mailing_address", "12 Lake St\0").is_err());
    }

    #[test]
    fn lengths_count_characters() {
        assert!(Name::parse("dba", &"Ä".repeat(200)).is_ok());
        assert_eq!(rule(Name::parse("dba", &"Ä".repeat(201))), "max_length");
    }

    #[test]
    fn search_keys_fold_non_ascii_letters() {
        assert_eq!(search_key("ÄPFEL Haus"), "äpfel haus");
        assert!(search_key("Ölmühle GmbH").starts_with(&search_key("ÖLM")));
    }

    proptest! {
        #[test]
        fn a_parsed_name_is_trimmed_visible_and_bounded(raw in "\\PC{0,250}") {
            if let Ok(name) = Name::parse("legal_name", &raw) {
                let s = name.as_str();
                prop_assert_eq!(s, s.trim());
                prop_assert!(!s.chars().all(is_invisible));
                prop_assert!(s.chars().count() <= NAME_MAX);
                prop_assert!(!s.chars().any(char::is_control));
            }
        }

        #[test]
        fn a_prefix_key_is_a_prefix_of_the_key(name in "\\PC{1,40}", cut in 0usize..40) {
            let prefix: String = name.chars().take(cut).collect();
            prop_assert!(search_key(&name).starts_with(&search_key(&prefix)));
        }
    }
}

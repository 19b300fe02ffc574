//! How a payor is reached and identified: e-mail, telephone, seller's permit.
//!
//! Contract: each is free text first (trimmed, no control characters, not
//! blank, bounded; see [`super::text`]) and then has a shape: an e-mail
//! address has one `@`, a local part and a dotted domain, no white space
//! (rule `email`); a telephone number has 7 to 15 digits and otherwise only
//! `+`, spaces, `-`, `.`, parentheses and `x` (rule `phone`); a Wisconsin
//! seller's permit number is digits and hyphens, starting and ending with a
//! digit (rule `seller_permit`; the Department of Revenue's exact layout is
//! not enforced).

use super::text::{judge, registry_fault};
use crate::domain::DomainError;

/// Longest e-mail address (RFC 5321 path limit).
pub const EMAIL_MAX: usize = 254;
/// Longest telephone number as written.
pub const PHONE_MAX: usize = 40;
/// Longest seller's permit number as written.
pub const PERMIT_MAX: usize = 32;

fn text(field: &str, raw: &str, max: usize) -> Result<String, DomainError> {
    judge(raw, max, false).map_err(|f| registry_fault(field, f, max))
}

/// `value` when it has its shape (`ok`), else the fault `rule` on `field`.
fn shaped(
    field: &str,
    value: String,
    ok: bool,
    rule: &str,
    message: &str,
) -> Result<String, DomainError> {
    if ok {
        Ok(value)
    } else {
        Err(DomainError::invalid(field, rule, message))
    }
}

/// A plausible e-mail address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// Parse the value of `field`.
    pub fn parse(field: &str, raw: &str) -> Result<Self, DomainError> {
        let value = text(field, raw, EMAIL_MAX)?;
        let ok = match value.split_once('@') {
            Some((local, domain)) => {
                !local.is_empty()
                    && !domain.contains('@')
                    && domain.contains('.')
                    && !domain.starts_with('.')
                    && !domain.ends_with('.')
                    && !domain.contains("..")
                    && !value.chars().any(char::is_whitespace)
            }
            None => false,
        };
        let message = "must be an email address such as name@example.com";
        shaped(field, value, ok, "email", message).map(Self)
    }

    /// The address as given (trimmed).
    pub fn into_string(self) -> String {
        self.0
    }
}

/// A telephone number as people write it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phone(String);

impl Phone {
    /// Parse the value of `field`.
    pub fn parse(field: &str, raw: &str) -> Result<Self, DomainError> {
        let value = text(field, raw, PHONE_MAX)?;
        let digits = value.chars().filter(char::is_ascii_digit).count();
        let chars_ok = value
            .chars()
            .all(|c| c.is_ascii_digit() || " +-.()xX".contains(c));
        let ok = chars_ok && (7..=15).contains(&digits);
        let message = "must be a telephone number: 7 to 15 digits, with +, spaces, -, ., parentheses or x for an extension";
        shaped(field, value, ok, "phone", message).map(Self)
    }

    /// The number as given (trimmed).
    pub fn into_string(self) -> String {
        self.0
    }
}

/// A Wisconsin seller's permit number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SellerPermit(String);

impl SellerPermit {
    /// Parse the value of `field`.
    pub fn parse(field: &str, raw: &str) -> Result<Self, DomainError> {
        let value = text(field, raw, PERMIT_MAX)?;
        let ok = value.chars().all(|c| c.is_ascii_digit() || c == '-')
            && value.starts_with(|c: char| c.is_ascii_digit())
            && value.ends_with(|c: char| c.is_ascii_digit());
        let message = "must be digits and hyphens, e.g. 456-1234567890-02";
        shaped(field, value, ok, "seller_permit", message).map(Self)
    }

    /// The number as given (trimmed).
    pub fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn emails_phones_and_permits_have_a_shape() {
        assert!(Email::parse("e", " a@b.co ").is_ok());
        for bad in ["a@b", "a b@c.de", "@c.de", "a@@b.c", "a@.b.c", "a@b..c"] {
            assert!(Email::parse("e", bad).is_err(), "{bad}");
        }
        assert!(Phone::parse("p", "+1 (608) 555-0142 x12").is_ok());
        assert!(Phone::parse("p", "call me").is_err());
        assert!(Phone::parse("p", "12").is_err());
        assert!(SellerPermit::parse("s", "456-1234567890-02").is_ok());
        assert!(SellerPermit::parse("s", "-456").is_err());
        assert!(SellerPermit::parse("s", "ABC").is_err());
    }

    #[test]
    fn a_nul_is_a_control_character_not_a_shape_fault() {
        match Email::parse("contact_email", "a\0@b.co") {
            Err(DomainError::Invalid { rule, field, .. }) => {
                assert_eq!(
                    (field.as_str(), rule.as_str()),
                    ("contact_email", "no_control_characters")
                )
            }
            other => panic!("{other:?}"),
        }
    }

    proptest! {
        #[test]
        fn accepted_phones_have_seven_to_fifteen_digits(raw in "[0-9 +().x-]{0,40}") {
            if let Ok(p) = Phone::parse("p", &raw) {
                let digits = p.into_string().chars().filter(char::is_ascii_digit).count();
                prop_assert!((7..=15).contains(&digits));
            }
        }
    }
}

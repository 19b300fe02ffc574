//! The payor's request bodies: a registration and a change.

use serde::Deserialize;
use utoipa::ToSchema;

use super::present;
use crate::domain::registry::{self, AnnualElection, Election, Faults, Invalid};

/// A payor to register.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPayor {
    /// Legal name of the business that owes the tax, 1 to 200 characters.
    #[serde(default)]
    #[schema(required = true, value_type = String, max_length = 200, example = "Lakeside Motel LLC")]
    pub legal_name: Option<String>,
    /// Name the business trades under ("doing business as"), at most 200 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 200, example = "Lakeside Motel")]
    pub dba: Option<String>,
    /// Person to contact about the tax, at most 200 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub contact_name: Option<String>,
    /// Contact email address, at most 254 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 254, example = "owner@example.com")]
    pub contact_email: Option<String>,
    /// Contact telephone number: digits with optional `+`, spaces, `-`, `.`, parentheses and `x` (extension), 7 to 15 digits.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 40, example = "(608) 555-0142")]
    pub contact_phone: Option<String>,
    /// Mailing address for notices and forms, 1 to 500 characters (line breaks allowed).
    #[serde(default)]
    #[schema(required = true, value_type = String, max_length = 500, example = "12 Lake Street, Montello, WI 53949")]
    pub mailing_address: Option<String>,
    /// Wisconsin seller's permit number: digits and hyphens, at most 32 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 32, example = "456-1234567890-02")]
    pub seller_permit: Option<String>,
    /// Year the annual return covers: `calendar` or `fiscal` (`fiscal` only where the municipality's ordinance allows it; Hayward does not).
    #[serde(default)]
    #[schema(required = true, value_type = AnnualElection)]
    pub annual_election: Option<String>,
    /// Month (1 to 11) the fiscal year ends in; required when `annual_election` is `fiscal`, refused otherwise.
    #[serde(default)]
    #[schema(value_type = Option<i32>, minimum = 1, maximum = 11)]
    pub fiscal_year_end_month: Option<i64>,
}

/// Changes to a payor: any subset of the fields; `null` clears an optional field.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PayorPatch {
    /// New legal name, 1 to 200 characters (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, max_length = 200)]
    pub legal_name: Option<Option<String>>,
    /// New trade name, at most 200 characters; `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub dba: Option<Option<String>>,
    /// New contact person, at most 200 characters; `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub contact_name: Option<Option<String>>,
    /// New contact email, at most 254 characters; `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 254)]
    pub contact_email: Option<Option<String>>,
    /// New contact telephone number (as on create); `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 40)]
    pub contact_phone: Option<Option<String>>,
    /// New mailing address, 1 to 500 characters (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, max_length = 500)]
    pub mailing_address: Option<Option<String>>,
    /// New seller's permit number (digits and hyphens); `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 32)]
    pub seller_permit: Option<Option<String>>,
    /// New annual election (cannot be cleared). Switching to `calendar` clears a stored fiscal year end month.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = AnnualElection)]
    pub annual_election: Option<Option<String>>,
    /// New fiscal year end month, 1 to 11 (only with a `fiscal` election); `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i32>, minimum = 1, maximum = 11)]
    pub fiscal_year_end_month: Option<Option<i64>>,
}

impl NewPayor {
    /// Parse every field, reporting every fault at once.
    pub fn parse(self) -> Result<registry::NewPayor, Invalid> {
        let mut f = Faults::default();
        let legal_name = f.required("legal_name", self.legal_name);
        let dba = f.optional("dba", self.dba);
        let contact_name = f.optional("contact_name", self.contact_name);
        let contact_email = f.optional("contact_email", self.contact_email);
        let contact_phone = f.optional("contact_phone", self.contact_phone);
        let mailing_address = f.required("mailing_address", self.mailing_address);
        let seller_permit = f.optional("seller_permit", self.seller_permit);
        let kind = f.required("annual_election", self.annual_election);
        let month = f.optional("fiscal_year_end_month", self.fiscal_year_end_month);
        let election = match (kind, month) {
            (Some(kind), Some(month)) => f.take(Election::new(kind, month)),
            _ => None,
        };
        let payor = (|| {
            Some(registry::NewPayor {
                legal_name: legal_name?,
                dba: dba?,
                contact_name: contact_name?,
                contact_email: contact_email?,
                contact_phone: contact_phone?,
                mailing_address: mailing_address?,
                seller_permit: seller_permit?,
                election: election?,
            })
        })();
        f.finish(payor)
    }
}

impl PayorPatch {
    /// Parse every field present, reporting every fault at once.
    pub fn parse(self) -> Result<registry::PayorChanges, Invalid> {
        let mut f = Faults::default();
        let changes = registry::PayorChanges {
            legal_name: f.kept("legal_name", self.legal_name),
            dba: f.clearable("dba", self.dba),
            contact_name: f.clearable("contact_name", self.contact_name),
            contact_email: f.clearable("contact_email", self.contact_email),
            contact_phone: f.clearable("contact_phone", self.contact_phone),
            mailing_address: f.kept("mailing_address", self.mailing_address),
            seller_permit: f.clearable("seller_permit", self.seller_permit),
            annual_election: f.kept("annual_election", self.annual_election),
            fiscal_year_end_month: f.clearable("fiscal_year_end_month", self.fiscal_year_end_month),
        };
        f.change(changes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::payors::requests::{pair, rules};

    fn valid() -> NewPayor {
        NewPayor {
            legal_name: Some("  Lakeside Motel LLC ".into()),
            mailing_address: Some("12 Lake Street\nMontello, WI 53949".into()),
            annual_election: Some("calendar".into()),
            ..NewPayor::default()
        }
    }

    #[test]
    fn a_valid_payor_is_trimmed() {
        let p = valid().parse().unwrap();
        assert_eq!(p.legal_name.as_str(), "Lakeside Motel LLC");
        assert_eq!(p.election, Election::Calendar);
    }

    #[test]
    fn every_fault_is_reported_at_once() {
        let err = NewPayor {
            legal_name: Some("\u{200B} ".into()),
            dba: Some("x".repeat(201)),
            contact_name: Some("Dana\0".into()),
            contact_email: Some("not-an-email".into()),
            contact_phone: Some("12".into()),
            seller_permit: Some("ABC".into()),
            annual_election: Some("lunar".into()),
            fiscal_year_end_month: Some(12),
            ..NewPayor::default()
        }
        .parse()
        .unwrap_err();
        assert_eq!(
            rules(err),
            vec![
                pair("legal_name", "non_empty"),
                pair("dba", "max_length"),
                pair("contact_name", "no_control_characters"),
                pair("contact_email", "email"),
                pair("contact_phone", "phone"),
                pair("mailing_address", "required"),
                pair("seller_permit", "seller_permit"),
                pair("annual_election", "one_of"),
                pair("fiscal_year_end_month", "range"),
            ]
        );
    }

    #[test]
    fn required_fields_are_never_defaulted() {
        let err = NewPayor::default().parse().unwrap_err();
        assert_eq!(
            rules(err),
            vec![
                pair("legal_name", "required"),
                pair("mailing_address", "required"),
                pair("annual_election", "required"),
            ]
        );
    }

    #[test]
    fn a_patch_tells_absent_from_null() {
        let patch: PayorPatch =
            serde_json::from_str(r#"{"dba": null, "annual_election": "calendar"}"#).unwrap();
        let c = patch.parse().unwrap();
        assert_eq!(c.dba, Some(None));
        assert_eq!(c.contact_name, None);
        assert_eq!(c.annual_election, Some(AnnualElection::Calendar));
        let patch: PayorPatch = serde_json::from_str(r#"{"legal_name": null}"#).unwrap();
        assert_eq!(
            rules(patch.parse().unwrap_err()),
            vec![pair("legal_name", "not_null")]
        );
        let patch: PayorPatch = serde_json::from_str("{}").unwrap();
        assert_eq!(
            rules(patch.parse().unwrap_err()),
            vec![pair("body", "at_least_one_field")]
        );
    }
}

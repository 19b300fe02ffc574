//! Request bodies of the payor registry, and their parsing into
//! `domain::registry` values.
//!
//! Contract: every field is judged and every fault reported at once (one
//! 422 naming each field and rule). The rules of a value are the domain's;
//! the rules of a request's shape are here: `required` (a create needs the
//! field), `not_null` (a PATCH cannot clear this field) and
//! `at_least_one_field` (an empty PATCH would bump the version for
//! nothing). A required field is never filled with a default.

use chrono::NaiveDate;
use serde::{Deserialize, Deserializer};
use utoipa::ToSchema;

use crate::domain::{
    DomainError,
    registry::{
        self, Address, AnnualElection, Election, Email, EstablishmentKind, Faults, FiscalYearEnd,
        Invalid, Name, Phone, SellerPermit, Units,
    },
};

/// Deserialize a present field (even `null`) as `Some(..)`, so that a PATCH can
/// tell "absent" (`None`) from "clear it" (`Some(None)`).
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

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

/// Record that a payor or establishment has closed.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseRequest {
    /// Date it closes or closed (ISO 8601, e.g. `2026-10-31`); a future date shows `closing` until then. Not before an establishment's `opened_on`.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(required = true, value_type = NaiveDate)]
    pub closed_on: Option<NaiveDate>,
}

/// An establishment (lodging place) to add to a payor.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEstablishment {
    /// Name of the place, 1 to 200 characters.
    #[serde(default)]
    #[schema(required = true, value_type = String, max_length = 200, example = "Lakeside Motel")]
    pub name: Option<String>,
    /// Street address of the place, 1 to 500 characters (line breaks allowed).
    #[serde(default)]
    #[schema(required = true, value_type = String, max_length = 500)]
    pub address: Option<String>,
    /// Kind of place, from the ordinances' definition of hotel or motel.
    #[serde(default)]
    #[schema(required = true, value_type = EstablishmentKind)]
    pub kind: Option<String>,
    /// Rooms, or sites for a campground or RV park, 0 to 100000.
    #[serde(default)]
    #[schema(required = true, value_type = i32, minimum = 0, maximum = 100000)]
    pub units: Option<i64>,
    /// Date it opened, if known (ISO 8601).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<NaiveDate>)]
    pub opened_on: Option<NaiveDate>,
}

/// Changes to an establishment: any subset of the fields; `null` clears `opened_on`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EstablishmentPatch {
    /// New name, 1 to 200 characters (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, max_length = 200)]
    pub name: Option<Option<String>>,
    /// New street address, 1 to 500 characters (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, max_length = 500)]
    pub address: Option<Option<String>>,
    /// New kind (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = EstablishmentKind)]
    pub kind: Option<Option<String>>,
    /// New number of rooms or sites, 0 to 100000 (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = i32, minimum = 0, maximum = 100000)]
    pub units: Option<Option<i64>>,
    /// New opening date, not after a recorded `closed_on`; `null` clears it.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_patch")]
    #[schema(value_type = Option<NaiveDate>)]
    pub opened_on: Option<Option<NaiveDate>>,
}

/// A required field of a create request.
fn required<T>(f: &mut Faults, field: &str, value: Option<T>) -> Option<T> {
    if value.is_none() {
        f.invalid(field, "required", "this field is required");
    }
    value
}

/// A field of a PATCH that cannot be cleared: `null` is refused.
fn not_null<T>(f: &mut Faults, field: &str, value: Option<Option<T>>) -> Option<T> {
    if let Some(None) = value {
        f.invalid(
            field,
            "not_null",
            "cannot be cleared; omit it to keep the current value",
        );
    }
    value.flatten()
}

/// A required field parsed by `parse`.
fn req<R, T>(
    f: &mut Faults,
    field: &str,
    value: Option<R>,
    parse: impl FnOnce(&str, R) -> Result<T, DomainError>,
) -> Option<T> {
    let raw = required(f, field, value)?;
    f.take(parse(field, raw))
}

/// An optional field of a create: absent is `Some(None)`, a fault `None`.
fn opt<R, T>(
    f: &mut Faults,
    field: &str,
    value: Option<R>,
    parse: impl FnOnce(&str, R) -> Result<T, DomainError>,
) -> Option<Option<T>> {
    match value {
        None => Some(None),
        Some(raw) => f.take(parse(field, raw)).map(Some),
    }
}

/// A PATCH field that cannot be cleared: absent `None`, `null` refused.
fn keep<R, T>(
    f: &mut Faults,
    field: &str,
    value: Option<Option<R>>,
    parse: impl FnOnce(&str, R) -> Result<T, DomainError>,
) -> Option<T> {
    let raw = not_null(f, field, value)?;
    f.take(parse(field, raw))
}

/// A clearable PATCH field: absent `None`, `null` `Some(None)`.
fn clear<R, T>(
    f: &mut Faults,
    field: &str,
    value: Option<Option<R>>,
    parse: impl FnOnce(&str, R) -> Result<T, DomainError>,
) -> Option<Option<T>> {
    match value? {
        None => Some(None),
        Some(raw) => f.take(parse(field, raw)).map(Some),
    }
}

fn name(field: &str, raw: String) -> Result<Name, DomainError> {
    Name::parse(field, &raw)
}
fn address(field: &str, raw: String) -> Result<Address, DomainError> {
    Address::parse(field, &raw)
}
fn email(field: &str, raw: String) -> Result<Email, DomainError> {
    Email::parse(field, &raw)
}
fn phone(field: &str, raw: String) -> Result<Phone, DomainError> {
    Phone::parse(field, &raw)
}
fn permit(field: &str, raw: String) -> Result<SellerPermit, DomainError> {
    SellerPermit::parse(field, &raw)
}
fn election(field: &str, raw: String) -> Result<AnnualElection, DomainError> {
    AnnualElection::parse(field, &raw)
}
fn kind(field: &str, raw: String) -> Result<EstablishmentKind, DomainError> {
    EstablishmentKind::parse(field, &raw)
}

fn at_least_one(f: &mut Faults, empty: bool) {
    if empty {
        f.invalid(
            "body",
            "at_least_one_field",
            "send at least one field to change",
        );
    }
}

impl NewPayor {
    /// Parse every field, reporting every fault at once.
    pub fn parse(self) -> Result<registry::NewPayor, Invalid> {
        let mut f = Faults::default();
        let legal_name = req(&mut f, "legal_name", self.legal_name, name);
        let dba = opt(&mut f, "dba", self.dba, name);
        let contact_name = opt(&mut f, "contact_name", self.contact_name, name);
        let contact_email = opt(&mut f, "contact_email", self.contact_email, email);
        let contact_phone = opt(&mut f, "contact_phone", self.contact_phone, phone);
        let mailing_address = req(&mut f, "mailing_address", self.mailing_address, address);
        let seller_permit = opt(&mut f, "seller_permit", self.seller_permit, permit);
        let kind = req(&mut f, "annual_election", self.annual_election, election);
        let month = opt(
            &mut f,
            "fiscal_year_end_month",
            self.fiscal_year_end_month,
            FiscalYearEnd::parse,
        );
        let election = match (kind, month) {
            (Some(kind), Some(month)) => f.take(Election::new(kind, month)),
            _ => None,
        };
        match (
            legal_name,
            dba,
            contact_name,
            contact_email,
            contact_phone,
            mailing_address,
            seller_permit,
            election,
        ) {
            (
                Some(legal_name),
                Some(dba),
                Some(contact_name),
                Some(contact_email),
                Some(contact_phone),
                Some(mailing_address),
                Some(seller_permit),
                Some(election),
            ) if f.is_empty() => Ok(registry::NewPayor {
                legal_name,
                dba,
                contact_name,
                contact_email,
                contact_phone,
                mailing_address,
                seller_permit,
                election,
            }),
            _ => Err(f.into_invalid()),
        }
    }
}

impl PayorPatch {
    /// Parse every field present, reporting every fault at once.
    pub fn parse(self) -> Result<registry::PayorChanges, Invalid> {
        let mut f = Faults::default();
        at_least_one(
            &mut f,
            self.legal_name.is_none()
                && self.dba.is_none()
                && self.contact_name.is_none()
                && self.contact_email.is_none()
                && self.contact_phone.is_none()
                && self.mailing_address.is_none()
                && self.seller_permit.is_none()
                && self.annual_election.is_none()
                && self.fiscal_year_end_month.is_none(),
        );
        let changes = registry::PayorChanges {
            legal_name: keep(&mut f, "legal_name", self.legal_name, name),
            dba: clear(&mut f, "dba", self.dba, name),
            contact_name: clear(&mut f, "contact_name", self.contact_name, name),
            contact_email: clear(&mut f, "contact_email", self.contact_email, email),
            contact_phone: clear(&mut f, "contact_phone", self.contact_phone, phone),
            mailing_address: keep(&mut f, "mailing_address", self.mailing_address, address),
            seller_permit: clear(&mut f, "seller_permit", self.seller_permit, permit),
            annual_election: keep(&mut f, "annual_election", self.annual_election, election),
            fiscal_year_end_month: clear(
                &mut f,
                "fiscal_year_end_month",
                self.fiscal_year_end_month,
                FiscalYearEnd::parse,
            ),
        };
        f.check().map(|()| changes)
    }
}

impl CloseRequest {
    /// The closing date (required).
    pub fn parse(self) -> Result<NaiveDate, Invalid> {
        let mut f = Faults::default();
        match required(&mut f, "closed_on", self.closed_on) {
            Some(on) => Ok(on),
            None => Err(f.into_invalid()),
        }
    }
}

impl NewEstablishment {
    /// Parse every field, reporting every fault at once.
    pub fn parse(self) -> Result<registry::NewEstablishment, Invalid> {
        let mut f = Faults::default();
        let name = req(&mut f, "name", self.name, name);
        let address = req(&mut f, "address", self.address, address);
        let kind = req(&mut f, "kind", self.kind, kind);
        let units = req(&mut f, "units", self.units, Units::parse);
        match (name, address, kind, units) {
            (Some(name), Some(address), Some(kind), Some(units)) if f.is_empty() => {
                Ok(registry::NewEstablishment {
                    name,
                    address,
                    kind,
                    units,
                    opened_on: self.opened_on,
                })
            }
            _ => Err(f.into_invalid()),
        }
    }
}

impl EstablishmentPatch {
    /// Parse every field present, reporting every fault at once.
    pub fn parse(self) -> Result<registry::EstablishmentChanges, Invalid> {
        let mut f = Faults::default();
        at_least_one(
            &mut f,
            self.name.is_none()
                && self.address.is_none()
                && self.kind.is_none()
                && self.units.is_none()
                && self.opened_on.is_none(),
        );
        let changes = registry::EstablishmentChanges {
            name: keep(&mut f, "name", self.name, name),
            address: keep(&mut f, "address", self.address, address),
            kind: keep(&mut f, "kind", self.kind, kind),
            units: keep(&mut f, "units", self.units, Units::parse),
            opened_on: self.opened_on,
        };
        f.check().map(|()| changes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(err: Invalid) -> Vec<(String, String)> {
        err.0
            .into_iter()
            .map(|e| match e {
                DomainError::Invalid { field, rule, .. } => (field, rule),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    fn pair(field: &str, rule: &str) -> (String, String) {
        (field.to_owned(), rule.to_owned())
    }

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
        let err = NewEstablishment::default().parse().unwrap_err();
        assert_eq!(rules(err).len(), 4);
        assert_eq!(
            rules(CloseRequest::default().parse().unwrap_err()),
            vec![pair("closed_on", "required")]
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

    #[test]
    fn establishments_check_kind_and_units() {
        let err = NewEstablishment {
            name: Some("Cabins".into()),
            address: Some("1 Road".into()),
            kind: Some("castle".into()),
            units: Some(-1),
            opened_on: None,
        }
        .parse()
        .unwrap_err();
        assert_eq!(
            rules(err),
            vec![pair("kind", "one_of"), pair("units", "range")]
        );
    }
}

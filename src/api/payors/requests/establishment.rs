//! The establishment's request bodies: an addition and a change.

use chrono::NaiveDate;
use serde::Deserialize;
use utoipa::ToSchema;

use super::present;
use crate::domain::registry::{self, EstablishmentKind, Faults, Invalid};

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

impl NewEstablishment {
    /// Parse every field, reporting every fault at once.
    pub fn parse(self) -> Result<registry::NewEstablishment, Invalid> {
        let mut f = Faults::default();
        let name = f.required("name", self.name);
        let address = f.required("address", self.address);
        let kind = f.required("kind", self.kind);
        let units = f.required("units", self.units);
        let establishment = (|| {
            Some(registry::NewEstablishment {
                name: name?,
                address: address?,
                kind: kind?,
                units: units?,
                opened_on: self.opened_on,
            })
        })();
        f.finish(establishment)
    }
}

impl EstablishmentPatch {
    /// Parse every field present, reporting every fault at once.
    pub fn parse(self) -> Result<registry::EstablishmentChanges, Invalid> {
        let mut f = Faults::default();
        let changes = registry::EstablishmentChanges {
            name: f.kept("name", self.name),
            address: f.kept("address", self.address),
            kind: f.kept("kind", self.kind),
            units: f.kept("units", self.units),
            opened_on: self.opened_on,
        };
        f.change(changes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::payors::requests::{pair, rules};

    #[test]
    fn required_fields_are_never_defaulted() {
        let err = NewEstablishment::default().parse().unwrap_err();
        assert_eq!(
            rules(err),
            vec![
                pair("name", "required"),
                pair("address", "required"),
                pair("kind", "required"),
                pair("units", "required"),
            ]
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

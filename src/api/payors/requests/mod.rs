//! Request bodies and path keys of the payor registry, and their parsing
//! into `domain::registry` values.
//!
//! Contract: every field is judged and every fault reported at once (one
//! 422 naming each field and rule). The rules of a value and of a request's
//! shape (`required`, `not_null`, `at_least_one_field`) are the domain's
//! (`domain::registry::Faults`); what is here is the wire: field names,
//! their JSON types and their documentation. A required field is never
//! filled with a default. [`payor`] holds the payor's bodies,
//! [`establishment`] the establishment's; a close's body serves both.

mod establishment;
mod payor;

use chrono::NaiveDate;
use serde::{Deserialize, Deserializer};
use utoipa::ToSchema;

use crate::domain::registry::{Faults, Invalid};

pub use establishment::{EstablishmentPatch, NewEstablishment};
pub use payor::{NewPayor, PayorPatch};

/// Deserialize a present field (even `null`) as `Some(..)`, so that a PATCH can
/// tell "absent" (`None`) from "clear it" (`Some(None)`).
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// `{payor}` of a payor's path.
#[derive(Debug, Deserialize)]
pub struct PayorKey {
    /// Payor id.
    pub payor: String,
}

/// `{payor}/establishments/{establishment}` of an establishment's path.
#[derive(Debug, Deserialize)]
pub struct EstablishmentKey {
    /// Payor id.
    pub payor: String,
    /// Establishment id.
    pub establishment: String,
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

impl CloseRequest {
    /// The closing date (required).
    pub fn parse(self) -> Result<NaiveDate, Invalid> {
        let mut f = Faults::default();
        let closed_on = f.required("closed_on", self.closed_on);
        f.finish(closed_on)
    }
}

#[cfg(test)]
use crate::domain::registry::faults::testing::{pair, rules};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_close_needs_its_date() {
        assert_eq!(
            rules(CloseRequest::default().parse().unwrap_err()),
            vec![pair("closed_on", "required")]
        );
    }
}

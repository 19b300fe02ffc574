//! An establishment's vocabulary: its kind, its size and its dates.
//!
//! Contract: [`EstablishmentKind`] follows the ordinances' definition of
//! "hotel or motel" (Montello and Hayward room tax, definitions: hotels,
//! inns, motels, tourist homes, bed-and-breakfast establishments, lodging
//! and rooming houses, summer camps, apartment hotels, resorts, cabins,
//! campgrounds, recreational vehicle parks) plus short-term rentals (the
//! definitions' "any other building ... in which the accommodations are
//! available to the public"); rule `one_of`. [`Units`] is 0 to 100000 rooms or sites (rule
//! `range`). An establishment cannot close before it opened
//! (`not_before_opened` on `closed_on`) nor open after it closed
//! (`not_after_closed` on `opened_on`).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::DomainError;

/// Most rooms or sites one establishment may declare.
pub const UNITS_MAX: i64 = 100_000;

/// The kind of lodging place, from the ordinances' definition of "hotel or motel".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EstablishmentKind {
    /// Hotel.
    Hotel,
    /// Motel.
    Motel,
    /// Inn.
    Inn,
    /// Tourist home, tourist house or tourist court.
    TouristHome,
    /// Bed-and-breakfast establishment.
    BedAndBreakfast,
    /// Lodging house.
    LodgingHouse,
    /// Rooming house.
    RoomingHouse,
    /// Summer camp.
    SummerCamp,
    /// Apartment hotel.
    ApartmentHotel,
    /// Resort or resort lodge.
    Resort,
    /// Cabin or cabins.
    Cabin,
    /// Campground.
    Campground,
    /// Recreational vehicle park.
    RvPark,
    /// Short-term rental of a residence.
    ShortTermRental,
}

impl EstablishmentKind {
    /// Every kind.
    pub const ALL: [Self; 14] = [
        Self::Hotel,
        Self::Motel,
        Self::Inn,
        Self::TouristHome,
        Self::BedAndBreakfast,
        Self::LodgingHouse,
        Self::RoomingHouse,
        Self::SummerCamp,
        Self::ApartmentHotel,
        Self::Resort,
        Self::Cabin,
        Self::Campground,
        Self::RvPark,
        Self::ShortTermRental,
    ];

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hotel => "hotel",
            Self::Motel => "motel",
            Self::Inn => "inn",
            Self::TouristHome => "tourist_home",
            Self::BedAndBreakfast => "bed_and_breakfast",
            Self::LodgingHouse => "lodging_house",
            Self::RoomingHouse => "rooming_house",
            Self::SummerCamp => "summer_camp",
            Self::ApartmentHotel => "apartment_hotel",
            Self::Resort => "resort",
            Self::Cabin => "cabin",
            Self::Campground => "campground",
            Self::RvPark => "rv_park",
            Self::ShortTermRental => "short_term_rental",
        }
    }

    /// Parse the value of `field` (trimmed).
    pub fn parse(field: &str, raw: &str) -> Result<Self, DomainError> {
        Self::ALL
            .into_iter()
            .find(|k| k.as_str() == raw.trim())
            .ok_or_else(|| {
                let all: Vec<&str> = Self::ALL.iter().map(|k| k.as_str()).collect();
                DomainError::invalid(
                    field,
                    "one_of",
                    format!("must be one of: {}", all.join(", ")),
                )
            })
    }
}

/// Rooms, or sites for a campground or RV park.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Units(i32);

impl Units {
    /// Parse the value of `field`.
    pub fn parse(field: &str, raw: i64) -> Result<Self, DomainError> {
        match i32::try_from(raw) {
            Ok(n) if (0..=UNITS_MAX).contains(&raw) => Ok(Self(n)),
            _ => Err(DomainError::invalid(
                field,
                "range",
                format!("must be a whole number from 0 to {UNITS_MAX}"),
            )),
        }
    }

    /// The count.
    pub fn get(self) -> i32 {
        self.0
    }
}

/// A closing date against the opening date (rule `not_before_opened`).
pub fn closing_after_opening(
    opened_on: Option<NaiveDate>,
    closed_on: NaiveDate,
) -> Result<(), DomainError> {
    match opened_on {
        Some(opened) if closed_on < opened => Err(DomainError::invalid(
            "closed_on",
            "not_before_opened",
            format!("must not be before the opening date {opened}"),
        )),
        _ => Ok(()),
    }
}

/// An opening date against a recorded closing date (rule `not_after_closed`).
pub fn opening_before_closing(
    opened_on: Option<NaiveDate>,
    closed_on: Option<NaiveDate>,
) -> Result<(), DomainError> {
    match (opened_on, closed_on) {
        (Some(opened), Some(closed)) if opened > closed => Err(DomainError::invalid(
            "opened_on",
            "not_after_closed",
            format!("must not be after the recorded closing date {closed}"),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::compute::test_values::d;

    #[test]
    fn kinds_round_trip_and_unknown_ones_are_refused() {
        for k in EstablishmentKind::ALL {
            assert_eq!(EstablishmentKind::parse("kind", k.as_str()).unwrap(), k);
        }
        assert!(EstablishmentKind::parse("kind", "castle").is_err());
    }

    #[test]
    fn units_are_bounded() {
        assert_eq!(Units::parse("units", 0).unwrap().get(), 0);
        assert!(Units::parse("units", UNITS_MAX).is_ok());
        assert!(Units::parse("units", UNITS_MAX + 1).is_err());
        assert!(Units::parse("units", -1).is_err());
        assert!(Units::parse("units", i64::MAX).is_err());
    }

    #[test]
    fn dates_keep_their_order() {
        assert!(closing_after_opening(Some(d("2026-05-01")), d("2026-04-30")).is_err());
        assert!(closing_after_opening(Some(d("2026-05-01")), d("2026-05-01")).is_ok());
        assert!(closing_after_opening(None, d("2026-05-01")).is_ok());
        assert!(opening_before_closing(Some(d("2026-05-02")), Some(d("2026-05-01"))).is_err());
        assert!(opening_before_closing(Some(d("2026-05-01")), None).is_ok());
    }
}

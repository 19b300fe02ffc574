//! Seats of a zone's tourism commission held by a member municipality, from that
//! member's annual room-tax collections (Wis. Stat. § 66.0615(1m)(c); Montello room tax,
//! definitions ¶ "Zone": the commission is established in accord with § 66.0615(1m)(c)2):
//! at or below $300,000 → 1 seat; above $300,000 and at or below $1,000,000 → 2 seats;
//! above $1,000,000 → 3 seats. A statute rule, so no policy is needed.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::error::{DomainError, require_not_negative};
use crate::domain::explain::Line;
use crate::domain::money::Money;

const CITATION: &str = "Wis. Stat. § 66.0615(1m)(c): a member's seats on the zone commission follow its annual room-tax collections (1 seat at or below $300,000, 2 above $300,000 up to $1,000,000, 3 above $1,000,000)";

/// A member's seats and the explanation (line code `commission_seats`; its amount is the
/// annual collections the seats were counted from).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct SeatAllocation {
    /// Seats on the commission: 1, 2 or 3.
    pub seats: u8,
    /// Explanation; its amount is the annual collections.
    pub line: Line,
}

/// Seats from `annual_collections` (field `annual_collections`, not negative).
pub fn commission_seats(annual_collections: Money) -> Result<SeatAllocation, DomainError> {
    require_not_negative("annual_collections", annual_collections)?;
    let three_hundred_thousand = Money::from_cents(30_000_000);
    let one_million = Money::from_cents(100_000_000);
    let (seats, band) = if annual_collections <= three_hundred_thousand {
        (1, "at or below 300000.00")
    } else if annual_collections <= one_million {
        (2, "above 300000.00 and at or below 1000000.00")
    } else {
        (3, "above 1000000.00")
    };
    let explanation =
        format!("annual collections {annual_collections} are {band}: {seats} seat(s)");
    let line = Line::new(
        "commission_seats",
        annual_collections,
        explanation,
        CITATION,
    )
    .input("annual_collections", annual_collections)
    .input("seats", seats);
    Ok(SeatAllocation { seats, line })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_bands() {
        let cases = [
            ("0", 1),
            ("300000.00", 1),
            ("300000.01", 2),
            ("1000000.00", 2),
            ("1000000.01", 3),
            ("25000000.00", 3),
        ];
        for (collections, seats) in cases {
            assert_eq!(
                commission_seats(Money::parse(collections).unwrap())
                    .unwrap()
                    .seats,
                seats,
                "{collections}"
            );
        }
        assert!(commission_seats(Money::from_cents(-1)).is_err());
    }
}

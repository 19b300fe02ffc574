//! Montello's city vehicle registration fee remittance.
//!
//! Contract: for `vehicles` fee-paying registrations the DOT collects `vehicles × fee`
//! ($20), keeps `vehicles × retention` (its administrative cost, $0.17 per vehicle
//! today, a policy parameter) and remits the net, which goes to the segregated fund
//! restricted to streets, roads and transportation. gross = retention + net to the cent.
//! A policy without the fee (Hayward) refuses (field `vehicles`, rule `no_vehicle_fee`).
//! Sources: Montello vehicle registration fee, fee ¶, purpose ¶ and DOT retention ¶;
//! Wis. Stat. § 341.35.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::domain::error::DomainError;
use crate::domain::explain::Line;
use crate::domain::money::Money;
use crate::domain::policy::Policy;

/// The three amounts of a remittance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct VehicleFeeRemittance {
    /// Fees collected by the DOT (code `vehicle_fee_gross`).
    pub gross: Line,
    /// The DOT's administrative retention (code `vehicle_fee_dot_retention`).
    pub dot_retention: Line,
    /// Remitted to the city's segregated fund (code `vehicle_fee_net`).
    pub net: Line,
}

/// The remittance for `vehicles` registrations.
pub fn vehicle_fee_remittance(
    policy: &Policy,
    vehicles: u32,
) -> Result<VehicleFeeRemittance, DomainError> {
    let Some(rule) = &policy.vehicle_registration_fee else {
        return Err(DomainError::invalid(
            "vehicles",
            "no_vehicle_fee",
            format!("{} levies no vehicle registration fee", policy.municipality),
        ));
    };
    let count = Decimal::from(vehicles);
    let fee = rule.fee_per_vehicle.value;
    let retention = rule.dot_retention_per_vehicle.value;
    let gross_amount = Money::round(fee.amount() * count);
    let retention_amount = Money::round(retention.amount() * count);
    let net_amount = gross_amount - retention_amount;
    let gross = Line::new(
        "vehicle_fee_gross",
        gross_amount,
        format!("{vehicles} vehicle(s) × {fee} = {gross_amount} collected by the DOT"),
        &rule.fee_per_vehicle.citation,
    )
    .input("vehicles", vehicles)
    .input("fee_per_vehicle", fee);
    let dot_retention = Line::new(
        "vehicle_fee_dot_retention",
        retention_amount,
        format!("{vehicles} vehicle(s) × {retention} = {retention_amount} kept by the DOT for its administrative costs"),
        &rule.dot_retention_per_vehicle.citation,
    )
    .input("vehicles", vehicles)
    .input("dot_retention_per_vehicle", retention);
    let net = Line::new(
        "vehicle_fee_net",
        net_amount,
        format!(
            "{gross_amount} − {retention_amount} = {net_amount} to the fund: {}",
            rule.fund.value
        ),
        &rule.fund.citation,
    )
    .input("gross", gross_amount)
    .input("dot_retention", retention_amount);
    Ok(VehicleFeeRemittance {
        gross,
        dot_retention,
        net,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::presets::{hayward, montello};

    #[test]
    fn montello_remittance() {
        let cases = [
            (1, "20.00", "0.17", "19.83"),
            (1000, "20000.00", "170.00", "19830.00"),
            (0, "0.00", "0.00", "0.00"),
            (3, "60.00", "0.51", "59.49"),
        ];
        for (vehicles, gross, retention, net) in cases {
            let r = vehicle_fee_remittance(&montello(), vehicles).unwrap();
            let m = |s: &str| Money::parse(s).unwrap();
            assert_eq!(
                (r.gross.amount, r.dot_retention.amount, r.net.amount),
                (m(gross), m(retention), m(net))
            );
            assert_eq!(r.dot_retention.amount + r.net.amount, r.gross.amount);
        }
        assert!(vehicle_fee_remittance(&hayward(), 1).is_err());
    }
}

//! Use cases: the application layer between the transports and the rules.
//!
//! Contract: one module per capability. Each function runs inside the
//! caller's one unit of work (it takes the open connection, never opens its
//! own), takes the tenant context and domain types already parsed, asks
//! `domain` for every rule and `db` for every row, and returns domain or row
//! values. The JSON API, the CLI, the demo (and the web pages, `crate::web`) all call
//! these functions, so no rule is written twice. Nothing here knows HTTP.

pub mod accounts;
pub mod backup;
pub mod clearance;
pub mod disclosures;
pub mod expenditures;
pub mod idempotency;
pub mod judge;
pub mod ledger;
pub mod marketplace;
pub mod membership;
pub mod notices;
pub mod payors;
pub mod policies;
pub mod public_law;
pub mod remittances;
pub mod reports;
pub mod returns;
pub mod roster;
pub mod statistics;
pub mod tenants;
pub mod transfers;
pub mod vehicle_fee;

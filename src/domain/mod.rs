//! The ordinance engine: pure room-tax rules of the Wisconsin municipalities we serve.
//!
//! Contract: no I/O, no database, no HTTP, no floats. Everything here is a function of
//! its inputs and of a [`Policy`] (the ordinance as data, effective-dated in a
//! [`PolicyHistory`]); every computed amount is [`Money`] rounded once, half away from
//! zero, and comes with a [`Line`] giving its rule id, inputs, sentence and ordinance
//! citation. Invalid input is a [`DomainError::Invalid`] naming the request field and
//! the rule. Legal sources: `docs/ordinances/` (Montello and Hayward room-tax
//! ordinances) and Wis. Stat. § 66.0615; where they are silent, DESIGN §3 decides.
//!
//! Map: `money`, `period`, `calendar` (value types); `policy` (+ `policy/`), `presets`
//! (the ordinance as data); `citation` (shared, written as JSON once); `compute/` (one file per rule family); `quote` (what a
//! return owes, and the year's due calendar); `explain`, `error`.

pub mod attachment;
pub mod calendar;
pub mod citation;
pub mod clock;
pub mod compute;
pub mod delinquency;
pub mod determination;
pub mod disclosure;
pub mod error;
pub mod expenditure;
pub mod explain;
pub mod extension;
pub mod idempotency;
pub mod iso_date;
pub mod ledger;
pub mod marketplace;
pub mod money;
pub mod notice;
pub mod obligations;
pub mod period;
pub mod policy;
pub mod presets;
pub mod quote;
pub mod registry;
pub mod remittance;
pub mod returns;
pub mod roster;
pub mod state_report;
pub mod statistics;
pub mod tenant;
pub mod vehicle_fee;
pub mod zone_membership;

#[cfg(test)]
mod schema_tests;

pub use calendar::BusinessCalendar;
pub use citation::Citation;
pub use error::DomainError;
pub use explain::{DateLine, Line};
pub use money::{Money, MoneyParseError, allocate};
pub use period::{Period, PeriodParseError};
pub use policy::{Cited, Policy, PolicyError, PolicyHistory};
pub use quote::{DueItem, DueKind, Quote, QuoteInput, due_calendar, quote};

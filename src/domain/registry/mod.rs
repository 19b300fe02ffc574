//! The payor registry's vocabulary and field rules (parse, don't validate).
//!
//! Contract: every value of the registry a request may carry is a type here,
//! built only by a `parse` that refuses bad input with a [`DomainError`]
//! naming the JSON field and a stable rule (`non_empty`, `max_length`,
//! `no_control_characters`, `email`, `phone`, `seller_permit`, `one_of`,
//! `range`, `required_for_fiscal`, `only_for_fiscal`,
//! `fiscal_year_not_allowed`, `not_after_closed`, `not_before_opened`).
//! Text is trimmed before it is judged and stored; what leaves here
//! satisfies every CHECK of the `payors` and `establishments` tables. No
//! I/O, no HTTP, no SQL: the API and the CLI parse into these types, the use
//! cases in `usecases::payors` take them.
//!
//! Map: [`text`] (names, addresses, the one rule for free text), [`contact`]
//! (e-mail, telephone, seller's permit), [`election`] (the annual election
//! and the municipality's policy), [`establishment`] (kind, units, dates),
//! [`status`] (open, closing, closed), [`payor`] (a payor and an
//! establishment as accepted, and their changes), [`faults`] (every fault of
//! a request at once, and the rules of a request's shape).

pub mod contact;
pub mod election;
pub mod establishment;
pub mod faults;
pub mod payor;
pub mod status;
pub mod text;

pub use contact::{Email, Phone, SellerPermit};
pub use election::{AnnualElection, Election, FiscalYearEnd};
pub use establishment::{EstablishmentKind, Units, closing_after_opening, opening_before_closing};
pub use faults::{Faults, FieldValue, Invalid};
pub use payor::{EstablishmentChanges, NewEstablishment, NewPayor, PayorChanges};
pub use status::RegistryStatus;
pub use text::{Address, Name, TextFault, search_key};

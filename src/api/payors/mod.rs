//! `/v1/municipalities/{municipality}/payors`: the payor registry, the first
//! confidential resource (payors and the establishments they run).
//!
//! Contract:
//! - **Thin handlers.** Each handler authorises (through
//!   `tenancy::MunicipalityContext`), parses the request into
//!   `domain::registry` values ([`requests`]), calls one function of
//!   `usecases::payors` inside the request's tenant transaction, and shapes
//!   the response ([`responses`]). The rules live in the domain, the reads,
//!   writes and access-log entries in the use cases.
//! - **Who decides.** Reads go through `payor_filter` (clerk-treasurer,
//!   municipal staff and an API client with `payors:read` or `payors:write`
//!   read every payor of the municipality; an operator only its own; a
//!   disclosure grantee only the payors its active grants cover, read-only;
//!   anybody else gets 404), writes through `require(Action::WritePayors)` (a
//!   caller related to the municipality in another role gets 403, an
//!   unrelated one 404). A payor the caller may not read answers 404 exactly
//!   like one that does not exist.
//! - **Order of answers.** 401 (no valid token), then 404/403 (authorisation),
//!   then the request's own faults (400, 415, 422 on the body or parameters,
//!   428 without `If-Match`), then what the stored record says (404, 412 stale
//!   version, 409 already closed). The body is parsed concurrently but judged
//!   only after authorisation, so a caller without access learns nothing from it.
//! - **The access log.** Every payor a response shows is logged (record type
//!   `payor`, action `read`), a list page's payors included, and an
//!   establishment read as a read of its payor; writes are logged too
//!   (`create`, `update`, `close`; record type `payor` or `establishment`).
//! - **ETags** are strong and quoted: `"<version>"`. A payor's version covers
//!   its establishments (an establishment write bumps it); each establishment
//!   has its own version too. `PATCH` and `close` require `If-Match`
//!   ([`precondition`]: RFC 9110 semantics, `*` included).
//! - **One skeleton, one answer.** Every request goes through [`write`]
//!   (authorise, judge the input, then `If-Match`, name the actor, one use
//!   case) and answers with an [`answers::Answer`], which both sends and
//!   documents the status, `ETag` and `Location`.
//! - **Status** is derived on the day of the response: `open`, `closing` (a
//!   closing date still to come) or `closed`.
//! - **Nothing confidential is logged** through `tracing`: no names,
//!   addresses, contacts or permit numbers; ids only, and only in the access log.

pub mod answers;
pub mod close;
pub mod create;
pub mod establishments;
pub mod list;
pub mod precondition;
pub mod requests;
pub mod responses;
pub mod show;
pub mod transfers;
pub mod update;
pub mod write;

pub use crate::domain::registry::{AnnualElection, EstablishmentKind, RegistryStatus};
pub use precondition::IfMatch;
pub use requests::{
    CloseRequest, EstablishmentKey, EstablishmentPatch, NewEstablishment, NewPayor, PayorKey,
    PayorPatch,
};
pub use responses::{Establishment, Payor, PayorList, PayorSummary};

/// The service's date, which `status` and the election's policy are judged on:
/// the municipality's local date (America/Chicago), never the UTC date.
fn today() -> chrono::NaiveDate {
    crate::domain::clock::local_date(chrono::Utc::now())
}

//! `/v1/municipalities/{municipality}/payors/{payor}/establishments`: add,
//! read, change and close the lodging places a payor runs.
//!
//! Contract: writes are authorised like payor writes (clerk-treasurer,
//! staff, `payors:write`; an operator 403; unrelated callers 404); a read
//! like a payor read (whoever may read the payor, logged as a read of the
//! payor). An establishment is addressed under its payor: one of another
//! payor is 404. Changes and closes need `If-Match` with the
//! establishment's version (428 / 412; `*` matches any) and bump it; every
//! write also bumps the payor's version, so the payor's `ETag` follows what
//! its read shows. A closed payor takes no new establishment (409; one still
//! `closing` does); closing twice is 409; an establishment cannot close
//! before it opened (422). Every write is logged (record type `establishment`).

mod add;
mod change;
mod read;
mod record_close;

pub use add::create;
pub use change::update;
pub use read::show;
pub use record_close::close;

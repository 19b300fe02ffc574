//! Documents the service renders itself: a written notice as PDF ([`pdf`])
//! and a statement of account as PDF ([`statement`], on the same layout).
//!
//! Contract: pure functions from content to bytes, no I/O, no clock and no
//! randomness, so the same content always renders to the same bytes. The
//! use cases decide when to render (a notice is rendered once, when issued,
//! and the bytes stored as sent: `usecases::notices`; a statement each time
//! it is asked for: `usecases::ledger::statement::document`).

pub mod pdf;
pub mod statement;
mod widths;

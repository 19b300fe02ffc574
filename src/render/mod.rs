//! Documents the service renders itself: a written notice as PDF ([`pdf`]).
//!
//! Contract: pure functions from content to bytes, no I/O, no clock and no
//! randomness, so the same content always renders to the same bytes. The
//! use cases decide when to render (a notice is rendered once, when issued,
//! and the bytes stored as sent: `usecases::notices`).

pub mod pdf;
mod widths;

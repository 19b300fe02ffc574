//! The moment a request stamps what it records with.
//!
//! Contract: [`now`] is the application's clock (`AppState::clock`, fixed in
//! tests) in UTC, truncated to the microsecond: what both databases keep, so
//! a stamp reads back equal to the value written.

use chrono::{NaiveDateTime, SubsecRound};

use crate::app::AppState;

/// Now, as a record written by this request is stamped (see the module doc).
pub fn now(state: &AppState) -> NaiveDateTime {
    state.clock.now().naive_utc().trunc_subsecs(6)
}

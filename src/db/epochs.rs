//! Write counters for what this process keeps in memory of the database.
//!
//! Two memos answer hot reads without the database: a municipality's public
//! law (`usecases::public_law`, for quotes) and a caller's account, grants and
//! disclosures (`api::caller`, for every authenticated request). Each takes
//! the value of its [`Epoch`] when it reads, and uses what it read only while
//! the epoch is unchanged (and for a few seconds at most, which bounds how
//! long a write by another process sharing the database goes unseen).
//!
//! Contract: every query function that writes a row a memo reads calls
//! [`Epoch::bump`] on that memo's epoch before it writes; the unit of work
//! (`db::in_transaction_in`) bumps again, after its commit or rollback, every
//! epoch that moved while it ran. The second bump closes the window between
//! the write and its commit: a memo filled in that window read the old rows
//! under the new count, and the count moves past it once the rows are
//! committed.

use std::sync::atomic::{AtomicU64, Ordering};

/// A count of writes to one kind of row by this process.
#[derive(Debug)]
pub struct Epoch(AtomicU64);

impl Epoch {
    const fn new() -> Self {
        Self(AtomicU64::new(0))
    }

    /// The count now.
    pub fn now(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }

    /// Count a write.
    pub fn bump(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }
}

/// Policy versions and zone memberships: what a quote reads.
pub static PUBLIC_LAW: Epoch = Epoch::new();
/// Users, role grants, disclosure grants and API clients: what a caller holds.
pub static ACCESS: Epoch = Epoch::new();

const ALL: [&Epoch; 2] = [&PUBLIC_LAW, &ACCESS];

/// Every epoch's count, taken when a unit of work begins.
#[derive(Debug, Clone, Copy)]
pub struct Snapshot([u64; 2]);

/// Every epoch's count now.
pub fn snapshot() -> Snapshot {
    Snapshot(ALL.map(Epoch::now))
}

/// After a unit of work ends (committed or rolled back): bump every epoch that
/// moved since `before`.
pub fn settle(before: Snapshot) {
    for (epoch, was) in ALL.iter().zip(before.0) {
        if epoch.now() != was {
            epoch.bump();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settling_bumps_what_moved_past_its_write() {
        let before = snapshot();
        ACCESS.bump();
        let moved = ACCESS.now();
        settle(before);
        assert!(
            ACCESS.now() > moved,
            "a moved epoch is bumped past its write"
        );
    }
}

//! What the unit of work running on this thread remembers until it ends: the
//! payor rows it has locked, the policy histories and the payors' terms it
//! has read. A unit runs
//! on one thread from `BEGIN` to its end ([`super::in_transaction_in`] opens
//! and closes the memo), and the service takes no savepoints, so a lock
//! taken stays held, and rows read stay what this transaction sees of them
//! unless it writes them itself (the writers forget them: [`forget_policies`],
//! [`forget_terms`]).
//!
//! Why: a filing posts its journal and applies credit, and each posting took
//! the payor's lock again; the filing and the response each read the policy
//! versions. Measured with `log_statement` on PostgreSQL, those were 3 of a
//! filing's 41 round trips. Applying a payor's credit after its filing read
//! the payor and the zone's memberships again (2 of 31). Outside a unit
//! nothing is remembered.
//!
//! A read unit also holds the access-log entries of the confidential records
//! it read ([`defer_log`]): it may not write them itself (READ ONLY on
//! PostgreSQL; on SQLite a read that turned into a write would queue for the
//! one writer's lock), so they are handed to the log's appender when the
//! unit has ended well, and the records leave the service only once their
//! entries are committed (see `db::access_log::appender`).

use std::{any::Any, cell::RefCell, sync::Arc};

use super::models::AccessLogRow;

/// One unit's memo.
#[derive(Default)]
pub struct Memo {
    locks: Vec<(i64, String)>,
    policies: Vec<(i64, Arc<dyn Any + Send + Sync>)>,
    terms: Vec<(i64, String, Arc<dyn Any + Send + Sync>)>,
    /// A read unit's access-log entries (`None` in a write unit, which
    /// inserts its entries in its own transaction).
    deferred: Option<Vec<AccessLogRow>>,
}

thread_local! {
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// Open a memo for a unit starting on this thread (`reads_only`: a read
/// unit, whose access-log entries wait for [`close`]); give back the one it
/// replaces (a unit run inside another's work) to [`close`].
pub fn open(reads_only: bool) -> Option<Memo> {
    let memo = Memo {
        deferred: reads_only.then(Vec::new),
        ..Memo::default()
    };
    MEMO.with(|m| m.replace(Some(memo)))
}

/// Close this thread's memo and put back `outer`; the access-log entries the
/// unit deferred (none for a write unit).
pub fn close(outer: Option<Memo>) -> Vec<AccessLogRow> {
    MEMO.with(|m| m.replace(outer))
        .and_then(|memo| memo.deferred)
        .unwrap_or_default()
}

/// Keep `entry` for the read unit running on this thread to hand to the
/// appender when it ends; give it back (`Some`) in a write unit or outside
/// any unit, where the caller inserts it at once.
pub fn defer_log(entry: AccessLogRow) -> Option<AccessLogRow> {
    MEMO.with(|m| {
        match m
            .borrow_mut()
            .as_mut()
            .and_then(|memo| memo.deferred.as_mut())
        {
            Some(deferred) => {
                deferred.push(entry);
                None
            }
            None => Some(entry),
        }
    })
}

/// Whether the lock named `(tenant, id)` is still to be taken in this unit
/// (and, if so, noted as taken). Outside a unit, always `true`.
pub fn first_lock(tenant: i64, id: &str) -> bool {
    MEMO.with(|m| match m.borrow_mut().as_mut() {
        None => true,
        Some(memo) if memo.locks.iter().any(|(t, i)| *t == tenant && i == id) => false,
        Some(memo) => {
            memo.locks.push((tenant, id.to_owned()));
            true
        }
    })
}

/// The policy history this unit read for `tenant`, if any.
pub fn policies<T: Any + Send + Sync>(tenant: i64) -> Option<Arc<T>> {
    MEMO.with(|m| {
        m.borrow().as_ref().and_then(|memo| {
            memo.policies
                .iter()
                .find(|(t, _)| *t == tenant)
                .and_then(|(_, p)| Arc::clone(p).downcast::<T>().ok())
        })
    })
}

/// Remember the policy history read for `tenant` (nothing outside a unit).
pub fn remember_policies<T: Any + Send + Sync>(tenant: i64, parsed: Arc<T>) {
    MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut() {
            memo.policies.retain(|(t, _)| *t != tenant);
            memo.policies.push((tenant, parsed));
        }
    })
}

/// Forget what this unit read of `tenant`'s policy (it adds a version), and
/// so the terms of its payors, which hold the policy.
pub fn forget_policies(tenant: i64) {
    MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut() {
            memo.policies.retain(|(t, _)| *t != tenant);
        }
    });
    forget_terms(tenant, None);
}

/// The terms this unit read of `tenant`'s payor `payor`, if any.
pub fn terms<T: Any + Send + Sync>(tenant: i64, payor: &str) -> Option<Arc<T>> {
    MEMO.with(|m| {
        m.borrow().as_ref().and_then(|memo| {
            memo.terms
                .iter()
                .find(|(t, p, _)| *t == tenant && p == payor)
                .and_then(|(_, _, v)| Arc::clone(v).downcast::<T>().ok())
        })
    })
}

/// Remember the terms read of `tenant`'s payor `payor` (nothing outside a unit).
pub fn remember_terms<T: Any + Send + Sync>(tenant: i64, payor: &str, read: Arc<T>) {
    MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut() {
            memo.terms.retain(|(t, p, _)| !(*t == tenant && p == payor));
            memo.terms.push((tenant, payor.to_owned(), read));
        }
    })
}

/// Forget the terms this unit read of `tenant`'s payor `payor` (`None`: of
/// every payor of `tenant`): it writes the payor, or the tenant's zone
/// memberships.
pub fn forget_terms(tenant: i64, payor: Option<&str>) {
    MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut() {
            memo.terms
                .retain(|(t, p, _)| !(*t == tenant && payor.is_none_or(|only| only == p)));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_remembers_until_it_closes() {
        assert!(first_lock(1, "p"), "outside a unit");
        assert!(first_lock(1, "p"), "outside a unit, again");
        let outer = open(false);
        assert!(first_lock(1, "p"));
        assert!(!first_lock(1, "p"));
        assert!(first_lock(2, "p"), "another tenant's row");
        remember_policies(1, Arc::new(7_u32));
        assert_eq!(policies::<u32>(1).as_deref(), Some(&7));
        assert_eq!(policies::<u32>(2), None);
        forget_policies(1);
        assert_eq!(policies::<u32>(1), None);
        remember_policies(1, Arc::new(8_u32));
        remember_terms(1, "p", Arc::new(1_u8));
        remember_terms(1, "q", Arc::new(2_u8));
        remember_terms(2, "p", Arc::new(3_u8));
        assert_eq!(terms::<u8>(1, "p").as_deref(), Some(&1));
        forget_terms(1, Some("p"));
        assert_eq!(terms::<u8>(1, "p"), None);
        assert_eq!(terms::<u8>(1, "q").as_deref(), Some(&2));
        forget_policies(1);
        assert_eq!(
            terms::<u8>(1, "q"),
            None,
            "a policy version forgets the terms"
        );
        assert_eq!(terms::<u8>(2, "p").as_deref(), Some(&3), "another tenant's");
        forget_terms(2, None);
        assert_eq!(terms::<u8>(2, "p"), None);
        remember_terms(1, "p", Arc::new(1_u8));
        assert!(close(outer).is_empty(), "a write unit defers nothing");
        assert_eq!(terms::<u8>(1, "p"), None, "closed");
        assert!(first_lock(1, "p"), "closed");
        assert_eq!(policies::<u32>(1), None, "closed");
    }

    fn entry(id: &str) -> AccessLogRow {
        AccessLogRow {
            municipality_id: 1,
            id: id.to_owned(),
            at: chrono::NaiveDate::from_ymd_opt(2026, 12, 3)
                .and_then(|d| d.and_hms_opt(12, 0, 0))
                .expect("a date"),
            actor_kind: "user".into(),
            actor_id: "u".into(),
            basis: "clerk_treasurer".into(),
            record_type: "payor".into(),
            record_id: "p".into(),
            action: "read".into(),
            request_id: "r".into(),
        }
    }

    #[test]
    fn a_read_unit_keeps_its_log_entries_until_it_closes() {
        assert!(
            defer_log(entry("outside")).is_some(),
            "outside a unit: insert now"
        );
        let write = open(false);
        assert!(
            defer_log(entry("written")).is_some(),
            "a write unit inserts"
        );
        let read = open(true);
        assert!(defer_log(entry("a")).is_none());
        assert!(defer_log(entry("b")).is_none());
        let deferred = close(read);
        assert_eq!(
            deferred.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
            ["a", "b"],
            "in the order read"
        );
        assert!(
            defer_log(entry("again")).is_some(),
            "the outer write unit again"
        );
        assert!(close(write).is_empty());
    }
}

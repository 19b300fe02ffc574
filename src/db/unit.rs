//! What the unit of work running on this thread remembers until it ends: the
//! payor rows it has locked, the policy histories and what it has read of a
//! payor (its terms; its returns and their versions). A unit runs
//! on one thread from `BEGIN` to its end ([`super::in_transaction_in`] opens
//! and closes the memo), and the service takes no savepoints, so a lock
//! taken stays held, and rows read stay what this transaction sees of them
//! unless it writes them itself (the writers forget them: [`forget_policies`],
//! [`forget_payor`]; or, for rows only appended, add what they wrote:
//! [`update_payor_read`]). What another transaction commits meanwhile is the
//! reader's to rule out: on PostgreSQL (READ COMMITTED) a payor's returns are
//! remembered only once this unit holds the payor's lock ([`holds_lock`]).
//!
//! Why: a filing posts its journal and applies credit, and each posting took
//! the payor's lock again; the filing and the response each read the policy
//! versions. Measured with `log_statement` on PostgreSQL, those were 3 of a
//! filing's 41 round trips. Applying a payor's credit after its filing read
//! the payor and the zone's memberships again (2 of 31), and its returns and
//! their versions again (2 of 24). Outside a unit nothing is remembered.
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
    /// By tenant and payor, one value a type.
    payor_reads: Vec<(i64, String, Arc<dyn Any + Send + Sync>)>,
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
    if holds_lock(tenant, id) {
        return false;
    }
    MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut() {
            memo.locks.push((tenant, id.to_owned()));
        }
    });
    true
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
    forget_payor(tenant, None);
}

/// Whether this unit holds the lock named `(tenant, id)` ([`first_lock`]).
pub fn holds_lock(tenant: i64, id: &str) -> bool {
    MEMO.with(|m| {
        m.borrow()
            .as_ref()
            .is_some_and(|memo| memo.locks.iter().any(|(t, i)| *t == tenant && i == id))
    })
}

/// What this unit read of `tenant`'s payor `payor` as a `T` (its terms, its
/// returns), if any.
pub fn payor_read<T: Any + Send + Sync>(tenant: i64, payor: &str) -> Option<Arc<T>> {
    MEMO.with(|m| {
        m.borrow().as_ref().and_then(|memo| {
            memo.payor_reads
                .iter()
                .filter(|(t, p, _)| *t == tenant && p == payor)
                .find_map(|(_, _, v)| Arc::clone(v).downcast::<T>().ok())
        })
    })
}

/// Remember a `T` read of `tenant`'s payor `payor`, in place of the one
/// before (nothing outside a unit).
pub fn remember_payor_read<T: Any + Send + Sync>(tenant: i64, payor: &str, read: Arc<T>) {
    MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut() {
            memo.payor_reads
                .retain(|(t, p, v)| !(*t == tenant && p == payor && (**v).is::<T>()));
            memo.payor_reads.push((tenant, payor.to_owned(), read));
        }
    })
}

/// Change the `T` this unit read of `tenant`'s payor `payor`, if it read
/// one: a writer of rows only ever appended adds what it wrote.
pub fn update_payor_read<T: Any + Send + Sync + Clone>(
    tenant: i64,
    payor: &str,
    change: impl FnOnce(&mut T),
) {
    if let Some(read) = payor_read::<T>(tenant, payor) {
        let mut read = (*read).clone();
        change(&mut read);
        remember_payor_read(tenant, payor, Arc::new(read));
    }
}

/// Forget what this unit read of `tenant`'s payor `payor` (`None`: of every
/// payor of `tenant`): it writes the payor, or the tenant's zone memberships.
pub fn forget_payor(tenant: i64, payor: Option<&str>) {
    MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut() {
            memo.payor_reads
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
        remember_payor_read(1, "p", Arc::new(1_u8));
        remember_payor_read(1, "q", Arc::new(2_u8));
        remember_payor_read(2, "p", Arc::new(3_u8));
        assert_eq!(payor_read::<u8>(1, "p").as_deref(), Some(&1));
        forget_payor(1, Some("p"));
        assert_eq!(payor_read::<u8>(1, "p"), None);
        assert_eq!(payor_read::<u8>(1, "q").as_deref(), Some(&2));
        forget_policies(1);
        assert_eq!(
            payor_read::<u8>(1, "q"),
            None,
            "a policy version forgets the terms"
        );
        assert_eq!(
            payor_read::<u8>(2, "p").as_deref(),
            Some(&3),
            "another tenant's"
        );
        forget_payor(2, None);
        assert_eq!(payor_read::<u8>(2, "p"), None);
        remember_payor_read(1, "p", Arc::new(1_u8));
        assert!(close(outer).is_empty(), "a write unit defers nothing");
        assert_eq!(payor_read::<u8>(1, "p"), None, "closed");
        assert!(first_lock(1, "p"), "closed");
        assert_eq!(policies::<u32>(1), None, "closed");
    }

    #[test]
    fn a_payor_read_is_kept_by_type_and_updated_in_place() {
        let outer = open(false);
        assert!(!holds_lock(1, "p"));
        assert!(first_lock(1, "p"));
        assert!(holds_lock(1, "p"));
        assert!(!holds_lock(1, "q"), "another payor's lock");
        update_payor_read::<Vec<u8>>(1, "p", |v| v.push(9));
        assert_eq!(
            payor_read::<Vec<u8>>(1, "p"),
            None,
            "no read, nothing to update"
        );
        remember_payor_read(1, "p", Arc::new(vec![1_u8]));
        remember_payor_read(1, "p", Arc::new(String::from("terms")));
        update_payor_read::<Vec<u8>>(1, "p", |v| v.push(2));
        assert_eq!(payor_read::<Vec<u8>>(1, "p").as_deref(), Some(&vec![1, 2]));
        assert_eq!(
            payor_read::<String>(1, "p").as_deref().map(String::as_str),
            Some("terms"),
            "a read of another type stays"
        );
        remember_payor_read(1, "p", Arc::new(vec![5_u8]));
        assert_eq!(payor_read::<Vec<u8>>(1, "p").as_deref(), Some(&vec![5]));
        forget_payor(1, Some("p"));
        assert_eq!(payor_read::<String>(1, "p"), None, "forgets every type");
        close(outer);
        assert!(!holds_lock(1, "p"), "closed");
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

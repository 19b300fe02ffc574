//! What the unit of work running on this thread remembers until it ends: the
//! payor rows it has locked and the policy histories it has read. A unit runs
//! on one thread from `BEGIN` to its end ([`super::in_transaction_in`] opens
//! and closes the memo), and the service takes no savepoints, so a lock
//! taken stays held, and rows read stay what this transaction sees of them
//! unless it writes them itself (the writers forget them: [`forget_policies`]).
//!
//! Why: a filing posts its journal and applies credit, and each posting took
//! the payor's lock again; the filing and the response each read the policy
//! versions. Measured with `log_statement` on PostgreSQL, those were 3 of a
//! filing's 41 round trips. Outside a unit nothing is remembered.

use std::{any::Any, cell::RefCell, sync::Arc};

/// One unit's memo.
#[derive(Default)]
pub struct Memo {
    locks: Vec<(i64, String)>,
    policies: Vec<(i64, Arc<dyn Any + Send + Sync>)>,
}

thread_local! {
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// Open a memo for a unit starting on this thread; give back the one it
/// replaces (a unit run inside another's work) to [`close`].
pub fn open() -> Option<Memo> {
    MEMO.with(|m| m.replace(Some(Memo::default())))
}

/// Close this thread's memo and put back `outer`.
pub fn close(outer: Option<Memo>) {
    MEMO.with(|m| m.replace(outer));
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

/// Forget what this unit read of `tenant`'s policy (it adds a version).
pub fn forget_policies(tenant: i64) {
    MEMO.with(|m| {
        if let Some(memo) = m.borrow_mut().as_mut() {
            memo.policies.retain(|(t, _)| *t != tenant);
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
        let outer = open();
        assert!(first_lock(1, "p"));
        assert!(!first_lock(1, "p"));
        assert!(first_lock(2, "p"), "another tenant's row");
        remember_policies(1, Arc::new(7_u32));
        assert_eq!(policies::<u32>(1).as_deref(), Some(&7));
        assert_eq!(policies::<u32>(2), None);
        forget_policies(1);
        assert_eq!(policies::<u32>(1), None);
        remember_policies(1, Arc::new(8_u32));
        close(outer);
        assert!(first_lock(1, "p"), "closed");
        assert_eq!(policies::<u32>(1), None, "closed");
    }
}

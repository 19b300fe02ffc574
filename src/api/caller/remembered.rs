//! What callers hold, kept in memory between their requests.
//!
//! Every authenticated request needs its caller's live account, role grants
//! and disclosures: four reads of rows that change when a grant is given or
//! revoked, a disclosure recorded or revoked, an account deleted or an API
//! client revoked. A caller loaded from the database is remembered under its
//! key (a person's user id; a client's id with the scope its token asks for)
//! and reused while this process has written none of those rows since
//! (`db::epochs::ACCESS`, bumped by every such write and again after its
//! commit) and for [`FRESH_FOR`] at most, which bounds how long a change made
//! by another process sharing the database (the command line, a second
//! instance) goes unseen. A disclosure past its expiry is dropped on every
//! use, so expiry takes effect to the second. At most [`REMEMBERED`] callers
//! are kept.
//!
//! A web session is checked against its row on every request (signing out
//! ends it at once); only the account behind it comes from here.

use std::{
    collections::HashMap,
    sync::{LazyLock, Mutex},
    time::{Duration, Instant},
};

use chrono::NaiveDateTime;

use crate::{db::epochs::ACCESS, tenancy::Caller};

/// How long a caller read from the database is used without reading it again.
pub const FRESH_FOR: Duration = Duration::from_secs(5);
/// How many callers are kept at most.
pub const REMEMBERED: usize = 4096;

struct Entry<V> {
    value: V,
    read_at: Instant,
    epoch: u64,
}

/// Values read from the access rows, by key, kept while fresh (see the module
/// doc). One for callers ([`get`], [`put`]); `api::auth::me` keeps the slugs
/// of the tenants a caller's grants name in another.
pub struct Memo<V>(LazyLock<Mutex<HashMap<String, Entry<V>>>>);

impl<V: Clone> Memo<V> {
    /// An empty memo.
    pub const fn new() -> Self {
        Self(LazyLock::new(Mutex::default))
    }
}

impl<V: Clone> Default for Memo<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: Clone> Memo<V> {
    /// The value under `key` if it is still fresh.
    pub fn get(&self, key: &str) -> Option<V> {
        let entries = self.0.lock().ok()?;
        let entry = entries.get(key)?;
        (entry.read_at.elapsed() < FRESH_FOR && entry.epoch == ACCESS.now())
            .then(|| entry.value.clone())
    }

    /// Remember `value` under `key`, read when `ACCESS` stood at `epoch`
    /// (see [`epoch`]).
    pub fn put(&self, key: String, value: &V, epoch: u64) {
        let Ok(mut entries) = self.0.lock() else {
            return;
        };
        if entries.len() >= REMEMBERED {
            let now = ACCESS.now();
            entries.retain(|_, e| e.read_at.elapsed() < FRESH_FOR && e.epoch == now);
            if entries.len() >= REMEMBERED {
                entries.clear();
            }
        }
        entries.insert(
            key,
            Entry {
                value: value.clone(),
                read_at: Instant::now(),
                epoch,
            },
        );
    }
}

static CALLERS: Memo<Caller> = Memo::new();

/// The key of a person.
pub fn user_key(user_id: &str) -> String {
    format!("user:{user_id}")
}

/// The key of an API client asking for `scope`.
pub fn client_key(client_id: &str, scope: Option<&str>) -> String {
    format!("client:{client_id}:{}", scope.unwrap_or(""))
}

/// The caller remembered under `key`, if still fresh, with its disclosures
/// expired by `now` dropped; `None` when it must be read again (including a
/// person left with nothing, whose refusal the database read words).
pub fn get(key: &str, now: NaiveDateTime) -> Option<Caller> {
    let mut caller = CALLERS.get(key)?;
    caller.disclosures.retain(|d| d.expires_at > now);
    let holds_something = !caller.grants.is_empty()
        || !caller.disclosures.is_empty()
        || caller.client_tenant.is_some();
    holds_something.then_some(caller)
}

/// The count to remember a value under: take it before reading the value.
pub fn epoch() -> u64 {
    ACCESS.now()
}

/// Remember `caller` under `key`, read when `ACCESS` stood at `epoch`.
pub fn put(key: String, caller: &Caller, epoch: u64) {
    CALLERS.put(key, caller, epoch);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        auth::Role,
        tenancy::{DisclosureRef, GrantRef, Subject, Tenant},
    };

    fn caller(grants: bool, expires_at: NaiveDateTime) -> Caller {
        Caller {
            subject: Subject::User {
                id: "u".into(),
                email: "u@example.com".into(),
            },
            grants: if grants {
                vec![GrantRef {
                    id: "g".into(),
                    role: Role::ClerkTreasurer,
                    tenant: Tenant::Municipality(1),
                    payor_id: None,
                }]
            } else {
                vec![]
            },
            disclosures: vec![DisclosureRef {
                id: "d".into(),
                municipality_id: 1,
                expires_at,
            }],
            client_tenant: None,
        }
    }

    fn at(s: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M:%S").unwrap()
    }

    #[test]
    fn a_write_to_access_rows_forgets_every_caller() {
        let key = user_key(&crate::db::identity::new_id());
        put(
            key.clone(),
            &caller(true, at("2030-01-01 00:00:00")),
            epoch(),
        );
        ACCESS.bump();
        assert!(get(&key, at("2026-01-01 00:00:00")).is_none());
    }

    #[test]
    fn an_expired_disclosure_is_dropped_and_a_caller_left_with_nothing_is_read_again() {
        let key = user_key(&crate::db::identity::new_id());
        put(
            key.clone(),
            &caller(false, at("2026-06-01 00:00:00")),
            epoch(),
        );
        assert!(get(&key, at("2026-06-01 00:00:00")).is_none());
    }

    #[test]
    fn a_caller_read_under_an_older_epoch_is_not_used() {
        let key = client_key(&crate::db::identity::new_id(), Some("returns:read"));
        let stale = epoch();
        ACCESS.bump();
        put(key.clone(), &caller(true, at("2030-01-01 00:00:00")), stale);
        assert!(get(&key, at("2026-01-01 00:00:00")).is_none());
    }

    #[test]
    fn a_fresh_caller_is_used_with_its_live_disclosures() {
        // Other tests bump the epoch concurrently: retry until one round trip
        // runs between bumps (each takes microseconds).
        for _ in 0..1000 {
            let key = user_key(&crate::db::identity::new_id());
            put(
                key.clone(),
                &caller(true, at("2026-06-01 00:00:00")),
                epoch(),
            );
            if let Some(c) = get(&key, at("2026-05-31 23:59:59")) {
                assert_eq!(c.disclosures.len(), 1);
                let later = get(&key, at("2026-06-01 00:00:00"));
                if let Some(c) = later {
                    assert!(c.disclosures.is_empty(), "expired at 00:00:00 exactly");
                }
                return;
            }
        }
        panic!("a freshly remembered caller was never used");
    }
}

//! In-memory throttle for failed sign-ins, per account and per client address.
//!
//! Contract: after `max_failures` failures for one key within a sliding `window`, the key
//! is locked for `lockout` and [`Throttle::check`] answers [`RetryAfter`] (the handler
//! sends 429 with `Retry-After`). Unknown emails are counted like known ones, so the
//! throttle never reveals whether an account exists. Failures while locked do not extend
//! the lock. The clock is a parameter (`Instant`), so tests need no sleeping. Memory is
//! bounded: at most `capacity` keys, stale keys evicted first. State is per process
//! (several replicas each throttle on their own) and lost on restart. Keys hold emails
//! and addresses, so their `Debug` shows only the kind of key. [`SignInThrottle`] pairs
//! a per-account and a per-address throttle for the sign-in handler.

mod sign_in;

pub use sign_in::{Attempt, SignInThrottle};

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::net::IpAddr;
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How many failures within which window lock a key, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottlePolicy {
    /// Failures within `window` that lock the key (at least 1).
    pub max_failures: u32,
    /// The sliding window failures are counted in.
    pub window: Duration,
    /// How long a locked key stays locked.
    pub lockout: Duration,
}

impl ThrottlePolicy {
    /// Per account: 5 failures in 15 minutes lock it for 15 minutes.
    pub const PER_ACCOUNT: Self = Self {
        max_failures: 5,
        window: Duration::from_secs(15 * 60),
        lockout: Duration::from_secs(15 * 60),
    };
    /// Per client address: 20 failures in 15 minutes lock it for 15 minutes.
    pub const PER_ADDRESS: Self = Self {
        max_failures: 20,
        window: Duration::from_secs(15 * 60),
        lockout: Duration::from_secs(15 * 60),
    };
}

/// The key is locked; try again after this long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryAfter(pub Duration);

impl RetryAfter {
    /// Whole seconds for the `Retry-After` header: rounded up, at least 1.
    pub fn header_secs(&self) -> u64 {
        let secs = self.0.as_secs() + u64::from(self.0.subsec_nanos() > 0);
        secs.max(1)
    }

    /// The longer of two waits.
    pub fn longer(self, other: Self) -> Self {
        if other.0 > self.0 { other } else { self }
    }
}

/// What a throttle counts failures against.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ThrottleKey(String);

impl ThrottleKey {
    /// An account, by email (trimmed, lowercased), whether or not the account exists.
    pub fn account(email: &str) -> Self {
        Self(format!("account:{}", email.trim().to_lowercase()))
    }

    /// A client address. IPv6 addresses count per /64 (one host usually holds a whole
    /// /64); IPv4-mapped IPv6 addresses count as their IPv4 address.
    pub fn address(address: IpAddr) -> Self {
        let key = match address {
            IpAddr::V4(v4) => format!("ipv4:{v4}"),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => format!("ipv4:{v4}"),
                None => {
                    let s = v6.segments();
                    format!("ipv6:{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
                }
            },
        };
        Self(key)
    }
}

impl fmt::Debug for ThrottleKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.0.split(':').next().unwrap_or_default();
        write!(f, "ThrottleKey({kind}:[redacted])")
    }
}

#[derive(Debug, Default)]
struct Entry {
    /// Failure times within the window, oldest first (at most `max_failures`).
    failures: VecDeque<Instant>,
    locked_until: Option<Instant>,
}

impl Entry {
    fn is_locked(&self, now: Instant) -> bool {
        self.locked_until.is_some_and(|until| until > now)
    }

    fn forget_before(&mut self, now: Instant, window: Duration) {
        while self
            .failures
            .front()
            .is_some_and(|&at| now.saturating_duration_since(at) >= window)
        {
            self.failures.pop_front();
        }
    }

    fn is_stale(&self, now: Instant, window: Duration) -> bool {
        !self.is_locked(now)
            && self
                .failures
                .back()
                .is_none_or(|&at| now.saturating_duration_since(at) >= window)
    }

    fn last_activity(&self) -> Option<Instant> {
        self.failures.back().copied().max(self.locked_until)
    }
}

/// Failure counts for one kind of key under one policy. Thread-safe; each call holds a
/// mutex for a hash-map operation (eviction scans only when the map is full).
#[derive(Debug)]
pub struct Throttle {
    policy: ThrottlePolicy,
    capacity: usize,
    entries: Mutex<HashMap<ThrottleKey, Entry>>,
}

impl Throttle {
    /// Keys tracked at most, unless given otherwise.
    pub const DEFAULT_CAPACITY: usize = 100_000;

    /// A throttle with the given policy and [`Throttle::DEFAULT_CAPACITY`].
    pub fn new(policy: ThrottlePolicy) -> Self {
        Self::with_capacity(policy, Self::DEFAULT_CAPACITY)
    }

    /// A throttle tracking at most `capacity` keys (at least 1).
    pub fn with_capacity(policy: ThrottlePolicy, capacity: usize) -> Self {
        Self {
            policy,
            capacity: capacity.max(1),
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// `Ok` if `key` may try to sign in at `now`, else how long until it may.
    pub fn check(&self, key: &ThrottleKey, now: Instant) -> Result<(), RetryAfter> {
        match self.lock().get(key).and_then(|e| e.locked_until) {
            Some(until) if until > now => Err(RetryAfter(until - now)),
            _ => Ok(()),
        }
    }

    /// Failures of `key` inside the window at `now` (`usize::MAX` while locked).
    pub fn recent_failures(&self, key: &ThrottleKey, now: Instant) -> usize {
        let window = self.policy.window;
        match self.lock().get(key) {
            Some(e) if e.is_locked(now) => usize::MAX,
            Some(e) => e
                .failures
                .iter()
                .filter(|&&at| now.saturating_duration_since(at) < window)
                .count(),
            None => 0,
        }
    }

    /// The failures that lock a key.
    pub fn max_failures(&self) -> usize {
        self.policy.max_failures.max(1) as usize
    }

    /// Counts a failed sign-in for `key` at `now`, locking it at the limit.
    pub fn record_failure(&self, key: &ThrottleKey, now: Instant) {
        let policy = self.policy;
        let mut entries = self.lock();
        if !entries.contains_key(key) && entries.len() >= self.capacity {
            make_room(&mut entries, self.capacity, now, policy.window);
        }
        let entry = entries.entry(key.clone()).or_default();
        if entry.is_locked(now) {
            return;
        }
        entry.locked_until = None;
        entry.forget_before(now, policy.window);
        entry.failures.push_back(now);
        if entry.failures.len() >= policy.max_failures.max(1) as usize {
            entry.locked_until = Some(now + policy.lockout);
            entry.failures.clear();
        }
    }

    /// Forgets `key`'s failures (after a successful sign-in), ending any lock.
    pub fn record_success(&self, key: &ThrottleKey) {
        self.lock().remove(key);
    }

    /// Drops every key neither locked nor with a failure inside the window. Optional:
    /// the throttle also does it by itself when full.
    pub fn purge_stale(&self, now: Instant) {
        let window = self.policy.window;
        self.lock().retain(|_, entry| !entry.is_stale(now, window));
    }

    /// Keys currently tracked.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no key is tracked.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<ThrottleKey, Entry>> {
        // A panic elsewhere cannot leave an entry half-updated in a harmful way.
        self.entries
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Drops stale entries; if that frees nothing, drops the least recently active one (a
/// locked entry counts as active until its lock ends, so a flood of new keys evicts
/// locks last).
fn make_room(
    entries: &mut HashMap<ThrottleKey, Entry>,
    capacity: usize,
    now: Instant,
    window: Duration,
) {
    entries.retain(|_, entry| !entry.is_stale(now, window));
    if entries.len() < capacity {
        return;
    }
    let oldest = entries
        .iter()
        .min_by_key(|(_, entry)| entry.last_activity())
        .map(|(key, _)| key.clone());
    if let Some(key) = oldest {
        entries.remove(&key);
    }
}

#[cfg(test)]
mod tests {
    use std::net::{Ipv4Addr, Ipv6Addr};

    use super::*;

    const MINUTE: Duration = Duration::from_secs(60);

    fn fail(throttle: &Throttle, key: &ThrottleKey, at: Instant, times: u32) {
        for _ in 0..times {
            throttle.record_failure(key, at);
        }
    }

    #[test]
    fn the_sixth_attempt_inside_the_window_must_wait() {
        let throttle = Throttle::new(ThrottlePolicy::PER_ACCOUNT);
        let key = ThrottleKey::account("clerk@montello.example");
        let t0 = Instant::now();
        for i in 0..4 {
            throttle.record_failure(&key, t0 + i * MINUTE);
            assert_eq!(throttle.check(&key, t0 + i * MINUTE), Ok(()));
        }
        throttle.record_failure(&key, t0 + 4 * MINUTE);
        let wait = throttle.check(&key, t0 + 5 * MINUTE).unwrap_err();
        assert_eq!(wait, RetryAfter(14 * MINUTE));
        assert_eq!(wait.header_secs(), 14 * 60);
        // Failures while locked do not extend the lock.
        throttle.record_failure(&key, t0 + 10 * MINUTE);
        assert_eq!(throttle.check(&key, t0 + 19 * MINUTE), Ok(()));
    }

    #[test]
    fn success_resets_the_count() {
        let throttle = Throttle::new(ThrottlePolicy::PER_ACCOUNT);
        let key = ThrottleKey::account("a@b.example");
        let t0 = Instant::now();
        fail(&throttle, &key, t0, 4);
        throttle.record_success(&key);
        fail(&throttle, &key, t0, 4);
        assert_eq!(throttle.check(&key, t0), Ok(()));
        throttle.record_failure(&key, t0);
        assert!(throttle.check(&key, t0).is_err());
        throttle.record_success(&key);
        assert_eq!(throttle.check(&key, t0), Ok(()), "success ends a lock too");
    }

    #[test]
    fn failures_outside_the_window_are_forgotten() {
        let throttle = Throttle::new(ThrottlePolicy::PER_ACCOUNT);
        let key = ThrottleKey::account("a@b.example");
        let t0 = Instant::now();
        fail(&throttle, &key, t0, 4);
        // 15 minutes later the first four have left the sliding window.
        fail(&throttle, &key, t0 + 15 * MINUTE, 4);
        assert_eq!(throttle.check(&key, t0 + 15 * MINUTE), Ok(()));
        throttle.record_failure(&key, t0 + 16 * MINUTE);
        assert!(throttle.check(&key, t0 + 16 * MINUTE).is_err());
    }

    #[test]
    fn the_lock_ends_after_the_lockout_with_a_fresh_count() {
        let throttle = Throttle::new(ThrottlePolicy::PER_ACCOUNT);
        let key = ThrottleKey::account("a@b.example");
        let t0 = Instant::now();
        fail(&throttle, &key, t0, 5);
        assert!(
            throttle
                .check(&key, t0 + 15 * MINUTE - Duration::from_millis(1))
                .is_err()
        );
        let later = t0 + 15 * MINUTE;
        assert_eq!(throttle.check(&key, later), Ok(()));
        throttle.record_failure(&key, later);
        assert_eq!(throttle.check(&key, later), Ok(()));
    }

    #[test]
    fn accounts_are_case_insensitive_and_independent() {
        let throttle = Throttle::new(ThrottlePolicy::PER_ACCOUNT);
        let t0 = Instant::now();
        fail(
            &throttle,
            &ThrottleKey::account(" Clerk@Montello.example "),
            t0,
            5,
        );
        assert!(
            throttle
                .check(&ThrottleKey::account("clerk@montello.example"), t0)
                .is_err()
        );
        assert_eq!(
            throttle.check(&ThrottleKey::account("staff@montello.example"), t0),
            Ok(())
        );
    }

    #[test]
    fn ipv6_counts_per_64_and_mapped_ipv4_as_ipv4() {
        let a: Ipv6Addr = "2001:db8:1:2::1".parse().unwrap();
        let b: Ipv6Addr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let c: Ipv6Addr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(
            ThrottleKey::address(a.into()),
            ThrottleKey::address(b.into())
        );
        assert_ne!(
            ThrottleKey::address(a.into()),
            ThrottleKey::address(c.into())
        );
        let mapped: Ipv6Addr = "::ffff:192.0.2.7".parse().unwrap();
        let v4 = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));
        assert_eq!(
            ThrottleKey::address(mapped.into()),
            ThrottleKey::address(v4)
        );
    }

    #[test]
    fn memory_stays_bounded() {
        let throttle = Throttle::with_capacity(ThrottlePolicy::PER_ACCOUNT, 100);
        let t0 = Instant::now();
        for i in 0..1_000 {
            throttle.record_failure(&ThrottleKey::account(&format!("u{i}@x")), t0);
        }
        assert!(throttle.len() <= 100);
    }

    #[test]
    fn a_flood_of_new_keys_evicts_stale_keys_first_and_locks_last() {
        let throttle = Throttle::with_capacity(ThrottlePolicy::PER_ACCOUNT, 10);
        let t0 = Instant::now();
        let locked = ThrottleKey::account("locked@x");
        fail(&throttle, &locked, t0, 5);
        for i in 0..9 {
            throttle.record_failure(&ThrottleKey::account(&format!("u{i}@x")), t0);
        }
        assert_eq!(throttle.len(), 10);
        // Nothing is stale a minute later: the least recently active unlocked keys go.
        for i in 0..30 {
            let at = t0 + MINUTE + Duration::from_secs(i);
            throttle.record_failure(&ThrottleKey::account(&format!("v{i}@x")), at);
            assert!(throttle.len() <= 10);
        }
        assert!(throttle.check(&locked, t0 + 2 * MINUTE).is_err());
        // Once everything is past its window and lock, a purge empties the map.
        throttle.purge_stale(t0 + 60 * MINUTE);
        assert!(throttle.is_empty());
    }

    #[test]
    fn debug_shows_no_email_or_address() {
        let printed = format!(
            "{:?} {:?}",
            ThrottleKey::account("clerk@montello.example"),
            ThrottleKey::address(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7)))
        );
        assert!(
            !printed.contains("montello") && !printed.contains("192.0.2.7"),
            "{printed}"
        );
    }
}

//! The sign-in throttle: the per-account and per-address throttles used together.
//!
//! Contract: a sign-in attempt is refused while either its account (email) or its client
//! address is locked; a failure counts against both; a success clears only the account,
//! so one valid account cannot be used to reset guessing at others from the same address.
//! Attempts are admitted through [`SignInThrottle::begin`], which also counts the
//! attempts still in flight: guesses sent in parallel cannot outrun the limit while
//! their passwords are being checked.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::{RetryAfter, Throttle, ThrottleKey, ThrottlePolicy};

/// The sign-in throttle: one [`Throttle`] per account, one per client address.
#[derive(Debug)]
pub struct SignInThrottle {
    accounts: Throttle,
    addresses: Throttle,
    in_flight: Mutex<HashMap<ThrottleKey, usize>>,
}

/// An admitted sign-in attempt; dropping it ends its in-flight count.
#[derive(Debug)]
pub struct Attempt<'a> {
    throttle: &'a SignInThrottle,
    keys: [ThrottleKey; 2],
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        let mut in_flight = self
            .throttle
            .in_flight
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for key in &self.keys {
            if let Some(n) = in_flight.get_mut(key) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    in_flight.remove(key);
                }
            }
        }
    }
}

impl SignInThrottle {
    /// A throttle with the given per-account and per-address policies.
    pub fn new(account: ThrottlePolicy, address: ThrottlePolicy) -> Self {
        Self {
            accounts: Throttle::new(account),
            addresses: Throttle::new(address),
            in_flight: Mutex::new(HashMap::new()),
        }
    }

    /// Admit an attempt: refused while either key is locked, or while its recent
    /// failures plus the attempts still in flight reach the limit (then retry in a second).
    pub fn begin(
        &self,
        email: &str,
        address: IpAddr,
        now: Instant,
    ) -> Result<Attempt<'_>, RetryAfter> {
        self.check(email, address, now)?;
        let keys = [ThrottleKey::account(email), ThrottleKey::address(address)];
        let mut in_flight = self
            .in_flight
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for (key, throttle) in keys.iter().zip([&self.accounts, &self.addresses]) {
            let busy = throttle
                .recent_failures(key, now)
                .saturating_add(in_flight.get(key).copied().unwrap_or(0));
            if busy >= throttle.max_failures() {
                return Err(RetryAfter(Duration::from_secs(1)));
            }
        }
        for key in &keys {
            *in_flight.entry(key.clone()).or_insert(0) += 1;
        }
        drop(in_flight);
        Ok(Attempt {
            throttle: self,
            keys,
        })
    }

    /// `Ok` if `email` may try to sign in from `address` at `now`, else the longer wait.
    /// Call it before checking the password.
    pub fn check(&self, email: &str, address: IpAddr, now: Instant) -> Result<(), RetryAfter> {
        let account = self.accounts.check(&ThrottleKey::account(email), now);
        let addr = self.addresses.check(&ThrottleKey::address(address), now);
        match (account, addr) {
            (Ok(()), Ok(())) => Ok(()),
            (Err(a), Err(b)) => Err(a.longer(b)),
            (Err(wait), _) | (_, Err(wait)) => Err(wait),
        }
    }

    /// Counts a failed sign-in (wrong password or unknown email) against both keys.
    pub fn record_failure(&self, email: &str, address: IpAddr, now: Instant) {
        self.accounts
            .record_failure(&ThrottleKey::account(email), now);
        self.addresses
            .record_failure(&ThrottleKey::address(address), now);
    }

    /// Clears the account's failures after a successful sign-in. The address keeps its
    /// count, so one valid account cannot be used to reset guessing at others.
    pub fn record_success(&self, email: &str) {
        self.accounts.record_success(&ThrottleKey::account(email));
    }

    /// Drops stale keys from both throttles.
    pub fn purge_stale(&self, now: Instant) {
        self.accounts.purge_stale(now);
        self.addresses.purge_stale(now);
    }
}

impl Default for SignInThrottle {
    /// [`ThrottlePolicy::PER_ACCOUNT`] and [`ThrottlePolicy::PER_ADDRESS`].
    fn default() -> Self {
        Self::new(ThrottlePolicy::PER_ACCOUNT, ThrottlePolicy::PER_ADDRESS)
    }
}

#[cfg(test)]
mod tests {
    use std::net::Ipv4Addr;

    use super::*;

    #[test]
    fn attempts_in_flight_count_against_the_limit() {
        let throttle = SignInThrottle::default();
        let from = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 9));
        let now = Instant::now();
        let held: Vec<_> = (0..5)
            .map(|_| throttle.begin("a@b.c", from, now).expect("admitted"))
            .collect();
        assert!(
            throttle.begin("a@b.c", from, now).is_err(),
            "a sixth parallel guess waits"
        );
        drop(held);
        assert!(
            throttle.begin("a@b.c", from, now).is_ok(),
            "finished attempts free their slot"
        );
    }

    #[test]
    fn sign_in_throttle_limits_per_address_across_accounts() {
        let throttle = SignInThrottle::default();
        let from = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));
        let elsewhere = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 8));
        let t0 = Instant::now();
        for i in 0..19 {
            let email = format!("user{i}@example.com");
            throttle.record_failure(&email, from, t0);
            throttle.record_success(&email);
        }
        assert_eq!(throttle.check("new@example.com", from, t0), Ok(()));
        throttle.record_failure("user19@example.com", from, t0);
        assert!(throttle.check("new@example.com", from, t0).is_err());
        assert_eq!(throttle.check("new@example.com", elsewhere, t0), Ok(()));
        // An account locked from one address is locked from every address.
        for _ in 0..5 {
            throttle.record_failure("victim@example.com", elsewhere, t0);
        }
        let other = IpAddr::V4(Ipv4Addr::new(198, 51, 100, 1));
        assert!(throttle.check("victim@example.com", other, t0).is_err());
    }
}

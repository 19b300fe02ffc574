//! Password hashing and the minimum password rules.
//!
//! Contract: passwords are hashed with Argon2id at the `argon2` crate's default
//! parameters (m = 19 MiB, t = 2, p = 1, OWASP's minimum recommendation) into a PHC string
//! that carries its own random salt; only that string is stored. Verification reads the
//! parameters from the stored string, so raising the defaults later keeps old hashes
//! valid ([`needs_rehash`] tells the sign-in handler when to re-hash). Sign-in for an
//! unknown email must call [`verify_against_dummy`], which costs one real verification,
//! so the response time does not reveal whether an account exists. Nothing here logs,
//! and no password or hash appears in an error.
//!
//! Each hash or verification fills 19 MiB; at most [`hashes_at_once`] run together (one
//! per core: more only queue for the CPU) and the others wait their turn, so a burst of
//! sign-ins cannot raise the resident memory by 19 MiB per blocking thread (the bench's
//! fifty clerks signing in at once did: 225 MiB at scale 1).

use std::sync::OnceLock;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};

use crate::turnstile::Turnstile;

/// Fewest characters (Unicode scalar values) a new password may have.
pub const MIN_PASSWORD_CHARS: usize = 12;
/// Most characters a new password may have (bounds the work one request can ask for).
pub const MAX_PASSWORD_CHARS: usize = 1024;

/// Hashing failed. Carries no detail: the only causes are an OS RNG failure or a bug.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// Argon2 or the salt generator reported an error.
    #[error("password hashing failed")]
    Hash,
}

/// Hashes `password` with Argon2id (default parameters, fresh 16-byte salt) and returns
/// the PHC string (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`) to store.
pub fn hash_password(password: &str) -> Result<String, PasswordError> {
    in_turn(|| {
        Argon2::default()
            .hash_password(password.as_bytes())
            .map(|hash| hash.to_string())
            .map_err(|_| PasswordError::Hash)
    })
}

/// Whether `candidate` matches the stored PHC string `phc`. An unparseable `phc` (a data
/// fault) answers `false` after spending the same time as a real verification.
pub fn verify_password(candidate: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(hash) => in_turn(|| {
            Argon2::default()
                .verify_password(candidate.as_bytes(), &hash)
                .is_ok()
        }),
        Err(_) => {
            verify_against_dummy(candidate);
            false
        }
    }
}

/// Spends the time of one real verification against a dummy hash and always fails. Call
/// it when the email is unknown so that timing does not reveal whether an account exists.
/// The dummy hash is made on the first call (one extra hash); call it once at start-up
/// to keep even that first sign-in uniform.
pub fn verify_against_dummy(candidate: &str) {
    let dummy = dummy_hash();
    in_turn(|| {
        let _ = Argon2::default().verify_password(candidate.as_bytes(), dummy);
    });
}

/// How many Argon2 computations may run at once: the cores this process may use.
pub fn hashes_at_once() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// Run `work` (one Argon2 computation) when fewer than [`hashes_at_once`] others run;
/// the caller (a blocking thread) waits until then.
fn in_turn<T>(work: impl FnOnce() -> T) -> T {
    static HASHING: Turnstile = Turnstile::new();
    let _turn = HASHING.enter(hashes_at_once(), None);
    work()
}

/// The dummy hash: default parameters, a random password and salt, made once per process.
fn dummy_hash() -> &'static PasswordHash {
    static DUMMY: OnceLock<PasswordHash> = OnceLock::new();
    DUMMY.get_or_init(|| {
        let mut password = [0u8; 32];
        let mut salt = [0u8; 16];
        // An RNG failure leaves zeros: the dummy still costs the same, which is its job.
        let _ = getrandom::fill(&mut password);
        let _ = getrandom::fill(&mut salt);
        Argon2::default()
            .hash_password_with_salt(&password, &salt)
            .expect("default Argon2 parameters with a 16-byte salt always hash")
    })
}

/// Whether a stored hash should be replaced after a successful sign-in because it is not
/// Argon2id v19 at the current default parameters (or cannot be parsed).
pub fn needs_rehash(phc: &str) -> bool {
    let Ok(hash) = PasswordHash::new(phc) else {
        return true;
    };
    let Ok(params) = Params::try_from(&hash) else {
        return true;
    };
    let defaults = Params::default();
    hash.algorithm.as_str() != Algorithm::Argon2id.as_str()
        || hash.version != Some(Version::V0x13.into())
        || params.m_cost() != defaults.m_cost()
        || params.t_cost() != defaults.t_cost()
        || params.p_cost() != defaults.p_cost()
}

/// The minimum rules for a new password, deliberately modest (NIST SP 800-63B: length
/// over composition, no forced character classes):
///
/// - at least [`MIN_PASSWORD_CHARS`] and at most [`MAX_PASSWORD_CHARS`] characters;
/// - not only whitespace;
/// - not one short pattern (one to three characters) repeated, such as `aaaaaaaaaaaa`
///   or `abcabcabcabc`;
/// - not one straight run of consecutive characters, ascending or descending, such as
///   `abcdefghijkl` or `zyxwvutsrqpo`.
///
/// The error is a sentence fit for an API problem detail; it never repeats the password.
pub fn check_password_policy(password: &str) -> Result<(), &'static str> {
    let chars: Vec<char> = password.chars().collect();
    if chars.len() < MIN_PASSWORD_CHARS {
        return Err("the password must have at least 12 characters");
    }
    if chars.len() > MAX_PASSWORD_CHARS {
        return Err("the password must have at most 1024 characters");
    }
    if chars.iter().all(|c| c.is_whitespace()) {
        return Err("the password must not be only whitespace");
    }
    if (1..=3).any(|period| chars.iter().skip(period).zip(&chars).all(|(a, b)| a == b)) {
        return Err("the password must not be one short pattern repeated");
    }
    let steps: Vec<i64> = chars
        .windows(2)
        .map(|w| i64::from(u32::from(w[1])) - i64::from(u32::from(w[0])))
        .collect();
    if steps.iter().all(|&s| s == 1) || steps.iter().all(|&s| s == -1) {
        return Err("the password must not be a run of consecutive characters");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_more_computations_run_at_once_than_there_are_cores() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NOW: AtomicUsize = AtomicUsize::new(0);
        static MOST: AtomicUsize = AtomicUsize::new(0);
        let threads: Vec<_> = (0..hashes_at_once() * 3 + 2)
            .map(|_| {
                std::thread::spawn(|| {
                    in_turn(|| {
                        let now = NOW.fetch_add(1, Ordering::SeqCst) + 1;
                        MOST.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(20));
                        NOW.fetch_sub(1, Ordering::SeqCst);
                    })
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let most = MOST.load(Ordering::SeqCst);
        assert!(most >= 1 && most <= hashes_at_once(), "{most} ran at once");
    }

    #[test]
    fn hash_then_verify_round_trips_and_rejects_a_wrong_password() {
        let phc = hash_password("correct horse battery").unwrap();
        assert!(verify_password("correct horse battery", &phc));
        assert!(!verify_password("correct horse battery!", &phc));
        assert!(!verify_password("", &phc));
    }

    #[test]
    fn phc_string_is_argon2id_with_default_parameters_and_its_own_salt() {
        let first = hash_password("correct horse battery").unwrap();
        let second = hash_password("correct horse battery").unwrap();
        assert!(
            first.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{first}"
        );
        assert_ne!(first, second, "each hash carries a fresh salt");
        assert!(!needs_rehash(&first));
    }

    #[test]
    fn weaker_or_foreign_hashes_need_rehash() {
        let weak = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(8 * 1024, 1, 1, None).unwrap(),
        )
        .hash_password(b"correct horse battery")
        .unwrap()
        .to_string();
        assert!(verify_password("correct horse battery", &weak));
        assert!(needs_rehash(&weak));
        assert!(needs_rehash("not a phc string"));
    }

    #[test]
    fn garbage_stored_hash_never_verifies() {
        assert!(!verify_password("anything", ""));
        assert!(!verify_password("anything", "$argon2id$v=19$garbage"));
    }

    #[test]
    fn dummy_verification_runs() {
        verify_against_dummy("whatever the caller typed");
        verify_against_dummy("");
    }

    #[test]
    fn policy_accepts_ordinary_passphrases() {
        assert_eq!(check_password_policy("correct horse battery"), Ok(()));
        assert_eq!(check_password_policy("Montello-2026!"), Ok(()));
        assert_eq!(check_password_policy("ééééééééééé1"), Ok(()));
    }

    #[test]
    fn policy_rejects_the_weak_shapes() {
        assert!(check_password_policy("short1!").is_err());
        assert!(
            check_password_policy("ééééééééééé").is_err(),
            "11 characters"
        );
        assert!(check_password_policy(&"a".repeat(MAX_PASSWORD_CHARS + 1)).is_err());
        assert!(check_password_policy("            ").is_err());
        assert!(check_password_policy("aaaaaaaaaaaaaaaa").is_err());
        assert!(check_password_policy("abababababab").is_err());
        assert!(check_password_policy("abcabcabcabcabc").is_err());
        assert!(check_password_policy("abcdefghijklmn").is_err());
        assert!(check_password_policy("zyxwvutsrqpo").is_err());
        assert!(check_password_policy("123456789:;<").is_err());
    }
}

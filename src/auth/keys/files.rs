//! The key ring on disk: one directory, one PEM file per key.
//!
//! Contract: `dir/signing-current.pem` holds the signing key; every
//! `dir/signing-previous-*.pem` holds a key that only verifies (named
//! `signing-previous-<unix-seconds>.pem` by [`KeyRing::rotate`], the seconds being when it
//! stopped signing). Files are PKCS#8 PEM, written with mode 0600 in a 0700 directory on
//! Unix, and a key file is never rewritten in place: a new key is written to a temporary
//! file and linked into place, so a crash or a second process starting at the same moment
//! can never leave a half-written or silently replaced signing key. Previous keys are kept
//! until [`KeyRing::prune_previous`] (or a rotation given a retention) deletes them.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use zeroize::Zeroizing;

use super::{KeyError, KeyPair, KeyRing, SigningKey};

/// File name of the signing key inside the key directory.
pub const CURRENT_FILE: &str = "signing-current.pem";
/// File name prefix of the verify-only keys inside the key directory.
pub const PREVIOUS_PREFIX: &str = "signing-previous-";

impl KeyRing {
    /// Reads the ring from `dir`, first generating and writing `signing-current.pem` when
    /// it is absent (the embedded default: "generated and stored on first start"). Creates
    /// `dir` if needed.
    pub fn load_or_generate(dir: &Path) -> Result<Self, KeyError> {
        create_key_dir(dir)?;
        let current = dir.join(CURRENT_FILE);
        if !current.try_exists().map_err(io_error(&current))? {
            install_new_current(dir)?;
        }
        load(dir)
    }

    /// Retires the current key (renamed to `signing-previous-<now>.pem`), writes a new
    /// current key and returns the ring re-read from `dir`. Every previous key is kept:
    /// tokens they signed stay valid until they expire. See [`KeyRing::rotate_with`].
    pub fn rotate(dir: &Path) -> Result<Self, KeyError> {
        Self::rotate_with(dir, chrono::Utc::now().timestamp(), None)
    }

    /// [`KeyRing::rotate`] at the clock value `now_unix` (seconds), then, when `retention`
    /// is given, deletes the previous keys retired more than `retention` before
    /// `now_unix`. A retention shorter than the access-token lifetime plus clock leeway
    /// cuts off tokens that have not yet expired.
    pub fn rotate_with(
        dir: &Path,
        now_unix: i64,
        retention: Option<Duration>,
    ) -> Result<Self, KeyError> {
        create_key_dir(dir)?;
        let current = dir.join(CURRENT_FILE);
        if current.try_exists().map_err(io_error(&current))? {
            // Refuse to retire a file that is not a key: it would break every later load.
            read_key(&current)?;
            let retired = free_previous_path(dir, now_unix)?;
            fs::rename(&current, &retired).map_err(io_error(&current))?;
        }
        install_new_current(dir)?;
        if let Some(retention) = retention {
            Self::prune_previous(dir, now_unix, retention)?;
        }
        load(dir)
    }

    /// Deletes the previous-key files of `dir` retired more than `retention` before
    /// `now_unix` and returns how many it deleted. Files whose name carries no retirement
    /// time (added by hand) are kept.
    pub fn prune_previous(
        dir: &Path,
        now_unix: i64,
        retention: Duration,
    ) -> Result<usize, KeyError> {
        let retention = i64::try_from(retention.as_secs()).unwrap_or(i64::MAX);
        let mut deleted = 0;
        for (path, retired_at) in previous_files(dir)? {
            if retired_at.is_some_and(|at| at.saturating_add(retention) < now_unix) {
                fs::remove_file(&path).map_err(io_error(&path))?;
                deleted += 1;
            }
        }
        Ok(deleted)
    }
}

/// Reads the current key and every previous key of `dir`, most recently retired first.
fn load(dir: &Path) -> Result<KeyRing, KeyError> {
    let current = KeyPair::new(&read_key(&dir.join(CURRENT_FILE))?)?;
    let mut previous = previous_files(dir)?;
    // Newest first; files without a retirement time last; name order breaks ties.
    previous
        .sort_by(|(a_path, a_at), (b_path, b_at)| b_at.cmp(a_at).then_with(|| b_path.cmp(a_path)));
    let mut ring = KeyRing {
        current,
        previous: Vec::with_capacity(previous.len()),
    };
    for (path, retired_at) in previous {
        let mut pair = KeyPair::new(&read_key(&path)?)?;
        pair.retired_at = retired_at;
        ring.push_previous(pair);
    }
    Ok(ring)
}

/// Every `signing-previous-*.pem` in `dir` with the retirement time its name carries.
fn previous_files(dir: &Path) -> Result<Vec<(PathBuf, Option<i64>)>, KeyError> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_error(dir))? {
        let entry = entry.map_err(io_error(dir))?;
        let name = entry.file_name();
        let Some(stem) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREVIOUS_PREFIX))
            .and_then(|n| n.strip_suffix(".pem"))
        else {
            continue;
        };
        let seconds = stem.split('-').next().and_then(|s| s.parse::<i64>().ok());
        found.push((entry.path(), seconds));
    }
    Ok(found)
}

/// `signing-previous-<now>.pem`, or `-<now>-<n>.pem` when a key was already retired in
/// the same second.
fn free_previous_path(dir: &Path, now_unix: i64) -> Result<PathBuf, KeyError> {
    for n in 0..1000 {
        let name = if n == 0 {
            format!("{PREVIOUS_PREFIX}{now_unix}.pem")
        } else {
            format!("{PREVIOUS_PREFIX}{now_unix}-{n}.pem")
        };
        let path = dir.join(name);
        if !path.try_exists().map_err(io_error(&path))? {
            return Ok(path);
        }
    }
    Err(KeyError::Io {
        path: dir.to_owned(),
        source: io::Error::new(
            io::ErrorKind::AlreadyExists,
            "too many rotations this second",
        ),
    })
}

fn read_key(path: &Path) -> Result<SigningKey, KeyError> {
    let pem = Zeroizing::new(fs::read_to_string(path).map_err(io_error(path))?);
    SigningKey::from_pkcs8_pem(&pem, &path.display().to_string())
}

/// Generates a key and links it into place as the current key unless one appeared
/// meanwhile (then the existing one wins and this one is discarded).
fn install_new_current(dir: &Path) -> Result<(), KeyError> {
    let pem = SigningKey::generate()?.to_pkcs8_pem()?;
    let mut nonce = [0u8; 8];
    getrandom::fill(&mut nonce).map_err(|_| KeyError::Rng)?;
    let tmp = dir.join(format!("{CURRENT_FILE}.{}.tmp", u64::from_le_bytes(nonce)));
    write_private_file(&tmp, pem.as_bytes()).map_err(io_error(&tmp))?;
    let current = dir.join(CURRENT_FILE);
    match fs::hard_link(&tmp, &current) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        // A filesystem without hard links: fall back to a plain (atomic) rename.
        Err(_) => return fs::rename(&tmp, &current).map_err(io_error(&current)),
    }
    fs::remove_file(&tmp).map_err(io_error(&tmp))
}

/// Creates `path` (which must not exist) readable by its owner only, and syncs it.
fn write_private_file(path: &Path, contents: &[u8]) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut file = options.open(path)?;
    file.write_all(contents)?;
    file.sync_all()
}

fn create_key_dir(dir: &Path) -> Result<(), KeyError> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        builder.mode(0o700);
    }
    builder.create(dir).map_err(io_error(dir))
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> KeyError + '_ {
    move |source| KeyError::Io {
        path: path.to_owned(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kids(ring: &KeyRing) -> Vec<String> {
        ring.jwks().keys.into_iter().map(|k| k.kid).collect()
    }

    #[test]
    fn load_or_generate_twice_yields_the_same_key() {
        let dir = tempfile::tempdir().unwrap();
        let keys = dir.path().join("keys");
        let first = KeyRing::load_or_generate(&keys).unwrap();
        let second = KeyRing::load_or_generate(&keys).unwrap();
        assert_eq!(first.current.kid, second.current.kid);
        assert!(second.previous.is_empty());
        let names: Vec<_> = fs::read_dir(&keys)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, [CURRENT_FILE], "no temporary file is left behind");
    }

    #[cfg(unix)]
    #[test]
    fn key_files_are_private() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let keys = dir.path().join("keys");
        KeyRing::load_or_generate(&keys).unwrap();
        KeyRing::rotate(&keys).unwrap();
        assert_eq!(
            fs::metadata(&keys).unwrap().permissions().mode() & 0o777,
            0o700
        );
        for entry in fs::read_dir(&keys).unwrap() {
            let mode = entry.unwrap().metadata().unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn rotate_changes_the_current_key_and_keeps_the_old_one() {
        let dir = tempfile::tempdir().unwrap();
        let before = KeyRing::load_or_generate(dir.path()).unwrap();
        let after = KeyRing::rotate_with(dir.path(), 1_000, None).unwrap();
        assert_ne!(after.current.kid, before.current.kid);
        assert_eq!(after.previous.len(), 1);
        assert_eq!(after.previous[0].kid, before.current.kid);
        assert_eq!(after.previous[0].retired_at, Some(1_000));
        assert!(dir.path().join("signing-previous-1000.pem").exists());
        assert_eq!(
            kids(&after),
            [after.current.kid.clone(), before.current.kid.clone()]
        );
        let reloaded = KeyRing::load_or_generate(dir.path()).unwrap();
        assert_eq!(kids(&reloaded), kids(&after));
    }

    #[test]
    fn two_rotations_in_one_second_keep_both_old_keys() {
        let dir = tempfile::tempdir().unwrap();
        let first = KeyRing::load_or_generate(dir.path()).unwrap();
        let second = KeyRing::rotate_with(dir.path(), 5, None).unwrap();
        let third = KeyRing::rotate_with(dir.path(), 5, None).unwrap();
        assert_eq!(third.previous.len(), 2);
        assert!(third.find(&first.current.kid).is_some());
        assert!(third.find(&second.current.kid).is_some());
    }

    #[test]
    fn rotate_without_a_current_key_just_generates_one() {
        let dir = tempfile::tempdir().unwrap();
        let ring = KeyRing::rotate(dir.path()).unwrap();
        assert!(ring.previous.is_empty());
    }

    #[test]
    fn retention_drops_keys_retired_long_enough_ago() {
        let dir = tempfile::tempdir().unwrap();
        let first = KeyRing::load_or_generate(dir.path()).unwrap();
        let second = KeyRing::rotate_with(dir.path(), 10_000, None).unwrap();
        let hour = Duration::from_secs(3_600);
        // Second rotation 30 minutes later: the first key (retired 30 min ago) stays.
        let third = KeyRing::rotate_with(dir.path(), 11_800, Some(hour)).unwrap();
        assert!(third.find(&first.current.kid).is_some());
        // Over an hour after the first retirement it goes; the second (retired 37
        // minutes before) stays.
        assert_eq!(
            KeyRing::prune_previous(dir.path(), 14_000, hour).unwrap(),
            1
        );
        let ring = KeyRing::load_or_generate(dir.path()).unwrap();
        assert!(ring.find(&first.current.kid).is_none());
        assert!(ring.find(&second.current.kid).is_some());
        assert_eq!(ring.current.kid, third.current.kid);
    }

    #[test]
    fn hand_placed_previous_keys_are_loaded_and_never_pruned() {
        let dir = tempfile::tempdir().unwrap();
        let extra = SigningKey::generate().unwrap();
        let path = dir.path().join("signing-previous-imported.pem");
        write_private_file(&path, extra.to_pkcs8_pem().unwrap().as_bytes()).unwrap();
        let ring = KeyRing::load_or_generate(dir.path()).unwrap();
        let kid = KeyPair::new(&extra).unwrap().kid;
        assert_eq!(ring.find(&kid).unwrap().retired_at, None);
        KeyRing::prune_previous(dir.path(), i64::MAX, Duration::ZERO).unwrap();
        assert!(path.exists());
    }

    #[test]
    fn a_corrupt_key_file_is_an_error_naming_the_file_not_its_content() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(CURRENT_FILE), "SECRETISH garbage").unwrap();
        let err = KeyRing::load_or_generate(dir.path())
            .unwrap_err()
            .to_string();
        assert!(err.contains(CURRENT_FILE), "{err}");
        assert!(!err.contains("SECRETISH"), "{err}");
        assert!(
            KeyRing::rotate(dir.path()).is_err(),
            "garbage is not retired"
        );
    }
}

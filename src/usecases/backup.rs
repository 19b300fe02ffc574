//! Backup and restore of a SQLite database (`roomtax backup`, `roomtax restore`).
//!
//! Contract:
//! - [`backup`] takes an online, consistent copy while the service runs: SQLite's
//!   `VACUUM INTO` (`db::backup::vacuum_into`) writes the database as of one
//!   commit into a temporary file beside the output (created empty, mode 0600:
//!   the copy holds confidential returns), which is fsynced, verified read-only
//!   (`PRAGMA integrity_check`, no migration pending), then moved into place
//!   atomically and its folder fsynced. An existing output is refused unless
//!   `force`; without `force` the move cannot replace a file that appeared
//!   meanwhile (a hard link, which fails when the name exists). A failed backup
//!   leaves no output and no temporary file behind. It reports the size and the
//!   SHA-256 of the bytes written.
//! - [`restore`] puts a backup in place of the service's database, which must be
//!   stopped: a `-wal` or `-shm` file beside it is first checkpointed away (one
//!   open and close: SQLite removes them on the last close), and it refuses when
//!   they remain (another process has the database open; replacing the file
//!   under it, or under an old write-ahead log, would corrupt it). It copies the backup beside the database,
//!   verifies the copy (`PRAGMA integrity_check`, migrations, then the ledger's
//!   invariants of `roomtax check`, `usecases::ledger::check`), keeps the
//!   database it replaces under a new name, and moves the copy into place.
//! - PostgreSQL is never backed up here: both answer [`BackupError::Postgres`],
//!   and the README's "Backup and restore" gives the `pg_dump` / `pg_restore`
//!   procedure of the two-role setup.
//! - Nothing here prints or logs row contents; errors name files, never data.

use std::{
    fs::File,
    io::{Read, Write},
    path::{Path, PathBuf},
};

use sha2::{Digest, Sha256};

use crate::db::{self, DbConn, Target};

/// Why a backup or a restore did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database is PostgreSQL: use `pg_dump` (the explanation is the message).
    #[error(
        "the configured database is PostgreSQL: back it up with pg_dump as the owner role \
         (pg_dump -Fc), restore it with pg_restore into a fresh database created by \
         deploy/postgres-init/01-roles.sh, then re-run that script for the runtime role's \
         grants; the README's \"Backup and restore\" gives the exact commands"
    )]
    Postgres,
    /// Anything else, with what failed (a file, the database, a check).
    #[error("{0}")]
    Failed(String),
}

fn failed(message: impl Into<String>) -> BackupError {
    BackupError::Failed(message.into())
}

/// A backup written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupReport {
    /// The output file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// The SHA-256 of its bytes, lowercase hex.
    pub sha256: String,
}

/// A restore done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoreReport {
    /// The database file now holding the backup.
    pub database: PathBuf,
    /// Where the database it replaced was kept, if there was one.
    pub replaced: Option<PathBuf>,
    /// The ledger invariants verified on the restored copy.
    pub checked: Vec<String>,
}

/// The SQLite file a database URL names, or [`BackupError::Postgres`].
fn sqlite_path(target: &Target) -> Result<PathBuf, BackupError> {
    match target {
        Target::Sqlite(path) => Ok(path.clone()),
        Target::Postgres(_) => Err(BackupError::Postgres),
    }
}

/// The folder of `path` (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A new, empty file beside `path`, mode 0600, named after it.
fn temporary_beside(path: &Path, purpose: &str) -> Result<PathBuf, BackupError> {
    let name = path
        .file_name()
        .ok_or_else(|| failed(format!("{} names no file", path.display())))?
        .to_string_lossy();
    let tmp = folder_of(path).join(format!(".{name}.{purpose}-{}", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options
        .open(&tmp)
        .map_err(|e| failed(format!("cannot create {}: {e}", tmp.display())))?;
    Ok(tmp)
}

fn fsync_file(path: &Path) -> Result<(), BackupError> {
    File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(|e| failed(format!("cannot fsync {}: {e}", path.display())))
}

fn fsync_folder(path: &Path) -> Result<(), BackupError> {
    let folder = folder_of(path);
    File::open(&folder)
        .and_then(|f| f.sync_all())
        .map_err(|e| failed(format!("cannot fsync the folder {}: {e}", folder.display())))
}

/// Size and SHA-256 of a file's bytes.
fn digest(path: &Path) -> Result<(u64, String), BackupError> {
    let mut file =
        File::open(path).map_err(|e| failed(format!("cannot read {}: {e}", path.display())))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut bytes = 0u64;
    loop {
        let n = file
            .read(&mut buf)
            .map_err(|e| failed(format!("cannot read {}: {e}", path.display())))?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        hasher.update(&buf[..n]);
    }
    let hex = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    Ok((bytes, hex))
}

/// Open a SQLite file read-only (nothing written to it, not even its
/// journal mode), through a `file:` URI.
pub fn open_read_only(path: &Path) -> Result<DbConn, BackupError> {
    use diesel::Connection;
    let shown = path.to_string_lossy();
    let mut uri = String::from("file:");
    for ch in shown.chars() {
        match ch {
            '%' | '?' | '#' => uri.push_str(&format!("%{:02X}", ch as u32)),
            c => uri.push(c),
        }
    }
    uri.push_str("?mode=ro");
    diesel::SqliteConnection::establish(&uri)
        .map(DbConn::Sqlite)
        .map_err(|e| failed(format!("cannot open {} read-only: {e}", path.display())))
}

/// Integrity check and migrations of the SQLite file at `path`, read-only.
fn verify_copy(path: &Path) -> Result<(), BackupError> {
    let mut conn = open_read_only(path)?;
    match db::backup::integrity_check(&mut conn).map_err(|e| failed(e.to_string()))? {
        Ok(()) => {}
        Err(problems) => {
            return Err(failed(format!(
                "{} fails PRAGMA integrity_check: {}",
                path.display(),
                problems.join("; ")
            )));
        }
    }
    let pending = db::migrations::pending(&mut conn).map_err(|e| {
        failed(format!(
            "{} is not a roomtax database (its migrations cannot be read: {e})",
            path.display()
        ))
    })?;
    if pending > 0 {
        return Err(failed(format!(
            "{} lacks {pending} migration(s) of this binary",
            path.display()
        )));
    }
    Ok(())
}

/// Back the database of `database_url` up into `output` (see the module doc).
pub fn backup(
    database_url: &crate::config::Secret,
    output: &Path,
    force: bool,
) -> Result<BackupReport, BackupError> {
    let target = Target::parse(database_url).map_err(|e| failed(e.to_string()))?;
    let source = sqlite_path(&target)?;
    if !source.is_file() {
        return Err(failed(format!("no database file at {}", source.display())));
    }
    if output.exists() && !force {
        return Err(failed(format!(
            "{} exists: refusing to overwrite it (give --force to replace it)",
            output.display()
        )));
    }
    if !folder_of(output).is_dir() {
        return Err(failed(format!(
            "the folder {} of {} does not exist",
            folder_of(output).display(),
            output.display()
        )));
    }
    let tmp = temporary_beside(output, "partial")?;
    let written = (|| {
        let mut conn = target.connect().map_err(|e| failed(e.to_string()))?;
        db::backup::vacuum_into(&mut conn, &tmp).map_err(|e| failed(e.to_string()))?;
        drop(conn);
        fsync_file(&tmp)?;
        verify_copy(&tmp)?;
        let (bytes, sha256) = digest(&tmp)?;
        if force {
            std::fs::rename(&tmp, output)
        } else {
            // Fails when `output` appeared since the check above: never replaced.
            std::fs::hard_link(&tmp, output).and_then(|()| std::fs::remove_file(&tmp))
        }
        .map_err(|e| {
            failed(format!(
                "cannot move the backup to {}: {e}",
                output.display()
            ))
        })?;
        fsync_folder(output)?;
        Ok(BackupReport {
            path: output.to_path_buf(),
            bytes,
            sha256,
        })
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Restore `input` (a file [`backup`] wrote) as the database of
/// `database_url`, which no process may have open (see the module doc).
/// An existing database is replaced only with `force`, and kept as
/// `<name>.replaced-<UTC time>` beside it.
pub fn restore(
    database_url: &crate::config::Secret,
    input: &Path,
    force: bool,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<RestoreReport, BackupError> {
    let target = Target::parse(database_url).map_err(|e| failed(e.to_string()))?;
    let database = sqlite_path(&target)?;
    if !input.is_file() {
        return Err(failed(format!("no backup file at {}", input.display())));
    }
    let sides = || {
        ["-wal", "-shm"]
            .map(|suffix| PathBuf::from(format!("{}{suffix}", database.display())))
            .into_iter()
            .filter(|side| side.exists())
            .collect::<Vec<_>>()
    };
    if !sides().is_empty() {
        // Left by a process that did not close the database (a stopped service's
        // pool, a crash), or by one that has it open: opening and closing it
        // checkpoints the log and removes both files when no other connection
        // has the database open (SQLite's own rule on the last close).
        drop(target.connect().map_err(|e| failed(e.to_string()))?);
    }
    if let Some(side) = sides().first() {
        return Err(failed(format!(
            "{} is still there after a checkpoint: a process has the database open \
             (stop the service first)",
            side.display()
        )));
    }
    if database.exists() && !force {
        return Err(failed(format!(
            "{} exists: give --force to replace it (it is kept beside it under a new name)",
            database.display()
        )));
    }
    if !folder_of(&database).is_dir() {
        return Err(failed(format!(
            "the folder {} of the database does not exist",
            folder_of(&database).display()
        )));
    }
    let tmp = temporary_beside(&database, "restoring")?;
    let done = (|| {
        {
            let mut from = File::open(input)
                .map_err(|e| failed(format!("cannot read {}: {e}", input.display())))?;
            let mut to = std::fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(&tmp)
                .map_err(|e| failed(format!("cannot write {}: {e}", tmp.display())))?;
            std::io::copy(&mut from, &mut to)
                .and_then(|_| to.flush())
                .map_err(|e| failed(format!("cannot copy {}: {e}", input.display())))?;
        }
        fsync_file(&tmp)?;
        verify_copy(&tmp)?;
        let report = {
            let mut conn = open_read_only(&tmp)?;
            crate::usecases::ledger::check::run(&mut conn).map_err(|e| {
                failed(format!(
                    "the ledger check could not run on the backup: {}",
                    e.to_problem().detail
                ))
            })?
        };
        if !report.is_sound() {
            return Err(failed(format!(
                "the backup fails the ledger check: {}",
                report.broken.join("; ")
            )));
        }
        let replaced = if database.exists() {
            let kept = PathBuf::from(format!(
                "{}.replaced-{}",
                database.display(),
                now.format("%Y%m%dT%H%M%SZ")
            ));
            std::fs::rename(&database, &kept)
                .map_err(|e| failed(format!("cannot move {} aside: {e}", database.display())))?;
            Some(kept)
        } else {
            None
        };
        std::fs::rename(&tmp, &database)
            .map_err(|e| failed(format!("cannot move the backup into place: {e}")))?;
        fsync_folder(&database)?;
        Ok(RestoreReport {
            database: database.clone(),
            replaced,
            checked: report.checked,
        })
    })();
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done
}

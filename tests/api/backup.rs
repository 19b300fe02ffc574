//! `roomtax backup` and `roomtax restore`, run as real processes (as in cli.rs)
//! against temporary SQLite files; the PostgreSQL answer needs no server.

use std::{path::Path, process::Command};

use roomtax::{config::Secret, db};

fn roomtax(dir: &Path, url: &str, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_roomtax"))
        .args(args)
        .current_dir(dir)
        .env("DATABASE_URL", url)
        .env_remove("ROOMTAX_DATABASE_URL")
        .env_remove("ROOMTAX_MIGRATION_DATABASE_URL")
        .env_remove("ROOMTAX_CONFIG")
        .output()
        .expect("roomtax runs")
}

fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A temporary folder holding `source.db` with the whole demo (its money too).
fn populated() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("source.db").display());
    let out = roomtax(dir.path(), &url, &["demo"]);
    assert!(out.status.success(), "{}", text(&out));
    (dir, url)
}

fn connect(path: &Path) -> db::DbConn {
    db::Target::parse(&Secret::new(format!("sqlite://{}", path.display())))
        .and_then(|t| t.connect())
        .expect("connect")
}

/// Every table of the database at `path`, with its rows.
fn contents(path: &Path) -> Vec<(String, Vec<String>)> {
    let mut conn = connect(path);
    db::backup::tables(&mut conn)
        .unwrap()
        .into_iter()
        .map(|t| {
            let rows = db::backup::table_rows(&mut conn, &t).unwrap();
            (t, rows)
        })
        .collect()
}

fn sha256_of(path: &Path) -> String {
    use sha2::Digest;
    let bytes = std::fs::read(path).unwrap();
    sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Files in `dir` whose name starts with a dot (the temporary files of a backup).
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

#[test]
fn a_backup_equals_its_source_row_for_row() {
    let (dir, url) = populated();
    let out = roomtax(dir.path(), &url, &["backup", "--output", "copy.db"]);
    assert!(out.status.success(), "{}", text(&out));
    let copy = dir.path().join("copy.db");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let size = std::fs::metadata(&copy).unwrap().len();
    assert!(
        stdout.contains(&format!(
            "backup written to copy.db: {size} bytes, sha256 {}",
            sha256_of(&copy)
        )),
        "{stdout}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&copy).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the backup holds confidential returns");
    }
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        leftovers(dir.path())
    );

    let source = contents(&dir.path().join("source.db"));
    let copied = contents(&copy);
    let names: Vec<&str> = source.iter().map(|(t, _)| t.as_str()).collect();
    let copied_names: Vec<&str> = copied.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(names, copied_names, "the same tables");
    // The demo's money is there: the comparison is not of empty tables.
    let rows_of = |name: &str| {
        source
            .iter()
            .find(|(t, _)| t == name)
            .map(|(_, r)| r.len())
            .unwrap_or_else(|| panic!("no table {name}"))
    };
    assert_eq!(rows_of("payments"), 3);
    assert_eq!(rows_of("refunds"), 1);
    assert!(rows_of("ledger_lines") >= 60, "{}", rows_of("ledger_lines"));
    assert!(rows_of("return_versions") >= 14);
    for ((table, rows), (_, copied_rows)) in source.iter().zip(&copied) {
        assert_eq!(rows.len(), copied_rows.len(), "row count of {table}");
        assert!(rows == copied_rows, "rows of {table} differ");
    }

    // The copy is a working database: the ledger check passes on it.
    let copy_url = format!("sqlite://{}", copy.display());
    let out = roomtax(dir.path(), &copy_url, &["check"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("ledger check passed"), "{}", text(&out));
}

#[test]
fn a_backup_refuses_an_existing_output_unless_forced() {
    let (dir, url) = populated();
    let out_path = dir.path().join("copy.db");
    std::fs::write(&out_path, b"keep me").unwrap();
    let out = roomtax(dir.path(), &url, &["backup", "--output", "copy.db"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("copy.db exists"), "{stderr}");
    assert!(stderr.contains("--force"), "{stderr}");
    assert_eq!(std::fs::read(&out_path).unwrap(), b"keep me");
    assert!(leftovers(dir.path()).is_empty());

    let out = roomtax(
        dir.path(),
        &url,
        &["backup", "--output", "copy.db", "--force"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let bytes = std::fs::read(&out_path).unwrap();
    assert!(bytes.starts_with(b"SQLite format 3\0"), "a SQLite file now");
    assert!(leftovers(dir.path()).is_empty());

    // A folder that does not exist, and a database that does not: plain errors.
    let out = roomtax(dir.path(), &url, &["backup", "--output", "nowhere/copy.db"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("nowhere"), "{}", text(&out));
    let missing = format!("sqlite://{}", dir.path().join("missing.db").display());
    let out = roomtax(dir.path(), &missing, &["backup", "--output", "other.db"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no database file"), "{}", text(&out));
    assert!(
        !dir.path().join("missing.db").exists(),
        "nothing was created"
    );
    assert!(!dir.path().join("other.db").exists());
}

#[test]
fn on_postgres_backup_and_restore_explain_pg_dump_and_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    // No server needed: the answer comes before any connection.
    let url = "postgres://roomtax_app:secret@127.0.0.1:1/roomtax";
    for args in [
        &["backup", "--output", "copy.dump"][..],
        &["restore", "--input", "copy.dump"][..],
    ] {
        let out = roomtax(dir.path(), url, args);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("pg_dump"), "{stderr}");
        assert!(
            stderr.contains("deploy/postgres-init/01-roles.sh"),
            "{stderr}"
        );
        assert!(stderr.contains("Backup and restore"), "{stderr}");
        assert!(!stderr.contains("secret"), "no password shown: {stderr}");
    }
    assert!(!dir.path().join("copy.dump").exists());
}

#[test]
fn restore_verifies_the_backup_then_replaces_the_database() {
    let (dir, url) = populated();
    let d = dir.path();
    assert!(
        roomtax(d, &url, &["backup", "--output", "copy.db"])
            .status
            .success()
    );
    let target = d.join("restored.db");
    let target_url = format!("sqlite://{}", target.display());

    // A file that is not a database is refused and nothing is written.
    std::fs::write(d.join("junk.db"), vec![7u8; 8192]).unwrap();
    let out = roomtax(d, &target_url, &["restore", "--input", "junk.db"]);
    assert!(!out.status.success());
    assert!(!target.exists(), "{}", text(&out));
    assert!(leftovers(d).is_empty(), "{:?}", leftovers(d));

    // Into a new file: verified (the ledger check), then in place.
    let out = roomtax(d, &target_url, &["restore", "--input", "copy.db"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("ok: 3 payment(s)"), "{}", text(&out));
    assert_eq!(contents(&target), contents(&d.join("source.db")));

    // Over an existing database: only with --force, which keeps the old one.
    let out = roomtax(d, &target_url, &["restore", "--input", "copy.db"]);
    assert!(!out.status.success());
    assert!(text(&out).contains("--force"), "{}", text(&out));
    let out = roomtax(
        d,
        &target_url,
        &["restore", "--input", "copy.db", "--force"],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("the database it replaces was kept as"),
        "{}",
        text(&out)
    );

    // While the database is open (its -wal file exists): refused. (Side files
    // a stopped process left are checkpointed away first: see backup.sh.)
    let mut conn = connect(&target);
    use diesel::RunQueryDsl;
    diesel::sql_query("SELECT 1 FROM payments")
        .execute(&mut conn)
        .unwrap();
    let wal = d.join("restored.db-wal");
    assert!(wal.exists());
    let out = roomtax(
        d,
        &target_url,
        &["restore", "--input", "copy.db", "--force"],
    );
    assert!(!out.status.success());
    assert!(text(&out).contains("stop the service"), "{}", text(&out));
    drop(conn);
}

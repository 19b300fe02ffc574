//! The command line, run as a real process against a temporary SQLite file.

use std::process::Command;

fn roomtax(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_roomtax"))
        .args(args)
        .current_dir(dir)
        .env("DATABASE_URL", "sqlite://data/cli.db")
        .env_remove("ROOMTAX_DATABASE_URL")
        .env_remove("ROOMTAX_CONFIG")
        .output()
        .expect("roomtax runs")
}

#[test]
fn demo_twice_then_policy_versions_forward_only() {
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..2 {
        let out = roomtax(dir.path(), &["demo"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(dir.path().join("data/cli.db").is_file());

    let preset = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/policies/montello.toml"
    ))
    .unwrap();
    let future = preset.replace(
        "effective_from = \"2020-01-01\"",
        "effective_from = \"2199-01-01\"",
    );
    std::fs::write(dir.path().join("future.toml"), future).unwrap();
    let out = roomtax(
        dir.path(),
        &[
            "policy",
            "add",
            "--municipality",
            "montello",
            "--file",
            "future.toml",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A version that would change an ended period is refused, naming the rule's field.
    let past = preset.replace(
        "effective_from = \"2020-01-01\"",
        "effective_from = \"2021-01-01\"",
    );
    std::fs::write(dir.path().join("past.toml"), past).unwrap();
    let out = roomtax(
        dir.path(),
        &[
            "policy",
            "add",
            "--municipality",
            "montello",
            "--file",
            "past.toml",
        ],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("effective_from"));

    let out = roomtax(
        dir.path(),
        &[
            "policy",
            "add",
            "--municipality",
            "nowhere",
            "--file",
            "past.toml",
        ],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("municipality not found"));
}

#[test]
fn openapi_subcommand_prints_the_committed_document() {
    let dir = tempfile::tempdir().unwrap();
    let out = roomtax(dir.path(), &["openapi"]);
    assert!(out.status.success());
    let committed =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json"))
            .unwrap();
    assert!(
        String::from_utf8(out.stdout).unwrap() == committed,
        "`roomtax openapi` differs from openapi/openapi.json"
    );
}

#[test]
fn a_bad_database_url_fails_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_roomtax"))
        .args(["migrate"])
        .current_dir(dir.path())
        .env("DATABASE_URL", "mysql://nope")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unsupported database URL scheme"));
}

#[test]
fn admin_create_user_reads_the_password_from_stdin() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    assert!(roomtax(dir.path(), &["demo"]).status.success());
    let run = |args: &[&str], stdin: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_roomtax"))
            .args(args)
            .current_dir(dir.path())
            .env("DATABASE_URL", "sqlite://data/cli.db")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let args = [
        "admin",
        "create-user",
        "--email",
        "New.Clerk@Example.org",
        "--role",
        "municipal_staff",
        "--municipality",
        "hayward",
        "--password-stdin",
    ];
    let out = run(&args, "correct horse battery staple\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("created user new.clerk@example.org"),
        "{stdout}"
    );
    assert!(!stdout.contains("horse"), "the password is never echoed");
    // The same email again: found, and granted a further role.
    let out = run(
        &[
            "admin",
            "create-user",
            "--email",
            "new.clerk@example.org",
            "--role",
            "clerk_treasurer",
            "--municipality",
            "hayward",
        ],
        "",
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("found user"));
    // A zone role in a municipality, a weak password: refused with the reason.
    let out = run(
        &[
            "admin",
            "create-user",
            "--email",
            "x@example.org",
            "--role",
            "zone_admin",
            "--municipality",
            "hayward",
            "--password-stdin",
        ],
        "correct horse battery staple\n",
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("role"));
    let out = run(
        &[
            "admin",
            "create-user",
            "--email",
            "y@example.org",
            "--role",
            "municipal_staff",
            "--municipality",
            "hayward",
            "--password-stdin",
        ],
        "short\n",
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("password"));
}

/// `roomtax serve` as a real process on a port the system picked (port 0, read
/// from the `listening on` line it prints once serving), its stderr kept in a
/// file for the failure messages. Killed if the test ends while it still runs.
struct Served {
    child: std::process::Child,
    addr: String,
    stderr: std::path::PathBuf,
    /// Lines of stdout the reader thread has seen (it drains the pipe to the end).
    stdout: std::sync::mpsc::Receiver<String>,
}

impl Served {
    /// Spawn `roomtax <args>` in `dir` (no wait for anything).
    fn spawn(dir: &std::path::Path, args: &[&str]) -> Self {
        use std::io::BufRead;
        let stderr = dir.join("serve.stderr");
        let mut child = Command::new(env!("CARGO_BIN_EXE_roomtax"))
            .args(args)
            .current_dir(dir)
            .env("DATABASE_URL", "sqlite://data/cli.db")
            .env("ROOMTAX_HOST", "127.0.0.1")
            .env("ROOMTAX_PORT", "0")
            .env_remove("ROOMTAX_DATABASE_URL")
            .env_remove("ROOMTAX_CONFIG")
            .stdout(std::process::Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, stdout) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Self {
            child,
            addr: String::new(),
            stderr,
            stdout,
        }
    }

    /// Spawn, wait for the `listening on` line, then for `/readyz` to answer 200.
    fn start(dir: &std::path::Path, args: &[&str]) -> Self {
        let mut served = Self::spawn(dir, args);
        let line = served.wait_for_line("listening on http://");
        served.addr = line["listening on http://".len()..].to_owned();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let response =
                served.request("GET /readyz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            if response.starts_with("HTTP/1.1 200") {
                return served;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "not ready: {response}\n{}",
                served.log()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// The first stdout line starting with `prefix` (60 s at most).
    fn wait_for_line(&mut self, prefix: &str) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.stdout.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return line,
                Ok(_) => {}
                Err(e) => panic!(
                    "no `{prefix}` line on stdout ({e}; exit: {:?})\n{}",
                    self.child.try_wait(),
                    self.log()
                ),
            }
        }
    }

    /// One raw HTTP/1.1 exchange on a new connection (`Connection: close`).
    fn request(&self, raw: &str) -> String {
        use std::io::{Read, Write};
        let mut conn = std::net::TcpStream::connect(&self.addr)
            .unwrap_or_else(|e| panic!("connect {}: {e}\n{}", self.addr, self.log()));
        conn.write_all(raw.as_bytes()).unwrap();
        let mut response = String::new();
        conn.read_to_string(&mut response)
            .unwrap_or_else(|e| panic!("read: {e}\n{}", self.log()));
        response
    }

    fn sigterm(&self) {
        let killed = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
    }

    /// Wait (15 s at most) for the process to end.
    fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "server did not stop after SIGTERM\n{}",
                self.log()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// What the server wrote on stderr so far.
    fn log(&self) -> String {
        format!(
            "--- server stderr ---\n{}",
            std::fs::read_to_string(&self.stderr).unwrap_or_default()
        )
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[test]
fn sigterm_lets_an_in_flight_request_finish() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::time::Duration;

    let dir = tempfile::tempdir().unwrap();
    let mut served = Served::start(dir.path(), &["serve", "--demo"]);
    let mut conn = TcpStream::connect(&served.addr).unwrap();
    // Headers and half the body now, SIGTERM, then the rest of the body.
    let body = br#"{"period":"2026-Q1","gross_receipts":"12345.67"}"#;
    let (first, rest) = body.split_at(20);
    write!(
        conn,
        "POST /v1/municipalities/montello/quotes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    conn.write_all(first).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    served.sigterm();
    std::thread::sleep(Duration::from_millis(300));
    conn.write_all(rest).unwrap();
    let mut response = String::new();
    conn.read_to_string(&mut response)
        .unwrap_or_else(|e| panic!("read: {e}\n{}", served.log()));
    assert!(
        response.starts_with("HTTP/1.1 200"),
        "{response}\n{}",
        served.log()
    );
    assert!(response.contains("\"tax\":\"555.56\""), "{response}");

    // The process then exits cleanly, and no longer accepts connections.
    let status = served.wait_exit();
    assert!(status.success(), "{status}\n{}", served.log());
    assert!(served.log().contains("SIGTERM"), "{}", served.log());
    assert!(TcpStream::connect(&served.addr).is_err());
}

/// A SIGTERM while the server is still starting (here: right after the demo
/// accounts are printed, before the port is bound) does not kill the process:
/// it starts, stops at once and exits 0. Before the fix the signal met the
/// default action and the process died of it.
#[test]
fn sigterm_during_startup_stops_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let mut served = Served::spawn(dir.path(), &["serve", "--demo"]);
    served.wait_for_line("Demo accounts");
    served.sigterm();
    let status = served.wait_exit();
    assert!(status.success(), "{status}\n{}", served.log());
    assert!(served.log().contains("SIGTERM"), "{}", served.log());
}

#[test]
fn a_sqlite_url_in_a_missing_folder_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_roomtax"))
        .args(["migrate"])
        .current_dir(dir.path())
        .env("DATABASE_URL", "sqlite://typo/roomtax.db")
        .env_remove("ROOMTAX_DATABASE_URL")
        .env_remove("ROOMTAX_CONFIG")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("typo/roomtax.db"), "{stderr}");
    assert!(stderr.contains("does not exist"), "{stderr}");
    assert!(!dir.path().join("typo").exists(), "no folder was created");
}

#[cfg(unix)]
#[test]
fn the_sqlite_database_file_is_private_to_its_owner() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // The default data/ folder is the one folder that is created.
    let out = roomtax(dir.path(), &["demo"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mode = |name: &str| {
        std::fs::metadata(dir.path().join(name))
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode("data/cli.db"), 0o600);
    assert_eq!(mode("data") & 0o077, 0, "data/ is not open to others");
    // Keep a connection open so the -wal and -shm files exist, then check them.
    let url = format!("sqlite://{}", dir.path().join("data/cli.db").display());
    let target = roomtax::db::Target::parse(&roomtax::config::Secret::new(url)).unwrap();
    let mut conn = target.connect().unwrap();
    use diesel::RunQueryDsl;
    diesel::sql_query("CREATE TABLE IF NOT EXISTS probe (x INTEGER)")
        .execute(&mut conn)
        .unwrap();
    for name in ["data/cli.db-wal", "data/cli.db-shm"] {
        assert_eq!(mode(name), 0o600, "{name}");
    }
}

/// Run `roomtax` in `dir` with `stdin` piped in.
fn roomtax_with_stdin(dir: &std::path::Path, args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_roomtax"))
        .args(args)
        .current_dir(dir)
        .env("DATABASE_URL", "sqlite://data/cli.db")
        .env_remove("ROOMTAX_DATABASE_URL")
        .env_remove("ROOMTAX_CONFIG")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn ok(out: &std::process::Output) -> String {
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn refused(out: &std::process::Output) -> String {
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The README's "Our town on a fresh machine", as real processes: no demo.
#[test]
fn our_town_on_a_fresh_machine_without_the_demo() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(&roomtax(d, &["migrate"]));
    let out = ok(&roomtax(
        d,
        &[
            "admin",
            "create-zone",
            "--slug",
            "marquette-county",
            "--name",
            "Marquette County Tourism Zone",
            "--county",
            "Marquette",
        ],
    ));
    assert!(out.contains("created zone marquette-county"), "{out}");
    let create_town = [
        "admin",
        "create-municipality",
        "--slug",
        "westfield",
        "--name",
        "Village of Westfield",
        "--kind",
        "village",
        "--county",
        "marquette",
    ];
    let out = ok(&roomtax(d, &create_town));
    assert!(out.contains("created municipality westfield"), "{out}");
    assert!(out.contains("Marquette County"), "{out}");
    // The same slug again, and bad values: plain errors naming what is wrong.
    assert!(refused(&roomtax(d, &create_town)).contains("westfield already exists"));
    let mut bad = create_town;
    bad[3] = "West Field";
    assert!(refused(&roomtax(d, &bad)).contains("--slug"));
    let mut bad = create_town;
    bad[5] = "\u{200B} ";
    assert!(refused(&roomtax(d, &bad)).contains("--name"));
    let mut bad = create_town;
    bad[7] = "county";
    assert!(refused(&roomtax(d, &bad)).contains("--kind"));
    let mut bad = create_town;
    bad[9] = "Atlantis";
    assert!(refused(&roomtax(d, &bad)).contains("--county"));

    // Its policy: a custom file (the Montello preset adapted), and a preset for Montello.
    let preset = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/policies/montello.toml"
    ))
    .unwrap();
    let ours = preset
        .replace(
            "municipality = \"City of Montello\"",
            "municipality = \"Village of Westfield\"",
        )
        .replace("value = \"0.045\"", "value = \"0.05\"");
    std::fs::write(d.join("westfield.toml"), ours).unwrap();
    let out = ok(&roomtax(
        d,
        &[
            "policy",
            "add",
            "--municipality",
            "westfield",
            "--file",
            "westfield.toml",
        ],
    ));
    assert!(out.contains("added to westfield"), "{out}");
    ok(&roomtax(
        d,
        &[
            "admin",
            "create-municipality",
            "--slug",
            "montello",
            "--name",
            "City of Montello",
            "--kind",
            "city",
            "--county",
            "Marquette",
        ],
    ));
    ok(&roomtax(
        d,
        &[
            "policy",
            "add",
            "--municipality",
            "montello",
            "--preset",
            "montello",
        ],
    ));
    assert!(
        !roomtax(
            d,
            &[
                "policy",
                "add",
                "--municipality",
                "montello",
                "--preset",
                "nowhere"
            ]
        )
        .status
        .success()
    );

    // The first clerk-treasurer; the same email again leaves the password alone.
    let clerk = [
        "admin",
        "create-user",
        "--email",
        "clerk@westfield.example",
        "--role",
        "clerk_treasurer",
        "--municipality",
        "westfield",
        "--password-stdin",
    ];
    let first = "first passphrase for the clerk";
    assert!(ok(&roomtax_with_stdin(d, &clerk, &format!("{first}\n"))).contains("created user"));
    let mut staff = clerk;
    staff[5] = "municipal_staff";
    let out = ok(&roomtax_with_stdin(
        d,
        &staff,
        "another passphrase entirely\n",
    ));
    assert!(
        out.contains("password of clerk@westfield.example was left unchanged"),
        "{out}"
    );
    // set-password: unknown email and weak passwords refused; then a new password.
    let set = [
        "admin",
        "set-password",
        "--email",
        "clerk@westfield.example",
        "--password-stdin",
    ];
    assert!(refused(&roomtax_with_stdin(d, &set, "short\n")).contains("password"));
    let mut unknown = set;
    unknown[3] = "nobody@westfield.example";
    assert!(
        refused(&roomtax_with_stdin(
            d,
            &unknown,
            "a long enough passphrase\n"
        ))
        .contains("no user has the email nobody@westfield.example")
    );
    let second = "second passphrase for the clerk";
    assert!(ok(&roomtax_with_stdin(d, &set, &format!("{second}\n"))).contains("password of"));

    // Serve, and sign in over HTTP with the new password (the old one fails).
    let mut server = Served::start(d, &["serve"]);
    let sign_in = |password: &str| -> String {
        let body = format!(r#"{{"email":"clerk@westfield.example","password":"{password}"}}"#);
        server.request(&format!(
            "POST /v1/auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ))
    };
    let old = sign_in(first);
    let new = sign_in(second);
    server.sigterm();
    assert!(server.wait_exit().success(), "{}", server.log());
    assert!(old.starts_with("HTTP/1.1 401"), "{old}");
    assert!(new.starts_with("HTTP/1.1 200"), "{new}");
    assert!(new.contains("\"access_token\""), "{new}");
}

#[test]
fn join_zone_records_a_membership_under_the_zone_rules() {
    let dir = tempfile::tempdir().unwrap();
    assert!(roomtax(dir.path(), &["demo"]).status.success());
    let join = |municipality: &str, date: &str| {
        roomtax(
            dir.path(),
            &[
                "admin",
                "join-zone",
                "--municipality",
                municipality,
                "--zone",
                "marquette-county",
                "--joined-on",
                date,
            ],
        )
    };
    let stderr = |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).into_owned();

    // Hayward levies 4 %, the zone 4.5 %.
    let out = join("hayward", "2199-01-01");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Wis. Stat. § 66.0615"),
        "{}",
        stderr(&out)
    );
    // Montello is a member already.
    let out = join("montello", "2199-01-01");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("one zone at a time"),
        "{}",
        stderr(&out)
    );
    // Dates are written YYYY-MM-DD.
    let out = join("hayward", "2199-1-1");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("YYYY-MM-DD"), "{}", stderr(&out));

    // Once Hayward's rate is the zone's from that day, it may join.
    let preset = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/policies/hayward.toml"
    ))
    .unwrap();
    let aligned = preset
        .replace(
            "effective_from = \"1993-08-01\"",
            "effective_from = \"2199-01-01\"",
        )
        .replace("value = \"0.04\"", "value = \"0.045\"");
    std::fs::write(dir.path().join("aligned.toml"), aligned).unwrap();
    let out = roomtax(
        dir.path(),
        &[
            "policy",
            "add",
            "--municipality",
            "hayward",
            "--file",
            "aligned.toml",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = join("hayward", "2199-01-01");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("from 2199-01-01"));
}

#[test]
fn create_municipality_in_a_zone_then_its_policy_must_levy_the_zone_rate() {
    let dir = tempfile::tempdir().unwrap();
    assert!(roomtax(dir.path(), &["demo"]).status.success());
    let text = |out: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    let create = |slug: &str, extra: &[&str]| {
        let mut args = vec![
            "admin",
            "create-municipality",
            "--slug",
            slug,
            "--name",
            "Village of Westfield",
            "--kind",
            "village",
            "--county",
            "Marquette",
        ];
        args.extend_from_slice(extra);
        roomtax(dir.path(), &args)
    };
    // --zone needs --joined-on (and the other way round).
    let out = create("westfield", &["--zone", "marquette-county"]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("--joined-on"), "{}", text(&out));
    // An unknown zone refuses the whole command: the municipality is not created.
    let out = create(
        "westfield",
        &["--zone", "nowhere", "--joined-on", "2199-01-01"],
    );
    assert!(!out.status.success(), "{}", text(&out));
    let out = create(
        "westfield",
        &["--zone", "marquette-county", "--joined-on", "2199-01-01"],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("member of zone marquette-county from 2199-01-01"),
        "{}",
        text(&out)
    );
    // Its first policy must levy the members' rate: Hayward's 4 % is refused,
    // Montello's 4.5 % accepted.
    let policy = |preset: &str| {
        roomtax(
            dir.path(),
            &[
                "policy",
                "add",
                "--municipality",
                "westfield",
                "--preset",
                preset,
            ],
        )
    };
    let out = policy("hayward");
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("66.0615"), "{}", text(&out));
    let out = policy("montello");
    assert!(out.status.success(), "{}", text(&out));
}

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

#[test]
fn sigterm_lets_an_in_flight_request_finish() {
    use std::io::{Read, Write};
    use std::net::TcpStream;
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_roomtax"))
        .args(["serve", "--demo"])
        .current_dir(dir.path())
        .env("DATABASE_URL", "sqlite://data/cli.db")
        .env("ROOMTAX_PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let addr = format!("127.0.0.1:{port}");
    let started = Instant::now();
    let mut conn = loop {
        if let Ok(c) = TcpStream::connect(&addr) {
            break c;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "server did not start"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
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
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    std::thread::sleep(Duration::from_millis(300));
    conn.write_all(rest).unwrap();
    let mut response = String::new();
    conn.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"tax\":\"555.56\""), "{response}");

    // The process then exits cleanly, and no longer accepts connections.
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "server did not stop after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    assert!(TcpStream::connect(&addr).is_err());
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

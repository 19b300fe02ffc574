//! `roomtax check` as a process, and the append-only guards.

use diesel::prelude::*;
use roomtax::{
    config::Secret,
    db::{Target, ledger::LineRow, schema::ledger_lines},
};

use super::{all_lines, roomtax, sums};
use crate::helpers::TestDb;

fn text(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_passes_on_the_demo_and_names_a_tampered_journal() {
    let db = TestDb::create();
    let out = roomtax(&db, &["demo"]);
    assert!(out.status.success(), "{}", text(&out).1);

    let out = roomtax(&db, &["check"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("ledger check passed"), "{stdout}");
    for checked in [
        "every migration is applied",
        "append-only triggers are in force",
        "summing to zero",
        "each have their journal",
    ] {
        assert!(stdout.contains(checked), "{checked:?} not in {stdout}");
    }
    if db.backend() == "postgres" {
        assert!(stdout.contains("no role but the owner"), "{stdout}");
    }

    // The demo's returns left journals that all sum to zero.
    let owner_url = db.owner_url().unwrap_or(db.url()).to_owned();
    let mut owner = Target::parse(&Secret::new(&owner_url))
        .and_then(|t| t.connect())
        .unwrap();
    let lines = all_lines(&mut owner);
    assert!(!lines.is_empty());
    assert!(sums(&lines).values().all(|s| *s == 0));

    // Even the owner cannot change a line: the trigger refuses.
    let victim = lines[0].clone();
    let err = diesel::update(ledger_lines::table)
        .set(ledger_lines::amount_cents.eq(0))
        .execute(&mut owner)
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
    let err = diesel::delete(ledger_lines::table)
        .execute(&mut owner)
        .unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");

    // Tamper past the service: one more line on an existing journal.
    diesel::insert_into(ledger_lines::table)
        .values(LineRow {
            line_no: 99,
            account: "municipality:cash".into(),
            amount_cents: 1,
            ..victim.clone()
        })
        .execute(&mut owner)
        .unwrap();
    let out = roomtax(&db, &["check"]);
    let (stdout, stderr) = text(&out);
    assert!(!out.status.success(), "a tampered ledger passed: {stdout}");
    let named = format!("journal {} does not sum to zero", victim.journal_id);
    // The victim is whichever line came first: a Montello or a Hayward journal.
    assert!(
        stdout.lines().any(|l| l.starts_with("BROKEN: ")
            && l.ends_with(&format!(": {named} (its lines are off by 1 cents)"))),
        "{stdout}"
    );
    assert!(stderr.contains(&named), "{stderr}");
    assert!(!stdout.contains("ledger check passed"));
}

#[test]
fn the_runtime_role_may_not_update_delete_or_truncate_the_ledger() {
    let db = TestDb::create();
    if crate::helpers::skip_unless_postgres(
        &db,
        "the_runtime_role_may_not_update_delete_or_truncate_the_ledger",
    ) {
        return;
    }
    assert!(roomtax(&db, &["demo"]).status.success());
    let mut app = diesel::PgConnection::establish(db.url()).unwrap();
    // Its tenant set (so row-level security would let it see the rows), every
    // change is refused by privilege before any trigger runs.
    for statement in [
        "UPDATE ledger_lines SET amount_cents = 0",
        "DELETE FROM ledger_lines",
        "TRUNCATE ledger_lines",
        "UPDATE ledger_journals SET memo = 'x'",
        "DELETE FROM ledger_journals",
        "TRUNCATE ledger_journals",
    ] {
        let err = app
            .transaction::<(), diesel::result::Error, _>(|c| {
                diesel::sql_query("SELECT set_config('app.municipality_id', '1', true)")
                    .execute(c)?;
                diesel::sql_query(statement).execute(c).map(|_| ())
            })
            .unwrap_err();
        assert!(
            err.to_string().contains("permission denied"),
            "{statement}: {err}"
        );
    }
    // A role that gets the privilege back is named by the check.
    let owner_url = db.owner_url().unwrap();
    let mut owner = diesel::PgConnection::establish(owner_url).unwrap();
    diesel::sql_query(format!(
        "GRANT UPDATE ON ledger_lines TO {}",
        crate::helpers::TEST_APP_ROLE
    ))
    .execute(&mut owner)
    .unwrap();
    let out = roomtax(&db, &["check"]);
    let (stdout, _) = text(&out);
    assert!(!out.status.success());
    assert!(
        stdout.contains(&format!(
            "ledger_lines: {} UPDATE",
            crate::helpers::TEST_APP_ROLE
        )),
        "{stdout}"
    );
}

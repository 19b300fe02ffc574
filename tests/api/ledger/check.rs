//! `roomtax check` as a process, and the append-only guards.

use diesel::prelude::*;
use roomtax::{
    config::Secret,
    db::{Target, ledger::LineRow, migrations, schema::ledger_lines},
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
fn the_version_due_dates_are_copied_from_their_documents_and_checked() {
    let db = TestDb::create();
    let out = roomtax(&db, &["demo"]);
    assert!(out.status.success(), "{}", text(&out).1);
    let owner_url = db.owner_url().unwrap_or(db.url()).to_owned();
    let mut owner = Target::parse(&Secret::new(&owner_url))
        .and_then(|t| t.connect())
        .unwrap();
    // The migration that added the columns, undone and applied again on the
    // demo's versions: it copies each one's dates from its assessment.
    migrations::revert_last(&mut owner).unwrap();
    assert_eq!(migrations::run(&mut owner).unwrap(), 1);
    let out = roomtax(&db, &["check"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("and their assessment's due dates"),
        "{stdout}"
    );

    // A version whose column disagrees with its document is named (the
    // append-only guard lifted past the service for the tampering).
    let (lift, restore) = if db.backend() == "postgres" {
        (
            "ALTER TABLE return_versions DISABLE TRIGGER return_versions_append_only",
            "ALTER TABLE return_versions ENABLE TRIGGER return_versions_append_only",
        )
    } else {
        (
            "DROP TRIGGER return_versions_no_update",
            "CREATE TRIGGER return_versions_no_update BEFORE UPDATE ON return_versions \
             BEGIN SELECT RAISE(ABORT, 'return_versions is append-only'); END",
        )
    };
    diesel::sql_query(lift).execute(&mut owner).unwrap();
    let changed = diesel::sql_query(
        "UPDATE return_versions SET due_date = '2001-02-03' \
         WHERE return_id = (SELECT MIN(return_id) FROM return_versions) AND version = 1",
    )
    .execute(&mut owner)
    .unwrap();
    assert_eq!(changed, 1);
    diesel::sql_query(restore).execute(&mut owner).unwrap();
    let out = roomtax(&db, &["check"]);
    let (stdout, _) = text(&out);
    assert!(
        !out.status.success(),
        "a tampered due date passed: {stdout}"
    );
    assert!(
        stdout.lines().any(|l| l.starts_with("BROKEN: ")
            && l.contains("version 1: its due dates (2001-02-03, filing ")),
        "{stdout}"
    );
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

/// Every append-only table of the money is watched: a trigger dropped past
/// the service on `notices` (and, on PostgreSQL, an UPDATE granted on
/// `notice_documents` to the runtime role) is named by the check.
#[test]
fn the_check_names_a_missing_trigger_or_privilege_on_every_append_only_table() {
    let db = TestDb::create();
    assert!(roomtax(&db, &["demo"]).status.success());
    let out = roomtax(&db, &["check"]);
    let (stdout, _) = text(&out);
    assert!(out.status.success(), "{stdout}");
    for t in [
        "determinations",
        "security_deposits",
        "security_events",
        "clearance_certificates",
        "notices",
        "notice_documents",
    ] {
        assert!(stdout.contains(&format!("{t}.{t}_")), "{t} not in {stdout}");
    }
    let owner_url = db.owner_url().unwrap_or(db.url()).to_owned();
    let mut owner = Target::parse(&Secret::new(&owner_url))
        .and_then(|t| t.connect())
        .unwrap();
    let (drop, named) = if db.backend() == "postgres" {
        (
            "DROP TRIGGER notices_append_only ON notices",
            "notices.notices_append_only",
        )
    } else {
        (
            "DROP TRIGGER notices_no_update",
            "notices.notices_no_update",
        )
    };
    diesel::sql_query(drop).execute(&mut owner).unwrap();
    if db.backend() == "postgres" {
        diesel::sql_query(format!(
            "GRANT UPDATE ON notice_documents TO {}",
            crate::helpers::TEST_APP_ROLE
        ))
        .execute(&mut owner)
        .unwrap();
    }
    let out = roomtax(&db, &["check"]);
    let (stdout, _) = text(&out);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "append-only trigger {named} is missing or disabled"
        )),
        "{stdout}"
    );
    if db.backend() == "postgres" {
        assert!(
            stdout.contains(&format!(
                "notice_documents: {} UPDATE",
                crate::helpers::TEST_APP_ROLE
            )),
            "{stdout}"
        );
    }
}

/// A notice document changed past the service (its trigger dropped by the
/// owner, its bytes rewritten) no longer matches its SHA-256: the check names
/// the notice.
#[actix_web::test]
async fn the_check_names_a_notice_document_changed_after_it_was_sent() {
    let app = crate::helpers::spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(crate::returns::CLERK).await;
    let res = app
        .call(
            reqwest::Method::POST,
            &format!(
                "/v1/municipalities/montello/payors/{}/determinations",
                crate::returns::MOTEL
            ),
        )
        .bearer(&clerk)
        .json(serde_json::json!({
            "kind": "field_audit",
            "period": "2025-Q1",
            "basis": "Records examined on site.",
            "tax_found": "820.00"
        }))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let made: serde_json::Value = res.json().await.unwrap();
    let notice_id = made["notice_id"].as_str().unwrap().to_owned();
    let out = roomtax(&app.db, &["check"]);
    let (stdout, _) = text(&out);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("1 notice document(s) each match their SHA-256"),
        "{stdout}"
    );

    let mut owner = app.owner_conn();
    let drop = if app.db.backend() == "postgres" {
        "DROP TRIGGER notice_documents_append_only ON notice_documents"
    } else {
        "DROP TRIGGER notice_documents_no_update"
    };
    diesel::sql_query(drop).execute(&mut owner).unwrap();
    use roomtax::db::schema::notice_documents;
    diesel::update(notice_documents::table)
        .set(notice_documents::bytes.eq(b"%PDF-1.7 forged".to_vec()))
        .execute(&mut owner)
        .unwrap();
    let out = roomtax(&app.db, &["check"]);
    let (stdout, _) = text(&out);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "notice {notice_id}'s document does not match its SHA-256"
        )),
        "{stdout}"
    );
}

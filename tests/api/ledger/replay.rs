//! `roomtax check` replays every payment's allocation (issue 9 item 1): a
//! tamper that keeps a payment's journal balanced, 10.00 moved from the
//! forfeiture line to the credit line past the append-only trigger, is
//! named (payor, journal, line); the sound ledger before it passes. On both
//! backends.
//!
//! The ledger is `payments.rs`'s hand computation: a new Montello payor,
//! 2025-Q4 tax 360.00 (on time), 2026-Q1 tax 427.50 filed late (fee 25.00,
//! forfeiture 90.00 once paid more than 30 days late); A 500.00 on
//! 2026-05-15, B 400.00 on 2026-07-10 (forfeiture 90.00 posted, 62.78 of it
//! paid), C 50.00 on 2026-07-20: forfeiture 27.22, 22.78 held as credit.

use diesel::prelude::*;
use serde_json::{Value, json};

use super::payments::{check_passes, new_payor, paper_return, pay};
use super::roomtax;
use crate::helpers::{TestApp, spawn_demo_app_at};
use crate::returns::CLERK;

async fn paid(app: &TestApp, clerk: &str, payor: &str, on: &str, amount: &str) -> Value {
    app.set_now(&format!("{on}T15:00:00Z"));
    let res = pay(
        app,
        clerk,
        payor,
        json!({"received_on": on, "amount": amount, "method": "check", "reference": on}),
    )
    .await;
    assert_eq!(res.status(), 201);
    res.json().await.unwrap()
}

/// Bypass the append-only trigger of `ledger_lines` as the owner, run
/// `change`, put the guard back (PostgreSQL: disable and enable it; SQLite:
/// drop it and create it again as the migration does).
fn past_the_trigger(
    owner: &mut roomtax::db::DbConn,
    postgres: bool,
    change: impl FnOnce(&mut roomtax::db::DbConn),
) {
    if postgres {
        diesel::sql_query("ALTER TABLE ledger_lines DISABLE TRIGGER ledger_lines_append_only")
            .execute(owner)
            .unwrap();
        change(owner);
        diesel::sql_query("ALTER TABLE ledger_lines ENABLE TRIGGER ledger_lines_append_only")
            .execute(owner)
            .unwrap();
    } else {
        diesel::sql_query("DROP TRIGGER ledger_lines_no_update")
            .execute(owner)
            .unwrap();
        change(owner);
        diesel::sql_query(
            "CREATE TRIGGER ledger_lines_no_update BEFORE UPDATE ON ledger_lines \
             BEGIN SELECT RAISE(ABORT, 'ledger_lines is append-only (post a reversing journal instead)'); END",
        )
        .execute(owner)
        .unwrap();
    }
}

#[actix_web::test]
async fn the_check_replays_payments_and_names_a_forfeiture_moved_to_credit() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Replay Cabins LLC").await;
    paper_return(
        &app,
        &clerk,
        &payor,
        "2025-Q4",
        "8000.00",
        "0.00",
        "2026-01-31",
    )
    .await;
    paper_return(
        &app,
        &clerk,
        &payor,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-05-01",
    )
    .await;
    paid(&app, &clerk, &payor, "2026-05-15", "500.00").await;
    paid(&app, &clerk, &payor, "2026-07-10", "400.00").await;
    let c = paid(&app, &clerk, &payor, "2026-07-20", "50.00").await;
    assert_eq!(c["credit"], "22.78");
    check_passes(&app);
    let out = roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    // The demo's payments and these three, each replayed.
    assert!(
        stdout.contains("payment journal(s) replay exactly"),
        "{stdout}"
    );

    let journal = c["journal_id"].as_str().unwrap().to_owned();
    let mut owner = app.owner_conn();
    use roomtax::db::schema::ledger_lines::dsl as l;
    let lines: Vec<(i32, String, i64)> = l::ledger_lines
        .filter(l::journal_id.eq(&journal))
        .order(l::line_no.asc())
        .select((l::line_no, l::account, l::amount_cents))
        .load(&mut owner)
        .unwrap();
    let forfeiture = format!("payor:{payor}:2026-Q1:late_payment_forfeiture");
    let credit = format!("payor:{payor}:credit");
    let (f_no, _, f_cents) = lines
        .iter()
        .find(|(_, a, _)| *a == forfeiture)
        .unwrap()
        .clone();
    let (k_no, _, k_cents) = lines.iter().find(|(_, a, _)| *a == credit).unwrap().clone();
    assert_eq!((f_cents, k_cents), (-2722, -2278));
    let postgres = app.db.backend() == "postgres";
    past_the_trigger(&mut owner, postgres, |owner| {
        for (no, cents) in [(f_no, f_cents + 1000), (k_no, k_cents - 1000)] {
            diesel::update(
                l::ledger_lines
                    .filter(l::journal_id.eq(&journal))
                    .filter(l::line_no.eq(no)),
            )
            .set(l::amount_cents.eq(cents))
            .execute(owner)
            .unwrap();
        }
    });
    let out = roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(!out.status.success(), "{stdout}");
    // Still balanced, the triggers back: only the replay sees it.
    assert!(stdout.contains("summing to zero"), "{stdout}");
    assert!(
        stdout.contains("append-only triggers are in force"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "payor {payor}: payment journal {journal} (payment {}) does not replay its allocation: line {f_no} (`{forfeiture}`) does not post the amount the allocation gives",
            c["id"].as_str().unwrap()
        )),
        "{stdout}"
    );
    assert!(
        !stdout.contains("payment journal(s) replay exactly"),
        "{stdout}"
    );
}

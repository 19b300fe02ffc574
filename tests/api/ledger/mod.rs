//! The ledger from outside: `roomtax check` run as a real process on a live
//! database (the demo passes; a row inserted past the service is named),
//! the database's own refusal of UPDATE/DELETE/TRUNCATE, and filing and
//! amending a return through the API leaving journals that sum to zero with
//! the hand-computed amounts. Every test runs on SQLite and, with
//! `ROOMTAX_TEST_DATABASE_URL`, on PostgreSQL.

mod backdating;
mod check;
mod clearance;
mod credit;
mod daily;
mod delinquencies;
mod demo;
mod determinations;
mod notices;
mod payments;
mod posting;
mod races;
mod refunds;
mod replay;
mod reversals;
mod security;
mod successor;
mod transfers;
mod zone_demo;

use std::process::{Command, Output};

use roomtax::db::{
    DbConn,
    ledger::{JournalRow, LineRow},
};

use crate::helpers::TestDb;

/// Run the binary against `db` (runtime role; migrations as the owner).
pub(super) fn roomtax(db: &TestDb, args: &[&str]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_roomtax"));
    cmd.args(args)
        .current_dir(dir.path())
        .env("DATABASE_URL", db.url())
        .env_remove("ROOMTAX_DATABASE_URL")
        .env_remove("ROOMTAX_CONFIG")
        .env_remove("ROOMTAX_MIGRATION_DATABASE_URL");
    if let Some(owner) = db.owner_url() {
        cmd.env("ROOMTAX_MIGRATION_DATABASE_URL", owner);
    }
    cmd.output().expect("roomtax runs")
}

/// Every line of the database, read as the owner (past row-level security on
/// PostgreSQL: the tests' owner is the server's superuser).
pub(super) fn all_lines(owner: &mut DbConn) -> Vec<LineRow> {
    use diesel::prelude::*;
    use roomtax::db::schema::ledger_lines::dsl::*;
    ledger_lines
        .order((journal_id.asc(), line_no.asc()))
        .load(owner)
        .unwrap()
}

/// The sum of every journal's lines, by journal.
pub(super) fn sums(lines: &[LineRow]) -> std::collections::BTreeMap<String, i128> {
    let mut out = std::collections::BTreeMap::new();
    for l in lines {
        *out.entry(l.journal_id.clone()).or_default() += i128::from(l.amount_cents);
    }
    out
}

/// Every journal of the database, read as the owner, oldest first.
pub(super) fn all_journals(owner: &mut DbConn) -> Vec<JournalRow> {
    use diesel::prelude::*;
    use roomtax::db::schema::ledger_journals::dsl::*;
    ledger_journals
        .order((posted_on.asc(), created_at.asc()))
        .load(owner)
        .unwrap()
}

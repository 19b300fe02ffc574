//! One integration-test binary: the real app over HTTP, per-test databases.
//! Set `ROOMTAX_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres`
//! to run every test against PostgreSQL instead of SQLite.
//!
//! Skipped, never passed: the backend is chosen at run time, so `#[ignore]`
//! cannot express "PostgreSQL only". A test that does not apply to the
//! current backend calls `helpers::skip` (or `skip_unless_postgres`), which
//! writes `SKIPPED: <test>: <reason>` to stderr and returns; cargo still
//! counts it as passed, so `.ci/run` counts those lines, reports them as
//! skipped (subtracting them from the passes) and fails the PostgreSQL pass
//! if any test skipped itself there for want of PostgreSQL.

mod admin;
mod auth;
mod backup;
mod cli;
mod errors;
mod expenditures;
mod health;
mod helpers;
mod hostile;
mod ledger;
mod marketplace;
mod matrix;
mod migrations;
mod openapi;
mod payors;
mod prepared;
mod quotes;
mod remittances;
mod reports;
mod returns;
mod rls;
mod statistics;
mod unit_memo;
mod vehicle_fee;
mod web;
mod web_browser;
mod web_clerk;
mod web_clerk_more;
mod web_operator;
mod web_operator_more;
mod web_zone;
mod web_zone_more;
mod zones;

//! One integration-test binary: the real app over HTTP, per-test databases.
//! Set `ROOMTAX_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres`
//! to run every test against PostgreSQL instead of SQLite.

mod admin;
mod auth;
mod cli;
mod errors;
mod health;
mod helpers;
mod hostile;
mod matrix;
mod migrations;
mod openapi;
mod payors;
mod quotes;
mod rls;
mod zones;

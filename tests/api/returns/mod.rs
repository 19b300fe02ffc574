//! Returns over HTTP, from the operator's and the clerk's side: filing on
//! time and late by the municipality's local date (an injected clock),
//! zero returns, paper returns entered by staff, validation, one return per
//! payor and period, amendments with `If-Match`, and who may see what.
//!
//! Hand computations (Montello, 4.5 %, quarterly due the last calendar day of
//! the following month; interest 1 % a month; late filing fee $25):
//! - 2026-Q1, gross 10,000.00, federal exemption 500.00: taxable 9,500.00,
//!   tax 9,500.00 × 0.045 = 427.50; due 2026-04-30.
//! - filed (and so paid) 2026-05-01: late; fee 25.00; interest months =
//!   (12·2026+5) − (12·2026+4) = 1, 427.50 × 0.01 = 4.275 → 4.28;
//!   forfeiture none (paid within 30 days); amount due 427.50 + 4.28 + 25.00 = 456.78.

mod amendments;
mod annual;
mod attachments;
mod extensions;
mod filing;
mod idempotency;
mod obligations;

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::TestApp;

pub(super) const CLERK: &str = "clerk@montello.demo";
pub(super) const OPERATOR: &str = "operator@montello.demo";
pub(super) const MOTEL: &str = roomtax::demo::MONTELLO_MOTEL_ID;
pub(super) const CAMPGROUND: &str = roomtax::demo::MONTELLO_CAMPGROUND_ID;

/// The returns collection of a Montello payor.
pub(super) fn returns_of(payor: &str) -> String {
    format!("/v1/municipalities/montello/payors/{payor}/returns")
}

/// A complete quarterly filing body.
pub(super) fn filing(period: &str, gross: &str, federal_exempt: &str) -> Value {
    json!({
        "period": period,
        "gross_receipts": gross,
        "exemptions": [{"code": "federal_government", "amount": federal_exempt}],
        "nights_sold": 212,
        "signer": {"name": "Dana Pine", "title": "Managing member"},
        "attested": true
    })
}

/// File `body` for `payor` as `token`.
pub(super) async fn file(
    app: &TestApp,
    token: &str,
    payor: &str,
    body: Value,
) -> reqwest::Response {
    app.call(Method::POST, &returns_of(payor))
        .bearer(token)
        .json(body)
        .send()
        .await
}

//! `POST .../payors/{payor}/payments` (record a payment),
//! `POST .../payors/{payor}/payments/{payment}/reversal` (a bounced payment),
//! `POST .../payors/{payor}/refunds` (a refund of credit, [`refunds`])
//! and `GET .../payors/{payor}/account` (the statement of account, JSON or
//! CSV).
//!
//! Contract: thin handlers over `usecases::ledger` (authorise before the
//! body is judged, one use-case call in the request's unit of work, shape).
//! Recording and reversing: the clerk-treasurer or staff only (related roles
//! 403, anyone else 404), `Idempotency-Key` honoured (`api::idempotency`).
//! The statement: the clerk-treasurer, staff and the payor's own operator;
//! anyone else 404; each read in the access log. Dates are the
//! municipality's local calendar date, read from the application's clock.

pub mod refunds;
mod statement;
mod types;

pub use statement::{AccountParams, account};
pub use types::*;

use actix_web::{HttpResponse, post, web};

use crate::{
    api::{
        caller::MunicipalUnit,
        idempotency::{Creating, Reply, allowed_to},
    },
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::ledger::payments::{self, NewPayment, NewReversal},
};

/// `/v1/municipalities/{slug}/payors/{payor}/account`.
pub fn account_location(slug: &str, payor_id: &str) -> String {
    format!("/v1/municipalities/{slug}/payors/{payor_id}/account")
}

/// `{municipality}/payors/{payor}/payments/{payment}`.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct PaymentPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Payor id (UUID).
    payor: String,
    /// Payment id (UUID).
    payment: String,
}

/// Record a payment received from a payor, applied by the policy's payment order.
///
/// Clerk-treasurer or staff only, a person (the payment names who recorded it); related
/// roles get 403, anyone else 404. The payment goes to the oldest open period first and
/// within it to tax, then interest, then fees and penalties. Interest on the tax it
/// settles is computed as of `received_on` (from the due date, to the first of the month
/// after) and posted with it; Montello's late-payment forfeiture is posted when it settles
/// tax more than 30 days after the filing due date; what is left is held as the payor's
/// credit. One ledger journal per payment (cash debited, the payor's accounts credited).
/// `Location` is the payor's statement of account. Written to the access log (`payment`,
/// `create`).
#[utoipa::path(
    operation_id = "record_payment",
    tag = "payments",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, crate::api::idempotency::KeyHeader),
    request_body = PaymentRequest,
    responses(
        (status = 201, description = "Recorded; the body shows the charges posted and the allocation", body = Payment,
            headers(("Location" = String, description = "Path of the payor's statement of account"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`received_on` after today or before the payor's latest payment, `amount` not more than 0.00, `reference` blank or too long; or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/payments")]
pub async fn record(
    path: web::Path<(String, String)>,
    creating: Creating<PaymentRequest>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id) = path.into_inner();
    creating
        .run(
            allowed_to(Action::RecordPayments),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let recorded = payments::record(
                    conn,
                    &ctx,
                    &payor_id,
                    NewPayment {
                        received_on: body.received_on,
                        amount: body.amount,
                        method: body.method,
                        reference: body.reference,
                    },
                    today,
                )?;
                Reply::created(account_location(&slug, &payor_id), &Payment::from(recorded))
            },
        )
        .await
}

/// Reverse a payment that bounced: a new journal negating the payment's, never a change.
///
/// Clerk-treasurer or staff only, a person; related roles get 403, anyone else 404. The
/// whole payment is taken back: what it settled is owed again and the interest it posted
/// withdrawn (posted again when a payment settles the tax); the late-payment forfeiture it
/// posted stands. The credit it left comes back from the credit still held, then from the
/// credit applications since (latest first: the charges they paid are owed again), then from
/// the refunds since (owed back as `refund_reclaimed` in the refund's period): the credit is
/// never negative. A payment is reversed once (409 `already_reversed`). `Location` is the
/// payor's statement of account. Written to the access log (`payment`, `reverse`).
#[utoipa::path(
    operation_id = "reverse_payment",
    tag = "payments",
    security(("bearer" = [])),
    params(PaymentPath, crate::api::idempotency::KeyHeader),
    request_body = ReversalRequest,
    responses(
        (status = 201, description = "Reversed", body = PaymentReversal,
            headers(("Location" = String, description = "Path of the payor's statement of account"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Already reversed (`payment`, `already_reversed`); or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`reversed_on` after today, before the receipt, or before a credit application or refund it undoes (`before_credit_used`), `reason` blank or too long; or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/payments/{payment}/reversal")]
pub async fn reverse(
    path: web::Path<(String, String, String)>,
    creating: Creating<ReversalRequest>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id, payment_id) = path.into_inner();
    creating
        .run(
            allowed_to(Action::RecordPayments),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let reversal = payments::reverse(
                    conn,
                    &ctx,
                    &payor_id,
                    &payment_id,
                    NewReversal {
                        reversed_on: body.reversed_on,
                        reason: body.reason,
                    },
                    today,
                )?;
                Reply::created(
                    account_location(&slug, &payor_id),
                    &PaymentReversal::from(reversal),
                )
            },
        )
        .await
}

//! `POST .../payors/{payor}/refunds`: a refund of the payor's credit, with
//! Montello's refund interest; and the refund as the statement lists it.
//!
//! Contract: a thin handler over `usecases::ledger::refunds::record`
//! (authorise before the body is judged, one use-case call in the request's
//! unit of work, shape); the clerk-treasurer or staff only (related roles
//! 403, anyone else 404); `Idempotency-Key` honoured (`api::idempotency`).

use actix_web::{HttpResponse, post, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{account_location, types::method_of};
use crate::{
    api::{
        caller::MunicipalUnit,
        idempotency::{Creating, Reply, allowed_to},
    },
    db::refunds::RefundRow,
    domain::Money,
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::ledger::{
        payments::PaymentMethod,
        refunds::{self, NewRefund, RecordedRefund},
    },
};

/// A refund of credit, as the clerk-treasurer or staff enter it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RefundRequest {
    /// The local date the refund is paid out (not after today).
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub refunded_on: NaiveDate,
    /// The credit refunded, a decimal string more than "0.00" and at most the credit held on `refunded_on` (and now).
    pub amount: Money,
    /// How it is paid out: `check`, `ach`, `card` or `cash`.
    pub method: PaymentMethod,
    /// The check number or transaction id (1 to 100 characters).
    pub reference: String,
    /// The clerk-treasurer's finding that the overpayment was made intentionally or by reason of carelessness or neglect (Montello: no refund interest).
    pub overpayment_intentional_or_careless: bool,
    /// The period of the payor's return whose overpayment is refunded, e.g. "2026-Q1": its due date starts Montello's refund interest; an `incomplete` return earns none.
    pub period: String,
}

/// The refund interest paid with a refund, explained.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RefundInterest {
    /// The interest (0.00 where none is allowed).
    pub amount: Money,
    /// How the engine computed it, or why there is none.
    pub explanation: String,
    /// The ordinance paragraph it comes from.
    pub citation: String,
}

/// A line of a journal.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct JournalLineOut {
    /// The account, e.g. `payor:<id>:credit`, `municipality:cash`, `municipality:refund_interest_expense`.
    pub account: String,
    /// Signed amount: debit positive, credit negative.
    pub amount: Money,
}

/// A journal posted.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct JournalOut {
    /// The journal's id.
    pub id: String,
    /// Its kind (`refund`).
    pub kind: String,
    /// The date it counts from.
    #[schema(value_type = String, format = Date)]
    pub posted_on: NaiveDate,
    /// Its lines, summing to zero.
    pub lines: Vec<JournalLineOut>,
}

/// A refund recorded.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Refund {
    /// The refund's id.
    pub id: String,
    /// The payor.
    pub payor_id: String,
    /// The period of the return whose overpayment is refunded.
    pub period: String,
    /// That return's id.
    pub return_id: String,
    /// The local date paid out.
    #[schema(value_type = String, format = Date)]
    pub refunded_on: NaiveDate,
    /// The credit refunded.
    pub amount: Money,
    /// `check`, `ach`, `card` or `cash`.
    pub method: PaymentMethod,
    /// The check number or transaction id.
    pub reference: String,
    /// The clerk-treasurer's finding (intentional, careless or neglectful overpayment).
    pub overpayment_intentional_or_careless: bool,
    /// The return was `incomplete` when refunded.
    pub return_incomplete: bool,
    /// The refund interest, with its explanation and citation.
    pub interest: RefundInterest,
    /// Paid out: the refund plus its interest.
    pub paid_out: Money,
    /// The credit still held for the payor.
    pub credit_left: Money,
    /// The ledger journal the refund posted.
    pub journal: JournalOut,
}

impl From<RecordedRefund> for Refund {
    fn from(r: RecordedRefund) -> Self {
        let j = &r.posting.journal;
        Refund {
            journal: JournalOut {
                id: r.journal_id,
                kind: j.kind().as_str().to_owned(),
                posted_on: j.posted_on(),
                lines: j
                    .lines()
                    .iter()
                    .map(|l| JournalLineOut {
                        account: l.account.to_string(),
                        amount: Money::from_cents(l.amount_cents),
                    })
                    .collect(),
            },
            id: r.row.id,
            payor_id: r.row.payor_id,
            period: r.row.period,
            return_id: r.row.return_id,
            refunded_on: r.row.refunded_on,
            amount: Money::from_cents(r.row.amount_cents),
            method: method_of(&r.row.method),
            reference: r.row.reference,
            overpayment_intentional_or_careless: r.row.overpayment_intentional_or_careless,
            return_incomplete: r.row.return_incomplete,
            interest: RefundInterest {
                amount: r.posting.interest.amount,
                explanation: r.posting.interest.explanation,
                citation: r.posting.interest.citation.into(),
            },
            paid_out: r.posting.paid_out,
            credit_left: r.credit_left,
        }
    }
}

/// A refund on the statement of account.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AccountRefund {
    /// The refund's id.
    pub id: String,
    /// The local date paid out.
    #[schema(value_type = String, format = Date)]
    pub refunded_on: NaiveDate,
    /// The period of the return whose overpayment it refunded.
    pub period: String,
    /// The credit refunded.
    pub amount: Money,
    /// The refund interest paid with it.
    pub interest: Money,
    /// `check`, `ach`, `card` or `cash`.
    pub method: PaymentMethod,
    /// The check number or transaction id.
    pub reference: String,
}

impl From<&RefundRow> for AccountRefund {
    fn from(r: &RefundRow) -> Self {
        AccountRefund {
            id: r.id.clone(),
            refunded_on: r.refunded_on,
            period: r.period.clone(),
            amount: Money::from_cents(r.amount_cents),
            interest: Money::from_cents(r.interest_cents),
            method: method_of(&r.method),
            reference: r.reference.clone(),
        }
    }
}

/// Refund a payor's credit, with Montello's refund interest.
///
/// Clerk-treasurer or staff only, a person; related roles get 403, anyone else 404. The
/// refund takes at most the credit held (overpayments, and tax overpaid before an
/// amendment lowered it). `period` names the return whose overpayment is refunded:
/// Montello pays 1 % a month from that return's due date to the first of the month after
/// the refund, none where the clerk finds the overpayment intentional, careless or
/// neglectful or the return is `incomplete`; Hayward pays none. One ledger journal (the
/// payor's credit and the municipality's refund interest expense debited, cash credited).
/// `Location` is the payor's statement of account. Written to the access log (`refund`,
/// `create`).
#[utoipa::path(
    operation_id = "record_refund",
    tag = "payments",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, crate::api::idempotency::KeyHeader),
    request_body = RefundRequest,
    responses(
        (status = 201, description = "Refunded; the body shows the interest and the journal", body = Refund,
            headers(("Location" = String, description = "Path of the payor's statement of account"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`refunded_on` after today, `amount` not more than 0.00 or more than the credit held (`exceeds_credit`), `reference` blank or too long, `period` not a period or with no return of the payor (`no_return`); or the `Idempotency-Key` was used for another request", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/refunds")]
pub async fn record(
    path: web::Path<(String, String)>,
    creating: Creating<RefundRequest>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id) = path.into_inner();
    creating
        .run(
            allowed_to(Action::RecordPayments),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let recorded = refunds::record(
                    conn,
                    &ctx,
                    &payor_id,
                    NewRefund {
                        refunded_on: body.refunded_on,
                        amount: body.amount,
                        method: body.method,
                        reference: body.reference,
                        overpayment_intentional_or_careless: body
                            .overpayment_intentional_or_careless,
                        period: body.period,
                    },
                    today,
                )?;
                Reply::created(account_location(&slug, &payor_id), &Refund::from(recorded))
            },
        )
        .await
}

//! Security deposits (Montello room tax, security ¶):
//! `POST .../payors/{payor}/security-deposits` (require),
//! `GET .../payors/{payor}/security-deposits` (list),
//! `GET .../security-deposits/{deposit}` (one),
//! `POST .../security-deposits/{deposit}/receipts` (money received),
//! `POST .../security-deposits/{deposit}/application-notices` (the written
//! notice; the 10 days start at its date),
//! `POST .../security-deposits/{deposit}/applications` (applied to unpaid
//! tax) and `POST .../security-deposits/{deposit}/return`.
//!
//! Contract: thin handlers over `usecases::ledger::security` (one use-case
//! call in the request's unit of work). Writes: the clerk-treasurer or staff,
//! a person (related roles 403, anyone else 404), `Idempotency-Key` honoured.
//! Reads: also the payor's own operator; each read in the access log.

mod types;

pub use types::*;

use actix_web::{HttpResponse, get, post, web};
use chrono::NaiveDate;
use serde::Serialize;

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        idempotency::{Creating, Reply, allowed_to},
    },
    app::AppState,
    db::DbConn,
    error::{ApiError, Problem},
    tenancy::{Action, MunicipalityContext},
    usecases::ledger::security::{self, Deposit, NewReceipt},
};

fn location(slug: &str, payor_id: &str, deposit_id: &str) -> String {
    format!("/v1/municipalities/{slug}/payors/{payor_id}/security-deposits/{deposit_id}")
}

/// A payor's and a deposit's ids, as the path gives them.
type DepositIds<'a> = (&'a str, &'a str);

/// One write on a deposit (receive, notify, apply, return): the clerk-treasurer's or
/// staff's (`Action::EnforceCollection`), `Idempotency-Key` honoured, the body parsed once
/// authorised; `work` (given the unit's connection and context, the payor's and the
/// deposit's ids, the body and today) is answered 201 at the deposit's path.
async fn on_deposit<B, T, W>(
    path: web::Path<(String, String, String)>,
    creating: Creating<B>,
    work: W,
) -> Result<HttpResponse, ApiError>
where
    B: Serialize + Send + 'static,
    T: Serialize,
    W: FnOnce(
            &mut DbConn,
            &MunicipalityContext,
            DepositIds<'_>,
            B,
            NaiveDate,
        ) -> Result<T, ApiError>
        + Send
        + 'static,
{
    let (slug, payor_id, deposit_id) = path.into_inner();
    creating
        .run(
            allowed_to(Action::EnforceCollection),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let answer = work(
                    conn,
                    &ctx,
                    (payor_id.as_str(), deposit_id.as_str()),
                    body,
                    today,
                )?;
                Reply::created(location(&slug, &payor_id, &deposit_id), &answer)
            },
        )
        .await
}

/// What a receipt, a notice or a return posted, with the deposit as it now stands.
fn posting(d: Deposit, journal_id: Option<String>, notice_id: Option<String>) -> SecurityPosting {
    SecurityPosting {
        deposit: d.into(),
        journal_id,
        notice_id,
    }
}

/// `{municipality}/payors/{payor}/security-deposits/{deposit}`.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct DepositPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Payor id (UUID).
    payor: String,
    /// Security deposit id (UUID).
    deposit: String,
}

/// Require a security deposit of a payor (Montello: at most $5,000, no interest).
///
/// Clerk-treasurer or staff only, a person; related roles get 403, anyone else 404. The
/// policy in force today judges the amount: above the maximum is 422
/// `security_above_maximum`; a municipality whose ordinance has no security provision
/// (Hayward) is 422 `security_not_provided`. Issues a `security_required` notice in the
/// same transaction. Written to the access log (`security_deposit`, `create`).
#[utoipa::path(
    operation_id = "require_security_deposit",
    tag = "security",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, crate::api::idempotency::KeyHeader),
    request_body = SecurityRequirementRequest,
    responses(
        (status = 201, description = "Required; the notice is issued", body = SecurityDeposit,
            headers(("Location" = String, description = "Path of the deposit"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`amount` not more than 0.00, above the maximum, or no security provision (`security_not_provided`); `reason` blank or too long", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/security-deposits")]
pub async fn require(
    path: web::Path<(String, String)>,
    creating: Creating<SecurityRequirementRequest>,
) -> Result<HttpResponse, ApiError> {
    let (slug, payor_id) = path.into_inner();
    creating
        .run(
            allowed_to(Action::EnforceCollection),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let d = security::require(conn, &ctx, &payor_id, body.amount, &body.reason, today)?;
                Reply::created(
                    location(&slug, &payor_id, &d.row.id),
                    &SecurityDeposit::from(d),
                )
            },
        )
        .await
}

/// A payor's security deposits.
///
/// Whoever may see the payor's account: the clerk-treasurer, staff, or the payor's own
/// operator; anyone else gets 404. Written to the access log (`security_deposit`, the
/// payor's id).
#[utoipa::path(
    operation_id = "list_security_deposits",
    tag = "security",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath),
    responses(
        (status = 200, description = "The payor's deposits, oldest first", body = SecurityDepositList)
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/security-deposits")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<web::Json<SecurityDepositList>, ApiError> {
    let (_, payor_id) = path.into_inner();
    let items = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            security::list(conn, &ctx, &payor_id)
        })
        .await?;
    Ok(web::Json(SecurityDepositList {
        items: items.into_iter().map(SecurityDeposit::from).collect(),
    }))
}

/// One security deposit, with what happened to it.
///
/// Whoever may see the payor's account: the clerk-treasurer, staff, or the payor's own
/// operator; anyone else gets 404. Written to the access log (`security_deposit`, the
/// deposit's id).
#[utoipa::path(
    operation_id = "get_security_deposit",
    tag = "security",
    security(("bearer" = [])),
    params(DepositPath),
    responses(
        (status = 200, description = "The deposit", body = SecurityDeposit)
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/security-deposits/{deposit}")]
pub async fn show(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
) -> Result<web::Json<SecurityDeposit>, ApiError> {
    let (_, payor_id, deposit_id) = path.into_inner();
    let d = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            security::show(conn, &ctx, &payor_id, &deposit_id)
        })
        .await?;
    Ok(web::Json(d.into()))
}

/// Record money received for a security deposit.
///
/// Clerk-treasurer or staff only, a person. Posts a `security_received` journal: cash debited, the
/// payor's `security_deposit` account (the municipality's liability) credited. With
/// earlier receipts at most the amount required (422 `above_required`). Written to the
/// access log (`security_deposit`, `receive`).
#[utoipa::path(
    operation_id = "receive_security_deposit",
    tag = "security",
    security(("bearer" = [])),
    params(DepositPath, crate::api::idempotency::KeyHeader),
    request_body = SecurityReceiptRequest,
    responses(
        (status = 201, description = "Received", body = SecurityPosting,
            headers(("Location" = String, description = "Path of the deposit"))),
        (status = 400, description = "Malformed JSON, an unknown field or a field of the wrong type; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "A request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`received_on` after today or before the requirement, `amount` not positive or above what is still required, `reference` blank or too long, the deposit returned", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/security-deposits/{deposit}/receipts")]
pub async fn receive(
    path: web::Path<(String, String, String)>,
    creating: Creating<SecurityReceiptRequest>,
) -> Result<HttpResponse, ApiError> {
    on_deposit(path, creating, |conn, ctx, ids, body, today| {
        let receipt = NewReceipt {
            received_on: body.received_on,
            amount: body.amount,
            method: body.method,
            reference: body.reference,
        };
        let (d, journal_id) = security::receive(conn, ctx, ids.0, ids.1, receipt, today)?;
        Ok(posting(d, Some(journal_id), None))
    })
    .await
}

/// Give the written notice that the deposit will be applied to unpaid tax.
///
/// Clerk-treasurer or staff only. Issues a `security_application` notice dated today,
/// naming the unpaid tax; the deposit may be applied from 10 days after it (Montello
/// room tax, security ¶: "upon 10 days' notice"). Refused 409 when the deposit holds
/// nothing (`nothing_held`) or the payor owes no unpaid tax (`not_delinquent`). Written
/// to the access log (`security_deposit`, `notify`).
#[utoipa::path(
    operation_id = "notify_security_application",
    tag = "security",
    security(("bearer" = [])),
    params(DepositPath, crate::api::idempotency::KeyHeader),
    request_body = SecurityNoticeRequest,
    responses(
        (status = 201, description = "Notice issued", body = SecurityPosting,
            headers(("Location" = String, description = "Path of the deposit"))),
        (status = 400, description = "Malformed JSON or an unknown field; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Nothing held, or no unpaid tax; or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json")
    )
)]
#[post(
    "/v1/municipalities/{municipality}/payors/{payor}/security-deposits/{deposit}/application-notices"
)]
pub async fn notify(
    path: web::Path<(String, String, String)>,
    creating: Creating<SecurityNoticeRequest>,
) -> Result<HttpResponse, ApiError> {
    on_deposit(path, creating, |conn, ctx, ids, _, today| {
        let (d, notice_id) = security::notify_application(conn, ctx, ids.0, ids.1, today)?;
        Ok(posting(d, None, Some(notice_id)))
    })
    .await
}

/// Apply the deposit to the payor's unpaid tax (only after notice and 10 days).
///
/// Clerk-treasurer or staff only. Refused 422 (`applied_on`) without a notice of
/// application (`no_application_notice`) or before notice + 10 days
/// (`before_notice_period`, naming the first allowed date and the paragraph). Applies the
/// money held to unpaid tax only, oldest period first; interest on the tax it settles is
/// posted and stays owed, as is Montello's forfeiture when the tax is settled more than
/// 30 days late. Posts a `security_applied` journal. 409 `nothing_to_apply` when no tax
/// is unpaid. Written to the access log (`security_deposit`, `apply`).
#[utoipa::path(
    operation_id = "apply_security_deposit",
    tag = "security",
    security(("bearer" = [])),
    params(DepositPath, crate::api::idempotency::KeyHeader),
    request_body = SecurityApplicationRequest,
    responses(
        (status = 201, description = "Applied", body = SecurityApplied,
            headers(("Location" = String, description = "Path of the deposit"))),
        (status = 400, description = "Malformed JSON or an unknown field; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Nothing held, no unpaid tax, or the deposit returned; or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`applied_on` in the future, before notice was given, before notice + 10 days, or before the payor's latest payment", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/security-deposits/{deposit}/applications")]
pub async fn apply(
    path: web::Path<(String, String, String)>,
    creating: Creating<SecurityApplicationRequest>,
) -> Result<HttpResponse, ApiError> {
    on_deposit(path, creating, |conn, ctx, ids, body, today| {
        let a = security::apply(conn, ctx, ids.0, ids.1, body.applied_on, today)?;
        Ok(SecurityApplied::from(a))
    })
    .await
}

/// Return the deposit to a payor that has closed with nothing owed.
///
/// Clerk-treasurer or staff only. Refused 409 `payor_not_closed` unless the payor's
/// closing date (or every establishment's) has come, and 409 `amount_owed` while it owes
/// anything as of today, interest accrued included (the detail names each period). Posts
/// a `security_returned` journal for what is held (cash credited). Written to the access
/// log (`security_deposit`, `return`).
#[utoipa::path(
    operation_id = "return_security_deposit",
    tag = "security",
    security(("bearer" = [])),
    params(DepositPath, crate::api::idempotency::KeyHeader),
    request_body = SecurityReturnRequest,
    responses(
        (status = 201, description = "Returned", body = SecurityPosting,
            headers(("Location" = String, description = "Path of the deposit"))),
        (status = 400, description = "Malformed JSON or an unknown field; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The payor has not closed, owes something, or the deposit was already returned; or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/security-deposits/{deposit}/return")]
pub async fn give_back(
    path: web::Path<(String, String, String)>,
    creating: Creating<SecurityReturnRequest>,
) -> Result<HttpResponse, ApiError> {
    on_deposit(path, creating, |conn, ctx, ids, _, today| {
        let (d, journal_id) = security::return_deposit(conn, ctx, ids.0, ids.1, today)?;
        Ok(posting(
            d,
            (!journal_id.is_empty()).then_some(journal_id),
            None,
        ))
    })
    .await
}

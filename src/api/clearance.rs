//! The sale of a business:
//! `POST .../payors/{payor}/clearance-certificates` (Montello: the clerk's
//! receipt that the tax is paid, or certificate that none is due),
//! `GET /v1/clearance-certificates/{code}` (public verification) and
//! `GET .../payors/{payor}/successor-liability?transfer_on=` (Hayward: the
//! four preceding quarters a successor is liable for).
//!
//! Contract: thin handlers over `usecases::clearance`. The public
//! verification needs no sign-in and answers exactly three fields (validity,
//! the payor's public name, the date); any code it does not know is 404 with
//! the same body whatever the reason, so nothing about other certificates or
//! payors can be learnt from it. There is no rate limit on public reads in
//! this service (none of the other public endpoints has one); the code's 128
//! random bits make guessing hopeless regardless.

use actix_web::{HttpResponse, get, post, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiQuery,
        idempotency::{Creating, Reply, allowed_to},
    },
    app::AppState,
    domain::{Money, Period},
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::clearance::{self, IssuedCertificate, SuccessorLiability},
};

/// A clearance certificate asked for.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClearanceRequest {
    /// The date of the sale of the business, if known (printed on the certificate).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<String>, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub sale_on: Option<NaiveDate>,
}

/// What the certificate is.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ClearanceKind {
    /// A receipt that the tax imposed on the payor has been paid.
    TaxPaidReceipt,
    /// A certificate that no amount is due (no tax was ever charged).
    NothingDue,
}

/// A clearance certificate as issued (the verification code is shown here and on the notice only).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ClearanceCertificate {
    /// Its id.
    pub id: String,
    /// The payor.
    pub payor_id: String,
    /// What it certifies.
    pub kind: ClearanceKind,
    /// The verification code (26 characters, base32); anyone may check it at `verify_path`.
    pub verification_code: String,
    /// Where anyone checks it (no sign-in).
    pub verify_path: String,
    /// The payor's public (trade) name, as the verification shows it.
    pub public_name: String,
    /// The local date it was issued.
    #[schema(value_type = String, format = Date)]
    pub issued_on: NaiveDate,
    /// The `clearance_certificate` notice (the document).
    pub notice_id: String,
    /// The buyer's duty to withhold the price until this certificate is produced, in the ordinance's words.
    pub withholding_duty: String,
    /// The paragraph it rests on.
    pub citation: String,
}

impl From<IssuedCertificate> for ClearanceCertificate {
    fn from(c: IssuedCertificate) -> Self {
        ClearanceCertificate {
            verify_path: format!("/v1/clearance-certificates/{}", c.code),
            id: c.row.id,
            payor_id: c.row.payor_id,
            kind: if c.row.kind == "nothing_due" {
                ClearanceKind::NothingDue
            } else {
                ClearanceKind::TaxPaidReceipt
            },
            verification_code: c.code,
            public_name: c.row.public_name,
            issued_on: c.row.issued_on,
            notice_id: c.row.notice_id,
            withholding_duty: c.withholding_duty,
            citation: c.citation,
        }
    }
}

/// What anyone holding the code may learn: only these three fields.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClearanceVerification {
    /// Always true: an unknown code is 404.
    pub valid: bool,
    /// The business's public (trade) name.
    pub public_name: String,
    /// The local date the certificate was issued.
    #[schema(value_type = String, format = Date)]
    pub issued_on: NaiveDate,
}

/// Issue a clearance certificate for a payor selling its business (Montello).
///
/// Clerk-treasurer or staff only, a person; related roles get 403, anyone else 404.
/// Refused 409 `amount_owed` while the payor owes anything as of today (interest accrued
/// included; the detail names each period and amount), and 422 `clearance_not_provided`
/// where the ordinance has no clearance certificate (Hayward). Otherwise a receipt that
/// the tax is paid (or a certificate that none is due) with a verification code, and the
/// buyer's duty to withhold explained; stored as a `clearance_certificate` notice. Written
/// to the access log (`clearance_certificate`, `create`).
#[utoipa::path(
    operation_id = "issue_clearance_certificate",
    tag = "security",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, crate::api::idempotency::KeyHeader),
    request_body = ClearanceRequest,
    responses(
        (status = 201, description = "Issued", body = ClearanceCertificate,
            headers(("Location" = String, description = "The public verification path"))),
        (status = 400, description = "Malformed JSON or an unknown field; or a malformed `Idempotency-Key`", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Something is owed (`amount_owed`), or a return past its filing due date is not on file (`returns_missing`); or a request with this `Idempotency-Key` is still being processed", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No clearance provision (`clearance_not_provided`), or no public name on record (`no_public_name`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/clearance-certificates")]
pub async fn issue(
    path: web::Path<(String, String)>,
    creating: Creating<ClearanceRequest>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id) = path.into_inner();
    creating
        .run(
            allowed_to(Action::EnforceCollection),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let c = clearance::issue(conn, &ctx, &payor_id, body.sale_on, today)?;
                let body = ClearanceCertificate::from(c);
                Reply::created(body.verify_path.clone(), &body)
            },
        )
        .await
}

/// Verify a clearance certificate by its code (public).
///
/// Public: no sign-in. Answers only the certificate's validity, the business's public name and
/// the date it was issued; an unknown code is 404. Case, spaces and dashes in the code
/// are ignored.
#[utoipa::path(
    operation_id = "verify_clearance_certificate",
    tag = "security",
    params(("code" = String, Path, description = "The verification code printed on the certificate")),
    responses(
        (status = 200, description = "A valid certificate", body = ClearanceVerification),
        (status = 404, description = "No certificate has this code", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/clearance-certificates/{code}")]
pub async fn verify(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<web::Json<ClearanceVerification>, ApiError> {
    let code = path.into_inner();
    let found = state
        .db
        .read(move |conn| clearance::verify(conn, &code))
        .await?
        .ok_or(ApiError::NotFound("clearance certificate"))?;
    Ok(web::Json(ClearanceVerification {
        valid: true,
        public_name: found.public_name,
        issued_on: found.issued_on,
    }))
}

/// The transfer date.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TransferParams {
    /// The date the business passes to the successor (ISO 8601), not after today.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[param(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub transfer_on: NaiveDate,
}

/// One of the quarters preceding the transfer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct InheritedQuarterBody {
    /// The calendar quarter.
    #[schema(value_type = String)]
    pub period: Period,
    /// Whether the payor owed a return for it (the quarter shares a day with its registration).
    pub return_required: bool,
    /// Whether a return is on file for it.
    pub return_filed: bool,
    /// Whether the successor is liable for it (no return filed, or tax not paid).
    pub successor_liable: bool,
    /// Charges posted less payments, as of the transfer date.
    pub posted_balance: Money,
    /// Interest accrued to the transfer date on the unpaid tax (computed, not posted).
    pub interest_accrued: Money,
    /// Owed as of the transfer date (posted balance plus interest accrued). A quarter with no return filed owes tax not yet known: file or estimate it.
    pub owed: Money,
}

/// What a successor taking over the payor's business is liable for (Hayward).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SuccessorLiabilityBody {
    /// The transfer date.
    #[schema(value_type = String, format = Date)]
    pub transfer_on: NaiveDate,
    /// The preceding calendar quarters, oldest first.
    pub quarters: Vec<InheritedQuarterBody>,
    /// Owed over the quarters the successor is liable for.
    pub total_owed: Money,
    /// The paragraph it rests on.
    pub citation: String,
    /// Whether anything was posted to the successor's account (never: see the description).
    pub posted_to_successor: bool,
}

impl From<SuccessorLiability> for SuccessorLiabilityBody {
    fn from(s: SuccessorLiability) -> Self {
        let quarters: Vec<InheritedQuarterBody> = s
            .quarters
            .into_iter()
            .map(|q| {
                let liable = q.liable();
                let (posted, accrued) = q.owed.as_ref().map_or((Money::ZERO, Money::ZERO), |o| {
                    (o.posted, o.interest_accrued)
                });
                InheritedQuarterBody {
                    period: q.period,
                    return_required: q.return_required,
                    return_filed: q.return_filed,
                    successor_liable: liable,
                    posted_balance: posted,
                    interest_accrued: accrued,
                    owed: posted + accrued,
                }
            })
            .collect();
        SuccessorLiabilityBody {
            transfer_on: s.transfer_on,
            total_owed: quarters
                .iter()
                .filter(|q| q.successor_liable)
                .map(|q| q.owed)
                .sum(),
            quarters,
            citation: s.citation,
            posted_to_successor: false,
        }
    }
}

/// What a successor to the payor's business is liable for (Hayward: the four preceding quarters not filed or not paid).
///
/// Clerk-treasurer or staff only; anyone else 404 (related roles 403). The calendar
/// quarters before the one containing `transfer_on` (Hayward room tax: four), each with
/// whether its return is on file and what is owed on it as of the transfer date, interest
/// accrued included; those not filed or not paid are the successor's liability. Nothing
/// is posted: the debt stays on the predecessor's account (posting it again to the
/// successor would count the same tax twice); the clerk may collect it from either.
/// Montello (clearance certificate instead) is 422 `successor_liability_not_provided`.
/// Written to the access log (`payor_account`).
#[utoipa::path(
    operation_id = "get_successor_liability",
    tag = "security",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, TransferParams),
    responses(
        (status = 200, description = "The quarters and what is owed", body = SuccessorLiabilityBody),
        (status = 422, description = "`transfer_on` missing or after today; or no successor-liability provision", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/successor-liability")]
pub async fn successor_liability(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    params: Result<ApiQuery<TransferParams>, ApiError>,
) -> Result<web::Json<SuccessorLiabilityBody>, ApiError> {
    let (_, payor_id) = path.into_inner();
    let today = state.clock.today();
    let liability = here
        .read_for(
            &state,
            Action::EnforceCollection,
            move |MunicipalUnit { conn, ctx, .. }| {
                let transfer_on = params?.0.transfer_on;
                clearance::successor_liability(conn, &ctx, &payor_id, transfer_on, today)
            },
        )
        .await?;
    Ok(web::Json(liability.into()))
}

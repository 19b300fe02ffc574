//! `POST /v1/municipalities/{municipality}/payors/{payor}/transfers` (the
//! payor's establishments pass to another payor: the sale of the business)
//! and `GET` of the same path (the transfers the payor sold or bought in).
//!
//! Contract: thin handlers over `usecases::transfers`: authorise (clerk or
//! staff, `Action::EnforceCollection`: related roles 403, anyone else 404),
//! parse the body, call one use case, shape the answer. The answer of a
//! transfer carries the successor's position by the ordinance: Hayward's
//! preceding quarters not filed or not paid with what is owed
//! (`successor_liability`), or Montello's clearance certificate and, without
//! one, the buyer's duty to withhold (`clearance`).

use actix_web::{HttpResponse, get, post, web};
use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        clearance::SuccessorLiabilityBody,
        idempotency::{Creating, Reply, allowed_to},
    },
    app::AppState,
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::transfers::{self, NewTransfer, RecordedTransfer, Succession, Transfer},
};

/// A transfer of the payor's establishments to another payor.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = BusinessTransferRequest)]
pub struct TransferRequest {
    /// The buyer: the id of another payor of this municipality.
    pub to_payor: String,
    /// The seller's establishments that pass (ids); left out: every one open on `transfer_on`.
    #[serde(default)]
    pub establishments: Option<Vec<String>>,
    /// The date the business passes (ISO 8601), not after today nor before the establishments opened.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub transfer_on: NaiveDate,
}

/// One establishment a transfer moved.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TransferredEstablishment {
    /// The seller's registry row, closed on the transfer date (kept as history).
    pub seller_establishment_id: String,
    /// The buyer's registry row, opened on the transfer date.
    pub buyer_establishment_id: String,
    /// The establishment's name.
    pub name: String,
}

/// A transfer as recorded.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TransferBody {
    /// Its id.
    pub id: String,
    /// The seller.
    pub seller_payor_id: String,
    /// The buyer.
    pub buyer_payor_id: String,
    /// The date the business passed.
    #[schema(value_type = String, format = Date)]
    pub transfer_on: NaiveDate,
    /// Who recorded it.
    pub recorded_by: String,
    /// When it was recorded (UTC).
    #[schema(value_type = String, format = DateTime)]
    pub created_at: NaiveDateTime,
    /// The establishments it moved.
    pub establishments: Vec<TransferredEstablishment>,
}

impl From<Transfer> for TransferBody {
    fn from(t: Transfer) -> Self {
        TransferBody {
            id: t.row.id,
            seller_payor_id: t.row.seller_payor_id,
            buyer_payor_id: t.row.buyer_payor_id,
            transfer_on: t.row.transfer_on,
            recorded_by: t.row.recorded_by,
            created_at: t.row.created_at,
            establishments: t
                .moved
                .into_iter()
                .map(|(m, name)| TransferredEstablishment {
                    seller_establishment_id: m.seller_establishment_id,
                    buyer_establishment_id: m.buyer_establishment_id,
                    name,
                })
                .collect(),
        }
    }
}

/// Montello: the seller's clearance certificate, or the buyer's duty to withhold.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ClearanceStatusBody {
    /// Whether a clearance certificate was issued for the seller.
    pub certificate_issued: bool,
    /// The latest certificate's id, if one was issued.
    pub certificate_id: Option<String>,
    /// The date it was issued.
    #[schema(value_type = Option<String>, format = Date)]
    pub issued_on: Option<NaiveDate>,
    /// Whether the buyer must withhold enough of the purchase price to cover the seller's tax (no certificate issued).
    pub buyer_must_withhold: bool,
    /// The buyer's duty to withhold, in the ordinance's words.
    pub withholding_duty: String,
    /// The paragraph it rests on.
    pub citation: String,
}

/// A transfer recorded, with what the buyer answers for.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RecordedTransferBody {
    /// The transfer.
    #[serde(flatten)]
    pub transfer: TransferBody,
    /// The ordinance's sale provision: `successor_liability` (Hayward) or `clearance_certificate` (Montello).
    pub sale_provision: String,
    /// Hayward: the preceding quarters not filed or not paid, with what is owed as of the transfer date.
    pub successor_liability: Option<SuccessorLiabilityBody>,
    /// Montello: the clearance certificate, or the buyer's duty to withhold.
    pub clearance: Option<ClearanceStatusBody>,
}

impl From<RecordedTransfer> for RecordedTransferBody {
    fn from(r: RecordedTransfer) -> Self {
        let transfer = TransferBody::from(r.transfer);
        match r.succession {
            Succession::SuccessorLiable(s) => RecordedTransferBody {
                transfer,
                sale_provision: "successor_liability".into(),
                successor_liability: Some(s.into()),
                clearance: None,
            },
            Succession::ClearanceCertificate(c) => RecordedTransferBody {
                transfer,
                sale_provision: "clearance_certificate".into(),
                successor_liability: None,
                clearance: Some(ClearanceStatusBody {
                    certificate_issued: c.certificate.is_some(),
                    certificate_id: c.certificate.as_ref().map(|x| x.id.clone()),
                    issued_on: c.certificate.as_ref().map(|x| x.issued_on),
                    buyer_must_withhold: c.certificate.is_none(),
                    withholding_duty: c.withholding_duty,
                    citation: c.citation,
                }),
            },
        }
    }
}

/// The transfers a payor sold or bought in.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TransferList {
    /// Oldest first.
    pub items: Vec<TransferBody>,
}

/// Transfer the payor's establishments to another payor (the sale of the business).
///
/// Clerk-treasurer or staff only, a person; related roles (an operator of the seller or the
/// buyer) get 403, anyone else 404. In one transaction each establishment is closed at the
/// seller on `transfer_on` (its row stays as history) and opened at the buyer from that date
/// (a new row, same name, address, kind and units); the transfer is recorded. Nothing is
/// posted to the ledger. The answer shows what the buyer answers for: Hayward (Hayward room
/// tax, liability ¶) the four preceding quarters not filed or not paid with what is owed;
/// Montello (Montello room tax, sale of business ¶) whether a clearance certificate was
/// issued for the seller, and if not the buyer's duty to withhold. Written to the access log
/// (`payor_transfer`, `create`; each establishment `close` / `create`; the seller's account read).
#[utoipa::path(
    operation_id = "transfer_establishments",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath, crate::api::idempotency::KeyHeader),
    request_body = TransferRequest,
    responses(
        (status = 201, description = "Transferred", body = RecordedTransferBody,
            headers(("Location" = String, description = "The buyer's payor"))),
        (status = 400, description = "Malformed JSON or an unknown field", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such seller or buyer", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "An establishment is not open at the seller on `transfer_on` (`not_open_at_seller`), or the buyer is closed (`buyer_closed`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks its rule: `transfer_on` after today or before an establishment opened, `to_payor` the seller, an establishment not the seller's or named twice", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/transfers")]
pub async fn record(
    path: web::Path<(String, String)>,
    creating: Creating<TransferRequest>,
) -> Result<HttpResponse, ApiError> {
    let (municipality, payor_id) = path.into_inner();
    creating
        .run(
            allowed_to(Action::EnforceCollection),
            move |MunicipalUnit { conn, ctx, .. }, body, today| {
                let new = NewTransfer {
                    to_payor: body.to_payor,
                    establishments: body.establishments,
                    transfer_on: body.transfer_on,
                };
                let recorded = transfers::record(conn, &ctx, &payor_id, new, today)?;
                let body = RecordedTransferBody::from(recorded);
                Reply::created(
                    format!(
                        "/v1/municipalities/{municipality}/payors/{}",
                        body.transfer.buyer_payor_id
                    ),
                    &body,
                )
            },
        )
        .await
}

/// The transfers in which the payor sold or bought establishments.
///
/// Clerk-treasurer or staff only; related roles 403, anyone else 404; unknown payor 404.
#[utoipa::path(
    operation_id = "list_transfers",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::PayorPath),
    responses(
        (status = 200, description = "The transfers, oldest first", body = TransferList),
        (status = 404, description = "No such payor", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/transfers")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<web::Json<TransferList>, ApiError> {
    let (_, payor_id) = path.into_inner();
    let items = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            transfers::list(conn, &ctx, &payor_id)
        })
        .await?;
    Ok(web::Json(TransferList {
        items: items.into_iter().map(TransferBody::from).collect(),
    }))
}

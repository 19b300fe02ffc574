//! Response bodies of the payor registry, shaped from stored rows.
//!
//! Contract: every field is documented (utoipa turns the docs into the
//! spec); a stored value the domain vocabulary does not know is an internal
//! error, never shown. `status` is derived on the day of the response
//! (`domain::registry::RegistryStatus`: `open`, `closing`, `closed`).

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    db::models::{EstablishmentRow, PayorRow},
    domain::registry::{AnnualElection, Election, EstablishmentKind, RegistryStatus},
    error::ApiError,
    usecases::payors::PayorRecord,
};

/// A lodging place a payor runs (confidential).
#[derive(Debug, Serialize, ToSchema)]
pub struct Establishment {
    /// Establishment id (UUID).
    pub id: String,
    /// Id of the payor that runs it (UUID).
    pub payor_id: String,
    /// Name of the place.
    pub name: String,
    /// Street address of the place.
    pub address: String,
    /// Kind of place, from the ordinances' definition of hotel or motel.
    pub kind: EstablishmentKind,
    /// Rooms, or sites for a campground or RV park.
    pub units: i32,
    /// Date it opened, if known.
    pub opened_on: Option<NaiveDate>,
    /// Date it closes or closed, if recorded.
    pub closed_on: Option<NaiveDate>,
    /// `open` (no closing date), `closing` (a closing date still to come) or `closed`.
    pub status: RegistryStatus,
    /// Version of the establishment: send it as `If-Match: "<version>"` to change or close it.
    pub version: i64,
    /// When it was registered (UTC).
    pub created_at: DateTime<Utc>,
    /// When it last changed (UTC).
    pub updated_at: DateTime<Utc>,
}

/// A payor: the business that owes the tax (confidential).
#[derive(Debug, Serialize, ToSchema)]
pub struct Payor {
    /// Payor id (UUID).
    pub id: String,
    /// Legal name.
    pub legal_name: String,
    /// Trade name ("doing business as"), if any.
    pub dba: Option<String>,
    /// Contact person, if recorded.
    pub contact_name: Option<String>,
    /// Contact email, if recorded.
    pub contact_email: Option<String>,
    /// Contact telephone number, if recorded.
    pub contact_phone: Option<String>,
    /// Mailing address.
    pub mailing_address: String,
    /// Wisconsin seller's permit number, if recorded.
    pub seller_permit: Option<String>,
    /// Year the annual return covers.
    pub annual_election: AnnualElection,
    /// Month the fiscal year ends in (fiscal election only).
    pub fiscal_year_end_month: Option<i32>,
    /// Date the payor closes or closed, if recorded.
    pub closed_on: Option<NaiveDate>,
    /// `open` (no closing date), `closing` (a closing date still to come) or `closed`.
    pub status: RegistryStatus,
    /// Version of the payor with its establishments (any establishment write bumps it too); the `ETag` is `"<version>"`.
    pub version: i64,
    /// When it was registered (UTC).
    pub created_at: DateTime<Utc>,
    /// When it or one of its establishments last changed (UTC).
    pub updated_at: DateTime<Utc>,
    /// The places it runs, by name.
    pub establishments: Vec<Establishment>,
}

/// A payor as listed: names and status only.
#[derive(Debug, Serialize, ToSchema)]
pub struct PayorSummary {
    /// Payor id (UUID).
    pub id: String,
    /// Legal name.
    pub legal_name: String,
    /// Trade name, if any.
    pub dba: Option<String>,
    /// `open`, `closing` or `closed`.
    pub status: RegistryStatus,
    /// Date the payor closes or closed, if recorded.
    pub closed_on: Option<NaiveDate>,
}

/// A page of payors.
#[derive(Debug, Serialize, ToSchema)]
pub struct PayorList {
    /// The payors on this page, in id order.
    pub items: Vec<PayorSummary>,
    /// Pass as `cursor` to get the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

fn utc(at: NaiveDateTime) -> DateTime<Utc> {
    DateTime::from_naive_utc_and_offset(at, Utc)
}

impl Establishment {
    /// The establishment as shown on `today`.
    pub fn from_row(row: EstablishmentRow, today: NaiveDate) -> Result<Self, ApiError> {
        let kind = EstablishmentKind::parse("kind", &row.kind)
            .map_err(|_| ApiError::internal("stored establishment has an unknown kind"))?;
        Ok(Self {
            status: RegistryStatus::on(row.closed_on, today),
            id: row.id,
            payor_id: row.payor_id,
            name: row.name,
            address: row.address,
            kind,
            units: row.units,
            opened_on: row.opened_on,
            closed_on: row.closed_on,
            version: row.version,
            created_at: utc(row.created_at),
            updated_at: utc(row.updated_at),
        })
    }
}

impl Payor {
    /// The payor with its establishments as shown on `today`.
    pub fn from_record(record: PayorRecord, today: NaiveDate) -> Result<Self, ApiError> {
        let PayorRecord {
            payor: row,
            establishments,
        } = record;
        let election = Election::from_stored(&row.annual_election, row.fiscal_year_end_month)
            .ok_or_else(|| ApiError::internal("stored payor has an invalid annual election"))?;
        Ok(Self {
            status: RegistryStatus::on(row.closed_on, today),
            id: row.id,
            legal_name: row.legal_name,
            dba: row.dba,
            contact_name: row.contact_name,
            contact_email: row.contact_email,
            contact_phone: row.contact_phone,
            mailing_address: row.mailing_address,
            seller_permit: row.seller_permit,
            annual_election: election.kind(),
            fiscal_year_end_month: election.year_end().map(|m| m.month()),
            closed_on: row.closed_on,
            version: row.version,
            created_at: utc(row.created_at),
            updated_at: utc(row.updated_at),
            establishments: establishments
                .into_iter()
                .map(|e| Establishment::from_row(e, today))
                .collect::<Result<_, _>>()?,
        })
    }
}

impl PayorSummary {
    /// The payor as listed on `today`.
    pub fn from_row(row: PayorRow, today: NaiveDate) -> Self {
        Self {
            status: RegistryStatus::on(row.closed_on, today),
            id: row.id,
            legal_name: row.legal_name,
            dba: row.dba,
            closed_on: row.closed_on,
        }
    }
}

//! `/v1/municipalities/{municipality}/payors`: the payor registry, the first
//! confidential resource (payors and the establishments they run).
//!
//! Contract:
//! - **Who decides.** Only `tenancy::MunicipalityContext`: reads go through
//!   `payor_filter` (clerk-treasurer, municipal staff and an API client with
//!   `payors:read` or `payors:write` read every payor of the municipality; an
//!   operator only its own; a disclosure grantee only the payors its active
//!   grants cover, read-only; anybody else gets 404), writes through
//!   `require(Action::WritePayors)` (a caller related to the municipality in
//!   another role gets 403, an unrelated one 404). A payor the caller may not
//!   read answers 404 exactly like one that does not exist.
//! - **Order of answers.** 401 (no valid token), then 404/403 (authorisation),
//!   then the request's own faults (400, 415, 422 on the body or parameters,
//!   428 without `If-Match`), then what the stored record says (404, 412 stale
//!   version, 409 already closed). The body is parsed concurrently but judged
//!   only after authorisation, so a caller without access learns nothing from it.
//! - **One transaction per request**, through `Db::run_scoped` with the
//!   context's `db_scope()`: row-level security on PostgreSQL sees the tenant,
//!   and a logged read commits together with the read.
//! - **The access log.** Every payor a response shows is logged (record type
//!   `payor`, action `read`) with actor, basis (the role, `api_client`, or
//!   `disclosure:<grant id>`) and the request id: a single read, and also each
//!   payor of a list page, because a list shows legal names and those are
//!   confidential too. The establishments shown inside a payor read are part
//!   of that one entry. Writes are logged too (action `create`, `update`,
//!   `close`; record type `payor` or `establishment`), since their responses
//!   show the record and the clerk-treasurer should see who changed it.
//! - **ETags** are strong and quoted: `"<version>"`. A payor's ETag versions
//!   the payor's own fields; each establishment has its own version (shown in
//!   the payor read, and the ETag of establishment writes). `PATCH` and `close`
//!   require `If-Match` (428 without it; 412 when it names another version)
//!   and bump the version.
//! - **Nothing confidential is logged** through `tracing`: no names,
//!   addresses, contacts or permit numbers; ids only, and only in the access log.

mod access;
pub mod close;
pub mod create;
pub mod establishments;
mod fields;
pub mod list;
mod precondition;
pub mod show;
pub mod update;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use crate::{
    db::{
        self, DbConn,
        models::{EstablishmentRow, PayorRow},
    },
    error::ApiError,
};

// ---------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------

/// Which year the payor's annual return covers (Montello: elected with its first return).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnnualElection {
    /// The calendar year.
    Calendar,
    /// A fiscal year ending in `fiscal_year_end_month`.
    Fiscal,
}

impl AnnualElection {
    const ALL: [Self; 2] = [Self::Calendar, Self::Fiscal];

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Calendar => "calendar",
            Self::Fiscal => "fiscal",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == text)
    }
}

/// The kind of lodging place, from the ordinances' definition of "hotel or motel".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EstablishmentKind {
    /// Hotel.
    Hotel,
    /// Motel.
    Motel,
    /// Inn.
    Inn,
    /// Tourist home, tourist house or tourist court.
    TouristHome,
    /// Bed-and-breakfast establishment.
    BedAndBreakfast,
    /// Lodging house.
    LodgingHouse,
    /// Rooming house.
    RoomingHouse,
    /// Summer camp.
    SummerCamp,
    /// Apartment hotel.
    ApartmentHotel,
    /// Resort or resort lodge.
    Resort,
    /// Cabin or cabins.
    Cabin,
    /// Campground.
    Campground,
    /// Recreational vehicle park.
    RvPark,
    /// Short-term rental of a residence.
    ShortTermRental,
}

impl EstablishmentKind {
    /// Every kind.
    pub const ALL: [Self; 14] = [
        Self::Hotel,
        Self::Motel,
        Self::Inn,
        Self::TouristHome,
        Self::BedAndBreakfast,
        Self::LodgingHouse,
        Self::RoomingHouse,
        Self::SummerCamp,
        Self::ApartmentHotel,
        Self::Resort,
        Self::Cabin,
        Self::Campground,
        Self::RvPark,
        Self::ShortTermRental,
    ];

    /// The wire and database name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hotel => "hotel",
            Self::Motel => "motel",
            Self::Inn => "inn",
            Self::TouristHome => "tourist_home",
            Self::BedAndBreakfast => "bed_and_breakfast",
            Self::LodgingHouse => "lodging_house",
            Self::RoomingHouse => "rooming_house",
            Self::SummerCamp => "summer_camp",
            Self::ApartmentHotel => "apartment_hotel",
            Self::Resort => "resort",
            Self::Cabin => "cabin",
            Self::Campground => "campground",
            Self::RvPark => "rv_park",
            Self::ShortTermRental => "short_term_rental",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == text)
    }
}

/// Whether a closing date has been recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RegistryStatus {
    /// No closing date recorded.
    Open,
    /// A closing date is recorded (`closed_on`).
    Closed,
}

impl RegistryStatus {
    fn of(closed_on: Option<NaiveDate>) -> Self {
        if closed_on.is_some() {
            Self::Closed
        } else {
            Self::Open
        }
    }
}

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

/// Deserialize a present field (even `null`) as `Some(..)`, so that a PATCH can
/// tell "absent" (`None`) from "clear it" (`Some(None)`).
fn present<'de, D, T>(deserializer: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// A payor to register.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPayor {
    /// Legal name of the business that owes the tax, 1 to 200 characters.
    #[serde(default)]
    #[schema(required = true, value_type = String, max_length = 200, example = "Lakeside Motel LLC")]
    pub legal_name: Option<String>,
    /// Name the business trades under ("doing business as"), at most 200 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 200, example = "Lakeside Motel")]
    pub dba: Option<String>,
    /// Person to contact about the tax, at most 200 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub contact_name: Option<String>,
    /// Contact email address, at most 254 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 254, example = "owner@example.com")]
    pub contact_email: Option<String>,
    /// Contact telephone number: digits with optional `+`, spaces, `-`, `.`, parentheses and `x` (extension), 7 to 15 digits.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 40, example = "(608) 555-0142")]
    pub contact_phone: Option<String>,
    /// Mailing address for notices and forms, 1 to 500 characters (line breaks allowed).
    #[serde(default)]
    #[schema(required = true, value_type = String, max_length = 500, example = "12 Lake Street, Montello, WI 53949")]
    pub mailing_address: Option<String>,
    /// Wisconsin seller's permit number: digits and hyphens, at most 32 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>, max_length = 32, example = "456-1234567890-02")]
    pub seller_permit: Option<String>,
    /// Year the annual return covers: `calendar` or `fiscal`.
    #[serde(default)]
    #[schema(required = true, value_type = AnnualElection)]
    pub annual_election: Option<String>,
    /// Month (1 to 11) the fiscal year ends in; required when `annual_election` is `fiscal`, refused otherwise.
    #[serde(default)]
    #[schema(value_type = Option<i32>, minimum = 1, maximum = 11)]
    pub fiscal_year_end_month: Option<i64>,
}

/// Changes to a payor: any subset of the fields; `null` clears an optional field.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PayorPatch {
    /// New legal name, 1 to 200 characters (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, max_length = 200)]
    pub legal_name: Option<Option<String>>,
    /// New trade name, at most 200 characters; `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub dba: Option<Option<String>>,
    /// New contact person, at most 200 characters; `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub contact_name: Option<Option<String>>,
    /// New contact email, at most 254 characters; `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 254)]
    pub contact_email: Option<Option<String>>,
    /// New contact telephone number (as on create); `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 40)]
    pub contact_phone: Option<Option<String>>,
    /// New mailing address, 1 to 500 characters (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, max_length = 500)]
    pub mailing_address: Option<Option<String>>,
    /// New seller's permit number (digits and hyphens); `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 32)]
    pub seller_permit: Option<Option<String>>,
    /// New annual election (cannot be cleared). Switching to `calendar` clears a stored fiscal year end month.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = AnnualElection)]
    pub annual_election: Option<Option<String>>,
    /// New fiscal year end month, 1 to 11 (only with a `fiscal` election); `null` clears it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i32>, minimum = 1, maximum = 11)]
    pub fiscal_year_end_month: Option<Option<i64>>,
}

/// Record that a payor or establishment has closed.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CloseRequest {
    /// Date it closed (ISO 8601, e.g. `2026-10-31`); not before an establishment's `opened_on`.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(required = true, value_type = NaiveDate)]
    pub closed_on: Option<NaiveDate>,
}

/// An establishment (lodging place) to add to a payor.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewEstablishment {
    /// Name of the place, 1 to 200 characters.
    #[serde(default)]
    #[schema(required = true, value_type = String, max_length = 200, example = "Lakeside Motel")]
    pub name: Option<String>,
    /// Street address of the place, 1 to 500 characters (line breaks allowed).
    #[serde(default)]
    #[schema(required = true, value_type = String, max_length = 500)]
    pub address: Option<String>,
    /// Kind of place, from the ordinances' definition of hotel or motel.
    #[serde(default)]
    #[schema(required = true, value_type = EstablishmentKind)]
    pub kind: Option<String>,
    /// Rooms, or sites for a campground or RV park, 0 to 100000.
    #[serde(default)]
    #[schema(required = true, value_type = i32, minimum = 0, maximum = 100000)]
    pub units: Option<i64>,
    /// Date it opened, if known (ISO 8601).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<NaiveDate>)]
    pub opened_on: Option<NaiveDate>,
}

/// Changes to an establishment: any subset of the fields; `null` clears `opened_on`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EstablishmentPatch {
    /// New name, 1 to 200 characters (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, max_length = 200)]
    pub name: Option<Option<String>>,
    /// New street address, 1 to 500 characters (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = String, max_length = 500)]
    pub address: Option<Option<String>>,
    /// New kind (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = EstablishmentKind)]
    pub kind: Option<Option<String>>,
    /// New number of rooms or sites, 0 to 100000 (cannot be cleared).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = i32, minimum = 0, maximum = 100000)]
    pub units: Option<Option<i64>>,
    /// New opening date, not after a recorded `closed_on`; `null` clears it.
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_patch")]
    #[schema(value_type = Option<NaiveDate>)]
    pub opened_on: Option<Option<NaiveDate>>,
}

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

/// A lodging place a payor runs (confidential).
#[derive(Debug, Serialize, ToSchema)]
pub struct Establishment {
    /// Establishment id (UUID).
    pub id: String,
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
    /// Date it closed, if recorded.
    pub closed_on: Option<NaiveDate>,
    /// `open` or `closed` (a closing date is recorded).
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
    /// Date the payor closed, if recorded.
    pub closed_on: Option<NaiveDate>,
    /// `open` or `closed` (a closing date is recorded).
    pub status: RegistryStatus,
    /// Version of the payor's own fields; the `ETag` is `"<version>"`.
    pub version: i64,
    /// When it was registered (UTC).
    pub created_at: DateTime<Utc>,
    /// When its own fields last changed (UTC).
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
    /// `open` or `closed`.
    pub status: RegistryStatus,
    /// Date the payor closed, if recorded.
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
    fn from_row(row: EstablishmentRow) -> Result<Self, ApiError> {
        let kind = EstablishmentKind::parse(&row.kind)
            .ok_or_else(|| ApiError::internal("stored establishment has an unknown kind"))?;
        Ok(Self {
            status: RegistryStatus::of(row.closed_on),
            id: row.id,
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
    fn from_rows(row: PayorRow, establishments: Vec<EstablishmentRow>) -> Result<Self, ApiError> {
        let annual_election = AnnualElection::parse(&row.annual_election)
            .ok_or_else(|| ApiError::internal("stored payor has an unknown annual election"))?;
        Ok(Self {
            status: RegistryStatus::of(row.closed_on),
            id: row.id,
            legal_name: row.legal_name,
            dba: row.dba,
            contact_name: row.contact_name,
            contact_email: row.contact_email,
            contact_phone: row.contact_phone,
            mailing_address: row.mailing_address,
            seller_permit: row.seller_permit,
            annual_election,
            fiscal_year_end_month: row.fiscal_year_end_month,
            closed_on: row.closed_on,
            version: row.version,
            created_at: utc(row.created_at),
            updated_at: utc(row.updated_at),
            establishments: establishments
                .into_iter()
                .map(Establishment::from_row)
                .collect::<Result<_, _>>()?,
        })
    }

    /// The payor with its establishments, as stored now.
    fn load(conn: &mut DbConn, row: PayorRow) -> Result<Self, ApiError> {
        let establishments = db::payors::establishments_of(conn, row.municipality_id, &row.id)?;
        Self::from_rows(row, establishments)
    }
}

impl PayorSummary {
    fn from_row(row: PayorRow) -> Self {
        Self {
            status: RegistryStatus::of(row.closed_on),
            id: row.id,
            legal_name: row.legal_name,
            dba: row.dba,
            closed_on: row.closed_on,
        }
    }
}

// ---------------------------------------------------------------------------
// HTTP helpers: ETag, If-Match, Location
// ---------------------------------------------------------------------------

use access::{Actor, Reading, payor_for_write};
pub use precondition::IfMatch;
use precondition::{IF_MATCH_DOC, etag, payor_location};

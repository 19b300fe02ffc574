//! Queries over payors and their establishments (confidential).
//!
//! Contract: every function takes the municipality id (the tenant) and, on
//! PostgreSQL, runs inside a transaction scoped to that tenant
//! (the request's unit of work, `api::caller`), so row-level security hides every other tenant's rows
//! even if a filter were forgotten. Updates are optimistic: they match the
//! version the caller read and bump it (the ETag); a stale version updates
//! nothing. Every query starts from the tenant's rows (`tenant_payors`,
//! `tenant_establishments`). The `legal_name_key` column (the name's lower case, from
//! `domain::registry::search_key`) is written here on every insert and
//! update, so no caller can let it drift from `legal_name`; [`PayorRow`]
//! does not carry it, hence the explicit column list of every read.

use chrono::NaiveDate;
use diesel::{dsl, prelude::*};

use super::{
    DbConn,
    models::{EstablishmentRow, PayorRow},
    schema::{establishments, payors},
};
use crate::db::native::Native as _;
use crate::domain::registry::{RegistryStatus, search_key};

diesel::define_sql_function! {
    /// `substr(text, start, length)`, characters counted from 1 (SQLite and PostgreSQL).
    fn substr(text: diesel::sql_types::Text, start: diesel::sql_types::Integer, length: diesel::sql_types::Integer) -> diesel::sql_types::Text;
}

/// The columns of [`PayorRow`], in its field order: one list, used as the
/// type and as the value.
macro_rules! payor_columns {
    () => {
        (
            payors::municipality_id,
            payors::id,
            payors::legal_name,
            payors::dba,
            payors::contact_name,
            payors::contact_email,
            payors::contact_phone,
            payors::mailing_address,
            payors::seller_permit,
            payors::annual_election,
            payors::fiscal_year_end_month,
            payors::closed_on,
            payors::version,
            payors::created_at,
            payors::updated_at,
        )
    };
}

/// The column types of [`PayorRow`].
type PayorColumns = payor_columns!();

/// The columns of [`PayorRow`].
const PAYOR_COLUMNS: PayorColumns = payor_columns!();

/// The tenant's payors.
type TenantPayors = dsl::Filter<payors::table, dsl::Eq<payors::municipality_id, i64>>;

/// The tenant's establishments.
type TenantEstablishments =
    dsl::Filter<establishments::table, dsl::Eq<establishments::municipality_id, i64>>;

/// The payors of `municipality_id`: where every query over payors starts.
fn tenant_payors(municipality_id: i64) -> TenantPayors {
    payors::table.filter(payors::municipality_id.eq(municipality_id))
}

/// The establishments of `municipality_id`: where every query over them starts.
fn tenant_establishments(municipality_id: i64) -> TenantEstablishments {
    establishments::table.filter(establishments::municipality_id.eq(municipality_id))
}

/// Which payors a list returns.
#[derive(Debug, Clone, Default)]
pub struct PayorQuery {
    /// Only these ids (an operator's own, a disclosure's); `None` = all.
    pub only: Option<Vec<String>>,
    /// Only payors with this status on the given day.
    pub status: Option<(RegistryStatus, NaiveDate)>,
    /// Case-insensitive prefix of the legal name (compared by search key).
    pub name_prefix: Option<String>,
    /// Ids after this one (cursor), in id order.
    pub after: Option<String>,
    /// Page size.
    pub limit: i64,
}

/// Insert a payor.
pub fn insert(conn: &mut DbConn, row: &PayorRow) -> QueryResult<()> {
    diesel::insert_into(payors::table)
        .values((row, payors::legal_name_key.eq(search_key(&row.legal_name))))
        .execute_native(conn)
        .map(|_| ())
}

/// One payor of the tenant.
pub fn get(conn: &mut DbConn, municipality_id: i64, id: &str) -> QueryResult<Option<PayorRow>> {
    tenant_payors(municipality_id)
        .select(PAYOR_COLUMNS)
        .filter(payors::id.eq(id))
        .get_native(conn)
        .optional()
}

/// A page of the tenant's payors.
pub fn list(conn: &mut DbConn, municipality_id: i64, q: &PayorQuery) -> QueryResult<Vec<PayorRow>> {
    let mut query = tenant_payors(municipality_id)
        .select(PAYOR_COLUMNS)
        .order(payors::id.asc())
        .limit(q.limit)
        .into_boxed();
    if let Some(only) = &q.only {
        query = query.filter(payors::id.eq_any(only.clone()));
    }
    match q.status {
        Some((RegistryStatus::Open, _)) => query = query.filter(payors::closed_on.is_null()),
        Some((RegistryStatus::Closing, today)) => {
            query = query.filter(payors::closed_on.gt(today));
        }
        Some((RegistryStatus::Closed, today)) => {
            query = query.filter(payors::closed_on.le(today));
        }
        None => {}
    }
    if let Some(prefix) = &q.name_prefix {
        // `substr` counts characters on both backends and `=` compares exactly,
        // whatever the database's collation (a range on a linguistic collation
        // would not be a prefix test). Both sides are folded by `search_key`.
        let key = search_key(prefix);
        let chars = i32::try_from(key.chars().count()).unwrap_or(i32::MAX);
        query = query.filter(substr(payors::legal_name_key, 1, chars).eq(key));
    }
    if let Some(after) = &q.after {
        query = query.filter(payors::id.gt(after.clone()));
    }
    query.load(conn)
}

/// Replace a payor if its stored version is `expected_version`; the row's own
/// version must already be `expected_version + 1`. Returns false on a stale version.
pub fn update(conn: &mut DbConn, row: &PayorRow, expected_version: i64) -> QueryResult<bool> {
    super::unit::forget_payor(row.municipality_id, Some(&row.id));
    diesel::update(
        tenant_payors(row.municipality_id)
            .filter(payors::id.eq(&row.id))
            .filter(payors::version.eq(expected_version)),
    )
    .set((row, payors::legal_name_key.eq(search_key(&row.legal_name))))
    .execute_native(conn)
    .map(|n| n == 1)
}

/// Bump a payor's version and `updated_at` because one of its establishments
/// changed (the payor's representation shows them). Returns the new version.
pub fn touch(
    conn: &mut DbConn,
    municipality_id: i64,
    id: &str,
    at: chrono::NaiveDateTime,
) -> QueryResult<i64> {
    super::unit::forget_payor(municipality_id, Some(id));
    diesel::update(tenant_payors(municipality_id).filter(payors::id.eq(id)))
        .set((
            payors::version.eq(payors::version + 1),
            payors::updated_at.eq(at),
        ))
        .execute_native(conn)?;
    tenant_payors(municipality_id)
        .select(payors::version)
        .filter(payors::id.eq(id))
        .get_native(conn)
}

/// Insert an establishment.
pub fn insert_establishment(conn: &mut DbConn, row: &EstablishmentRow) -> QueryResult<()> {
    diesel::insert_into(establishments::table)
        .values(row)
        .execute_native(conn)
        .map(|_| ())
}

/// The establishments of one payor.
pub fn establishments_of(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> QueryResult<Vec<EstablishmentRow>> {
    tenant_establishments(municipality_id)
        .filter(establishments::payor_id.eq(payor_id))
        .order(establishments::name.asc())
        .load_native(conn)
}

/// What the obligations need of a payor (a clerk's view of a period reads it
/// for every payor at once): no contact details, no address.
#[derive(Debug, Clone, Queryable)]
pub struct Registrant {
    /// Payor id.
    pub id: String,
    /// Legal name (shown, so every one listed is logged by the caller).
    pub legal_name: String,
    /// Stored annual election.
    pub annual_election: String,
    /// Fiscal year's last month, for a fiscal election.
    pub fiscal_year_end_month: Option<i32>,
    /// The day it closed or closes.
    pub closed_on: Option<NaiveDate>,
    /// When it was entered in the registry.
    pub created_at: chrono::NaiveDateTime,
    /// Its establishments' earliest opening date, if any has one.
    pub first_opened_on: Option<NaiveDate>,
}

/// Every payor of the municipality after `after`, in id order, as [`Registrant`]s
/// with their first opening (one query: the establishments are read for the
/// payors listed only); with `without_return_for`, only those with no return on
/// file for that period (the clerk's missing list: each payor's return looked
/// up by its unique index, instead of every payor's obligation computed here).
pub fn registrants(
    conn: &mut DbConn,
    municipality_id: i64,
    after: Option<&str>,
    without_return_for: Option<&str>,
) -> QueryResult<Vec<Registrant>> {
    // The first opening, a scalar subquery per payor listed (by the
    // establishments' `(municipality_id, payor_id)` index).
    let first_opened_on = establishments::table
        .filter(establishments::municipality_id.eq(payors::municipality_id))
        .filter(establishments::payor_id.eq(payors::id))
        .select(dsl::min(establishments::opened_on))
        .single_value();
    let mut query = tenant_payors(municipality_id)
        .select((
            payors::id,
            payors::legal_name,
            payors::annual_election,
            payors::fiscal_year_end_month,
            payors::closed_on,
            payors::created_at,
            first_opened_on,
        ))
        .order(payors::id.asc())
        .into_boxed();
    if let Some(after) = after {
        query = query.filter(payors::id.gt(after.to_owned()));
    }
    if let Some(period) = without_return_for {
        use super::schema::tax_returns as r;
        query = query.filter(dsl::not(dsl::exists(
            r::table
                .filter(r::municipality_id.eq(payors::municipality_id))
                .filter(r::payor_id.eq(payors::id))
                .filter(r::period.eq(period.to_owned())),
        )));
    }
    query.load(conn)
}

/// One establishment of the tenant.
pub fn establishment(
    conn: &mut DbConn,
    municipality_id: i64,
    id: &str,
) -> QueryResult<Option<EstablishmentRow>> {
    tenant_establishments(municipality_id)
        .filter(establishments::id.eq(id))
        .get_native(conn)
        .optional()
}

/// Replace an establishment if its stored version is `expected_version`.
pub fn update_establishment(
    conn: &mut DbConn,
    row: &EstablishmentRow,
    expected_version: i64,
) -> QueryResult<bool> {
    diesel::update(
        tenant_establishments(row.municipality_id)
            .filter(establishments::id.eq(&row.id))
            .filter(establishments::version.eq(expected_version)),
    )
    .set(row)
    .execute_native(conn)
    .map(|n| n == 1)
}

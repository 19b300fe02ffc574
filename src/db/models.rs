//! Row structs and insert forms, apart from API types and from queries.
//!
//! Contract: one struct per table shape; field order equals the column order
//! of `schema.rs` (rows are loaded with the table's default selection).

use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

use super::schema::{municipalities, policy_versions, zone_memberships, zones};

/// A stored zone.
#[derive(Debug, Clone, Queryable, Identifiable)]
#[diesel(table_name = zones)]
pub struct ZoneRow {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub county: String,
    pub commission_name: String,
    pub tourism_entity_name: Option<String>,
    pub created_at: NaiveDateTime,
}

/// A zone to insert.
#[derive(Debug, Insertable)]
#[diesel(table_name = zones)]
pub struct NewZone<'a> {
    pub slug: &'a str,
    pub name: &'a str,
    pub county: &'a str,
    pub commission_name: &'a str,
    pub tourism_entity_name: Option<&'a str>,
}

/// A stored municipality.
#[derive(Debug, Clone, Queryable, Identifiable)]
#[diesel(table_name = municipalities)]
pub struct MunicipalityRow {
    pub id: i64,
    pub slug: String,
    pub name: String,
    pub kind: String,
    pub county: String,
    pub created_at: NaiveDateTime,
}

/// A municipality to insert.
#[derive(Debug, Insertable)]
#[diesel(table_name = municipalities)]
pub struct NewMunicipality<'a> {
    pub slug: &'a str,
    pub name: &'a str,
    pub kind: &'a str,
    pub county: &'a str,
}

/// A stored zone membership.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = zone_memberships)]
pub struct MembershipRow {
    pub zone_id: i64,
    pub municipality_id: i64,
    pub joined_on: NaiveDate,
    pub left_on: Option<NaiveDate>,
}

/// A stored policy version.
#[derive(Debug, Clone, Queryable)]
#[diesel(table_name = policy_versions)]
pub struct PolicyVersionRow {
    pub municipality_id: i64,
    pub effective_from: NaiveDate,
    pub document: String,
    pub source: String,
    pub created_at: NaiveDateTime,
}

/// A policy version to insert.
#[derive(Debug, Insertable)]
#[diesel(table_name = policy_versions)]
pub struct NewPolicyVersion<'a> {
    pub municipality_id: i64,
    pub effective_from: NaiveDate,
    pub document: &'a str,
    pub source: &'a str,
}

/// A stored user.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = super::schema::users)]
pub struct UserRow {
    pub id: String,
    pub email: String,
    pub display_name: String,
    pub password_hash: String,
    pub created_at: NaiveDateTime,
    pub deleted_at: Option<NaiveDateTime>,
}

/// A municipality-scoped role grant.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = super::schema::municipality_grants)]
pub struct MunicipalityGrantRow {
    pub municipality_id: i64,
    pub id: String,
    pub user_id: String,
    pub role: String,
    pub payor_id: Option<String>,
    pub created_at: NaiveDateTime,
    pub created_by: Option<String>,
    pub revoked_at: Option<NaiveDateTime>,
}

/// A zone-scoped role grant.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = super::schema::zone_grants)]
pub struct ZoneGrantRow {
    pub zone_id: i64,
    pub id: String,
    pub user_id: String,
    pub role: String,
    pub created_at: NaiveDateTime,
    pub created_by: Option<String>,
    pub revoked_at: Option<NaiveDateTime>,
}

/// A web portal session (the digest of its cookie's secret only).
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = super::schema::web_sessions)]
pub struct WebSessionRow {
    pub id: String,
    pub user_id: String,
    pub digest: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub revoked_at: Option<NaiveDateTime>,
}

/// A stored refresh token (its digest only).
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = super::schema::refresh_tokens)]
pub struct RefreshTokenRow {
    pub id: String,
    pub user_id: String,
    pub family_id: String,
    pub digest: String,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub used_at: Option<NaiveDateTime>,
    pub revoked_at: Option<NaiveDateTime>,
}

/// A registered API client (its secret's digest only).
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = super::schema::api_clients)]
pub struct ApiClientRow {
    pub id: String,
    pub municipality_id: Option<i64>,
    pub zone_id: Option<i64>,
    pub name: String,
    pub secret_digest: String,
    pub scopes: String,
    pub created_at: NaiveDateTime,
    pub created_by: String,
    pub revoked_at: Option<NaiveDateTime>,
}

/// A disclosure grant (court order or legal duty).
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = super::schema::disclosure_grants)]
pub struct DisclosureGrantRow {
    pub municipality_id: i64,
    pub id: String,
    pub reference: String,
    pub basis: String,
    pub grantee_user_id: String,
    pub expires_at: NaiveDateTime,
    pub created_at: NaiveDateTime,
    pub created_by: String,
    pub revoked_at: Option<NaiveDateTime>,
}

/// One access-log entry.
#[derive(Debug, Clone, Queryable, Insertable)]
#[diesel(table_name = super::schema::access_log)]
pub struct AccessLogRow {
    pub municipality_id: i64,
    pub id: String,
    pub at: NaiveDateTime,
    pub actor_kind: String,
    pub actor_id: String,
    pub basis: String,
    pub record_type: String,
    pub record_id: String,
    pub action: String,
    pub request_id: String,
}

/// A stored payor (confidential).
#[derive(Debug, Clone, Queryable, Insertable, AsChangeset)]
#[diesel(table_name = super::schema::payors, treat_none_as_null = true)]
pub struct PayorRow {
    pub municipality_id: i64,
    pub id: String,
    pub legal_name: String,
    pub dba: Option<String>,
    pub contact_name: Option<String>,
    pub contact_email: Option<String>,
    pub contact_phone: Option<String>,
    pub mailing_address: String,
    pub seller_permit: Option<String>,
    pub annual_election: String,
    pub fiscal_year_end_month: Option<i32>,
    pub closed_on: Option<NaiveDate>,
    pub version: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// A stored establishment (confidential).
#[derive(Debug, Clone, Queryable, Insertable, AsChangeset)]
#[diesel(table_name = super::schema::establishments, treat_none_as_null = true)]
pub struct EstablishmentRow {
    pub municipality_id: i64,
    pub id: String,
    pub payor_id: String,
    pub name: String,
    pub address: String,
    pub kind: String,
    pub units: i32,
    pub opened_on: Option<NaiveDate>,
    pub closed_on: Option<NaiveDate>,
    pub version: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

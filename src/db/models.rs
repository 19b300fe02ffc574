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

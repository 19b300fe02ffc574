//! Diesel table definitions, one portable schema for SQLite and PostgreSQL.
//!
//! Contract: written by hand to match `migrations/*/up.sql` (both backends
//! run the whole test suite against it, so a mismatch fails loudly). Only
//! portable column types: BigInt (ids, cents), Text, Date, Timestamp, Bool.

diesel::table! {
    /// Tourism zones (tenant roots).
    zones (id) {
        id -> BigInt,
        slug -> Text,
        name -> Text,
        county -> Text,
        commission_name -> Text,
        tourism_entity_name -> Nullable<Text>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Municipalities (the tenants).
    municipalities (id) {
        id -> BigInt,
        slug -> Text,
        name -> Text,
        kind -> Text,
        county -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Effective-dated membership of a municipality in a zone.
    zone_memberships (zone_id, municipality_id, joined_on) {
        zone_id -> BigInt,
        municipality_id -> BigInt,
        joined_on -> Date,
        left_on -> Nullable<Date>,
    }
}

diesel::table! {
    /// Effective-dated policy versions; `document` is the policy JSON.
    policy_versions (municipality_id, effective_from) {
        municipality_id -> BigInt,
        effective_from -> Date,
        document -> Text,
        source -> Text,
        created_at -> Timestamp,
    }
}

diesel::joinable!(zone_memberships -> zones (zone_id));
diesel::joinable!(zone_memberships -> municipalities (municipality_id));
diesel::joinable!(policy_versions -> municipalities (municipality_id));

diesel::allow_tables_to_appear_in_same_query!(
    zones,
    municipalities,
    zone_memberships,
    policy_versions
);

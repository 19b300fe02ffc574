//! Setting up tenants without the demo: create a municipality or a tourism zone.
//!
//! Contract: the values arrive parsed ([`crate::domain::tenant`]); a slug already
//! used by a municipality (for [`create_municipality`]) or by a zone (for
//! [`create_zone`]) is a 409 conflict naming the slug; nothing else is checked or
//! written here (a municipality's policy, users and zone membership are separate
//! steps). Runs inside the caller's unit of work.

use crate::{
    db::{
        self, DbConn,
        models::{MunicipalityRow, ZoneRow},
    },
    domain::tenant::{NewMunicipality, NewZone},
    error::ApiError,
};

/// Create a municipality.
pub fn create_municipality(
    conn: &mut DbConn,
    new: &NewMunicipality,
) -> Result<MunicipalityRow, ApiError> {
    if db::municipalities::by_slug(conn, new.slug.as_str())?.is_some() {
        return Err(ApiError::Conflict(format!(
            "a municipality with the slug {} already exists",
            new.slug
        )));
    }
    Ok(db::tenants::insert_municipality(conn, new)?)
}

/// Create a tourism zone.
pub fn create_zone(conn: &mut DbConn, new: &NewZone) -> Result<ZoneRow, ApiError> {
    if db::zones::by_slug(conn, new.slug.as_str())?.is_some() {
        return Err(ApiError::Conflict(format!(
            "a zone with the slug {} already exists",
            new.slug
        )));
    }
    Ok(db::tenants::insert_zone(conn, new)?)
}

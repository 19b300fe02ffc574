//! Inserts of new tenants (municipalities and zones) from parsed domain values.
//!
//! Contract: takes only [`crate::domain::tenant`] values, so nothing unparsed reaches
//! the tables; municipalities and zones are public (not tenant-owned), so no tenant
//! setting is needed. A slug already taken is the caller's to report (see
//! `usecases::tenants`); a race past that check is a unique violation (409).

use diesel::prelude::*;

use super::{
    DbConn,
    models::{MunicipalityRow, ZoneRow},
    schema::{municipalities, zones},
};
use crate::db::native::Native as _;
use crate::domain::tenant::{NewMunicipality, NewZone};

/// Insert a municipality.
pub fn insert_municipality(
    conn: &mut DbConn,
    new: &NewMunicipality,
) -> QueryResult<MunicipalityRow> {
    diesel::insert_into(municipalities::table)
        .values((
            municipalities::slug.eq(new.slug.as_str()),
            municipalities::name.eq(new.name.as_str()),
            municipalities::kind.eq(new.kind.as_str()),
            municipalities::county.eq(new.county.as_str()),
        ))
        .returning(municipalities::all_columns)
        .get_native(conn)
}

/// Insert a zone (no county stored as the empty string, as the schema needs one).
pub fn insert_zone(conn: &mut DbConn, new: &NewZone) -> QueryResult<ZoneRow> {
    diesel::insert_into(zones::table)
        .values((
            zones::slug.eq(new.slug.as_str()),
            zones::name.eq(new.name.as_str()),
            zones::county.eq(new.county.map_or("", |c| c.as_str())),
            zones::commission_name.eq(new.commission_name.as_str()),
        ))
        .returning(zones::all_columns)
        .get_native(conn)
}

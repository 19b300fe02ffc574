//! Establishments: add, read, change and close the lodging places a payor runs.
//!
//! Contract: see the module doc of `usecases::payors`. An establishment is
//! addressed under its payor (one of another payor is 404). A closed payor
//! takes no new establishment (409); closing twice is 409; it cannot close
//! before it opened nor open after it closed (422). Every write bumps the
//! payor's version as well as the establishment's own, and is logged with
//! record type `establishment`; a read is logged as a read of the payor.

use chrono::NaiveDate;

use super::{Actor, Precondition, Reading, registry::payor_for_write};
use crate::{
    db::{self, DbConn, models::EstablishmentRow},
    domain::registry::{
        EstablishmentChanges, NewEstablishment, RegistryStatus, closing_after_opening,
        opening_before_closing,
    },
    error::ApiError,
    tenancy::MunicipalityContext,
};

/// The establishment `id` of payor `payor_id`, or 404.
fn establishment_of(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    id: &str,
) -> Result<EstablishmentRow, ApiError> {
    db::payors::establishment(conn, municipality_id, id)?
        .filter(|e| e.payor_id == payor_id)
        .ok_or(ApiError::NotFound("establishment"))
}

/// Add an establishment to an open (or closing) payor.
pub fn add(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    payor_id: &str,
    new: NewEstablishment,
    today: NaiveDate,
) -> Result<EstablishmentRow, ApiError> {
    let payor = payor_for_write(conn, ctx.municipality_id, payor_id)?;
    if let Some(on) = payor.closed_on
        && RegistryStatus::on(Some(on), today) == RegistryStatus::Closed
    {
        return Err(ApiError::Conflict(format!(
            "this payor closed on {on}; it takes no new establishment"
        )));
    }
    let now = db::identity::now();
    let row = EstablishmentRow {
        municipality_id: ctx.municipality_id,
        id: db::identity::new_id(),
        payor_id: payor.id,
        name: new.name.into_string(),
        address: new.address.into_string(),
        kind: new.kind.as_str().to_owned(),
        units: new.units.get(),
        opened_on: new.opened_on,
        closed_on: None,
        version: 1,
        created_at: now,
        updated_at: now,
    };
    db::payors::insert_establishment(conn, &row)?;
    db::payors::touch(conn, ctx.municipality_id, &row.payor_id, now)?;
    actor.log_write(conn, ctx, "establishment", &row.id, "create")?;
    Ok(row)
}

/// One establishment of a payor the caller may read, logged as a read of the payor.
pub fn show(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    payor_id: &str,
    id: &str,
) -> Result<EstablishmentRow, ApiError> {
    let reading = Reading::resolve(conn, ctx)?;
    if !reading.may_read(payor_id) {
        return Err(ApiError::NotFound("establishment"));
    }
    let row = establishment_of(conn, ctx.municipality_id, payor_id, id)?;
    reading.log(conn, actor, payor_id)?;
    Ok(row)
}

/// Change an establishment at the version the caller read.
pub fn update(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    payor_id: &str,
    id: &str,
    precondition: &Precondition,
    changes: EstablishmentChanges,
) -> Result<EstablishmentRow, ApiError> {
    let mut row = establishment_of(conn, ctx.municipality_id, payor_id, id)?;
    precondition.check(row.version)?;
    let opened_on = changes.opened_on.unwrap_or(row.opened_on);
    opening_before_closing(opened_on, row.closed_on)?;
    if let Some(v) = changes.name {
        row.name = v.into_string();
    }
    if let Some(v) = changes.address {
        row.address = v.into_string();
    }
    if let Some(v) = changes.kind {
        row.kind = v.as_str().to_owned();
    }
    if let Some(v) = changes.units {
        row.units = v.get();
    }
    row.opened_on = opened_on;
    save(conn, ctx, actor, row, "update")
}

/// Record the date an establishment closed.
pub fn close(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    payor_id: &str,
    id: &str,
    precondition: &Precondition,
    closed_on: NaiveDate,
) -> Result<EstablishmentRow, ApiError> {
    let mut row = establishment_of(conn, ctx.municipality_id, payor_id, id)?;
    precondition.check(row.version)?;
    if let Some(on) = row.closed_on {
        return Err(ApiError::Conflict(format!(
            "this establishment is already closed (on {on})"
        )));
    }
    closing_after_opening(row.opened_on, closed_on)?;
    row.closed_on = Some(closed_on);
    save(conn, ctx, actor, row, "close")
}

/// Store a changed row at the next version and bump its payor's.
fn save(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    mut row: EstablishmentRow,
    action: &str,
) -> Result<EstablishmentRow, ApiError> {
    let read = row.version;
    row.version = read + 1;
    row.updated_at = db::identity::now();
    if !db::payors::update_establishment(conn, &row, read)? {
        return Err(ApiError::PreconditionFailed);
    }
    db::payors::touch(conn, ctx.municipality_id, &row.payor_id, row.updated_at)?;
    actor.log_write(conn, ctx, "establishment", &row.id, action)?;
    Ok(row)
}

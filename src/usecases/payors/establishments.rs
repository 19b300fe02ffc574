//! Establishments: add, read, change and close the lodging places a payor runs.
//!
//! Contract: see the module doc of `usecases::payors`. An establishment is
//! addressed under its payor (one of another payor is 404). A closed payor
//! takes no new establishment (409); closing twice is 409; it cannot close
//! before it opened nor open after it closed (422). Every write bumps the
//! payor's version as well as the establishment's own, and is logged with
//! record type `establishment`; a read is logged as a read of the payor.

use chrono::NaiveDate;

use super::{Call, Precondition, Reading, registry::stored_payor, save};
use crate::{
    db::{self, DbConn, models::EstablishmentRow},
    domain::registry::{
        EstablishmentChanges, NewEstablishment, RegistryStatus, closing_after_opening,
        opening_before_closing,
    },
    error::ApiError,
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
    call: Call<'_, NewEstablishment>,
    payor_id: &str,
    today: NaiveDate,
) -> Result<EstablishmentRow, ApiError> {
    let (conn, ctx, new) = (call.conn, &call.ctx, call.input);
    let payor = stored_payor(conn, ctx.municipality_id, payor_id)?;
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
    call.actor
        .log_write(conn, ctx, "establishment", &row.id, "create")?;
    Ok(row)
}

/// One establishment of a payor the caller may read, logged as a read of the payor.
pub fn show(call: Call<'_>, payor_id: &str, id: &str) -> Result<EstablishmentRow, ApiError> {
    let reading = Reading::resolve(call.conn, &call.ctx)?;
    if !reading.may_read(payor_id) {
        return Err(ApiError::NotFound("establishment"));
    }
    let row = establishment_of(call.conn, call.ctx.municipality_id, payor_id, id)?;
    reading.log(call.conn, &call.actor, payor_id)?;
    Ok(row)
}

/// Change an establishment at the version the caller read.
pub fn update(
    mut call: Call<'_, EstablishmentChanges, Precondition>,
    payor_id: &str,
    id: &str,
) -> Result<EstablishmentRow, ApiError> {
    let mut row = establishment_at(&mut call, payor_id, id)?;
    let changes = call.input;
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
    save(call.conn, &call.ctx, &call.actor, row, "update")
}

/// Record the date an establishment closed.
pub fn close(
    mut call: Call<'_, NaiveDate, Precondition>,
    payor_id: &str,
    id: &str,
) -> Result<EstablishmentRow, ApiError> {
    let mut row = establishment_at(&mut call, payor_id, id)?;
    if let Some(on) = row.closed_on {
        return Err(ApiError::Conflict(format!(
            "this establishment is already closed (on {on})"
        )));
    }
    closing_after_opening(row.opened_on, call.input)?;
    row.closed_on = Some(call.input);
    save(call.conn, &call.ctx, &call.actor, row, "close")
}

/// The establishment a conditional write changes: 404 when there is none
/// under this payor, 412 when the precondition does not hold for its version.
fn establishment_at<I>(
    call: &mut Call<'_, I, Precondition>,
    payor_id: &str,
    id: &str,
) -> Result<EstablishmentRow, ApiError> {
    let row = establishment_of(call.conn, call.ctx.municipality_id, payor_id, id)?;
    call.precondition.check(row.version)?;
    Ok(row)
}

//! Payors: register, read, list, change, close.
//!
//! Contract: see the module doc of `usecases::payors`. A closed payor keeps
//! its row; closing twice is 409; its establishments are not closed with it.

use chrono::NaiveDate;

use super::{
    Actor, PayorRecord, Precondition, Reading, policy_for_election, set_election, stored_election,
};
use crate::{
    db::{self, DbConn, models::PayorRow, payors::PayorQuery},
    domain::registry::{NewPayor, PayorChanges, RegistryStatus},
    error::ApiError,
    tenancy::MunicipalityContext,
};

/// What a list asks for (already parsed).
#[derive(Debug, Clone, Default)]
pub struct ListRequest {
    /// Only payors with this status today.
    pub status: Option<RegistryStatus>,
    /// Case-insensitive prefix of the legal name.
    pub name_prefix: Option<String>,
    /// The id after which the page starts.
    pub after: Option<String>,
    /// Page size.
    pub limit: u32,
}

/// Register a payor (version 1), its election judged against the policy.
pub fn create(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    new: NewPayor,
    today: NaiveDate,
) -> Result<PayorRecord, ApiError> {
    let policy = policy_for_election(conn, ctx.municipality_id, today)?;
    let election = new.election.allowed_by(policy.as_ref())?;
    let now = db::identity::now();
    let mut row = PayorRow {
        municipality_id: ctx.municipality_id,
        id: db::identity::new_id(),
        legal_name: new.legal_name.into_string(),
        dba: new.dba.map(|v| v.into_string()),
        contact_name: new.contact_name.map(|v| v.into_string()),
        contact_email: new.contact_email.map(|v| v.into_string()),
        contact_phone: new.contact_phone.map(|v| v.into_string()),
        mailing_address: new.mailing_address.into_string(),
        seller_permit: new.seller_permit.map(|v| v.into_string()),
        annual_election: String::new(),
        fiscal_year_end_month: None,
        closed_on: None,
        version: 1,
        created_at: now,
        updated_at: now,
    };
    set_election(&mut row, election);
    db::payors::insert(conn, &row)?;
    actor.log_write(conn, ctx, "payor", &row.id, "create")?;
    Ok(PayorRecord {
        payor: row,
        establishments: Vec::new(),
    })
}

/// One payor the caller may read, logged as a read.
pub fn show(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    payor_id: &str,
) -> Result<PayorRecord, ApiError> {
    let reading = Reading::resolve(conn, ctx)?;
    if !reading.may_read(payor_id) {
        return Err(ApiError::NotFound("payor"));
    }
    let row =
        db::payors::get(conn, ctx.municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))?;
    reading.log(conn, actor, &row.id)?;
    PayorRecord::load(conn, row)
}

/// A page of the payors the caller may read, each logged as a read.
pub fn list(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    request: ListRequest,
    today: NaiveDate,
) -> Result<Vec<PayorRow>, ApiError> {
    let reading = Reading::resolve(conn, ctx)?;
    let query = PayorQuery {
        only: reading.only(),
        status: request.status.map(|s| (s, today)),
        name_prefix: request.name_prefix,
        after: request.after,
        limit: i64::from(request.limit),
    };
    let rows = db::payors::list(conn, ctx.municipality_id, &query)?;
    for row in &rows {
        reading.log(conn, actor, &row.id)?;
    }
    Ok(rows)
}

/// Change a payor's own fields at the version the caller read.
pub fn update(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    payor_id: &str,
    precondition: &Precondition,
    changes: PayorChanges,
    today: NaiveDate,
) -> Result<PayorRecord, ApiError> {
    let mut row = payor_for_write(conn, ctx.municipality_id, payor_id)?;
    precondition.check(row.version)?;
    if changes.touches_election() {
        let election = stored_election(&row)?
            .changed(changes.annual_election, changes.fiscal_year_end_month)?;
        let policy = policy_for_election(conn, ctx.municipality_id, today)?;
        set_election(&mut row, election.allowed_by(policy.as_ref())?);
    }
    if let Some(v) = changes.legal_name {
        row.legal_name = v.into_string();
    }
    if let Some(v) = changes.dba {
        row.dba = v.map(|v| v.into_string());
    }
    if let Some(v) = changes.contact_name {
        row.contact_name = v.map(|v| v.into_string());
    }
    if let Some(v) = changes.contact_email {
        row.contact_email = v.map(|v| v.into_string());
    }
    if let Some(v) = changes.contact_phone {
        row.contact_phone = v.map(|v| v.into_string());
    }
    if let Some(v) = changes.mailing_address {
        row.mailing_address = v.into_string();
    }
    if let Some(v) = changes.seller_permit {
        row.seller_permit = v.map(|v| v.into_string());
    }
    save(conn, ctx, actor, row, "update")
}

/// Record the date a payor closed (409 when one is recorded already).
pub fn close(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    payor_id: &str,
    precondition: &Precondition,
    closed_on: NaiveDate,
) -> Result<PayorRecord, ApiError> {
    let mut row = payor_for_write(conn, ctx.municipality_id, payor_id)?;
    precondition.check(row.version)?;
    if let Some(on) = row.closed_on {
        return Err(ApiError::Conflict(format!(
            "this payor is already closed (on {on})"
        )));
    }
    row.closed_on = Some(closed_on);
    save(conn, ctx, actor, row, "close")
}

/// The payor for a write, or 404.
pub(super) fn payor_for_write(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> Result<PayorRow, ApiError> {
    db::payors::get(conn, municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))
}

/// Store a changed row at the next version (412 if someone wrote in between).
fn save(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    mut row: PayorRow,
    action: &str,
) -> Result<PayorRecord, ApiError> {
    let read = row.version;
    row.version = read + 1;
    row.updated_at = db::identity::now();
    if !db::payors::update(conn, &row, read)? {
        return Err(ApiError::PreconditionFailed);
    }
    actor.log_write(conn, ctx, "payor", &row.id, action)?;
    PayorRecord::load(conn, row)
}

//! Payors: register, read, list, change, close.
//!
//! Contract: see the module doc of `usecases::payors`. A closed payor keeps
//! its row; closing twice is 409; its establishments are not closed with it.

use chrono::NaiveDate;

use super::{
    Call, PayorRecord, Precondition, Reading, policy_for_election, save, set_election,
    stored_election,
};
use crate::{
    db::{self, DbConn, models::PayorRow, payors::PayorQuery},
    domain::registry::{NewPayor, PayorChanges, RegistryStatus},
    error::ApiError,
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
pub fn create(call: Call<'_, NewPayor>, today: NaiveDate) -> Result<PayorRecord, ApiError> {
    let (conn, ctx, new) = (call.conn, &call.ctx, call.input);
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
    call.actor
        .log_write(conn, ctx, "payor", &row.id, "create")?;
    Ok(PayorRecord {
        payor: row,
        establishments: Vec::new(),
    })
}

/// One payor the caller may read, logged as a read.
pub fn show(call: Call<'_>, payor_id: &str) -> Result<PayorRecord, ApiError> {
    let reading = Reading::resolve(call.conn, &call.ctx)?;
    if !reading.may_read(payor_id) {
        return Err(ApiError::NotFound("payor"));
    }
    let row = stored_payor(call.conn, call.ctx.municipality_id, payor_id)?;
    reading.log(call.conn, &call.actor, &row.id)?;
    PayorRecord::load(call.conn, row)
}

/// A page of the payors the caller may read, each logged as a read.
pub fn list(call: Call<'_, ListRequest>, today: NaiveDate) -> Result<Vec<PayorRow>, ApiError> {
    let reading = Reading::resolve(call.conn, &call.ctx)?;
    let request = call.input;
    let query = PayorQuery {
        only: reading.only(),
        status: request.status.map(|s| (s, today)),
        name_prefix: request.name_prefix,
        after: request.after,
        limit: i64::from(request.limit),
    };
    let rows = db::payors::list(call.conn, call.ctx.municipality_id, &query)?;
    for row in &rows {
        reading.log(call.conn, &call.actor, &row.id)?;
    }
    Ok(rows)
}

/// Change a payor's own fields at the version the caller read.
pub fn update(
    mut call: Call<'_, PayorChanges, Precondition>,
    payor_id: &str,
    today: NaiveDate,
) -> Result<PayorRecord, ApiError> {
    let mut row = payor_at(&mut call, payor_id)?;
    let changes = call.input;
    if changes.touches_election() {
        let election = stored_election(&row)?
            .changed(changes.annual_election, changes.fiscal_year_end_month)?;
        let policy = policy_for_election(call.conn, call.ctx.municipality_id, today)?;
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
    let row = save(call.conn, &call.ctx, &call.actor, row, "update")?;
    PayorRecord::load(call.conn, row)
}

/// Record the date a payor closed (409 when one is recorded already).
pub fn close(
    mut call: Call<'_, NaiveDate, Precondition>,
    payor_id: &str,
) -> Result<PayorRecord, ApiError> {
    let mut row = payor_at(&mut call, payor_id)?;
    if let Some(on) = row.closed_on {
        return Err(ApiError::Conflict(format!(
            "this payor is already closed (on {on})"
        )));
    }
    row.closed_on = Some(call.input);
    let row = save(call.conn, &call.ctx, &call.actor, row, "close")?;
    PayorRecord::load(call.conn, row)
}

/// The tenant's payor `payor_id`, or 404.
pub(super) fn stored_payor(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
) -> Result<PayorRow, ApiError> {
    db::payors::get(conn, municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))
}

/// The payor a conditional write changes: 404 when there is none, 412 when
/// the precondition does not hold for its current version.
fn payor_at<I>(call: &mut Call<'_, I, Precondition>, payor_id: &str) -> Result<PayorRow, ApiError> {
    let row = stored_payor(call.conn, call.ctx.municipality_id, payor_id)?;
    call.precondition.check(row.version)?;
    Ok(row)
}

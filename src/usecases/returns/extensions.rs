//! Extensions of the time to file a return: the payor (or the clerk for it)
//! asks, the clerk-treasurer or staff grant or refuse.
//!
//! Contract:
//! - asking goes through `MunicipalityContext::return_filer` (the payor's
//!   operator, the clerk-treasurer or staff; anyone else 404); the domain
//!   judges the period's policy (Hayward has no extension: 422 citing it) and
//!   the reason; an annual period must be one of the payor's election;
//! - a period already on file has nothing left to extend (409, `period`,
//!   `return_already_filed`); one open request (requested or granted) per
//!   payor and period (409, `period`, `extension_already_open`; the database
//!   index settles a race the same way);
//! - deciding needs `Action::DecideExtensions` (a person: the clerk-treasurer
//!   or staff); a request is decided once (409, `status`,
//!   `extension_already_decided`, also when a concurrent decision won); a
//!   grant's date is judged by the domain (after the due date, at most the
//!   policy's limit past it); a grant for a period whose return came in
//!   meanwhile is refused (409, `return_already_filed`): the return was
//!   assessed on its own filing date, so only a refusal is left;
//! - every write is in the access log (record type `return_extension`,
//!   actions `create`, `grant`, `refuse`), every extension shown as a read;
//! - a granted extension reaches filing and the obligations through the
//!   stored row (`filing::extension_for`, `reading::on_file`): it moves the
//!   filing due date, never the date interest runs from.

use chrono::{DateTime, NaiveDate, Utc};

use super::{PayorTerms, log_read, reading_for};
use crate::{
    db::{
        self, DbConn,
        returns::{
            extensions::{Decision, ExtensionQuery},
            rows::ExtensionRow,
        },
    },
    domain::{
        DomainError, Period, PolicyHistory,
        clock::local_date,
        extension::{
            ExtensionDecision, ExtensionRequest, ExtensionStatus, ExtensionWindow,
            check_asked_in_time, check_granted_in_time, extension_limit, grant, refuse, window,
        },
        returns::check_annual_period,
    },
    error::{ApiError, FieldError},
    tenancy::{Action, MunicipalityContext},
    usecases::payors::Actor,
};

/// The record type of extensions in the access log.
const RECORD: &str = "return_extension";

/// An extension as stored, with the dates it is judged by.
#[derive(Debug, Clone)]
pub struct ExtensionRecord {
    /// The stored request and its decision.
    pub row: ExtensionRow,
    /// Its status.
    pub status: ExtensionStatus,
    /// The period.
    pub period: Period,
    /// The due date, the limit and the filing due date, explained.
    pub window: ExtensionWindow,
}

fn record_of(history: &PolicyHistory, row: ExtensionRow) -> Result<ExtensionRecord, ApiError> {
    let status = ExtensionStatus::from_stored(&row.status)
        .ok_or_else(|| ApiError::internal("stored extension has an invalid status"))?;
    let period = Period::parse(&row.period)
        .map_err(|_| ApiError::internal("stored extension has an invalid period"))?;
    let window = window(history, &period, row.extended_to)?;
    Ok(ExtensionRecord {
        row,
        status,
        period,
        window,
    })
}

fn conflict(field: &str, rule: &str, message: String) -> ApiError {
    ApiError::RuleConflict(FieldError::new(field, rule, message))
}

fn already_open(existing: &ExtensionRow) -> ApiError {
    conflict(
        "period",
        "extension_already_open",
        format!(
            "extension {} for {} is already {}; one open request per return",
            existing.id, existing.period, existing.status
        ),
    )
}

/// A 409 when the payor's return for `period` is on file.
fn refuse_if_filed(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    period: &Period,
    what: &str,
) -> Result<(), ApiError> {
    let filed = db::returns::of_payor_period(conn, municipality_id, payor_id, &period.to_string())?;
    match filed {
        Some(r) => Err(conflict(
            "period",
            "return_already_filed",
            format!(
                "the return for {period} is on file (return {}): {what}, the return was assessed on the date it was filed",
                r.id
            ),
        )),
        None => Ok(()),
    }
}

/// Ask for an extension of the time to file the payor's return of `period`.
pub fn request(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    period: Period,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<ExtensionRecord, ApiError> {
    ctx.return_filer(payor_id)?;
    let terms = PayorTerms::load(conn, ctx.municipality_id, payor_id)?;
    let asked = ExtensionRequest::new(&terms.history, period, reason)?;
    let requests = db::returns::extensions::of_payor(conn, ctx.municipality_id, payor_id)?;
    open_to_ask(
        conn,
        ctx.municipality_id,
        &terms,
        &period,
        local_date(now),
        &requests,
    )?;
    let row = ExtensionRow {
        municipality_id: ctx.municipality_id,
        id: db::identity::new_id(),
        payor_id: payor_id.to_owned(),
        period: period.to_string(),
        reason: asked.reason.as_str().to_owned(),
        status: ExtensionStatus::Requested.as_str().to_owned(),
        requested_by: ctx.caller.actor().to_string(),
        requested_at: now.naive_utc(),
        extended_to: None,
        decision_reason: None,
        decided_by: None,
        decided_at: None,
    };
    db::returns::extensions::insert(conn, &row).map_err(|e| match e {
        diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        ) => already_open(&row),
        e => e.into(),
    })?;
    Actor::of(ctx)?.log_write(conn, ctx, RECORD, &row.id, "create")?;
    record_of(&terms.history, row)
}

/// Whether an extension of `period` may be asked on `today` (every check of
/// [`request`] but the reason's): the policy has extensions, the period has
/// begun and its extension's limit is not past, an annual period is of the
/// payor's election, its return is not on file and no request of it is open
/// among `requests` (the payor's).
fn open_to_ask(
    conn: &mut DbConn,
    municipality_id: i64,
    terms: &PayorTerms,
    period: &Period,
    today: NaiveDate,
    requests: &[ExtensionRow],
) -> Result<(), ApiError> {
    let policy = terms
        .history
        .for_period(period)
        .ok_or(DomainError::NoPolicy {
            date: period.last_day(),
        })?;
    extension_limit(policy)?;
    check_asked_in_time(&terms.history, period, today)?;
    check_annual_period(period, terms.election, policy)?;
    refuse_if_filed(
        conn,
        municipality_id,
        &terms.payor.id,
        period,
        "there is no time to file left to extend",
    )?;
    if let Some(open) = requests
        .iter()
        .find(|e| e.period == period.to_string() && e.status != "refused")
    {
        return Err(already_open(open));
    }
    Ok(())
}

/// The periods among `periods` for which the payor may ask for an extension
/// at `now` (whoever files for it; anyone else 404): where [`request`] would
/// take a request with a good reason. The portal offers the request there.
pub fn askable(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    periods: &[Period],
    now: DateTime<Utc>,
) -> Result<Vec<Period>, ApiError> {
    ctx.return_filer(payor_id)?;
    let terms = PayorTerms::load(conn, ctx.municipality_id, payor_id)?;
    let requests = db::returns::extensions::of_payor(conn, ctx.municipality_id, payor_id)?;
    let mut open = Vec::new();
    for period in periods {
        match open_to_ask(
            conn,
            ctx.municipality_id,
            &terms,
            period,
            local_date(now),
            &requests,
        ) {
            Ok(()) => open.push(*period),
            Err(ApiError::Validation(_) | ApiError::RuleConflict(_)) => {}
            Err(other) => return Err(other),
        }
    }
    Ok(open)
}

/// What the clerk-treasurer decides.
#[derive(Debug, Clone)]
pub enum Decide {
    /// Grant, moving the filing due date to `extended_to`, with an optional note.
    Grant {
        /// The new filing due date.
        extended_to: NaiveDate,
        /// The note, if any.
        note: Option<String>,
    },
    /// Refuse, with the reason.
    Refuse {
        /// Why.
        reason: String,
    },
}

/// Grant or refuse the extension `extension_id` (see the module doc).
pub fn decide(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    extension_id: &str,
    decision: Decide,
    now: DateTime<Utc>,
) -> Result<ExtensionRecord, ApiError> {
    ctx.require(Action::DecideExtensions)?;
    let row = db::returns::extensions::get(conn, ctx.municipality_id, extension_id)?
        .ok_or(ApiError::NotFound("extension"))?;
    let decided = || {
        conflict(
            "status",
            "extension_already_decided",
            format!("extension {extension_id} has already been decided; a decision is final"),
        )
    };
    if row.status != ExtensionStatus::Requested.as_str() {
        return Err(decided());
    }
    let history = db::policies::load_history(conn, ctx.municipality_id)?;
    let current = record_of(&history, row)?;
    let judged = match &decision {
        Decide::Grant { extended_to, note } => {
            check_granted_in_time(*extended_to, local_date(now))?;
            grant(&history, &current.period, *extended_to, note.as_deref())?
        }
        Decide::Refuse { reason } => refuse(reason)?,
    };
    let (status, extended_to, reason, action) = match &judged {
        ExtensionDecision::Granted(g) => {
            refuse_if_filed(
                conn,
                ctx.municipality_id,
                &current.row.payor_id,
                &current.period,
                "an extension can no longer be granted, only refused",
            )?;
            (
                ExtensionStatus::Granted,
                Some(g.extended_to),
                g.note.as_ref().map(|n| n.as_str()),
                "grant",
            )
        }
        ExtensionDecision::Refused { reason } => (
            ExtensionStatus::Refused,
            None,
            Some(reason.as_str()),
            "refuse",
        ),
    };
    let decided_by = ctx.caller.actor().to_string();
    let decided_at = now.naive_utc();
    let landed = db::returns::extensions::decide(
        conn,
        ctx.municipality_id,
        extension_id,
        &Decision {
            status: status.as_str(),
            extended_to,
            reason,
            decided_by: &decided_by,
            decided_at,
        },
    )?;
    if !landed {
        return Err(decided());
    }
    Actor::of(ctx)?.log_write(conn, ctx, RECORD, extension_id, action)?;
    let row = ExtensionRow {
        status: status.as_str().to_owned(),
        extended_to,
        decision_reason: reason.map(str::to_owned),
        decided_by: Some(decided_by),
        decided_at: Some(decided_at),
        ..current.row
    };
    record_of(&history, row)
}

/// A page of the payor's extensions, newest request first (whoever may read
/// the payor's returns); each shown is logged.
pub fn of_payor(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    mut query: ExtensionQuery,
) -> Result<Vec<ExtensionRecord>, ApiError> {
    let reading = reading_for(conn, ctx, payor_id)?;
    query.payor_id = Some(payor_id.to_owned());
    let rows = db::returns::extensions::list(conn, ctx.municipality_id, &query)?;
    for row in &rows {
        log_read(conn, ctx, &reading, payor_id, RECORD, &row.id)?;
    }
    records(conn, ctx.municipality_id, rows)
}

/// A page of the municipality's extensions, newest request first
/// (`Action::ReviewReturns`); each shown is logged.
pub fn of_municipality(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    query: ExtensionQuery,
) -> Result<Vec<ExtensionRecord>, ApiError> {
    ctx.require(Action::ReviewReturns)?;
    let rows = db::returns::extensions::list(conn, ctx.municipality_id, &query)?;
    let basis = ctx.role_basis();
    let actor = Actor::of(ctx)?;
    for row in &rows {
        actor.log_read(conn, &basis, RECORD, &row.id)?;
    }
    records(conn, ctx.municipality_id, rows)
}

fn records(
    conn: &mut DbConn,
    municipality_id: i64,
    rows: Vec<ExtensionRow>,
) -> Result<Vec<ExtensionRecord>, ApiError> {
    let history = db::policies::load_history(conn, municipality_id)?;
    rows.into_iter().map(|r| record_of(&history, r)).collect()
}

/// One extension (whoever may read its payor's returns; anyone else 404);
/// the read is logged.
pub fn show(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    extension_id: &str,
) -> Result<ExtensionRecord, ApiError> {
    let row = db::returns::extensions::get(conn, ctx.municipality_id, extension_id)?
        .ok_or(ApiError::NotFound("extension"))?;
    let reading =
        reading_for(conn, ctx, &row.payor_id).map_err(|_| ApiError::NotFound("extension"))?;
    log_read(conn, ctx, &reading, &row.payor_id, RECORD, &row.id)?;
    let history = db::policies::load_history(conn, ctx.municipality_id)?;
    record_of(&history, row)
}

//! Reading returns: one return and its versions (each read logged), a
//! payor's obligations, and the municipality's view of a period (every
//! payor, filed or not).

use std::collections::HashMap;

use chrono::NaiveDate;

use super::{ReturnRecord, VersionRecord, log_read, reading_for};
use crate::{
    db::{
        self, DbConn,
        returns::{ReturnRow, VersionRow},
    },
    domain::{
        Period,
        attachment::{AttachmentKind, missing_required},
        obligations::{
            DueDates, DueRange, FiledReturn, GrantedFor, Obligation, ObligationStatus, OnFile,
            Registration, obligations_with,
        },
        registry::Election,
    },
    error::ApiError,
    tenancy::{Action, MunicipalityContext},
};

/// A return read back with its versions and what its attachments leave missing.
pub(crate) fn record(
    conn: &mut DbConn,
    municipality_id: i64,
    header: ReturnRow,
) -> Result<ReturnRecord, ApiError> {
    let versions = db::returns::versions(conn, municipality_id, &header.id)?
        .into_iter()
        .map(VersionRecord::from_row)
        .collect::<Result<Vec<_>, _>>()?;
    if versions.is_empty() {
        return Err(ApiError::internal("stored return has no version"));
    }
    let kinds: Vec<AttachmentKind> = db::returns::attachments::kinds_of_many(
        conn,
        municipality_id,
        std::slice::from_ref(&header.id),
    )?
    .into_iter()
    .filter_map(|(_, k)| AttachmentKind::parse("kind", &k).ok())
    .collect();
    completed(conn, municipality_id, header, versions, &kinds)
}

/// A return just filed, from the rows this unit stored (its header and
/// first version; a new return has no attachment yet), without reading
/// them back: what [`record`] would read.
pub(crate) fn record_new(
    conn: &mut DbConn,
    municipality_id: i64,
    header: ReturnRow,
    version: VersionRow,
) -> Result<ReturnRecord, ApiError> {
    let versions = vec![VersionRecord::from_row(version)?];
    completed(conn, municipality_id, header, versions, &[])
}

/// The record of `header` and its `versions`, with the attachments its
/// policy requires and `kinds` leave missing.
fn completed(
    conn: &mut DbConn,
    municipality_id: i64,
    header: ReturnRow,
    versions: Vec<VersionRecord>,
    kinds: &[AttachmentKind],
) -> Result<ReturnRecord, ApiError> {
    let period = Period::parse(&header.period)
        .map_err(|_| ApiError::internal("stored return has an invalid period"))?;
    let history = db::policies::load_history(conn, municipality_id)?;
    let missing_attachments = history
        .for_period(&period)
        .map(|policy| {
            missing_required(policy, &period, kinds)
                .into_iter()
                .map(|rule| rule.kind.as_str().to_owned())
                .collect()
        })
        .unwrap_or_default();
    Ok(ReturnRecord {
        header,
        versions,
        missing_attachments,
    })
}

/// The payor's return `return_id` (404 when it is not this payor's).
pub(crate) fn record_of(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    return_id: &str,
) -> Result<ReturnRecord, ApiError> {
    let header = db::returns::get(conn, municipality_id, return_id)?
        .filter(|h| h.payor_id == payor_id)
        .ok_or(ApiError::NotFound("return"))?;
    record(conn, municipality_id, header)
}

/// One return, as its latest version; the read is logged.
pub fn show(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    return_id: &str,
) -> Result<ReturnRecord, ApiError> {
    let reading = reading_for(conn, ctx, payor_id)?;
    let record = record_of(conn, ctx.municipality_id, payor_id, return_id)?;
    log_read(conn, ctx, &reading, payor_id, "return", return_id)?;
    Ok(record)
}

/// Every version of a return, the original first; each version shown is logged.
pub fn versions(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    return_id: &str,
) -> Result<ReturnRecord, ApiError> {
    let reading = reading_for(conn, ctx, payor_id)?;
    let record = record_of(conn, ctx.municipality_id, payor_id, return_id)?;
    for v in &record.versions {
        let id = format!("{return_id}/versions/{}", v.row.version);
        log_read(conn, ctx, &reading, payor_id, "return_version", &id)?;
    }
    Ok(record)
}

/// The payor's returns on file, as the obligations count them, and its
/// granted extensions.
fn on_file(conn: &mut DbConn, municipality_id: i64, payor_id: &str) -> Result<Filed, ApiError> {
    let returns = db::returns::of_payor(conn, municipality_id, payor_id)?;
    let ids: Vec<String> = returns.iter().map(|r| r.id.clone()).collect();
    let first_filed: HashMap<String, NaiveDate> =
        db::returns::first_filed_of_many(conn, municipality_id, &ids)?
            .into_iter()
            .collect();
    let mut filed = Filed::default();
    for r in returns {
        let (Ok(period), Some(filed_on)) =
            (Period::parse(&r.period), first_filed.get(r.id.as_str()))
        else {
            continue;
        };
        filed.returns.push(FiledReturn {
            return_id: r.id,
            period,
            filed_on: *filed_on,
        });
    }
    for e in db::returns::extensions::of_payor(conn, municipality_id, payor_id)? {
        filed.extensions.extend(granted(e).map(|(_, g)| g));
    }
    Ok(filed)
}

/// A granted extension, with its payor; `None` for one not granted.
fn granted(e: db::returns::rows::ExtensionRow) -> Option<(String, GrantedFor)> {
    if e.status != "granted" {
        return None;
    }
    let period = Period::parse(&e.period).ok()?;
    let extended_to = e.extended_to?;
    Some((
        e.payor_id,
        GrantedFor {
            period,
            extended_to,
        },
    ))
}

/// One payor's returns on file and granted extensions.
#[derive(Debug, Default)]
struct Filed {
    returns: Vec<FiledReturn>,
    extensions: Vec<GrantedFor>,
}

impl Filed {
    fn on_file(&self) -> OnFile<'_> {
        OnFile {
            returns: &self.returns,
            extensions: &self.extensions,
        }
    }
}

/// Every return the payor owes with a due date in `range`, and its status.
pub fn payor_obligations(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    range: DueRange,
    today: NaiveDate,
) -> Result<Vec<Obligation>, ApiError> {
    let reading = reading_for(conn, ctx, payor_id)?;
    let obligations = obligations_of(conn, ctx.municipality_id, payor_id, range, today)?;
    log_read(conn, ctx, &reading, payor_id, "payor_obligations", payor_id)?;
    Ok(obligations)
}

fn obligations_of(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    range: DueRange,
    today: NaiveDate,
) -> Result<Vec<Obligation>, ApiError> {
    let payor =
        db::payors::get(conn, municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))?;
    let establishments = db::payors::establishments_of(conn, municipality_id, payor_id)?;
    let history = db::policies::load_history(conn, municipality_id)?;
    let filed = on_file(conn, municipality_id, payor_id)?;
    let registered = Registered {
        annual_election: &payor.annual_election,
        fiscal_year_end_month: payor.fiscal_year_end_month,
        closed_on: payor.closed_on,
        created_at: payor.created_at,
        first_opened_on: establishments.iter().filter_map(|e| e.opened_on).min(),
    };
    obligations_from(
        &history,
        &registered,
        filed.on_file(),
        range,
        today,
        &mut DueDates::default(),
    )
}

/// What the obligations read of a payor's registration, as stored.
struct Registered<'a> {
    annual_election: &'a str,
    fiscal_year_end_month: Option<i32>,
    closed_on: Option<NaiveDate>,
    created_at: chrono::NaiveDateTime,
    /// Its establishments' earliest opening date.
    first_opened_on: Option<NaiveDate>,
}

/// The obligations of a payor from what was read of it (pure: no query).
fn obligations_from(
    history: &crate::domain::policy::PolicyHistory,
    payor: &Registered<'_>,
    on_file: OnFile<'_>,
    range: DueRange,
    today: NaiveDate,
    due: &mut DueDates,
) -> Result<Vec<Obligation>, ApiError> {
    let election = Election::from_stored(payor.annual_election, payor.fiscal_year_end_month)
        .ok_or_else(|| ApiError::internal("stored payor has an invalid annual election"))?;
    // Registered from its first establishment's opening, or else the day it
    // was entered in the registry.
    let opened_on = payor.first_opened_on.unwrap_or(payor.created_at.date());
    obligations_with(
        history,
        &Registration {
            opened_on,
            closed_on: payor.closed_on,
            election,
        },
        on_file,
        range,
        today,
        due,
    )
    .map_err(|e| ApiError::from(crate::domain::registry::Invalid(vec![e])))
}

/// The payor's returns whose (extended) filing due date has passed by
/// `today` with no return on file, from its registration on: what a
/// clearance certificate must not pass over (no authorisation, no access-log
/// entry: the caller does both).
pub(crate) fn missing_returns(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    today: NaiveDate,
) -> Result<Vec<Obligation>, ApiError> {
    let from = NaiveDate::from_ymd_opt(1970, 1, 1).expect("a valid date");
    let mut listed = obligations_of(
        conn,
        municipality_id,
        payor_id,
        DueRange { from, to: today },
        today,
    )?;
    listed.retain(|o| o.status == ObligationStatus::Missing);
    Ok(listed)
}

/// One payor's line in the municipality's view of a period.
#[derive(Debug, Clone)]
pub struct PeriodEntry {
    /// The payor.
    pub payor_id: String,
    /// Its legal name (the clerk's view shows whom to chase).
    pub legal_name: String,
    /// Its obligation for the period (status, due dates, the return's id).
    pub obligation: Obligation,
    /// The return on file, if any.
    pub record: Option<ReturnRecord>,
}

/// Every payor's return for `period` in the municipality, filed or not
/// (`Action::ReviewReturns`), in payor-id order after `after`, at most
/// `limit`; `status` keeps only those with that status. Each payor and
/// each return shown is logged.
pub fn for_period(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    period: Period,
    status: Option<ObligationStatus>,
    after: Option<&str>,
    limit: usize,
    today: NaiveDate,
) -> Result<Vec<PeriodEntry>, ApiError> {
    ctx.require(Action::ReviewReturns)?;
    // What the obligations need of every payor, read once for all of them
    // (one narrow query per kind, not per payor): only the period's own
    // returns and extensions decide its obligation.
    let key = period.to_string();
    // A payor with a return on file for the period is never missing (nor
    // not yet due, nor extended): those lists read only the others.
    let unfiled_only = status.is_some_and(|s| !s.is_on_file());
    let payors = db::payors::registrants(
        conn,
        ctx.municipality_id,
        after,
        unfiled_only.then_some(key.as_str()),
    )?;
    let history = db::policies::load_history(conn, ctx.municipality_id)?;
    let due = crate::domain::quote::due_date_of(&history, &period).ok_or_else(|| {
        ApiError::Validation(vec![crate::error::FieldError::new(
            "period",
            "no_policy_in_force",
            format!("no policy version of this municipality governs {period}"),
        )])
    })?;
    let range = DueRange { from: due, to: due };
    let basis = ctx.role_basis();
    let actor = crate::usecases::payors::Actor::of(ctx)?;
    let mut filed: HashMap<String, Filed> = HashMap::new();
    let on_file = match unfiled_only {
        true => Vec::new(),
        false => db::returns::first_filed_in_period(conn, ctx.municipality_id, &key)?,
    };
    for (return_id, payor_id, filed_on) in on_file {
        filed
            .entry(payor_id)
            .or_default()
            .returns
            .push(FiledReturn {
                return_id,
                period,
                filed_on,
            });
    }
    for e in db::returns::extensions::of_period(conn, ctx.municipality_id, &key)? {
        if let Some((payor_id, g)) = granted(e) {
            filed.entry(payor_id).or_default().extensions.push(g);
        }
    }
    let mut due_dates = DueDates::default();
    let nothing = Filed::default();
    let mut entries = Vec::new();
    for payor in payors {
        if entries.len() >= limit {
            break;
        }
        let registered = Registered {
            annual_election: &payor.annual_election,
            fiscal_year_end_month: payor.fiscal_year_end_month,
            closed_on: payor.closed_on,
            created_at: payor.created_at,
            first_opened_on: payor.first_opened_on,
        };
        let found = obligations_from(
            &history,
            &registered,
            filed.get(&payor.id).unwrap_or(&nothing).on_file(),
            range,
            today,
            &mut due_dates,
        )?
        .into_iter()
        .find(|o| o.period == period);
        let Some(obligation) = found else { continue };
        if status.is_some_and(|s| s != obligation.status) {
            continue;
        }
        // The payor's name is confidential too: every payor shown is logged.
        actor.log_read(conn, &basis, "payor", &payor.id)?;
        let record = match &obligation.return_id {
            Some(id) => {
                let r = record_of(conn, ctx.municipality_id, &payor.id, id)?;
                actor.log_read(conn, &basis, "return", id)?;
                Some(r)
            }
            None => None,
        };
        entries.push(PeriodEntry {
            payor_id: payor.id,
            legal_name: payor.legal_name,
            obligation,
            record,
        });
    }
    Ok(entries)
}

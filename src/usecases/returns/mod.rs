//! Returns: operators file quarterly and annual returns and amend them; the
//! clerk-treasurer and staff enter paper returns, see every payor's returns
//! and obligations, and who has not filed.
//!
//! Contract: every function runs inside the request's one unit of work,
//! takes the tenant context and values already parsed by `domain::returns`,
//! and stores what the engine computed: a return's header once, each version
//! as filed (append-only; the database refuses changes), with the filing's
//! details and the engine's [`Assessment`] as JSON, so a past return reads
//! the same forever. Authorisation: filing, amending and asking extensions
//! through `MunicipalityContext::return_filer` (staff for any payor, an
//! operator for its own, anyone else 404); reading through the registry's
//! [`Reading`] (who may read a payor may read its returns: its operator, the
//! clerk-treasurer and staff, a disclosure grantee for it), never an API
//! client; the municipality-wide views through `Action::ReviewReturns`.
//! Every read of a return, a version or an attachment is written to the
//! access log (record types `return`, `return_version`, `return_attachment`),
//! every filing and amendment as a write.
//!
//! Dates: `today` is the municipality's local date (the caller reads it from
//! the clock; America/Chicago in Wisconsin), so a return sent at 23:30 on its
//! due date is on time.

pub mod attachments;
pub mod extensions;
pub mod filing;
pub mod reading;
mod stored;

pub use stored::{ReturnRecord, StoredFiling, VersionRecord};

use crate::{
    db::{self, DbConn, models::PayorRow},
    domain::{Money, Period, PolicyHistory, registry::Election, zone_membership::Stint},
    error::ApiError,
    tenancy::MunicipalityContext,
    usecases::payors::{Actor, Reading},
};

/// What every return computation of one payor needs, loaded once a unit of
/// work (`db::unit`: a filing that then applies the payor's credit reads it
/// once; a write to the payor, its policy or its zone memberships forgets it).
#[derive(Clone)]
pub(crate) struct PayorTerms {
    pub payor: PayorRow,
    pub election: Election,
    pub history: PolicyHistory,
    pub zone: Vec<Stint>,
}

impl PayorTerms {
    /// The payor (404 when there is none), its election, the policy history
    /// and the zone memberships.
    pub(crate) fn load(
        conn: &mut DbConn,
        municipality_id: i64,
        payor_id: &str,
    ) -> Result<Self, ApiError> {
        if let Some(read) = db::unit::payor_read::<Self>(municipality_id, payor_id) {
            return Ok((*read).clone());
        }
        let terms = Self::read(conn, municipality_id, payor_id)?;
        db::unit::remember_payor_read(
            municipality_id,
            payor_id,
            std::sync::Arc::new(terms.clone()),
        );
        Ok(terms)
    }

    fn read(conn: &mut DbConn, municipality_id: i64, payor_id: &str) -> Result<Self, ApiError> {
        let payor =
            db::payors::get(conn, municipality_id, payor_id)?.ok_or(ApiError::NotFound("payor"))?;
        let election =
            Election::from_stored(&payor.annual_election, payor.fiscal_year_end_month)
                .ok_or_else(|| ApiError::internal("stored payor has an invalid annual election"))?;
        let history = db::policies::load_history(conn, municipality_id)?;
        let zone = crate::usecases::membership::stints_of(conn, municipality_id)?;
        Ok(Self {
            payor,
            election,
            history,
            zone,
        })
    }
}

/// The tax imposed on the payor for the calendar year before `period`'s
/// year: the sum of the tax of its quarterly returns on file for that year
/// (latest versions). `None` when it filed none (no previous year: Montello's
/// late-payment forfeiture then owes nothing, and the quote says why).
pub(crate) fn previous_year_tax(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    period: &Period,
) -> Result<Option<Money>, ApiError> {
    previous_year_tax_stored_by(conn, municipality_id, payor_id, period, None)
}

/// [`previous_year_tax`] as it stood when the versions stored by
/// `stored_by` were all there were (`None`: now); `roomtax check` replays a
/// payment on it.
pub(crate) fn previous_year_tax_stored_by(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    period: &Period,
    stored_by: Option<chrono::NaiveDateTime>,
) -> Result<Option<Money>, ApiError> {
    let headers = db::returns::of_payor(conn, municipality_id, payor_id)?;
    previous_year_tax_of(conn, municipality_id, &headers, period, stored_by)
}

/// [`previous_year_tax_stored_by`] over the payor's headers already read (a
/// new filing reads them once, for this and for the period already on
/// file): only the versions of the previous year's returns are read, and
/// nothing when there are none.
pub(crate) fn previous_year_tax_of(
    conn: &mut DbConn,
    municipality_id: i64,
    headers: &[db::returns::ReturnRow],
    period: &Period,
    stored_by: Option<chrono::NaiveDateTime>,
) -> Result<Option<Money>, ApiError> {
    let periods = previous_year_quarters(period);
    let Some(payor_id) = headers
        .iter()
        .find(|h| periods.contains(&h.period))
        .map(|h| h.payor_id.as_str())
    else {
        return Ok(None);
    };
    // Every version of the payor's returns, from the index alone (a few a
    // year): one prepared statement, where a list of the previous year's ids
    // would be prepared again for each count of them.
    let versions = db::returns::version_summaries_of_payor(conn, municipality_id, payor_id)?;
    Ok(previous_year_tax_in(headers, &versions, period, stored_by))
}

/// The quarters of the calendar year before `period`'s, as stored (`2025-Q1`...).
fn previous_year_quarters(period: &Period) -> Vec<String> {
    let previous = chrono::Datelike::year(&period.last_day()) - 1;
    Period::quarters_of_year(previous)
        .iter()
        .map(|p| p.to_string())
        .collect()
}

/// [`previous_year_tax_stored_by`] over a payor's headers and version
/// summaries already read (the ledger's terms read them once for every
/// period): the latest version's tax (stored by `stored_by`) of each
/// quarterly return of the year before `period`'s, summed; `None` when no
/// such return was on file.
pub(crate) fn previous_year_tax_in(
    headers: &[db::returns::ReturnRow],
    versions: &[db::returns::VersionSummary],
    period: &Period,
    stored_by: Option<chrono::NaiveDateTime>,
) -> Option<Money> {
    let periods = previous_year_quarters(period);
    let mut found = false;
    let mut total = 0i64;
    for h in headers.iter().filter(|h| periods.contains(&h.period)) {
        if let Some(latest) = versions
            .iter()
            .filter(|v| v.return_id == h.id)
            .rfind(|v| stored_by.is_none_or(|by| v.created_at <= by))
        {
            found = true;
            total += latest.tax_cents;
        }
    }
    found.then(|| Money::from_cents(total))
}

/// Who may read this payor's returns, resolved in the unit of work (404 when
/// the caller may read none of them; API clients never).
pub fn reading_for(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
) -> Result<Reading, ApiError> {
    if !ctx.caller.is_person() {
        return Err(ApiError::NotFound("return"));
    }
    let reading = Reading::resolve(conn, ctx).map_err(|_| ApiError::NotFound("return"))?;
    if !reading.may_read(payor_id) {
        return Err(ApiError::NotFound("return"));
    }
    Ok(reading)
}

/// Append the access-log entry for showing a record of this payor's returns.
pub(crate) fn log_read(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    reading: &Reading,
    payor_id: &str,
    record_type: &str,
    record_id: &str,
) -> Result<(), ApiError> {
    Actor::of(ctx)?.log_read(conn, &reading.basis_for(payor_id), record_type, record_id)
}

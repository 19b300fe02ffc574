//! The public law as people ask about it: a quote of what a return owes and the
//! year's due calendar, for one municipality. One implementation for
//! `POST /v1/municipalities/{m}/quotes`, `GET .../calendar` and the web
//! portal's public calculator and rules pages.
//!
//! Contract: public (no caller, nothing stored); the policy history in force
//! and the zone membership stints come from the database, every rule from
//! `domain::quote`.

use crate::{
    db::{self, DbConn, models::MunicipalityRow},
    domain::{DueItem, Quote, QuoteInput, due_calendar, period, quote},
    error::ApiError,
    usecases,
};

/// What a return of `municipality` owes (see `domain::quote`).
pub fn quote_for(
    conn: &mut DbConn,
    municipality: &MunicipalityRow,
    input: &QuoteInput,
) -> Result<Quote, ApiError> {
    let history = db::policies::load_history(conn, municipality.id)?;
    let zone = usecases::membership::stints_of(conn, municipality.id)?;
    Ok(quote(&history, input, &zone)?)
}

/// Every return of `municipality` due in `year` (see `domain::due_calendar`);
/// a year outside the periods' range is a 422 on `year` (rule `range`).
pub fn calendar_of(
    conn: &mut DbConn,
    municipality: &MunicipalityRow,
    year: i32,
) -> Result<Vec<DueItem>, ApiError> {
    if !(period::MIN_YEAR + 1..=period::MAX_YEAR).contains(&year) {
        return Err(ApiError::invalid(
            "year",
            "range",
            format!(
                "must be between {} and {}",
                period::MIN_YEAR + 1,
                period::MAX_YEAR
            ),
        ));
    }
    let history = db::policies::load_history(conn, municipality.id)?;
    Ok(due_calendar(&history, year))
}

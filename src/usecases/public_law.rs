//! The public law as people ask about it: a quote of what a return owes and the
//! year's due calendar, for one municipality. One implementation for
//! `POST /v1/municipalities/{m}/quotes`, `GET .../calendar` and the web
//! portal's public calculator and rules pages.
//!
//! Contract: public (no caller, nothing stored); the policy history in force
//! and the zone membership stints come from the database, every rule from
//! `domain::quote`.
//!
//! A quote is pure computation on rows that change a few times a decade, so a
//! municipality's public law ([`PublicLaw`]: its row, policy history and zone
//! stints) is kept in memory once read: [`remembered`] answers without the
//! database while this process has written no policy version or membership
//! since (`db::epochs::PUBLIC_LAW`) and for [`FRESH_FOR`] at most,
//! which bounds how long a version added by another process sharing the
//! database can go unseen by a quote. A quote binds no one (a filing reads
//! the policy from the database in its own transaction), and a version can
//! take effect no earlier than the first day of the current month, so that
//! window changes no figure anyone relies on.

use std::{
    collections::HashMap,
    sync::{Arc, LazyLock, Mutex},
    time::{Duration, Instant},
};

use crate::{
    db::{self, DbConn, models::MunicipalityRow},
    domain::{
        DueItem, PolicyHistory, Quote, QuoteInput, due_calendar, period, quote,
        zone_membership::Stint,
    },
    error::ApiError,
    usecases,
};

/// How long a municipality's public law read from the database is used
/// without reading it again.
pub const FRESH_FOR: Duration = Duration::from_secs(5);

/// What a quote of one municipality reads: its row, its policy history and
/// its zone membership stints.
#[derive(Debug)]
pub struct PublicLaw {
    /// The municipality.
    pub municipality: MunicipalityRow,
    history: PolicyHistory,
    zone: Vec<Stint>,
    read_at: Instant,
    writes: u64,
}

impl PublicLaw {
    /// What a return owes under this law (see `domain::quote`).
    pub fn quote(&self, input: &QuoteInput) -> Result<Quote, ApiError> {
        Ok(quote(&self.history, input, &self.zone)?)
    }
}

static REMEMBERED: LazyLock<Mutex<HashMap<String, Arc<PublicLaw>>>> = LazyLock::new(Mutex::default);

/// The public law of the municipality `slug` if it was read less than
/// [`FRESH_FOR`] ago and this process wrote nothing it reads since.
pub fn remembered(slug: &str) -> Option<Arc<PublicLaw>> {
    let law = REMEMBERED.lock().ok()?.get(slug).cloned()?;
    (law.read_at.elapsed() < FRESH_FOR && law.writes == db::epochs::PUBLIC_LAW.now()).then_some(law)
}

/// Read the public law of `municipality` (and remember it for [`remembered`]).
pub fn read(conn: &mut DbConn, municipality: MunicipalityRow) -> Result<Arc<PublicLaw>, ApiError> {
    let writes = db::epochs::PUBLIC_LAW.now();
    let law = Arc::new(PublicLaw {
        history: db::policies::load_history(conn, municipality.id)?,
        zone: usecases::membership::stints_of(conn, municipality.id)?,
        municipality,
        read_at: Instant::now(),
        writes,
    });
    if let Ok(mut remembered) = REMEMBERED.lock() {
        remembered.insert(law.municipality.slug.clone(), Arc::clone(&law));
    }
    Ok(law)
}

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

//! The payor registry's use cases: register, read, list, change and close
//! payors and the establishments they run.
//!
//! Contract: every function takes one [`Call`]: the request's one tenant
//! unit of work (the open connection), the tenant context, the [`Actor`]
//! for the access log, the input already parsed into `domain::registry`
//! values and, for a conditional write, the [`Precondition`]; it returns
//! stored rows. Authorisation of writes
//! (`Action::WritePayors`) is the caller's first step; reads are filtered
//! here through [`Reading`] (a payor the caller may not read is 404, exactly
//! like a missing one). Every payor shown is logged as a read, every write
//! as `create` / `update` / `close`.
//!
//! **Versions and ETags.** A payor's version is the version of its whole
//! representation, which shows its establishments: every establishment
//! write (add, change, close) bumps the payor's version too, so the payor's
//! `ETag` changes whenever its read would, and an `If-Match` on the payor
//! taken before an establishment changed is stale (412). Each establishment
//! keeps its own version for its own writes (one establishment's `If-Match`
//! is not invalidated by a change to its sibling or to the payor's fields).
//!
//! **Preconditions** ([`Precondition`]) follow RFC 9110 §13.1.1: `*` matches
//! any current representation (so an existing record passes, a missing one
//! is still 404), a list matches when any of its strong tags names the
//! current version; weak tags never match.
//!
//! **The annual election** is judged against the municipality's policy in
//! force today (or, when none is yet in force, its earliest version) when a
//! payor is registered and when a change touches the election.

mod access;
pub mod establishments;
pub mod registry;

pub use access::{Actor, Reading};

use chrono::{NaiveDate, NaiveDateTime};
use diesel::QueryResult;

use crate::{
    db::{
        self, DbConn,
        models::{EstablishmentRow, PayorRow},
    },
    domain::{
        DomainError, Policy,
        registry::{Election, Invalid},
    },
    error::{ApiError, FieldError},
    tenancy::MunicipalityContext,
};

/// One call of a registry use case inside the request's unit of work.
pub struct Call<'c, I = (), P = ()> {
    /// The open transaction.
    pub conn: &'c mut DbConn,
    /// The caller in the municipality (a write's caller is already allowed `WritePayors`).
    pub ctx: MunicipalityContext,
    /// Who the call is recorded as in the access log.
    pub actor: Actor,
    /// The parsed input (`()` when there is none).
    pub input: I,
    /// The `If-Match` precondition (`()` for an unconditional call).
    pub precondition: P,
}

/// A payor as stored, with the establishments it runs (by name).
#[derive(Debug, Clone)]
pub struct PayorRecord {
    /// The payor's row.
    pub payor: PayorRow,
    /// Its establishments.
    pub establishments: Vec<EstablishmentRow>,
}

impl PayorRecord {
    /// The payor with its establishments as stored now.
    fn load(conn: &mut DbConn, payor: PayorRow) -> Result<Self, ApiError> {
        let establishments = db::payors::establishments_of(conn, payor.municipality_id, &payor.id)?;
        Ok(Self {
            payor,
            establishments,
        })
    }
}

/// What an `If-Match` asks of the current version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    /// `*`: any current representation.
    Any,
    /// One of these versions (the strong tags sent; possibly none).
    OneOf(Vec<i64>),
}

impl Precondition {
    /// 412 unless `version` satisfies the precondition.
    pub fn check(&self, version: i64) -> Result<(), ApiError> {
        match self {
            Self::Any => Ok(()),
            Self::OneOf(versions) if versions.contains(&version) => Ok(()),
            Self::OneOf(_) => Err(ApiError::PreconditionFailed),
        }
    }
}

impl From<Invalid> for ApiError {
    fn from(Invalid(errors): Invalid) -> Self {
        ApiError::Validation(
            errors
                .into_iter()
                .map(|e| match e {
                    DomainError::Invalid {
                        field,
                        rule,
                        message,
                    } => FieldError::new(field, rule, message),
                    DomainError::NoPolicy { date } => FieldError::new(
                        "period",
                        "no_policy_in_force",
                        format!("no policy version of this municipality is in force on {date}"),
                    ),
                })
                .collect(),
        )
    }
}

/// A row written optimistically: the update matches the version the caller
/// read and moves the row to the next one.
trait Versioned: Sized {
    /// The access log's record type.
    const RECORD_TYPE: &'static str;
    /// The row's id, its version and the time it last changed.
    fn versioned(&mut self) -> (&str, &mut i64, &mut NaiveDateTime);
    /// Replace the stored row if its version is still `read` (false when it
    /// is not), and whatever else the write moves on.
    fn replace(conn: &mut DbConn, row: &Self, read: i64) -> QueryResult<bool>;
}

impl Versioned for PayorRow {
    const RECORD_TYPE: &'static str = "payor";
    fn versioned(&mut self) -> (&str, &mut i64, &mut NaiveDateTime) {
        (&self.id, &mut self.version, &mut self.updated_at)
    }
    fn replace(conn: &mut DbConn, row: &Self, read: i64) -> QueryResult<bool> {
        db::payors::update(conn, row, read)
    }
}

/// An establishment's write also bumps its payor's version (the payor's
/// representation shows its establishments).
impl Versioned for EstablishmentRow {
    const RECORD_TYPE: &'static str = "establishment";
    fn versioned(&mut self) -> (&str, &mut i64, &mut NaiveDateTime) {
        (&self.id, &mut self.version, &mut self.updated_at)
    }
    fn replace(conn: &mut DbConn, row: &Self, read: i64) -> QueryResult<bool> {
        let replaced = db::payors::update_establishment(conn, row, read)?;
        if replaced {
            db::payors::touch(conn, row.municipality_id, &row.payor_id, row.updated_at)?;
        }
        Ok(replaced)
    }
}

/// Store a changed row at its next version, stamped now (412 if someone
/// wrote in between), and log the write as `action`.
fn save<R: Versioned>(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    actor: &Actor,
    mut row: R,
    action: &str,
) -> Result<R, ApiError> {
    let (id, version, stamp) = row.versioned();
    let (id, read) = (id.to_owned(), *version);
    *version = read + 1;
    *stamp = db::identity::now();
    if !R::replace(conn, &row, read)? {
        return Err(ApiError::PreconditionFailed);
    }
    actor.log_write(conn, ctx, R::RECORD_TYPE, &id, action)?;
    Ok(row)
}

/// The policy that judges an election registered or changed on `today`.
fn policy_for_election(
    conn: &mut DbConn,
    municipality_id: i64,
    today: NaiveDate,
) -> Result<Option<Policy>, ApiError> {
    let history = db::policies::load_history(conn, municipality_id)?;
    Ok(history
        .in_force_on(today)
        .or_else(|| history.versions().first())
        .cloned())
}

/// The stored election of a payor (an invalid stored pair is an internal error).
fn stored_election(row: &PayorRow) -> Result<Election, ApiError> {
    Election::from_stored(&row.annual_election, row.fiscal_year_end_month)
        .ok_or_else(|| ApiError::internal("stored payor has an invalid annual election"))
}

/// Write the election into a row.
fn set_election(row: &mut PayorRow, election: Election) {
    row.annual_election = election.kind().as_str().to_owned();
    row.fiscal_year_end_month = election.year_end().map(|m| m.month());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_match_star_matches_any_version_and_a_list_matches_any_member() {
        assert!(Precondition::Any.check(7).is_ok());
        assert!(Precondition::OneOf(vec![1, 2]).check(2).is_ok());
        assert!(matches!(
            Precondition::OneOf(vec![1, 2]).check(3),
            Err(ApiError::PreconditionFailed)
        ));
        assert!(Precondition::OneOf(vec![]).check(1).is_err());
    }
}

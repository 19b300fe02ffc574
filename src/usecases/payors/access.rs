//! Who is acting on the registry, and which payors it may read.
//!
//! Contract: [`Reading`] asks `tenancy` (the one place that decides) inside the
//! tenant transaction, resolving disclosure grants to their payors, and writes
//! the access-log entry of every payor a response shows; [`Actor`] names the
//! caller and the request in those entries and appends them (`log_read`,
//! `log_write`). An establishment read is logged
//! as a read of its payor (record type `payor`), like the establishments
//! shown inside a payor read.

use crate::{
    db::{self, DbConn, access_log::Reader},
    error::ApiError,
    tenancy::{MunicipalityContext, PayorFilter},
};

// ---------------------------------------------------------------------------
// Who is acting, and what it may read
// ---------------------------------------------------------------------------

/// The actor and request an access-log entry names.
#[derive(Debug, Clone)]
pub struct Actor {
    municipality_id: i64,
    kind: &'static str,
    id: String,
    request_id: String,
}

impl Actor {
    /// The caller of this request (the unit of work carries the request's id).
    pub fn of(ctx: &MunicipalityContext) -> Result<Self, ApiError> {
        let actor = ctx.caller.actor();
        let (kind, id) = (actor.kind(), actor.id());
        let request_id = crate::request_context::current()
            .map(|c| c.id)
            .ok_or_else(|| ApiError::internal("no request context for the access log"))?;
        Ok(Self {
            municipality_id: ctx.municipality_id,
            kind,
            id: id.to_owned(),
            request_id,
        })
    }

    /// The access-log reader for `basis`.
    pub fn reader<'a>(&'a self, basis: &'a str) -> Reader<'a> {
        Reader {
            actor_kind: self.kind,
            actor_id: &self.id,
            basis,
            request_id: &self.request_id,
        }
    }

    /// Log a read of `record_type` / `record_id` on `basis` (the role, or the
    /// disclosure grant a reading resolved for the record's payor).
    pub fn log_read(
        &self,
        conn: &mut DbConn,
        basis: &str,
        record_type: &str,
        record_id: &str,
    ) -> Result<(), ApiError> {
        db::access_log::record(
            conn,
            self.municipality_id,
            &self.reader(basis),
            record_type,
            record_id,
        )?;
        Ok(())
    }

    /// Log a write (`create`, `update`, `close`) of a payor or establishment.
    pub fn log_write(
        &self,
        conn: &mut DbConn,
        ctx: &MunicipalityContext,
        record_type: &str,
        record_id: &str,
        action: &str,
    ) -> Result<(), ApiError> {
        let basis = ctx.role_basis();
        db::access_log::record_write(
            conn,
            self.municipality_id,
            &self.reader(&basis),
            record_type,
            record_id,
            action,
        )?;
        Ok(())
    }
}

/// What the caller may read of the registry, resolved inside the tenant
/// transaction (disclosure grants name their payors in the database).
#[derive(Debug)]
pub struct Reading {
    filter: PayorFilter,
    basis: String,
    /// Payors an operator grant binds the caller to (for the log's basis only).
    own: Vec<String>,
    /// Each active disclosure grant here, with the payors it covers.
    grants: Vec<(String, Vec<String>)>,
}

impl Reading {
    /// Ask the context; 404 when the caller may read no payor here.
    pub fn resolve(conn: &mut DbConn, ctx: &MunicipalityContext) -> Result<Self, ApiError> {
        let mut grants = Vec::new();
        for id in ctx.disclosure_ids() {
            let payors =
                db::disclosures::payors_of(conn, ctx.municipality_id, std::slice::from_ref(&id))?;
            grants.push((id, payors));
        }
        let mut disclosed: Vec<String> = grants.iter().flat_map(|(_, p)| p.clone()).collect();
        disclosed.sort();
        disclosed.dedup();
        let (filter, basis) = ctx.payor_filter(&disclosed)?;
        let own = ctx.own_payors();
        Ok(Self {
            filter,
            basis,
            own,
            grants,
        })
    }

    /// Whether the caller may read this payor.
    pub fn may_read(&self, payor_id: &str) -> bool {
        match &self.filter {
            PayorFilter::All => true,
            PayorFilter::Only(ids) => ids.iter().any(|id| id == payor_id),
        }
    }

    /// The ids the caller is confined to, or `None` for every payor.
    pub fn only(&self) -> Option<Vec<String>> {
        match &self.filter {
            PayorFilter::All => None,
            PayorFilter::Only(ids) => Some(ids.clone()),
        }
    }

    /// The basis to log for reading this payor: the role, or the disclosure
    /// grant that covers it when no role does.
    pub fn basis_for(&self, payor_id: &str) -> String {
        let by_role = match self.filter {
            PayorFilter::All => true,
            PayorFilter::Only(_) => self.own.iter().any(|p| p == payor_id),
        };
        if by_role {
            return self.basis.clone();
        }
        self.grants
            .iter()
            .find(|(_, payors)| payors.iter().any(|p| p == payor_id))
            .map(|(grant, _)| format!("disclosure:{grant}"))
            .unwrap_or_else(|| self.basis.clone())
    }

    /// Append the access-log entry for showing this payor.
    pub fn log(&self, conn: &mut DbConn, actor: &Actor, payor_id: &str) -> Result<(), ApiError> {
        actor.log_read(conn, &self.basis_for(payor_id), "payor", payor_id)
    }
}

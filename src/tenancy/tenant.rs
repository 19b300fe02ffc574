//! The tenant type and the actor: who a row, grant, client or request belongs to, and who acts.
//!
//! Contract: a [`Tenant`] is exactly one municipality or one zone (never both,
//! never neither); an [`Actor`] is exactly one person or one API client. Pure.

use crate::auth::ScopeKind;

/// A tenant: the municipality or the tourism zone a row, a grant, an API
/// client or a request belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tenant {
    /// A municipality (by id).
    Municipality(i64),
    /// A tourism zone (by id).
    Zone(i64),
}

impl Tenant {
    /// Which kind of tenant this is (the kind a role is granted in).
    pub fn kind(self) -> ScopeKind {
        match self {
            Tenant::Municipality(_) => ScopeKind::Municipality,
            Tenant::Zone(_) => ScopeKind::Zone,
        }
    }

    /// The municipality id, for a municipality.
    pub fn municipality_id(self) -> Option<i64> {
        match self {
            Tenant::Municipality(id) => Some(id),
            Tenant::Zone(_) => None,
        }
    }

    /// The zone id, for a zone.
    pub fn zone_id(self) -> Option<i64> {
        match self {
            Tenant::Zone(id) => Some(id),
            Tenant::Municipality(_) => None,
        }
    }

    /// The tenant of a row that carries both optional columns (an API client).
    pub fn from_columns(municipality_id: Option<i64>, zone_id: Option<i64>) -> Option<Self> {
        match (municipality_id, zone_id) {
            (Some(m), _) => Some(Tenant::Municipality(m)),
            (None, Some(z)) => Some(Tenant::Zone(z)),
            (None, None) => None,
        }
    }
}

/// The tenant an API client is bound to.
pub type ClientTenant = Tenant;

/// Who acts, as the access log and a policy version's source name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor<'a> {
    /// A person (user id).
    User(&'a str),
    /// An API client (client id).
    Client(&'a str),
}

impl<'a> Actor<'a> {
    /// `user` or `client`.
    pub fn kind(self) -> &'static str {
        match self {
            Actor::User(_) => "user",
            Actor::Client(_) => "client",
        }
    }

    /// The user or client id.
    pub fn id(self) -> &'a str {
        match self {
            Actor::User(id) | Actor::Client(id) => id,
        }
    }
}

impl std::fmt::Display for Actor<'_> {
    /// `user:ID` or `client:ID`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.kind(), self.id())
    }
}

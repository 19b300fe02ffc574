//! The one place that decides what a caller may do in a tenant.
//!
//! Contract: a [`Caller`] (who, with which grants, scopes and disclosures) is
//! loaded once per request by the extractor in `api::caller`; for a
//! municipality it yields a [`MunicipalityContext`] whose methods answer every
//! authorisation question, and whose [`MunicipalityContext::db_scope`] is what
//! row-level security sees. Deny by default. A caller with no relation to the
//! municipality gets 404 for anything confidential (it may not know the
//! resource exists); one with a role that does not allow an action gets 403.
//! Zones have the same shape in [`ZoneContext`] (module `zone`).
//! Pure: no I/O.

mod zone;

use chrono::NaiveDateTime;

pub use zone::{ZoneAction, ZoneContext};

use crate::{
    auth::{ApiScope, ConfidentialAccess, Role},
    error::ApiError,
};

/// Who is calling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// A person who signed in.
    User {
        /// User id.
        id: String,
        /// Sign-in email.
        email: String,
    },
    /// A third-party app (client credentials), bound to one tenant.
    Client {
        /// Client id.
        id: String,
        /// Its granted scopes.
        scopes: Vec<ApiScope>,
    },
}

/// One role grant the caller holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantRef {
    /// Grant id.
    pub id: String,
    /// The role.
    pub role: Role,
    /// The municipality, for municipality-scoped roles.
    pub municipality_id: Option<i64>,
    /// The zone, for zone-scoped roles.
    pub zone_id: Option<i64>,
    /// The payor an operator is bound to.
    pub payor_id: Option<String>,
}

/// A court order or legal duty the caller holds (payors are resolved per tenant).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisclosureRef {
    /// Disclosure grant id.
    pub id: String,
    /// Municipality it concerns.
    pub municipality_id: i64,
    /// When it stops.
    pub expires_at: NaiveDateTime,
}

/// An authenticated caller and everything it holds.
#[derive(Debug, Clone)]
pub struct Caller {
    /// Who.
    pub subject: Subject,
    /// Active role grants (for a client: one synthetic grant-like scope, see `client_tenant`).
    pub grants: Vec<GrantRef>,
    /// Active, unexpired disclosure grants.
    pub disclosures: Vec<DisclosureRef>,
    /// For a client: its one municipality or zone.
    pub client_tenant: Option<(Option<i64>, Option<i64>)>,
}

impl Caller {
    /// The actor id written to the access log.
    pub fn actor(&self) -> (&'static str, &str) {
        match &self.subject {
            Subject::User { id, .. } => ("user", id),
            Subject::Client { id, .. } => ("client", id),
        }
    }

    /// The user id, for a person.
    pub fn user_id(&self) -> Option<&str> {
        match &self.subject {
            Subject::User { id, .. } => Some(id),
            Subject::Client { .. } => None,
        }
    }

    /// Grants of this caller in one municipality.
    pub fn municipal_roles(&self, municipality_id: i64) -> impl Iterator<Item = &GrantRef> {
        self.grants
            .iter()
            .filter(move |g| g.municipality_id == Some(municipality_id))
    }

    /// Whether the caller holds `role` in the zone.
    pub fn has_zone_role(&self, zone_id: i64, role: Role) -> bool {
        self.grants
            .iter()
            .any(|g| g.zone_id == Some(zone_id) && g.role == role)
    }

    /// Whether the caller has any grant, disclosure or client binding touching the municipality or its zone.
    fn relates_to(&self, municipality_id: i64, zone_id: Option<i64>) -> bool {
        self.municipal_roles(municipality_id).next().is_some()
            || self
                .disclosures
                .iter()
                .any(|d| d.municipality_id == municipality_id)
            || zone_id.is_some_and(|z| self.grants.iter().any(|g| g.zone_id == Some(z)))
            || self
                .client_tenant
                .is_some_and(|(m, z)| m == Some(municipality_id) || (z.is_some() && z == zone_id))
    }

    /// What this caller may do in a municipality.
    pub fn in_municipality(
        &self,
        municipality_id: i64,
        zone_id: Option<i64>,
    ) -> MunicipalityContext {
        MunicipalityContext {
            caller: self.clone(),
            municipality_id,
            zone_id,
            related: self.relates_to(municipality_id, zone_id),
        }
    }
}

/// Which payors a caller may read in a municipality.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayorFilter {
    /// Every payor (clerk-treasurer, staff, a client with `payors:read`).
    All,
    /// Only these (an operator's own; a disclosure grant's named payors).
    Only(Vec<String>),
}

/// Actions that need more than reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Create, update and close payors and establishments.
    WritePayors,
    /// Manage users and role grants of the municipality.
    ManageUsers,
    /// Record policy versions.
    ManagePolicies,
    /// Record and revoke disclosure grants.
    ManageDisclosures,
    /// Read the access log.
    ReadAccessLog,
    /// Register and revoke API clients.
    ManageApiClients,
    /// Answer the zone invitations addressed to the municipality (accept or decline).
    AnswerZoneInvitations,
}

/// A caller inside one municipality: every authorisation question is answered here.
#[derive(Debug, Clone)]
pub struct MunicipalityContext {
    /// The caller.
    pub caller: Caller,
    /// The tenant.
    pub municipality_id: i64,
    /// The municipality's zone today, if any.
    pub zone_id: Option<i64>,
    related: bool,
}

/// The settings row-level security reads, for one transaction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DbScope {
    /// `app.municipality_id`.
    pub municipality_id: Option<i64>,
    /// `app.zone_id`.
    pub zone_id: Option<i64>,
    /// `app.user_id`.
    pub user_id: Option<String>,
    /// `app.client_id`.
    pub client_id: Option<String>,
}

impl MunicipalityContext {
    fn has_role(&self, roles: &[Role]) -> Option<&GrantRef> {
        self.caller
            .municipal_roles(self.municipality_id)
            .find(|g| roles.contains(&g.role))
    }

    fn client_scopes(&self) -> Option<&[ApiScope]> {
        match &self.caller.subject {
            Subject::Client { scopes, .. }
                if self
                    .caller
                    .client_tenant
                    .is_some_and(|(m, _)| m == Some(self.municipality_id)) =>
            {
                Some(scopes)
            }
            _ => None,
        }
    }

    /// The database scope for this tenant and caller: the municipality alone
    /// (its zone is left unset, so zone-wide rows such as zone grants stay out
    /// of reach of municipal requests).
    pub fn db_scope(&self) -> DbScope {
        let (kind, id) = self.caller.actor();
        DbScope {
            municipality_id: Some(self.municipality_id),
            zone_id: None,
            user_id: (kind == "user").then(|| id.to_owned()),
            client_id: (kind == "client").then(|| id.to_owned()),
        }
    }

    /// The 404 a caller gets for confidential resources it may not know of.
    fn hidden(what: &'static str) -> ApiError {
        ApiError::NotFound(what)
    }

    /// Which payors the caller may read, with the basis the access log records.
    /// Disclosure payors are resolved by the caller (they need the database):
    /// pass them in `disclosed`.
    pub fn payor_filter(&self, disclosed: &[String]) -> Result<(PayorFilter, String), ApiError> {
        if let Some(g) = self
            .caller
            .municipal_roles(self.municipality_id)
            .find(|g| g.role.confidential_access() == ConfidentialAccess::WholeMunicipality)
        {
            return Ok((PayorFilter::All, g.role.as_str().to_owned()));
        }
        if let Some(scopes) = self.client_scopes()
            && (scopes.contains(&ApiScope::PayorsRead) || scopes.contains(&ApiScope::PayorsWrite))
        {
            return Ok((PayorFilter::All, "api_client".to_owned()));
        }
        let own = self.own_payors();
        if !own.is_empty() {
            let mut all = own;
            all.extend(disclosed.iter().cloned());
            return Ok((PayorFilter::Only(all), Role::Operator.as_str().to_owned()));
        }
        if !disclosed.is_empty() {
            return Ok((
                PayorFilter::Only(disclosed.to_vec()),
                "disclosure".to_owned(),
            ));
        }
        Err(Self::hidden("payor"))
    }

    /// The payors the caller's grants bind it to here (an operator's own payor).
    pub fn own_payors(&self) -> Vec<String> {
        self.caller
            .municipal_roles(self.municipality_id)
            .filter(|g| g.role.confidential_access() == ConfidentialAccess::OwnPayorOnly)
            .filter_map(|g| g.payor_id.clone())
            .collect()
    }

    /// The disclosure grants the caller holds here (ids), to resolve their payors.
    pub fn disclosure_ids(&self) -> Vec<String> {
        self.caller
            .disclosures
            .iter()
            .filter(|d| d.municipality_id == self.municipality_id)
            .map(|d| d.id.clone())
            .collect()
    }

    /// Refuse unless the caller may perform `action` here: 404 without any relation
    /// to the municipality, 403 with one.
    pub fn require(&self, action: Action) -> Result<(), ApiError> {
        let allowed = match action {
            Action::WritePayors => {
                self.has_role(&[Role::ClerkTreasurer, Role::MunicipalStaff])
                    .is_some()
                    || self
                        .client_scopes()
                        .is_some_and(|s| s.contains(&ApiScope::PayorsWrite))
            }
            Action::ManageUsers
            | Action::ManagePolicies
            | Action::ManageDisclosures
            | Action::ManageApiClients
            | Action::AnswerZoneInvitations => self.has_role(&[Role::ClerkTreasurer]).is_some(),
            Action::ReadAccessLog => self.has_role(&[Role::ClerkTreasurer]).is_some(),
        };
        if allowed {
            Ok(())
        } else if self.related {
            Err(ApiError::Forbidden(format!(
                "your role in this municipality does not allow this ({action:?})"
            )))
        } else {
            Err(ApiError::NotFound("resource"))
        }
    }

    /// The basis recorded in the access log for a clerk-level action.
    pub fn role_basis(&self) -> String {
        self.caller
            .municipal_roles(self.municipality_id)
            .map(|g| g.role.as_str().to_owned())
            .next()
            .unwrap_or_else(|| "api_client".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(grants: Vec<GrantRef>) -> Caller {
        Caller {
            subject: Subject::User {
                id: "u1".into(),
                email: "a@b.c".into(),
            },
            grants,
            disclosures: vec![],
            client_tenant: None,
        }
    }

    fn grant(role: Role, m: Option<i64>, z: Option<i64>, payor: Option<&str>) -> GrantRef {
        GrantRef {
            id: "g".into(),
            role,
            municipality_id: m,
            zone_id: z,
            payor_id: payor.map(Into::into),
        }
    }

    #[test]
    fn clerks_see_all_operators_their_own_others_nothing() {
        let clerk = user(vec![grant(Role::ClerkTreasurer, Some(1), None, None)]);
        assert_eq!(
            clerk.in_municipality(1, None).payor_filter(&[]).unwrap().0,
            PayorFilter::All
        );
        assert!(matches!(
            clerk.in_municipality(2, None).payor_filter(&[]),
            Err(ApiError::NotFound(_))
        ));
        let op = user(vec![grant(Role::Operator, Some(1), None, Some("p1"))]);
        assert_eq!(
            op.in_municipality(1, None).payor_filter(&[]).unwrap().0,
            PayorFilter::Only(vec!["p1".into()])
        );
        assert!(matches!(
            op.in_municipality(1, None).require(Action::WritePayors),
            Err(ApiError::Forbidden(_))
        ));
        let commission = user(vec![grant(Role::CommissionMember, None, Some(7), None)]);
        assert!(matches!(
            commission.in_municipality(1, Some(7)).payor_filter(&[]),
            Err(ApiError::NotFound(_))
        ));
        assert!(matches!(
            commission
                .in_municipality(1, Some(7))
                .require(Action::ReadAccessLog),
            Err(ApiError::Forbidden(_))
        ));
        assert!(matches!(
            commission
                .in_municipality(2, None)
                .require(Action::ReadAccessLog),
            Err(ApiError::NotFound(_))
        ));
    }

    #[test]
    fn municipal_scopes_never_open_zone_rows() {
        let clerk = user(vec![grant(Role::ClerkTreasurer, Some(1), None, None)]);
        let scope = clerk.in_municipality(1, Some(7)).db_scope();
        assert_eq!(scope.municipality_id, Some(1));
        assert_eq!(
            scope.zone_id, None,
            "zone grants and zone clients stay out of reach"
        );
        assert_eq!(scope.user_id.as_deref(), Some("u1"));
    }

    #[test]
    fn disclosure_grantees_read_only_the_named_payors() {
        let grantee = user(vec![]);
        let ctx = grantee.in_municipality(1, None);
        assert!(ctx.payor_filter(&[]).is_err());
        let (filter, basis) = ctx.payor_filter(&["p9".into()]).unwrap();
        assert_eq!(filter, PayorFilter::Only(vec!["p9".into()]));
        assert_eq!(basis, "disclosure");
        assert!(ctx.require(Action::WritePayors).is_err());
    }
}

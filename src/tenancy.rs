//! The one place that decides what a caller may do in a tenant.
//!
//! Contract: a [`Caller`] (who, with which grants, scopes and disclosures) is
//! loaded once per request, inside the request's one unit of work (`api::caller`);
//! in a [`Tenant`] it yields a context whose methods answer every
//! authorisation question: [`MunicipalityContext`] for a municipality,
//! [`ZoneContext`] (module `zone`) for a zone, and whose `db_scope` is what
//! row-level security sees. Deny by default. A caller with no relation to the
//! tenant gets 404 for anything confidential (it may not know the resource
//! exists); one with a role that does not allow an action gets 403, whose
//! detail says in words what it may not do ([`Action::describe`]). Whether an
//! action needs a person (not an API client) is a property of the action.
//! Pure: no I/O.

mod tenant;
mod zone;

use chrono::NaiveDateTime;

pub use tenant::{Actor, ClientTenant, Tenant};
pub use zone::{ZoneAction, ZoneContext};

use crate::{
    auth::{ApiScope, ConfidentialAccess, Role},
    error::ApiError,
};

/// The refusal for an action the caller may not take: 403 when the caller is
/// related to the tenant (it knows the tenant exists), 404 otherwise.
fn refuse(related: bool, reason: String) -> ApiError {
    if related {
        ApiError::Forbidden(reason)
    } else {
        ApiError::NotFound("resource")
    }
}

/// Refuse an API client an action only a person may take (`needs_person`),
/// in either kind of tenant: 403 when related to the tenant, else 404.
fn refuse_client(
    caller: &Caller,
    related: bool,
    needs_person: bool,
    what: &str,
) -> Result<(), ApiError> {
    if needs_person && !caller.is_person() {
        return Err(refuse(related, format!("only a person may {what}")));
    }
    Ok(())
}

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
    /// Where it applies (a municipality role in a municipality, a zone role in a zone).
    pub tenant: Tenant,
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
    pub client_tenant: Option<ClientTenant>,
}

impl Caller {
    /// Who acts (the access log's actor).
    pub fn actor(&self) -> Actor<'_> {
        match &self.subject {
            Subject::User { id, .. } => Actor::User(id),
            Subject::Client { id, .. } => Actor::Client(id),
        }
    }

    /// The user id of a person. Every action that records the person
    /// responsible `needs_person`, so `require` has refused API clients before
    /// this is asked: an error here is a bug, not a refusal.
    pub fn person_id(&self) -> Result<&str, ApiError> {
        self.user_id().ok_or_else(|| {
            ApiError::internal("an action that needs a person reached an API client")
        })
    }

    /// Whether the caller is a person (not an API client).
    pub fn is_person(&self) -> bool {
        matches!(self.subject, Subject::User { .. })
    }

    /// The row-level-security settings for this caller in `tenant` (`None`: the
    /// caller alone, to load its own grants). A municipality's zone is never
    /// set, so zone-wide rows (zone grants, zone clients) stay out of reach of
    /// municipal requests, and a zone request sees no municipal tenant rows.
    pub fn db_scope(&self, tenant: Option<Tenant>) -> DbScope {
        let actor = self.actor();
        DbScope {
            municipality_id: tenant.and_then(Tenant::municipality_id),
            zone_id: tenant.and_then(Tenant::zone_id),
            user_id: matches!(actor, Actor::User(_)).then(|| actor.id().to_owned()),
            client_id: matches!(actor, Actor::Client(_)).then(|| actor.id().to_owned()),
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
            .filter(move |g| g.tenant == Tenant::Municipality(municipality_id))
    }

    /// Whether the caller holds `role` in the zone.
    pub fn has_zone_role(&self, zone_id: i64, role: Role) -> bool {
        self.grants
            .iter()
            .any(|g| g.tenant == Tenant::Zone(zone_id) && g.role == role)
    }

    /// Whether the caller has any grant, disclosure or client binding touching the municipality or its zone.
    fn relates_to(&self, municipality_id: i64, zone_id: Option<i64>) -> bool {
        self.municipal_roles(municipality_id).next().is_some()
            || self
                .disclosures
                .iter()
                .any(|d| d.municipality_id == municipality_id)
            || zone_id.is_some_and(|z| self.grants.iter().any(|g| g.tenant == Tenant::Zone(z)))
            || match self.client_tenant {
                Some(Tenant::Municipality(m)) => m == municipality_id,
                Some(Tenant::Zone(z)) => zone_id == Some(z),
                None => false,
            }
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

/// Actions in a municipality that need more than reading.
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
    /// See every payor's returns, filed or missing, and the marketplace reports.
    ReviewReturns,
    /// Grant or refuse extensions of the time to file.
    DecideExtensions,
    /// Record payments received and reverse bounced ones.
    RecordPayments,
    /// Make determinations (audits, non-filer estimates, fraud findings).
    MakeDeterminations,
    /// Require, receive, apply and return security deposits; issue clearance
    /// certificates; show a transfer's successor liability.
    EnforceCollection,
    /// Submit (and correct) the municipality's collected totals to its zone and
    /// record the transfer of the commission's share as paid.
    SubmitRemittances,
    /// Record the DOT's vehicle registration fee remittances and the fund's
    /// spending (Montello vehicle fee article).
    RecordVehicleFees,
}

impl Action {
    /// What the action does, in words, completing "your role may not ...":
    /// the 403 detail of a caller refused it.
    pub fn describe(self) -> &'static str {
        match self {
            Action::WritePayors => "change the payor registry",
            Action::ManageUsers => "manage the municipality's users and their roles",
            Action::ManagePolicies => "record policy versions",
            Action::ManageDisclosures => "record or revoke disclosure grants",
            Action::ReadAccessLog => "read the access log",
            Action::ManageApiClients => "register or revoke API clients",
            Action::AnswerZoneInvitations => "answer the municipality's zone invitations",
            Action::ReviewReturns => "review the municipality's returns",
            Action::DecideExtensions => "grant or refuse extensions",
            Action::RecordPayments => "record or reverse payments",
            Action::MakeDeterminations => "make determinations",
            Action::EnforceCollection => {
                "hold security deposits, issue clearance certificates or review transfers"
            }
            Action::SubmitRemittances => "submit remittances to the zone",
            Action::RecordVehicleFees => "record vehicle registration fee remittances or spending",
        }
    }

    /// Whether only a person may take it: what it records names the person
    /// responsible (who granted a role, recorded a disclosure, registered a
    /// client), which an API client cannot be.
    pub fn needs_person(self) -> bool {
        match self {
            Action::ManageUsers
            | Action::ManageDisclosures
            | Action::ManageApiClients
            | Action::AnswerZoneInvitations
            | Action::DecideExtensions
            | Action::RecordPayments => true,
            Action::MakeDeterminations => true,
            Action::EnforceCollection => true,
            Action::SubmitRemittances | Action::RecordVehicleFees => true,
            Action::WritePayors
            | Action::ManagePolicies
            | Action::ReadAccessLog
            | Action::ReviewReturns => false,
        }
    }
}

/// Whose marketplace reports a caller may read in a municipality.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarketplaceReading {
    /// Every provider's (the clerk-treasurer and staff).
    All,
    /// Only this provider's (its user id).
    Own(String),
}

/// Whose hand a return is filed by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnteredAs {
    /// The payor's own operator, online.
    Operator,
    /// The clerk-treasurer or staff, for the payor (a paper return).
    Staff,
}

impl EnteredAs {
    /// The stored and shown name.
    pub fn as_str(self) -> &'static str {
        match self {
            EnteredAs::Operator => "operator",
            EnteredAs::Staff => "staff",
        }
    }
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

impl DbScope {
    /// A user alone, in no tenant: the user's own grants and disclosures.
    pub fn user(user_id: &str) -> Self {
        Self {
            user_id: Some(user_id.to_owned()),
            ..Self::default()
        }
    }

    /// An API client alone, in no tenant: the client's own row.
    pub fn client(client_id: &str) -> Self {
        Self {
            client_id: Some(client_id.to_owned()),
            ..Self::default()
        }
    }

    /// A tenant alone, with no caller (the command line and the demo act for no one).
    pub fn tenant(tenant: Tenant) -> Self {
        Self {
            municipality_id: tenant.municipality_id(),
            zone_id: tenant.zone_id(),
            ..Self::default()
        }
    }
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
                if self.caller.client_tenant
                    == Some(Tenant::Municipality(self.municipality_id)) =>
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
        self.caller.db_scope(Some(self.tenant()))
    }

    /// This municipality as a tenant.
    pub fn tenant(&self) -> Tenant {
        Tenant::Municipality(self.municipality_id)
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

    /// The roles the caller holds here, and whether it holds a disclosure here:
    /// refused (404 without any relation, 403 with one, e.g. a zone role) when
    /// it holds neither. The web portal's municipal pages enter through this.
    pub fn require_presence(&self) -> Result<Vec<Role>, ApiError> {
        let roles: Vec<Role> = self
            .caller
            .municipal_roles(self.municipality_id)
            .map(|g| g.role)
            .collect();
        if roles.is_empty() && self.disclosure_ids().is_empty() {
            return Err(refuse(
                self.related,
                "you hold no role in this municipality".into(),
            ));
        }
        Ok(roles)
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
            // Staff act as the clerk-treasurer does, minus policy and user
            // administration (DESIGN §1); API clients get no access to returns.
            Action::ReviewReturns | Action::DecideExtensions | Action::RecordPayments => self
                .has_role(&[Role::ClerkTreasurer, Role::MunicipalStaff])
                .is_some(),
            // The ordinances give the determination to the Clerk-Treasurer
            // (Montello audit ¶A/¶B, non-filer estimate ¶; Hayward estimate):
            // staff read determinations but do not make them.
            Action::MakeDeterminations => self.has_role(&[Role::ClerkTreasurer]).is_some(),
            Action::EnforceCollection => self
                .has_role(&[Role::ClerkTreasurer, Role::MunicipalStaff])
                .is_some(),
            // The ordinance gives the distribution to the municipality (Montello
            // distribution ¶A): the clerk-treasurer confirms what is forwarded.
            Action::SubmitRemittances => self.has_role(&[Role::ClerkTreasurer]).is_some(),
            Action::RecordVehicleFees => self
                .has_role(&[Role::ClerkTreasurer, Role::MunicipalStaff])
                .is_some(),
        };
        if !allowed {
            return Err(refuse(
                self.related,
                format!(
                    "your role in this municipality may not {}",
                    action.describe()
                ),
            ));
        }
        refuse_client(
            &self.caller,
            self.related,
            action.needs_person(),
            action.describe(),
        )
    }

    /// Who may file (and amend, and ask an extension for) this payor's
    /// returns, and as whom: the clerk-treasurer and staff for any payor (a
    /// paper return entered for it), an operator for its own payor. Anyone
    /// else gets 404 for the payor, as if it did not exist: a return's payor
    /// is confidential (Montello room tax, confidentiality ¶).
    pub fn return_filer(&self, payor_id: &str) -> Result<EnteredAs, ApiError> {
        if self
            .has_role(&[Role::ClerkTreasurer, Role::MunicipalStaff])
            .is_some()
        {
            return Ok(EnteredAs::Staff);
        }
        if self.own_payors().iter().any(|p| p == payor_id) {
            return Ok(EnteredAs::Operator);
        }
        Err(Self::hidden("payor"))
    }

    /// Who may read this payor's statement of account, and on what basis
    /// (the access log's): the clerk-treasurer and staff for any payor, an
    /// operator for its own (issue 9 item 11: "an operator reads its own
    /// account ...; nobody else"). Anyone else, API clients and disclosure
    /// grantees included, gets 404 for the payor.
    pub fn account_reader(&self, payor_id: &str) -> Result<String, ApiError> {
        if !self.caller.is_person() {
            return Err(Self::hidden("payor"));
        }
        if let Some(g) = self.has_role(&[Role::ClerkTreasurer, Role::MunicipalStaff]) {
            return Ok(g.role.as_str().to_owned());
        }
        if self.own_payors().iter().any(|p| p == payor_id) {
            return Ok(Role::Operator.as_str().to_owned());
        }
        Err(Self::hidden("payor"))
    }

    /// Whether the caller is a marketplace provider here (files its own reports).
    pub fn marketplace_provider(&self) -> Option<&str> {
        match &self.caller.subject {
            Subject::User { id, .. } if self.has_role(&[Role::MarketplaceProvider]).is_some() => {
                Some(id)
            }
            _ => None,
        }
    }

    /// The marketplace provider filing here (its user id): 403 for anyone
    /// else related to the municipality, 404 for the unrelated.
    pub fn require_marketplace_provider(&self) -> Result<&str, ApiError> {
        let related = self.related;
        self.marketplace_provider().ok_or_else(|| {
            refuse(
                related,
                "your role in this municipality may not file marketplace reports".to_owned(),
            )
        })
    }

    /// Whose marketplace reports the caller may read here: every one
    /// (`Action::ReviewReturns`: the clerk-treasurer and staff), or a
    /// provider's own; anyone else related to the municipality 403, the
    /// unrelated 404.
    pub fn marketplace_reading(&self) -> Result<MarketplaceReading, ApiError> {
        if self.require(Action::ReviewReturns).is_ok() {
            return Ok(MarketplaceReading::All);
        }
        if let Some(id) = self.marketplace_provider() {
            return Ok(MarketplaceReading::Own(id.to_owned()));
        }
        Err(refuse(
            self.related,
            "your role in this municipality may not read marketplace reports".to_owned(),
        ))
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

/// Callers for the unit tests of this module and of `zone`.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// A person holding `grants`.
    pub fn user(grants: Vec<GrantRef>) -> Caller {
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

    /// A clerk-treasurer of the municipality `id`, holding nothing else.
    pub fn clerk_of(id: i64) -> Caller {
        user(vec![grant(
            Role::ClerkTreasurer,
            Tenant::Municipality(id),
            None,
        )])
    }

    /// A grant of `role` in `tenant` (an operator's payor in `payor`).
    pub fn grant(role: Role, tenant: Tenant, payor: Option<&str>) -> GrantRef {
        GrantRef {
            id: "g".into(),
            role,
            tenant,
            payor_id: payor.map(Into::into),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{clerk_of, grant, user};
    use super::*;

    #[test]
    fn clerks_see_all_operators_their_own_others_nothing() {
        let clerk = clerk_of(1);
        assert_eq!(
            clerk.in_municipality(1, None).payor_filter(&[]).unwrap().0,
            PayorFilter::All
        );
        assert!(matches!(
            clerk.in_municipality(2, None).payor_filter(&[]),
            Err(ApiError::NotFound(_))
        ));
        let op = user(vec![grant(
            Role::Operator,
            Tenant::Municipality(1),
            Some("p1"),
        )]);
        assert_eq!(
            op.in_municipality(1, None).payor_filter(&[]).unwrap().0,
            PayorFilter::Only(vec!["p1".into()])
        );
        assert!(matches!(
            op.in_municipality(1, None).require(Action::WritePayors),
            Err(ApiError::Forbidden(_))
        ));
        let commission = user(vec![grant(Role::CommissionMember, Tenant::Zone(7), None)]);
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
    fn refusals_say_in_words_what_the_role_may_not_do() {
        let op = user(vec![grant(
            Role::Operator,
            Tenant::Municipality(1),
            Some("p1"),
        )]);
        let Err(ApiError::Forbidden(detail)) =
            op.in_municipality(1, None).require(Action::WritePayors)
        else {
            panic!("an operator may not write the registry");
        };
        assert_eq!(
            detail,
            "your role in this municipality may not change the payor registry"
        );
        assert!(!detail.contains("WritePayors"), "{detail}");
    }

    #[test]
    fn actions_that_record_a_responsible_person_refuse_clients() {
        let client = Caller {
            subject: Subject::Client {
                id: "c1".into(),
                scopes: vec![ApiScope::PayorsWrite],
            },
            grants: vec![],
            disclosures: vec![],
            client_tenant: Some(Tenant::Municipality(1)),
        };
        let ctx = client.in_municipality(1, None);
        assert!(ctx.require(Action::WritePayors).is_ok());
        assert!(Action::ManageApiClients.needs_person());
        assert!(matches!(
            ctx.require(Action::ManageApiClients),
            Err(ApiError::Forbidden(_))
        ));
        assert_eq!(ctx.db_scope().client_id.as_deref(), Some("c1"));
        assert_eq!(ctx.db_scope().user_id, None);
    }

    #[test]
    fn municipal_scopes_never_open_zone_rows() {
        let clerk = clerk_of(1);
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

//! The role vocabulary: what a grant can make a user, and what an API client may do.
//!
//! Contract: [`Role`] names the seven grants of DESIGN section 1 with their wire names
//! (`clerk_treasurer`, ...), the kind of tenant each is scoped to, and whether it may
//! read confidential payor data (the ordinances' confidentiality paragraphs). These are
//! facts about a role; deciding a request also needs the grant's tenant and, for an
//! operator, its payor, which the tenant context holds. [`ApiScope`] names the OAuth2
//! scopes an API client can be granted, and which of them a zone's client may hold
//! ([`ApiScope::ZONE`]). Parsing refuses anything unknown.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The kind of tenant a grant is scoped to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ScopeKind {
    /// One municipality.
    Municipality,
    /// One tourism zone.
    Zone,
}

/// How much confidential payor data (returns, accounts, audits, registry entries) a role
/// may read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ConfidentialAccess {
    /// All of its municipality's payors.
    WholeMunicipality,
    /// Only the one payor the grant is bound to.
    OwnPayorOnly,
    /// None (a court-order or legal-duty disclosure grant may still give read access to
    /// named payors).
    None,
}

/// A role a user holds through a grant scoped to a municipality or a zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Administers the tax for one municipality: everything of that municipality.
    ClerkTreasurer,
    /// Officers, employees and agents of the clerk-treasurer: as the clerk-treasurer,
    /// minus policy changes and user administration.
    MunicipalStaff,
    /// A payor (lodging operator or its property manager), bound to one payor: files and
    /// sees its own returns and account, nothing of anyone else.
    Operator,
    /// A platform remitting for stays it facilitated: files and sees its own marketplace
    /// reports.
    MarketplaceProvider,
    /// The zone's tourism commission: distributions, per-municipality totals and reports,
    /// never an individual operator's return or account.
    CommissionMember,
    /// The zone's tourism promotion nonprofit: its expenditure reports and the
    /// distributions to the commission.
    TourismEntity,
    /// Runs the platform for a zone: zones, membership, municipalities, users; no
    /// confidential operator data.
    ZoneAdmin,
}

/// The text was not a role name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown role `{0}`; expected one of clerk_treasurer, municipal_staff, operator, marketplace_provider, commission_member, tourism_entity, zone_admin"
)]
pub struct UnknownRole(String);

impl Role {
    /// Every role, in the order of DESIGN section 1's table.
    pub const ALL: [Role; 7] = [
        Role::Operator,
        Role::MarketplaceProvider,
        Role::ClerkTreasurer,
        Role::MunicipalStaff,
        Role::CommissionMember,
        Role::TourismEntity,
        Role::ZoneAdmin,
    ];

    /// The wire and database name (`clerk_treasurer`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::ClerkTreasurer => "clerk_treasurer",
            Role::MunicipalStaff => "municipal_staff",
            Role::Operator => "operator",
            Role::MarketplaceProvider => "marketplace_provider",
            Role::CommissionMember => "commission_member",
            Role::TourismEntity => "tourism_entity",
            Role::ZoneAdmin => "zone_admin",
        }
    }

    /// The role named `name` (exact wire name).
    pub fn parse(name: &str) -> Result<Self, UnknownRole> {
        Self::ALL
            .into_iter()
            .find(|role| role.as_str() == name)
            .ok_or_else(|| UnknownRole(name.chars().take(64).collect()))
    }

    /// The kind of tenant a grant of this role names: operators, marketplace providers,
    /// clerk-treasurers and municipal staff belong to a municipality; commission members,
    /// tourism entities and zone admins to a zone.
    pub fn scope_kind(self) -> ScopeKind {
        match self {
            Role::ClerkTreasurer
            | Role::MunicipalStaff
            | Role::Operator
            | Role::MarketplaceProvider => ScopeKind::Municipality,
            Role::CommissionMember | Role::TourismEntity | Role::ZoneAdmin => ScopeKind::Zone,
        }
    }

    /// Whether the role may read confidential payor data at all: true for the
    /// clerk-treasurer and municipal staff (their whole municipality) and for an
    /// operator, **but for an operator only its own payor's data** (see
    /// [`Role::confidential_access`]); false for the others.
    pub fn sees_confidential(self) -> bool {
        self.confidential_access() != ConfidentialAccess::None
    }

    /// How far the role's reading of confidential payor data reaches.
    pub fn confidential_access(self) -> ConfidentialAccess {
        match self {
            Role::ClerkTreasurer | Role::MunicipalStaff => ConfidentialAccess::WholeMunicipality,
            Role::Operator => ConfidentialAccess::OwnPayorOnly,
            Role::MarketplaceProvider
            | Role::CommissionMember
            | Role::TourismEntity
            | Role::ZoneAdmin => ConfidentialAccess::None,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = UnknownRole;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

/// An OAuth2 scope an API client can be granted, within its one municipality or zone.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
pub enum ApiScope {
    /// Read the payor registry.
    #[serde(rename = "payors:read")]
    PayorsRead,
    /// Create and update payors and establishments.
    #[serde(rename = "payors:write")]
    PayorsWrite,
    /// Reserved: read returns. Returns are not open to API clients yet (a
    /// client is tenant-wide and would see every payor's returns); a token with
    /// this scope is refused on every returns operation (404).
    #[serde(rename = "returns:read")]
    ReturnsRead,
    /// Reserved: file and amend returns (refused like `returns:read` for now).
    #[serde(rename = "returns:write")]
    ReturnsWrite,
    /// Read policy versions.
    #[serde(rename = "policies:read")]
    PoliciesRead,
    /// Request tax quotes.
    #[serde(rename = "quotes:write")]
    QuotesWrite,
}

impl ApiScope {
    /// Every scope.
    pub const ALL: [ApiScope; 6] = [
        ApiScope::PayorsRead,
        ApiScope::PayorsWrite,
        ApiScope::ReturnsRead,
        ApiScope::ReturnsWrite,
        ApiScope::PoliciesRead,
        ApiScope::QuotesWrite,
    ];

    /// The wire name (`payors:read`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            ApiScope::PayorsRead => "payors:read",
            ApiScope::PayorsWrite => "payors:write",
            ApiScope::ReturnsRead => "returns:read",
            ApiScope::ReturnsWrite => "returns:write",
            ApiScope::PoliciesRead => "policies:read",
            ApiScope::QuotesWrite => "quotes:write",
        }
    }

    /// The scope named `name` (exact wire name).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|scope| scope.as_str() == name)
    }

    /// The scopes a zone's API client may hold: only those that read no
    /// municipal confidential data. A zone has no payors or returns of its
    /// own, and a zone-wide payor scope would be a hole waiting for an endpoint.
    pub const ZONE: [ApiScope; 2] = [ApiScope::PoliciesRead, ApiScope::QuotesWrite];

    /// Whether a client bound to a tenant of `kind` may hold this scope.
    pub fn allowed_in(self, kind: ScopeKind) -> bool {
        match kind {
            ScopeKind::Municipality => true,
            ScopeKind::Zone => Self::ZONE.contains(&self),
        }
    }
}

impl fmt::Display for ApiScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses an OAuth2 `scope` parameter (RFC 6749 section 3.3: names separated by spaces)
/// into distinct scopes in first-seen order. Empty or blank text gives no scopes (the
/// token endpoint then grants the client's registered scopes). Any unknown name refuses
/// the whole parameter, with a message fit for an `invalid_scope` error.
pub fn parse_scopes(text: &str) -> Result<Vec<ApiScope>, String> {
    let mut scopes = Vec::new();
    for name in text.split_ascii_whitespace() {
        let scope = ApiScope::parse(name).ok_or_else(|| {
            let shown: String = name.chars().take(64).collect();
            format!("unknown scope `{shown}`")
        })?;
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    Ok(scopes)
}

/// The space-separated form of `scopes`, for a token's `scope` claim and responses.
pub fn format_scopes(scopes: &[ApiScope]) -> String {
    scopes
        .iter()
        .map(|scope| scope.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn role_names_round_trip_through_text_and_json() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Ok(role));
            assert_eq!(role.to_string().parse::<Role>(), Ok(role));
            let json = serde_json::to_string(&role).unwrap();
            assert_eq!(json, format!("\"{}\"", role.as_str()));
            assert_eq!(serde_json::from_str::<Role>(&json).unwrap(), role);
        }
        assert!(Role::parse("Clerk_Treasurer").is_err());
        assert!(Role::parse("admin").is_err());
        assert!(serde_json::from_str::<Role>("\"superuser\"").is_err());
    }

    #[test]
    fn scope_kinds_follow_the_design() {
        use Role::*;
        for role in [
            ClerkTreasurer,
            MunicipalStaff,
            Operator,
            MarketplaceProvider,
        ] {
            assert_eq!(role.scope_kind(), ScopeKind::Municipality, "{role}");
        }
        for role in [CommissionMember, TourismEntity, ZoneAdmin] {
            assert_eq!(role.scope_kind(), ScopeKind::Zone, "{role}");
        }
    }

    #[test]
    fn only_the_clerk_side_and_the_operator_itself_see_confidential_data() {
        use Role::*;
        let seeing: Vec<Role> = Role::ALL
            .into_iter()
            .filter(|r| r.sees_confidential())
            .collect();
        assert_eq!(seeing, [Operator, ClerkTreasurer, MunicipalStaff]);
        assert_eq!(
            Operator.confidential_access(),
            ConfidentialAccess::OwnPayorOnly
        );
        assert_eq!(ZoneAdmin.confidential_access(), ConfidentialAccess::None);
        assert_eq!(
            ClerkTreasurer.confidential_access(),
            ConfidentialAccess::WholeMunicipality
        );
    }

    #[test]
    fn scopes_parse_dedupe_and_refuse_unknown_names() {
        assert_eq!(
            parse_scopes("payors:read  returns:write payors:read"),
            Ok(vec![ApiScope::PayorsRead, ApiScope::ReturnsWrite])
        );
        assert_eq!(parse_scopes(""), Ok(vec![]));
        assert_eq!(parse_scopes("   "), Ok(vec![]));
        let err = parse_scopes("payors:read payors:delete").unwrap_err();
        assert!(err.contains("payors:delete"), "{err}");
        assert!(parse_scopes("PAYORS:READ").is_err());
        assert!(parse_scopes(&"x".repeat(10_000)).unwrap_err().len() < 100);
        for scope in ApiScope::ALL {
            assert_eq!(ApiScope::parse(scope.as_str()), Some(scope));
            let json = serde_json::to_string(&scope).unwrap();
            assert_eq!(json, format!("\"{scope}\""));
        }
        assert_eq!(
            format_scopes(&[ApiScope::PoliciesRead, ApiScope::QuotesWrite]),
            "policies:read quotes:write"
        );
    }

    #[test]
    fn schemas_list_the_wire_names() {
        use utoipa::PartialSchema as _;
        let roles = serde_json::to_value(Role::schema()).unwrap();
        let names: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
        for name in &names {
            assert!(
                roles.to_string().contains(&format!("\"{name}\"")),
                "{roles}"
            );
        }
        let scopes = serde_json::to_value(ApiScope::schema())
            .unwrap()
            .to_string();
        assert!(scopes.contains("\"payors:read\"") && scopes.contains("\"quotes:write\""));
    }

    #[test]
    fn zone_clients_hold_no_scope_that_reads_payor_data() {
        for scope in ApiScope::ALL {
            assert!(scope.allowed_in(ScopeKind::Municipality), "{scope}");
        }
        let zone: Vec<_> = ApiScope::ALL
            .into_iter()
            .filter(|s| s.allowed_in(ScopeKind::Zone))
            .collect();
        assert_eq!(zone, vec![ApiScope::PoliciesRead, ApiScope::QuotesWrite]);
    }
}

//! A caller inside one tourism zone (`Tenant::Zone`).
//!
//! Contract: each [`ZoneAction`] names the zone roles that may take it
//! ([`ZoneAction::roles`]): only a `zone_admin` administers the zone (its role
//! grants, invitations and membership, API clients, the commission roster);
//! the zone admin alone reads the zone's access log (its attachments' reads:
//! who, which record, when; no record's content); the zone admin,
//! commission members and the tourism entity read the
//! members' remittances, seats and totals; the tourism entity files its
//! expenditure reports; commission members review them. No zone role ever
//! gains confidential municipal data (an operator's return or account). A
//! member municipality's clerk-treasurer reaches its own side of the zone
//! (its report back, its inspection requests) through
//! [`ZoneContext::member_clerk_of`]. A caller with no relation to the zone
//! (no grant in it, no client bound to it, no role in a current member
//! municipality) gets 404; one with a relation but without the role gets 403
//! saying what it may not do. Actions that record the person responsible
//! refuse API clients. Pure: no I/O.

use super::{Caller, DbScope, Tenant, refuse, refuse_client};
use crate::{auth::Role, error::ApiError};

/// Zone actions, each with the zone roles that may take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneAction {
    /// Grant and revoke zone roles.
    ManageUsers,
    /// Invite municipalities into the zone, withdraw invitations, record leaving.
    ManageMembership,
    /// Register and revoke the zone's API clients.
    ManageApiClients,
    /// Keep the commission roster (members, affiliations, industry seats).
    ManageRoster,
    /// Review the zone's access log (who read which attachment, when).
    ReadAccessLog,
    /// Read the members' remittances, seats and per-municipality totals
    /// (never an operator's figures).
    ReadDistributions,
    /// File and amend the tourism entity's expenditure reports.
    FileExpenditureReports,
    /// Read expenditure reports, their items, reviews and attachments.
    ReadExpenditureReports,
    /// Comment on, question, accept or return expenditure reports; record the
    /// answers to inspection requests.
    ReviewExpenditureReports,
}

impl ZoneAction {
    /// What the action does, in words, completing "your role in this zone may not ...".
    pub fn describe(self) -> &'static str {
        match self {
            ZoneAction::ManageUsers => "manage the zone's users and their roles",
            ZoneAction::ManageMembership => "manage the zone's municipalities and membership",
            ZoneAction::ManageApiClients => "register or revoke the zone's API clients",
            ZoneAction::ManageRoster => "keep the commission roster",
            ZoneAction::ReadAccessLog => "read the zone's access log",
            ZoneAction::ReadDistributions => "read the members' remittances and totals",
            ZoneAction::FileExpenditureReports => "file or amend expenditure reports",
            ZoneAction::ReadExpenditureReports => "read expenditure reports",
            ZoneAction::ReviewExpenditureReports => "review expenditure reports",
        }
    }

    /// The zone roles that may take the action (DESIGN §1).
    pub fn roles(self) -> &'static [Role] {
        match self {
            ZoneAction::ManageUsers
            | ZoneAction::ManageMembership
            | ZoneAction::ManageApiClients
            | ZoneAction::ManageRoster
            | ZoneAction::ReadAccessLog => &[Role::ZoneAdmin],
            ZoneAction::ReadDistributions => {
                &[Role::ZoneAdmin, Role::CommissionMember, Role::TourismEntity]
            }
            ZoneAction::FileExpenditureReports => &[Role::TourismEntity],
            ZoneAction::ReadExpenditureReports => &[Role::CommissionMember, Role::TourismEntity],
            ZoneAction::ReviewExpenditureReports => &[Role::CommissionMember],
        }
    }

    /// Whether only a person may take it: what it records names the person
    /// responsible. Reading may be done by a zone's API client.
    pub fn needs_person(self) -> bool {
        !matches!(
            self,
            ZoneAction::ReadDistributions | ZoneAction::ReadExpenditureReports
        )
    }
}

/// What a caller may do in one zone.
#[derive(Debug, Clone)]
pub struct ZoneContext {
    /// The caller.
    pub caller: Caller,
    /// The zone.
    pub zone_id: i64,
    related: bool,
}

impl Caller {
    /// What this caller may do in the zone whose current members are `member_ids`.
    pub fn in_zone(&self, zone_id: i64, member_ids: &[i64]) -> ZoneContext {
        let related = self.grants.iter().any(|g| match g.tenant {
            Tenant::Zone(z) => z == zone_id,
            Tenant::Municipality(m) => member_ids.contains(&m),
        }) || match self.client_tenant {
            Some(Tenant::Zone(z)) => z == zone_id,
            Some(Tenant::Municipality(m)) => member_ids.contains(&m),
            None => false,
        };
        ZoneContext {
            caller: self.clone(),
            zone_id,
            related,
        }
    }
}

impl ZoneContext {
    /// The roles the caller holds in this zone; refused (404) when none: the
    /// web portal's zone pages enter through this.
    pub fn require_presence(&self) -> Result<Vec<Role>, ApiError> {
        let roles: Vec<Role> = self
            .caller
            .grants
            .iter()
            .filter(|g| g.tenant == Tenant::Zone(self.zone_id))
            .map(|g| g.role)
            .collect();
        if roles.is_empty() {
            return Err(ApiError::NotFound("zone"));
        }
        Ok(roles)
    }

    /// Refuse unless the caller holds one of the action's roles here: 404
    /// without any relation to the zone, 403 with one.
    pub fn require(&self, action: ZoneAction) -> Result<(), ApiError> {
        let roles = action.roles();
        if !roles
            .iter()
            .any(|r| self.caller.has_zone_role(self.zone_id, *r))
        {
            let names: Vec<&str> = roles.iter().map(|r| r.as_str()).collect();
            return Err(refuse(
                self.related,
                format!(
                    "only a {} of this zone may {}",
                    names.join(" or "),
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

    /// Whether the caller is the clerk-treasurer of `municipality_id` (a
    /// member of this zone, which the caller of this method has checked): the
    /// member's own side of the zone (its report back, its inspection
    /// requests). A person only: what it records names the clerk.
    pub fn member_clerk_of(&self, municipality_id: i64) -> bool {
        self.caller.is_person()
            && self
                .caller
                .municipal_roles(municipality_id)
                .any(|g| g.role == Role::ClerkTreasurer)
    }

    /// Whether the caller has any relation to the zone (a refusal answers 403
    /// when it has, 404 when not).
    pub fn is_related(&self) -> bool {
        self.related
    }

    /// Refuse with the zone's rule: 403 naming `reason` when the caller is
    /// related to the zone, 404 when not.
    pub fn refuse(&self, reason: String) -> ApiError {
        refuse(self.related, reason)
    }

    /// This zone as a tenant.
    pub fn tenant(&self) -> Tenant {
        Tenant::Zone(self.zone_id)
    }

    /// The database scope for this zone and caller (no municipality: a zone
    /// transaction sees no municipal tenant rows).
    pub fn db_scope(&self) -> DbScope {
        self.caller.db_scope(Some(self.tenant()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tenancy::fixtures::{clerk_of, grant, user};

    /// The status a refusal answers with (`ok` when allowed).
    fn status_of(answer: Result<(), ApiError>) -> &'static str {
        match answer {
            Ok(()) => "ok",
            Err(ApiError::NotFound(_)) => "404",
            Err(ApiError::Forbidden(_)) => "403",
            Err(_) => "other",
        }
    }

    #[test]
    fn only_zone_admins_administer_the_zone() {
        let admin = user(vec![grant(Role::ZoneAdmin, Tenant::Zone(7), None)]);
        assert_eq!(
            status_of(admin.in_zone(7, &[1]).require(ZoneAction::ManageUsers)),
            "ok"
        );
        assert_eq!(
            status_of(admin.in_zone(8, &[]).require(ZoneAction::ManageUsers)),
            "404"
        );
        let commission = user(vec![grant(Role::CommissionMember, Tenant::Zone(7), None)]);
        let answer = commission
            .in_zone(7, &[1])
            .require(ZoneAction::ManageMembership);
        assert_eq!(status_of(answer), "403");
        // A member municipality's clerk is related to the zone, another clerk is not.
        for (clerk, refused) in [(clerk_of(1), "403"), (clerk_of(2), "404")] {
            let answer = clerk.in_zone(7, &[1]).require(ZoneAction::ManageApiClients);
            assert_eq!(status_of(answer), refused);
        }
        // Zone roles beyond the admin: reading, filing and reviewing.
        let entity = user(vec![grant(Role::TourismEntity, Tenant::Zone(7), None)]);
        for (who, action, answer) in [
            (&commission, ZoneAction::ReadDistributions, "ok"),
            (&entity, ZoneAction::ReadDistributions, "ok"),
            (&admin, ZoneAction::ReadDistributions, "ok"),
            (&entity, ZoneAction::FileExpenditureReports, "ok"),
            (&commission, ZoneAction::FileExpenditureReports, "403"),
            (&commission, ZoneAction::ReviewExpenditureReports, "ok"),
            (&entity, ZoneAction::ReviewExpenditureReports, "403"),
            (&admin, ZoneAction::ReadExpenditureReports, "403"),
            (&entity, ZoneAction::ManageRoster, "403"),
        ] {
            assert_eq!(
                status_of(who.in_zone(7, &[1]).require(action)),
                answer,
                "{action:?}"
            );
        }
        assert!(clerk_of(1).in_zone(7, &[1]).member_clerk_of(1));
        assert!(!clerk_of(1).in_zone(7, &[1]).member_clerk_of(2));
        let scope = admin.in_zone(7, &[1]).db_scope();
        assert_eq!(scope.zone_id, Some(7));
        assert_eq!(scope.municipality_id, None);
        assert_eq!(scope.user_id.as_deref(), Some("u1"));
    }
}

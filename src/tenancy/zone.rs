//! A caller inside one tourism zone (`Tenant::Zone`).
//!
//! Contract: only a `zone_admin` grant of this zone administers it (its role
//! grants, invitations and membership, and API clients); a zone admin never
//! gains confidential municipal data from that role. A caller with no
//! relation to the zone (no grant in it, no client bound to it, no role in a
//! current member municipality) gets 404 for its administration; one with a
//! relation but without the role gets 403 saying what it may not do. Every
//! zone action records the person responsible, so API clients are refused.
//! Pure: no I/O.

use super::{Caller, DbScope, Tenant, refuse, refuse_client};
use crate::{auth::Role, error::ApiError};

/// Zone actions; every one needs `zone_admin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoneAction {
    /// Grant and revoke zone roles.
    ManageUsers,
    /// Invite municipalities into the zone, withdraw invitations, record leaving.
    ManageMembership,
    /// Register and revoke the zone's API clients.
    ManageApiClients,
}

impl ZoneAction {
    /// What the action does, in words, completing "only a zone_admin of this zone may ...".
    pub fn describe(self) -> &'static str {
        match self {
            ZoneAction::ManageUsers => "manage the zone's users and their roles",
            ZoneAction::ManageMembership => "manage the zone's municipalities and membership",
            ZoneAction::ManageApiClients => "register or revoke the zone's API clients",
        }
    }

    /// Whether only a person may take it: every zone action does (what it
    /// records names the person responsible).
    pub fn needs_person(self) -> bool {
        true
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
    /// Refuse unless the caller is a zone admin here: 404 without any relation
    /// to the zone, 403 with one.
    pub fn require(&self, action: ZoneAction) -> Result<(), ApiError> {
        if !self.caller.has_zone_role(self.zone_id, Role::ZoneAdmin) {
            return Err(refuse(
                self.related,
                format!("only a zone_admin of this zone may {}", action.describe()),
            ));
        }
        refuse_client(
            &self.caller,
            self.related,
            action.needs_person(),
            action.describe(),
        )
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
        let scope = admin.in_zone(7, &[1]).db_scope();
        assert_eq!(scope.zone_id, Some(7));
        assert_eq!(scope.municipality_id, None);
        assert_eq!(scope.user_id.as_deref(), Some("u1"));
    }
}

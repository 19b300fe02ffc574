//! A caller inside one tourism zone: the zone-side twin of `MunicipalityContext`.
//!
//! Contract: only a `zone_admin` grant of this zone administers it (its role
//! grants, invitations and membership, and API clients); a zone admin never
//! gains confidential municipal data from that role. A caller with no
//! relation to the zone (no grant in it, no client bound to it, no role in a
//! current member municipality) gets 404 for its administration; one with a
//! relation but without the role gets 403. Pure: no I/O.

use super::{Caller, DbScope};
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
        let related = self.grants.iter().any(|g| {
            g.zone_id == Some(zone_id) || g.municipality_id.is_some_and(|m| member_ids.contains(&m))
        }) || self
            .client_tenant
            .is_some_and(|(m, z)| z == Some(zone_id) || m.is_some_and(|m| member_ids.contains(&m)));
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
        if self.caller.has_zone_role(self.zone_id, Role::ZoneAdmin) {
            Ok(())
        } else if self.related {
            Err(ApiError::Forbidden(format!(
                "only a zone_admin of this zone may do this ({action:?})"
            )))
        } else {
            Err(ApiError::NotFound("resource"))
        }
    }

    /// The database scope for this zone and caller (no municipality: a zone
    /// transaction sees no municipal tenant rows).
    pub fn db_scope(&self) -> DbScope {
        let (kind, id) = self.caller.actor();
        DbScope {
            municipality_id: None,
            zone_id: Some(self.zone_id),
            user_id: (kind == "user").then(|| id.to_owned()),
            client_id: (kind == "client").then(|| id.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tenancy::{GrantRef, Subject};

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

    fn grant(role: Role, m: Option<i64>, z: Option<i64>) -> GrantRef {
        GrantRef {
            id: "g".into(),
            role,
            municipality_id: m,
            zone_id: z,
            payor_id: None,
        }
    }

    #[test]
    fn only_zone_admins_administer_the_zone() {
        let admin = user(vec![grant(Role::ZoneAdmin, None, Some(7))]);
        assert!(
            admin
                .in_zone(7, &[1])
                .require(ZoneAction::ManageUsers)
                .is_ok()
        );
        assert!(matches!(
            admin.in_zone(8, &[]).require(ZoneAction::ManageUsers),
            Err(ApiError::NotFound(_))
        ));
        let commission = user(vec![grant(Role::CommissionMember, None, Some(7))]);
        assert!(matches!(
            commission
                .in_zone(7, &[1])
                .require(ZoneAction::ManageMembership),
            Err(ApiError::Forbidden(_))
        ));
        let member_clerk = user(vec![grant(Role::ClerkTreasurer, Some(1), None)]);
        assert!(matches!(
            member_clerk
                .in_zone(7, &[1])
                .require(ZoneAction::ManageApiClients),
            Err(ApiError::Forbidden(_))
        ));
        let other_clerk = user(vec![grant(Role::ClerkTreasurer, Some(2), None)]);
        assert!(matches!(
            other_clerk
                .in_zone(7, &[1])
                .require(ZoneAction::ManageApiClients),
            Err(ApiError::NotFound(_))
        ));
        let scope = admin.in_zone(7, &[1]).db_scope();
        assert_eq!(scope.zone_id, Some(7));
        assert_eq!(scope.municipality_id, None);
        assert_eq!(scope.user_id.as_deref(), Some("u1"));
    }
}

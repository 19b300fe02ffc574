//! The request and response types of the grant routes, one set per kind of
//! tenant (the document describes them apart: a zone grant has no
//! `payor_id`), and how the core fills them.
//!
//! Contract: a zone's shapes are the municipality's without `payor_id`, so
//! the core always builds the municipality's shape from the stored grant
//! (`TryFrom<Shown>`) and converts it to the tenant's (`From`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{GrantBody, GrantPage, Shown};
use crate::{
    api::admin::{GrantUser, utc},
    auth::Role,
    error::ApiError,
};

/// A role to grant in the municipality, to an existing or a new user.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GrantRequest {
    /// The user's sign-in email; an account is created when none has it.
    #[schema(example = "deputy@montello.example")]
    pub email: String,
    /// Name shown to people, 1 to 200 characters (used only when the user is created now).
    #[schema(example = "Deputy Clerk")]
    pub display_name: String,
    /// A municipality role: `clerk_treasurer`, `municipal_staff`, `operator` or `marketplace_provider`.
    #[schema(value_type = Role)]
    pub role: String,
    /// The payor an `operator` acts for (required for an operator, refused for any other role).
    pub payor_id: Option<String>,
    /// Initial password (at least 12 characters), required when the user is created now;
    /// ignored for an existing user, whose password an administrator never sets.
    #[schema(format = Password)]
    pub password: Option<String>,
}

/// A zone role to grant, to an existing or a new user.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneGrantRequest {
    /// The user's sign-in email; an account is created when none has it.
    #[schema(example = "member@commission.example")]
    pub email: String,
    /// Name shown to people, 1 to 200 characters (used only when the user is created now).
    pub display_name: String,
    /// A zone role: `commission_member`, `tourism_entity` or `zone_admin`.
    #[schema(value_type = Role)]
    pub role: String,
    /// Initial password (at least 12 characters), required when the user is created now;
    /// ignored for an existing user, whose password an administrator never sets.
    #[schema(format = Password)]
    pub password: Option<String>,
}

impl GrantBody for GrantRequest {
    type Shape = MunicipalityGrant;
    type Created = CreatedMunicipalityGrant;
    fn into_request(self) -> GrantRequest {
        self
    }
}

impl GrantBody for ZoneGrantRequest {
    type Shape = ZoneGrant;
    type Created = CreatedZoneGrant;
    fn into_request(self) -> GrantRequest {
        let ZoneGrantRequest {
            email,
            display_name,
            role,
            password,
        } = self;
        GrantRequest {
            email,
            display_name,
            role,
            payor_id: None,
            password,
        }
    }
}

/// A role grant in a municipality.
#[derive(Debug, Serialize, ToSchema)]
pub struct MunicipalityGrant {
    /// Grant id.
    pub id: String,
    /// The role granted.
    pub role: Role,
    /// The user holding it.
    pub user: GrantUser,
    /// The payor an operator acts for.
    pub payor_id: Option<String>,
    /// When it was granted (UTC).
    pub created_at: DateTime<Utc>,
    /// User id of who granted it (null for grants made by the command line or the demo).
    pub created_by: Option<String>,
    /// When it was revoked (UTC); null while active.
    pub revoked_at: Option<DateTime<Utc>>,
    /// Whether it is in force (not revoked).
    pub active: bool,
}

impl TryFrom<Shown> for MunicipalityGrant {
    type Error = ApiError;
    fn try_from((row, user): Shown) -> Result<Self, ApiError> {
        Ok(MunicipalityGrant {
            role: Role::parse(&row.role).map_err(ApiError::internal)?,
            id: row.id,
            user,
            payor_id: row.payor_id,
            created_at: utc(row.created_at),
            created_by: row.created_by,
            active: row.revoked_at.is_none(),
            revoked_at: row.revoked_at.map(utc),
        })
    }
}

/// A role grant in a zone.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneGrant {
    /// Grant id.
    pub id: String,
    /// The role granted.
    pub role: Role,
    /// The user holding it.
    pub user: GrantUser,
    /// When it was granted (UTC).
    pub created_at: DateTime<Utc>,
    /// User id of who granted it (null for grants made by the command line or the demo).
    pub created_by: Option<String>,
    /// When it was revoked (UTC); null while active.
    pub revoked_at: Option<DateTime<Utc>>,
    /// Whether it is in force (not revoked).
    pub active: bool,
}

/// The municipality's shape without `payor_id` (a zone role has none).
impl From<MunicipalityGrant> for ZoneGrant {
    fn from(g: MunicipalityGrant) -> Self {
        ZoneGrant {
            id: g.id,
            role: g.role,
            user: g.user,
            created_at: g.created_at,
            created_by: g.created_by,
            revoked_at: g.revoked_at,
            active: g.active,
        }
    }
}

/// The grant just made.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedMunicipalityGrant {
    /// The grant.
    #[serde(flatten)]
    pub grant: MunicipalityGrant,
    /// Whether the user account was created by this request (false: an existing account was granted the role).
    pub user_created: bool,
}

/// The zone grant just made.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedZoneGrant {
    /// The grant.
    #[serde(flatten)]
    pub grant: ZoneGrant,
    /// Whether the user account was created by this request.
    pub user_created: bool,
}

impl From<(MunicipalityGrant, bool)> for CreatedMunicipalityGrant {
    fn from((grant, user_created): (MunicipalityGrant, bool)) -> Self {
        Self {
            grant,
            user_created,
        }
    }
}

impl From<(ZoneGrant, bool)> for CreatedZoneGrant {
    fn from((grant, user_created): (ZoneGrant, bool)) -> Self {
        Self {
            grant,
            user_created,
        }
    }
}

/// A page of grants.
#[derive(Debug, Serialize, ToSchema)]
pub struct MunicipalityGrantList {
    /// Grants on this page, newest first.
    pub items: Vec<MunicipalityGrant>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// A page of zone grants.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneGrantList {
    /// Grants on this page, newest first.
    pub items: Vec<ZoneGrant>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

impl GrantPage for MunicipalityGrantList {
    type Item = MunicipalityGrant;
    fn of(items: Vec<MunicipalityGrant>, next_cursor: Option<String>) -> Self {
        Self { items, next_cursor }
    }
}

impl GrantPage for ZoneGrantList {
    type Item = ZoneGrant;
    fn of(items: Vec<ZoneGrant>, next_cursor: Option<String>) -> Self {
        Self { items, next_cursor }
    }
}

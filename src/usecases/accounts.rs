//! Creating users and granting roles: one implementation for the demo, the
//! `roomtax admin create-user` command and the user-administration API.
//!
//! Contract: a role is granted only in a tenant of its kind (municipality
//! roles in a municipality, zone roles in a zone); an operator grant names a
//! payor of that municipality; a user holds a role (for an operator: a
//! payor) at most once at a time in a tenant (a second active grant is a
//! conflict); passwords meet the policy and are stored as Argon2id hashes
//! only, and an existing user's password is never changed by a grant. Inserts
//! into tenant tables run with the tenant set for row-level security.
//!
//! Passwords ([`hash_new_password`], [`set_password`], [`change_password`]): a new
//! password meets the same policy and is hashed the same way (Argon2id) as at
//! creation; hashing happens before the unit of work (it is slow on purpose), and
//! storing it revokes every refresh token and every web portal session of the user,
//! so a changed password signs the user out everywhere (access tokens run out within their short lifetime).
//!
//! Sign-in ([`require_access`]): an account with no active role grant and no
//! unexpired disclosure gets no tokens (its tokens would open nothing).
//!
//! Revoking ([`revoke_grant`]) keeps the row; nobody revokes their own last
//! administrator grant of a tenant (clerk-treasurer of a municipality, zone
//! admin of a zone): the one place that rule lives.

use crate::{
    auth::{Role, ScopeKind, check_password_policy, hash_password},
    db::{self, DbConn, grants::TenantGrant, models::UserRow},
    error::ApiError,
    tenancy::{DbScope, Tenant},
};

/// Where a grant applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrantTarget {
    /// A municipality (by id), with the operator's payor when the role is `operator`.
    Municipality { id: i64, payor_id: Option<String> },
    /// A zone (by id).
    Zone { id: i64 },
}

impl GrantTarget {
    /// The tenant the grant applies in.
    pub fn tenant(&self) -> Tenant {
        match self {
            GrantTarget::Municipality { id, .. } => Tenant::Municipality(*id),
            GrantTarget::Zone { id } => Tenant::Zone(*id),
        }
    }
}

/// The initial password of a new user.
#[derive(Clone, Copy)]
pub enum NewPassword<'a> {
    /// Checked against the policy, then hashed here.
    Plain(&'a str),
    /// An Argon2id PHC string hashed by the caller (the demo hashes its one password once).
    Hashed(&'a str),
}

/// What happened.
#[derive(Debug, Clone)]
pub struct Granted {
    /// The user (found or created).
    pub user: UserRow,
    /// Whether the user was created now.
    pub created: bool,
    /// The new grant's id.
    pub grant_id: String,
}

/// Check that `role` may be granted at `target`.
pub fn check_grant(role: Role, target: &GrantTarget) -> Result<(), ApiError> {
    match (role.scope_kind(), target) {
        (ScopeKind::Municipality, GrantTarget::Municipality { payor_id, .. }) => {
            match (role == Role::Operator, payor_id.is_some()) {
                (true, false) => Err(ApiError::invalid(
                    "payor_id",
                    "required_for_operator",
                    "an operator acts for one payor: give its id",
                )),
                (false, true) => Err(ApiError::invalid(
                    "payor_id",
                    "operator_only",
                    "only an operator grant names a payor",
                )),
                _ => Ok(()),
            }
        }
        (ScopeKind::Zone, GrantTarget::Zone { .. }) => Ok(()),
        (ScopeKind::Municipality, GrantTarget::Zone { .. }) => Err(ApiError::invalid(
            "role",
            "municipality_role",
            format!("{} is granted in a municipality, not a zone", role.as_str()),
        )),
        (ScopeKind::Zone, GrantTarget::Municipality { .. }) => Err(ApiError::invalid(
            "role",
            "zone_role",
            format!("{} is granted in a zone, not a municipality", role.as_str()),
        )),
    }
}

fn already_granted(role: Role) -> ApiError {
    ApiError::Conflict(format!(
        "this user already holds an active {} grant here",
        role.as_str()
    ))
}

/// Find the user by email, or create it with `password`; then grant `role` at `target`.
/// An existing user keeps its display name and password (`password` is then unused).
pub fn grant_role(
    conn: &mut DbConn,
    email: &str,
    display_name: &str,
    password: Option<NewPassword<'_>>,
    role: Role,
    target: &GrantTarget,
    created_by: Option<&str>,
) -> Result<Granted, ApiError> {
    check_grant(role, target)?;
    let email = email.trim().to_lowercase();
    if !(3..=254).contains(&email.len()) || !email.contains('@') {
        return Err(ApiError::invalid(
            "email",
            "email_format",
            "give a valid email address",
        ));
    }
    let (user, created) = match db::identity::user_by_email(conn, &email)? {
        Some(user) => (user, false),
        None => {
            let password = password.ok_or_else(|| {
                ApiError::invalid(
                    "password",
                    "required_for_new_user",
                    "a new user needs an initial password",
                )
            })?;
            let password_hash = match password {
                NewPassword::Plain(plain) => hash_new_password("password", plain)?,
                NewPassword::Hashed(phc) => phc.to_owned(),
            };
            let user = UserRow {
                id: db::identity::new_id(),
                email,
                display_name: display_name.trim().to_owned(),
                password_hash,
                created_at: db::identity::now(),
                deleted_at: None,
            };
            db::identity::insert_user(conn, &user)?;
            (user, true)
        }
    };
    let tenant = target.tenant();
    db::rls::apply(conn, &DbScope::tenant(tenant))?;
    let payor_id = match target {
        GrantTarget::Municipality { payor_id, .. } => payor_id.clone(),
        GrantTarget::Zone { .. } => None,
    };
    if let (Tenant::Municipality(id), Some(payor)) = (tenant, payor_id.as_deref())
        && db::payors::get(conn, id, payor)?.is_none()
    {
        return Err(ApiError::invalid(
            "payor_id",
            "payor_exists",
            "no such payor in this municipality",
        ));
    }
    if db::grants::count_active(conn, tenant, &user.id, role.as_str(), payor_id.as_deref())? > 0 {
        return Err(already_granted(role));
    }
    let grant_id = db::identity::new_id();
    db::grants::insert(
        conn,
        &TenantGrant {
            tenant,
            id: grant_id.clone(),
            user_id: user.id.clone(),
            role: role.as_str().to_owned(),
            payor_id,
            created_at: db::identity::now(),
            created_by: created_by.map(str::to_owned),
            revoked_at: None,
        },
    )?;
    Ok(Granted {
        user,
        created,
        grant_id,
    })
}

/// Revoke the grant `grant_id` of `tenant` on behalf of the person `by`
/// (idempotent: a revoked grant stays as it is). Nobody revokes their own
/// last administrator grant of a tenant (the last `clerk_treasurer` of a
/// municipality they hold, the last `zone_admin` of a zone): another
/// administrator must, so a tenant is never left without one by accident.
pub fn revoke_grant(
    conn: &mut DbConn,
    tenant: Tenant,
    grant_id: &str,
    by: Option<&str>,
) -> Result<(), ApiError> {
    let grant = db::grants::get(conn, tenant, grant_id)?.ok_or(ApiError::NotFound("grant"))?;
    if grant.revoked_at.is_some() {
        return Ok(());
    }
    let admin = administrator_of(tenant);
    if grant.role == admin.as_str()
        && by == Some(grant.user_id.as_str())
        && db::grants::count_active(conn, tenant, &grant.user_id, admin.as_str(), None)? <= 1
    {
        let (role, place) = match tenant {
            Tenant::Municipality(_) => (admin.as_str(), "here"),
            Tenant::Zone(_) => (admin.as_str(), "in this zone"),
        };
        return Err(ApiError::Conflict(format!(
            "this is your last {role} grant {place}: another {} must revoke it",
            admin_title(tenant)
        )));
    }
    db::grants::revoke(conn, tenant, grant_id, db::identity::now())?;
    Ok(())
}

/// The role that administers users in a tenant.
pub fn administrator_of(tenant: Tenant) -> Role {
    match tenant {
        Tenant::Municipality(_) => Role::ClerkTreasurer,
        Tenant::Zone(_) => Role::ZoneAdmin,
    }
}

fn admin_title(tenant: Tenant) -> &'static str {
    match tenant {
        Tenant::Municipality(_) => "clerk-treasurer",
        Tenant::Zone(_) => "zone admin",
    }
}

/// [`grant_role`] in its own transaction (for the command line).
pub fn grant_role_in_transaction(
    conn: &mut DbConn,
    email: &str,
    password: Option<&str>,
    role: Role,
    target: &GrantTarget,
) -> Result<Granted, ApiError> {
    db::in_transaction(conn, |conn| {
        grant_role(
            conn,
            email,
            email,
            password.map(NewPassword::Plain),
            role,
            target,
            Some("cli"),
        )
    })
}

/// Check `plain` against the password policy (field `field`) and hash it (Argon2id).
/// Call it outside the unit of work: hashing takes a while on purpose.
pub fn hash_new_password(field: &str, plain: &str) -> Result<String, ApiError> {
    check_password_policy(plain)
        .map_err(|rule| ApiError::invalid(field, "password_policy", rule))?;
    hash_password(plain).map_err(ApiError::internal)
}

/// Set the password of the user with `email` to `new_hash` (from [`hash_new_password`])
/// and revoke all their refresh tokens; returns how many were revoked. An unknown
/// email is an error naming it (for the operator at the command line).
pub fn set_password(conn: &mut DbConn, email: &str, new_hash: &str) -> Result<usize, ApiError> {
    let email = email.trim().to_lowercase();
    let user = db::identity::user_by_email(conn, &email)?.ok_or_else(|| {
        ApiError::invalid(
            "email",
            "user_exists",
            format!("no user has the email {email}"),
        )
    })?;
    store_password(conn, &user, new_hash)
}

/// Replace the password of `user` (whose current hash the caller verified) with
/// `new_hash` and revoke all their refresh tokens; a concurrent change since the
/// verification is a conflict.
pub fn change_password(
    conn: &mut DbConn,
    user: &UserRow,
    new_hash: &str,
) -> Result<usize, ApiError> {
    store_password(conn, user, new_hash)
}

fn store_password(conn: &mut DbConn, user: &UserRow, new_hash: &str) -> Result<usize, ApiError> {
    if !db::identity::replace_password_hash(conn, &user.id, &user.password_hash, new_hash)? {
        return Err(ApiError::Conflict(
            "the password was changed meanwhile; try again".into(),
        ));
    }
    // Web portal sessions end with the old password too (issue 11).
    db::web_sessions::revoke_of_user(conn, &user.id, db::identity::now())?;
    Ok(db::identity::revoke_user_refresh_tokens(conn, &user.id)?)
}

/// Why a person with a valid password gets no tokens.
pub const NO_ACCESS: &str = "this account holds no active role or disclosure, so it cannot sign in; ask the clerk-treasurer or zone admin who administers your access for a grant";

/// Whether a user holds an active role grant or an unexpired disclosure. Sets
/// `app.user_id` for row-level security (the caller's own grants only).
pub fn holds_access(conn: &mut DbConn, user_id: &str) -> Result<bool, ApiError> {
    db::rls::apply(conn, &DbScope::user(user_id))?;
    Ok(db::identity::holds_any_access(
        conn,
        user_id,
        db::identity::now(),
    )?)
}

/// Refuse ([`NO_ACCESS`], 403) a user who holds no active role grant and no
/// unexpired disclosure (see [`holds_access`]).
pub fn require_access(conn: &mut DbConn, user_id: &str) -> Result<(), ApiError> {
    if holds_access(conn, user_id)? {
        Ok(())
    } else {
        Err(ApiError::Forbidden(NO_ACCESS.into()))
    }
}

//! Demo data: the Marquette County tourism zone with the City of Montello,
//! and the standalone City of Hayward, each with its policy preset.
//!
//! Also one user per role (Montello, the zone, Hayward) and demo payors with
//! their establishments. The accounts created by one load share one random
//! password (hashed once: Argon2id is deliberately slow), returned in the
//! report and printed once by the command line; only the hash is stored.
//!
//! The demo payors also get the returns of 2025 ([`returns`]): some late,
//! one amended, one missing, one of Hayward's incomplete; then the money on
//! them ([`money`]): payments, a refund, estimates, a delinquency letter, a
//! security deposit and a clearance certificate; then the zone's year
//! ([`zone`]): Montello's 2026 remittances from that ledger, one transfer
//! paid, the commission roster, the tourism entity's expenditure report and
//! the commission's review. [`load_without_money`] stops before the money
//! (the fixture of the API tests, whose figures start from the unpaid
//! returns) and so before the zone's year.
//!
//! Contract: idempotent. Each item is created only when missing (found by
//! slug, email or key), so loading twice changes nothing, and loading into a
//! database that already has real data adds only what is absent. Tenant rows
//! are written with the tenant set, as row-level security requires.

pub mod bench;
mod money;
mod returns;
mod zone;

use chrono::NaiveDate;
use serde::Serialize;

use crate::{
    auth::{Role, hash_password, opaque},
    db::{
        self, DbConn,
        models::{
            EstablishmentRow, MembershipRow, NewMunicipality, NewPolicyVersion, NewZone, PayorRow,
        },
    },
    domain::{policy::Policy, presets},
    error::ApiError,
    tenancy::{DbScope, Tenant},
    usecases::accounts::{self, GrantTarget, NewPassword},
};

/// A demo payor: fixed id, names, one establishment.
struct DemoPayor {
    id: &'static str,
    legal_name: &'static str,
    dba: &'static str,
    address: &'static str,
    kind: &'static str,
    units: i32,
}

const MONTELLO_PAYORS: [DemoPayor; 2] = [
    DemoPayor {
        id: "5b0c8c1e-0000-4000-8000-000000000001",
        legal_name: "Lakeside Motel LLC",
        dba: "Lakeside Motel",
        address: "12 Lake Street, Montello, WI 53949",
        kind: "motel",
        units: 24,
    },
    DemoPayor {
        id: "5b0c8c1e-0000-4000-8000-000000000002",
        legal_name: "Buffalo Lake Campground Inc.",
        dba: "Buffalo Lake Campground",
        address: "400 Park Road, Montello, WI 53949",
        kind: "campground",
        units: 60,
    },
];

const HAYWARD_PAYORS: [DemoPayor; 1] = [DemoPayor {
    id: "5b0c8c1e-0000-4000-8000-000000000003",
    legal_name: "Northwoods Lodge Inc.",
    dba: "Northwoods Lodge",
    address: "88 Main Street, Hayward, WI 54843",
    kind: "resort",
    units: 18,
}];

/// The demo payor ids, for documentation and tests: Montello's first payor.
pub const MONTELLO_MOTEL_ID: &str = "5b0c8c1e-0000-4000-8000-000000000001";
/// Montello's second demo payor.
pub const MONTELLO_CAMPGROUND_ID: &str = "5b0c8c1e-0000-4000-8000-000000000002";
/// Hayward's demo payor.
pub const HAYWARD_LODGE_ID: &str = "5b0c8c1e-0000-4000-8000-000000000003";

fn ensure_payors(
    conn: &mut DbConn,
    report: &mut DemoReport,
    municipality_id: i64,
    payors: &[DemoPayor],
) -> Result<(), ApiError> {
    db::rls::apply(
        conn,
        &DbScope::tenant(Tenant::Municipality(municipality_id)),
    )?;
    let now = db::identity::now();
    for p in payors {
        if db::payors::get(conn, municipality_id, p.id)?.is_some() {
            continue;
        }
        db::payors::insert(
            conn,
            &PayorRow {
                municipality_id,
                id: p.id.into(),
                legal_name: p.legal_name.into(),
                dba: Some(p.dba.into()),
                contact_name: None,
                contact_email: None,
                contact_phone: None,
                mailing_address: p.address.into(),
                seller_permit: None,
                annual_election: "calendar".into(),
                fiscal_year_end_month: None,
                closed_on: None,
                version: 1,
                created_at: now,
                updated_at: now,
            },
        )?;
        db::payors::insert_establishment(
            conn,
            &EstablishmentRow {
                municipality_id,
                id: db::identity::new_id(),
                payor_id: p.id.into(),
                name: p.dba.into(),
                address: p.address.into(),
                kind: p.kind.into(),
                units: p.units,
                // Registered from 2025-01-01: the returns the demo files (2025 on)
                // are all it owes, so the clerk's "missing" lists and a clearance
                // certificate see only the demo's own gaps (no years 2020-2024
                // of returns never entered).
                opened_on: Some(date(2025, 1, 1)),
                closed_on: None,
                version: 1,
                created_at: now,
                updated_at: now,
            },
        )?;
        report.created.push(format!("payor {}", p.dba));
    }
    Ok(())
}

/// The password (and its hash) this load gives the accounts it creates.
struct DemoPassword {
    plain: String,
    hash: String,
}

impl DemoPassword {
    fn new() -> Result<Self, ApiError> {
        let (secret, _) = opaque::new_secret();
        let plain = format!("demo-{}", &secret.expose()[..16]);
        let hash = hash_password(&plain).map_err(ApiError::internal)?;
        Ok(Self { plain, hash })
    }
}

fn ensure_account(
    conn: &mut DbConn,
    report: &mut DemoReport,
    password: &mut Option<DemoPassword>,
    (email, role, target, tenant): (&str, Role, GrantTarget, &str),
) -> Result<(), ApiError> {
    if db::identity::user_by_email(conn, email)?.is_some() {
        return Ok(());
    }
    if password.is_none() {
        *password = Some(DemoPassword::new()?);
    }
    let Some(pw) = password.as_ref() else {
        return Ok(());
    };
    accounts::grant_role(
        conn,
        email,
        email,
        Some(NewPassword::Hashed(&pw.hash)),
        role,
        &target,
        Some("demo"),
    )?;
    let password = pw.plain.clone();
    report.created.push(format!("user {email}"));
    report.accounts.push(DemoAccount {
        email: email.to_owned(),
        role: role.as_str().to_owned(),
        tenant: tenant.to_owned(),
        password,
    });
    Ok(())
}

/// A demo account created by this load.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DemoAccount {
    /// Sign-in email.
    pub email: String,
    /// Its one role.
    pub role: String,
    /// Where: a municipality or zone slug.
    pub tenant: String,
    /// The password, shown once.
    pub password: String,
}

/// What a demo load created.
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
pub struct DemoReport {
    /// Rows created, by kind (`zone`, `municipality`, `membership`, `policy`, `payor`, `user`).
    pub created: Vec<String>,
    /// Accounts created now, with their passwords.
    pub accounts: Vec<DemoAccount>,
    /// Clearance certificates issued now, with their codes (shown once).
    pub certificates: Vec<DemoCertificate>,
}

/// A clearance certificate issued by this load.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct DemoCertificate {
    /// The payor it clears.
    pub payor_id: String,
    /// Its verification code, shown once (only its digest is stored).
    pub verification_code: String,
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("a valid constant date")
}

fn ensure_municipality(
    conn: &mut DbConn,
    report: &mut DemoReport,
    new: NewMunicipality<'_>,
    policy: Policy,
) -> Result<i64, ApiError> {
    let row = match db::municipalities::by_slug(conn, new.slug)? {
        Some(row) => row,
        None => {
            report.created.push(format!("municipality {}", new.slug));
            db::municipalities::insert(conn, &new)?
        }
    };
    let history = db::policies::history(conn, row.id)?;
    if !history
        .iter()
        .any(|v| v.effective_from == policy.effective_from)
    {
        let document = serde_json::to_string(&policy).map_err(ApiError::internal)?;
        db::policies::insert(
            conn,
            &NewPolicyVersion {
                municipality_id: row.id,
                effective_from: policy.effective_from,
                document: &document,
                source: &format!("preset:{}", new.slug),
            },
        )?;
        report.created.push(format!(
            "policy {} from {}",
            new.slug, policy.effective_from
        ));
    }
    Ok(row.id)
}

/// Load the demo into the database behind `conn` (one transaction, by the caller).
pub fn load(conn: &mut DbConn) -> Result<DemoReport, ApiError> {
    let (mut report, montello, hayward) = load_base(conn)?;
    money::ensure(conn, &mut report, montello, hayward)?;
    zone::ensure(conn, &mut report, montello)?;
    Ok(report)
}

/// [`load`] without the money and the zone's year: the registry, the accounts and the 2025 returns.
pub fn load_without_money(conn: &mut DbConn) -> Result<DemoReport, ApiError> {
    load_base(conn).map(|(report, _, _)| report)
}

fn load_base(conn: &mut DbConn) -> Result<(DemoReport, i64, i64), ApiError> {
    let mut report = DemoReport::default();
    let zone = match db::zones::by_slug(conn, "marquette-county")? {
        Some(z) => z,
        None => {
            report.created.push("zone marquette-county".into());
            db::zones::insert(
                conn,
                &NewZone {
                    slug: "marquette-county",
                    name: "Marquette County Tourism Zone",
                    county: "Marquette",
                    commission_name: "Marquette County Tourism Commission",
                    tourism_entity_name: Some("Marquette County Tourism Council"),
                },
            )?
        }
    };
    let montello = ensure_municipality(
        conn,
        &mut report,
        NewMunicipality {
            slug: "montello",
            name: "City of Montello",
            kind: "city",
            county: "Marquette",
        },
        presets::montello(),
    )?;
    let members = db::zones::members(conn, &[zone.id])?;
    if !members.iter().any(|(m, _)| m.municipality_id == montello) {
        db::zones::add_member(
            conn,
            &MembershipRow {
                zone_id: zone.id,
                municipality_id: montello,
                joined_on: date(2020, 1, 1),
                left_on: None,
            },
        )?;
        report
            .created
            .push("membership montello in marquette-county".into());
    }
    let hayward = ensure_municipality(
        conn,
        &mut report,
        NewMunicipality {
            slug: "hayward",
            name: "City of Hayward",
            kind: "city",
            county: "Sawyer",
        },
        presets::hayward(),
    )?;
    ensure_payors(conn, &mut report, montello, &MONTELLO_PAYORS)?;
    ensure_payors(conn, &mut report, hayward, &HAYWARD_PAYORS)?;

    let in_montello = |payor: Option<&str>| GrantTarget::Municipality {
        id: montello,
        payor_id: payor.map(str::to_owned),
    };
    let in_hayward = |payor: Option<&str>| GrantTarget::Municipality {
        id: hayward,
        payor_id: payor.map(str::to_owned),
    };
    let in_zone = GrantTarget::Zone { id: zone.id };
    let accounts = [
        (
            "clerk@montello.demo",
            Role::ClerkTreasurer,
            in_montello(None),
            "montello",
        ),
        (
            "staff@montello.demo",
            Role::MunicipalStaff,
            in_montello(None),
            "montello",
        ),
        (
            "operator@montello.demo",
            Role::Operator,
            in_montello(Some(MONTELLO_MOTEL_ID)),
            "montello",
        ),
        (
            "marketplace@montello.demo",
            Role::MarketplaceProvider,
            in_montello(None),
            "montello",
        ),
        (
            "commission@marquette-county.demo",
            Role::CommissionMember,
            in_zone.clone(),
            "marquette-county",
        ),
        (
            "tourism@marquette-county.demo",
            Role::TourismEntity,
            in_zone.clone(),
            "marquette-county",
        ),
        (
            "admin@marquette-county.demo",
            Role::ZoneAdmin,
            in_zone,
            "marquette-county",
        ),
        (
            "clerk@hayward.demo",
            Role::ClerkTreasurer,
            in_hayward(None),
            "hayward",
        ),
        (
            "staff@hayward.demo",
            Role::MunicipalStaff,
            in_hayward(None),
            "hayward",
        ),
        (
            "operator@hayward.demo",
            Role::Operator,
            in_hayward(Some(HAYWARD_LODGE_ID)),
            "hayward",
        ),
    ];
    let mut password = None;
    for account in accounts {
        ensure_account(conn, &mut report, &mut password, account)?;
    }
    returns::ensure(conn, &mut report, montello, hayward)?;
    Ok((report, montello, hayward))
}

/// [`load`] in its own transaction (for the command line).
pub fn load_in_transaction(conn: &mut DbConn) -> Result<DemoReport, ApiError> {
    crate::db::in_transaction(conn, load)
}

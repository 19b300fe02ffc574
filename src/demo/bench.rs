//! Benchmark data (`roomtax bench-seed`, used by `bench/run.sh`): a zone of
//! many municipalities, each with its clerk-treasurer and thousands of payors
//! with a year of quarterly returns and payments, written through the same use
//! cases the API calls, so what the benchmark reads is what the service writes.
//!
//! Scale 1 is 50 municipalities × 2,000 payors × the four quarters of 2025
//! (a return and a payment each; every 50th payor's 2025-Q4 return is left
//! missing so the clerk's missing list has rows), and each municipality's four
//! 2025 remittances submitted to the zone. A fraction shrinks the payors
//! first (scale 0.02: one municipality of 2,000), a multiple adds
//! municipalities (scale 2: 100).
//!
//! Contract: refuses a database that already holds the bench zone; every
//! account shares one random password (hashed once), returned in the report
//! and never stored in clear; payors are committed in batches of
//! [`BATCH`], one transaction each, so a large scale neither holds one huge
//! transaction nor commits per row. The ids written (`slug,payor_id` lines)
//! go to the caller's writer for the load generator.

use std::io::Write;

use chrono::{Days, NaiveDate};
use serde::Serialize;
use serde_json::json;

use super::{DemoPassword, date};
use crate::{
    auth::Role,
    db::{
        self, DbConn,
        models::{MembershipRow, NewMunicipality, NewPolicyVersion, NewZone},
    },
    domain::{
        Money, Period, presets,
        registry::{Address, Election, EstablishmentKind, Name, NewEstablishment, NewPayor, Units},
        returns::ReturnFiling,
    },
    error::ApiError,
    request_context::{self, RequestContext},
    tenancy::MunicipalityContext,
    usecases::{
        accounts::{self, GrantTarget, NewPassword},
        ledger::payments::{self, NewPayment, PaymentMethod},
        payors::{Actor, Call, establishments, registry},
        remittances::{self, Submission},
        returns::filing,
    },
};

/// Payors committed per transaction.
pub const BATCH: usize = 200;
/// The bench zone's slug.
pub const ZONE: &str = "bench-zone";
/// The quarters seeded.
const QUARTERS: [&str; 4] = ["2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"];

/// How much to seed, from a scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Size {
    /// Municipalities.
    pub municipalities: usize,
    /// Payors in each.
    pub payors_per_municipality: usize,
}

impl Size {
    /// Scale 1 = 50 × 2,000; below 1 the payors shrink first.
    pub fn of(scale: f64) -> Result<Self, String> {
        if !scale.is_finite() || scale <= 0.0 || scale > 1000.0 {
            return Err("--scale is a number above 0 and at most 1000".into());
        }
        let total = (100_000.0 * scale).round().max(1.0);
        let municipalities = (50.0 * scale).ceil().max(1.0);
        let payors = (total / municipalities).round().max(1.0);
        // Bounded above by the check on `scale`.
        Ok(Self {
            municipalities: municipalities as usize,
            payors_per_municipality: payors as usize,
        })
    }
}

/// What a bench seed wrote.
#[derive(Debug, Serialize)]
pub struct BenchReport {
    /// The size seeded.
    pub size: Size,
    /// The zone's slug.
    pub zone: String,
    /// The municipalities' slugs (their clerks: `clerk@<slug>.bench`).
    pub municipalities: Vec<String>,
    /// The zone administrator's email.
    pub zone_admin: String,
    /// The accounts' password (shown once; only its hash is stored).
    pub password: String,
    /// Returns filed.
    pub returns: u64,
    /// Payments recorded.
    pub payments: u64,
    /// Remittances submitted.
    pub remittances: u64,
}

fn fault(what: &str, e: impl std::fmt::Debug) -> ApiError {
    ApiError::internal(format!("bench seed, {what}: {e:?}"))
}

/// Seed `size` (see the module doc), writing `slug,payor_id` lines to `ids`.
pub fn seed(
    conn: &mut DbConn,
    size: Size,
    ids: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<BenchReport, ApiError> {
    let request = RequestContext {
        id: format!("bench-seed-{}", db::identity::new_id()),
        path: "roomtax bench-seed".to_owned(),
    };
    request_context::within(Some(request), || seed_all(conn, size, ids, progress))
}

fn seed_all(
    conn: &mut DbConn,
    size: Size,
    ids: &mut dyn Write,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<BenchReport, ApiError> {
    let password = DemoPassword::new()?;
    let (zone_id, slugs) = db::in_transaction(conn, |conn| tenants(conn, size, &password))?;
    let mut report = BenchReport {
        size,
        zone: ZONE.into(),
        municipalities: slugs.iter().map(|(s, _)| s.clone()).collect(),
        zone_admin: format!("admin@{ZONE}.bench"),
        password: password.plain.clone(),
        returns: 0,
        payments: 0,
        remittances: 0,
    };
    let _ = zone_id;
    let batches = size.payors_per_municipality.div_ceil(BATCH);
    let total = slugs.len() * batches;
    let mut done = 0;
    for (slug, municipality_id) in &slugs {
        let email = format!("clerk@{slug}.bench");
        for b in 0..batches {
            let from = b * BATCH;
            let to = (from + BATCH).min(size.payors_per_municipality);
            let written = db::in_transaction(conn, |conn| {
                let ctx = clerk(conn, *municipality_id, &email)?;
                payors(conn, &ctx, slug, from..to, &mut report)
            })?;
            for id in written {
                writeln!(ids, "{slug},{id}").map_err(|e| fault("writing the ids", e))?;
            }
            done += 1;
            progress(done, total);
        }
        db::in_transaction(conn, |conn| {
            let ctx = clerk(conn, *municipality_id, &email)?;
            for q in QUARTERS {
                let period = Period::parse(q).map_err(|e| fault("period", e))?;
                let today = period.last_day() + Days::new(45);
                remittances::submit(
                    conn,
                    &ctx,
                    &Submission {
                        period: q.into(),
                        ..Submission::default()
                    },
                    today,
                )?;
                report.remittances += 1;
            }
            Ok(())
        })?;
    }
    Ok(report)
}

/// The zone, the municipalities (Montello's preset), their clerks and the zone admin.
fn tenants(
    conn: &mut DbConn,
    size: Size,
    password: &DemoPassword,
) -> Result<(i64, Vec<(String, i64)>), ApiError> {
    if db::zones::by_slug(conn, ZONE)?.is_some() {
        return Err(ApiError::Conflict(format!(
            "this database already holds the bench zone {ZONE}: seed a fresh one"
        )));
    }
    let zone = db::zones::insert(
        conn,
        &NewZone {
            slug: ZONE,
            name: "Bench Tourism Zone",
            county: "Marquette",
            commission_name: "Bench Tourism Commission",
            tourism_entity_name: None,
        },
    )?;
    let policy = presets::montello();
    let document = serde_json::to_string(&policy).map_err(ApiError::internal)?;
    let mut slugs = Vec::new();
    for i in 1..=size.municipalities {
        let slug = format!("bench-{i:03}");
        let name = format!("Bench Municipality {i}");
        let row = db::municipalities::insert(
            conn,
            &NewMunicipality {
                slug: &slug,
                name: &name,
                kind: "city",
                county: "Marquette",
            },
        )?;
        db::policies::insert(
            conn,
            &NewPolicyVersion {
                municipality_id: row.id,
                effective_from: policy.effective_from,
                document: &document,
                source: "preset:montello",
            },
        )?;
        db::zones::add_member(
            conn,
            &MembershipRow {
                zone_id: zone.id,
                municipality_id: row.id,
                joined_on: date(2020, 1, 1),
                left_on: None,
            },
        )?;
        let email = format!("clerk@{slug}.bench");
        accounts::grant_role(
            conn,
            &email,
            &email,
            Some(NewPassword::Hashed(&password.hash)),
            Role::ClerkTreasurer,
            &GrantTarget::Municipality {
                id: row.id,
                payor_id: None,
            },
            Some("bench-seed"),
        )?;
        slugs.push((slug, row.id));
    }
    let admin = format!("admin@{ZONE}.bench");
    accounts::grant_role(
        conn,
        &admin,
        &admin,
        Some(NewPassword::Hashed(&password.hash)),
        Role::ZoneAdmin,
        &GrantTarget::Zone { id: zone.id },
        Some("bench-seed"),
    )?;
    Ok((zone.id, slugs))
}

fn clerk(
    conn: &mut DbConn,
    municipality_id: i64,
    email: &str,
) -> Result<MunicipalityContext, ApiError> {
    super::money::clerk(conn, municipality_id, email)?
        .ok_or_else(|| ApiError::internal(format!("bench seed: no account {email}")))
}

/// A deterministic pseudo-random number for payor `n`, quarter `q`.
fn mix(n: usize, q: usize) -> u64 {
    let mut x = (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (q as u64).wrapping_add(1);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 29)
}

/// Register payors `range` of a municipality with their year of returns and payments.
fn payors(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    slug: &str,
    range: std::ops::Range<usize>,
    report: &mut BenchReport,
) -> Result<Vec<String>, ApiError> {
    let opened = date(2025, 1, 1);
    let mut ids = Vec::with_capacity(range.len());
    for n in range {
        let legal = format!("Bench Lodging {slug}-{n} LLC");
        let address = format!("{n} Lake Street, {slug}, WI");
        let payor = registry::create(
            Call {
                conn: &mut *conn,
                ctx: ctx.clone(),
                actor: Actor::of(ctx)?,
                input: NewPayor {
                    legal_name: Name::parse("legal_name", &legal).map_err(|e| fault("name", e))?,
                    dba: None,
                    contact_name: None,
                    contact_email: None,
                    contact_phone: None,
                    mailing_address: Address::parse("mailing_address", &address)
                        .map_err(|e| fault("address", e))?,
                    seller_permit: None,
                    election: Election::Calendar,
                },
                precondition: (),
            },
            opened,
        )?;
        let payor_id = payor.payor.id;
        establishments::add(
            Call {
                conn: &mut *conn,
                ctx: ctx.clone(),
                actor: Actor::of(ctx)?,
                input: NewEstablishment {
                    name: Name::parse("name", &legal).map_err(|e| fault("name", e))?,
                    address: Address::parse("address", &address)
                        .map_err(|e| fault("address", e))?,
                    kind: EstablishmentKind::parse("kind", "motel")
                        .map_err(|e| fault("kind", e))?,
                    units: Units::parse("units", 12).map_err(|e| fault("units", e))?,
                    opened_on: Some(opened),
                },
                precondition: (),
            },
            &payor_id,
            opened,
        )?;
        for (q, quarter) in QUARTERS.iter().enumerate() {
            if q == 3 && n % 50 == 49 {
                continue; // left missing: the clerk's list has rows
            }
            let period = Period::parse(quarter).map_err(|e| fault("period", e))?;
            let today = period.last_day() + Days::new(20);
            let cents = 500_000 + mix(n, q) % 5_000_000;
            file(conn, ctx, slug, &payor_id, quarter, cents, today)?;
            report.returns += 1;
            pay(conn, ctx, &payor_id, cents * 55 / 1000, today)?;
            report.payments += 1;
        }
        ids.push(payor_id);
    }
    Ok(ids)
}

fn file(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    slug: &str,
    payor_id: &str,
    period: &str,
    cents: u64,
    today: NaiveDate,
) -> Result<(), ApiError> {
    let body: ReturnFiling = serde_json::from_value(json!({
        "period": period,
        "gross_receipts": format!("{}.{:02}", cents / 100, cents % 100),
        "exemptions": [],
        "signer": {"name": "Bench Signer", "title": "Owner"},
        "attested": true
    }))
    .map_err(|e| fault("filing", e))?;
    filing::file(conn, ctx, slug, payor_id, body, today)?;
    Ok(())
}

fn pay(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    payor_id: &str,
    cents: u64,
    today: NaiveDate,
) -> Result<(), ApiError> {
    let cents = i64::try_from(cents.max(1)).map_err(|e| fault("amount", e))?;
    payments::record(
        conn,
        ctx,
        payor_id,
        NewPayment {
            received_on: today,
            amount: Money::from_cents(cents),
            method: PaymentMethod::Ach,
            reference: format!("bench {payor_id} {today}"),
        },
        today,
    )?;
    Ok(())
}

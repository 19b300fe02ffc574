//! Demo data: the Marquette County tourism zone with the City of Montello,
//! and the standalone City of Hayward, each with its policy preset.
//!
//! Contract: idempotent. Each item is created only when missing (found by
//! slug or key), so loading twice changes nothing, and loading into a
//! database that already has real data adds only what is absent.

use chrono::NaiveDate;
use serde::Serialize;

use crate::{
    db::{
        self, DbConn,
        models::{MembershipRow, NewMunicipality, NewPolicyVersion, NewZone},
    },
    domain::{policy::Policy, presets},
    error::ApiError,
};

/// What a demo load created.
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
pub struct DemoReport {
    /// Rows created, by kind (`zone`, `municipality`, `membership`, `policy`).
    pub created: Vec<String>,
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
    ensure_municipality(
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
    Ok(report)
}

/// [`load`] in its own transaction (for the command line).
pub fn load_in_transaction(conn: &mut DbConn) -> Result<DemoReport, ApiError> {
    use diesel::Connection;
    conn.transaction(load)
}

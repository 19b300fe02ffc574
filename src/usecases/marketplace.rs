//! Marketplace providers' reports: a platform files, per municipality and
//! quarter, the totals of the stays it facilitated (no property addresses,
//! by statute); the engine computes the tax owed and the difference from
//! what the provider collected.
//!
//! Contract:
//! - filing: only a `marketplace_provider` of the municipality
//!   (`MunicipalityContext::require_marketplace_provider`: 403 for anyone
//!   else related to it, 404 for the unrelated); one report per provider and
//!   period (a second is 409 `period` / `marketplace_report_already_filed`);
//!   a quarter is reported once it has ended (422 `period_not_ended`); the
//!   filing date is `today`, the municipality's local date; the amounts are
//!   `domain::marketplace::assess`'s, stored in cents with its explained
//!   lines as JSON, so a past report reads the same forever;
//! - reading: `MunicipalityContext::marketplace_reading` decides: the
//!   clerk-treasurer and staff see every report, a provider only its own
//!   (another provider's is 404, as if it did not exist);
//! - every report filed is logged as a write (`marketplace_report`,
//!   `create`), every report shown as a read (one entry per report on a
//!   page).

use chrono::NaiveDate;

use crate::{
    db::{
        self, DbConn,
        marketplace::{ReportQuery, ReportRow},
    },
    domain::{
        Line, Period,
        marketplace::{MarketplaceReport, assess},
        registry::Invalid,
    },
    error::{ApiError, FieldError},
    tenancy::{MarketplaceReading, MunicipalityContext},
    usecases::payors::Actor,
};

/// The access log's record type.
pub const RECORD_TYPE: &str = "marketplace_report";

/// A report as stored, with its explained lines and the provider's name.
#[derive(Debug, Clone)]
pub struct ReportRecord {
    /// The stored row.
    pub row: ReportRow,
    /// The quarter reported.
    pub period: Period,
    /// The engine's lines (`tax`, `collection_difference`).
    pub lines: Vec<Line>,
    /// The provider's display name.
    pub provider_name: String,
}

/// Which reports a list shows.
#[derive(Debug, Clone, Default)]
pub struct ListRequest {
    /// Only this period.
    pub period: Option<Period>,
    /// Ids after this one (the cursor).
    pub after: Option<String>,
    /// Page size.
    pub limit: u32,
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::internal(e.to_string())
}

/// The records of `rows`, with their providers' names.
fn records(conn: &mut DbConn, rows: Vec<ReportRow>) -> Result<Vec<ReportRecord>, ApiError> {
    let mut ids: Vec<String> = rows.iter().map(|r| r.provider_user_id.clone()).collect();
    ids.sort();
    ids.dedup();
    let users = db::identity::users_by_ids(conn, &ids)?;
    rows.into_iter()
        .map(|row| {
            let lines = serde_json::from_str(&row.assessment).map_err(internal)?;
            let period = Period::parse(&row.period)
                .map_err(|_| internal("stored marketplace report has an invalid period"))?;
            let provider_name = users
                .iter()
                .find(|u| u.id == row.provider_user_id)
                .map(|u| u.display_name.clone())
                .unwrap_or_default();
            Ok(ReportRecord {
                row,
                period,
                lines,
                provider_name,
            })
        })
        .collect()
}

fn already_filed(period: &Period) -> ApiError {
    ApiError::RuleConflict(FieldError::new(
        "period",
        "marketplace_report_already_filed",
        format!("this provider's report for {period} is already on file"),
    ))
}

/// File the caller's report (see the module doc).
pub fn file(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    report: MarketplaceReport,
    today: NaiveDate,
) -> Result<ReportRecord, ApiError> {
    let provider = ctx.require_marketplace_provider()?.to_owned();
    let period = report.period;
    let history = db::policies::load_history(conn, ctx.municipality_id)?;
    let assessed = assess(&history, &report).map_err(|e| ApiError::from(Invalid(vec![e])))?;
    if today < period.last_day() {
        return Err(ApiError::invalid(
            "period",
            "period_not_ended",
            format!(
                "{period} ends on {}: its report can be filed from that day",
                period.last_day()
            ),
        ));
    }
    let existing = db::marketplace::list(
        conn,
        ctx.municipality_id,
        &ReportQuery {
            provider: Some(provider.clone()),
            period: Some(period.to_string()),
            after: None,
            limit: 1,
        },
    )?;
    if !existing.is_empty() {
        return Err(already_filed(&period));
    }
    let row = ReportRow {
        municipality_id: ctx.municipality_id,
        id: db::identity::new_id(),
        provider_user_id: provider,
        period: period.to_string(),
        gross_receipts_cents: report.gross_receipts.cents(),
        exempt_receipts_cents: report.exempt_receipts.cents(),
        nights: i64::from(report.nights),
        tax_collected_cents: assessed.tax_collected.cents(),
        tax_owed_cents: assessed.tax_owed.cents(),
        difference_cents: assessed.difference.cents(),
        policy_version: assessed.policy_version,
        assessment: serde_json::to_string(&assessed.lines).map_err(internal)?,
        filed_on: today,
        created_at: db::identity::now(),
    };
    db::marketplace::insert(conn, &row).map_err(|e| match e {
        diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        ) => already_filed(&period),
        e => e.into(),
    })?;
    Actor::of(ctx)?.log_write(conn, ctx, RECORD_TYPE, &row.id, "create")?;
    records(conn, vec![row])?
        .pop()
        .ok_or_else(|| internal("the report just filed"))
}

/// Log the read of each report shown.
fn log_reads(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    rows: &[ReportRecord],
) -> Result<(), ApiError> {
    let actor = Actor::of(ctx)?;
    let basis = ctx.role_basis();
    for r in rows {
        actor.log_read(conn, &basis, RECORD_TYPE, &r.row.id)?;
    }
    Ok(())
}

/// A page of the reports the caller may read, in id order; each is logged.
pub fn list(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    request: ListRequest,
) -> Result<Vec<ReportRecord>, ApiError> {
    let provider = match ctx.marketplace_reading()? {
        MarketplaceReading::All => None,
        MarketplaceReading::Own(id) => Some(id),
    };
    let rows = db::marketplace::list(
        conn,
        ctx.municipality_id,
        &ReportQuery {
            provider,
            period: request.period.map(|p| p.to_string()),
            after: request.after,
            limit: i64::from(request.limit),
        },
    )?;
    let shown = records(conn, rows)?;
    log_reads(conn, ctx, &shown)?;
    Ok(shown)
}

/// One report (another provider's is 404); the read is logged.
pub fn show(
    conn: &mut DbConn,
    ctx: &MunicipalityContext,
    report_id: &str,
) -> Result<ReportRecord, ApiError> {
    let reading = ctx.marketplace_reading()?;
    let row = db::marketplace::get(conn, ctx.municipality_id, report_id)?
        .filter(|r| match &reading {
            MarketplaceReading::All => true,
            MarketplaceReading::Own(id) => &r.provider_user_id == id,
        })
        .ok_or(ApiError::NotFound("marketplace report"))?;
    let shown = records(conn, vec![row])?;
    log_reads(conn, ctx, &shown)?;
    shown
        .into_iter()
        .next()
        .ok_or_else(|| internal("the report read"))
}

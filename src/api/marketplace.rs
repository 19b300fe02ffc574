//! `/v1/municipalities/{municipality}/marketplace-reports`: a marketplace
//! provider reports, per quarter, the totals of the stays it facilitated;
//! the clerk-treasurer and staff read every provider's reports.
//!
//! Contract: thin handlers over `usecases::marketplace` (authorise first,
//! then judge the body or query, one use-case call in the request's unit of
//! work, shape). Filing: only a `marketplace_provider` of the municipality
//! (others related to it 403, the unrelated 404); the body has totals only,
//! no property addresses (Wis. Stat. § 66.0615(1m)(f)), and unknown fields
//! are refused; 201 with `Location`. Reading: a provider its own reports
//! (another's is 404), the clerk-treasurer and staff all of them. Every
//! report filed or shown is in the access log (`marketplace_report`).

use actix_web::{HttpResponse, get, post, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiQuery,
        idempotency::{Creating, Reply},
        pagination::{KeyCursor, next_cursor},
    },
    app::AppState,
    domain::{Line, Money, Period, marketplace::MarketplaceReport as Totals},
    error::{ApiError, Problem},
    tenancy::MunicipalityContext,
    usecases::marketplace::{self, ListRequest, ReportRecord},
};

/// A marketplace provider's report as filed: totals only, never a property address.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MarketplaceReportFiling {
    /// The calendar quarter reported, e.g. "2026-Q1" (a year is refused).
    pub period: Period,
    /// Gross receipts from the stays the provider facilitated in the municipality.
    pub gross_receipts: Money,
    /// Exempt receipts among them (long stays, exempt buyers); "0.00" when absent.
    #[serde(default)]
    pub exempt_receipts: Money,
    /// Room nights sold.
    pub nights: i64,
    /// Room tax the provider collected from its guests.
    pub tax_collected: Money,
}

impl MarketplaceReportFiling {
    /// The domain's totals (`nights` must fit: 0 to 4,294,967,295).
    fn parse(self) -> Result<Totals, ApiError> {
        let nights = match u32::try_from(self.nights) {
            Ok(n) => n,
            Err(_) if self.nights < 0 => {
                return Err(ApiError::invalid(
                    "nights",
                    "not_negative",
                    "must not be negative",
                ));
            }
            Err(_) => return Err(ApiError::invalid("nights", "range", "too large")),
        };
        Ok(Totals {
            period: self.period,
            gross_receipts: self.gross_receipts,
            exempt_receipts: self.exempt_receipts,
            nights,
            tax_collected: self.tax_collected,
        })
    }
}

/// A marketplace report with what the engine computed.
#[derive(Debug, Serialize, ToSchema)]
pub struct MarketplaceReport {
    /// Report id.
    pub id: String,
    /// The provider's user id.
    pub provider_id: String,
    /// The provider's name.
    pub provider_name: String,
    /// The quarter reported.
    pub period: Period,
    /// Gross receipts from the stays facilitated.
    pub gross_receipts: Money,
    /// Exempt receipts among them.
    pub exempt_receipts: Money,
    /// Gross less exempt receipts.
    pub taxable_receipts: Money,
    /// Room nights sold.
    pub nights: i64,
    /// Room tax the provider collected.
    pub tax_collected: Money,
    /// Room tax owed on the taxable receipts (the policy's rate, rounded once).
    pub tax_owed: Money,
    /// `tax_owed − tax_collected`: positive when the provider collected too little
    /// (the difference is still owed), negative when it collected more than the tax.
    pub difference: Money,
    /// The policy version used, by its effective date.
    pub policy_version: NaiveDate,
    /// The filing date (the municipality's local date).
    pub filed_on: NaiveDate,
    /// Every amount explained: `tax` and `collection_difference`, with the statute cited.
    pub lines: Vec<Line>,
    /// When it was recorded (UTC).
    pub recorded_at: DateTime<Utc>,
}

impl From<ReportRecord> for MarketplaceReport {
    fn from(r: ReportRecord) -> Self {
        let row = r.row;
        let gross = Money::from_cents(row.gross_receipts_cents);
        let exempt = Money::from_cents(row.exempt_receipts_cents);
        MarketplaceReport {
            id: row.id,
            provider_id: row.provider_user_id,
            provider_name: r.provider_name,
            period: r.period,
            gross_receipts: gross,
            exempt_receipts: exempt,
            taxable_receipts: gross - exempt,
            nights: row.nights,
            tax_collected: Money::from_cents(row.tax_collected_cents),
            tax_owed: Money::from_cents(row.tax_owed_cents),
            difference: Money::from_cents(row.difference_cents),
            policy_version: row.policy_version,
            filed_on: row.filed_on,
            lines: r.lines,
            recorded_at: row.created_at.and_utc(),
        }
    }
}

/// A page of marketplace reports.
#[derive(Debug, Serialize, ToSchema)]
pub struct MarketplaceReportList {
    /// The reports, in id order.
    pub items: Vec<MarketplaceReport>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// Paging and filters of the report list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReportListParams {
    /// Only reports of this quarter, e.g. `2026-Q1`.
    #[param(value_type = Option<String>, example = "2026-Q1")]
    pub period: Option<Period>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page, unchanged; omit for the first page.
    pub cursor: Option<String>,
}

/// `{municipality}/marketplace-reports/{report}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct ReportPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Marketplace report id (UUID).
    report: String,
}

/// `/v1/municipalities/{slug}/marketplace-reports/{id}`.
pub fn report_location(slug: &str, id: &str) -> String {
    format!("/v1/municipalities/{slug}/marketplace-reports/{id}")
}

/// File a marketplace provider's report for one quarter (totals, no property addresses).
///
/// Only a marketplace provider of the municipality, for itself; anyone else related to
/// the municipality gets 403, anyone else 404. The engine computes the tax owed on the
/// taxable receipts (the rate of the policy in force on the quarter's last day) and the
/// difference from the tax collected. One report per provider and quarter (a second is
/// 409); a quarter is reported once it has ended. The filing date is the municipality's
/// local date. Written to the access log (`marketplace_report`, `create`).
#[utoipa::path(
    operation_id = "file_marketplace_report",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, crate::api::idempotency::KeyHeader),
    request_body = MarketplaceReportFiling,
    responses(
        (status = 201, description = "Filed", body = MarketplaceReport,
            headers(("Location" = String, description = "Path of the report"))),
        (status = 403, description = "The caller is not a marketplace provider of this municipality", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "This provider's report for the quarter is on file (`period`, `marketplace_report_already_filed`); or a request with this `Idempotency-Key` is still being processed (`Idempotency-Key`, `idempotency_key_in_progress`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (not a quarter, quarter not ended, negative amounts, exempt above gross); `errors` names each; or the `Idempotency-Key` was used for another request (`Idempotency-Key`, `idempotency_key_reused`)", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/marketplace-reports")]
pub async fn file(creating: Creating<MarketplaceReportFiling>) -> Result<HttpResponse, ApiError> {
    creating
        .run(
            |ctx: &MunicipalityContext| ctx.require_marketplace_provider().map(drop),
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  },
                  body,
                  today| {
                let totals = body.parse()?;
                let report = MarketplaceReport::from(marketplace::file(conn, &ctx, totals, today)?);
                Reply::created(report_location(&municipality.slug, &report.id), &report)
            },
        )
        .await
}

/// List marketplace reports (each one listed is written to the access log).
///
/// Clerk-treasurer and staff see every provider's reports; a marketplace provider only
/// its own; anyone else related to the municipality gets 403, anyone else 404. Filter
/// by `period`; paginated in id order. Every report on the page is written to the access
/// log (`marketplace_report`, `read`).
#[utoipa::path(
    operation_id = "list_marketplace_reports",
    tag = "returns",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath, ReportListParams),
    responses(
        (status = 200, description = "A page of reports", body = MarketplaceReportList),
        (status = 400, description = "Unparseable or unknown parameter, or a `cursor` this service did not return", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role may not read marketplace reports", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/marketplace-reports")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<ReportListParams>, ApiError>,
) -> Result<web::Json<MarketplaceReportList>, ApiError> {
    let (records, limit) = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ctx.marketplace_reading()?;
            let params = params?.0;
            let (limit, after) = KeyCursor::page(params.limit, params.cursor.as_deref())?;
            let request = ListRequest {
                period: params.period,
                after,
                limit,
            };
            Ok((marketplace::list(conn, &ctx, request)?, limit))
        })
        .await?;
    let items: Vec<MarketplaceReport> = records.into_iter().map(Into::into).collect();
    let next_cursor = next_cursor(&items, limit, |r| KeyCursor::encode(&r.id));
    Ok(web::Json(MarketplaceReportList { items, next_cursor }))
}

/// One marketplace report (the read is written to the access log).
///
/// Clerk-treasurer and staff read any provider's report; a marketplace provider only its
/// own (another provider's is 404, as if it did not exist); anyone else related to the
/// municipality gets 403, anyone else 404. Written to the access log
/// (`marketplace_report`, `read`).
#[utoipa::path(
    operation_id = "get_marketplace_report",
    tag = "returns",
    security(("bearer" = [])),
    params(ReportPath),
    responses(
        (status = 200, description = "The report", body = MarketplaceReport),
        (status = 403, description = "The caller's role may not read marketplace reports", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/marketplace-reports/{report}")]
pub async fn show(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<web::Json<MarketplaceReport>, ApiError> {
    let (_, report_id) = path.into_inner();
    let record = here
        .read(&state, move |MunicipalUnit { conn, ctx, .. }| {
            marketplace::show(conn, &ctx, &report_id)
        })
        .await?;
    Ok(web::Json(record.into()))
}

//! The request and response shapes of `api::returns::extensions`, and their
//! conversions from the use cases' records.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::admin::Page,
    db::returns::extensions::ExtensionQuery,
    domain::{DateLine, Period, extension::ExtensionStatus},
    error::ApiError,
    usecases::returns::extensions::ExtensionRecord,
};

/// `{municipality}/extensions/{extension}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by utoipa's derive only
pub struct ExtensionPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Extension id (UUID).
    extension: String,
}

/// `/v1/municipalities/{slug}/extensions/{id}`.
pub fn extension_location(slug: &str, id: &str) -> String {
    format!("/v1/municipalities/{slug}/extensions/{id}")
}

/// A request for more time to file a return.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtensionRequestBody {
    /// The return's period: "2026-Q1", "2026" or "FY2026-06" (not yet filed).
    pub period: Period,
    /// The good cause, in words (at most 2,000 characters).
    #[schema(max_length = 2000, example = "the bookkeeper is in hospital")]
    pub reason: String,
}

/// The clerk-treasurer's grant.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtensionGrant {
    /// The new filing due date: after the due date, at most the policy's limit past it
    /// (Montello: one month, see `latest_extended_to`).
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date, pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub extended_to: NaiveDate,
    /// A note for the record (optional, at most 2,000 characters).
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub note: Option<String>,
}

/// The clerk-treasurer's refusal.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ExtensionRefusal {
    /// Why the request is refused (at most 2,000 characters).
    #[schema(max_length = 2000, example = "no good cause shown")]
    pub reason: String,
}

/// An extension request and its decision.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReturnExtension {
    /// Extension id.
    pub id: String,
    /// The payor whose return it is.
    pub payor_id: String,
    /// The return's period.
    pub period: Period,
    /// `requested`, `granted` or `refused`.
    #[schema(value_type = String, example = "requested")]
    pub status: ExtensionStatus,
    /// The good cause given.
    pub reason: String,
    /// Who asked: `user:<id>` (the operator, or the clerk-treasurer or staff for it).
    pub requested_by: String,
    /// When it was asked (UTC).
    pub requested_at: DateTime<Utc>,
    /// The return's due date: interest runs from it, whatever is granted.
    pub due_date: NaiveDate,
    /// The latest filing due date a grant may set (null where the policy has no extension).
    pub latest_extended_to: Option<NaiveDate>,
    /// The granted filing due date (null unless granted).
    pub extended_to: Option<NaiveDate>,
    /// The date the return must be filed by: `extended_to` when granted, else the due date.
    pub filing_due_date: NaiveDate,
    /// The refusal's reason, or the grant's note (null when none).
    pub decision_reason: Option<String>,
    /// Who decided: `user:<id>` (null until decided).
    pub decided_by: Option<String>,
    /// When it was decided (UTC; null until decided).
    pub decided_at: Option<DateTime<Utc>>,
    /// The due date and the filing due date explained, with their citations.
    pub dates: Vec<DateLine>,
}

impl From<ExtensionRecord> for ReturnExtension {
    fn from(r: ExtensionRecord) -> Self {
        let row = r.row;
        ReturnExtension {
            id: row.id,
            payor_id: row.payor_id,
            period: r.period,
            status: r.status,
            reason: row.reason,
            requested_by: row.requested_by,
            requested_at: row.requested_at.and_utc(),
            due_date: r.window.due.date,
            latest_extended_to: r.window.limit,
            extended_to: row.extended_to,
            filing_due_date: r.window.filing_due.date,
            decision_reason: row.decision_reason,
            decided_by: row.decided_by,
            decided_at: row.decided_at.map(|at| at.and_utc()),
            dates: vec![r.window.due, r.window.filing_due],
        }
    }
}

/// A page of extensions, newest request first.
#[derive(Debug, Serialize, ToSchema)]
pub struct ExtensionList {
    /// The extensions on this page.
    pub items: Vec<ReturnExtension>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

/// The filter and page of a list of extensions.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExtensionListParams {
    /// Only extensions with this status: `requested` (waiting for a decision), `granted`, `refused`.
    #[param(value_type = Option<String>, example = "requested")]
    pub status: Option<ExtensionStatus>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

impl ExtensionListParams {
    pub(super) fn page(self) -> Result<(Page, ExtensionQuery), ApiError> {
        let page = Page::parse(self.limit, self.cursor.as_deref())?;
        let query = ExtensionQuery {
            payor_id: None,
            status: self.status.map(|s| s.as_str().to_owned()),
            before: page.before.clone(),
            limit: i64::from(page.limit),
        };
        Ok((page, query))
    }
}

pub(super) fn listed(page: &Page, records: Vec<ExtensionRecord>) -> ExtensionList {
    let next_cursor = page.next(&records, |r| (r.row.requested_at, r.row.id.clone()));
    ExtensionList {
        items: records.into_iter().map(Into::into).collect(),
        next_cursor,
    }
}

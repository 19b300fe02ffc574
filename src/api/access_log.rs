//! `GET /v1/municipalities/{municipality}/access-log`: the clerk-treasurer
//! reviews who read which confidential record, when, and on what basis; and
//! `GET /v1/zones/{zone}/access-log`: the zone admin reviews the zone's own
//! log (every download of an expenditure report's attachment).
//!
//! Contract of the zone's log: the zone admin only (`ZoneAction::ReadAccessLog`:
//! commission members, the tourism entity, member clerks and API clients 403,
//! anyone unrelated to the zone 404), the same filters, order and cursor.
//!
//! Contract: clerk-treasurer only (`Action::ReadAccessLog`: staff and other
//! roles of the municipality 403, anyone else 404). Entries of this
//! municipality only (the query filters by tenant and, on PostgreSQL,
//! row-level security hides every other tenant's entries), newest first,
//! paged by an opaque cursor (the last entry's instant and id). Entries name
//! records by type and id, never by a confidential value. Reading the log is
//! not itself a read of a confidential record and is not logged.

use actix_web::{get, web};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    admin::{Page, utc},
    caller::{InMunicipality, InZone, MunicipalUnit, ZoneUnit},
    extract::ApiQuery,
};
use crate::{
    app::AppState,
    db::expenditures::ZoneAccessRow,
    db::{self, access_log::LogQuery, models::AccessLogRow},
    error::{ApiError, Problem},
    tenancy::{Action, ZoneAction},
    usecases::expenditures::attachments,
};

/// Filters and paging of the access log.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AccessLogParams {
    /// Only reads of this record id (e.g. a payor id).
    pub record_id: Option<String>,
    /// Only reads by this user or client id.
    pub actor_id: Option<String>,
    /// Only entries at or after this RFC 3339 instant.
    #[param(value_type = Option<String>, format = DateTime)]
    pub since: Option<String>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

/// One read of a confidential record.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccessLogEntry {
    /// Entry id.
    pub id: String,
    /// When the read happened (UTC).
    pub at: DateTime<Utc>,
    /// `user` or `client`.
    pub actor_kind: String,
    /// The user or API client id.
    pub actor_id: String,
    /// The role, `disclosure:<grant id>` or `api_client` the read was allowed under.
    pub basis: String,
    /// The kind of record read, e.g. `payor`.
    pub record_type: String,
    /// The id of the record read.
    pub record_id: String,
    /// What was done, e.g. `read`.
    pub action: String,
    /// The `x-request-id` of the request that read it.
    pub request_id: String,
}

/// A page of the access log.
#[derive(Debug, Serialize, ToSchema)]
pub struct AccessLogPage {
    /// Entries on this page, newest first.
    pub items: Vec<AccessLogEntry>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// An entry of either log from its row: the municipality's and the zone's tables
/// have the same columns, so the one mapping serves both row types.
macro_rules! entry_of {
    ($row:expr) => {{
        let row = $row;
        AccessLogEntry {
            id: row.id,
            at: utc(row.at),
            actor_kind: row.actor_kind,
            actor_id: row.actor_id,
            basis: row.basis,
            record_type: row.record_type,
            record_id: row.record_id,
            action: row.action,
            request_id: row.request_id,
        }
    }};
}

fn to_api(row: AccessLogRow) -> AccessLogEntry {
    entry_of!(row)
}

/// Review the access log: every read of the municipality's confidential records, newest first.
///
/// Only the municipality's clerk-treasurer (staff, operators and API clients get 403).
/// Each entry says who read or wrote which confidential record, when, and under which
/// role or disclosure grant (Montello room tax, confidentiality ¶: returns and audit
/// reports may be divulged only to the persons it lists). Reading the log is not itself
/// logged; entries are never edited.
#[utoipa::path(
    operation_id = "list_access_log",
    tag = "disclosures",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        AccessLogParams
    ),
    responses(
        (status = 200, description = "A page of entries, newest first", body = AccessLogPage),
        (status = 422, description = "`limit` out of range, `since` not RFC 3339, or `cursor` not one this service returned", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/access-log")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<AccessLogParams>, ApiError>,
) -> Result<web::Json<AccessLogPage>, ApiError> {
    here.read_for(
        &state,
        Action::ReadAccessLog,
        move |MunicipalUnit {
                  conn, municipality, ..
              }| {
            let ApiQuery(params) = params?;
            let (query, page) = query_of(params)?;
            let rows = db::access_log::list(conn, municipality.id, &query)?;
            let next_cursor = page.next(&rows, |r| (r.at, r.id.clone()));
            Ok(web::Json(AccessLogPage {
                items: rows.into_iter().map(to_api).collect(),
                next_cursor,
            }))
        },
    )
    .await
}

fn zone_to_api(row: ZoneAccessRow) -> AccessLogEntry {
    entry_of!(row)
}

/// The filters and page of `params` as a query.
fn query_of(params: AccessLogParams) -> Result<(LogQuery, Page), ApiError> {
    let page = Page::parse(params.limit, params.cursor.as_deref())?;
    let query = LogQuery {
        record_id: params.record_id,
        actor_id: params.actor_id,
        since: params.since.as_deref().map(parse_since).transpose()?,
        before: page.before.clone(),
        limit: i64::from(page.limit),
    };
    Ok((query, page))
}

/// Review the zone's access log: every download of an expenditure report's attachment, newest first.
///
/// Only the zone's zone admin (commission members, the tourism entity, member clerks and
/// API clients get 403; anyone unrelated to the zone 404). Each entry says who read which
/// attachment (`expenditure_attachment`, named `{report}/attachments/{id}`), when, under
/// which zone role, and in which request. Reading the log is not itself logged; entries
/// are never edited.
#[utoipa::path(
    operation_id = "list_zone_access_log",
    tag = "expenditures",
    security(("bearer" = [])),
    params(
        crate::api::params::ZonePath,
        AccessLogParams
    ),
    responses(
        (status = 200, description = "A page of entries, newest first", body = AccessLogPage),
        (status = 400, description = "`cursor` not one this service returned", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` out of range or `since` not RFC 3339", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/zones/{zone}/access-log")]
pub async fn list_for_zone(
    state: web::Data<AppState>,
    here: InZone,
    params: Result<ApiQuery<AccessLogParams>, ApiError>,
) -> Result<web::Json<AccessLogPage>, ApiError> {
    here.read_for(
        &state,
        ZoneAction::ReadAccessLog,
        move |ZoneUnit { conn, ctx, .. }| {
            let ApiQuery(params) = params?;
            let (query, page) = query_of(params)?;
            let rows = attachments::access_log(conn, &ctx, &query)?;
            let next_cursor = page.next(&rows, |r| (r.at, r.id.clone()));
            Ok(web::Json(AccessLogPage {
                items: rows.into_iter().map(zone_to_api).collect(),
                next_cursor,
            }))
        },
    )
    .await
}

/// The `since` filter: an RFC 3339 instant, kept as UTC.
fn parse_since(text: &str) -> Result<chrono::NaiveDateTime, ApiError> {
    DateTime::parse_from_rfc3339(text)
        .map(|at| at.naive_utc())
        .map_err(|_| {
            ApiError::invalid(
                "since",
                "rfc3339",
                "an RFC 3339 instant, e.g. 2026-04-01T00:00:00Z",
            )
        })
}

//! `GET /v1/municipalities/{municipality}/payors`: a page of the payors the caller may see.
//!
//! Contract: the page holds only payors `payor_filter` lets the caller read
//! (all of them for clerk-treasurer, staff and `payors:read`/`payors:write`
//! clients; an operator's own; a disclosure's named payors), in id order,
//! filtered by `status` (on today's date: `open`, `closing`, `closed`) and by
//! a case-insensitive prefix of the legal name (Unicode lower case on both
//! backends: `ä` finds `Ä`; see `domain::registry::search_key`). A caller
//! who may read no payor here gets 404, before its parameters are judged.
//! Paging follows `api::pagination` (`limit` 1..=200, default 50; `cursor`
//! an opaque [`KeyCursor`]; a made-up cursor is 400). Legal names are
//! confidential, so each payor on the page gets its own access-log entry.

use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::{
    PayorList, PayorSummary, RegistryStatus, today,
    write::{Parse, Query, Read},
};
use crate::{
    api::pagination::{KeyCursor, next_cursor},
    error::{ApiError, Problem},
    usecases::payors::registry,
};

/// Paging and filters of the payor list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PayorListParams {
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page, unchanged; omit for the first page.
    pub cursor: Option<String>,
    /// `open` (no closing date), `closing` (a closing date still to come) or `closed`; omit for all.
    #[param(inline)]
    pub status: Option<RegistryStatus>,
    /// Only payors whose legal name starts with this text, ignoring case (1 to 200 characters).
    #[param(max_length = 200, min_length = 1)]
    pub name: Option<String>,
}

impl Parse for PayorListParams {
    type Into = registry::ListRequest;

    fn parse_into(self) -> Result<registry::ListRequest, ApiError> {
        let (limit, after) = KeyCursor::page(self.limit, self.cursor.as_deref())?;
        let name_prefix = match self.name {
            None => None,
            Some(raw) if raw.is_empty() || raw.chars().count() > 200 => {
                return Err(ApiError::invalid(
                    "name",
                    "length",
                    "must be 1 to 200 characters",
                ));
            }
            Some(raw) if raw.chars().any(char::is_control) => {
                return Err(ApiError::invalid(
                    "name",
                    "no_control_characters",
                    "must not contain control characters",
                ));
            }
            Some(raw) => Some(raw),
        };
        Ok(registry::ListRequest {
            status: self.status,
            name_prefix,
            after,
            limit,
        })
    }
}

/// List the payors the caller may see (each one listed is written to the access log).
///
/// Clerk-treasurer, municipal staff and an API client with `payors:read` or
/// `payors:write` see every payor; an operator only its own; a disclosure grantee only
/// the payors its active grants name. Filters: name (case-insensitive), status. Every
/// payor on the page is written to the access log (Montello room tax, confidentiality
/// ¶).
#[utoipa::path(
    operation_id = "list_payors",
    tag = "payors",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        PayorListParams
    ),
    responses(
        (status = 200, description = "A page of payors", body = PayorList),
        (status = 400, description = "Unparseable or unknown parameter, or a `cursor` this service did not return", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, or the caller may see no payor in it", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors")]
pub async fn list(request: Read<Query<PayorListParams>>) -> Result<web::Json<PayorList>, ApiError> {
    let today = today();
    let (rows, limit) = request
        .read(move |call| {
            let limit = call.input.limit;
            Ok((registry::list(call, today)?, limit))
        })
        .await?;
    let items: Vec<PayorSummary> = rows
        .into_iter()
        .map(|r| PayorSummary::from_row(r, today))
        .collect();
    let next_cursor = next_cursor(&items, limit, |p| KeyCursor::encode(&p.id));
    Ok(web::Json(PayorList { items, next_cursor }))
}

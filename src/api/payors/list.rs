//! `GET /v1/municipalities/{municipality}/payors`: a page of the payors the caller may see.
//!
//! Contract: the page holds only payors `payor_filter` lets the caller read
//! (all of them for clerk-treasurer, staff and `payors:read`/`payors:write`
//! clients; an operator's own; a disclosure's named payors), in id order,
//! filtered by `status` and by a case-sensitive prefix of the legal name.
//! A caller who may read no payor here gets 404. Paging follows
//! `api::pagination` (`limit` 1..=200, default 50; `cursor` = the last id).
//! Legal names are confidential, so each payor on the page gets its own
//! access-log entry (record type `payor`), in the transaction of the read.

use actix_web::{get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::{Actor, PayorList, PayorSummary, Reading, RegistryStatus};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiQuery,
        pagination::{PageParams, next_cursor},
    },
    app::AppState,
    db::{self, payors::PayorQuery},
    error::{ApiError, Problem},
};

/// Longest `name` prefix accepted.
const NAME_PREFIX_MAX: usize = 200;

/// Paging and filters of the payor list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PayorListParams {
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
    /// `open` (no closing date recorded) or `closed`; omit for both.
    #[param(inline)]
    pub status: Option<RegistryStatus>,
    /// Only payors whose legal name starts with this text (case-sensitive, 1 to 200 characters).
    pub name: Option<String>,
}

/// List the payors the caller may see (each one listed is written to the access log).
#[utoipa::path(
    operation_id = "list_payors",
    tag = "payors",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        PayorListParams
    ),
    responses(
        (status = 200, description = "A page of payors", body = PayorList),
        (status = 400, description = "Unparseable or unknown parameter", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, or the caller may see no payor in it", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Parameter out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<PayorListParams>, ApiError>,
) -> Result<web::Json<PayorList>, ApiError> {
    here.write(&state, move |MunicipalUnit { conn, ctx, .. }| {
        let actor = Actor::of(&ctx)?;
        let reading = Reading::resolve(conn, &ctx)?;
        let ApiQuery(params) = params?;
        let limit = PageParams {
            limit: params.limit,
            cursor: None,
        }
        .limit()?;
        if let Some(name) = &params.name
            && (name.is_empty() || name.chars().count() > NAME_PREFIX_MAX)
        {
            return Err(ApiError::invalid(
                "name",
                "length",
                format!("must be 1 to {NAME_PREFIX_MAX} characters"),
            ));
        }
        let query = PayorQuery {
            only: reading.only(),
            open: params.status.map(|s| s == RegistryStatus::Open),
            name_prefix: params.name,
            after: params.cursor,
            limit: i64::from(limit),
        };
        let rows = db::payors::list(conn, ctx.municipality_id, &query)?;
        for row in &rows {
            reading.log(conn, &actor, &row.id)?;
        }
        let items: Vec<PayorSummary> = rows.into_iter().map(PayorSummary::from_row).collect();
        let next_cursor = next_cursor(&items, limit, |p| p.id.clone());
        Ok(web::Json(PayorList { items, next_cursor }))
    })
    .await
}

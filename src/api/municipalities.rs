//! `/v1/municipalities`: the tenants, with their current zone (public).
//!
//! Contract: public information only; every tenant-scoped resource of later
//! modules nests under `/v1/municipalities/{municipality}`.

use std::collections::HashMap;

use actix_web::{get, web};
use chrono::{NaiveDate, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    caller::PublicMunicipality,
    extract::ApiQuery,
    pagination::{PageParams, Paged},
};
use crate::{
    app::AppState,
    db::{self, models::MunicipalityRow},
    error::ApiError,
};

/// The zone a municipality belongs to today.
#[derive(Debug, Serialize, ToSchema)]
pub struct MunicipalityZone {
    /// Slug of the zone.
    pub slug: String,
    /// Name of the zone.
    pub name: String,
    /// Date the municipality entered the zone.
    pub joined_on: NaiveDate,
}

/// A municipality that levies room tax (Wis. Stat. § 66.0615(1m)(a)).
#[derive(Debug, Serialize, ToSchema)]
pub struct Municipality {
    /// URL-safe identifier used in paths.
    pub slug: String,
    /// Official name.
    pub name: String,
    /// `city`, `village` or `town`.
    pub kind: String,
    /// County.
    pub county: String,
    /// The tourism zone it belongs to today, if any.
    pub zone: Option<MunicipalityZone>,
}

/// A page of municipalities.
#[derive(Debug, Serialize, ToSchema)]
pub struct MunicipalityList {
    /// The municipalities on this page, in slug order.
    pub items: Vec<Municipality>,
    /// Pass as `cursor` to get the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

fn assemble(
    rows: Vec<MunicipalityRow>,
    conn: &mut db::DbConn,
) -> Result<Vec<Municipality>, ApiError> {
    let ids: Vec<i64> = rows.iter().map(|m| m.id).collect();
    let today = crate::domain::clock::local_date(Utc::now());
    let mut zones: HashMap<i64, MunicipalityZone> =
        db::municipalities::memberships_on(conn, &ids, today)?
            .into_iter()
            .map(|(m, z)| {
                (
                    m.municipality_id,
                    MunicipalityZone {
                        slug: z.slug,
                        name: z.name,
                        joined_on: m.joined_on,
                    },
                )
            })
            .collect();
    Ok(rows
        .into_iter()
        .map(|m| Municipality {
            zone: zones.remove(&m.id),
            slug: m.slug,
            name: m.name,
            kind: m.kind,
            county: m.county,
        })
        .collect())
}

/// List municipalities.
///
/// Public: every municipality that levies room tax here, by slug, with its
/// kind, county and the zone it belongs to today; paginated by cursor.
#[utoipa::path(
    operation_id = "list_municipalities",
    tag = "municipalities",
    params(PageParams),
    responses(
        (status = 200, description = "A page of municipalities", body = MunicipalityList)
    )
)]
#[get("/v1/municipalities")]
pub async fn list(
    state: web::Data<AppState>,
    ApiQuery(page): ApiQuery<PageParams>,
) -> Result<web::Json<MunicipalityList>, ApiError> {
    let fetch = |conn: &mut db::DbConn, after: Option<&str>, limit| {
        let rows = db::municipalities::list(conn, after, limit)?;
        assemble(rows, conn)
    };
    let Paged { items, next_cursor } = page.read(&state, fetch, |m| m.slug.clone()).await?;
    Ok(web::Json(MunicipalityList { items, next_cursor }))
}

/// One municipality.
///
/// Public: the municipality with this slug (404 when there is none).
#[utoipa::path(
    operation_id = "get_municipality",
    tag = "municipalities",
    params(crate::api::params::MunicipalityPath),
    responses(
        (status = 200, description = "The municipality", body = Municipality)
    )
)]
#[get("/v1/municipalities/{municipality}")]
pub async fn show(
    state: web::Data<AppState>,
    at: PublicMunicipality,
) -> Result<web::Json<Municipality>, ApiError> {
    let mut one = at
        .read(&state, |conn, row| assemble(vec![row], conn))
        .await?;
    one.pop()
        .map(web::Json)
        .ok_or(ApiError::NotFound("municipality"))
}

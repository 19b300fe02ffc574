//! `/v1/zones`: tourism zones and their member municipalities (public).
//!
//! Contract: public information only (names, membership dates); no
//! authentication. A zone's agreement takes effect when its last listed
//! member enters (Montello room tax, zone agreement ¶B).

use std::collections::BTreeMap;

use actix_web::{get, web};
use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    caller::PublicZone,
    extract::ApiQuery,
    pagination::{PageParams, Paged},
};
use crate::{
    app::AppState,
    db::{self, models::ZoneRow},
    error::ApiError,
};

/// A municipality's membership in a zone.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneMember {
    /// Slug of the member municipality.
    pub municipality: String,
    /// Name of the member municipality.
    pub name: String,
    /// The municipality's first day in the zone.
    pub joined_on: NaiveDate,
    /// The municipality's last day in the zone, if it has left or will leave (from the next day its quotes send nothing to the commission).
    pub left_on: Option<NaiveDate>,
}

/// A tourism zone: municipalities perceived as one destination (Wis. Stat. § 66.0615(1)(h)).
#[derive(Debug, Serialize, ToSchema)]
pub struct Zone {
    /// URL-safe identifier used in paths.
    pub slug: String,
    /// Name of the zone.
    pub name: String,
    /// County the zone covers.
    pub county: String,
    /// The zone's tourism commission (Wis. Stat. § 66.0615(1)(a)).
    pub commission: String,
    /// The nonprofit tourism entity doing promotion for the zone, if any.
    pub tourism_entity: Option<String>,
    /// Date the zone agreement took effect: the date its last listed member entered.
    pub effective_from: Option<NaiveDate>,
    /// Members, past and present, in slug order.
    pub members: Vec<ZoneMember>,
}

/// A page of zones.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneList {
    /// The zones on this page, in slug order.
    pub items: Vec<Zone>,
    /// Pass as `cursor` to get the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

fn assemble(zones: Vec<ZoneRow>, conn: &mut db::DbConn) -> Result<Vec<Zone>, ApiError> {
    let ids: Vec<i64> = zones.iter().map(|z| z.id).collect();
    let mut by_zone: BTreeMap<i64, Vec<ZoneMember>> = BTreeMap::new();
    for (m, muni) in db::zones::members(conn, &ids)? {
        by_zone.entry(m.zone_id).or_default().push(ZoneMember {
            municipality: muni.slug,
            name: muni.name,
            joined_on: m.joined_on,
            left_on: m.left_on,
        });
    }
    Ok(zones
        .into_iter()
        .map(|z| {
            let members = by_zone.remove(&z.id).unwrap_or_default();
            Zone {
                effective_from: members.iter().map(|m| m.joined_on).max(),
                slug: z.slug,
                name: z.name,
                county: z.county,
                commission: z.commission_name,
                tourism_entity: z.tourism_entity_name,
                members,
            }
        })
        .collect())
}

/// List tourism zones.
///
/// Public, no sign-in. Paginated by cursor. Not written to the access log.
#[utoipa::path(
    operation_id = "list_zones",
    tag = "zones",
    params(PageParams),
    responses(
        (status = 200, description = "A page of zones", body = ZoneList)
    )
)]
#[get("/v1/zones")]
pub async fn list(
    state: web::Data<AppState>,
    ApiQuery(page): ApiQuery<PageParams>,
) -> Result<web::Json<ZoneList>, ApiError> {
    let fetch = |conn: &mut db::DbConn, after: Option<&str>, limit| {
        assemble(db::zones::list(conn, after, limit)?, conn)
    };
    let Paged { items, next_cursor } = page.read(&state, fetch, |z| z.slug.clone()).await?;
    Ok(web::Json(ZoneList { items, next_cursor }))
}

/// One tourism zone with its members.
///
/// Public, no sign-in: the zone with its members and their join and leave dates; the
/// zone's agreement takes effect when the last listed member enters (Montello room tax,
/// zone agreement ¶B). Not written to the access log.
#[utoipa::path(
    operation_id = "get_zone",
    tag = "zones",
    params(crate::api::params::ZonePath),
    responses(
        (status = 200, description = "The zone", body = Zone)
    )
)]
#[get("/v1/zones/{zone}")]
pub async fn show(state: web::Data<AppState>, at: PublicZone) -> Result<web::Json<Zone>, ApiError> {
    let mut one = at
        .read(&state, |conn, row| assemble(vec![row], conn))
        .await?;
    one.pop().map(web::Json).ok_or(ApiError::NotFound("zone"))
}

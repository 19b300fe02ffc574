//! `/v1/zones/{zone}/commission-roster`: the zone's tourism commission,
//! its members, affiliations and industry seats.
//!
//! Contract: thin handlers over `usecases::roster`. The zone admin writes
//! (adds a membership, ends one: a membership is never deleted); the zone
//! admin, commission members, the tourism entity, the zone's API clients
//! and member municipalities' clerk-treasurers read; other users related to
//! the zone 403, anyone else 404. Signed-in only, although Form SL-304 makes
//! the names public. The roster warns when fewer than half of the current
//! members represent the Wisconsin lodging and tourism industry (Montello
//! room tax, definitions, ZONE).

use actix_web::{HttpResponse, get, post, web};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::{
    api::{
        caller::{InZone, ZoneUnit},
        extract::{ApiJson, ApiQuery},
    },
    app::AppState,
    domain::roster::COMMISSION_CITATION,
    error::{ApiError, Problem},
    usecases::roster::{self, Membership, NewMember},
};

/// A membership to record.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MemberIn {
    /// The member's name (1 to 200 characters).
    pub name: String,
    /// Their affiliation: employer, business or office (1 to 200 characters).
    pub affiliation: String,
    /// Whether they represent the Wisconsin lodging and tourism industry.
    pub represents_lodging_and_tourism_industry: bool,
    /// Slug of the municipality that appointed them (a member, past or present, of the zone).
    pub appointed_by: String,
    /// First day of the term.
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date)]
    pub term_start: NaiveDate,
    /// Last day of the term, if known (not before its start).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[schema(value_type = Option<String>, format = Date)]
    pub term_end: Option<NaiveDate>,
}

/// The end of a membership.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EndIn {
    /// Last day of the term (not before its start).
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    #[schema(value_type = String, format = Date)]
    pub term_end: NaiveDate,
}

/// A member of the commission.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CommissionMember {
    /// Membership id.
    pub id: String,
    /// The member's name.
    pub name: String,
    /// Their affiliation.
    pub affiliation: String,
    /// Whether they represent the Wisconsin lodging and tourism industry.
    pub represents_lodging_and_tourism_industry: bool,
    /// Slug of the appointing municipality.
    pub appointed_by: String,
    /// First day of the term.
    #[schema(value_type = String, format = Date)]
    pub term_start: NaiveDate,
    /// Last day of the term, once recorded.
    #[schema(value_type = Option<String>, format = Date)]
    pub term_end: Option<NaiveDate>,
    /// Whether the membership is current on the roster's day (for a write: today).
    pub current: bool,
    /// When it was recorded (RFC 3339, UTC).
    pub recorded_at: DateTime<Utc>,
}

impl From<Membership> for CommissionMember {
    fn from(m: Membership) -> Self {
        CommissionMember {
            id: m.row.id,
            name: m.row.name,
            affiliation: m.row.affiliation,
            represents_lodging_and_tourism_industry: m.row.represents_lodging_and_tourism_industry,
            appointed_by: m.appointed_by,
            term_start: m.row.term_start,
            term_end: m.end.map(|e| e.term_end),
            current: m.current,
            recorded_at: m.row.created_at.and_utc(),
        }
    }
}

/// The roster on a day.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct CommissionRoster {
    /// The day the roster is judged on.
    #[schema(value_type = String, format = Date)]
    pub on: NaiveDate,
    /// Every membership, past and present, by term start.
    pub members: Vec<CommissionMember>,
    /// Current members on `on`.
    pub current_members: usize,
    /// Of those, how many represent the lodging and tourism industry.
    pub current_industry_members: usize,
    /// Present when fewer than half of the current members represent the industry.
    pub warning: Option<String>,
    /// The rule.
    pub citation: String,
}

/// Which day to judge the roster on.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RosterParams {
    /// A date (default today).
    #[serde(default, deserialize_with = "crate::domain::iso_date::strict_option")]
    #[param(value_type = Option<String>, format = Date)]
    pub on: Option<NaiveDate>,
}

/// The commission roster, with the industry-half warning.
///
/// Only the zone admin, commission members, the tourism entity, the zone's API clients and
/// the clerk-treasurers of member municipalities; other users related to the zone 403, anyone
/// else 404.
#[utoipa::path(
    operation_id = "get_commission_roster",
    tag = "expenditures",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath, RosterParams),
    responses(
        (status = 200, description = "The roster", body = CommissionRoster)
    )
)]
#[get("/v1/zones/{zone}/commission-roster")]
pub async fn show(
    state: web::Data<AppState>,
    here: InZone,
    query: Result<ApiQuery<RosterParams>, ApiError>,
) -> Result<web::Json<CommissionRoster>, ApiError> {
    let today = state.clock.today();
    let roster = here
        .read(&state, move |ZoneUnit { conn, ctx, .. }| {
            let on = match query {
                Ok(q) => q.0.on,
                Err(e) => {
                    // Authorise before the query is judged.
                    roster::list(conn, &ctx, today, today)?;
                    return Err(e);
                }
            }
            .unwrap_or(today);
            roster::list(conn, &ctx, on, today)
        })
        .await?;
    let current: Vec<&Membership> = roster.members.iter().filter(|m| m.current).collect();
    let industry = current
        .iter()
        .filter(|m| m.row.represents_lodging_and_tourism_industry)
        .count();
    Ok(web::Json(CommissionRoster {
        on: roster.on,
        current_members: current.len(),
        current_industry_members: industry,
        members: roster.members.into_iter().map(Into::into).collect(),
        warning: roster.warning,
        citation: COMMISSION_CITATION.to_owned(),
    }))
}

/// Add a member to the commission roster.
///
/// Only the zone admin, as a person.
#[utoipa::path(
    operation_id = "add_commission_member",
    tag = "expenditures",
    security(("bearer" = [])),
    params(crate::api::params::ZonePath),
    request_body = MemberIn,
    responses(
        (status = 201, description = "Recorded", body = CommissionMember),
        (status = 422, description = "`name` or `affiliation` not text, `appointed_by` no member of the zone (`zone_member`), `term_end` before `term_start`", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/commission-roster")]
pub async fn add(
    state: web::Data<AppState>,
    here: InZone,
    body: Result<ApiJson<MemberIn>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let today = state.clock.today();
    let now = crate::api::stamp::now(&state);
    let member = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            let new = body.map(|b| NewMember {
                name: b.0.name,
                affiliation: b.0.affiliation,
                represents_lodging_and_tourism_industry: b
                    .0
                    .represents_lodging_and_tourism_industry,
                appointed_by: b.0.appointed_by,
                term_start: b.0.term_start,
                term_end: b.0.term_end,
            });
            roster::add(conn, &ctx, new, today, now)
        })
        .await?;
    Ok(HttpResponse::Created().json(CommissionMember::from(member)))
}

/// End a membership: records its last day (a membership is never deleted).
///
/// Only the zone admin, as a person; once (409 `already_ended`).
#[utoipa::path(
    operation_id = "end_commission_membership",
    tag = "expenditures",
    security(("bearer" = [])),
    params(
        crate::api::params::ZonePath,
        ("member" = String, Path, description = "Membership id")
    ),
    request_body = EndIn,
    responses(
        (status = 200, description = "The membership, ended", body = CommissionMember),
        (status = 409, description = "`already_ended`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`term_end` before the term's start", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/commission-roster/{member}/end")]
pub async fn end(
    state: web::Data<AppState>,
    here: InZone,
    path: web::Path<(String, String)>,
    body: Result<ApiJson<EndIn>, ApiError>,
) -> Result<web::Json<CommissionMember>, ApiError> {
    let (_, member) = path.into_inner();
    let today = state.clock.today();
    let now = crate::api::stamp::now(&state);
    let out = here
        .write(&state, move |ZoneUnit { conn, ctx, .. }| {
            roster::end(conn, &ctx, &member, body.map(|b| b.0.term_end), today, now)
        })
        .await?;
    Ok(web::Json(out.into()))
}

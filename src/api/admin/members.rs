//! `/v1/zones/{zone}/members`: a zone admin adds municipalities to the zone
//! (creating them when new) and records their leaving.
//!
//! Contract: zone_admin of this zone only (`ZoneAction::ManageMembership`).
//! Municipalities, zones and memberships are public facts; nothing here
//! reads or returns confidential data. A municipality belongs to at most one
//! zone at a time: a membership overlapping another (in any zone) is a 409.
//! Creating a municipality here seeds no policy version and no users: its
//! policy is added with `roomtax policy add` (the response says so in
//! `next_steps`), its first clerk-treasurer with `roomtax admin create-user`;
//! a zone admin cannot grant municipal roles.

use actix_web::{HttpResponse, post, web};
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    api::{caller::InZone, extract::ApiJson},
    app::AppState,
    db::{
        self, DbConn,
        models::{MembershipRow, MunicipalityRow, NewMunicipality},
    },
    error::{ApiError, FieldError, Problem},
    tenancy::ZoneAction,
};

/// A municipality to create.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewMunicipalityRequest {
    /// URL-safe identifier used in paths: 2 to 63 lowercase letters, digits and single hyphens.
    #[schema(example = "westfield")]
    pub slug: String,
    /// Official name, 1 to 200 characters.
    #[schema(example = "Village of Westfield")]
    pub name: String,
    /// `city`, `village` or `town`.
    #[schema(example = "village")]
    pub kind: String,
    /// County, 1 to 100 characters.
    #[schema(example = "Marquette")]
    pub county: String,
}

/// The municipality joining: an existing one by slug, or a new one.
#[derive(Deserialize, ToSchema)]
#[serde(untagged)]
pub enum MunicipalityRef {
    /// Slug of an existing municipality.
    Existing(String),
    /// A municipality to create (it starts with no policy version and no users).
    New(NewMunicipalityRequest),
}

/// A municipality entering the zone.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The slug of an existing municipality, or `{slug, name, kind, county}` of a new one.
    pub municipality: MunicipalityRef,
    /// Date the municipality enters the zone.
    #[schema(example = "2027-01-01")]
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    pub joined_on: NaiveDate,
}

/// A municipality leaving the zone.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaveRequest {
    /// Date the municipality leaves (its first day outside the zone); after the day it joined.
    #[schema(example = "2027-12-31")]
    #[serde(deserialize_with = "crate::domain::iso_date::strict")]
    pub left_on: NaiveDate,
}

/// A member municipality (public facts only).
#[derive(Debug, Serialize, ToSchema)]
pub struct MemberMunicipality {
    /// URL-safe identifier used in paths.
    pub slug: String,
    /// Official name.
    pub name: String,
    /// `city`, `village` or `town`.
    pub kind: String,
    /// County.
    pub county: String,
}

/// A municipality's membership in a zone.
#[derive(Debug, Serialize, ToSchema)]
pub struct ZoneMembership {
    /// Slug of the zone.
    pub zone: String,
    /// The member municipality.
    pub municipality: MemberMunicipality,
    /// Date it entered the zone.
    pub joined_on: NaiveDate,
    /// Date it left the zone, if it has or will.
    pub left_on: Option<NaiveDate>,
}

/// A membership just recorded.
#[derive(Debug, Serialize, ToSchema)]
pub struct JoinedZone {
    /// The membership.
    #[serde(flatten)]
    pub membership: ZoneMembership,
    /// Whether the municipality was created by this request.
    pub municipality_created: bool,
    /// How many policy versions the municipality has (0 for a new one: none is seeded).
    pub policy_versions: usize,
    /// What remains to be done before the municipality can be served (empty when nothing).
    pub next_steps: Vec<String>,
}

fn is_slug(s: &str) -> bool {
    (2..=63).contains(&s.len())
        && s.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

impl NewMunicipalityRequest {
    /// Check every field, reporting every bad one at once.
    fn validate(&self) -> Result<(), ApiError> {
        let mut errors = Vec::new();
        if !is_slug(&self.slug) {
            errors.push(FieldError::new(
                "municipality.slug",
                "slug_format",
                "2 to 63 lowercase letters, digits and single hyphens, e.g. `village-of-x`",
            ));
        }
        for (field, value, max) in [
            ("municipality.name", &self.name, 200),
            ("municipality.county", &self.county, 100),
        ] {
            let n = value.trim().chars().count();
            if n == 0 || n > max {
                errors.push(FieldError::new(
                    field,
                    "length",
                    format!("give 1 to {max} characters"),
                ));
            }
        }
        if !["city", "village", "town"].contains(&self.kind.as_str()) {
            errors.push(FieldError::new(
                "municipality.kind",
                "municipality_kind",
                "one of `city`, `village`, `town`",
            ));
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ApiError::Validation(errors))
        }
    }
}

fn member(m: MunicipalityRow) -> MemberMunicipality {
    MemberMunicipality {
        slug: m.slug,
        name: m.name,
        kind: m.kind,
        county: m.county,
    }
}

/// The existing municipality named, or the new one created; and whether it was created.
fn resolve(conn: &mut DbConn, r: &MunicipalityRef) -> Result<(MunicipalityRow, bool), ApiError> {
    match r {
        MunicipalityRef::Existing(slug) => db::municipalities::by_slug(conn, slug)?
            .map(|m| (m, false))
            .ok_or_else(|| {
                ApiError::invalid(
                    "municipality",
                    "existing_municipality",
                    "no municipality has this slug; give {slug, name, kind, county} to create one",
                )
            }),
        MunicipalityRef::New(new) => {
            if db::municipalities::by_slug(conn, &new.slug)?.is_some() {
                return Err(ApiError::Conflict(format!(
                    "a municipality with slug `{}` exists: pass the slug alone to add it",
                    new.slug
                )));
            }
            let row = db::municipalities::insert(
                conn,
                &NewMunicipality {
                    slug: &new.slug,
                    name: new.name.trim(),
                    kind: &new.kind,
                    county: new.county.trim(),
                },
            )?;
            Ok((row, true))
        }
    }
}

/// Refuse a membership from `joined_on` (open-ended) that overlaps another one of the municipality.
fn check_no_overlap(
    conn: &mut DbConn,
    m: &MunicipalityRow,
    joined_on: NaiveDate,
) -> Result<(), ApiError> {
    let clash = db::zones::memberships_of(conn, m.id)?
        .into_iter()
        .find(|other| other.left_on.is_none_or(|left| left > joined_on));
    if let Some(other) = clash {
        let zone = db::zones::by_id(conn, other.zone_id)?
            .map(|z| z.slug)
            .unwrap_or_default();
        let until = other
            .left_on
            .map(|d| format!(" until {d}"))
            .unwrap_or_default();
        return Err(ApiError::Conflict(format!(
            "{} is a member of zone `{zone}` from {}{until}: a municipality belongs to one zone at a time",
            m.slug, other.joined_on
        )));
    }
    Ok(())
}

/// Add a municipality to the zone, creating it when new (with no policy and no users).
#[utoipa::path(
    operation_id = "add_zone_member",
    tag = "administration",
    security(("bearer" = [])),
    params(("zone" = String, Path, description = "Zone slug, e.g. `marquette-county`")),
    request_body = JoinRequest,
    responses(
        (status = 201, description = "The membership; for a new municipality `next_steps` says that no policy version and no clerk-treasurer exist yet", body = JoinedZone),
        (status = 400, description = "Malformed JSON, unknown field or wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller is related to the zone but not its zone_admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such zone, or the caller has no relation to it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The slug is taken by an existing municipality, or the municipality is a member of a zone at that date", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule; `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/members")]
pub async fn join(
    state: web::Data<AppState>,
    InZone { ctx, zone }: InZone,
    body: Result<ApiJson<JoinRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    ctx.require(ZoneAction::ManageMembership)?;
    let ApiJson(body) = body?;
    if let MunicipalityRef::New(new) = &body.municipality {
        new.validate()?;
    }
    let joined = state
        .db
        .run_scoped(ctx.db_scope(), move |conn| {
            let (municipality, created) = resolve(conn, &body.municipality)?;
            check_no_overlap(conn, &municipality, body.joined_on)?;
            db::zones::add_member(
                conn,
                &MembershipRow {
                    zone_id: zone.id,
                    municipality_id: municipality.id,
                    joined_on: body.joined_on,
                    left_on: None,
                },
            )?;
            let policy_versions = db::policies::history(conn, municipality.id)?.len();
            let mut next_steps = Vec::new();
            if policy_versions == 0 {
                next_steps.push(format!(
                    "no policy version: quotes and due calendars of {0} answer 422 until one is \
                     added with `roomtax policy add --municipality {0} --file FILE`",
                    municipality.slug
                ));
            }
            if created {
                next_steps.push(format!(
                    "no users: create its clerk-treasurer with `roomtax admin create-user --email E \
                     --role clerk_treasurer --municipality {} --password-stdin`",
                    municipality.slug
                ));
            }
            Ok(JoinedZone {
                membership: ZoneMembership {
                    zone: zone.slug,
                    joined_on: body.joined_on,
                    left_on: None,
                    municipality: member(municipality),
                },
                municipality_created: created,
                policy_versions,
                next_steps,
            })
        })
        .await?;
    Ok(HttpResponse::Created().json(joined))
}

/// Record that a member municipality leaves the zone.
#[utoipa::path(
    operation_id = "leave_zone",
    tag = "administration",
    security(("bearer" = [])),
    params(
        ("zone" = String, Path, description = "Zone slug, e.g. `marquette-county`"),
        ("municipality" = String, Path, description = "Slug of the member municipality")
    ),
    request_body = LeaveRequest,
    responses(
        (status = 200, description = "The membership, now with its end date", body = ZoneMembership),
        (status = 400, description = "Malformed JSON, unknown field or wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller is related to the zone but not its zone_admin", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such zone or municipality, the municipality was never a member, or the caller has no relation to the zone", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The municipality has already left the zone", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`left_on` is not after the day it joined", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/zones/{zone}/members/{municipality}/leave")]
pub async fn leave(
    state: web::Data<AppState>,
    InZone { ctx, zone }: InZone,
    path: web::Path<(String, String)>,
    body: Result<ApiJson<LeaveRequest>, ApiError>,
) -> Result<web::Json<ZoneMembership>, ApiError> {
    ctx.require(ZoneAction::ManageMembership)?;
    let ApiJson(body) = body?;
    let (_, slug) = path.into_inner();
    let membership = state
        .db
        .run_scoped(ctx.db_scope(), move |conn| {
            let municipality = db::municipalities::require(conn, &slug)?;
            let memberships: Vec<MembershipRow> = db::zones::memberships_of(conn, municipality.id)?
                .into_iter()
                .filter(|m| m.zone_id == zone.id)
                .collect();
            let Some(open) = memberships.iter().find(|m| m.left_on.is_none()) else {
                return Err(match memberships.last() {
                    None => ApiError::NotFound("membership"),
                    Some(last) => ApiError::Conflict(format!(
                        "{} already left this zone on {}",
                        municipality.slug,
                        last.left_on.unwrap_or(last.joined_on)
                    )),
                });
            };
            if body.left_on <= open.joined_on {
                return Err(ApiError::invalid(
                    "left_on",
                    "after_joined_on",
                    format!("must be after the day it joined, {}", open.joined_on),
                ));
            }
            if !db::zones::close_membership(conn, open, body.left_on)? {
                return Err(ApiError::Conflict(
                    "the membership changed meanwhile".into(),
                ));
            }
            Ok(ZoneMembership {
                zone: zone.slug,
                joined_on: open.joined_on,
                left_on: Some(body.left_on),
                municipality: member(municipality),
            })
        })
        .await?;
    Ok(web::Json(membership))
}

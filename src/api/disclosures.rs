//! `/v1/municipalities/{municipality}/disclosures`: court orders and legal
//! duties recorded as disclosure grants.
//!
//! Contract: clerk-treasurer only (`Action::ManageDisclosures`: staff and
//! other roles of the municipality 403, anyone else 404). A grant names its
//! legal reference and basis, one existing user (the grantee), the payors of
//! this municipality it covers, and an expiry in the future and at most
//! [`MAX_TERM_DAYS`] days away. The grantee gets read-only access to exactly
//! those payors until expiry or revocation (enforced where payors are read,
//! through `MunicipalityContext::payor_filter`), and sees the grant in
//! `GET /v1/me`. Revoking sets `revoked_at`; the record stays. Nothing
//! here is logged: references and payor ids stay out of the log.

use actix_web::{HttpResponse, delete, get, post, web};
use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::{
    admin::{GrantUser, Page, user_of, users_by_id, utc},
    caller::{InMunicipality, MunicipalUnit},
    extract::{ApiJson, ApiQuery},
};
use crate::{
    app::AppState,
    db::{self, disclosures::DisclosureQuery, models::DisclosureGrantRow},
    error::{ApiError, FieldError, Problem},
    tenancy::Action,
};

/// The longest a disclosure grant may run, in days from its creation.
pub const MAX_TERM_DAYS: i64 = 366;
/// The most payors one grant may name.
pub const MAX_PAYORS: usize = 100;

/// Why the law allows the disclosure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DisclosureBasis {
    /// A court order.
    CourtOrder,
    /// A person whose legal duties require the information.
    LegalDuty,
}

impl DisclosureBasis {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "court_order" => Some(Self::CourtOrder),
            "legal_duty" => Some(Self::LegalDuty),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::CourtOrder => "court_order",
            Self::LegalDuty => "legal_duty",
        }
    }
}

/// A disclosure to record.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DisclosureRequest {
    /// The court order's or legal duty's reference (case number, statute), 1 to 200 characters.
    #[schema(example = "Marquette County Circuit Court 2026CV000123")]
    pub reference: String,
    /// `court_order` or `legal_duty`.
    #[schema(value_type = DisclosureBasis)]
    pub basis: String,
    /// Email of the existing user who may read the payors.
    #[schema(example = "auditor@state.example")]
    pub grantee_email: String,
    /// The payors of this municipality the grant covers: 1 to 100 distinct ids.
    pub payor_ids: Vec<String>,
    /// When the access ends: an RFC 3339 instant in the future, at most 366 days away.
    #[schema(value_type = String, format = DateTime, example = "2027-01-31T23:59:59Z")]
    pub expires_at: String,
}

/// A recorded disclosure grant.
#[derive(Debug, Serialize, ToSchema)]
pub struct Disclosure {
    /// Disclosure grant id.
    pub id: String,
    /// The court order's or legal duty's reference.
    pub reference: String,
    /// `court_order` or `legal_duty`.
    pub basis: DisclosureBasis,
    /// The user who may read the payors.
    pub grantee: GrantUser,
    /// The payors covered, in id order.
    pub payor_ids: Vec<String>,
    /// When the access ends (UTC).
    pub expires_at: DateTime<Utc>,
    /// When it was recorded (UTC).
    pub created_at: DateTime<Utc>,
    /// User id of the clerk-treasurer who recorded it.
    pub created_by: String,
    /// When it was revoked (UTC); null unless revoked.
    pub revoked_at: Option<DateTime<Utc>>,
    /// Whether it is in force now (neither revoked nor expired).
    pub active: bool,
}

/// A page of disclosure grants.
#[derive(Debug, Serialize, ToSchema)]
pub struct DisclosureList {
    /// Grants on this page, newest first.
    pub items: Vec<Disclosure>,
    /// Pass as `cursor` to get the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// Paging and filter parameters of the list of disclosure grants.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DisclosureListParams {
    /// `true`: only grants in force now (neither revoked nor expired); absent or `false`: all.
    pub active: Option<bool>,
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

/// The request's fields that need no database, checked.
struct Checked {
    reference: String,
    basis: DisclosureBasis,
    expires_at: DateTime<Utc>,
}

impl DisclosureRequest {
    fn check(&self, now: DateTime<Utc>) -> Result<Checked, ApiError> {
        let mut errors = Vec::new();
        let reference = self.reference.trim();
        if reference.is_empty() || reference.chars().count() > 200 {
            errors.push(FieldError::new(
                "reference",
                "length",
                "give 1 to 200 characters",
            ));
        }
        let basis = DisclosureBasis::parse(&self.basis);
        if basis.is_none() {
            errors.push(FieldError::new(
                "basis",
                "disclosure_basis",
                "one of `court_order`, `legal_duty`",
            ));
        }
        if self.payor_ids.is_empty() || self.payor_ids.len() > MAX_PAYORS {
            errors.push(FieldError::new(
                "payor_ids",
                "count",
                format!("name 1 to {MAX_PAYORS} payors"),
            ));
        }
        for (i, id) in self.payor_ids.iter().enumerate() {
            if self.payor_ids[..i].contains(id) {
                errors.push(FieldError::new(
                    format!("payor_ids[{i}]"),
                    "distinct",
                    "this payor is already named",
                ));
            }
        }
        let expires_at = match DateTime::parse_from_rfc3339(&self.expires_at) {
            Err(_) => {
                errors.push(FieldError::new(
                    "expires_at",
                    "rfc3339",
                    "an RFC 3339 instant, e.g. 2027-01-31T23:59:59Z",
                ));
                None
            }
            Ok(at) => {
                let at = at.with_timezone(&Utc);
                if at <= now {
                    errors.push(FieldError::new(
                        "expires_at",
                        "in_future",
                        "must be in the future",
                    ));
                } else if at > now + Duration::days(MAX_TERM_DAYS) {
                    errors.push(FieldError::new(
                        "expires_at",
                        "max_term",
                        format!(
                            "at most {MAX_TERM_DAYS} days from now; record a new grant to extend"
                        ),
                    ));
                }
                Some(at)
            }
        };
        match (basis, expires_at) {
            (Some(basis), Some(expires_at)) if errors.is_empty() => Ok(Checked {
                reference: reference.to_owned(),
                basis,
                expires_at,
            }),
            _ => Err(ApiError::Validation(errors)),
        }
    }
}

fn to_api(
    row: DisclosureGrantRow,
    payor_ids: Vec<String>,
    grantee: GrantUser,
    now: DateTime<Utc>,
) -> Result<Disclosure, ApiError> {
    let basis = DisclosureBasis::parse(&row.basis)
        .ok_or_else(|| ApiError::internal("stored disclosure basis is unknown"))?;
    let expires_at = utc(row.expires_at);
    Ok(Disclosure {
        id: row.id,
        reference: row.reference,
        basis,
        grantee,
        payor_ids,
        active: row.revoked_at.is_none() && expires_at > now,
        expires_at,
        created_at: utc(row.created_at),
        created_by: row.created_by,
        revoked_at: row.revoked_at.map(utc),
    })
}

/// Record a court order or legal duty: read-only access for one user to named payors until expiry.
#[utoipa::path(
    operation_id = "create_disclosure",
    tag = "disclosures",
    security(("bearer" = [])),
    params(("municipality" = String, Path, description = "Municipality slug, e.g. `montello`")),
    request_body = DisclosureRequest,
    responses(
        (status = 201, description = "Recorded; the grantee can read the named payors until expiry", body = Disclosure),
        (status = 400, description = "Malformed JSON, unknown field or wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here is not clerk_treasurer", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, or the caller has no role in it", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule (`grantee_email` not a user, `payor_ids[i]` not a payor here, `expires_at` past or too far, ...); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/disclosures")]
pub async fn create(
    state: web::Data<AppState>,
    here: InMunicipality,
    body: Result<ApiJson<DisclosureRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let disclosure = here
        .write(
            &state,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                ctx.require(Action::ManageDisclosures)?;
                let ApiJson(body) = body?;
                let now = Utc::now();
                let checked = body.check(now)?;
                let created_by = ctx.caller.person_id()?.to_owned();
                let municipality_id = municipality.id;
                let mut errors = Vec::new();
                let grantee = db::identity::user_by_email(conn, &body.grantee_email)?;
                if grantee.is_none() {
                    errors.push(FieldError::new(
                        "grantee_email",
                        "existing_user",
                        "no user has this email; the grantee needs an account first",
                    ));
                }
                for (i, id) in body.payor_ids.iter().enumerate() {
                    if db::payors::get(conn, municipality_id, id)?.is_none() {
                        errors.push(FieldError::new(
                            format!("payor_ids[{i}]"),
                            "payor_exists",
                            "no such payor in this municipality",
                        ));
                    }
                }
                let Some(grantee) = grantee.filter(|_| errors.is_empty()) else {
                    return Err(ApiError::Validation(errors));
                };
                let row = DisclosureGrantRow {
                    municipality_id,
                    id: db::identity::new_id(),
                    reference: checked.reference,
                    basis: checked.basis.as_str().to_owned(),
                    grantee_user_id: grantee.id.clone(),
                    expires_at: checked.expires_at.naive_utc(),
                    created_at: now.naive_utc(),
                    created_by,
                    revoked_at: None,
                };
                let mut payor_ids = body.payor_ids;
                payor_ids.sort();
                db::disclosures::insert(conn, &row, &payor_ids)?;
                let user = GrantUser {
                    id: grantee.id,
                    email: grantee.email,
                    display_name: grantee.display_name,
                };
                to_api(row, payor_ids, user, now)
            },
        )
        .await?;
    Ok(HttpResponse::Created().json(disclosure))
}

/// List the municipality's disclosure grants, in force, expired and revoked (filter with `active=true`).
#[utoipa::path(
    operation_id = "list_disclosures",
    tag = "disclosures",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        DisclosureListParams
    ),
    responses(
        (status = 200, description = "A page of disclosure grants, newest first", body = DisclosureList),
        (status = 400, description = "Unparseable parameter", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here is not clerk_treasurer", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, or the caller has no role in it", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` out of range or `cursor` not one this service returned", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/disclosures")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<DisclosureListParams>, ApiError>,
) -> Result<web::Json<DisclosureList>, ApiError> {
    let rows = here
        .read(
            &state,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                ctx.require(Action::ManageDisclosures)?;
                let ApiQuery(params) = params?;
                let page = Page::parse(params.limit, params.cursor.as_deref())?;
                let now = Utc::now();
                let query = DisclosureQuery {
                    active_at: (params.active == Some(true)).then(|| now.naive_utc()),
                    before: page.before.clone(),
                    limit: i64::from(page.limit),
                };
                let municipality_id = municipality.id;
                let rows = db::disclosures::list(conn, municipality_id, &query)?;
                let users = users_by_id(conn, rows.iter().map(|(r, _)| r.grantee_user_id.clone()))?;
                let rows = rows
                    .into_iter()
                    .map(|(r, payors)| {
                        let user = user_of(&users, &r.grantee_user_id)?;
                        Ok((r.created_at, to_api(r, payors, user, now)?))
                    })
                    .collect::<Result<Vec<_>, ApiError>>()?;
                let next_cursor = page.next(&rows, |(at, d)| (*at, d.id.clone()));
                Ok(DisclosureList {
                    items: rows.into_iter().map(|(_, d)| d).collect(),
                    next_cursor,
                })
            },
        )
        .await?;
    Ok(web::Json(rows))
}

/// Revoke a disclosure grant (idempotent): the grantee's access ends at its next request.
#[utoipa::path(
    operation_id = "revoke_disclosure",
    tag = "disclosures",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        ("disclosure" = String, Path, description = "Disclosure grant id")
    ),
    responses(
        (status = 204, description = "Revoked (or already revoked)"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here is not clerk_treasurer", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality or disclosure grant, or the caller has no role in the municipality", body = Problem, content_type = "application/problem+json")
    )
)]
#[delete("/v1/municipalities/{municipality}/disclosures/{disclosure}")]
pub async fn revoke(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    here.write(
        &state,
        move |MunicipalUnit {
                  conn,
                  ctx,
                  municipality,
              }| {
            ctx.require(Action::ManageDisclosures)?;
            let (_, id) = path.into_inner();
            let municipality_id = municipality.id;
            db::disclosures::get(conn, municipality_id, &id)?
                .ok_or(ApiError::NotFound("disclosure"))?;
            db::disclosures::revoke(conn, municipality_id, &id, db::identity::now())?;
            Ok(())
        },
    )
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

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
//! here is logged: references and payor ids stay out of the log. The rules
//! of the terms are in `domain::disclosure`, the database's part in
//! `usecases::disclosures`; handlers authorise, parse, call one use case.

use actix_web::{HttpResponse, delete, get, post, web};
mod types;

use chrono::Utc;

pub use types::{Disclosure, DisclosureList, DisclosureListParams, DisclosureRequest};

use crate::{
    api::{
        admin::Page,
        caller::{InMunicipality, MunicipalUnit},
        extract::{ApiJson, ApiQuery},
    },
    app::AppState,
    error::{ApiError, Problem},
    tenancy::Action,
    usecases::disclosures,
};

pub use crate::domain::disclosure::{DisclosureBasis, MAX_PAYORS, MAX_TERM_DAYS};

/// Record a court order or legal duty: read-only access for one user to named payors until expiry.
///
/// Only the municipality's clerk-treasurer, as a person. The grantee reads the named
/// payors, read-only, until `expires_at`, citing the order or duty (Montello room tax,
/// confidentiality ¶: information may be divulged by an order of a court or for duties
/// imposed by law). Every read under the grant is written to the access log with it as
/// the basis.
#[utoipa::path(
    operation_id = "create_disclosure",
    tag = "disclosures",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath),
    request_body = DisclosureRequest,
    responses(
        (status = 201, description = "Recorded; the grantee can read the named payors until expiry", body = Disclosure),
        (status = 422, description = "A field breaks a rule (`grantee_email` not a user, `payor_ids[i]` not a payor here, `expires_at` past or too far, ...); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/disclosures")]
pub async fn create(
    state: web::Data<AppState>,
    here: InMunicipality,
    body: Result<ApiJson<DisclosureRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let now = Utc::now();
    let record = here
        .write_for(
            &state,
            Action::ManageDisclosures,
            move |MunicipalUnit { conn, ctx, .. }| {
                let ApiJson(body) = body?;
                let terms = body.terms(now)?;
                disclosures::record(conn, &ctx, terms, now)
            },
        )
        .await?;
    let disclosure = Disclosure::from_record(record, now)?;
    Ok(HttpResponse::Created().json(disclosure))
}

/// List the municipality's disclosure grants, in force, expired and revoked (filter with `active=true`).
///
/// Only the municipality's clerk-treasurer, as a person. Not written to the access log.
#[utoipa::path(
    operation_id = "list_disclosures",
    tag = "disclosures",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        DisclosureListParams
    ),
    responses(
        (status = 200, description = "A page of disclosure grants, newest first", body = DisclosureList),
        (status = 400, description = "Unparseable parameter, or a `cursor` this service did not return", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`limit` out of range", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/disclosures")]
pub async fn list(
    state: web::Data<AppState>,
    here: InMunicipality,
    params: Result<ApiQuery<DisclosureListParams>, ApiError>,
) -> Result<web::Json<DisclosureList>, ApiError> {
    let now = Utc::now();
    let (records, page) = here
        .read_for(
            &state,
            Action::ManageDisclosures,
            move |MunicipalUnit {
                      conn, municipality, ..
                  }| {
                let ApiQuery(params) = params?;
                let page = Page::parse(params.limit, params.cursor.as_deref())?;
                let request = disclosures::ListRequest {
                    active_at: (params.active == Some(true)).then(|| now.naive_utc()),
                    before: page.before.clone(),
                    limit: i64::from(page.limit),
                };
                Ok((disclosures::list(conn, municipality.id, &request)?, page))
            },
        )
        .await?;
    let next_cursor = page.next(&records, |r| (r.grant.created_at, r.grant.id.clone()));
    let items = records
        .into_iter()
        .map(|r| Disclosure::from_record(r, now))
        .collect::<Result<_, _>>()?;
    Ok(web::Json(DisclosureList { items, next_cursor }))
}

/// Revoke a disclosure grant (idempotent): the grantee's access ends at its next request.
///
/// Only the municipality's clerk-treasurer, as a person. Revoking a revoked or expired
/// grant changes nothing. Not written to the access log.
#[utoipa::path(
    operation_id = "revoke_disclosure",
    tag = "disclosures",
    security(("bearer" = [])),
    params(
        crate::api::params::MunicipalityPath,
        ("disclosure" = String, Path, description = "Disclosure grant id")
    ),
    responses(
        (status = 204, description = "Revoked (or already revoked)")
    )
)]
#[delete("/v1/municipalities/{municipality}/disclosures/{disclosure}")]
pub async fn revoke(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, id) = path.into_inner();
    here.write_for(
        &state,
        Action::ManageDisclosures,
        move |MunicipalUnit {
                  conn, municipality, ..
              }| disclosures::revoke(conn, municipality.id, &id),
    )
    .await?;
    Ok(HttpResponse::NoContent().finish())
}

//! `GET /v1/municipalities/{municipality}/payors/{payor}`: one payor with its establishments.
//!
//! Contract: readable by whoever `payor_filter` lets see this payor (a payor
//! outside the caller's view is 404, exactly like a missing one: an operator
//! asking for another payor of its municipality included). Every successful
//! read appends one access-log entry (record type `payor`) in the same
//! transaction. The `ETag` is the payor's version (which its establishments'
//! writes bump too).

use actix_web::{HttpResponse, get, http::header, web};

use super::{Payor, precondition::etag, today};
use crate::{
    api::caller::{InMunicipality, MunicipalUnit},
    app::AppState,
    error::ApiError,
    usecases::payors::{Actor, registry},
};

/// One payor with its establishments (each read is written to the access log).
///
/// Whoever may read it: clerk-treasurer, municipal staff, an API client with
/// `payors:read` or `payors:write`, the payor's own operator, or a disclosure grantee
/// for that payor (read-only); anyone else gets 404, as for a payor that does not
/// exist. Written to the access log (`payor`, `read`; Montello room tax,
/// confidentiality ¶).
#[utoipa::path(
    operation_id = "get_payor",
    tag = "payors",
    security(("bearer" = [])),
    params(
        crate::api::params::PayorPath
    ),
    responses(
        (status = 200, description = "The payor", body = Payor,
            headers(("ETag" = String, description = "Strong entity tag of the payor's version, e.g. `\"3\"`")))
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}")]
pub async fn show(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id) = path.into_inner();
    let record = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            let actor = Actor::of(&ctx)?;
            registry::show(conn, &ctx, &actor, &payor_id)
        })
        .await?;
    let payor = Payor::from_record(record, today())?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(payor.version)))
        .json(payor))
}

//! `POST /v1/municipalities/{municipality}/payors`: register a payor.
//!
//! Contract: clerk-treasurer, municipal staff or an API client with
//! `payors:write` (others related to the municipality 403, unrelated 404);
//! every field validated (422 naming field and rule), the annual election
//! against the municipality's policy (Hayward: calendar only); the new payor
//! has a fresh UUID and version 1; answers 201 with `Location` and `ETag`.
//! The write is logged (action `create`).

use actix_web::{HttpResponse, http::header, post, web};

use super::{
    NewPayor, Payor,
    precondition::payor_location,
    today,
    write::{self, PayorWrite},
};
use crate::{
    api::{caller::InMunicipality, extract::ApiJson},
    app::AppState,
    error::{ApiError, Problem},
    usecases::payors::registry,
};

/// Register a payor (a business that owes the tax) in the municipality.
///
/// Clerk-treasurer, municipal staff or an API client with `payors:write`. Fields are
/// checked by the registry rules; the annual election must be one the municipality's
/// policy allows (Hayward room tax: the calendar year only). Written to the access log
/// (`payor`, `create`).
#[utoipa::path(
    operation_id = "create_payor",
    tag = "payors",
    security(("bearer" = [])),
    params(crate::api::params::MunicipalityPath),
    request_body = NewPayor,
    responses(
        (status = 201, description = "Registered; the body is the new payor", body = Payor,
            headers(
                ("Location" = String, description = "Path of the new payor"),
                ("ETag" = String, description = "Strong entity tag of the new version, `\"1\"`")
            )),
        (status = 422, description = "A field breaks a rule (a fiscal `annual_election` where the ordinance allows only a calendar year included); `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors")]
pub async fn create(
    state: web::Data<AppState>,
    here: InMunicipality,
    body: Result<ApiJson<NewPayor>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let slug = here.slug().to_owned();
    let today = today();
    let record = write::unconditional(&state, here, body, move |w| {
        let PayorWrite {
            conn,
            ctx,
            actor,
            input,
            ..
        } = w;
        registry::create(conn, &ctx, &actor, input, today)
    })
    .await?;
    let payor = Payor::from_record(record, today)?;
    let mut response = HttpResponse::Created();
    response.insert_header((header::LOCATION, payor_location(&slug, &payor.id)));
    Ok(write::tagged(response, payor.version, &payor))
}

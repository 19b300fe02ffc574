//! `GET .../payors/{payor}/establishments/{establishment}`: one establishment.

use actix_web::{HttpResponse, get, http::header, web};

use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        payors::{Establishment, precondition::etag, today},
    },
    app::AppState,
    error::{ApiError, Problem},
    usecases::payors::{Actor, establishments},
};

/// One establishment of a payor (the read is written to the access log as a read of the payor).
#[utoipa::path(
    operation_id = "get_establishment",
    tag = "payors",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        ("payor" = String, Path, description = "Payor id (UUID)"),
        ("establishment" = String, Path, description = "Establishment id (UUID)")
    ),
    responses(
        (status = 200, description = "The establishment", body = Establishment,
            headers(("ETag" = String, description = "Strong entity tag of the establishment's version, e.g. `\"2\"`"))),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, payor or establishment of that payor, or the caller may not see the payor", body = Problem, content_type = "application/problem+json")
    )
)]
#[get("/v1/municipalities/{municipality}/payors/{payor}/establishments/{establishment}")]
pub async fn show(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (_, payor_id, id) = path.into_inner();
    let row = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            let actor = Actor::of(&ctx)?;
            establishments::show(conn, &ctx, &actor, &payor_id, &id)
        })
        .await?;
    let establishment = Establishment::from_row(row, today())?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(establishment.version)))
        .json(establishment))
}

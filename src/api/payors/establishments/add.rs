//! `POST .../payors/{payor}/establishments`: add an establishment.

use actix_web::{HttpResponse, http::header, post, web};

use crate::{
    api::{
        caller::InMunicipality,
        extract::ApiJson,
        payors::{
            Establishment, NewEstablishment,
            precondition::establishment_location,
            today,
            write::{self, PayorWrite},
        },
    },
    app::AppState,
    error::{ApiError, Problem},
    usecases::payors::establishments,
};

/// Add an establishment (a lodging place) to a payor.
#[utoipa::path(
    operation_id = "create_establishment",
    tag = "payors",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        ("payor" = String, Path, description = "Payor id (UUID)")
    ),
    request_body = NewEstablishment,
    responses(
        (status = 201, description = "Added; the body is the new establishment (the payor's version moves on too)", body = Establishment,
            headers(
                ("Location" = String, description = "Path of the new establishment"),
                ("ETag" = String, description = "Strong entity tag of the establishment's version, `\"1\"`")
            )),
        (status = 400, description = "Malformed JSON, unknown field or wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here does not allow changing payors", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality or payor, or the caller has no role in it", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The payor is closed", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over 256 KiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule; `errors` names field and rule", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/establishments")]
pub async fn create(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String)>,
    body: Result<ApiJson<NewEstablishment>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let slug = here.slug().to_owned();
    let (_, payor_id) = path.into_inner();
    let today = today();
    let row = write::unconditional(&state, here, body, move |w| {
        let PayorWrite {
            conn,
            ctx,
            actor,
            input,
            ..
        } = w;
        establishments::add(conn, &ctx, &actor, &payor_id, input, today)
    })
    .await?;
    let establishment = Establishment::from_row(row, today)?;
    let location = establishment_location(&slug, &establishment.payor_id, &establishment.id);
    let mut response = HttpResponse::Created();
    response.insert_header((header::LOCATION, location));
    Ok(write::tagged(
        response,
        establishment.version,
        &establishment,
    ))
}

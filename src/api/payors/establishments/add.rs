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
///
/// Clerk-treasurer, municipal staff or an API client with `payors:write`. The kind is
/// one of the lodging places the ordinances define (hotel, motel, bed and breakfast,
/// campground, short-term rental, ...); a closed payor gets no new establishment. The
/// payor's ETag changes too. Written to the access log (`establishment`, `create`).
#[utoipa::path(
    operation_id = "create_establishment",
    tag = "payors",
    security(("bearer" = [])),
    params(
        crate::api::params::PayorPath
    ),
    request_body = NewEstablishment,
    responses(
        (status = 201, description = "Added; the body is the new establishment (the payor's version moves on too)", body = Establishment,
            headers(
                ("Location" = String, description = "Path of the new establishment"),
                ("ETag" = String, description = "Strong entity tag of the establishment's version, `\"1\"`")
            )),
        (status = 409, description = "The payor is closed", body = Problem, content_type = "application/problem+json")
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

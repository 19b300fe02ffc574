//! `POST .../payors/{payor}/establishments`: add an establishment.

use actix_web::{post, web};

use crate::{
    api::payors::{
        Establishment, NewEstablishment, PayorKey,
        answers::{Answer, Created},
        today,
        write::Create,
    },
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
    params(crate::api::params::PayorPath),
    request_body = NewEstablishment,
    responses(
        Answer<Created, Establishment>,
        (status = 409, description = "The payor is closed", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/establishments")]
pub async fn create(
    path: web::Path<PayorKey>,
    request: Create<NewEstablishment>,
) -> Result<Answer<Created, Establishment>, ApiError> {
    let PayorKey { payor } = path.into_inner();
    let slug = request.slug().to_owned();
    let today = today();
    let row = request
        .write(move |call| establishments::add(call, &payor, today))
        .await?;
    Ok(Answer::created(&slug, Establishment::from_row(row, today)?))
}

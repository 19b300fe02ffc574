//! `/v1/municipalities/{municipality}/payors/{payor}/establishments`: add,
//! change and close the lodging places a payor runs.
//!
//! Contract: authorised like payor writes (clerk-treasurer, staff,
//! `payors:write`; an operator 403; unrelated callers 404). Establishments
//! are read inside the payor (`GET .../payors/{payor}`), where each shows its
//! `version`; they have no read of their own. An establishment is addressed
//! under its payor: one of another payor is 404. Changes and closes need
//! `If-Match` with the establishment's version (428 / 412) and bump it; the
//! payor's own version is untouched. A closed payor takes no new
//! establishment (409); closing twice is 409; an establishment cannot close
//! before it opened (422). Every write is logged (record type `establishment`).

use actix_web::{HttpResponse, http::header, patch, post, web};

use super::{
    Actor, CloseRequest, Establishment, EstablishmentPatch, IF_MATCH_DOC, IfMatch,
    NewEstablishment, etag, fields::closing_after_opening, payor_for_write, payor_location,
};
use crate::{
    api::{
        caller::{InMunicipality, MunicipalUnit},
        extract::ApiJson,
    },
    app::AppState,
    db::{self, DbConn, models::EstablishmentRow},
    error::{ApiError, Problem},
    tenancy::Action,
};

/// The establishment `id` of payor `payor_id`, or 404.
fn establishment_of(
    conn: &mut DbConn,
    municipality_id: i64,
    payor_id: &str,
    id: &str,
) -> Result<EstablishmentRow, ApiError> {
    db::payors::establishment(conn, municipality_id, id)?
        .filter(|e| e.payor_id == payor_id)
        .ok_or(ApiError::NotFound("establishment"))
}

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
        (status = 201, description = "Added; the body is the new establishment", body = Establishment,
            headers(
                ("Location" = String, description = "Path of the new establishment (it accepts PATCH; read it inside its payor)"),
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
    let (_, payor_id) = path.into_inner();
    let location = format!("{}/establishments", payor_location(here.slug(), &payor_id));
    let establishment = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ctx.require(Action::WritePayors)?;
            let ApiJson(body) = body?;
            let fields = body.parse()?;
            let actor = Actor::of(&ctx)?;
            let payor = payor_for_write(conn, ctx.municipality_id, &payor_id)?;
            if let Some(on) = payor.closed_on {
                return Err(ApiError::Conflict(format!(
                    "this payor closed on {on}; it takes no new establishment"
                )));
            }
            let row = fields.into_row(
                ctx.municipality_id,
                db::identity::new_id(),
                payor.id,
                db::identity::now(),
            );
            db::payors::insert_establishment(conn, &row)?;
            actor.log_write(conn, &ctx, "establishment", &row.id, "create")?;
            Establishment::from_row(row)
        })
        .await?;
    Ok(HttpResponse::Created()
        .insert_header((header::LOCATION, format!("{location}/{}", establishment.id)))
        .insert_header((header::ETAG, etag(establishment.version)))
        .json(establishment))
}

/// Change an establishment (needs `If-Match` with its version).
#[utoipa::path(
    operation_id = "update_establishment",
    tag = "payors",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        ("payor" = String, Path, description = "Payor id (UUID)"),
        ("establishment" = String, Path, description = "Establishment id (UUID)"),
        ("If-Match" = String, Header, description = IF_MATCH_DOC)
    ),
    request_body = EstablishmentPatch,
    responses(
        (status = 200, description = "Changed; the body is the establishment as now stored", body = Establishment,
            headers(("ETag" = String, description = "Strong entity tag of the establishment's new version"))),
        (status = 400, description = "Malformed JSON, unknown field or wrong type", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here does not allow changing payors", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, payor or establishment of that payor, or the caller has no role in the municipality", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` names another version: read the payor again", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over 256 KiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A field breaks a rule; `errors` names field and rule", body = Problem, content_type = "application/problem+json"),
        (status = 428, description = "`If-Match` is missing", body = Problem, content_type = "application/problem+json")
    )
)]
#[patch("/v1/municipalities/{municipality}/payors/{payor}/establishments/{establishment}")]
pub async fn update(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
    if_match: IfMatch,
    body: Result<ApiJson<EstablishmentPatch>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let establishment = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ctx.require(Action::WritePayors)?;
            let ApiJson(body) = body?;
            let changes = body.parse()?;
            let precondition = if_match.required()?;
            let (_, payor_id, id) = path.into_inner();
            let actor = Actor::of(&ctx)?;
            let mut row = establishment_of(conn, ctx.municipality_id, &payor_id, &id)?;
            precondition.check(row.version)?;
            let read = row.version;
            changes.apply(&mut row)?;
            row.version = read + 1;
            row.updated_at = db::identity::now();
            if !db::payors::update_establishment(conn, &row, read)? {
                return Err(ApiError::PreconditionFailed);
            }
            actor.log_write(conn, &ctx, "establishment", &row.id, "update")?;
            Establishment::from_row(row)
        })
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(establishment.version)))
        .json(establishment))
}

/// Record the date an establishment closed (needs `If-Match` with its version).
#[utoipa::path(
    operation_id = "close_establishment",
    tag = "payors",
    security(("bearer" = [])),
    params(
        ("municipality" = String, Path, description = "Municipality slug, e.g. `montello`"),
        ("payor" = String, Path, description = "Payor id (UUID)"),
        ("establishment" = String, Path, description = "Establishment id (UUID)"),
        ("If-Match" = String, Header, description = IF_MATCH_DOC)
    ),
    request_body = CloseRequest,
    responses(
        (status = 200, description = "Closed; the body is the establishment as now stored", body = Establishment,
            headers(("ETag" = String, description = "Strong entity tag of the establishment's new version"))),
        (status = 400, description = "Malformed JSON, unknown field or a date that does not parse", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid access token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The caller's role here does not allow changing payors", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such municipality, payor or establishment of that payor, or the caller has no role in the municipality", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The establishment is already closed", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "`If-Match` names another version: read the payor again", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over 256 KiB", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Body not sent as application/json", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`closed_on` is missing or before the opening date", body = Problem, content_type = "application/problem+json"),
        (status = 428, description = "`If-Match` is missing", body = Problem, content_type = "application/problem+json")
    )
)]
#[post("/v1/municipalities/{municipality}/payors/{payor}/establishments/{establishment}/close")]
pub async fn close(
    state: web::Data<AppState>,
    here: InMunicipality,
    path: web::Path<(String, String, String)>,
    if_match: IfMatch,
    body: Result<ApiJson<CloseRequest>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let establishment = here
        .write(&state, move |MunicipalUnit { conn, ctx, .. }| {
            ctx.require(Action::WritePayors)?;
            let ApiJson(body) = body?;
            let closed_on = body.parse()?;
            let precondition = if_match.required()?;
            let (_, payor_id, id) = path.into_inner();
            let actor = Actor::of(&ctx)?;
            let mut row = establishment_of(conn, ctx.municipality_id, &payor_id, &id)?;
            precondition.check(row.version)?;
            if let Some(on) = row.closed_on {
                return Err(ApiError::Conflict(format!(
                    "this establishment is already closed (on {on})"
                )));
            }
            closing_after_opening(row.opened_on, closed_on)?;
            let read = row.version;
            row.closed_on = Some(closed_on);
            row.version = read + 1;
            row.updated_at = db::identity::now();
            if !db::payors::update_establishment(conn, &row, read)? {
                return Err(ApiError::PreconditionFailed);
            }
            actor.log_write(conn, &ctx, "establishment", &row.id, "close")?;
            Establishment::from_row(row)
        })
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, etag(establishment.version)))
        .json(establishment))
}

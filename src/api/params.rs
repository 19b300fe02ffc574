//! The path parameters many operations share, described once for the OpenAPI document.
//!
//! Contract: each struct here is documentation only (`IntoParams`, never
//! extracted: handlers keep reading `web::Path` or the tenant extractors). A
//! handler lists one of them in `#[utoipa::path(params(...))]` instead of
//! repeating the parameter lines, in the order the parameters appear in the
//! path. The slug `pattern` and `maxLength` of `municipality` and `zone` are
//! added by [`super::framework_answers`], which also documents the 404 every
//! path parameter can answer.
#![allow(dead_code)] // read by utoipa's derive only

use utoipa::IntoParams;

/// `{municipality}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
pub struct MunicipalityPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
}

/// `{zone}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ZonePath {
    /// Zone slug, e.g. `marquette-county`.
    zone: String,
}

/// `{municipality}/payors/{payor}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
pub struct PayorPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Payor id (UUID).
    payor: String,
}

/// `{municipality}/payors/{payor}/establishments/{establishment}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
pub struct EstablishmentPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Payor id (UUID).
    payor: String,
    /// Establishment id (UUID).
    establishment: String,
}

/// `{municipality}/payors/{payor}/returns/{return}`.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ReturnPath {
    /// Municipality slug, e.g. `montello`.
    municipality: String,
    /// Payor id (UUID).
    payor: String,
    /// Return id (UUID).
    #[param(rename = "return")]
    r#return: String,
}

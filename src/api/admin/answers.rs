//! The answers several administration operations document alike, each
//! written once as an `IntoResponses` type listed in `responses(...)`.
//!
//! Contract: documentation only; the handlers answer through `ApiError`, and
//! these types are never built.
#![allow(dead_code)] // read by utoipa's derive only

use utoipa::IntoResponses;

use crate::error::Problem;

/// The refusal of a page request's `limit` or `cursor`, one answer for every
/// administration list (`responses(..., PageRefused)`).
#[derive(IntoResponses)]
#[response(
    status = 422,
    description = "`limit` out of range or `cursor` not one this service returned",
    content_type = "application/problem+json"
)]
pub struct PageRefused(Problem);

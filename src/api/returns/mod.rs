//! `/v1/municipalities/{municipality}/payors/{payor}/returns` and
//! `/v1/municipalities/{municipality}/returns`: filing, amending and reading
//! room-tax returns, a payor's obligations, and the clerk's view of a period.
//!
//! Contract: thin handlers over `usecases::returns` (authorise, parse, one
//! use-case call in the request's unit of work, shape). A return is shown
//! as one of its versions ([`TaxReturn`]): the latest by default, every one
//! under `/versions`; its `ETag` is the latest version number, which an
//! amendment's `If-Match` must name. Dates a filing counts by are the
//! municipality's local calendar date (America/Chicago), read from the
//! application's clock. Confidential: every read is in the access log.

pub mod attachments;
pub mod extensions;
pub mod file;
pub mod obligations;
pub mod read;
mod types;

pub use types::*;

use crate::{
    error::ApiError,
    tenancy::{EnteredAs, MunicipalityContext},
};

/// The check every keyed write on a payor's returns makes first (filing,
/// amending, asking an extension, attaching a document): whoever may file for
/// `payor_id` (its operator, the clerk-treasurer, staff), 404 for anyone else.
/// The closure owns its copy of the id, so it can be cloned into each unit of
/// work the idempotent write runs.
pub(crate) fn may_file(
    payor_id: &str,
) -> impl Fn(&MunicipalityContext) -> Result<EnteredAs, ApiError> + Clone + Send + 'static {
    let payor_id = payor_id.to_owned();
    move |ctx| ctx.return_filer(&payor_id)
}

/// `/v1/municipalities/{slug}/payors/{payor}/returns/{id}`.
pub fn return_location(slug: &str, payor_id: &str, id: &str) -> String {
    format!("/v1/municipalities/{slug}/payors/{payor_id}/returns/{id}")
}

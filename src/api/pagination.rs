//! Cursor pagination shared by every list endpoint.
//!
//! Contract: `limit` is 1..=200 (default 50); `cursor` is the opaque value a
//! previous page returned as `next_cursor` (today, the last item's slug).
//! A page shorter than `limit` has no `next_cursor`.

use serde::Deserialize;
use utoipa::IntoParams;

use crate::error::ApiError;

/// Default page size.
pub const DEFAULT_LIMIT: u32 = 50;
/// Largest page size.
pub const MAX_LIMIT: u32 = 200;

/// Paging parameters of a list.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PageParams {
    /// Items per page, 1 to 200 (default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<u32>,
    /// The `next_cursor` of the previous page; omit for the first page.
    pub cursor: Option<String>,
}

impl PageParams {
    /// The validated page size.
    pub fn limit(&self) -> Result<u32, ApiError> {
        match self.limit {
            None => Ok(DEFAULT_LIMIT),
            Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
            Some(_) => Err(ApiError::invalid(
                "limit",
                "range",
                format!("must be between 1 and {MAX_LIMIT}"),
            )),
        }
    }
}

/// The cursor for the page after `items`, if a further page may exist.
pub fn next_cursor<T>(items: &[T], limit: u32, key: impl Fn(&T) -> String) -> Option<String> {
    (items.len() as u32 == limit)
        .then(|| items.last().map(key))
        .flatten()
}

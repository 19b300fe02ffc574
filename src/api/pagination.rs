//! Cursor pagination shared by every list endpoint.
//!
//! Contract: `limit` is 1..=200 (default 50); `cursor` is the opaque value a
//! previous page returned as `next_cursor` (the last item's slug for the
//! public lists in slug order; a [`KeyCursor`] for lists in id order; a
//! [`TimeCursor`] for newest-first lists). A cursor this service did not
//! return is a 400 `invalid-parameter` problem naming `cursor`, never an
//! empty page. A page shorter than `limit` has no `next_cursor`.

use base64::{Engine as _, engine::general_purpose::URL_SAFE_NO_PAD};
use chrono::NaiveDateTime;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::{app::AppState, db::DbConn, error::ApiError};

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
        validate_limit(self.limit)
    }
}

impl PageParams {
    /// One page of a list in key order (the public lists: slug order), read
    /// in one read unit of work. `fetch` gets the connection, the cursor as
    /// given (the last key of the previous page) and the page size, and
    /// returns at most that many items in key order; `key` is an item's key,
    /// which becomes the `next_cursor` of a full page.
    pub async fn read<T, F>(
        self,
        state: &AppState,
        fetch: F,
        key: fn(&T) -> String,
    ) -> Result<Paged<T>, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut DbConn, Option<&str>, i64) -> Result<Vec<T>, ApiError> + Send + 'static,
    {
        let limit = self.limit()?;
        let items = state
            .db
            .read(move |conn| fetch(conn, self.cursor.as_deref(), i64::from(limit)))
            .await?;
        let next_cursor = next_cursor(&items, limit, key);
        Ok(Paged { items, next_cursor })
    }
}

/// One page of items and the cursor of the next page (`None` on the last):
/// what a list handler shapes into its own response type (whose `items`
/// say what they are).
#[derive(Debug)]
pub struct Paged<T> {
    /// The items on this page, in the list's order.
    pub items: Vec<T>,
    /// The `next_cursor` to answer.
    pub next_cursor: Option<String>,
}

/// A page size as given (`None`: the default), checked against the bounds.
pub fn validate_limit(limit: Option<u32>) -> Result<u32, ApiError> {
    match limit {
        None => Ok(DEFAULT_LIMIT),
        Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n),
        Some(_) => Err(ApiError::invalid(
            "limit",
            "range",
            format!("must be between 1 and {MAX_LIMIT}"),
        )),
    }
}

/// The cursor for the page after `items`, if a further page may exist.
pub fn next_cursor<T>(items: &[T], limit: u32, key: impl Fn(&T) -> String) -> Option<String> {
    (items.len() as u32 == limit)
        .then(|| items.last().map(key))
        .flatten()
}

/// The position after an item of a newest-first list: its instant and id
/// (the id breaks ties between items of the same instant). Opaque on the
/// wire: base64url of `<instant>|<id>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeCursor {
    /// The last item's instant.
    pub at: NaiveDateTime,
    /// The last item's id.
    pub id: String,
}

const CURSOR_TIME: &str = "%Y-%m-%dT%H:%M:%S%.9f";

impl TimeCursor {
    /// The cursor after this item.
    pub fn new(at: NaiveDateTime, id: impl Into<String>) -> Self {
        Self { at, id: id.into() }
    }

    /// The wire form.
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("{}|{}", self.at.format(CURSOR_TIME), self.id))
    }

    /// Parse a cursor a previous page returned; anything else is a 400 naming `cursor`.
    pub fn parse(text: &str) -> Result<Self, ApiError> {
        let bad = bad_cursor;
        let bytes = URL_SAFE_NO_PAD.decode(text).map_err(|_| bad())?;
        let decoded = String::from_utf8(bytes).map_err(|_| bad())?;
        let (at, id) = decoded.split_once('|').ok_or_else(bad)?;
        let at = NaiveDateTime::parse_from_str(at, CURSOR_TIME).map_err(|_| bad())?;
        if id.is_empty() || id.len() > 64 {
            return Err(bad());
        }
        Ok(Self::new(at, id))
    }
}

/// The error for a cursor this service did not return.
fn bad_cursor() -> ApiError {
    ApiError::InvalidParameter {
        name: "cursor".into(),
        message: "not a cursor this service returned: pass back the `next_cursor` of the previous page unchanged".into(),
    }
}

/// The position after an item of a list in key (id) order. Opaque on the
/// wire: base64url of `after:<key>`, so that a made-up value is refused
/// rather than read as a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCursor(pub String);

const KEY_MARK: &str = "after:";
/// Longest key a cursor may carry, in bytes.
const KEY_MAX: usize = 200;

impl KeyCursor {
    /// The wire form.
    pub fn encode(key: &str) -> String {
        URL_SAFE_NO_PAD.encode(format!("{KEY_MARK}{key}"))
    }

    /// Parse a cursor a previous page returned; anything else is a 400 naming `cursor`.
    pub fn parse(text: &str) -> Result<Self, ApiError> {
        let bytes = URL_SAFE_NO_PAD.decode(text).map_err(|_| bad_cursor())?;
        let decoded = String::from_utf8(bytes).map_err(|_| bad_cursor())?;
        match decoded.strip_prefix(KEY_MARK) {
            Some(key)
                if !key.is_empty()
                    && key.len() <= KEY_MAX
                    && !key.chars().any(char::is_control) =>
            {
                Ok(Self(key.to_owned()))
            }
            _ => Err(bad_cursor()),
        }
    }

    /// The page a list in key order asks for: the validated `limit` (judged
    /// first), and the key the page starts after, from `cursor`.
    pub fn page(
        limit: Option<u32>,
        cursor: Option<&str>,
    ) -> Result<(u32, Option<String>), ApiError> {
        let limit = validate_limit(limit)?;
        let after = cursor.map(Self::parse).transpose()?.map(|c| c.0);
        Ok((limit, after))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_cursors_round_trip_to_the_nanosecond() {
        let at = chrono::DateTime::from_timestamp(1_780_000_000, 123_456_789)
            .unwrap()
            .naive_utc();
        let cursor = TimeCursor::new(at, "abc-1");
        let text = cursor.encode();
        assert!(!text.contains('|'), "opaque: {text}");
        assert_eq!(TimeCursor::parse(&text).unwrap(), cursor);
        for bad in [
            "",
            "!!",
            "bm9waXBl",
            &URL_SAFE_NO_PAD.encode("2026-01-01|x"),
        ] {
            assert!(
                matches!(TimeCursor::parse(bad), Err(ApiError::InvalidParameter { ref name, .. }) if name == "cursor"),
                "{bad}"
            );
        }
    }

    #[test]
    fn key_cursors_round_trip_and_made_up_ones_are_refused() {
        let id = "5b0c8c1e-0000-4000-8000-000000000001";
        assert_eq!(KeyCursor::parse(&KeyCursor::encode(id)).unwrap().0, id);
        for bad in [
            "garbage",
            "",
            "%%",
            id,
            &URL_SAFE_NO_PAD.encode("after:"),
            &URL_SAFE_NO_PAD.encode("after:a\0b"),
            &URL_SAFE_NO_PAD.encode("before:x"),
        ] {
            assert!(
                matches!(KeyCursor::parse(bad), Err(ApiError::InvalidParameter { ref name, .. }) if name == "cursor"),
                "{bad}"
            );
        }
    }
}

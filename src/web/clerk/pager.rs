//! Next and previous links of the clerk's paged lists.
//!
//! Contract: a list reads one page at a time with the API's keyset cursor
//! (the last item's key, `after`, or the API's opaque `cursor`) and page size (`limit`, 1 to 200 as
//! `api::pagination::validate_limit` says; the page's own default when
//! absent). Keyset cursors only go forward, so the page carries the cursors
//! of the pages before it (`trail`, comma-separated): "Previous" drops the
//! last of them, "Next" adds the current one. Every other parameter of the
//! list (a search) is kept on both links. No JavaScript.

use maud::{Markup, html};

use super::query_value;
use crate::{api::pagination::validate_limit, error::ApiError};

/// The `limit` of `query` (the API's bounds), `default` when absent.
pub fn limit_of(query: &str, default: u32) -> Result<u32, ApiError> {
    match query_value(query, "limit") {
        None => Ok(default),
        Some(raw) => validate_limit(Some(raw.parse::<u32>().map_err(|_| {
            ApiError::invalid("limit", "integer", "a whole number from 1 to 200")
        })?)),
    }
}

/// Where the page is in its list, and what its links keep.
#[derive(Debug, Clone)]
pub struct Pager {
    /// The list's path.
    pub base: String,
    /// The name of the cursor parameter (`after`, or the API's `cursor`).
    pub param: &'static str,
    /// Parameters kept on every link (a search).
    pub keep: Vec<(&'static str, String)>,
    /// `limit` as asked, kept.
    pub limit: Option<String>,
    /// The cursor this page started after (none on the first page).
    pub after: Option<String>,
    /// The cursors of the pages before this one (the first page's is none).
    pub trail: Vec<String>,
    /// The cursor of the next page, when this page was full.
    pub next: Option<String>,
}

impl Pager {
    fn link(&self, after: Option<&str>, trail: &[String]) -> String {
        let mut q = form_urlencoded::Serializer::new(String::new());
        for (k, v) in &self.keep {
            q.append_pair(k, v);
        }
        if let Some(l) = &self.limit {
            q.append_pair("limit", l);
        }
        if let Some(a) = after {
            q.append_pair(self.param, a);
        }
        if !trail.is_empty() {
            q.append_pair("trail", &trail.join(","));
        }
        let q = q.finish();
        if q.is_empty() {
            self.base.clone()
        } else {
            format!("{}?{q}", self.base)
        }
    }

    /// The link to the previous page (none on the first).
    pub fn previous(&self) -> Option<String> {
        self.after.as_ref()?;
        let mut trail = self.trail.clone();
        let before = trail.pop();
        Some(self.link(before.as_deref(), &trail))
    }

    /// The link to the next page (none on the last).
    pub fn following(&self) -> Option<String> {
        let next = self.next.as_deref()?;
        let mut trail = self.trail.clone();
        if let Some(a) = &self.after {
            trail.push(a.clone());
        }
        Some(self.link(Some(next), &trail))
    }

    /// The links, as a `nav` (empty when the list fits on one page).
    pub fn links(&self) -> Markup {
        let (previous, following) = (self.previous(), self.following());
        let both = previous.is_some() && following.is_some();
        html! {
            @if previous.is_some() || following.is_some() {
                nav.pager.no-print aria-label="Pages" {
                    @if let Some(p) = previous { a rel="prev" href=(p) { "Previous page" } }
                    @if both { " · " }
                    @if let Some(n) = following { a rel="next" href=(n) { "Next page" } }
                }
            }
        }
    }
}

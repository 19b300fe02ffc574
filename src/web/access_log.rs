//! The access-log pages' shared pieces (the municipality's log for the
//! clerk-treasurer, the zone's attachment downloads for its admin): the
//! filter by record and the table of entries.
//!
//! Contract: both logs list the same columns by the same names
//! ([`Logged`]); the table is `#access-log`, newest first as given, and
//! shows who read what, never a record's content.

use chrono::NaiveDateTime;
use maud::{Markup, html};

use super::layout::Field;
use crate::db::{expenditures::ZoneAccessRow, models::AccessLogRow};

/// One entry as the table shows it.
pub struct Entry<'a> {
    /// When (UTC).
    pub at: NaiveDateTime,
    /// The actor's kind (a user, a client).
    pub actor_kind: &'a str,
    /// The actor's id.
    pub actor_id: &'a str,
    /// The role or grant it acted as.
    pub basis: &'a str,
    /// The kind of record.
    pub record_type: &'a str,
    /// The record's id.
    pub record_id: &'a str,
    /// What was done (read, write, download).
    pub action: &'a str,
}

/// A stored log row.
pub trait Logged {
    /// The row as the table shows it.
    fn entry(&self) -> Entry<'_>;
}

/// Both logs' rows have the same columns by the same names (a function
/// cannot be generic over field names, hence the macro).
macro_rules! logged {
    ($($row:ty),*) => {$(
        impl Logged for $row {
            fn entry(&self) -> Entry<'_> {
                Entry {
                    at: self.at,
                    actor_kind: &self.actor_kind,
                    actor_id: &self.actor_id,
                    basis: &self.basis,
                    record_type: &self.record_type,
                    record_id: &self.record_id,
                    action: &self.action,
                }
            }
        }
    )*};
}

logged!(AccessLogRow, ZoneAccessRow);

/// The `GET` form to `action` listing only the record `shown` (`hint` says whose ids).
pub fn filter(action: &str, hint: &str, shown: Option<&str>) -> Markup {
    html! {
        form.inline.no-print method="get" action=(action) {
            (Field { hint: Some(hint), ..Field::text("record_id", "Only this record", shown.unwrap_or("")) }.render(&[]))
            div { button type="submit" { "Show" } }
        }
    }
}

/// The table of `rows`, in their order.
pub fn table<R: Logged>(rows: &[R]) -> Markup {
    html! {
        table #access-log {
            caption { "Access log entries" }
            thead { tr {
                th scope="col" { "When (UTC)" } th scope="col" { "Who" } th scope="col" { "As" }
                th scope="col" { "Record" } th scope="col" { "Id" } th scope="col" { "Action" }
            } }
            tbody { @for r in rows.iter().map(Logged::entry) {
                tr {
                    th scope="row" { (r.at.format("%Y-%m-%d %H:%M:%S")) }
                    td { (r.actor_kind) " " code { (r.actor_id) } }
                    td { (r.basis) }
                    td { (r.record_type) }
                    td { code { (r.record_id) } }
                    td { (r.action) }
                }
            } }
        }
    }
}

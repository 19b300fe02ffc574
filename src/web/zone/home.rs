//! The links of the zone home (`/app/z/{zone}`, rendered by `web::places`)
//! for the person's roles there: only pages whose use case lets that role
//! in (the tourism entity and commission members: expenditure reports;
//! every zone role: remittances, seats, the roster, charts; the zone admin:
//! membership and the access log; the JSON API for the rest).

use maud::{Markup, html};

use super::base;
use crate::auth::Role;

/// The links for `roles` in the zone `slug`.
pub fn links(slug: &str, roles: &[Role]) -> Markup {
    let b = base(slug);
    let reads_reports = roles
        .iter()
        .any(|r| matches!(r, Role::TourismEntity | Role::CommissionMember));
    html! {
        h2 { "Your work here" }
        ul.cards {
            @if roles.contains(&Role::TourismEntity) {
                li { h3 { a href=(format!("{b}/expenditures/new")) { "Write an expenditure report" } }
                    p { "List what the room-tax money was spent on, item by item, and submit it to the commission." } }
            }
            @if reads_reports {
                li { h3 { a href=(format!("{b}/expenditures")) { "Expenditure reports" } }
                    p { @if roles.contains(&Role::CommissionMember) { "Review the tourism entity's reports: comment, accept or return." }
                        @else { "Your reports, their review and attachments." } } }
            }
            li { h3 { a href=(format!("{b}/remittances")) { "Remittances by member and quarter" } }
                p { "What each member forwarded to the commission; the seats; each member's report back and SL-304 figures." } }
            li { h3 { a href=(format!("{b}/roster")) { "Commission roster" } }
                p { @if roles.contains(&Role::ZoneAdmin) { "Add members to the commission and end their terms." }
                    @else { "Who sits on the commission, and the industry-half rule." } } }
            @if reads_reports {
                li { h3 { a href=(format!("{b}/inspections")) { "Inspections of records" } }
                    p { "Members' requests to inspect the records, and their answers." } }
            }
            li { h3 { a href=(format!("{b}/charts")) { "Charts" } }
                p { "Collections by quarter per member"
                    @if reads_reports { "; the commission's receipts against its spending by category" } "." } }
        }
        @if roles.contains(&Role::ZoneAdmin) {
            ul.cards {
                li { h3 { a href=(format!("{b}/members")) { "Members and invitations" } }
                    p { "Invite a municipality (its clerk-treasurer accepts), withdraw an invitation, record a member leaving." } }
                li { h3 { a href=(format!("{b}/access-log")) { "Access log" } }
                    p { "Who downloaded which receipt or invoice, when." } }
            }
            p.note { "Zone users are managed through the " a href="/docs/" { "JSON API" } " for now." }
        }
    }
}

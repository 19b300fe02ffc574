//! The clerk-treasurer's and staff's pages (issue 11 item 4), under
//! `/app/m/{municipality}/clerk`: the dashboard of a quarter, the payor
//! registry and a payor's page with its statement and the payment form,
//! its determinations and notices (the notices' PDFs),
//! the returns of a period with the missing ones, the delinquency list with
//! the special-assessment roll, the extensions to decide, the remittances to
//! the zone (submitted and their transfers recorded by the clerk-treasurer),
//! and, for the clerk-treasurer only, the disclosures, the access log and
//! the users and grants. The navigation ([`nav`]) links only the pages the
//! caller's role opens ([`Menu`]).
//!
//! Contract:
//! - every page enters the municipality through `api::caller::InMunicipality`
//!   with the person's web session as the caller, then calls the one
//!   use-case function the matching API endpoint calls (named in each
//!   page's doc), which authorises first: an operator, the zone's roles and a
//!   disclosure grantee get the API's 403 page, a person with no relation to
//!   the municipality its 404 page, before anything of the municipality is
//!   read. [`gate`] runs the pages' common check (`Action::ReviewReturns`)
//!   first where a page reads more than one use case;
//! - every confidential read goes through those use cases, which write the
//!   access log exactly as the API's reads do;
//! - forms are plain POSTs with the CSRF token checked first
//!   (`web::Posted`, before the handler runs) and a `303 See Other` after success; a
//!   refused form is shown again with each problem next to its field;
//! - nothing here logs a payor's name or an amount.

pub mod dashboard;
pub mod delinquency;
pub mod determinations;
pub mod disclosures;
pub mod extensions;
pub mod invitations;
pub mod log;
pub mod notices;
pub mod pager;
pub mod payment;
pub mod payors;
pub mod remittance_submit;
pub mod remittances;
pub mod returns;
pub mod statement;
pub mod users;

use actix_web::web;
use maud::{Markup, html};

use super::{WebError, session::Visit};
use crate::{
    api::caller::{InMunicipality, MunicipalUnit},
    app::AppState,
    error::ApiError,
    tenancy::{Action, MunicipalityContext},
};

/// The clerk's routes (mounted inside the `/app` scope).
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/m/{municipality}/clerk", web::get().to(dashboard::page))
        .route(
            "/m/{municipality}/clerk/payors",
            web::get().to(payors::list),
        )
        .route(
            "/m/{municipality}/clerk/payors/{payor}",
            web::get().to(payors::show),
        )
        .route(
            "/m/{municipality}/clerk/payors/{payor}/payments",
            web::post().to(payment::record),
        )
        .route(
            "/m/{municipality}/clerk/payors/{payor}/payments/{payment}",
            web::get().to(payment::receipt),
        )
        .route(
            "/m/{municipality}/clerk/payors/{payor}/statement",
            web::get().to(statement::page),
        )
        .route(
            "/m/{municipality}/clerk/payors/{payor}/statement.csv",
            web::get().to(statement::csv),
        )
        .route(
            "/m/{municipality}/clerk/payors/{payor}/notices",
            web::get().to(notices::page),
        )
        .route(
            "/m/{municipality}/clerk/payors/{payor}/determinations",
            web::post().to(notices::make),
        )
        .route(
            "/m/{municipality}/clerk/payors/{payor}/notices/{notice}/document",
            web::get().to(notices::document),
        )
        .route(
            "/m/{municipality}/clerk/returns",
            web::get().to(returns::page),
        )
        .route(
            "/m/{municipality}/clerk/delinquencies",
            web::get().to(delinquency::page),
        )
        .route(
            "/m/{municipality}/clerk/special-assessments.csv",
            web::get().to(delinquency::special_assessments_csv),
        )
        .route(
            "/m/{municipality}/clerk/extensions",
            web::get().to(extensions::page),
        )
        .route(
            "/m/{municipality}/clerk/extensions/{extension}",
            web::post().to(extensions::decide),
        )
        .route(
            "/m/{municipality}/clerk/remittances",
            web::get().to(remittances::page),
        )
        .route(
            "/m/{municipality}/clerk/remittances/submit",
            web::get().to(remittance_submit::preview),
        )
        .route(
            "/m/{municipality}/clerk/remittances",
            web::post().to(remittance_submit::submit),
        )
        .route(
            "/m/{municipality}/clerk/remittances/{remittance}/transfer",
            web::post().to(remittances::transfer),
        )
        .route(
            "/m/{municipality}/clerk/determinations",
            web::get().to(determinations::page),
        )
        .route(
            "/m/{municipality}/clerk/disclosures",
            web::get().to(disclosures::page),
        )
        .route(
            "/m/{municipality}/clerk/disclosures",
            web::post().to(disclosures::create),
        )
        .route(
            "/m/{municipality}/clerk/disclosures/{disclosure}/revoke",
            web::post().to(disclosures::revoke),
        )
        .route(
            "/m/{municipality}/clerk/access-log",
            web::get().to(log::page),
        )
        .route("/m/{municipality}/clerk/users", web::get().to(users::page))
        .route(
            "/m/{municipality}/clerk/users",
            web::post().to(users::grant),
        )
        .route(
            "/m/{municipality}/clerk/users/{grant}/revoke",
            web::post().to(users::revoke),
        )
        .route(
            "/m/{municipality}/clerk/zone-invitations",
            web::get().to(invitations::page),
        )
        .route(
            "/m/{municipality}/clerk/zone-invitations/{id}/accept",
            web::post().to(invitations::accept),
        )
        .route(
            "/m/{municipality}/clerk/zone-invitations/{id}/decline",
            web::post().to(invitations::decline),
        );
}

/// The signed-in person inside the municipality `slug` (401: to the sign-in page).
pub fn enter(visit: &Visit, slug: String) -> Result<InMunicipality, WebError> {
    Ok(InMunicipality::new(super::caller_of(visit)?, slug))
}

/// The check every clerk page makes first: the clerk-treasurer and staff
/// review the municipality's returns; related roles 403, anyone else 404.
pub fn gate(ctx: &MunicipalityContext) -> Result<(), ApiError> {
    ctx.require(Action::ReviewReturns)
}

/// `/app/m/{slug}/clerk` + `rest`.
pub fn href(slug: &str, rest: &str) -> String {
    format!("/app/m/{slug}/clerk{rest}")
}

/// What of the clerk's pages the caller may open: what each page's check
/// (the same `MunicipalityContext::require` the use cases make) would allow,
/// so that the navigation shows only links that work (staff do not see the
/// clerk-treasurer's own pages).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Menu {
    /// `Action::ManageUsers`: users and grants.
    pub users: bool,
    /// `Action::ReadAccessLog`: the access log.
    pub access_log: bool,
    /// `Action::ManageDisclosures`: disclosures.
    pub disclosures: bool,
    /// `Action::AnswerZoneInvitations`: the zone's invitations.
    pub zone_invitations: bool,
}

impl Menu {
    /// The menu of the caller in `ctx`.
    pub fn of(ctx: &MunicipalityContext) -> Menu {
        Menu {
            users: ctx.require(Action::ManageUsers).is_ok(),
            access_log: ctx.require(Action::ReadAccessLog).is_ok(),
            disclosures: ctx.require(Action::ManageDisclosures).is_ok(),
            zone_invitations: ctx.require(Action::AnswerZoneInvitations).is_ok(),
        }
    }

    /// The menu of a caller whose request went on without its unit of work
    /// (a refused form): read in a unit of its own (nothing is logged).
    pub async fn read(state: &AppState, visit: &Visit, slug: &str) -> Result<Menu, WebError> {
        Ok(enter(visit, slug.to_owned())?
            .read(state, |MunicipalUnit { ctx, .. }| Ok(Menu::of(&ctx)))
            .await?)
    }
}

/// The clerk's navigation between their pages (`current` is marked); only
/// the pages `menu` allows are linked.
pub fn nav(slug: &str, current: &str, menu: Menu) -> Markup {
    let items = [
        ("", "Dashboard", true),
        ("/payors", "Payors", true),
        ("/returns", "Returns by period", true),
        ("/delinquencies", "Delinquencies", true),
        ("/extensions", "Extensions", true),
        ("/determinations", "Determinations", true),
        ("/remittances", "Remittances to the zone", true),
        ("/disclosures", "Disclosures", menu.disclosures),
        ("/access-log", "Access log", menu.access_log),
        ("/users", "Users and grants", menu.users),
        (
            "/zone-invitations",
            "Zone invitations",
            menu.zone_invitations,
        ),
    ];
    html! {
        nav.clerk aria-label="Clerk-treasurer" {
            ul {
                @for (rest, label, shown) in items {
                    @if shown {
                        li {
                            @if rest == current {
                                a href=(href(slug, rest)) aria-current="page" { (label) }
                            } @else {
                                a href=(href(slug, rest)) { (label) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The value of `name` in a query string (percent-decoded), if present and not blank.
pub fn query_value(query: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

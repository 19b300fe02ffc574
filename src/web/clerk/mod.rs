//! The clerk-treasurer's and staff's pages (issue 11 item 4), under
//! `/app/m/{municipality}/clerk`: the dashboard of a quarter, the payor
//! registry and a payor's page with its statement and the payment form,
//! its determinations and notices (the notices' PDFs),
//! the returns of a period with the missing ones, the delinquency list with
//! the special-assessment roll, the extensions to decide, the remittances to
//! the zone, the access log and the users and grants (clerk-treasurer only).
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
//!   (`web::FormData::checked`) and a `303 See Other` after success; a
//!   refused form is shown again with each problem next to its field;
//! - nothing here logs a payor's name or an amount.

pub mod dashboard;
pub mod delinquency;
pub mod extensions;
pub mod invitations;
pub mod log;
pub mod notices;
pub mod payment;
pub mod payors;
pub mod remittances;
pub mod returns;
pub mod statement;
pub mod users;

use actix_web::web;
use maud::{Markup, html};

use super::{WebError, session::Visit};
use crate::{
    api::caller::InMunicipality,
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
    let caller = visit
        .caller()
        .ok_or_else(|| WebError::Api(ApiError::Unauthorized("sign in first".into())))?;
    Ok(InMunicipality::new(caller, slug))
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

/// The clerk's navigation between their pages (`current` is marked).
pub fn nav(slug: &str, current: &str) -> Markup {
    let items = [
        ("", "Dashboard"),
        ("/payors", "Payors"),
        ("/returns", "Returns by period"),
        ("/delinquencies", "Delinquencies"),
        ("/extensions", "Extensions"),
        ("/remittances", "Remittances to the zone"),
        ("/access-log", "Access log"),
        ("/users", "Users and grants"),
        ("/zone-invitations", "Zone invitations"),
    ];
    html! {
        nav.clerk aria-label="Clerk-treasurer" {
            ul {
                @for (rest, label) in items {
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

/// The value of `name` in a query string (percent-decoded), if present and not blank.
pub fn query_value(query: &str, name: &str) -> Option<String> {
    form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

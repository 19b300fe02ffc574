//! After sign-in: the places a person works in (`/app/`), and the home page of
//! each (`/app/m/{municipality}`, `/app/z/{zone}`).
//!
//! Contract: every page enters through `api::caller` with the person's web
//! session as the caller (the same loading of grants, the same tenancy gate,
//! the same row-level security as the API), then through
//! `require_presence` of the tenant's context: a person with no role there
//! gets the 404 page (a zone role seeing a member municipality: 403), and
//! nothing of the tenant is read before that check. A person with one place
//! goes straight to it; with several, picks one from the list. An operator's
//! home shows what is due and when for its own payors only
//! (`usecases::returns::reading::payor_obligations`, which writes each read to
//! the access log, as the API's `GET .../obligations` does), with a link to
//! ask for an extension where `usecases::returns::extensions::askable`
//! offers one.

use actix_web::{HttpResponse, http::StatusCode, web};
use chrono::{Datelike, NaiveDate};
use maud::html;

use super::{WebError, layout, operator, render, see_other, session::Visit};
use crate::{
    api::caller::{CallerUnit, InMunicipality, InZone, MunicipalUnit, ZoneUnit},
    app::AppState,
    auth::Role,
    db,
    domain::Period,
    domain::obligations::{DueRange, Obligation},
    error::ApiError,
    tenancy::Subject,
    usecases::returns::{extensions, reading},
};

fn caller_of(visit: &Visit) -> Result<crate::api::caller::Authenticated, WebError> {
    visit
        .caller()
        .ok_or_else(|| WebError::Api(ApiError::Unauthorized("sign in first".into())))
}

/// One place a person may work in.
struct Place {
    href: String,
    name: String,
    roles: Vec<&'static str>,
}

/// `GET /app/`: the person's places (straight to the one when there is one).
pub async fn list(state: web::Data<AppState>, visit: Visit) -> Result<HttpResponse, WebError> {
    let caller = caller_of(&visit)?;
    let (email, places) = caller
        .read(&state, |CallerUnit { conn, caller }| {
            let mut places: Vec<Place> = Vec::new();
            let mut add = |href: String, name: String, role: &'static str| match places
                .iter_mut()
                .find(|p| p.href == href)
            {
                Some(p) if !p.roles.contains(&role) => p.roles.push(role),
                Some(_) => {}
                None => places.push(Place {
                    href,
                    name,
                    roles: vec![role],
                }),
            };
            let muni_ids: Vec<i64> = caller
                .grants
                .iter()
                .filter_map(|g| g.tenant.municipality_id())
                .chain(caller.disclosures.iter().map(|d| d.municipality_id))
                .collect();
            let zone_ids: Vec<i64> = caller
                .grants
                .iter()
                .filter_map(|g| g.tenant.zone_id())
                .collect();
            let munis = db::municipalities::slugs_of(conn, &muni_ids)?;
            let zones = db::zones::slugs_of(conn, &zone_ids)?;
            for g in &caller.grants {
                if let Some((_, slug)) = g
                    .tenant
                    .municipality_id()
                    .and_then(|id| munis.iter().find(|(m, _)| *m == id))
                {
                    add(format!("/app/m/{slug}"), slug.clone(), g.role.as_str());
                }
                if let Some((_, slug)) = g
                    .tenant
                    .zone_id()
                    .and_then(|id| zones.iter().find(|(z, _)| *z == id))
                {
                    add(format!("/app/z/{slug}"), slug.clone(), g.role.as_str());
                }
            }
            for d in &caller.disclosures {
                if let Some((_, slug)) = munis.iter().find(|(m, _)| *m == d.municipality_id) {
                    add(format!("/app/m/{slug}"), slug.clone(), "disclosure");
                }
            }
            let email = match &caller.subject {
                Subject::User { email, .. } => email.clone(),
                Subject::Client { .. } => String::new(),
            };
            Ok((email, places))
        })
        .await?;
    if let [only] = places.as_slice() {
        return Ok(see_other(&only.href));
    }
    let body = html! {
        h1 { "Where do you want to work?" }
        p { "Signed in as " (email) ". You hold roles in several places; choose one." }
        ul.cards {
            @for p in &places {
                li { h2 { a href=(p.href) { (p.name) } } p { (p.roles.join(", ").replace('_', " ")) } }
            }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, "Your places", body),
    ))
}

fn this_year(today: NaiveDate) -> DueRange {
    let year = today.year();
    DueRange {
        from: NaiveDate::from_ymd_opt(year, 1, 1).expect("1 January"),
        to: NaiveDate::from_ymd_opt(year, 12, 31).expect("31 December"),
    }
}

/// `GET /app/m/{municipality}`: the person's home in a municipality.
pub async fn municipality(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let here = InMunicipality::new(caller_of(&visit)?, slug.clone());
    let today = state.clock.today();
    let now = state.clock.now();
    let (name, roles, due) = here
        .write(
            &state,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                let roles = ctx.require_presence()?;
                let mut due: Vec<(String, Vec<Obligation>, Vec<Period>)> = Vec::new();
                for payor in ctx.own_payors() {
                    let items =
                        reading::payor_obligations(conn, &ctx, &payor, this_year(today), today)?;
                    let open: Vec<Period> = items
                        .iter()
                        .filter(|o| o.return_id.is_none())
                        .map(|o| o.period)
                        .collect();
                    let askable = extensions::askable(conn, &ctx, &payor, &open, now)?;
                    due.push((payor, items, askable));
                }
                Ok((municipality.name, roles, due))
            },
        )
        .await?;
    let role_names: Vec<&str> = roles.iter().map(|r| r.as_str()).collect();
    let clerk = roles
        .iter()
        .any(|r| matches!(r, Role::ClerkTreasurer | Role::MunicipalStaff));
    let body = html! {
        h1 { (name) }
        p { "Your role here: " (role_names.join(", ").replace('_', " ")) "." }
        @if clerk {
            p.lead { a href=(format!("/app/m/{slug}/clerk")) { "The clerk-treasurer's dashboard" }
                " (returns, payors, payments, statements, delinquencies)" }
        }
        @for (payor, items, askable) in &due {
            h2 { "What is due in " (today.year()) }
            p { a href=(format!("{}/account", operator::payor_path(&slug, payor))) { "Statement of account" } " · "
                a href=(format!("{}/extensions", operator::payor_path(&slug, payor))) { "Extensions of the time to file" } }
            table {
                caption { "Returns of payor " code { (payor) } }
                thead { tr { th scope="col" { "Return" } th scope="col" { "Due" } th scope="col" { "File by" } th scope="col" { "Status" } th scope="col" { "Filed" } th scope="col" { "Action" } } }
                tbody { @for o in items {
                    tr {
                        th scope="row" { (o.period) }
                        td { (o.due_date) }
                        td { (o.filing_due_date) }
                        td { (o.status.as_str().replace('_', " ")) }
                        td { @if let Some(d) = o.filed_on { (d) } @else { "—" } }
                        td { (operator::row_actions(&visit, &slug, payor, o, today, askable)) }
                    }
                } }
            }
        }
        @if due.is_empty() && !clerk {
            p.note { "The pages for your work here are being built. Until then, the "
                a href="/docs/" { "JSON API" } " does everything your role may do." }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &name, body),
    ))
}

/// `GET /app/z/{zone}`: the person's home in a zone (never an operator's figures).
pub async fn zone(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let here = InZone::new(caller_of(&visit)?, path.into_inner());
    let (name, slug, roles) = here
        .read(&state, |ZoneUnit { ctx, zone, .. }| {
            let roles = ctx.require_presence()?;
            Ok((zone.name, zone.slug, roles))
        })
        .await?;
    let role_names: Vec<&str> = roles.iter().map(|r| r.as_str()).collect();
    let body = html! {
        h1 { (name) }
        p { "Your role here: " (role_names.join(", ").replace('_', " ")) "." }
        (super::zone::home::links(&slug, &roles))
        p { a href=(format!("/app/public/zones/{slug}/statistics")) { "Room tax collected by member and quarter (public)" } }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &name, body),
    ))
}

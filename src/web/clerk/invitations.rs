//! `GET /app/m/{municipality}/clerk/zone-invitations`: the invitations of
//! zones addressed to the municipality, with `POST
//! .../zone-invitations/{id}/accept` and `.../decline` for a pending one.
//!
//! Contract: the API's `/v1/municipalities/{m}/zone-invitations` work:
//! authorised as the API's municipality side
//! (`Action::AnswerZoneInvitations`: the clerk-treasurer as a person;
//! staff and operators the 403 page, anyone else, a zone admin included,
//! the 404 page), then `usecases::membership` (`invitations_to`, `accept`,
//! `end_pending` with `Side::Municipality`). Joining takes both sides: the
//! zone invites (`web::zone::membership`), only the invited municipality
//! accepts. A refusal (the API's 409: already answered, one zone at a
//! time, one rate per zone) is the list again with the problem above it;
//! success is `303 See Other` to the list.

use actix_web::{HttpResponse, ResponseError as _, http::StatusCode, web};
use chrono::Utc;
use maud::html;

use super::{enter, href, nav};
use crate::{
    api::caller::MunicipalUnit,
    app::AppState,
    db,
    error::ApiError,
    tenancy::Action,
    usecases::membership::{self, Side},
    web::{Posted, WebError, layout, render, see_other, session::Visit},
};

/// `GET .../clerk/zone-invitations`.
pub async fn page(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    list(&state, &visit, path.into_inner(), StatusCode::OK, None).await
}

async fn list(
    state: &AppState,
    visit: &Visit,
    slug: String,
    status: StatusCode,
    problem: Option<(String, Vec<crate::error::FieldError>)>,
) -> Result<HttpResponse, WebError> {
    let here = enter(visit, slug.clone())?;
    let today = state.clock.today();
    let (invitations, zones, menu) = here
        .read_for(
            state,
            Action::AnswerZoneInvitations,
            move |MunicipalUnit {
                      conn,
                      municipality,
                      ctx,
                  }| {
                let invitations = membership::invitations_to(conn, &municipality)?;
                // The zones it is a member of today (public membership).
                let mut zones = Vec::new();
                for m in db::zones::memberships_of(conn, municipality.id)? {
                    if m.joined_on <= today && m.left_on.is_none_or(|l| l >= today) {
                        zones.extend(db::zones::by_id(conn, m.zone_id)?);
                    }
                }
                Ok((invitations, zones, super::Menu::of(&ctx)))
            },
        )
        .await?;
    let body = html! {
        (nav(&slug, "/zone-invitations", menu))
        h1 { "Invitations to join a tourism zone" }
        p { "A zone's invitation takes effect only when you accept it: the municipality becomes a member from the proposed day (never before the first day of the month you accept in). Every member of a zone levies the same rate (Wis. Stat. § 66.0615), and a municipality belongs to one zone at a time." }
        @for z in &zones {
            p { "A member of " (z.name) ": " a href=(format!("/app/z/{}/inspections", z.slug)) { "request an inspection of its records" } "." }
        }
        @if let Some((message, errors)) = &problem { (layout::alert(message, errors, &[])) }
        @if invitations.is_empty() { p { "No invitation." } }
        @else {
            table #zone-invitations {
                caption { "Invitations, newest first" }
                thead { tr { th scope="col" { "Zone" } th scope="col" { "Status" } th scope="col" { "Proposed first day" }
                    th scope="col" { "Joined" } th scope="col" { "Received" } th scope="col" { "Answer" } } }
                tbody { @for i in &invitations {
                    tr #(format!("invitation-{}", i.row.id)) {
                        th scope="row" { (i.zone.name) }
                        td { (i.row.status) }
                        td { @if let Some(d) = i.row.proposed_joined_on { (d) } @else { "the month you accept in" } }
                        td { @if let Some(d) = i.row.joined_on { (d) } }
                        td { (i.row.invited_at.format("%Y-%m-%d")) }
                        td { @if i.row.status == "pending" {
                            form.inline method="post" action=(href(&slug, &format!("/zone-invitations/{}/accept", i.row.id))) {
                                (layout::csrf_field(visit))
                                button type="submit" { "Accept " span.visually-hidden { "the invitation of " (i.zone.name) } }
                            }
                            form.inline method="post" action=(href(&slug, &format!("/zone-invitations/{}/decline", i.row.id))) {
                                (layout::csrf_field(visit))
                                button.secondary type="submit" { "Decline " span.visually-hidden { "the invitation of " (i.zone.name) } }
                            }
                        } }
                    }
                } }
            }
        }
    };
    Ok(render(
        visit,
        status,
        layout::page(visit, "Zone invitations", body),
    ))
}

/// `POST .../clerk/zone-invitations/{id}/accept`.
pub async fn accept(
    state: web::Data<AppState>,
    Posted { visit, .. }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    answer(state, visit, path.into_inner(), true).await
}

/// `POST .../clerk/zone-invitations/{id}/decline`.
pub async fn decline(
    state: web::Data<AppState>,
    Posted { visit, .. }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    answer(state, visit, path.into_inner(), false).await
}

async fn answer(
    state: web::Data<AppState>,
    visit: Visit,
    (slug, id): (String, String),
    accept: bool,
) -> Result<HttpResponse, WebError> {
    let now = Utc::now().naive_utc();
    let here = enter(&visit, slug.clone())?;
    let done = here
        .write_for(
            &state,
            Action::AnswerZoneInvitations,
            move |MunicipalUnit {
                      conn,
                      ctx,
                      municipality,
                  }| {
                let by = ctx.caller.actor().to_string();
                let answered = if accept {
                    membership::accept(conn, &municipality, &id, &by, now)
                } else {
                    membership::end_pending(conn, Side::Municipality(&municipality), &id, &by, now)
                };
                answered.map(|_| ())
            },
        )
        .await;
    match done {
        Ok(()) => Ok(see_other(&href(&slug, "/zone-invitations"))),
        Err(
            err @ (ApiError::Validation(_) | ApiError::RuleConflict(_) | ApiError::Conflict(_)),
        ) => {
            let problem = err.to_problem();
            list(
                &state,
                &visit,
                slug,
                err.status_code(),
                Some((problem.detail, problem.errors)),
            )
            .await
        }
        Err(other) => Err(other.into()),
    }
}

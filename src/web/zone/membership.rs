//! `GET /app/z/{zone}/members`: the zone admin's page of the zone's member
//! municipalities (joined, left) and the invitations the zone sent, with
//! the forms: `POST .../members/invitations` invites a municipality,
//! `POST .../members/invitations/{id}/withdraw` withdraws a pending
//! invitation, `POST .../members/{municipality}/leave` records a member's
//! last day.
//!
//! Contract: the API's `/v1/zones/{zone}/invitations` and
//! `.../members/{m}/leave` work: authorised as the API's zone side
//! (`ZoneAction::ManageMembership`: the zone admin as a person; the zone's
//! other roles the 403 page, the unrelated the 404 page), then
//! `usecases::membership` (`invitations_of_zone`, `invite`, `end_pending`
//! with `Side::Zone`, `leave`). Joining takes both sides: nothing here
//! accepts an invitation, only the invited municipality's clerk-treasurer
//! does (`web::clerk::invitations`). The members are the zone's public
//! membership (the API's public `GET /v1/zones/{zone}`). A refused form is
//! the page again (422, 409) with the API's problem next to its field;
//! success is `303 See Other` to the page. Nothing confidential is read.

use actix_web::{HttpResponse, http::StatusCode, web};
use chrono::{NaiveDate, Utc};
use maud::html;

use super::{Entered, base, caller_of, row_field};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    db::{self, models::MembershipRow, models::MunicipalityRow},
    error::{ApiError, FieldError},
    tenancy::ZoneAction,
    usecases::membership::{self, Invitation, Side},
    web::{
        FormData, Posted, WebError,
        layout::{self, Field, csrf_field},
        render, see_other,
        session::Visit,
    },
};

type Loaded = (
    String,
    Vec<(MembershipRow, MunicipalityRow)>,
    Vec<Invitation>,
);

async fn load(state: &AppState, visit: &Visit, slug: &str) -> Result<Loaded, WebError> {
    let here = InZone::new(caller_of(visit)?, slug.to_owned());
    Ok(here
        .read_for(
            state,
            ZoneAction::ManageMembership,
            |ZoneUnit { conn, zone, .. }| {
                let members = db::zones::members(conn, &[zone.id])?;
                let invitations = membership::invitations_of_zone(conn, &zone)?;
                Ok((zone.name, members, invitations))
            },
        )
        .await?)
}

/// `GET .../members`.
pub async fn page(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let loaded = load(&state, &visit, &slug).await?;
    Ok(show(
        &visit,
        StatusCode::OK,
        &slug,
        loaded,
        &Entered::default(),
    ))
}

fn show(
    visit: &Visit,
    status: StatusCode,
    slug: &str,
    (name, members, invitations): Loaded,
    entered: &Entered,
) -> HttpResponse {
    let b = base(slug);
    let mut fields = vec!["municipality".to_owned(), "joined_on".to_owned()];
    fields.extend(members.iter().map(|(_, m)| format!("left_on-{}", m.slug)));
    fields.extend(
        invitations
            .iter()
            .map(|i| format!("invitation-{}", i.row.id)),
    );
    let field_names: Vec<&str> = fields.iter().map(String::as_str).collect();
    let body = html! {
        h1 { "Members and invitations" }
        p { (name) ". Joining takes both sides: the zone invites, the municipality's clerk-treasurer accepts." }
        @if let Some(message) = &entered.problem { (layout::alert(message, &entered.errors, &field_names)) }
        table #members {
            caption { "Member municipalities, past and present" }
            thead { tr { th scope="col" { "Municipality" } th scope="col" { "Joined" } th scope="col" { "Left" } } }
            tbody { @for (m, muni) in &members {
                tr #(format!("member-{}", muni.slug)) {
                    th scope="row" { (muni.name) }
                    td { (m.joined_on) }
                    td {
                        @if let Some(l) = m.left_on { (l) }
                        @else {
                            @let field = format!("left_on-{}", muni.slug);
                            form.inline method="post" action=(format!("{b}/members/{}/leave", muni.slug)) {
                                (csrf_field(visit))
                                (Field { kind: "date", required: true, hint: Some("Its last day in the zone; not in an ended period"),
                                    ..Field::text(&field, "Last day in the zone", entered.value(&field)) }.render(&entered.errors))
                                button.secondary type="submit" { "Record leaving " span.visually-hidden { (muni.name) } }
                            }
                        }
                    }
                }
            } }
        }
        h2 { "Invitations" }
        @if invitations.is_empty() { p { "None sent." } }
        @else {
            table #invitations {
                caption { "Invitations the zone sent, newest first" }
                thead { tr { th scope="col" { "Municipality" } th scope="col" { "Status" } th scope="col" { "Proposed first day" }
                    th scope="col" { "Joined" } th scope="col" { "Sent" } th scope="col" { "Withdraw" } } }
                tbody { @for i in &invitations {
                    tr #(format!("invitation-{}", i.row.id)) {
                        th scope="row" { (i.municipality.name) }
                        td { (i.row.status) }
                        td { @if let Some(d) = i.row.proposed_joined_on { (d) } @else { "the month of acceptance" } }
                        td { @if let Some(d) = i.row.joined_on { (d) } }
                        td { (i.row.invited_at.format("%Y-%m-%d")) }
                        td { @if i.row.status == "pending" {
                            form.inline method="post" action=(format!("{b}/members/invitations/{}/withdraw", i.row.id)) {
                                (csrf_field(visit))
                                button.secondary type="submit" { "Withdraw " span.visually-hidden { "the invitation of " (i.municipality.name) } }
                            }
                        } }
                    }
                } }
            }
        }
        h2 { "Invite a municipality" }
        form.stack method="post" action=(format!("{b}/members/invitations")) {
            (csrf_field(visit))
            (Field { required: true, hint: Some("Its slug, e.g. westfield (the person running the installation creates municipalities)"),
                ..Field::text("municipality", "Municipality", entered.value("municipality")) }.render(&entered.errors))
            (Field { kind: "date", hint: Some("Not before this month; empty: the first day of the month it accepts in"),
                ..Field::text("joined_on", "Proposed first day in the zone", entered.value("joined_on")) }.render(&entered.errors))
            button type="submit" { "Send the invitation" }
        }
        p { a href=(b.clone()) { "The zone" } }
    };
    render(
        visit,
        status,
        layout::page(visit, "Members and invitations", body),
    )
}

fn date_of(raw: Option<&str>, field: &str) -> Result<Option<NaiveDate>, ApiError> {
    raw.map(|r| {
        NaiveDate::parse_from_str(r, "%Y-%m-%d").map_err(|_| {
            ApiError::Validation(vec![FieldError::new(
                field,
                "date",
                "a date such as 2027-01-01 (year-month-day)",
            )])
        })
    })
    .transpose()
}

async fn settle(
    state: &AppState,
    visit: &Visit,
    slug: &str,
    form: &FormData,
    names: &[String],
    done: Result<(), ApiError>,
    field: impl Fn(&str) -> String,
) -> Result<HttpResponse, WebError> {
    match done {
        Ok(()) => Ok(see_other(&format!("{}/members", base(slug)))),
        Err(err) => {
            let (entered, status) = Entered::refused(form, names, err, field)?;
            let loaded = load(state, visit, slug).await?;
            Ok(show(visit, status, slug, loaded, &entered))
        }
    }
}

/// `POST .../members/invitations`.
pub async fn invite(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let municipality = form.shown("municipality").trim().to_owned();
    let joined_on = date_of(form.get("joined_on"), "joined_on");
    let now = Utc::now().naive_utc();
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let done = here
        .write_for(
            &state,
            ZoneAction::ManageMembership,
            move |ZoneUnit { conn, ctx, zone }| {
                let by = ctx.caller.actor().to_string();
                membership::invite(conn, &zone, &municipality, joined_on?, &by, now).map(|_| ())
            },
        )
        .await;
    let names = ["municipality", "joined_on"].map(str::to_owned).to_vec();
    settle(&state, &visit, &slug, &form, &names, done, str::to_owned).await
}

/// `POST .../members/invitations/{id}/withdraw`.
pub async fn withdraw(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, id) = path.into_inner();
    let now = Utc::now().naive_utc();
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let invitation = id.clone();
    let done = here
        .write_for(
            &state,
            ZoneAction::ManageMembership,
            move |ZoneUnit { conn, ctx, zone }| {
                let by = ctx.caller.actor().to_string();
                membership::end_pending(conn, Side::Zone(&zone), &invitation, &by, now).map(|_| ())
            },
        )
        .await;
    let named = format!("invitation-{id}");
    settle(&state, &visit, &slug, &form, &[], done, move |_| {
        named.clone()
    })
    .await
}

/// `POST .../members/{municipality}/leave`.
pub async fn leave(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, municipality) = path.into_inner();
    let name = format!("left_on-{municipality}");
    let left_on = match date_of(form.get(&name), "left_on") {
        Ok(Some(d)) => Ok(d),
        Ok(None) => Err(ApiError::invalid(
            "left_on",
            "required",
            "the municipality's last day in the zone",
        )),
        Err(e) => Err(e),
    };
    let today = state.clock.today();
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let member = municipality.clone();
    let done = here
        .write_for(
            &state,
            ZoneAction::ManageMembership,
            move |ZoneUnit { conn, zone, .. }| {
                membership::leave(conn, &zone, &member, left_on?, today).map(|_| ())
            },
        )
        .await;
    let named = row_field(&["left_on", "municipality"], name.clone());
    settle(&state, &visit, &slug, &form, &[name], done, named).await
}

//! `GET /app/z/{zone}/roster[?on=]`: the commission roster (every
//! membership, which are current, the industry-half warning), with the zone
//! admin's forms: `POST .../roster` adds a membership, `POST
//! .../roster/{member}/end` records its last day (never deleted).
//!
//! Contract: the API's `/v1/zones/{zone}/commission-roster` work through
//! `usecases::roster` (`list`, `add`, `end`), which authorises: the zone
//! admin, commission members, the tourism entity and members'
//! clerk-treasurers read, only the zone admin writes (others the 403 page,
//! the unrelated the 404 page). A refused form is the roster again (422,
//! 409) with the API's problem next to its field (an end's field is
//! `term_end-{member}`); success is `303 See Other` to the roster.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use chrono::NaiveDate;
use maud::html;

use super::{Entered, base, caller_of, date_field, row_field, write};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    auth::Role,
    db,
    domain::roster::COMMISSION_CITATION,
    error::{ApiError, FieldError},
    usecases::roster::{self, NewMember, Roster},
    web::{
        FormData, Posted, WebError,
        clerk::query_value,
        layout::{self, Field, csrf_field},
        render, see_other,
        session::Visit,
    },
};

/// The add form's fields.
const ADD: [&str; 6] = [
    "name",
    "affiliation",
    "industry",
    "appointed_by",
    "term_start",
    "term_end",
];

async fn load(
    state: &AppState,
    visit: &Visit,
    slug: &str,
    on: Option<NaiveDate>,
) -> Result<(Roster, Vec<Role>, Vec<String>), WebError> {
    let today = state.clock.today();
    let here = InZone::new(caller_of(visit)?, slug.to_owned());
    Ok(here
        .read(state, move |ZoneUnit { conn, ctx, .. }| {
            let roster = roster::list(conn, &ctx, on.unwrap_or(today), today)?;
            let roles = ctx.require_presence().unwrap_or_default();
            let mut members: Vec<String> = db::zones::members(conn, &[ctx.zone_id])?
                .into_iter()
                .map(|(_, m)| m.slug)
                .collect();
            members.dedup();
            Ok((roster, roles, members))
        })
        .await?)
}

/// `GET .../roster[?on=]`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let on = match query_value(req.query_string(), "on") {
        None => None,
        Some(raw) => Some(NaiveDate::parse_from_str(&raw, "%Y-%m-%d").map_err(|_| {
            ApiError::invalid("on", "date", "a date such as 2026-05-12 (year-month-day)")
        })?),
    };
    let loaded = load(&state, &visit, &slug, on).await?;
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
    (roster, roles, members): (Roster, Vec<Role>, Vec<String>),
    entered: &Entered,
) -> HttpResponse {
    let b = base(slug);
    let admin = roles.contains(&Role::ZoneAdmin);
    let current = roster.members.iter().filter(|m| m.current).count();
    let industry = roster
        .members
        .iter()
        .filter(|m| m.current && m.row.represents_lodging_and_tourism_industry)
        .count();
    let mut fields: Vec<String> = ADD.map(str::to_owned).to_vec();
    fields.extend(
        roster
            .members
            .iter()
            .map(|m| format!("term_end-{}", m.row.id)),
    );
    let field_names: Vec<&str> = fields.iter().map(String::as_str).collect();
    let body = html! {
        h1 { "Commission roster" }
        p { "On " (roster.on) ": " (current) " current members, " (industry) " of them from the Wisconsin lodging and tourism industry." }
        @if let Some(w) = &roster.warning { div.alert role="alert" { p { strong { (w) } } } }
        p.cite { (COMMISSION_CITATION) }
        @if let Some(message) = &entered.problem { (layout::alert(message, &entered.errors, &field_names)) }
        table #roster {
            caption { "Every membership, by term start" }
            thead { tr {
                th scope="col" { "Name" } th scope="col" { "Affiliation" } th scope="col" { "Industry seat" }
                th scope="col" { "Appointed by" } th scope="col" { "Term" } th scope="col" { "Current" }
            } }
            tbody { @for m in &roster.members {
                tr #(format!("member-{}", m.row.id)) {
                    th scope="row" { (m.row.name) }
                    td { (m.row.affiliation) }
                    td { @if m.row.represents_lodging_and_tourism_industry { "yes" } @else { "no" } }
                    td { (m.appointed_by) }
                    td { (m.row.term_start) " to "
                        @if let Some(e) = &m.end { (e.term_end) } @else { "open" } }
                    td {
                        @if m.current { "yes" } @else { "no" }
                        @if admin && m.end.is_none() {
                            @let name = format!("term_end-{}", m.row.id);
                            form.inline method="post" action=(format!("{b}/roster/{}/end", m.row.id)) {
                                (csrf_field(visit))
                                (Field { kind: "date", required: true, ..Field::text(&name, "Last day of the term", entered.value(&name)) }.render(&entered.errors))
                                button.secondary type="submit" { "End " span.visually-hidden { (m.row.name) "'s membership" } }
                            }
                        }
                    }
                }
            } }
        }
        @if admin {
            h2 { "Add a member" }
            form.stack method="post" action=(format!("{b}/roster")) {
                (csrf_field(visit))
                (Field { required: true, ..Field::text("name", "Name", entered.value("name")) }.render(&entered.errors))
                (Field { required: true, hint: Some("Employer, business or office"), ..Field::text("affiliation", "Affiliation", entered.value("affiliation")) }.render(&entered.errors))
                div.field {
                    label { input type="checkbox" name="industry" id="industry" value="yes" checked[entered.value("industry") == "yes"];
                        " Represents the Wisconsin lodging and tourism industry" }
                }
                (layout::select("appointed_by", "Appointed by", entered.value("appointed_by"), members.iter().map(|m| (m, m)), &entered.errors))
                (Field { kind: "date", required: true, ..Field::text("term_start", "First day of the term", entered.value("term_start")) }.render(&entered.errors))
                (Field { kind: "date", hint: Some("If known"), ..Field::text("term_end", "Last day of the term", entered.value("term_end")) }.render(&entered.errors))
                button type="submit" { "Add to the roster" }
            }
        }
        p { a href=(b.clone()) { "The zone" } }
    };
    render(
        visit,
        status,
        layout::page(visit, "Commission roster", body),
    )
}

async fn refused(
    state: &AppState,
    visit: &Visit,
    slug: &str,
    form: &FormData,
    names: &[String],
    err: ApiError,
    field: impl Fn(&str) -> String,
) -> Result<HttpResponse, WebError> {
    let (entered, status) = Entered::refused(form, names, err, field)?;
    let loaded = load(state, visit, slug, None).await?;
    Ok(show(visit, status, slug, loaded, &entered))
}

/// `POST .../roster`.
pub async fn add(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let mut faults = Vec::new();
    let term_start = date_field(&form, "term_start", "term_start", &mut faults);
    if form.get("term_start").is_none() {
        faults.push(FieldError::new(
            "term_start",
            "required",
            "the first day of the term",
        ));
    }
    let term_end = date_field(&form, "term_end", "term_end", &mut faults);
    let new = match term_start {
        Some(term_start) if faults.is_empty() => Ok(NewMember {
            name: form.shown("name").to_owned(),
            affiliation: form.shown("affiliation").to_owned(),
            represents_lodging_and_tourism_industry: form.get("industry") == Some("yes"),
            appointed_by: form.shown("appointed_by").to_owned(),
            term_start,
            term_end,
        }),
        _ => Err(ApiError::Validation(faults)),
    };
    let done = write(
        &state,
        &visit,
        &slug,
        move |ZoneUnit { conn, ctx, .. }, today, now| roster::add(conn, &ctx, new, today, now),
    )
    .await?;
    match done {
        Ok(_) => Ok(see_other(&format!("{}/roster", base(&slug)))),
        Err(err) => {
            let names = ADD.map(str::to_owned).to_vec();
            refused(&state, &visit, &slug, &form, &names, err, str::to_owned).await
        }
    }
}

/// `POST .../roster/{member}/end`.
pub async fn end(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, member) = path.into_inner();
    let name = format!("term_end-{member}");
    let mut faults = Vec::new();
    let term_end = match date_field(&form, &name, "term_end", &mut faults) {
        Some(d) => Ok(d),
        None if faults.is_empty() => Err(ApiError::invalid(
            "term_end",
            "required",
            "the last day of the term",
        )),
        None => Err(ApiError::Validation(faults)),
    };
    let id = member.clone();
    let done = write(
        &state,
        &visit,
        &slug,
        move |ZoneUnit { conn, ctx, .. }, today, now| {
            roster::end(conn, &ctx, &id, term_end, today, now)
        },
    )
    .await?;
    match done {
        Ok(_) => Ok(see_other(&format!("{}/roster", base(&slug)))),
        Err(err) => {
            let named = row_field(&["term_end"], name.clone());
            refused(&state, &visit, &slug, &form, &[name], err, named).await
        }
    }
}

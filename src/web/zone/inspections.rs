//! `GET /app/z/{zone}/inspections`: the requests of member municipalities
//! to inspect the tourism entity's or the commission's records, with their
//! answers; `POST .../inspections` (a member's clerk-treasurer requests) and
//! `POST .../inspections/{id}/answer` (the tourism entity or a commission
//! member answers).
//!
//! Contract: the API's `/v1/zones/{zone}/inspection-requests` work, through
//! `usecases::expenditures::inspections` (`list`, `request`, `answer`),
//! which authorises: the commission and the tourism entity see every
//! request and answer them, a current member's clerk-treasurer sees its
//! own municipality's and requests for it (Montello room tax, distribution
//! ¶B); the zone admin and anyone else related to the zone get the 403
//! page, others the 404 page. A refused form is the list again (422, 409) with
//! the API's problem next to its field (an answer's fields are named
//! `{field}-{id}`); success is `303 See Other` to the list.

use actix_web::{HttpResponse, http::StatusCode, web};
use maud::{Markup, html};

use super::{Entered, base, caller_of, date_field, write};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    auth::Role,
    error::{ApiError, FieldError},
    usecases::expenditures::{
        current_members,
        inspections::{self, INSPECTION_CITATION, Inspection, NewAnswer, NewRequest, RecordsOf},
    },
    web::{
        FormData, Posted, WebError,
        layout::{self, Field, csrf_field, error_id, error_of},
        render, see_other,
        session::Visit,
    },
};

/// What the list page needs: the requests, the caller's zone roles, the
/// members the caller is clerk-treasurer of.
struct Listing {
    rows: Vec<Inspection>,
    roles: Vec<Role>,
    clerk_of: Vec<String>,
}

async fn load(state: &AppState, visit: &Visit, slug: &str) -> Result<Listing, WebError> {
    let today = state.clock.today();
    let here = InZone::new(caller_of(visit)?, slug.to_owned());
    Ok(here
        .read(state, move |ZoneUnit { conn, ctx, .. }| {
            let rows = inspections::list(conn, &ctx, today)?;
            let roles = ctx.require_presence().unwrap_or_default();
            let clerk_of = current_members(conn, ctx.zone_id, today)?
                .into_iter()
                .filter(|(m, _)| ctx.member_clerk_of(*m))
                .map(|(_, s)| s)
                .collect();
            Ok(Listing {
                rows,
                roles,
                clerk_of,
            })
        })
        .await?)
}

/// `GET .../inspections`.
pub async fn page(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let listing = load(&state, &visit, &slug).await?;
    Ok(show(
        &visit,
        StatusCode::OK,
        &slug,
        &listing,
        &Entered::default(),
    ))
}

fn show(
    visit: &Visit,
    status: StatusCode,
    slug: &str,
    l: &Listing,
    entered: &Entered,
) -> HttpResponse {
    let b = base(slug);
    let answers = l
        .roles
        .iter()
        .any(|r| matches!(r, Role::TourismEntity | Role::CommissionMember));
    let records_default = entered.value("records");
    let records_error = error_of(&entered.errors, "records");
    let body = html! {
        h1 { "Inspections of records" }
        p.cite { (INSPECTION_CITATION) }
        @if let Some(message) = &entered.problem {
            (layout::alert(message, &entered.errors, &entered.values.iter().map(|(k, _)| k.as_str()).collect::<Vec<_>>()))
        }
        @if l.rows.is_empty() { p { "No request yet." } }
        @else {
            table #inspections {
                caption { "Requests, newest first" }
                thead { tr { th scope="col" { "Requested" } th scope="col" { "By" } th scope="col" { "Records of" }
                    th scope="col" { "Which records" } th scope="col" { "Answer" } } }
                tbody { @for (row, answer, member) in &l.rows {
                    tr #(format!("inspection-{}", row.id)) {
                        th scope="row" { (row.requested_on) }
                        td { (member) }
                        td { (records_of_words(&row.records_of)) }
                        td { (row.records) }
                        td {
                            @if let Some(a) = answer {
                                (a.answer) br;
                                span.cite { "Answered " (a.answered_on)
                                    @if let Some(d) = a.inspection_on { "; inspection on " (d) } }
                            } @else if answers {
                                (answer_form(visit, &b, &row.id, entered))
                            } @else { "Not answered yet." }
                        }
                    }
                } }
            }
        }
        @if !l.clerk_of.is_empty() {
            h2 { "Request an inspection" }
            form.stack method="post" action=(format!("{b}/inspections")) {
                (csrf_field(visit))
                @if l.clerk_of.len() == 1 {
                    input type="hidden" name="municipality" value=(l.clerk_of[0]);
                    p { "For " (l.clerk_of[0]) "." }
                } @else {
                    div.field {
                        label for="municipality" { "For the member" }
                        span.error id=(error_id("municipality")) { (error_of(&entered.errors, "municipality").unwrap_or_default()) }
                        select #municipality name="municipality" aria-describedby=(error_id("municipality")) {
                            @for m in &l.clerk_of { option value=(m) selected[entered.value("municipality") == m] { (m) } }
                        }
                    }
                }
                fieldset.field {
                    legend { "Whose records" }
                    @for (value, label) in [("tourism_entity", "The tourism entity's"), ("commission", "The commission's")] {
                        label { input type="radio" name="records_of" id=(format!("records_of-{value}")) value=(value)
                            checked[entered.value("records_of") == value || (entered.value("records_of").is_empty() && value == "tourism_entity")]; " " (label) }
                    }
                }
                div.field {
                    label for="records" { "Which records" }
                    span.error id=(error_id("records")) { (records_error.clone().unwrap_or_default()) }
                    textarea #records name="records" rows="3" aria-describedby=(error_id("records"))
                        aria-invalid=[records_error.map(|_| "true")] { (records_default) }
                }
                (Field { kind: "date", hint: Some("Default: today; not after today"),
                    ..Field::text("requested_on", "Requested on", entered.value("requested_on")) }.render(&entered.errors))
                button type="submit" { "Request the inspection" }
            }
        }
        p { a href=(b.clone()) { "The zone" } }
    };
    render(
        visit,
        status,
        layout::page(visit, "Inspections of records", body),
    )
}

fn records_of_words(raw: &str) -> &'static str {
    if raw == RecordsOf::Commission.as_str() {
        "the commission"
    } else {
        "the tourism entity"
    }
}

/// The form to answer request `id` (fields `answered_on-{id}`, ...).
fn answer_form(visit: &Visit, b: &str, id: &str, entered: &Entered) -> Markup {
    let on = format!("answered_on-{id}");
    let at = format!("inspection_on-{id}");
    let text = format!("answer-{id}");
    let text_error = error_of(&entered.errors, &text);
    let today_value = entered.value(&on);
    html! {
        form.stack method="post" action=(format!("{b}/inspections/{id}/answer")) {
            (csrf_field(visit))
            (Field { kind: "date", required: true, ..Field::text(&on, "Answered on", today_value) }.render(&entered.errors))
            (Field { kind: "date", hint: Some("If an inspection was arranged"),
                ..Field::text(&at, "Inspection on", entered.value(&at)) }.render(&entered.errors))
            div.field {
                label for=(text) { "Answer" }
                span.error id=(error_id(&text)) { (text_error.clone().unwrap_or_default()) }
                textarea id=(text) name=(text) rows="2" aria-describedby=(error_id(&text))
                    aria-invalid=[text_error.map(|_| "true")] { (entered.value(&text)) }
            }
            button type="submit" { "Record the answer" }
        }
    }
}

/// The list again with a refusal (422, 409), or the refusal's error page.
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
    let listing = load(state, visit, slug).await?;
    Ok(show(visit, status, slug, &listing, &entered))
}

/// `POST .../inspections`.
pub async fn request(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let names: Vec<String> = ["municipality", "records_of", "records", "requested_on"]
        .map(str::to_owned)
        .to_vec();
    let mut faults = Vec::new();
    let requested_on = date_field(&form, "requested_on", "requested_on", &mut faults);
    let records_of = match form.get("records_of") {
        Some("commission") => Some(RecordsOf::Commission),
        Some("tourism_entity") => Some(RecordsOf::TourismEntity),
        _ => {
            faults.push(FieldError::new(
                "records_of",
                "one_of",
                "the tourism entity's or the commission's",
            ));
            None
        }
    };
    let new = match records_of {
        Some(records_of) if faults.is_empty() => Ok(NewRequest {
            municipality: form.shown("municipality").to_owned(),
            records_of,
            records: form.shown("records").to_owned(),
            requested_on,
        }),
        _ => Err(ApiError::Validation(faults)),
    };
    let done = write(
        &state,
        &visit,
        &slug,
        move |ZoneUnit { conn, ctx, .. }, today, now| {
            inspections::request(conn, &ctx, new, today, now)
        },
    )
    .await?;
    match done {
        Ok(_) => Ok(see_other(&format!("{}/inspections", base(&slug)))),
        Err(err) => refused(&state, &visit, &slug, &form, &names, err, str::to_owned).await,
    }
}

/// `POST .../inspections/{id}/answer`.
pub async fn answer(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, id) = path.into_inner();
    let names = [
        format!("answered_on-{id}"),
        format!("inspection_on-{id}"),
        format!("answer-{id}"),
    ];
    let mut faults = Vec::new();
    let answered_on = date_field(&form, &names[0], "answered_on", &mut faults);
    let inspection_on = date_field(&form, &names[1], "inspection_on", &mut faults);
    if form.get(&names[0]).is_none() {
        faults.push(FieldError::new(
            "answered_on",
            "required",
            "the day the request was answered",
        ));
    }
    let new = match answered_on {
        Some(answered_on) if faults.is_empty() => Ok(NewAnswer {
            answered_on,
            inspection_on,
            answer: form.shown(&names[2]).to_owned(),
        }),
        _ => Err(ApiError::Validation(faults)),
    };
    let request = id.clone();
    let done = write(
        &state,
        &visit,
        &slug,
        move |ZoneUnit { conn, ctx, .. }, today, now| {
            inspections::answer(conn, &ctx, &request, new, today, now)
        },
    )
    .await?;
    match done {
        Ok(_) => Ok(see_other(&format!("{}/inspections", base(&slug)))),
        Err(err) => {
            let named = move |f: &str| match f {
                "answered_on" | "inspection_on" | "answer" => format!("{f}-{id}"),
                other => other.to_owned(),
            };
            refused(&state, &visit, &slug, &form, &names, err, named).await
        }
    }
}

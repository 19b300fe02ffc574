//! `GET /app/m/{municipality}/clerk/extensions` (the extensions asked, the
//! open ones with a form to decide) and
//! `POST .../clerk/extensions/{extension}` (grant or refuse).
//!
//! Contract: the list is `usecases::returns::extensions::of_municipality`
//! (the API's `GET .../extensions`, `Action::ReviewReturns`, each shown
//! logged), newest first, at most [`PAGE`]; deciding is
//! `extensions::decide` (the API's `POST .../grant` and `.../refuse`,
//! `Action::DecideExtensions`, first), after the CSRF check; success is a
//! `303` back to the list; a refusal by the use case (the date past the
//! policy's limit, a request already decided) is the same list again (422)
//! with that extension's form holding what was entered and each problem next
//! to its field (`layout::Field`), the others in the alert above the form.

use actix_web::{HttpResponse, http::StatusCode, web};
use chrono::NaiveDate;
use maud::html;

use super::{Menu, enter, gate, href, nav};
use crate::{
    api::caller::MunicipalUnit,
    app::AppState,
    db::returns::extensions::ExtensionQuery,
    error::{ApiError, FieldError},
    tenancy::Action,
    usecases::returns::extensions::{self as ext, Decide},
    web::{
        Posted, WebError,
        layout::{self, Field},
        render, see_other,
        session::Visit,
    },
};

/// Extensions listed.
pub const PAGE: i64 = 200;

/// A decision refused by the use case: which extension, what was entered, why.
struct Refused {
    id: String,
    extended_to: String,
    reason: String,
    errors: Vec<FieldError>,
}

/// `GET .../clerk/extensions`.
pub async fn page(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    list(&state, &visit, path.into_inner(), None).await
}

async fn list(
    state: &AppState,
    visit: &Visit,
    slug: String,
    refused: Option<Refused>,
) -> Result<HttpResponse, WebError> {
    let here = enter(visit, slug.clone())?;
    let (records, may_decide, menu) = here
        .read(state, move |MunicipalUnit { conn, ctx, .. }| {
            gate(&ctx)?;
            let records = ext::of_municipality(
                conn,
                &ctx,
                ExtensionQuery {
                    limit: PAGE,
                    ..ExtensionQuery::default()
                },
            )?;
            Ok((
                records,
                ctx.require(Action::DecideExtensions).is_ok(),
                Menu::of(&ctx),
            ))
        })
        .await?;
    let status = if refused.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let body = html! {
        (nav(&slug, "/extensions", menu))
        h1 { "Extensions of the time to file" }
        @if records.is_empty() {
            p { "No extension has been asked." }
        }
        @for r in &records {
            section.extension #(format!("extension-{}", r.row.id)) {
                h2 { (r.period) ", payor " a href=(href(&slug, &format!("/payors/{}", r.row.payor_id))) { code { (r.row.payor_id) } } }
                dl.record {
                    dt { "Status" } dd { (r.row.status) }
                    dt { "Reason given" } dd { (r.row.reason) }
                    dt { "Due" } dd { (r.window.due.date) }
                    @if let Some(limit) = r.window.limit { dt { "Latest date a grant may set" } dd { (limit) } }
                    @if let Some(to) = r.row.extended_to { dt { "Extended to" } dd { (to) } }
                    @if let Some(why) = &r.row.decision_reason { dt { "Decision's note" } dd { (why) } }
                }
                @match refused.as_ref().filter(|f| f.id == r.row.id) {
                    Some(f) => {
                        (layout::alert("The decision was not recorded.", &f.errors, &["extended_to", "reason"]))
                        @if r.row.status == "requested" && may_decide {
                            (refused_form(visit, &slug, f))
                        }
                    }
                    None => {
                        @if r.row.status == "requested" && may_decide {
                            (decide_form(visit, &slug, &r.row.id, r.window.limit))
                        }
                    }
                }
            }
        }
    };
    Ok(render(
        visit,
        status,
        layout::page(visit, "Extensions", body),
    ))
}

/// The form of the extension whose decision was refused, with the problems
/// next to their fields (the only form on the page using the plain ids).
fn refused_form(visit: &Visit, slug: &str, f: &Refused) -> maud::Markup {
    html! {
        form.stack.no-print method="post" action=(href(slug, &format!("/extensions/{}", f.id))) {
            (layout::csrf_field(visit))
            (Field { kind: "date", ..Field::text("extended_to", "Extend the filing due date to", &f.extended_to) }.render(&f.errors))
            (Field::text("reason", "Note (a refusal needs one)", &f.reason).render(&f.errors))
            div {
                button type="submit" name="decision" value="grant" { "Grant" }
                " "
                button.secondary type="submit" name="decision" value="refuse" { "Refuse" }
            }
        }
    }
}

fn decide_form(visit: &Visit, slug: &str, id: &str, limit: Option<NaiveDate>) -> maud::Markup {
    let date_id = format!("extended_to-{id}");
    let reason_id = format!("reason-{id}");
    html! {
        form.stack.no-print method="post" action=(href(slug, &format!("/extensions/{id}"))) {
            (layout::csrf_field(visit))
            div.field {
                label for=(date_id) { "Extend the filing due date to" }
                input #(date_id) type="date" name="extended_to" value=(limit.map(|d| d.to_string()).unwrap_or_default());
            }
            div.field {
                label for=(reason_id) { "Note (a refusal needs one)" }
                input #(reason_id) type="text" name="reason";
            }
            div {
                button type="submit" name="decision" value="grant" { "Grant" }
                " "
                button.secondary type="submit" name="decision" value="refuse" { "Refuse" }
            }
        }
    }
}

/// `POST .../clerk/extensions/{extension}`.
pub async fn decide(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, id) = path.into_inner();
    let here = enter(&visit, slug.clone())?;
    let now = state.clock.now();
    let id_shown = id.clone();
    let decision: Result<Decide, ApiError> = match form.get("decision") {
        Some("grant") => form
            .get("extended_to")
            .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
            .map(|extended_to| Decide::Grant {
                extended_to,
                note: form.get("reason").map(str::to_owned),
            })
            .ok_or_else(|| ApiError::invalid("extended_to", "date", "a date as YYYY-MM-DD")),
        Some("refuse") => Ok(Decide::Refuse {
            reason: form.shown("reason").to_owned(),
        }),
        _ => Err(ApiError::invalid("decision", "one_of", "grant or refuse")),
    };
    let decided = here
        .write_for(
            &state,
            Action::DecideExtensions,
            move |MunicipalUnit { conn, ctx, .. }| ext::decide(conn, &ctx, &id, decision?, now),
        )
        .await;
    let errors = match decided {
        Ok(_) => return Ok(see_other(&href(&slug, "/extensions"))),
        Err(ApiError::Validation(errors)) => errors,
        Err(ApiError::RuleConflict(error)) => vec![error],
        Err(other) => return Err(other.into()),
    };
    let refused = Refused {
        id: id_shown,
        extended_to: form.shown("extended_to").to_owned(),
        reason: form.shown("reason").to_owned(),
        errors,
    };
    list(&state, &visit, slug, Some(refused)).await
}

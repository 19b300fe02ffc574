//! `GET /app/z/{zone}/expenditures/{report}`: one expenditure report as
//! the API's `GET .../expenditure-reports/{report}` shows it
//! (`usecases::expenditures::show`: commission members and the tourism
//! entity; the zone admin 403), with the review trail and the attachments'
//! records; the commission member gets the review form (comment, question,
//! accept, return), the tourism entity the upload form for receipts and
//! invoices (multipart, `.../attachments`), a form to answer each open
//! question of the review (`.../review/{act}/answer`) and, once the
//! commission returned the report, the link to correct it (`.../amend`).
//! The review is shown as a thread: each question with its answer.

use actix_web::{HttpResponse, http::StatusCode, web};

use crate::error::FieldError;
use maud::{Markup, html};

use super::{base, caller_of, words};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    auth::Role,
    domain::{
        Money,
        expenditure::{DocumentKind, review::Status},
    },
    usecases::expenditures::{self, ReportView},
    web::{
        WebError,
        layout::{self, csrf_field, error_of},
        render,
        session::Visit,
    },
};

/// The words for a version's status.
pub(crate) fn status_name(s: Status) -> &'static str {
    match s {
        Status::Submitted => "submitted, awaiting the commission",
        Status::Returned => "returned for correction",
        Status::Accepted => "accepted by the commission",
        Status::Superseded => "superseded",
    }
}

/// `GET .../expenditures/{report}`.
pub async fn show(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, id) = path.into_inner();
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let (roles, view) = here
        .read(&state, move |ZoneUnit { conn, ctx, .. }| {
            let roles = ctx.require_presence()?;
            let view = expenditures::show(conn, &ctx, &id, None)?;
            Ok((roles, view))
        })
        .await?;
    Ok(page(
        &visit,
        StatusCode::OK,
        &slug,
        &view,
        &roles,
        None,
        &[],
    ))
}

/// The report's page with `status`; `problem` and `errors` of a refused act
/// are shown above and next to the review form's fields.
pub(crate) fn page(
    visit: &Visit,
    status: StatusCode,
    slug: &str,
    view: &ReportView,
    roles: &[Role],
    problem: Option<&str>,
    errors: &[FieldError],
) -> HttpResponse {
    let body = report_body(visit, slug, view, roles, problem, errors);
    render(
        visit,
        status,
        layout::page(visit, "Expenditure report", body),
    )
}

fn report_body(
    visit: &Visit,
    slug: &str,
    v: &ReportView,
    roles: &[Role],
    problem: Option<&str>,
    errors: &[FieldError],
) -> Markup {
    let here = format!("{}/expenditures/{}", base(slug), v.report.id);
    let latest = v.latest();
    let r = &latest.row;
    let answer_names: Vec<String> = v
        .reviews
        .iter()
        .map(|a| format!("answer-{}", a.id))
        .collect();
    let mut answer_fields: Vec<&str> = vec!["act", "item", "text"];
    answer_fields.extend(answer_names.iter().map(String::as_str));
    html! {
        h1 { "Expenditure report " (r.period_start) " to " (r.period_end) }
        p { "Version " (r.version) ": " strong { (status_name(latest.status)) } "." }
        table {
            caption { "Totals" }
            tbody {
                tr { th scope="row" { "Received by the commission (members' transfers in the period)" } td.num { (v.totals.received) } }
                tr { th scope="row" { "Received, as the report states it" } td.num { (Money::from_cents(r.received_declared_cents)) } }
                tr { th scope="row" { "Spent" } td.num { (v.totals.spent) } }
                tr { th scope="row" { "Carried over" } td.num.total { (v.totals.carried_over) } }
            }
        }
        table {
            caption { "Expenditures listed individually" }
            thead { tr {
                th scope="col" { "Line" } th scope="col" { "Date" } th scope="col" { "Paid to" }
                th scope="col" class="num" { "Amount" } th scope="col" { "What for" } th scope="col" { "What it bought" }
            } }
            tbody { @for (item, _) in &v.items {
                tr {
                    th scope="row" { (item.line) }
                    td { (item.spent_on) }
                    td { (item.payee) }
                    td.num { (Money::from_cents(item.amount_cents)) }
                    td { (words(&item.category)) }
                    td { (item.description) @if let Some(e) = &item.explanation { br; span.cite { (e) } } }
                }
            } }
        }
        @if !v.sums.is_empty() {
            table {
                caption { "Expenditures under $1,000 summed by category" }
                thead { tr { th scope="col" { "What for" } th scope="col" class="num" { "Count" } th scope="col" class="num" { "Amount" } } }
                tbody { @for s in &v.sums { tr { th scope="row" { (words(&s.category)) } td.num { (s.item_count) } td.num { (Money::from_cents(s.amount_cents)) } } } }
            }
        }
        @if roles.contains(&Role::TourismEntity) && latest.status == Status::Returned {
            p { a.button href=(format!("{here}/amend")) { "Correct this report" } }
        }
        h2 { "Review" }
        @if let Some(message) = problem { (layout::alert(message, errors, &answer_fields)) }
        @if v.reviews.is_empty() { p { "No comment or decision yet." } }
        @else {
            ol.trail { @for a in v.reviews.iter().filter(|a| a.answers.is_none()) {
                li #(format!("act-{}", a.id)) { strong { (words(&a.act)) } " on version " (a.version)
                    @if let Some(line) = a.item_line { ", line " (line) }
                    " (" (a.at.format("%Y-%m-%d %H:%M UTC")) ")"
                    @if let Some(t) = &a.text { ": " (t) }
                    @if a.act == "question" {
                        @match v.reviews.iter().find(|r| r.answers.as_deref() == Some(a.id.as_str())) {
                            Some(answer) => {
                                p.answer { strong { "Answer" } " (" (answer.at.format("%Y-%m-%d %H:%M UTC")) "): "
                                    (answer.text.as_deref().unwrap_or_default()) }
                            }
                            None => {
                                @if roles.contains(&Role::TourismEntity) {
                                    (answer_form(visit, &here, &a.id, errors))
                                } @else { p.note { "Not answered yet." } }
                            }
                        }
                    }
                }
            } }
        }
        @if roles.contains(&Role::CommissionMember) && latest.status == Status::Submitted {
            form.stack method="post" action=(format!("{here}/review")) {
                (csrf_field(visit))
                div.field {
                    label for="act" { "Your act" }
                    select id="act" name="act" {
                        option value="comment" { "Comment" }
                        option value="question" { "Question to the tourism entity" }
                        option value="accept" { "Accept this version" }
                        option value="return" { "Return for correction" }
                    }
                }
                div.field {
                    label for="item" { "About" }
                    select id="item" name="item" {
                        option value="" { "The whole report" }
                        @for (item, _) in &v.items { option value=(item.line) { "Line " (item.line) ": " (item.payee) } }
                    }
                }
                div.field {
                    label for="text" { "Text" }
                    span.hint id="hint-text" { "Required for a comment, a question and a return (the reason)" }
                    span.error id="error-text" { (error_of(errors, "text").unwrap_or_default()) }
                    textarea id="text" name="text" rows="3" aria-describedby="hint-text error-text"
                        aria-invalid=[error_of(errors, "text").map(|_| "true")] {}
                }
                button type="submit" { "Record" }
            }
        }
        h2 { "Receipts and invoices" }
        @if v.attachments.is_empty() { p { "None attached." } }
        @else {
            ul { @for a in &v.attachments {
                li { a href=(format!("{here}/attachments/{}", a.id)) { (a.kind) " (" (a.content_type) ", " (a.size_bytes) " bytes)" }
                    " uploaded " (a.uploaded_at.format("%Y-%m-%d")) }
            } }
        }
        @if roles.contains(&Role::TourismEntity) {
            form.stack method="post" action=(format!("{here}/attachments")) enctype="multipart/form-data" {
                (csrf_field(visit))
                div.field {
                    label for="kind" { "Kind of document" }
                    select id="kind" name="kind" {
                        @for k in DocumentKind::ALL { option value=(k.as_str()) { (k.as_str()) } }
                    }
                }
                div.field {
                    label for="document" { "Document (PDF, PNG or JPEG, at most 10 MiB)" }
                    input id="document" name="document" type="file" accept="application/pdf,image/png,image/jpeg" required;
                }
                button type="submit" { "Attach" }
            }
        }
        p { a href=(format!("{}/expenditures", base(slug))) { "All expenditure reports" } " · "
            a href=(format!("{}/inspections", base(slug))) { "Inspections of records" } }
    }
}

/// The tourism entity's form to answer the question `id`.
fn answer_form(visit: &Visit, here: &str, id: &str, errors: &[FieldError]) -> Markup {
    let name = format!("answer-{id}");
    let error = error_of(errors, &name);
    html! {
        form.stack method="post" action=(format!("{here}/review/{id}/answer")) {
            (csrf_field(visit))
            div.field {
                label for=(name) { "Your answer" }
                span.error id=(layout::error_id(&name)) { (error.clone().unwrap_or_default()) }
                textarea id=(name) name="text" rows="3" aria-describedby=(layout::error_id(&name))
                    aria-invalid=[error.map(|_| "true")] {}
            }
            button type="submit" { "Answer" }
        }
    }
}

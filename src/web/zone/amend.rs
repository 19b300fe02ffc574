//! `GET|POST /app/z/{zone}/expenditures/{report}/amend`: the tourism entity
//! corrects a report (one the commission returned) in a form prefilled item
//! by item with the latest version.
//!
//! Contract: the same form and steps as a new report (`draft::step`: each
//! check through `usecases::expenditures::filing::check`, the API's
//! messages next to the item and field they name, `items[k].x` at `i{k}_x`),
//! but every item is a set of fields to correct in place. "Submit the
//! correction" files it through `filing::amend` (the API's
//! `POST .../versions`) naming the version the form was prefilled from (a
//! version filed meanwhile is the API's 412); an accepted report is the
//! API's 409 `accepted_reports_are_final` before any form is shown. The
//! form cannot edit the version's summed lines nor its items' impact
//! measures: both are carried over unchanged (an item keeps the measures of
//! the line it was prefilled from; a removed item loses them). Only the
//! tourism entity (`FileExpenditureReports`); others get the 403 page.

use actix_web::{HttpResponse, http::StatusCode, web};
use maud::html;

use super::{
    base, caller_of,
    draft::{self, Draft, RawItem, Target},
    words,
};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    db::DbConn,
    domain::{
        Money,
        expenditure::{Category, Impact, Measure, ReportDraft, Sum, review::may_amend},
    },
    error::ApiError,
    tenancy::{ZoneAction, ZoneContext},
    usecases::{
        expenditures::{self, ReportView, filing},
        payors::Precondition,
    },
    web::{Posted, WebError, session::Visit},
};

/// The form's target for `report` prefilled from `version`, with `view`'s summed lines.
fn target(slug: &str, report: &str, version: i64, view: Option<&ReportView>) -> Target {
    let extra = match view {
        Some(v) if !v.sums.is_empty() => html! {
            table {
                caption { "Expenditures under $1,000 summed by category (carried over unchanged)" }
                thead { tr { th scope="col" { "What for" } th scope="col" { "What they bought" } th scope="col" class="num" { "Count" } th scope="col" class="num" { "Amount" } } }
                tbody { @for s in &v.sums { tr { th scope="row" { (words(&s.category)) } td { (s.description) } td.num { (s.item_count) } td.num { (Money::from_cents(s.amount_cents)) } } } }
            }
        },
        _ => crate::web::layout::empty(),
    };
    Target {
        slug: slug.to_owned(),
        action: format!("{}/expenditures/{report}/amend", base(slug)),
        title: format!("Correct the expenditure report (version {version})"),
        intro: "Correct the items the commission asked about, then submit the correction: it becomes the report's next version (the earlier ones stay readable). Nothing is stored until you submit.",
        hidden: vec![("version".into(), version.to_string())],
        editable: true,
        extra,
        submit: "Submit the correction",
    }
}

/// The latest version of `view` as the form's draft.
fn prefilled(view: &ReportView) -> Draft {
    let r = &view.latest().row;
    let items = view
        .items
        .iter()
        .map(|(item, _)| RawItem {
            values: [
                item.spent_on.to_string(),
                item.payee.clone(),
                Money::from_cents(item.amount_cents).to_string(),
                item.category.clone(),
                item.description.clone(),
                item.explanation.clone().unwrap_or_default(),
                // A stored item was judged no lodging facility.
                "no".into(),
                item.line.to_string(),
            ],
        })
        .collect();
    Draft {
        period_start: r.period_start.to_string(),
        period_end: r.period_end.to_string(),
        received_declared: Money::from_cents(r.received_declared_cents).to_string(),
        items,
        new: RawItem::default(),
    }
}

/// `GET .../expenditures/{report}/amend`.
pub async fn form(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, id) = path.into_inner();
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let view = here
        .read(&state, move |ZoneUnit { conn, ctx, .. }| {
            ctx.require_presence()?;
            ctx.require(ZoneAction::FileExpenditureReports)?;
            let view = expenditures::show(conn, &ctx, &id, None)?;
            may_amend(view.latest().status).map_err(filing::review_fault)?;
            Ok(view)
        })
        .await?;
    let version = view.latest().row.version;
    let target = target(&slug, &view.report.id, version, Some(&view));
    Ok(draft::page(
        &visit,
        StatusCode::OK,
        &target,
        &prefilled(&view),
        None,
        &[],
    ))
}

/// `POST .../expenditures/{report}/amend`: check, add or remove an item, or submit.
pub async fn submit(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, WebError> {
    let (slug, id) = path.into_inner();
    let version: i64 = form
        .get("version")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    // The summed lines shown again: those of the latest version.
    let here = InZone::new(caller_of(&visit)?, slug.clone());
    let report = id.clone();
    let view = here
        .read(&state, move |ZoneUnit { conn, ctx, .. }| {
            ctx.require_presence()?;
            ctx.require(ZoneAction::FileExpenditureReports)?;
            expenditures::show(conn, &ctx, &report, None)
        })
        .await?;
    let target = target(&slug, &id, version, Some(&view));
    let file: draft::Filer = Box::new(
        move |conn: &mut DbConn,
              ctx: &ZoneContext,
              report: ReportDraft,
              from: Vec<Option<i64>>,
              now: chrono::NaiveDateTime| {
            amend_version(conn, ctx, &id, version, report, from, now)
        },
    );
    draft::step(&state, &visit, &target, &form, file).await
}

/// File the correction: the latest version's summed lines and each carried
/// item's impact measures with it, `If-Match` the version the form shows.
fn amend_version(
    conn: &mut DbConn,
    ctx: &ZoneContext,
    id: &str,
    version: i64,
    mut report: ReportDraft,
    from: Vec<Option<i64>>,
    now: chrono::NaiveDateTime,
) -> Result<String, ApiError> {
    let current = expenditures::show(conn, ctx, id, None)?;
    report.summed = current
        .sums
        .iter()
        .map(|s| {
            Ok(Sum {
                category: Category::from_stored(&s.category)
                    .ok_or_else(|| ApiError::internal("a stored category"))?,
                amount: Money::from_cents(s.amount_cents),
                count: s.item_count,
                description: s.description.clone(),
                explanation: s.explanation.clone(),
                lodging_facility: false,
            })
        })
        .collect::<Result<_, ApiError>>()?;
    for (item, line) in report.items.iter_mut().zip(from) {
        let Some(line) = line else { continue };
        if let Some((_, impacts)) = current.items.iter().find(|(i, _)| i.line == line) {
            item.impact = impacts
                .iter()
                .map(|m| {
                    Ok(Impact {
                        measure: Measure::from_stored(&m.measure)
                            .ok_or_else(|| ApiError::internal("a stored measure"))?,
                        value: m.value,
                        source: m.source.clone(),
                    })
                })
                .collect::<Result<_, ApiError>>()?;
        }
    }
    let precondition = Ok(Precondition::OneOf(vec![version]));
    filing::amend(conn, ctx, id, precondition, report, now).map(|v| v.report.id)
}

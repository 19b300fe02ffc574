//! `GET|POST /app/z/{zone}/expenditures/new`: the tourism entity writes an
//! expenditure report item by item, then submits it.
//!
//! Contract: the draft lives in the form itself (hidden fields `i{n}_*`
//! for the items already added), so it works without JavaScript and
//! nothing is stored until the report is submitted. "Add this item" judges
//! the whole draft with the new item through
//! `usecases::expenditures::filing::check` (the authorisation and the
//! refusals of filing: a lodging facility is the API's 409 citing Montello
//! room tax, distribution ¶B and Wis. Stat. § 66.0615(1)(fm)); a refused
//! item stays in the new-item fields with the API's message next to the
//! field it names (`items[k].x` of the new item is shown at `new_x`), and
//! can be corrected. "Submit the report" files it through
//! `filing::file` (the API's `POST .../expenditure-reports`) and answers
//! `303 See Other` to the report. Only the tourism entity may
//! (`FileExpenditureReports`); others get the 403 page. The form's steps
//! ([`step`]) and page ([`page`]) are shared with the correction of a
//! returned report (`amend`), which files through `filing::amend` instead.

use actix_web::{HttpResponse, ResponseError as _, http::StatusCode, web};
use chrono::NaiveDate;
use maud::{Markup, html};

use super::{base, caller_of, words};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    domain::{
        Money,
        expenditure::{Category, Item, ReportDraft},
    },
    error::{ApiError, FieldError},
    usecases::expenditures::filing,
    web::{
        FormData, Posted, WebError,
        layout::{self, Field, csrf_field, error_id, error_of},
        render, see_other,
        session::Visit,
    },
};

/// The parts of an item, as typed (`from`: the line of the version an
/// amendment started from, empty for a new item).
pub(crate) const PARTS: [&str; 8] = [
    "date",
    "payee",
    "amount",
    "category",
    "description",
    "explanation",
    "lodging",
    "from",
];

/// An item as the form holds it (strings, shown again as typed).
#[derive(Debug, Clone, Default)]
pub(crate) struct RawItem {
    pub(crate) values: [String; 8],
}

impl RawItem {
    fn read(form: &FormData, prefix: &str) -> RawItem {
        let mut values: [String; 8] = Default::default();
        for (i, part) in PARTS.iter().enumerate() {
            values[i] = form.shown(&format!("{prefix}{part}")).trim().to_owned();
        }
        RawItem { values }
    }

    pub(crate) fn get(&self, part: &str) -> &str {
        PARTS
            .iter()
            .position(|p| *p == part)
            .map_or("", |i| self.values[i].as_str())
    }

    fn is_blank(&self) -> bool {
        self.values.iter().all(String::is_empty)
    }

    /// The line of the version this item was carried from, if any.
    pub(crate) fn carried_line(&self) -> Option<i64> {
        self.get("from").parse().ok()
    }

    /// The item, or the faults of its fields (named `{prefix}{part}`).
    fn parse(&self, prefix: &str) -> Result<Item, Vec<FieldError>> {
        let mut faults = Vec::new();
        let at = |p: &str| format!("{prefix}{p}");
        let date = date(&mut faults, &at("date"), self.get("date"));
        let amount = money(&mut faults, &at("amount"), self.get("amount"));
        let category = category_of(self.get("category"));
        if category.is_none() {
            faults.push(FieldError::new(
                at("category"),
                "required",
                "choose what the expenditure was for",
            ));
        }
        let lodging = match self.get("lodging") {
            "yes" => Some(true),
            "no" => Some(false),
            _ => {
                faults.push(FieldError::new(
                    at("lodging"),
                    "required",
                    "say whether it constructs or develops a lodging facility",
                ));
                None
            }
        };
        match (date, amount, category, lodging) {
            (Some(date), Some(amount), Some(category), Some(lodging)) if faults.is_empty() => {
                Ok(Item {
                    date,
                    payee: self.get("payee").to_owned(),
                    amount,
                    category,
                    description: self.get("description").to_owned(),
                    explanation: Some(self.get("explanation").to_owned()).filter(|e| !e.is_empty()),
                    lodging_facility: lodging,
                    impact: Vec::new(),
                })
            }
            _ => Err(faults),
        }
    }
}

fn date(faults: &mut Vec<FieldError>, field: &str, raw: &str) -> Option<NaiveDate> {
    match NaiveDate::parse_from_str(raw, "%Y-%m-%d") {
        Ok(d) => Some(d),
        Err(_) => {
            faults.push(FieldError::new(
                field,
                "date",
                "a date such as 2025-05-12 (year-month-day)",
            ));
            None
        }
    }
}

fn money(faults: &mut Vec<FieldError>, field: &str, raw: &str) -> Option<Money> {
    match Money::parse(raw) {
        Ok(m) => Some(m),
        Err(_) => {
            faults.push(FieldError::new(
                field,
                "decimal",
                "an amount in dollars and cents, such as 1250.00",
            ));
            None
        }
    }
}

/// The categories offered: the allowed ones and the one that exists only to be refused.
fn offered() -> Vec<Category> {
    let mut all = Category::ALLOWED.to_vec();
    all.push(Category::LodgingFacilityConstruction);
    all
}

fn category_of(raw: &str) -> Option<Category> {
    offered().into_iter().find(|c| c.as_str() == raw)
}

/// The form's state: report fields, items added, the new item.
#[derive(Debug, Default)]
pub(crate) struct Draft {
    pub(crate) period_start: String,
    pub(crate) period_end: String,
    pub(crate) received_declared: String,
    pub(crate) items: Vec<RawItem>,
    pub(crate) new: RawItem,
}

impl Draft {
    pub(crate) fn read(form: &FormData) -> Draft {
        let count: usize = form
            .get("items")
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
            .min(crate::domain::expenditure::LINES_MAX);
        Draft {
            period_start: form.shown("period_start").trim().to_owned(),
            period_end: form.shown("period_end").trim().to_owned(),
            received_declared: form.shown("received_declared").trim().to_owned(),
            items: (0..count)
                .map(|i| RawItem::read(form, &format!("i{i}_")))
                .collect(),
            new: RawItem::read(form, "new_"),
        }
    }

    /// The report with `with_new` (the new item added), or the faults.
    pub(crate) fn parse(&self, with_new: bool) -> Result<ReportDraft, Vec<FieldError>> {
        let mut faults = Vec::new();
        let start = date(&mut faults, "period_start", &self.period_start);
        let end = date(&mut faults, "period_end", &self.period_end);
        let received = money(&mut faults, "received_declared", &self.received_declared);
        let mut items = Vec::new();
        for (i, raw) in self.items.iter().enumerate() {
            match raw.parse(&format!("i{i}_")) {
                Ok(item) => items.push(item),
                Err(f) => faults.extend(f),
            }
        }
        if with_new {
            match self.new.parse("new_") {
                Ok(item) => items.push(item),
                Err(f) => faults.extend(f),
            }
        }
        match (start, end, received) {
            (Some(period_start), Some(period_end), Some(received_declared))
                if faults.is_empty() =>
            {
                Ok(ReportDraft {
                    period_start,
                    period_end,
                    received_declared,
                    items,
                    summed: Vec::new(),
                })
            }
            _ => Err(faults),
        }
    }
}

/// The page's name for the API's field `items[k].part` (`new_part` for the new item).
fn page_field(field: &str, new_index: usize) -> String {
    let Some(rest) = field.strip_prefix("items[") else {
        return field.to_owned();
    };
    let Some((k, part)) = rest.split_once("].") else {
        return field.to_owned();
    };
    let part = match part {
        "constructs_or_develops_lodging_facility" => "lodging",
        other => other,
    };
    match k.parse::<usize>() {
        Ok(k) if k == new_index => format!("new_{part}"),
        Ok(k) => format!("i{k}_{part}"),
        Err(_) => field.to_owned(),
    }
}

/// `GET .../expenditures/new`: an empty draft.
pub async fn form(
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let here = InZone::new(caller_of(&visit)?, path.into_inner());
    let slug = here
        .read(&state, |ZoneUnit { ctx, zone, .. }| {
            ctx.require_presence()?;
            ctx.require(crate::tenancy::ZoneAction::FileExpenditureReports)?;
            Ok(zone.slug)
        })
        .await?;
    let draft = Draft {
        received_declared: "0.00".into(),
        ..Draft::default()
    };
    Ok(page(
        &visit,
        StatusCode::OK,
        &Target::new_report(&slug),
        &draft,
        None,
        &[],
    ))
}

/// `POST .../expenditures/new`: add an item, remove one, or submit.
pub async fn submit(
    state: web::Data<AppState>,
    Posted { visit, form }: Posted,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let slug = path.into_inner();
    let target = Target::new_report(&slug);
    let file: Filer = Box::new(
        |conn: &mut crate::db::DbConn,
         ctx: &crate::tenancy::ZoneContext,
         report: ReportDraft,
         _: Vec<Option<i64>>,
         now: chrono::NaiveDateTime| {
            filing::file(conn, ctx, report, now).map(|v| v.report.id)
        },
    );
    step(&state, &visit, &target, &form, file).await
}

/// What files the judged draft on "Submit": the unit's connection and
/// context, the report, the line each item was carried from, the instant;
/// the report's id.
pub(crate) type Filer = Box<
    dyn FnOnce(
            &mut crate::db::DbConn,
            &crate::tenancy::ZoneContext,
            ReportDraft,
            Vec<Option<i64>>,
            chrono::NaiveDateTime,
        ) -> Result<String, ApiError>
        + Send,
>;

/// One step of the draft's form (see the module doc): remove an item, add
/// (or check) one through `filing::check`, or submit through `file`.
pub(crate) async fn step(
    state: &AppState,
    visit: &Visit,
    target: &Target,
    form: &FormData,
    file: Filer,
) -> Result<HttpResponse, WebError> {
    let slug = target.slug.clone();
    let mut draft = Draft::read(form);
    let action = form.get("action").unwrap_or("add").to_owned();
    if let Some(k) = action.strip_prefix("remove-") {
        if let Ok(k) = k.parse::<usize>()
            && k < draft.items.len()
        {
            draft.items.remove(k);
        }
        return Ok(page(visit, StatusCode::OK, target, &draft, None, &[]));
    }
    let with_new = action == "add" || !draft.new.is_blank();
    let report = match draft.parse(with_new) {
        Ok(r) => r,
        Err(faults) => {
            return Ok(page(
                visit,
                StatusCode::UNPROCESSABLE_ENTITY,
                target,
                &draft,
                Some("The report could not be accepted as it stands."),
                &faults,
            ));
        }
    };
    let new_index = draft.items.len();
    let mut from: Vec<Option<i64>> = draft.items.iter().map(RawItem::carried_line).collect();
    if with_new {
        from.push(None);
    }
    let here = InZone::new(caller_of(visit)?, slug.clone());
    let outcome = if action == "submit" {
        let now = crate::api::stamp::now(state);
        here.write(state, move |ZoneUnit { conn, ctx, .. }| {
            ctx.require_presence()?;
            file(conn, &ctx, report, from, now).map(Some)
        })
        .await
    } else {
        here.read(state, move |ZoneUnit { ctx, .. }| {
            ctx.require_presence()?;
            filing::check(&ctx, report).map(|()| None)
        })
        .await
    };
    match outcome {
        Ok(Some(id)) => Ok(see_other(&format!("{}/expenditures/{id}", base(&slug)))),
        Ok(None) => {
            if with_new {
                draft.items.push(std::mem::take(&mut draft.new));
            }
            Ok(page(visit, StatusCode::OK, target, &draft, None, &[]))
        }
        Err(err @ (ApiError::Validation(_) | ApiError::RuleConflict(_))) => {
            let problem = err.to_problem();
            // The API's messages go next to their fields (or in the alert's list).
            let faults: Vec<FieldError> = problem
                .errors
                .iter()
                .map(|e| FieldError {
                    field: page_field(&e.field, new_index),
                    ..e.clone()
                })
                .collect();
            Ok(page(
                visit,
                err.status_code(),
                target,
                &draft,
                Some(if err.status_code() == StatusCode::CONFLICT {
                    "The commission cannot accept this as it stands."
                } else {
                    "Some fields need correcting."
                }),
                &faults,
            ))
        }
        Err(other) => Err(other.into()),
    }
}

/// Where the draft's form posts and how it shows its items.
pub(crate) struct Target {
    /// The zone.
    pub(crate) slug: String,
    /// The form's action.
    pub(crate) action: String,
    /// The page's title.
    pub(crate) title: String,
    /// What the page says first.
    pub(crate) intro: &'static str,
    /// Hidden fields the form carries (the version amended).
    pub(crate) hidden: Vec<(String, String)>,
    /// Items as fields to edit in place (an amendment) rather than a table.
    pub(crate) editable: bool,
    /// What is shown below the items (the summed lines carried over).
    pub(crate) extra: Markup,
    /// The label of the submit button.
    pub(crate) submit: &'static str,
}

impl Target {
    /// A new report.
    pub(crate) fn new_report(slug: &str) -> Target {
        Target {
            slug: slug.to_owned(),
            action: format!("{}/expenditures/new", base(slug)),
            title: "New expenditure report".into(),
            intro: "List each expenditure of room-tax money, one at a time, then submit the report to the commission. Nothing is stored until you submit.",
            hidden: Vec::new(),
            editable: false,
            extra: layout::empty(),
            submit: "Submit the report",
        }
    }
}

/// The category select: "Choose…", then every category offered.
fn select(name: &str, label: &str, value: &str, errors: &[FieldError]) -> Markup {
    let choose = std::iter::once(("", "Choose…".to_owned()));
    let offered = offered()
        .into_iter()
        .map(|c| (c.as_str(), words(c.as_str())));
    layout::select(name, label, value, choose.chain(offered), errors)
}

/// The yes/no statement about a lodging facility.
fn lodging(name: &str, value: &str, errors: &[FieldError]) -> Markup {
    let error = error_of(errors, name);
    html! {
        fieldset.field aria-describedby=(error_id(name)) {
            legend { "Does this expenditure construct or develop a lodging facility?" }
            span.error id=(error_id(name)) { (error.clone().unwrap_or_default()) }
            label { input type="radio" name=(name) id=(format!("{name}-no")) value="no" checked[value == "no"]; " No" }
            label { input type="radio" name=(name) id=(format!("{name}-yes")) value="yes" checked[value == "yes"]; " Yes" }
        }
    }
}

fn field<'a>(name: &'a str, label: &'a str, value: &'a str, kind: &'a str) -> Field<'a> {
    Field {
        kind,
        ..Field::text(name, label, value)
    }
}

/// The draft's page for `target`.
pub(crate) fn page(
    visit: &Visit,
    status: StatusCode,
    target: &Target,
    d: &Draft,
    problem: Option<&str>,
    errors: &[FieldError],
) -> HttpResponse {
    let action = &target.action;
    let listed: Vec<String> = (0..d.items.len())
        .flat_map(|i| PARTS.iter().map(move |p| format!("i{i}_{p}")))
        .collect();
    let mut on_page: Vec<&str> = vec![
        "period_start",
        "period_end",
        "received_declared",
        "new_date",
        "new_payee",
        "new_amount",
        "new_category",
        "new_description",
        "new_explanation",
        "new_lodging",
    ];
    on_page.extend(listed.iter().map(String::as_str));
    let total: Money = d
        .items
        .iter()
        .filter_map(|i| Money::parse(i.get("amount")).ok())
        .sum();
    let body = html! {
        h1 { (target.title) }
        p { (target.intro) }
        @if let Some(message) = problem { (layout::alert(message, errors, &on_page)) }
        form.stack method="post" action=(action) {
            (csrf_field(visit))
            @for (name, value) in &target.hidden { input type="hidden" name=(name) value=(value); }
            input type="hidden" name="items" value=(d.items.len());
            @for (i, item) in d.items.iter().enumerate() {
                @for (j, part) in PARTS.iter().enumerate() {
                    @if !target.editable || *part == "from" {
                        input type="hidden" name=(format!("i{i}_{part}")) value=(item.values[j]);
                    }
                }
            }
            fieldset {
                legend { "The report" }
                (Field { hint: Some("First day the report covers"), required: true, ..field("period_start", "Period from", &d.period_start, "date") }.render(errors))
                (Field { hint: Some("Last day covered: at most one year after the first"), required: true, ..field("period_end", "Period to", &d.period_end, "date") }.render(errors))
                (Field { hint: Some("What the commission received in the period, as you state it"), inputmode: Some("decimal"), required: true, ..field("received_declared", "Received (dollars)", &d.received_declared, "text") }.render(errors))
            }
            fieldset {
                legend { "Add an expenditure" }
                (field("new_date", "Date spent", d.new.get("date"), "date").render(errors))
                (field("new_payee", "Paid to", d.new.get("payee"), "text").render(errors))
                (Field { inputmode: Some("decimal"), hint: Some("Dollars and cents, e.g. 1250.00"), ..field("new_amount", "Amount", d.new.get("amount"), "text") }.render(errors))
                (select("new_category", "What for", d.new.get("category"), errors))
                (field("new_description", "What it bought", d.new.get("description"), "text").render(errors))
                (Field { hint: Some("Required for “other”: how it promotes or develops tourism"), ..field("new_explanation", "Explanation", d.new.get("explanation"), "text") }.render(errors))
                (lodging("new_lodging", d.new.get("lodging"), errors))
                button type="submit" name="action" value="add" { "Add this item" }
            }
            h2 { "Items on this report" }
            @if d.items.is_empty() {
                p { "No item yet." }
            } @else if target.editable {
                @for (i, item) in d.items.iter().enumerate() {
                    (item_fields(i, item, errors))
                }
                button.secondary type="submit" name="action" value="check" { "Check the items" }
            } @else {
                table {
                    caption { "Expenditures listed (" (d.items.len()) "), total " (total) }
                    thead { tr {
                        th scope="col" { "Date" } th scope="col" { "Paid to" } th scope="col" class="num" { "Amount" }
                        th scope="col" { "What for" } th scope="col" { "What it bought" } th scope="col" { "Remove" }
                    } }
                    tbody { @for (i, item) in d.items.iter().enumerate() {
                        tr {
                            td { (item.get("date")) }
                            td { (item.get("payee")) }
                            td.num { (item.get("amount")) }
                            td { (words(item.get("category"))) }
                            td { (item.get("description"))
                                @for part in PARTS { @if let Some(e) = error_of(errors, &format!("i{i}_{part}")) { br; span.error { (e) } } } }
                            td { button.secondary type="submit" name="action" value=(format!("remove-{i}"))
                                aria-label=(format!("Remove item {} ({})", i + 1, item.get("payee"))) { "Remove" } }
                        }
                    } }
                }
            }
            (target.extra)
            button type="submit" name="action" value="submit" { (target.submit) }
        }
    };
    render(visit, status, layout::page(visit, &target.title, body))
}

/// Item `i` as fields to correct in place, each with its error.
fn item_fields(i: usize, item: &RawItem, errors: &[FieldError]) -> Markup {
    let n = |p: &str| format!("i{i}_{p}");
    let (date, payee, amount, category) = (n("date"), n("payee"), n("amount"), n("category"));
    let (description, explanation, lodge) = (n("description"), n("explanation"), n("lodging"));
    html! {
        fieldset #(format!("item-{i}")) {
            legend { "Item " (i + 1) }
            (field(&date, "Date spent", item.get("date"), "date").render(errors))
            (field(&payee, "Paid to", item.get("payee"), "text").render(errors))
            (Field { inputmode: Some("decimal"), ..field(&amount, "Amount", item.get("amount"), "text") }.render(errors))
            (select(&category, "What for", item.get("category"), errors))
            (field(&description, "What it bought", item.get("description"), "text").render(errors))
            (Field { hint: Some("Required for “other”"), ..field(&explanation, "Explanation", item.get("explanation"), "text") }.render(errors))
            (lodging(&lodge, item.get("lodging"), errors))
            button.secondary type="submit" name="action" value=(format!("remove-{i}"))
                aria-label=(format!("Remove item {} ({})", i + 1, item.get("payee"))) { "Remove this item" }
        }
    }
}

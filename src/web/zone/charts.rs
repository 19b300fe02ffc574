//! The zone's charts (issue 11 item 8): `GET /app/z/{zone}/charts[?year=]`
//! shows each chart as an `<img>` of an SVG served from this zone's
//! `/charts/*.svg` route (so the CSP's `img-src 'self'` holds) with the
//! same numbers in a table beside it.
//!
//! Contract: collections by quarter per member are the commission's view
//! of the remittances (`usecases::remittances::view::of_zone`, the API's
//! `GET .../remittances`: the latest submitted `tax_collected`, 0.00 for a
//! quarter not submitted); receipts against spending by category are
//! `usecases::reports::zone_spending` (the report back's figures for the
//! whole zone: the commission's receipts from the members' transfers, the
//! accepted reports' spending by category; readers of expenditure reports
//! only, so the zone admin sees the first chart and not this one). The SVG
//! is drawn by `web::charts`, exact amounts as text.

use actix_web::{HttpRequest, HttpResponse, http::StatusCode, web};
use maud::{Markup, html};

use super::{base, caller_of, words, year_of};
use crate::{
    api::caller::{InZone, ZoneUnit},
    app::AppState,
    domain::{Money, Period},
    tenancy::ZoneAction,
    usecases::{
        remittances::view::{self, QuarterView},
        reports::{self, Spending},
    },
    web::{
        WebError,
        charts::{self, BarChart, Series},
        layout, render,
        session::Visit,
    },
};

/// Collections by quarter (groups) per member (series).
fn collections(year: i32, quarters: &[QuarterView]) -> BarChart {
    let periods = Period::quarters_of_year(year);
    let mut series: Vec<Series> = Vec::new();
    for q in quarters {
        if !series.iter().any(|s| s.name == q.name) {
            series.push(Series {
                name: q.name.clone(),
                values: periods
                    .iter()
                    .map(|p| {
                        quarters
                            .iter()
                            .find(|x| x.name == q.name && x.period == *p)
                            .and_then(|x| x.latest.as_ref())
                            .map_or(Money::ZERO, |r| Money::from_cents(r.tax_collected_cents))
                    })
                    .collect(),
            });
        }
    }
    BarChart {
        title: format!("Room tax collected by quarter and member, {year}"),
        axis: "Quarter".into(),
        groups: periods.iter().map(ToString::to_string).collect(),
        series,
    }
}

/// Receipts, then spending by category (groups), one series.
fn spending(year: i32, received: Money, s: &Spending) -> BarChart {
    let mut groups = vec!["received".to_owned()];
    let mut values = vec![received];
    for (c, v) in &s.breakdown.by_category {
        groups.push(words(c.as_str()));
        values.push(v.total);
    }
    BarChart {
        title: format!("Commission receipts and spending by category, {year}"),
        axis: "Received, or spent on".into(),
        groups,
        series: vec![Series {
            name: "dollars".into(),
            values,
        }],
    }
}

/// The chart's numbers as a table (groups as rows, series as columns).
fn table(chart: &BarChart) -> Markup {
    html! {
        table {
            caption { (chart.title) " (dollars)" }
            thead { tr { th scope="col" { (chart.axis) } @for s in &chart.series { th scope="col" class="num" { (s.name) } } } }
            tbody { @for (g, name) in chart.groups.iter().enumerate() {
                tr { th scope="row" { (name) }
                    @for s in &chart.series { td.num { @if let Some(v) = s.values.get(g) { (v) } } } }
            } }
        }
    }
}

type Figures = (String, Vec<QuarterView>, Option<(Money, Spending)>);

async fn figures(
    state: &AppState,
    visit: &Visit,
    slug: String,
    year: i32,
    want_spending: bool,
) -> Result<Figures, WebError> {
    let today = state.clock.today();
    let here = InZone::new(caller_of(visit)?, slug);
    Ok(here
        .read(state, move |ZoneUnit { conn, ctx, zone }| {
            ctx.require_presence()?;
            let quarters = view::of_zone(conn, &ctx, Ok(year), today)?;
            let spent = if want_spending || ctx.require(ZoneAction::ReadExpenditureReports).is_ok()
            {
                Some(reports::zone_spending(conn, &ctx, Ok(year))?)
            } else {
                None
            };
            Ok((zone.name, quarters, spent))
        })
        .await?)
}

/// `GET .../charts`.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let year = year_of(req.query_string(), state.clock.today())?;
    let slug = path.into_inner();
    let (name, quarters, spent) = figures(&state, &visit, slug.clone(), year, false).await?;
    let b = base(&slug);
    let first = collections(year, &quarters);
    let second = spent.map(|(r, s)| spending(year, r, &s));
    let title = format!("Charts, {year}");
    let body = html! {
        h1 { (title) }
        p { (name) ". Each chart is followed by its numbers." }
        figure.chart {
            img src=(format!("{b}/charts/collections.svg?year={year}")) alt=(first.title) width="720" height="360";
            figcaption { (table(&first)) }
        }
        @if let Some(c) = &second {
            figure.chart {
                img src=(format!("{b}/charts/spending.svg?year={year}")) alt=(c.title) width="720" height="360";
                figcaption { (table(c)) }
            }
        }
    };
    Ok(render(
        &visit,
        StatusCode::OK,
        layout::page(&visit, &title, body),
    ))
}

fn svg_response(chart: &BarChart) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("image/svg+xml; charset=utf-8")
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .body(charts::svg(chart))
}

/// `GET .../charts/collections.svg`.
pub async fn collections_svg(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let year = year_of(req.query_string(), state.clock.today())?;
    let (_, quarters, _) = figures(&state, &visit, path.into_inner(), year, false).await?;
    Ok(svg_response(&collections(year, &quarters)))
}

/// `GET .../charts/spending.svg` (readers of expenditure reports only).
pub async fn spending_svg(
    req: HttpRequest,
    state: web::Data<AppState>,
    visit: Visit,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let year = year_of(req.query_string(), state.clock.today())?;
    let (_, _, spent) = figures(&state, &visit, path.into_inner(), year, true).await?;
    let (received, s) =
        spent.ok_or_else(|| crate::error::ApiError::internal("spending asked for"))?;
    Ok(svg_response(&spending(year, received, &s)))
}

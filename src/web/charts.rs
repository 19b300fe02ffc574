//! Server-rendered bar charts as SVG documents (issue 11 item 8).
//!
//! Why hand-written rather than plotters' SVG backend: our charts are bars
//! with labels, a few dozen elements; plotters would add several crates to
//! a build shared by four helpers on two cores, measures its text with a
//! font library (or not at all without one), and writes `style`-free SVG
//! only by accident of its version. Here every element is built with
//! maud, so every label is escaped, and the markup is ours to keep within
//! the portal's Content-Security-Policy: presentation attributes (`fill=`,
//! `stroke=`, `font-size=`), never a `style` attribute or element, no
//! script, nothing fetched.
//!
//! Contract: [`svg`] renders a [`BarChart`] as a standalone
//! `image/svg+xml` document with `role="img"`, an `aria-label` and a
//! `<title>`; every bar carries its exact value as text (the `Money`'s
//! decimal string, never a float), and the axis ticks are whole cents
//! (a step of 1, 2 or 5 × 10ⁿ cents, so each tick is an exact amount).
//! Floats are used only for pixel geometry. Negative values are drawn as
//! zero-height bars (their text still says the value). The numbers must also
//! be shown in a table beside the chart by the page that shows it: the
//! chart is a picture of that table, not a replacement for it.

use maud::{Markup, PreEscaped, html};

use crate::domain::Money;

/// One series of bars (one colour), a value per group.
#[derive(Debug, Clone)]
pub struct Series {
    /// Its name, in the legend.
    pub name: String,
    /// One value per group, in the groups' order.
    pub values: Vec<Money>,
}

/// A grouped bar chart.
#[derive(Debug, Clone)]
pub struct BarChart {
    /// The chart's title (also its accessible name).
    pub title: String,
    /// What the groups are (the table's first column heading), e.g. "Quarter".
    pub axis: String,
    /// The groups along the horizontal axis.
    pub groups: Vec<String>,
    /// The series drawn in each group.
    pub series: Vec<Series>,
}

/// The fills of the series, in order (dark enough against white for text).
const FILLS: [&str; 6] = [
    "#1f5f8b", "#b35c00", "#2e7d32", "#6a3d9a", "#8b1f3a", "#4d4d4d",
];

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 360.0;
const LEFT: f64 = 90.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 80.0;

/// A tick step in cents of 1, 2 or 5 × 10ⁿ, giving at most five ticks above 0.
fn tick_step(max_cents: i64) -> i64 {
    let mut step = 1_i64;
    loop {
        for m in [1, 2, 5] {
            let s = step.saturating_mul(m);
            if max_cents <= s.saturating_mul(5) {
                return s;
            }
        }
        step = step.saturating_mul(10);
    }
}

fn px(v: f64) -> String {
    format!("{v:.1}")
}

/// The chart as an SVG document (see the module doc).
pub fn svg(chart: &BarChart) -> String {
    let max = chart
        .series
        .iter()
        .flat_map(|s| s.values.iter())
        .map(Money::cents)
        .max()
        .unwrap_or(0)
        .max(1);
    let step = tick_step(max);
    let top_value = step * ((max + step - 1) / step);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let y_of = |cents: i64| TOP + plot_h - plot_h * (cents.max(0) as f64) / (top_value as f64);
    let groups = chart.groups.len().max(1) as f64;
    let group_w = plot_w / groups;
    let n = chart.series.len().max(1) as f64;
    let bar_w = (group_w * 0.8) / n;
    let ticks: Vec<i64> = (0..=top_value / step).map(|i| i * step).collect();
    let body: Markup = html! {
        title { (chart.title) }
        rect x="0" y="0" width=(px(WIDTH)) height=(px(HEIGHT)) fill="#ffffff" {}
        text x=(px(LEFT)) y="22" font-size="15" font-weight="bold" fill="#111111" { (chart.title) }
        @for t in &ticks {
            line x1=(px(LEFT)) x2=(px(WIDTH - RIGHT)) y1=(px(y_of(*t))) y2=(px(y_of(*t)))
                stroke="#d0d0d0" stroke-width="1" {}
            text x=(px(LEFT - 6.0)) y=(px(y_of(*t) + 4.0)) font-size="11" text-anchor="end" fill="#333333" {
                (Money::from_cents(*t))
            }
        }
        line x1=(px(LEFT)) x2=(px(LEFT)) y1=(px(TOP)) y2=(px(TOP + plot_h)) stroke="#111111" stroke-width="1" {}
        line x1=(px(LEFT)) x2=(px(WIDTH - RIGHT)) y1=(px(TOP + plot_h)) y2=(px(TOP + plot_h)) stroke="#111111" stroke-width="1" {}
        @for (g, name) in chart.groups.iter().enumerate() {
            @let gx = LEFT + group_w * g as f64 + group_w * 0.1;
            @for (s, series) in chart.series.iter().enumerate() {
                @if let Some(v) = series.values.get(g) {
                    @let x = gx + bar_w * s as f64;
                    @let y = y_of(v.cents());
                    rect x=(px(x)) y=(px(y)) width=(px(bar_w * 0.92)) height=(px(TOP + plot_h - y))
                        fill=(FILLS[s % FILLS.len()]) {
                        title { (series.name) ", " (name) ": " (v) }
                    }
                    text x=(px(x + bar_w * 0.46)) y=(px(y - 4.0)) font-size="10" text-anchor="middle" fill="#111111" { (v) }
                }
            }
            text x=(px(LEFT + group_w * (g as f64 + 0.5))) y=(px(TOP + plot_h + 18.0)) font-size="12"
                text-anchor="middle" fill="#111111" { (name) }
        }
        @for (s, series) in chart.series.iter().enumerate() {
            @let lx = LEFT + 180.0 * s as f64;
            rect x=(px(lx)) y=(px(HEIGHT - 30.0)) width="12" height="12" fill=(FILLS[s % FILLS.len()]) {}
            text x=(px(lx + 18.0)) y=(px(HEIGHT - 20.0)) font-size="12" fill="#111111" { (series.name) }
        }
    };
    let label = html! { (chart.title) }.into_string();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="sans-serif">{body}</svg>"#,
        w = WIDTH,
        h = HEIGHT,
        body = PreEscaped(body.into_string()).0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str) -> Money {
        Money::parse(s).unwrap()
    }

    #[test]
    fn ticks_are_whole_cents_of_1_2_or_5() {
        assert_eq!(tick_step(1), 1);
        assert_eq!(tick_step(500), 100);
        assert_eq!(tick_step(501), 200);
        assert_eq!(tick_step(438_075), 100_000);
    }

    #[test]
    fn values_are_exact_text_and_no_style_attribute() {
        let chart = BarChart {
            title: "Tax <collected>".into(),
            axis: "Quarter".into(),
            groups: vec!["2026-Q1".into(), "2026-Q2".into()],
            series: vec![Series {
                name: "City & co".into(),
                values: vec![m("0.00"), m("4380.75")],
            }],
        };
        let out = svg(&chart);
        assert!(out.contains(">4380.75<"), "{out}");
        assert!(
            out.contains("aria-label=\"Tax &lt;collected&gt;\""),
            "{out}"
        );
        assert!(out.contains("City &amp; co"));
        assert!(!out.contains("style"), "{out}");
        assert!(!out.contains("<script"));
    }
}

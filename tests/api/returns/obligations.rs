//! Who filed, who is late, who is missing: a payor's obligations and the
//! clerk's view of a period (JSON and CSV), over the demo's year 2025.
//!
//! The demo (see `src/demo/returns.rs`): the motel filed 2025-Q1 on time and
//! 2025-Q2 late (2025-08-04, due 2025-07-31), Q3 and Q4 on time; the
//! campground filed Q1–Q3 on paper and **no Q4**; Hayward's lodge filed Q4
//! without the state sales-tax return (incomplete).

use reqwest::Method;
use serde_json::Value;

use super::{CAMPGROUND, CLERK, MOTEL, OPERATOR};
use crate::helpers::{check::assert_problem, spawn_demo_app_at};

const PERIOD_VIEW: &str = "/v1/municipalities/montello/returns";

#[actix_web::test]
async fn the_clerk_sees_who_filed_who_was_late_and_who_is_missing() {
    let app = spawn_demo_app_at("2026-12-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let res = app
        .call(Method::GET, &format!("{PERIOD_VIEW}?period=2025-Q4"))
        .bearer(&clerk)
        .send()
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let items = body["items"].as_array().unwrap();
    let of = |payor: &str| {
        items
            .iter()
            .find(|i| i["payor_id"] == payor)
            .expect("listed")
            .clone()
    };
    assert_eq!(of(MOTEL)["obligation"]["status"], "filed");
    assert_eq!(of(CAMPGROUND)["obligation"]["status"], "missing");
    assert!(of(CAMPGROUND)["obligation"]["return_id"].is_null());
    assert_eq!(of(CAMPGROUND)["legal_name"], "Buffalo Lake Campground Inc.");

    let res = app
        .call(
            Method::GET,
            &format!("{PERIOD_VIEW}?period=2025-Q2&status=filed_late"),
        )
        .bearer(&clerk)
        .send()
        .await;
    let late: Value = res.json().await.unwrap();
    let ids: Vec<&str> = late["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["payor_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [MOTEL]);

    let res = app
        .call(
            Method::GET,
            &format!("{PERIOD_VIEW}?period=2025-Q4&status=missing"),
        )
        .bearer(&clerk)
        .header("accept", "text/csv")
        .send()
        .await;
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let csv = res.text().await.unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("payor_id,legal_name,period,due_date"),
        "{csv}"
    );
    assert_eq!(lines.len(), 2, "{csv}");
    assert!(
        lines[1].contains("Buffalo Lake Campground Inc.") && lines[1].contains(",missing,"),
        "{csv}"
    );
}

#[actix_web::test]
async fn the_period_view_is_the_clerks_and_refuses_a_bad_period() {
    let app = spawn_demo_app_at("2026-12-01T15:00:00Z").await;
    let op = app.token(OPERATOR).await;
    let res = app
        .call(Method::GET, &format!("{PERIOD_VIEW}?period=2025-Q4"))
        .bearer(&op)
        .send()
        .await;
    assert_problem(res, 403, "forbidden", None).await;
    let clerk = app.token(CLERK).await;
    let res = app
        .call(Method::GET, &format!("{PERIOD_VIEW}?period=2025-Q5"))
        .bearer(&clerk)
        .send()
        .await;
    assert_eq!(res.status(), 400, "a period that does not exist");
    let res = app
        .call(
            Method::GET,
            &format!("{PERIOD_VIEW}?period=2025-Q4&status=lost"),
        )
        .bearer(&clerk)
        .send()
        .await;
    assert_eq!(res.status(), 400);
}

#[actix_web::test]
async fn an_operator_sees_its_own_obligations_only() {
    let app = spawn_demo_app_at("2026-02-15T15:00:00Z").await;
    let op = app.token(OPERATOR).await;
    let path = format!(
        "/v1/municipalities/montello/payors/{MOTEL}/obligations?from=2025-01-01&to=2026-06-30"
    );
    let res = app.call(Method::GET, &path).bearer(&op).send().await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    let status: Vec<(String, String)> = body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["period"].as_str().unwrap().to_owned(),
                o["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let get = |p: &str| status.iter().find(|(q, _)| q == p).map(|(_, s)| s.as_str());
    assert_eq!(get("2025-Q1"), Some("filed"));
    assert_eq!(get("2025-Q2"), Some("filed_late"));
    // 2026-02-15: the 2025 annual return (due 2026-03-31) was filed by the demo on
    // 2026-03-20, a date still to come for this clock, but it is on file: filed.
    assert_eq!(get("2025"), Some("filed"));
    assert_eq!(get("2026-Q1"), Some("not_yet_due"));
    // Another payor's obligations: as if it did not exist.
    let other = format!("/v1/municipalities/montello/payors/{CAMPGROUND}/obligations");
    let res = app.call(Method::GET, &other).bearer(&op).send().await;
    assert_problem(res, 404, "not-found", None).await;
    // The clerk sees the campground's missing Q4 (due 2026-01-31).
    let clerk = app.token(CLERK).await;
    let res = app
        .call(
            Method::GET,
            &format!("{other}?from=2026-01-01&to=2026-01-31"),
        )
        .bearer(&clerk)
        .send()
        .await;
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["items"][0]["period"], "2025-Q4");
    assert_eq!(body["items"][0]["status"], "missing");
}

#[actix_web::test]
async fn the_csv_pages_with_a_link_that_keeps_the_filters_and_payors_shown_are_logged() {
    let app = spawn_demo_app_at("2026-12-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let first = app
        .call(
            Method::GET,
            &format!("{PERIOD_VIEW}?period=2025-Q3&status=filed&limit=1"),
        )
        .bearer(&clerk)
        .header("accept", "text/csv")
        .send()
        .await;
    assert_eq!(first.status(), 200);
    let link = first.headers()["link"].to_str().unwrap().to_owned();
    let next = link
        .trim_start_matches('<')
        .split('>')
        .next()
        .unwrap()
        .to_owned();
    assert!(
        next.contains("period=2025-Q3")
            && next.contains("status=filed")
            && next.contains("limit=1"),
        "{link}"
    );
    let second = app
        .call(Method::GET, &format!("{PERIOD_VIEW}{next}"))
        .bearer(&clerk)
        .header("accept", "text/csv")
        .send()
        .await;
    assert_eq!(second.status(), 200, "the next page answers");
    let rows = second.text().await.unwrap();
    assert_eq!(rows.lines().count(), 2, "{rows}");
    // Both payors shown (names are confidential) are in the access log.
    let log: Value = app
        .call(
            Method::GET,
            "/v1/municipalities/montello/access-log?limit=200",
        )
        .bearer(&clerk)
        .send()
        .await
        .json()
        .await
        .unwrap();
    let payors: Vec<&str> = log["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["record_type"] == "payor")
        .map(|e| e["record_id"].as_str().unwrap())
        .collect();
    assert!(
        payors.contains(&MOTEL) && payors.contains(&CAMPGROUND),
        "{payors:?}"
    );
}

/// Each status filter lists exactly the payors the unfiltered view gives that
/// status, in the same order: the missing, not-yet-due and extended lists read
/// only the payors with no return for the period, and must lose no one.
#[actix_web::test]
async fn every_status_filter_agrees_with_the_whole_view() {
    let app = spawn_demo_app_at("2026-12-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let list = |query: String| {
        let (app, clerk) = (&app, &clerk);
        async move {
            let res = app
                .call(Method::GET, &format!("{PERIOD_VIEW}?{query}"))
                .bearer(clerk)
                .send()
                .await;
            assert_eq!(res.status(), 200, "{query}");
            let body: Value = res.json().await.unwrap();
            body["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| {
                    (
                        i["payor_id"].as_str().unwrap().to_owned(),
                        i["obligation"]["status"].as_str().unwrap().to_owned(),
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    let mut seen = 0;
    for period in ["2025-Q2", "2025-Q4", "2026-Q3", "2026-Q4"] {
        let whole = list(format!("period={period}")).await;
        for status in ["filed", "filed_late", "missing", "not_yet_due", "extended"] {
            let expected: Vec<_> = whole.iter().filter(|(_, s)| s == status).cloned().collect();
            seen += expected.len();
            assert_eq!(
                list(format!("period={period}&status={status}")).await,
                expected,
                "{period} {status}"
            );
        }
    }
    assert!(
        seen >= 8,
        "the demo gives these periods payors to list ({seen})"
    );
}

/// The period view reads each payor's first opening with the payor (one
/// query): a payor entered in the registry today whose earliest establishment
/// opened on 2025-05-01 owes 2025-Q2 onwards (missing there), not 2025-Q1;
/// its later establishment does not move that date.
#[actix_web::test]
async fn the_period_view_dates_a_payor_from_its_first_establishment() {
    let app = spawn_demo_app_at("2026-12-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = crate::remittances::new_payor(&app, &clerk, "Opened In May LLC").await;
    for (name, opened_on) in [("Later Cabin", "2025-08-01"), ("May Cabin", "2025-05-01")] {
        let res = app
            .call(
                Method::POST,
                &format!("/v1/municipalities/montello/payors/{payor}/establishments"),
            )
            .bearer(&clerk)
            .json(serde_json::json!({"name": name, "address": "W1 County Road C", "kind": "cabin", "units": 2, "opened_on": opened_on}))
            .send()
            .await;
        assert_eq!(res.status(), 201, "{name}");
    }
    // The payor's status in the whole view and in the missing list.
    let status_in = |period: &'static str| {
        let (app, clerk, payor) = (&app, &clerk, payor.clone());
        async move {
            let mut seen = Vec::new();
            for query in [
                format!("period={period}"),
                format!("period={period}&status=missing"),
            ] {
                let res = app
                    .call(Method::GET, &format!("{PERIOD_VIEW}?{query}&limit=100"))
                    .bearer(clerk)
                    .send()
                    .await;
                assert_eq!(res.status(), 200, "{query}");
                let body: Value = res.json().await.unwrap();
                seen.push(
                    body["items"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|i| i["payor_id"] == payor.as_str())
                        .map(|i| i["obligation"]["status"].as_str().unwrap().to_owned()),
                );
            }
            (seen[0].clone(), seen[1].clone())
        }
    };
    let missing = (Some("missing".to_owned()), Some("missing".to_owned()));
    assert_eq!(
        status_in("2025-Q1").await,
        (None, None),
        "opened after 2025-Q1"
    );
    assert_eq!(status_in("2025-Q2").await, missing);
    assert_eq!(status_in("2025-Q3").await, missing);
}

//! Delinquencies by age, the special-assessment roll and who may see them,
//! on both backends.
//!
//! Hand computation (Montello: 4.5 %; interest 1 % a month from the due
//! date to the first of the month after; late filing fee 25.00). A new
//! payor, its paper returns entered by the clerk on 2026-05-01, nothing paid:
//! - 2025-Q4: gross 8,000.00 → tax 360.00, received 2026-01-31 (due that
//!   day: on time);
//! - 2026-Q1: gross 10,000.00, exempt 500.00 → tax 427.50, received
//!   2026-05-01 (due 2026-04-30): late filing fee 25.00.
//!
//! As of 2026-06-30:
//! - 2025-Q4: 2026-01-31 → 2026-06-30 is 28 + 31 + 30 + 31 + 30 = 150 days:
//!   over 90; interest (12·2026+6) − (12·2026+1) = 5 months: 360.00 × 5 % =
//!   18.00; balance 378.00;
//! - 2026-Q1: 2026-04-30 → 2026-06-30 is 31 + 30 = 61 days: 61-90; interest
//!   2 months: 427.50 × 2 % = 8.55; balance 427.50 + 25.00 + 8.55 = 461.05;
//! - owed 378.00 + 461.05 = 839.05.
//!
//! As of the past date 2026-05-15: 2025-Q4 104 days (28 + 31 + 30 + 15),
//! over 90, interest 4 months 14.40, balance 374.40; 2026-Q1 15 days, 1-30,
//! interest 1 month 4.275 → 4.28, balance 456.78.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_demo_app_at};
use crate::returns::{CLERK, OPERATOR, file, filing};

pub(super) const STAFF: &str = "staff@montello.demo";

/// A new calendar-year Montello payor registered by the clerk.
pub(super) async fn new_payor(app: &TestApp, clerk: &str, name: &str) -> String {
    let mut body = crate::payors::new_payor(name);
    body["annual_election"] = json!("calendar");
    body.as_object_mut()
        .unwrap()
        .remove("fiscal_year_end_month");
    let res = app
        .call(Method::POST, "/v1/municipalities/montello/payors")
        .bearer(clerk)
        .json(body)
        .send()
        .await;
    assert_eq!(res.status(), 201);
    res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A paper return entered by the clerk, received on `on`.
pub(super) async fn paper_return(
    app: &TestApp,
    clerk: &str,
    payor: &str,
    period: &str,
    gross: &str,
    exempt: &str,
    on: &str,
) {
    let mut body = filing(period, gross, exempt);
    body["received_on"] = json!(on);
    let res = file(app, clerk, payor, body).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
}

/// The module doc's payor with its two returns, the app at 2026-05-01.
pub(super) async fn late_payor(app: &TestApp, clerk: &str) -> String {
    let payor = new_payor(app, clerk, "Lakeview Cabins LLC").await;
    paper_return(
        app,
        clerk,
        &payor,
        "2025-Q4",
        "8000.00",
        "0.00",
        "2026-01-31",
    )
    .await;
    paper_return(
        app,
        clerk,
        &payor,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-05-01",
    )
    .await;
    payor
}

fn entry<'a>(list: &'a Value, payor: &str) -> Option<&'a Value> {
    list["payors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["payor_id"] == payor)
}

fn periods(entry: &Value) -> Vec<(String, i64, String, String, String)> {
    entry["periods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["period"].as_str().unwrap().to_owned(),
                p["days_past_due"].as_i64().unwrap(),
                p["bucket"].as_str().unwrap().to_owned(),
                p["interest_accrued"].as_str().unwrap().to_owned(),
                p["balance"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn p(
    period: &str,
    days: i64,
    bucket: &str,
    interest: &str,
    balance: &str,
) -> (String, i64, String, String, String) {
    (
        period.into(),
        days,
        bucket.into(),
        interest.into(),
        balance.into(),
    )
}

#[actix_web::test]
async fn unpaid_amounts_past_due_by_age_as_of_today_and_a_past_date_in_json_and_csv() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = late_payor(&app, &clerk).await;
    app.set_now("2026-06-30T15:00:00Z");

    let res = app
        .get_as(
            &clerk,
            "/v1/municipalities/montello/delinquencies?as_of=2026-06-30",
        )
        .await;
    assert_eq!(res.status(), 200);
    let list: Value = res.json().await.unwrap();
    assert_eq!(list["as_of"], "2026-06-30");
    let mine = entry(&list, &payor).expect("the payor is delinquent");
    assert_eq!(mine["legal_name"], "Lakeview Cabins LLC");
    assert_eq!(
        periods(mine),
        vec![
            p("2025-Q4", 150, "over-90", "18.00", "378.00"),
            p("2026-Q1", 61, "61-90", "8.55", "461.05"),
        ]
    );
    assert_eq!(
        mine["periods"][1]["components"],
        json!([
            {"component": "tax", "amount": "427.50"},
            {"component": "late_filing_fee", "amount": "25.00"}
        ])
    );
    assert_eq!(
        (&mine["past_due"], &mine["credit"], &mine["owed"]),
        (&json!("839.05"), &json!("0.00"), &json!("839.05"))
    );
    let buckets = list["buckets"].as_array().unwrap();
    let names: Vec<&str> = buckets
        .iter()
        .map(|b| b["bucket"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["1-30", "31-60", "61-90", "over-90"]);

    // The same as of a past date: fewer days, less interest.
    let past: Value = app
        .get_as(
            &clerk,
            "/v1/municipalities/montello/delinquencies?as_of=2026-05-15",
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        periods(entry(&past, &payor).unwrap()),
        vec![
            p("2025-Q4", 104, "over-90", "14.40", "374.40"),
            p("2026-Q1", 15, "1-30", "4.28", "456.78"),
        ]
    );

    // CSV: one row per payor and period.
    let res = app
        .call(
            Method::GET,
            "/v1/municipalities/montello/delinquencies?as_of=2026-06-30",
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
    assert!(csv.starts_with(
        "payor_id,legal_name,period,due_date,days_past_due,bucket,tax,interest,late_filing_fee,late_payment_forfeiture,estimate_penalty,fraud_penalty,interest_accrued,balance\r\n"
    ));
    assert!(
        csv.contains(&format!(
            "{payor},Lakeview Cabins LLC,2026-Q1,2026-04-30,61,61-90,427.50,0.00,25.00,0.00,0.00,0.00,8.55,461.05\r\n"
        )),
        "{csv}"
    );

    // Not after today; 422 naming the field.
    let res = app
        .get_as(
            &clerk,
            "/v1/municipalities/montello/delinquencies?as_of=2026-07-01",
        )
        .await;
    let body = crate::helpers::assert_problem(res, 422, "validation-failed").await;
    assert_eq!(
        crate::helpers::check::rule_of(&body, "as_of").as_deref(),
        Some("in_the_future")
    );
}

#[actix_web::test]
async fn montello_s_special_assessment_roll_and_hayward_has_none() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = late_payor(&app, &clerk).await;
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/montello/payors/{payor}/establishments"),
        )
        .bearer(&clerk)
        .json(json!({"name": "Lakeview Cabins", "address": "W123 County Road C, Montello", "kind": "cabin", "units": 8, "opened_on": "2024-05-01"}))
        .send()
        .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    app.set_now("2026-06-30T15:00:00Z");

    let res = app
        .get_as(
            &clerk,
            "/v1/municipalities/montello/special-assessments?as_of=2026-06-30",
        )
        .await;
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let csv = res.text().await.unwrap();
    assert!(csv.starts_with(
        "payor_id,legal_name,mailing_address,establishment_addresses,period,due_date,unpaid_tax,interest_accrued\r\n"
    ));
    // Unpaid tax only (the fee is not tax); addresses with commas are quoted.
    for row in [
        format!(
            "{payor},Lakeview Cabins LLC,\"PO Box 7\nMontello, WI 53949\",\"W123 County Road C, Montello\",2025-Q4,2026-01-31,360.00,18.00\r\n"
        ),
        format!(
            "{payor},Lakeview Cabins LLC,\"PO Box 7\nMontello, WI 53949\",\"W123 County Road C, Montello\",2026-Q1,2026-04-30,427.50,8.55\r\n"
        ),
    ] {
        assert!(csv.contains(&row), "{row:?} in {csv}");
    }
    let roll: Value = app
        .call(
            Method::GET,
            "/v1/municipalities/montello/special-assessments?as_of=2026-06-30",
        )
        .bearer(&clerk)
        .header("accept", "application/json")
        .send()
        .await
        .json()
        .await
        .unwrap();
    assert!(
        roll["citation"]
            .as_str()
            .unwrap()
            .contains("assessment on any land owned by the payor"),
        "{roll}"
    );

    let hayward = app.token("clerk@hayward.demo").await;
    let res = app
        .get_as(&hayward, "/v1/municipalities/hayward/special-assessments")
        .await;
    let body = crate::helpers::assert_problem(res, 422, "validation-failed").await;
    assert_eq!(
        crate::helpers::check::rule_of(&body, "municipality").as_deref(),
        Some("no_special_assessment")
    );
    assert!(body.to_string().contains("Hayward"), "{body}");
}

#[actix_web::test]
async fn only_the_clerk_and_staff_see_delinquencies() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    for (who, status) in [
        (CLERK, 200),
        (STAFF, 200),
        (OPERATOR, 403),
        ("commission@marquette-county.demo", 403),
        ("clerk@hayward.demo", 404),
    ] {
        let token = app.token(who).await;
        for path in ["delinquencies", "special-assessments"] {
            let res = app
                .get_as(&token, &format!("/v1/municipalities/montello/{path}"))
                .await;
            assert_eq!(res.status(), status, "{who} {path}");
        }
    }
    let res = app.get("/v1/municipalities/montello/delinquencies").await;
    assert_eq!(res.status(), 401);
}

//! What a report may not say: lodging facilities, large items in sums,
//! `other` without an explanation, periods over a year, hostile text.

use serde_json::json;

use super::{REPORTS, TOURISM, app, file, post, report_2026};
use crate::helpers::check::{assert_problem, rule_of};

#[actix_web::test]
async fn a_lodging_facility_is_refused_citing_the_ordinance() {
    let app = app().await;
    let mut body = report_2026();
    body["items"][1]["constructs_or_develops_lodging_facility"] = json!(true);
    let res = post(&app, TOURISM, REPORTS, body).await;
    let p = assert_problem(res, 409, "conflict", None).await;
    let field = "items[1].constructs_or_develops_lodging_facility";
    assert_eq!(
        rule_of(&p, field).as_deref(),
        Some("no_lodging_facility"),
        "{p}"
    );
    let message = p["errors"][0]["message"].as_str().unwrap();
    assert!(message.contains("distribution ¶B"), "{message}");
    assert!(message.contains("66.0615(1)(fm)"), "{message}");
    // The category that exists only to be refused.
    let mut body = report_2026();
    body["summed"][0]["category"] = json!("lodging_facility_construction");
    let res = post(&app, TOURISM, REPORTS, body).await;
    let p = assert_problem(res, 409, "conflict", None).await;
    assert_eq!(
        rule_of(&p, "summed[0].category").as_deref(),
        Some("no_lodging_facility")
    );
    // The statement is required on every line.
    let mut body = report_2026();
    body["items"][0]
        .as_object_mut()
        .unwrap()
        .remove("constructs_or_develops_lodging_facility");
    let res = post(&app, TOURISM, REPORTS, body).await;
    assert_problem(
        res,
        422,
        "validation-failed",
        Some("items[0].constructs_or_develops_lodging_facility"),
    )
    .await;
    // Nothing was filed.
    let list: serde_json::Value = super::get(&app, TOURISM, REPORTS)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 0);
}

#[actix_web::test]
async fn large_items_cannot_hide_in_sums_and_other_needs_an_explanation() {
    let app = app().await;
    let mut body = report_2026();
    body["summed"][0] = json!({"category": "marketing_projects", "amount": "1000.00", "count": 1,
        "description": "One big ad", "constructs_or_develops_lodging_facility": false});
    body["summed"][1]["amount"] = json!("2000.00"); // count 2: 2000.00 is not under 2 × 1000.00
    body["items"][2]
        .as_object_mut()
        .unwrap()
        .remove("explanation");
    body["period_end"] = json!("2027-01-01");
    body["items"][0]["amount"] = json!("0.00");
    let res = post(&app, TOURISM, REPORTS, body).await;
    let p = assert_problem(res, 422, "validation-failed", None).await;
    for (field, rule) in [
        ("summed[0].amount", "summed_items_under_1000"),
        ("summed[1].amount", "summed_items_under_1000"),
        ("items[2].explanation", "explanation_required_for_other"),
        ("period_end", "at_most_one_year"),
        ("items[0].amount", "positive"),
    ] {
        assert_eq!(rule_of(&p, field).as_deref(), Some(rule), "{field}: {p}");
    }
    // 999.99 in one, 1999.99 in two: accepted.
    let mut body = report_2026();
    body["summed"][0]["amount"] = json!("999.99");
    body["summed"][0]["count"] = json!(1);
    body["summed"][1]["amount"] = json!("1999.99");
    let r = file(&app, body).await;
    // 4500.00 + 1000.00 + 12345.67 + 999.99 + 1999.99 = 20845.65
    assert_eq!(r["totals"]["spent"], "20845.65");
    // One report per period.
    let res = post(
        &app,
        TOURISM,
        REPORTS,
        json!({"period_start": "2026-06-01", "period_end": "2026-06-30",
        "received_declared": "0.00"}),
    )
    .await;
    let p = assert_problem(res, 409, "conflict", None).await;
    assert_eq!(
        rule_of(&p, "period_start").as_deref(),
        Some("one_report_per_period")
    );
}

#[actix_web::test]
async fn hostile_text_is_refused() {
    let app = app().await;
    for (path, value, rule) in [
        ("payee", "Printer\u{0}Co", "no_control_characters"),
        ("description", "ring \u{7} bell", "no_control_characters"),
        ("payee", "\u{200B}\u{2060}", "non_empty"),
    ] {
        let mut body = report_2026();
        body["items"][0][path] = json!(value);
        let res = post(&app, TOURISM, REPORTS, body).await;
        let p = assert_problem(res, 422, "validation-failed", None).await;
        let field = format!("items[0].{path}");
        assert_eq!(rule_of(&p, &field).as_deref(), Some(rule), "{p}");
    }
    let mut body = report_2026();
    body["items"][0]["impact"][0]["source"] = json!("x\u{1b}[31m");
    let res = post(&app, TOURISM, REPORTS, body).await;
    let p = assert_problem(res, 422, "validation-failed", None).await;
    assert_eq!(
        rule_of(&p, "items[0].impact[0].source").as_deref(),
        Some("no_control_characters")
    );
    let r = file(&app, report_2026()).await;
    let review = format!("{REPORTS}/{}/review", r["id"].as_str().unwrap());
    let res = post(
        &app,
        super::COMMISSION,
        &review,
        json!({"act": "comment", "text": "nul\u{0}"}),
    )
    .await;
    let p = assert_problem(res, 422, "validation-failed", None).await;
    assert_eq!(
        rule_of(&p, "text").as_deref(),
        Some("no_control_characters")
    );
}

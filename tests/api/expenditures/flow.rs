//! A report's totals, its versions and the commission's review.

use reqwest::Method;
use serde_json::json;

use super::{COMMISSION, REPORTS, TOURISM, app, file, get, post, report_2026};

#[actix_web::test]
async fn a_report_lists_large_items_sums_small_ones_and_shows_the_deficit() {
    let app = app().await;
    let r = file(&app, report_2026()).await;
    assert_eq!(r["version"], 1);
    assert_eq!(r["status"], "submitted");
    // No member has transferred anything in 2026: received 0.00 from the
    // transfers, beside the 20000.00 declared (0.00 − 20000.00 = −20000.00).
    assert_eq!(r["totals"]["received"], "0.00");
    assert_eq!(r["totals"]["declared"], "20000.00");
    assert_eq!(r["totals"]["declared_difference"], "-20000.00");
    assert_eq!(r["totals"]["spent"], "21296.14");
    assert_eq!(r["totals"]["carried_over"], "-21296.14");
    assert_eq!(r["totals"]["deficit"], true);
    let flags: Vec<bool> = r["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["listed_individually_for_sl304"].as_bool().unwrap())
        .collect();
    assert_eq!(
        flags,
        [true, true, true],
        "4500.00, 1000.00 (the boundary), 12345.67"
    );
    assert_eq!(r["items"][2]["impact"][0]["measure"], "room_nights");
    assert_eq!(r["items"][2]["impact"][0]["value"], 410);
    // Marketing: 4500.00 + 2999.97 = 7499.97 over 1 + 3 expenditures.
    let by = r["by_category"].as_array().unwrap();
    let marketing = by
        .iter()
        .find(|c| c["category"] == "marketing_projects")
        .unwrap();
    assert_eq!(marketing["amount"], "7499.97");
    assert_eq!(marketing["count"], 4);
    assert_eq!(r["summed"][1]["amount"], "450.50");
    // The commission reads it; the list shows it.
    let id = r["id"].as_str().unwrap();
    let shown = get(&app, COMMISSION, &format!("{REPORTS}/{id}")).await;
    assert_eq!(shown.status(), 200);
    assert_eq!(shown.headers()["etag"], "\"1\"");
    let list: serde_json::Value = get(&app, COMMISSION, &format!("{REPORTS}?year=2026"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    let none: serde_json::Value = get(&app, COMMISSION, &format!("{REPORTS}?year=2025"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(none["items"].as_array().unwrap().len(), 0);
    // A new declaration (25000.00) changes what is declared, not what was
    // received: still 0.00 − 21296.14; the difference 0.00 − 25000.00.
    let mut body = report_2026();
    body["received_declared"] = json!("25000.00");
    let token = app.token(TOURISM).await;
    let amended = app
        .call(Method::POST, &format!("{REPORTS}/{id}/versions"))
        .bearer(&token)
        .header("if-match", "\"1\"")
        .json(body)
        .send()
        .await;
    assert_eq!(amended.status(), 201);
    let amended: serde_json::Value = amended.json().await.unwrap();
    assert_eq!(amended["totals"]["carried_over"], "-21296.14");
    assert_eq!(amended["totals"]["declared"], "25000.00");
    assert_eq!(amended["totals"]["declared_difference"], "-25000.00");
    assert_eq!(amended["totals"]["deficit"], true);
}

#[actix_web::test]
async fn the_review_returns_a_report_a_new_version_is_accepted_and_then_final() {
    let app = app().await;
    let r = file(&app, report_2026()).await;
    let id = r["id"].as_str().unwrap().to_owned();
    let review = format!("{REPORTS}/{id}/review");
    let res = post(
        &app,
        COMMISSION,
        &review,
        json!({"act": "comment", "item": 3, "text": "Large display"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let question: serde_json::Value = post(
        &app,
        COMMISSION,
        &review,
        json!({"act": "question", "item": 3, "text": "How were room nights counted?"}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(question["act"], "question");
    let qid = question["id"].as_str().unwrap();
    let answer_path = format!("{review}/{qid}/answer");
    let res = post(
        &app,
        TOURISM,
        &answer_path,
        json!({"text": "A survey of 12 lodging establishments"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let again = post(&app, TOURISM, &answer_path, json!({"text": "Again"})).await;
    crate::helpers::check::assert_problem(again, 409, "conflict", Some("question")).await;
    // No item 9; a return needs its reason.
    let res = post(
        &app,
        COMMISSION,
        &review,
        json!({"act": "comment", "item": 9, "text": "?"}),
    )
    .await;
    crate::helpers::check::assert_problem(res, 422, "validation-failed", Some("item")).await;
    let res = post(&app, COMMISSION, &review, json!({"act": "return"})).await;
    crate::helpers::check::assert_problem(res, 422, "validation-failed", Some("text")).await;
    let res = post(
        &app,
        COMMISSION,
        &review,
        json!({"act": "return", "text": "Attach the fireworks invoice"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let returned: serde_json::Value = get(&app, COMMISSION, &format!("{REPORTS}/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(returned["status"], "returned");
    let res = post(&app, COMMISSION, &review, json!({"act": "accept"})).await;
    crate::helpers::check::assert_problem(res, 409, "conflict", Some("act")).await;
    // The correction: a new version; a stale or missing If-Match is refused.
    let token = app.token(TOURISM).await;
    let versions = format!("{REPORTS}/{id}/versions");
    let mut body = report_2026();
    body["items"][2]["amount"] = json!("12000.00");
    let missing = app
        .call(Method::POST, &versions)
        .bearer(&token)
        .json(body.clone())
        .send()
        .await;
    assert_eq!(missing.status(), 428);
    let stale = app
        .call(Method::POST, &versions)
        .bearer(&token)
        .header("if-match", "\"7\"")
        .json(body.clone())
        .send()
        .await;
    assert_eq!(stale.status(), 412);
    let v2 = app
        .call(Method::POST, &versions)
        .bearer(&token)
        .header("if-match", "\"1\"")
        .json(body.clone())
        .send()
        .await;
    assert_eq!(v2.status(), 201);
    assert_eq!(v2.headers()["etag"], "\"2\"");
    let v2: serde_json::Value = v2.json().await.unwrap();
    assert_eq!(v2["version"], 2);
    assert_eq!(v2["status"], "submitted");
    // 21296.14 − 345.67 = 20950.47 spent.
    assert_eq!(v2["totals"]["spent"], "20950.47");
    assert_eq!(v2["versions"][0]["status"], "returned");
    let res = post(
        &app,
        COMMISSION,
        &review,
        json!({"act": "accept", "text": "Thank you"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let accepted: serde_json::Value = get(&app, TOURISM, &format!("{REPORTS}/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(accepted["status"], "accepted");
    let acts: Vec<&str> = accepted["review"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["act"].as_str().unwrap())
        .collect();
    assert_eq!(acts, ["comment", "question", "answer", "return", "accept"]);
    assert!(
        accepted["review"][4]["by"]
            .as_str()
            .unwrap()
            .starts_with("user:")
    );
    assert_eq!(accepted["review"][3]["version"], 1);
    assert_eq!(accepted["review"][4]["version"], 2);
    // Accepted is final; version 1 stays readable.
    let after = app
        .call(Method::POST, &versions)
        .bearer(&token)
        .header("if-match", "\"2\"")
        .json(body)
        .send()
        .await;
    let problem =
        crate::helpers::check::assert_problem(after, 409, "conflict", Some("version")).await;
    assert_eq!(
        crate::helpers::check::rule_of(&problem, "version").as_deref(),
        Some("accepted_reports_are_final")
    );
    let v1: serde_json::Value = get(&app, COMMISSION, &format!("{REPORTS}/{id}?version=1"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(v1["version"], 1);
    assert_eq!(v1["items"][2]["amount"], "12345.67");
}

//! Filing a return: the computed figures, the local filing date, the
//! refusals, and who may file for whom.

use reqwest::Method;
use serde_json::{Value, json};

use super::{CAMPGROUND, CLERK, MOTEL, OPERATOR, file, filing, returns_of};
use crate::helpers::{check::assert_problem, spawn_demo_app_at};

#[actix_web::test]
async fn an_operator_files_on_time_at_half_past_eleven_at_night_on_the_due_date() {
    // 2026-05-01T04:30Z is 2026-04-30 23:30 in Chicago (CDT, UTC-5): the due date.
    let app = spawn_demo_app_at("2026-05-01T04:30:00Z").await;
    let token = app.token(OPERATOR).await;
    let res = file(&app, &token, MOTEL, filing("2026-Q1", "10000.00", "500.00")).await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        location,
        format!("{}/{}", returns_of(MOTEL), body["id"].as_str().unwrap())
    );
    assert_eq!(body["period"], "2026-Q1");
    assert_eq!(body["kind"], "quarterly");
    assert_eq!(body["version"], 1);
    assert_eq!(body["status"], "filed", "{body}");
    assert_eq!(body["filed_on"], "2026-04-30");
    assert_eq!(body["due_date"], "2026-04-30");
    assert_eq!(body["entered_as"], "operator");
    assert_eq!(body["taxable_receipts"], "9500.00");
    assert_eq!(body["tax"], "427.50");
    assert_eq!(body["late_filing_fee"], "0.00");
    assert_eq!(body["amount_due"], "427.50");
    assert_eq!(body["policy_version"], "2020-01-01");
    let codes: Vec<&str> = body["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["code"].as_str().unwrap())
        .collect();
    assert!(codes.contains(&"tax"), "{codes:?}");

    // It reads back the same, and the read is in the access log.
    let res = app.call(Method::GET, &location).bearer(&token).send().await;
    assert_eq!(res.status(), 200);
    let read: Value = res.json().await.unwrap();
    assert_eq!(read["tax"], "427.50");
    // The answer is built from the rows the filing stored, not read back:
    // it must be exactly what reading the return gives.
    assert_eq!(read, body, "the filing's answer is the return as read");
}

#[actix_web::test]
async fn a_return_filed_the_next_local_day_is_late_and_pays_the_fee_and_a_month_of_interest() {
    // 2026-05-01T15:00Z is 10:00 on 2026-05-01 in Chicago.
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let res = file(&app, &token, MOTEL, filing("2026-Q1", "10000.00", "500.00")).await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["status"], "filed_late", "{body}");
    assert_eq!(body["filed_on"], "2026-05-01");
    assert_eq!(body["tax"], "427.50");
    assert_eq!(body["late_filing_fee"], "25.00");
    assert_eq!(body["interest"], "4.28");
    assert_eq!(body["amount_due"], "456.78");
}

#[actix_web::test]
async fn a_zero_return_is_a_return() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let body = json!({
        "period": "2026-Q1", "gross_receipts": "0.00", "exemptions": [],
        "signer": {"name": "Dana Pine", "title": "Owner"}, "attested": true
    });
    let res = file(&app, &token, MOTEL, body).await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["tax"], "0.00");
    assert_eq!(body["amount_due"], "0.00");
    assert_eq!(body["status"], "filed");
}

#[actix_web::test]
async fn filing_the_same_period_twice_points_at_the_amendments() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let res = file(&app, &token, MOTEL, filing("2026-Q1", "100.00", "0.00")).await;
    assert_eq!(res.status(), 201);
    let first: Value = res.json().await.unwrap();
    let res = file(&app, &token, MOTEL, filing("2026-Q1", "200.00", "0.00")).await;
    let problem = assert_problem(res, 409, "conflict", Some("period")).await;
    let amend = format!(
        "{}/{}/amendments",
        returns_of(MOTEL),
        first["id"].as_str().unwrap()
    );
    assert!(
        problem["detail"].as_str().unwrap().contains(&amend),
        "{problem}"
    );
}

#[actix_web::test]
async fn a_filing_is_refused_with_every_fault_named() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let body = json!({
        "period": "2026-Q1", "gross_receipts": "100.00",
        "exemptions": [{"code": "church_camp", "amount": "10.00"}],
        "establishments": [{"establishment_id": "nope", "gross_receipts": "90.00"}],
        "signer": {"name": " ", "title": "Owner"}, "attested": false
    });
    let res = file(&app, &token, MOTEL, body).await;
    let problem = assert_problem(res, 422, "validation-failed", Some("attested")).await;
    for field in ["exemptions[0].code", "signer.name"] {
        assert!(
            crate::helpers::check::rule_of(&problem, field).is_some(),
            "{field}: {problem}"
        );
    }
    // Nothing was stored: the period can still be filed.
    let res = file(&app, &token, MOTEL, filing("2026-Q1", "100.00", "0.00")).await;
    assert_eq!(res.status(), 201);
}

#[actix_web::test]
async fn a_period_not_yet_ended_cannot_be_filed() {
    let app = spawn_demo_app_at("2026-03-15T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let res = file(&app, &token, MOTEL, filing("2026-Q1", "100.00", "0.00")).await;
    assert_problem(res, 422, "validation-failed", Some("period")).await;
}

#[actix_web::test]
async fn staff_enter_a_paper_return_with_its_postmark_date() {
    // Entered on 2026-05-06, postmarked on the due date: on time.
    let app = spawn_demo_app_at("2026-05-06T15:00:00Z").await;
    let token = app.token(CLERK).await;
    let mut body = filing("2026-Q1", "10000.00", "500.00");
    body["received_on"] = json!("2026-04-30");
    let res = file(&app, &token, CAMPGROUND, body).await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["entered_as"], "staff");
    assert_eq!(body["filed_on"], "2026-04-30");
    assert_eq!(body["received_on"], "2026-04-30");
    assert_eq!(body["status"], "filed");
    assert_eq!(body["late_filing_fee"], "0.00");

    // An operator has no postmark to give: it files now.
    let op = app.token(OPERATOR).await;
    let mut body = filing("2026-Q1", "10.00", "0.00");
    body["received_on"] = json!("2026-04-30");
    let res = file(&app, &op, MOTEL, body).await;
    assert_problem(res, 422, "validation-failed", Some("received_on")).await;
}

#[actix_web::test]
async fn only_the_payor_and_its_municipality_see_or_file_its_returns() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let op = app.token(OPERATOR).await;
    // Not its payor: as if it did not exist.
    let res = file(&app, &op, CAMPGROUND, filing("2026-Q1", "1.00", "0.00")).await;
    assert_problem(res, 404, "not-found", None).await;
    let res = file(&app, &op, MOTEL, filing("2026-Q1", "1.00", "0.00")).await;
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("{}/{id}", returns_of(MOTEL));
    for who in [
        "commission@marquette-county.demo",
        "tourism@marquette-county.demo",
        "admin@marquette-county.demo",
        "clerk@hayward.demo",
        "operator@hayward.demo",
        "marketplace@montello.demo",
    ] {
        let t = app.token(who).await;
        let res = app.call(Method::GET, &path).bearer(&t).send().await;
        assert_eq!(res.status(), 404, "{who} must not see a return");
        let res = file(&app, &t, MOTEL, filing("2026-Q2", "1.00", "0.00")).await;
        assert_eq!(res.status(), 404, "{who} must not file for the motel");
    }
    for who in [CLERK, "staff@montello.demo", OPERATOR] {
        let t = app.token(who).await;
        let res = app.call(Method::GET, &path).bearer(&t).send().await;
        assert_eq!(res.status(), 200, "{who} sees the return");
    }
    let res = app.call(Method::GET, &path).send().await;
    assert_eq!(res.status(), 401);
}

#[actix_web::test]
async fn every_read_and_write_of_a_return_is_in_the_access_log() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let op = app.token(OPERATOR).await;
    let res = file(&app, &op, MOTEL, filing("2026-Q1", "100.00", "0.00")).await;
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("{}/{id}", returns_of(MOTEL));
    assert_eq!(
        app.call(Method::GET, &path)
            .bearer(&op)
            .send()
            .await
            .status(),
        200
    );
    let clerk = app.token(CLERK).await;
    let res = app
        .call(Method::GET, &format!("{path}/versions"))
        .bearer(&clerk)
        .send()
        .await;
    assert_eq!(res.status(), 200);
    let res = app
        .call(
            Method::GET,
            "/v1/municipalities/montello/access-log?limit=200",
        )
        .bearer(&clerk)
        .send()
        .await;
    let log: Value = res.json().await.unwrap();
    let entries: Vec<(String, String, String, String)> = log["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap().to_owned();
            (s("record_type"), s("record_id"), s("action"), s("basis"))
        })
        .collect();
    let has = |t: &str, r: &str, a: &str, b: &str| {
        entries
            .iter()
            .any(|e| e.0 == t && e.1 == r && e.2 == a && e.3 == b)
    };
    assert!(has("return", &id, "create", "operator"), "{entries:?}");
    assert!(has("return", &id, "read", "operator"), "{entries:?}");
    assert!(
        has(
            "return_version",
            &format!("{id}/versions/1"),
            "read",
            "clerk_treasurer"
        ),
        "{entries:?}"
    );
}

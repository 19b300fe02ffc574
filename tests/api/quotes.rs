//! The ordinance engine over HTTP: quotes, due calendars and policies.

use serde_json::{Value, json};

use crate::helpers::{assert_problem, spawn_demo_app};

async fn quote(app: &crate::helpers::TestApp, municipality: &str, body: Value) -> Value {
    let res = app
        .post_json(&format!("/v1/municipalities/{municipality}/quotes"), &body)
        .await;
    assert_eq!(res.status(), 200, "quote {body}");
    res.json().await.unwrap()
}

fn line<'a>(q: &'a Value, code: &str) -> &'a Value {
    q["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["code"] == code)
        .unwrap_or_else(|| panic!("no line {code} in {q}"))
}

#[actix_web::test]
async fn montello_first_quarter_worked_example() {
    let app = spawn_demo_app().await;
    let q = quote(
        &app,
        "montello",
        json!({"period": "2026-Q1", "gross_receipts": "12345.67"}),
    )
    .await;
    assert_eq!(q["municipality"], "montello");
    assert_eq!(q["tax"], "555.56");
    assert_eq!(q["due_date"], "2026-04-30");
    assert_eq!(q["interest"], "0.00");
    assert_eq!(q["late_filing_fee"], "0.00");
    assert_eq!(q["late_payment_forfeiture"], "0.00");
    assert_eq!(q["total_due"], "555.56");
    assert_eq!(q["distribution"]["commission"], "416.67");
    assert_eq!(q["distribution"]["municipality"], "138.89");
    assert_eq!(q["policy_version"], "2020-01-01");
    for l in q["lines"].as_array().unwrap() {
        assert!(
            l["citation"]
                .as_str()
                .is_some_and(|c| c.contains("Montello")),
            "every amount cites the ordinance: {l}"
        );
        assert!(l["explanation"].as_str().is_some_and(|e| !e.is_empty()));
    }
    assert!(
        line(&q, "tax")["citation"]
            .as_str()
            .unwrap()
            .contains("4.5%")
    );
}

#[actix_web::test]
async fn hayward_due_date_moves_off_a_saturday() {
    let app = spawn_demo_app().await;
    let q = quote(
        &app,
        "hayward",
        json!({"period": "2025-Q4", "gross_receipts": "1000.00"}),
    )
    .await;
    assert_eq!(q["due_date"], "2026-01-30");
    assert_eq!(q["tax"], "40.00");
    assert_eq!(q["distribution"]["commission"], "0.00");
    assert_eq!(q["distribution"]["municipality"], "40.00");
}

#[actix_web::test]
async fn montello_late_return_owes_interest_fee_and_forfeiture() {
    let app = spawn_demo_app().await;
    let q = quote(
        &app,
        "montello",
        json!({
            "period": "2026-Q1", "gross_receipts": "10000.00", "exempt_receipts": "0.00",
            "filed_on": "2026-06-15", "paid_on": "2026-06-15", "previous_year_tax": "2000.00"
        }),
    )
    .await;
    // 4.5 % of 10,000 = 450.00; due 2026-04-30, paid in June: 2 months at 1 %.
    assert_eq!(q["tax"], "450.00");
    assert_eq!(q["interest"], "9.00");
    assert_eq!(q["late_filing_fee"], "25.00");
    // Paid more than 30 days late: lesser of 25 % of 2,000 and 1,000.
    assert_eq!(q["late_payment_forfeiture"], "500.00");
    assert_eq!(q["total_due"], "984.00");
    assert!(
        line(&q, "interest")["citation"]
            .as_str()
            .unwrap()
            .contains("interest")
    );
}

#[actix_web::test]
async fn a_montello_extension_runs_to_the_end_of_the_next_month() {
    let app = spawn_demo_app().await;
    let q = quote(
        &app,
        "montello",
        json!({"period": "2026-Q1", "gross_receipts": "1000.00", "extended_to": "2026-05-31", "filed_on": "2026-05-31", "paid_on": "2026-05-31"}),
    )
    .await;
    assert_eq!(q["filing_due_date"], "2026-05-31");
    assert_eq!(q["late_filing_fee"], "0.00", "filed within the extension");
    assert_eq!(
        q["interest"], "0.45",
        "an extension never moves interest (1 month on 45.00)"
    );
}

#[actix_web::test]
async fn invalid_quotes_are_422_naming_field_and_rule() {
    let app = spawn_demo_app().await;
    let cases = [
        (
            json!({"period": "2026-Q1", "gross_receipts": "-1.00"}),
            "gross_receipts",
        ),
        (
            json!({"period": "2026-Q1", "gross_receipts": "10.00", "exempt_receipts": "10.01"}),
            "exempt_receipts",
        ),
        (
            json!({"period": "2026-Q5", "gross_receipts": "10.00"}),
            "period",
        ),
        (
            json!({"period": "2026-Q1", "gross_receipts": "10.001"}),
            "gross_receipts",
        ),
        (
            json!({"period": "2026-Q1", "gross_receipts": "10.00", "extended_to": "2026-06-15"}),
            "extended_to",
        ),
    ];
    for (body, field) in cases {
        let res = app
            .post_json("/v1/municipalities/montello/quotes", &body)
            .await;
        let problem = assert_problem(res, 422, "validation-failed").await;
        assert_eq!(problem["errors"][0]["field"], field, "{body} -> {problem}");
        assert!(
            problem["errors"][0]["rule"]
                .as_str()
                .is_some_and(|r| !r.is_empty())
        );
    }
    // Hayward grants no extensions at all.
    let res = app
        .post_json(
            "/v1/municipalities/hayward/quotes",
            &json!({"period": "2026-Q1", "gross_receipts": "10.00", "extended_to": "2026-05-10"}),
        )
        .await;
    let problem = assert_problem(res, 422, "validation-failed").await;
    assert_eq!(problem["errors"][0]["field"], "extended_to");
}

#[actix_web::test]
async fn due_calendars_list_every_return_due_that_year() {
    let app = spawn_demo_app().await;
    let cal: Value = app
        .get("/v1/municipalities/hayward/calendar?year=2026")
        .await
        .json()
        .await
        .unwrap();
    let items = cal["items"].as_array().unwrap();
    let q4 = items
        .iter()
        .find(|i| i["period"] == "2025-Q4")
        .expect("2025-Q4 is due in 2026");
    assert_eq!(q4["due_date"], "2026-01-30");
    assert!(
        items
            .iter()
            .all(|i| i["due_date"].as_str().unwrap().starts_with("2026-"))
    );
    assert!(
        items
            .iter()
            .all(|i| i["citation"].as_str().is_some_and(|c| !c.is_empty()))
    );

    let cal: Value = app
        .get("/v1/municipalities/montello/calendar?year=2026")
        .await
        .json()
        .await
        .unwrap();
    let items = cal["items"].as_array().unwrap();
    let annual = items
        .iter()
        .find(|i| i["period"] == "2025")
        .expect("annual 2025 return");
    assert_eq!(annual["due_date"], "2026-03-31");
    assert_eq!(annual["kind"], "annual");
    let q3 = items.iter().find(|i| i["period"] == "2026-Q3").unwrap();
    assert_eq!(
        q3["due_date"], "2026-10-31",
        "Montello keeps a Saturday due date"
    );

    assert_problem(
        app.get("/v1/municipalities/montello/calendar").await,
        422,
        "validation-failed",
    )
    .await;
    assert_problem(
        app.get("/v1/municipalities/montello/calendar?year=soon")
            .await,
        400,
        "invalid-parameter",
    )
    .await;
    assert_problem(
        app.get("/v1/municipalities/montello/calendar?year=1066")
            .await,
        422,
        "validation-failed",
    )
    .await;
    assert_problem(
        app.get("/v1/municipalities/nowhere/calendar?year=2026")
            .await,
        404,
        "not-found",
    )
    .await;
}

#[actix_web::test]
async fn policies_are_public_with_citations() {
    let app = spawn_demo_app().await;
    let history: Value = app
        .get("/v1/municipalities/montello/policies")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(history["items"].as_array().unwrap().len(), 1);
    let v = &history["items"][0];
    assert_eq!(v["effective_from"], "2020-01-01");
    assert_eq!(v["source"], "preset:montello");
    assert_eq!(v["policy"]["rate"]["value"], "0.045");
    assert!(
        v["policy"]["rate"]["citation"]
            .as_str()
            .unwrap()
            .contains("4.5%")
    );

    let current: Value = app
        .get("/v1/municipalities/hayward/policies/current")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(current["effective_from"], "1993-08-01");
    assert_eq!(current["policy"]["rate"]["value"], "0.04");
}

#[actix_web::test]
async fn only_the_clerk_treasurer_records_policy_versions_and_only_forward() {
    let app = spawn_demo_app().await;
    let current: Value = app
        .get("/v1/municipalities/montello/policies/current")
        .await
        .json()
        .await
        .unwrap();
    let mut future = current["policy"].clone();
    future["effective_from"] = json!("2199-01-01");
    future["rate"]["value"] = json!("0.05");
    let post = |token: String, body: Value| {
        let app = &app;
        async move {
            app.client
                .post(app.url("/v1/municipalities/montello/policies"))
                .bearer_auth(token)
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    let anonymous = app
        .post_json("/v1/municipalities/montello/policies", &future)
        .await;
    assert_problem(anonymous, 401, "unauthorized").await;
    let staff = post(app.token("staff@montello.demo").await, future.clone()).await;
    assert_problem(staff, 403, "forbidden").await;
    let hayward = post(app.token("clerk@hayward.demo").await, future.clone()).await;
    assert_problem(hayward, 404, "not-found").await;

    let clerk = app.token("clerk@montello.demo").await;
    let res = post(clerk.clone(), future.clone()).await;
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    assert_eq!(created["effective_from"], "2199-01-01");
    assert!(created["source"].as_str().unwrap().starts_with("user:"));
    assert_problem(post(clerk.clone(), future.clone()).await, 409, "conflict").await;

    let mut past = current["policy"].clone();
    past["effective_from"] = json!("2021-01-01");
    let body = assert_problem(post(clerk, past).await, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["field"], "effective_from");

    // The new version governs only its own periods.
    let q = quote(
        &app,
        "montello",
        json!({"period": "2199-Q1", "gross_receipts": "100.00"}),
    )
    .await;
    assert_eq!(q["tax"], "5.00");
    let q = quote(
        &app,
        "montello",
        json!({"period": "2026-Q1", "gross_receipts": "100.00"}),
    )
    .await;
    assert_eq!(q["tax"], "4.50");
}

#[actix_web::test]
async fn an_extension_moves_the_forfeiture_and_a_late_return_without_payment_date_is_paid_when_filed()
 {
    let app = spawn_demo_app().await;
    // Extended to 2026-05-31, filed then, paid 2026-06-30: within 30 days of the
    // extended date, so no forfeiture; interest still from 2026-04-30 (2 months).
    let q = quote(
        &app,
        "montello",
        json!({"period": "2026-Q1", "gross_receipts": "1000.00", "extended_to": "2026-05-31",
               "filed_on": "2026-05-31", "paid_on": "2026-06-30", "previous_year_tax": "2000.00"}),
    )
    .await;
    assert_eq!(q["late_payment_forfeiture"], "0.00");
    assert_eq!(q["interest"], "0.90");
    assert_eq!(q["late_filing_fee"], "0.00");
    // Filed late with no payment date: paid when filed, never on time.
    let q = quote(
        &app,
        "montello",
        json!({"period": "2026-Q1", "gross_receipts": "1000.00", "filed_on": "2026-06-15",
               "previous_year_tax": "2000.00"}),
    )
    .await;
    assert_eq!(q["interest"], "0.90", "2 months on 45.00");
    assert_eq!(q["late_payment_forfeiture"], "500.00");
    assert_eq!(q["late_filing_fee"], "25.00");
    assert_eq!(line(&q, "interest")["inputs"]["paid_on_source"], "filed_on");
}

/// The quarter (`YYYY-Qn`) containing `date` and its last day.
fn quarter_of(date: chrono::NaiveDate) -> (String, chrono::NaiveDate) {
    use chrono::Datelike;
    let q = (date.month() - 1) / 3 + 1;
    let end_month = q * 3;
    let next = if end_month == 12 {
        chrono::NaiveDate::from_ymd_opt(date.year() + 1, 1, 1)
    } else {
        chrono::NaiveDate::from_ymd_opt(date.year(), end_month + 1, 1)
    }
    .unwrap();
    (format!("{}-Q{q}", date.year()), next.pred_opt().unwrap())
}

#[actix_web::test]
async fn from_the_day_after_left_on_quotes_send_nothing_to_the_commission() {
    let app = spawn_demo_app().await;
    let admin = app.token("admin@marquette-county.demo").await;
    let (this_quarter, last_day) = quarter_of(
        chrono::Utc::now()
            .with_timezone(&chrono_tz::America::Chicago)
            .date_naive(),
    );
    let (next_quarter, _) = quarter_of(last_day.succ_opt().unwrap());
    let res = app
        .client
        .post(app.url("/v1/zones/marquette-county/members/montello/leave"))
        .bearer_auth(&admin)
        .json(&json!({"left_on": last_day.to_string()}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    // The quarter ending on left_on: still a member, 75 % to the commission.
    let q = quote(
        &app,
        "montello",
        json!({"period": this_quarter, "gross_receipts": "1000.00"}),
    )
    .await;
    assert_eq!(q["distribution"]["commission"], "33.75");
    assert_eq!(q["distribution"]["municipality"], "11.25");
    // The next one: outside the zone, all of it stays with the city, and the line says why.
    let q = quote(
        &app,
        "montello",
        json!({"period": next_quarter, "gross_receipts": "1000.00"}),
    )
    .await;
    assert_eq!(q["tax"], "45.00");
    assert_eq!(q["distribution"]["commission"], "0.00");
    assert_eq!(q["distribution"]["municipality"], "45.00");
    let share = line(&q, "commission_share");
    assert!(
        share["citation"]
            .as_str()
            .unwrap()
            .contains("not a member of a tourism zone"),
        "{share}"
    );
    // Hayward never was in a zone: its 0 % share is unchanged.
    let q = quote(
        &app,
        "hayward",
        json!({"period": this_quarter, "gross_receipts": "1000.00"}),
    )
    .await;
    assert_eq!(q["distribution"]["commission"], "0.00");
    assert_eq!(q["distribution"]["municipality"], "40.00");
}

#[actix_web::test]
async fn rates_above_eight_percent_need_the_1994_exception() {
    let app = spawn_demo_app().await;
    let clerk = app.token("clerk@hayward.demo").await;
    let mut policy = app
        .get("/v1/municipalities/hayward/policies/current")
        .await
        .json::<Value>()
        .await
        .unwrap()["policy"]
        .clone();
    policy["effective_from"] = json!("2199-01-01");
    policy["rate"]["value"] = json!("0.09");
    let post = |body: Value| {
        let (app, clerk) = (&app, &clerk);
        async move {
            app.client
                .post(app.url("/v1/municipalities/hayward/policies"))
                .bearer_auth(clerk)
                .json(&body)
                .send()
                .await
                .unwrap()
        }
    };
    let body = assert_problem(post(policy.clone()).await, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["field"], "rate", "{body}");
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("§ 66.0615(1m)(a)"),
        "{body}"
    );
    // Kept since after 1994-05-13: still refused.
    policy["grandfathered_rate"] = json!({
        "value": {"rate": "0.09", "in_effect_since": "1995-01-01"},
        "citation": "Ord. No. 999; Wis. Stat. § 66.0615(1m)(a)"
    });
    let body = assert_problem(post(policy.clone()).await, 422, "validation-failed").await;
    assert_eq!(
        body["errors"][0]["field"],
        "grandfathered_rate.in_effect_since"
    );
    policy["grandfathered_rate"]["value"]["in_effect_since"] = json!("1993-08-01");
    let res = post(policy.clone()).await;
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    assert_eq!(
        created["policy"]["grandfathered_rate"]["value"]["rate"],
        "0.09"
    );
    let q = quote(
        &app,
        "hayward",
        json!({"period": "2199-Q1", "gross_receipts": "100.00"}),
    )
    .await;
    assert_eq!(q["tax"], "9.00");
}

/// "Today" is the municipality's local date everywhere, not only for returns:
/// at 22:00 on 30 April in Chicago (03:00 UTC on 1 May) April is still
/// running, so a policy version effective from 1 April is still forward;
/// at 01:00 on 1 May in Chicago it no longer is.
#[actix_web::test]
async fn the_forward_only_rule_counts_the_local_date() {
    let app = crate::helpers::spawn_demo_app_at("2026-05-01T03:00:00Z").await;
    let clerk = app.token("clerk@hayward.demo").await;
    let current: Value = app
        .get("/v1/municipalities/hayward/policies/current")
        .await
        .json()
        .await
        .unwrap();
    let mut april = current["policy"].clone();
    april["effective_from"] = json!("2026-04-01");
    let send = |body: Value| {
        app.call(reqwest::Method::POST, "/v1/municipalities/hayward/policies")
            .bearer(&clerk)
            .json(body)
            .send()
    };
    let res = send(april.clone()).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    app.set_now("2026-05-01T06:00:00Z");
    april["effective_from"] = json!("2026-04-15");
    let res = send(april).await;
    assert_eq!(res.status(), 422);
}

/// The parsed policy history is cached in memory (`db::policies::load`): a
/// version added by another process sharing the database (here: the owner's
/// own connection, outside this server) must govern the next quote at once.
#[actix_web::test]
async fn a_policy_version_added_elsewhere_governs_the_next_quote() {
    let app = spawn_demo_app().await;
    let body = json!({"period": "2199-Q1", "gross_receipts": "100.00"});
    // Twice: the second is served from the cache.
    assert_eq!(quote(&app, "montello", body.clone()).await["tax"], "4.50");
    assert_eq!(quote(&app, "montello", body.clone()).await["tax"], "4.50");

    let current: Value = app
        .get("/v1/municipalities/montello/policies/current")
        .await
        .json()
        .await
        .unwrap();
    let mut future = current["policy"].clone();
    future["effective_from"] = json!("2199-01-01");
    future["rate"]["value"] = json!("0.05");
    let document = future.to_string();
    let mut conn = app.owner_conn();
    let montello = roomtax::db::municipalities::by_slug(&mut conn, "montello")
        .unwrap()
        .unwrap();
    roomtax::db::policies::insert(
        &mut conn,
        &roomtax::db::models::NewPolicyVersion {
            municipality_id: montello.id,
            effective_from: chrono::NaiveDate::from_ymd_opt(2199, 1, 1).unwrap(),
            document: &document,
            source: "another process",
        },
    )
    .unwrap();
    drop(conn);

    assert_eq!(quote(&app, "montello", body.clone()).await["tax"], "5.00");
    // Earlier periods keep the version they had.
    let q = quote(
        &app,
        "montello",
        json!({"period": "2026-Q1", "gross_receipts": "100.00"}),
    )
    .await;
    assert_eq!(q["tax"], "4.50");
}

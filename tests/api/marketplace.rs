//! Marketplace providers' reports over HTTP: the engine's figures, one report
//! per provider and quarter, the refusals, and who sees whose reports.
//!
//! Hand computations (Montello, 4.5 %, the policy of 2020-01-01):
//! - provider A, 2026-Q1: gross 38,450.00, exempt 1,450.00: taxable 37,000.00;
//!   tax owed 37,000.00 × 0.045 = 1,665.00; collected 1,600.00: difference
//!   1,665.00 − 1,600.00 = 65.00 (collected too little, still owed);
//! - provider B, 2026-Q1: gross 10,000.00, no exempt: tax owed 450.00;
//!   collected 460.00: difference −10.00 (collected more than the tax);
//! - 2026-Q2, gross 1,234.57: 1,234.57 × 0.045 = 55.55565 → 55.56.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, check::assert_problem, spawn_demo_app_at};

const REPORTS: &str = "/v1/municipalities/montello/marketplace-reports";
const PROVIDER: &str = "marketplace@montello.demo";
const CLERK: &str = "clerk@montello.demo";
const STAFF: &str = "staff@montello.demo";
const SECOND: &str = "second-platform@montello.demo";
const SECOND_PASSWORD: &str = "a fine initial password";

fn report(period: &str, gross: &str, exempt: &str, nights: i64, collected: &str) -> Value {
    json!({
        "period": period,
        "gross_receipts": gross,
        "exempt_receipts": exempt,
        "nights": nights,
        "tax_collected": collected
    })
}

async fn post(app: &TestApp, token: &str, body: Value) -> reqwest::Response {
    app.call(Method::POST, REPORTS)
        .bearer(token)
        .json(body)
        .send()
        .await
}

/// A second marketplace provider of Montello, granted by the clerk (as
/// `tests/api/admin/grants.rs` creates users), signed in: its token and user id.
async fn second_provider(app: &TestApp) -> (String, String) {
    let clerk = app.token(CLERK).await;
    let res = app
        .call(Method::POST, "/v1/municipalities/montello/grants")
        .bearer(&clerk)
        .json(json!({
            "email": SECOND,
            "display_name": "Second Platform",
            "role": "marketplace_provider",
            "password": SECOND_PASSWORD
        }))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let grant: Value = res.json().await.unwrap();
    let user_id = grant["user"]["id"].as_str().unwrap().to_owned();
    let res = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": SECOND, "password": SECOND_PASSWORD}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let tokens: Value = res.json().await.unwrap();
    (tokens["access_token"].as_str().unwrap().to_owned(), user_id)
}

async fn ok(res: reqwest::Response) -> Value {
    assert_eq!(res.status(), 200, "{}", res.url());
    res.json().await.unwrap()
}

fn ids(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect()
}

#[actix_web::test]
async fn a_provider_reports_and_the_engine_computes_what_it_owes() {
    // 2026-04-01T03:00Z is 22:00 on 2026-03-31 in Chicago: Q1's last day, local.
    let app = spawn_demo_app_at("2026-04-01T03:00:00Z").await;
    let token = app.token(PROVIDER).await;
    let res = post(
        &app,
        &token,
        report("2026-Q1", "38450.00", "1450.00", 212, "1600.00"),
    )
    .await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        location,
        format!("{REPORTS}/{}", body["id"].as_str().unwrap())
    );
    assert_eq!(body["period"], "2026-Q1");
    assert_eq!(body["filed_on"], "2026-03-31", "the local date: {body}");
    assert_eq!(body["gross_receipts"], "38450.00");
    assert_eq!(body["exempt_receipts"], "1450.00");
    assert_eq!(body["taxable_receipts"], "37000.00");
    assert_eq!(body["nights"], 212);
    assert_eq!(body["tax_collected"], "1600.00");
    assert_eq!(body["tax_owed"], "1665.00");
    assert_eq!(body["difference"], "65.00");
    assert_eq!(body["policy_version"], "2020-01-01");
    assert!(
        !body["provider_name"].as_str().unwrap().is_empty(),
        "{body}"
    );
    let codes: Vec<&str> = body["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["tax", "collection_difference"]);
    assert!(
        body["lines"][1]["citation"]
            .as_str()
            .unwrap()
            .contains("without property addresses"),
        "{body}"
    );

    // It reads back the same.
    let read = ok(app.call(Method::GET, &location).bearer(&token).send().await).await;
    assert_eq!(read["tax_owed"], "1665.00");
    assert_eq!(read["difference"], "65.00");
    assert_eq!(read["id"], body["id"]);

    // A second report for the quarter is a conflict naming the period.
    let res = post(&app, &token, report("2026-Q1", "1.00", "0.00", 1, "0.00")).await;
    let problem = assert_problem(res, 409, "conflict", Some("period")).await;
    assert_eq!(
        problem["errors"][0]["rule"],
        "marketplace_report_already_filed"
    );

    // Rounded once: 1,234.57 × 0.045 = 55.55565 → 55.56.
    app.set_now("2026-07-10T15:00:00Z");
    let res = post(&app, &token, report("2026-Q2", "1234.57", "0", 9, "55.56")).await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["tax_owed"], "55.56");
    assert_eq!(body["difference"], "0.00");
    assert_eq!(body["exempt_receipts"], "0.00");
}

#[actix_web::test]
async fn a_report_is_refused_with_the_field_named() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let token = app.token(PROVIDER).await;
    // (period, gross, exempt, nights, collected) → field/rule.
    let cases = [
        (
            ("2026", "1.00", "0", 1, "0"),
            "period/marketplace_report_quarterly",
        ),
        (("2026-Q2", "1.00", "0", 1, "0"), "period/period_not_ended"),
        (
            ("2026-Q1", "-1.00", "0", 1, "0"),
            "gross_receipts/not_negative",
        ),
        (
            ("2026-Q1", "1.00", "2.00", 1, "0"),
            "exempt_receipts/exempt_not_above_gross",
        ),
        (
            ("2026-Q1", "1.00", "0", 1, "-0.01"),
            "tax_collected/not_negative",
        ),
        (("2026-Q1", "1.00", "0", -1, "0"), "nights/not_negative"),
    ];
    for ((period, gross, exempt, nights, collected), expected) in cases {
        let (field, rule) = expected.split_once('/').unwrap();
        let body = report(period, gross, exempt, nights, collected);
        let res = post(&app, &token, body.clone()).await;
        let problem = assert_problem(res, 422, "validation-failed", Some(field)).await;
        assert_eq!(
            crate::helpers::check::rule_of(&problem, field).as_deref(),
            Some(rule),
            "{body}: {problem}"
        );
    }
    // No property addresses: the body refuses any field it does not define.
    let mut with_address = report("2026-Q1", "1.00", "0", 1, "0");
    with_address["property_address"] = json!("1 Main St");
    let res = post(&app, &token, with_address).await;
    let problem = assert_problem(res, 400, "unknown-field", Some("property_address")).await;
    assert!(!problem.to_string().contains("1 Main St"), "{problem}");
    // Nothing was filed.
    let list = ok(app.get_as(&token, REPORTS).await).await;
    assert!(ids(&list).is_empty(), "{list}");
}

#[actix_web::test]
async fn providers_see_their_own_the_clerk_and_staff_see_all_other_roles_none() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let first = app.token(PROVIDER).await;
    let (second, second_id) = second_provider(&app).await;
    let res = post(
        &app,
        &first,
        report("2026-Q1", "38450.00", "1450.00", 212, "1600.00"),
    )
    .await;
    assert_eq!(res.status(), 201);
    let a: Value = res.json().await.unwrap();
    let res = post(
        &app,
        &second,
        report("2026-Q1", "10000.00", "0.00", 80, "460.00"),
    )
    .await;
    assert_eq!(res.status(), 201);
    let b: Value = res.json().await.unwrap();
    assert_eq!(b["tax_owed"], "450.00");
    assert_eq!(b["difference"], "-10.00");
    assert_eq!(b["provider_id"], second_id.as_str());
    assert_eq!(b["provider_name"], "Second Platform");
    let (a_id, b_id) = (
        a["id"].as_str().unwrap().to_owned(),
        b["id"].as_str().unwrap().to_owned(),
    );
    let path = |id: &str| format!("{REPORTS}/{id}");

    // Each provider sees only its own: another's is 404, as if it did not exist.
    assert_eq!(
        ids(&ok(app.get_as(&first, REPORTS).await).await),
        std::slice::from_ref(&a_id)
    );
    assert_eq!(
        ids(&ok(app.get_as(&second, REPORTS).await).await),
        std::slice::from_ref(&b_id)
    );
    assert_problem(
        app.get_as(&first, &path(&b_id)).await,
        404,
        "not-found",
        None,
    )
    .await;
    assert_problem(
        app.get_as(&second, &path(&a_id)).await,
        404,
        "not-found",
        None,
    )
    .await;

    // The clerk-treasurer and staff see both, filtered by period, page by page.
    let mut both = vec![a_id.clone(), b_id.clone()];
    both.sort();
    for reader in [CLERK, STAFF] {
        let token = app.token(reader).await;
        let list = ok(app.get_as(&token, REPORTS).await).await;
        assert_eq!(ids(&list), both, "{reader}");
        assert!(list["next_cursor"].is_null());
        let q1 = ok(app
            .get_as(&token, &format!("{REPORTS}?period=2026-Q1"))
            .await)
        .await;
        assert_eq!(ids(&q1), both);
        let q2 = ok(app
            .get_as(&token, &format!("{REPORTS}?period=2026-Q2"))
            .await)
        .await;
        assert!(ids(&q2).is_empty());
        let page = ok(app.get_as(&token, &format!("{REPORTS}?limit=1")).await).await;
        assert_eq!(ids(&page), both[..1]);
        let cursor = page["next_cursor"].as_str().unwrap();
        let rest = ok(app
            .get_as(&token, &format!("{REPORTS}?limit=1&cursor={cursor}"))
            .await)
        .await;
        assert_eq!(ids(&rest), both[1..]);
        for id in &both {
            assert_eq!(
                ok(app.get_as(&token, &path(id)).await).await["id"],
                id.as_str()
            );
        }
    }

    // Operators and zone roles never see them (403: they know Montello);
    // Hayward's clerk learns nothing (404). Nobody else files one either.
    for (who, status, code) in [
        ("operator@montello.demo", 403, "forbidden"),
        ("commission@marquette-county.demo", 403, "forbidden"),
        ("tourism@marquette-county.demo", 403, "forbidden"),
        ("admin@marquette-county.demo", 403, "forbidden"),
        ("clerk@hayward.demo", 404, "not-found"),
    ] {
        let token = app.token(who).await;
        let listed = assert_problem(app.get_as(&token, REPORTS).await, status, code, None).await;
        let shown =
            assert_problem(app.get_as(&token, &path(&a_id)).await, status, code, None).await;
        let res = post(&app, &token, report("2026-Q1", "1.00", "0", 1, "0")).await;
        let filed = assert_problem(res, status, code, None).await;
        if status == 403 {
            let read = "your role in this municipality may not read marketplace reports";
            assert_eq!(listed["detail"], read);
            assert_eq!(shown["detail"], read);
            assert_eq!(
                filed["detail"],
                "your role in this municipality may not file marketplace reports"
            );
        }
    }
    let clerk = app.token(CLERK).await;
    let res = post(&app, &clerk, report("2026-Q1", "1.00", "0", 1, "0")).await;
    assert_problem(res, 403, "forbidden", None).await;
}

#[actix_web::test]
async fn filing_and_every_read_are_in_the_access_log() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let provider = app.token(PROVIDER).await;
    let res = post(&app, &provider, report("2026-Q1", "100.00", "0", 2, "4.50")).await;
    assert_eq!(res.status(), 201);
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let clerk = app.token(CLERK).await;
    ok(app.get_as(&provider, &format!("{REPORTS}/{id}")).await).await;
    ok(app.get_as(&clerk, REPORTS).await).await;
    let log = ok(app
        .get_as(
            &clerk,
            &format!("/v1/municipalities/montello/access-log?record_id={id}"),
        )
        .await)
    .await;
    let mut seen: Vec<(String, String, String)> = log["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            assert_eq!(e["record_type"], "marketplace_report", "{e}");
            (
                e["action"].as_str().unwrap().to_owned(),
                e["basis"].as_str().unwrap().to_owned(),
                e["actor_kind"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        [
            (
                "create".into(),
                "marketplace_provider".into(),
                "user".into()
            ),
            ("read".into(), "clerk_treasurer".into(), "user".into()),
            ("read".into(), "marketplace_provider".into(), "user".into()),
        ]
    );
    // No amount in the log.
    assert!(!log.to_string().contains("100.00"), "{log}");
}

/// `Idempotency-Key` on a report: the retry gets the first 201, not the 409
/// a second report of the quarter would get.
#[actix_web::test]
async fn a_report_retried_with_its_key_is_filed_once() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let token = app.token(PROVIDER).await;
    let send = || {
        app.call(Method::POST, REPORTS)
            .bearer(&token)
            .header("idempotency-key", "report-2026-q1")
            .json(report("2026-Q1", "1000.00", "0.00", 10, "45.00"))
            .send()
    };
    let first = send().await;
    assert_eq!(first.status(), 201);
    let first_body: Value = first.json().await.unwrap();
    let again = send().await;
    assert_eq!(again.status(), 201);
    assert_eq!(again.json::<Value>().await.unwrap(), first_body);
}

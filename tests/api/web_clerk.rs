//! The clerk-treasurer's and staff's pages over HTTP (issue 11 item 4): the
//! dashboard's figures against the API's for the same quarter, a payment
//! recorded through the form (no JavaScript) changing the statement exactly,
//! a double submit recorded once, CSRF refused, every clerk page closed to an
//! operator (403) and to a stranger (404), staff recording a payment, and the
//! page reads in the access log. On SQLite and, with
//! `ROOMTAX_TEST_DATABASE_URL`, on PostgreSQL.

use reqwest::header;
use serde_json::Value;

use crate::helpers::{TestApp, spawn_demo_app, spawn_demo_app_at, spawn_full_demo_app};
use crate::web_browser::{Browser, Page};

const CAMPGROUND: &str = "5b0c8c1e-0000-4000-8000-000000000002";

impl Page {
    /// The text of the `td` in the row (or element) with this id.
    fn cell(&self, id: &str) -> String {
        let re = regex::Regex::new(&format!(
            r#"<(?:tr|td|dd)[^>]*\bid="{id}"[^>]*>(?:<th[^>]*>.*?</th>)?(?:<td[^>]*>)?([^<]*)<"#
        ))
        .unwrap();
        re.captures(&self.body)
            .unwrap_or_else(|| panic!("no #{id} in {}", self.body))[1]
            .trim()
            .to_owned()
    }
}

const M: &str = "/app/m/montello/clerk";

fn payor_page() -> String {
    format!("{M}/payors/{CAMPGROUND}")
}

async fn api_json(app: &TestApp, token: &str, path: &str) -> Value {
    let res = app.get_as(token, path).await;
    assert_eq!(res.status(), 200, "{path}");
    res.json().await.unwrap()
}

async fn api_balance(app: &TestApp, token: &str) -> (String, usize) {
    let a = api_json(
        app,
        token,
        &format!("/v1/municipalities/montello/payors/{CAMPGROUND}/account"),
    )
    .await;
    (
        a["totals"]["balance"].as_str().unwrap().to_owned(),
        a["payments"].as_array().unwrap().len(),
    )
}

fn sum(items: &[Value], field: &str) -> rust_decimal::Decimal {
    items
        .iter()
        .filter_map(|i| i[field].as_str())
        .map(|s| s.parse::<rust_decimal::Decimal>().unwrap())
        .sum()
}

#[actix_web::test]
async fn dashboard_figures_equal_the_apis_for_the_same_quarter() {
    let app = spawn_full_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    let mut collected_seen = false;
    for period in ["2025-Q2", "2025-Q4", "2026-Q1", "2026-Q2"] {
        let page = b.get(&format!("{M}?period={period}")).await;
        assert_eq!(page.status, 200, "{}", page.body);
        let returns = api_json(
            &app,
            &token,
            &format!("/v1/municipalities/montello/returns?period={period}&limit=200"),
        )
        .await;
        let items = returns["items"].as_array().unwrap();
        let count = |status: &str| {
            items
                .iter()
                .filter(|i| i["obligation"]["status"] == status)
                .count()
                .to_string()
        };
        assert_eq!(page.cell("count-filed"), count("filed"), "{period}");
        assert_eq!(
            page.cell("count-filed-late"),
            count("filed_late"),
            "{period}"
        );
        assert_eq!(page.cell("count-missing"), count("missing"), "{period}");
        assert_eq!(
            page.cell("count-not-yet-due"),
            count("not_yet_due"),
            "{period}"
        );
        let incomplete = items
            .iter()
            .filter(|i| i["return_status"] == "incomplete")
            .count();
        assert_eq!(page.cell("count-incomplete"), incomplete.to_string());
        assert_eq!(
            page.cell("amount-tax"),
            format!("{:.2}", sum(items, "tax")),
            "{period}"
        );
        assert_eq!(
            page.cell("amount-due"),
            format!("{:.2}", sum(items, "amount_due_on_filing")),
            "{period}"
        );
        let preview = api_json(
            &app,
            &token,
            &format!("/v1/municipalities/montello/remittances/preview?period={period}"),
        )
        .await;
        assert_eq!(
            page.cell("amount-collected"),
            preview["tax_collected"].as_str().unwrap(),
            "{period}"
        );
        assert_eq!(
            page.cell("remittance-preview"),
            preview["commission"].as_str().unwrap(),
            "{period}"
        );
        collected_seen |= preview["tax_collected"] != "0.00";
    }
    assert!(
        collected_seen,
        "the demo received tax in one of the quarters"
    );
    // Without a period: the latest quarter that has ended.
    let today = app.state.clock.today();
    let expected = roomtax::web::clerk::dashboard::default_quarter(today).to_string();
    let page = b.get(M).await;
    assert!(
        page.body.contains(&format!(": {expected}</h1>")),
        "{}",
        page.body
    );
    // Every clerk page answers the clerk.
    for path in [
        format!("{M}/payors"),
        payor_page(),
        format!("{}/statement", payor_page()),
        format!("{}/notices", payor_page()),
        format!("{M}/returns?period=2025-Q4&status=missing"),
        format!("{M}/delinquencies"),
        format!("{M}/extensions"),
        format!("{M}/remittances?year=2026"),
        format!("{M}/access-log"),
    ] {
        let page = b.get(&path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.body);
    }
    let missing = b
        .get(&format!("{M}/returns?period=2025-Q4&status=missing"))
        .await;
    assert!(
        missing.body.contains("Buffalo Lake Campground Inc."),
        "Q4 missing"
    );
    assert!(!missing.body.contains("Lakeside Motel LLC"), "Q4 filed");
}

/// Record a payment of `amount` through the payor page's form; the response.
async fn pay(b: &mut Browser<'_>, amount: &str, reference: &str) -> (Page, Vec<(String, String)>) {
    let page = b.get(&payor_page()).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let fields = vec![
        ("csrf_token".to_owned(), page.csrf()),
        ("idempotency_key".to_owned(), page.hidden("idempotency_key")),
        ("received_on".to_owned(), page.hidden_date()),
        ("amount".to_owned(), amount.to_owned()),
        ("method".to_owned(), "check".to_owned()),
        ("reference".to_owned(), reference.to_owned()),
    ];
    let form: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let res = b.post(&format!("{}/payments", payor_page()), &form).await;
    (res, fields)
}

impl Page {
    /// The value of the `received_on` date field.
    fn hidden_date(&self) -> String {
        let re = regex::Regex::new(r#"name="received_on" type="date" value="([^"]+)""#).unwrap();
        re.captures(&self.body)
            .unwrap_or_else(|| panic!("no received_on field in {}", self.body))[1]
            .to_owned()
    }
}

#[actix_web::test]
async fn a_payment_through_the_form_clears_the_balance_exactly_and_a_double_submit_records_once() {
    let app = spawn_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let (before, payments_before) = api_balance(&app, &token).await;
    assert_ne!(before, "0.00", "the campground owes its 2025 returns");
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    // The statement page shows the API's balance.
    let statement = b.get(&format!("{}/statement", payor_page())).await;
    assert_eq!(statement.cell("balance-total"), before);
    // A refused amount: shown again next to its field, nothing recorded.
    let (refused, _) = pay(&mut b, "12,50", "check 1").await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused
            .body
            .contains(r#"id="error-amount">enter an amount"#)
    );
    assert_eq!(api_balance(&app, &token).await.1, payments_before);
    // The whole balance, as the statement page shows it.
    let (done, fields) = pay(&mut b, &before, "check 1001").await;
    assert_eq!(done.status, 303, "{}", done.body);
    let receipt_path = done.location().to_owned();
    assert!(
        receipt_path.starts_with(&format!("{}/payments/", payor_page())),
        "{receipt_path}"
    );
    let (after, payments_after) = api_balance(&app, &token).await;
    assert_eq!(after, "0.00");
    assert_eq!(payments_after, payments_before + 1);
    // The receipt shows where it went, summing to the amount.
    let receipt = b.get(&receipt_path).await;
    assert_eq!(receipt.status, 200, "{}", receipt.body);
    assert_eq!(receipt.cell("payment-amount"), before);
    assert!(receipt.body.contains("<caption>Where it went"));
    assert_eq!(receipt.cell("payment-credit"), "0.00");
    // The same form sent again (a double click, a reload): the first receipt, nothing more.
    let form: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let again = b.post(&format!("{}/payments", payor_page()), &form).await;
    assert_eq!(again.status, 303, "{}", again.body);
    assert_eq!(again.location(), receipt_path);
    assert_eq!(
        api_balance(&app, &token).await,
        ("0.00".into(), payments_after)
    );
    // The same key with another amount is refused.
    let mut changed = fields.clone();
    changed[3].1 = "1.00".into();
    let form: Vec<(&str, &str)> = changed
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let reused = b.post(&format!("{}/payments", payor_page()), &form).await;
    assert_eq!(reused.status, 422, "{}", reused.body);
    assert_eq!(api_balance(&app, &token).await.1, payments_after);
    // The payor page now shows 0.00.
    let page = b.get(&payor_page()).await;
    assert_eq!(page.cell("balance-total"), "0.00");
}

#[actix_web::test]
async fn a_payment_form_without_its_csrf_token_is_refused() {
    let app = spawn_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let (_, payments_before) = api_balance(&app, &token).await;
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    let page = b.get(&payor_page()).await;
    let key = page.hidden("idempotency_key");
    let date = page.hidden_date();
    let base = [
        ("idempotency_key", key.as_str()),
        ("received_on", date.as_str()),
        ("amount", "10.00"),
        ("method", "cash"),
        ("reference", "r-1"),
    ];
    let res = b.post(&format!("{}/payments", payor_page()), &base).await;
    assert_eq!(res.status, 403, "{}", res.body);
    assert!(res.body.contains("csrf_token_invalid"));
    let mut wrong = base.to_vec();
    let bad = "0".repeat(64);
    wrong.push(("csrf_token", &bad));
    let res = b.post(&format!("{}/payments", payor_page()), &wrong).await;
    assert_eq!(res.status, 403);
    // Deciding an extension too.
    let res = b
        .post(&format!("{M}/extensions/x"), &[("decision", "refuse")])
        .await;
    assert_eq!(res.status, 403);
    assert_eq!(api_balance(&app, &token).await.1, payments_before);
}

#[actix_web::test]
async fn an_operator_gets_403_and_a_stranger_404_on_every_clerk_page() {
    let app = spawn_demo_app().await;
    let pages = [
        M.to_owned(),
        format!("{M}?period=2025-Q4"),
        format!("{M}/payors"),
        payor_page(),
        format!("{}/statement", payor_page()),
        format!("{}/statement.csv", payor_page()),
        format!("{}/payments/none", payor_page()),
        format!("{}/notices", payor_page()),
        format!("{}/notices/none/document", payor_page()),
        format!("{M}/returns?period=2025-Q4"),
        format!("{M}/delinquencies"),
        format!("{M}/special-assessments.csv"),
        format!("{M}/extensions"),
        format!("{M}/remittances"),
        format!("{M}/access-log"),
    ];
    for (email, status) in [
        ("operator@montello.demo", 403),
        ("commission@marquette-county.demo", 403),
        ("operator@hayward.demo", 404),
        ("clerk@hayward.demo", 404),
    ] {
        let mut b = Browser::new(&app);
        b.sign_in(email).await;
        for path in &pages {
            let page = b.get(path).await;
            assert_eq!(
                page.status.as_u16(),
                status,
                "{email} {path}: {}",
                page.body
            );
            assert!(!page.body.contains("Buffalo Lake"), "{email} {path}");
            assert!(!page.body.contains("Lakeside Motel LLC"), "{email} {path}");
        }
        // Nor can they post a payment (with a valid CSRF token of their own).
        let own = b.get("/app/").await;
        let home = if own.status == 303 {
            b.get(own.location()).await
        } else {
            own
        };
        let res = b
            .post(
                &format!("{}/payments", payor_page()),
                &[
                    ("csrf_token", &home.csrf()),
                    ("idempotency_key", "k-1"),
                    ("received_on", "2026-01-05"),
                    ("amount", "10.00"),
                    ("method", "cash"),
                    ("reference", "r"),
                ],
            )
            .await;
        assert_eq!(res.status.as_u16(), status, "{email}: {}", res.body);
    }
    // Staff may not read the access log (the clerk-treasurer's alone), as in the API.
    let mut staff = Browser::new(&app);
    staff.sign_in("staff@montello.demo").await;
    assert_eq!(staff.get(&format!("{M}/access-log")).await.status, 403);
    // A signed-out visitor goes to the sign-in page.
    let mut nobody = Browser::new(&app);
    let res = nobody.get(M).await;
    assert_eq!(res.status, 303);
    assert_eq!(res.location(), "/app/sign-in");
}

#[actix_web::test]
async fn staff_record_a_payment_and_the_page_reads_are_in_the_access_log() {
    let app = spawn_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let (_, payments_before) = api_balance(&app, &token).await;
    let mut b = Browser::new(&app);
    b.sign_in("staff@montello.demo").await;
    let (done, _) = pay(&mut b, "25.00", "cash receipt 7").await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(api_balance(&app, &token).await.1, payments_before + 1);
    let receipt = b.get(done.location()).await;
    assert_eq!(receipt.status, 200);
    let payment_id = done.location().rsplit('/').next().unwrap().to_owned();
    // The staff member's page reads: the payor, its account, the payment.
    let log = api_json(
        &app,
        &token,
        "/v1/municipalities/montello/access-log?limit=200",
    )
    .await;
    let entries = log["items"].as_array().unwrap();
    let by_staff = |record_type: &str, record_id: &str, action: &str| {
        entries.iter().any(|e| {
            e["basis"] == "municipal_staff"
                && e["record_type"] == record_type
                && e["record_id"] == record_id
                && e["action"] == action
        })
    };
    assert!(by_staff("payor", CAMPGROUND, "read"), "{log:#}");
    assert!(by_staff("payor_account", CAMPGROUND, "read"), "{log:#}");
    assert!(by_staff("payment", &payment_id, "create"), "{log:#}");
    assert!(by_staff("payment", &payment_id, "read"), "{log:#}");
    // The clerk's access-log page shows them too.
    let mut clerk = Browser::new(&app);
    clerk.sign_in("clerk@montello.demo").await;
    let page = clerk
        .get(&format!("{M}/access-log?record_id={payment_id}"))
        .await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("municipal_staff"), "{}", page.body);
    // The returns page reads every payor shown.
    clerk.get(&format!("{M}/returns?period=2025-Q1")).await;
    let log = api_json(
        &app,
        &token,
        &format!("/v1/municipalities/montello/access-log?record_id={CAMPGROUND}&limit=200"),
    )
    .await;
    assert!(
        log["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["basis"] == "clerk_treasurer" && e["record_type"] == "payor"),
        "{log:#}"
    );
}

#[actix_web::test]
async fn the_statement_downloads_as_the_apis_csv_and_the_roll_as_csv() {
    let app = spawn_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    let csv = b.get(&format!("{}/statement.csv", payor_page())).await;
    assert_eq!(csv.status, 200);
    assert!(
        csv.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let api = app
        .client
        .get(app.url(&format!(
            "/v1/municipalities/montello/payors/{CAMPGROUND}/account"
        )))
        .bearer_auth(&token)
        .header(header::ACCEPT, "text/csv")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(csv.body, api);
    let roll = b.get(&format!("{M}/special-assessments.csv")).await;
    assert_eq!(roll.status, 200, "{}", roll.body);
    assert!(
        roll.body.starts_with("payor_id,legal_name"),
        "{}",
        roll.body
    );
    assert!(roll.body.contains(CAMPGROUND));
}

#[actix_web::test]
async fn determinations_and_notices_with_the_notices_pdf_as_the_api_sends_it() {
    let app = spawn_full_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    let page = b.get(&format!("{}/notices", payor_page())).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("non filer estimate"), "{}", page.body);
    let api = api_json(
        &app,
        &token,
        &format!("/v1/municipalities/montello/payors/{CAMPGROUND}/notices"),
    )
    .await;
    let notices = api["items"].as_array().unwrap();
    assert!(!notices.is_empty(), "the demo campground has notices");
    for n in notices {
        let id = n["id"].as_str().unwrap();
        let link = format!("{}/notices/{id}/document", payor_page());
        assert!(page.body.contains(&link), "{link} on the page");
        let pdf = b.get(&link).await;
        assert_eq!(pdf.status, 200);
        assert_eq!(pdf.headers[header::CONTENT_TYPE], "application/pdf");
        let from_api = app.get_as(&token, n["document"].as_str().unwrap()).await;
        assert_eq!(
            pdf.headers[header::CONTENT_DISPOSITION],
            from_api.headers()[header::CONTENT_DISPOSITION]
        );
        assert_eq!(pdf.body, from_api.text().await.unwrap());
    }
}

const MOTEL: &str = roomtax::demo::MONTELLO_MOTEL_ID;

/// The motel open since 2025 (so it owes 2026-Q1) and two extensions of
/// 2026-Q1 asked through the API, by the motel's operator and by the clerk
/// for the campground (whose establishment is opened likewise); their ids.
async fn two_extensions_asked(app: &TestApp) -> Vec<String> {
    let clerk = app.token("clerk@montello.demo").await;
    let op = app.token("operator@montello.demo").await;
    let mut ids = Vec::new();
    for (payor, asker) in [(MOTEL, &op), (CAMPGROUND, &clerk)] {
        let res = app
            .call(
                reqwest::Method::POST,
                &format!("/v1/municipalities/montello/payors/{payor}/establishments"),
            )
            .bearer(&clerk)
            .json(serde_json::json!({"name": "Pine Cabins", "address": "W123 County Road C", "kind": "cabin", "units": 8, "opened_on": "2025-01-01"}))
            .send()
            .await;
        assert_eq!(res.status(), 201);
        let res = app
            .call(
                reqwest::Method::POST,
                &format!("/v1/municipalities/montello/payors/{payor}/extensions"),
            )
            .bearer(asker)
            .json(
                serde_json::json!({"period": "2026-Q1", "reason": "the bookkeeper is in hospital"}),
            )
            .send()
            .await;
        assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
        let body: Value = res.json().await.unwrap();
        ids.push(body["id"].as_str().unwrap().to_owned());
    }
    ids
}

async fn extension_status(app: &TestApp, token: &str, id: &str) -> Value {
    let list = api_json(app, token, "/v1/municipalities/montello/extensions").await;
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no extension {id} in {list}"))
}

#[actix_web::test]
async fn extensions_granted_and_refused_through_the_form_and_a_refused_decision_next_to_its_field()
{
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let ids = two_extensions_asked(&app).await;
    let token = app.token("clerk@montello.demo").await;
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    let page = b.get(&format!("{M}/extensions")).await;
    assert_eq!(page.status, 200);
    for id in &ids {
        assert!(
            page.body.contains(&format!(r#"id="extension-{id}""#)),
            "{}",
            page.body
        );
    }
    let csrf = page.csrf();
    let (first, second) = (&ids[0], &ids[1]);

    // Beyond the one month the ordinance allows: the same page, 422, the
    // problem next to the date field, what was entered kept, nothing decided.
    let res = b
        .post(
            &format!("{M}/extensions/{first}"),
            &[
                ("csrf_token", &csrf),
                ("decision", "grant"),
                ("extended_to", "2026-07-15"),
                ("reason", "kept note"),
            ],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.body);
    assert!(res.body.contains("Extensions of the time to file"));
    let re =
        regex::Regex::new(r#"<span class="error" id="error-extended_to">([^<]+)</span>"#).unwrap();
    assert!(re.is_match(&res.body), "{}", res.body);
    assert!(
        res.body
            .contains(r#"id="extended_to" name="extended_to" type="date" value="2026-07-15""#),
        "{}",
        res.body
    );
    assert!(res.body.contains(r#"value="kept note""#));
    assert!(res.body.contains(&format!(r#"id="extension-{second}""#)));
    assert_eq!(
        extension_status(&app, &token, first).await["status"],
        "requested"
    );

    // A refusal without its reason: next to the note field.
    let res = b
        .post(
            &format!("{M}/extensions/{second}"),
            &[
                ("csrf_token", &csrf),
                ("decision", "refuse"),
                ("reason", ""),
            ],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.body);
    let re = regex::Regex::new(r#"<span class="error" id="error-reason">([^<]+)</span>"#).unwrap();
    assert!(re.is_match(&res.body), "{}", res.body);

    // Granted within the limit, refused with a reason: 303 back, as the API shows.
    let res = b
        .post(
            &format!("{M}/extensions/{first}"),
            &[
                ("csrf_token", &csrf),
                ("decision", "grant"),
                ("extended_to", "2026-05-31"),
                ("reason", ""),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.body);
    assert_eq!(res.location(), format!("{M}/extensions"));
    let res = b
        .post(
            &format!("{M}/extensions/{second}"),
            &[
                ("csrf_token", &csrf),
                ("decision", "refuse"),
                ("reason", "no cause shown"),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.body);
    let granted = extension_status(&app, &token, first).await;
    assert_eq!(granted["status"], "granted", "{granted}");
    assert_eq!(granted["extended_to"], "2026-05-31");
    let refused = extension_status(&app, &token, second).await;
    assert_eq!(refused["status"], "refused", "{refused}");

    // Decided: deciding again is refused on the page, next to nothing but the alert.
    let res = b
        .post(
            &format!("{M}/extensions/{first}"),
            &[
                ("csrf_token", &csrf),
                ("decision", "refuse"),
                ("reason", "again"),
            ],
        )
        .await;
    assert_eq!(res.status, 422);
    assert!(res.body.contains("already been decided"), "{}", res.body);
    let page = b.get(&format!("{M}/extensions")).await;
    assert!(!page.body.contains(&format!("/extensions/{first}\"")));

    // An operator may not decide (as the API): 403.
    let mut op = Browser::new(&app);
    op.sign_in("operator@montello.demo").await;
    let home = op.get("/app/").await;
    let home = if home.status == 303 {
        op.get(home.location()).await
    } else {
        home
    };
    let res = op
        .post(
            &format!("{M}/extensions/{first}"),
            &[
                ("csrf_token", &home.csrf()),
                ("decision", "refuse"),
                ("reason", "x"),
            ],
        )
        .await;
    assert_eq!(res.status, 403, "{}", res.body);
}

/// The municipality's grants through the API, as the clerk sees them.
async fn api_grants(app: &TestApp, token: &str) -> Vec<Value> {
    api_json(app, token, "/v1/municipalities/montello/grants?limit=200").await["items"]
        .as_array()
        .unwrap()
        .clone()
}

#[actix_web::test]
async fn users_and_grants_granted_and_revoked_through_the_form_with_the_last_clerk_rule_next_to_it()
{
    let app = spawn_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    let page = b.get(&format!("{M}/users")).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let before = api_grants(&app, &token).await;
    for g in &before {
        assert!(
            page.body
                .contains(&format!(r#"id="grant-{}""#, g["id"].as_str().unwrap()))
        );
    }
    let csrf = page.csrf();

    // An operator without its payor: the use case's refusal next to the field.
    let res = b
        .post(
            &format!("{M}/users"),
            &[
                ("csrf_token", &csrf),
                ("email", "deputy@montello.example"),
                ("display_name", "Deputy Clerk"),
                ("role", "operator"),
                ("payor_id", ""),
                ("password", "a long enough password"),
            ],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.body);
    let re =
        regex::Regex::new(r#"<span class="error" id="error-payor_id">([^<]+)</span>"#).unwrap();
    assert!(re.is_match(&res.body), "{}", res.body);
    assert!(res.body.contains(r#"value="deputy@montello.example""#));
    assert_eq!(api_grants(&app, &token).await.len(), before.len());

    // Staff granted: 303, and the API lists it.
    let res = b
        .post(
            &format!("{M}/users"),
            &[
                ("csrf_token", &csrf),
                ("email", "deputy@montello.example"),
                ("display_name", "Deputy Clerk"),
                ("role", "municipal_staff"),
                ("payor_id", ""),
                ("password", "a long enough password"),
            ],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.body);
    assert_eq!(res.location(), format!("{M}/users"));
    let after = api_grants(&app, &token).await;
    let new = after
        .iter()
        .find(|g| g["user"]["email"] == "deputy@montello.example")
        .unwrap_or_else(|| panic!("no new grant in {after:?}"));
    assert_eq!(new["role"], "municipal_staff");
    let new_id = new["id"].as_str().unwrap().to_owned();

    // Revoked through its form.
    let res = b
        .post(
            &format!("{M}/users/{new_id}/revoke"),
            &[("csrf_token", &csrf)],
        )
        .await;
    assert_eq!(res.status, 303, "{}", res.body);
    let revoked = api_grants(&app, &token).await;
    let g = revoked.iter().find(|g| g["id"] == new_id.as_str()).unwrap();
    assert_eq!(g["active"], false, "{g}");

    // The clerk's own last clerk-treasurer grant: refused, shown on the page.
    let clerk_me = api_json(&app, &token, "/v1/me").await;
    let mine = revoked
        .iter()
        .find(|g| {
            g["role"] == "clerk_treasurer"
                && g["active"] == true
                && g["user"]["id"] == clerk_me["id"]
        })
        .unwrap_or_else(|| panic!("no clerk grant of {clerk_me} in {revoked:?}"));
    let mine_id = mine["id"].as_str().unwrap();
    let res = b
        .post(
            &format!("{M}/users/{mine_id}/revoke"),
            &[("csrf_token", &csrf)],
        )
        .await;
    assert_eq!(res.status, 422, "{}", res.body);
    assert!(res.body.contains("Nothing was changed."), "{}", res.body);
    assert_eq!(
        api_grants(&app, &token)
            .await
            .iter()
            .find(|g| g["id"] == mine_id)
            .unwrap()["active"],
        true
    );

    // Without the CSRF token: 403, nothing granted.
    let res = b
        .post(
            &format!("{M}/users"),
            &[
                ("email", "x@montello.example"),
                ("role", "municipal_staff"),
                ("password", "a long enough password"),
            ],
        )
        .await;
    assert_eq!(res.status, 403);
    let res = b.post(&format!("{M}/users/{new_id}/revoke"), &[]).await;
    assert_eq!(res.status, 403);

    // Staff and an operator: 403 (as the API), a stranger 404, on the page and the posts.
    for (email, status) in [
        ("staff@montello.demo", 403),
        ("operator@montello.demo", 403),
        ("clerk@hayward.demo", 404),
    ] {
        let mut o = Browser::new(&app);
        o.sign_in(email).await;
        let page = o.get(&format!("{M}/users")).await;
        assert_eq!(page.status.as_u16(), status, "{email}: {}", page.body);
        assert!(!page.body.contains("deputy@montello.example"));
        // A valid CSRF token of their own, from their home page.
        let home = o.get("/app/").await;
        let page = if home.status == 303 {
            o.get(home.location()).await
        } else {
            home
        };
        let res = o
            .post(
                &format!("{M}/users"),
                &[
                    ("csrf_token", &page.csrf()),
                    ("email", "y@montello.example"),
                    ("display_name", "Y"),
                    ("role", "clerk_treasurer"),
                    ("password", "a long enough password"),
                ],
            )
            .await;
        assert_eq!(res.status.as_u16(), status, "{email}");
        let res = o
            .post(
                &format!("{M}/users/{mine_id}/revoke"),
                &[("csrf_token", &page.csrf())],
            )
            .await;
        assert_eq!(res.status.as_u16(), status, "{email}");
    }
    assert_eq!(api_grants(&app, &token).await.len(), after.len());
}

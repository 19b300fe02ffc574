//! The operator's pages over HTTP (issue 11 item 3), as a browser without
//! JavaScript uses them (and htmx's fragment request): filing a late return
//! through the form shows the fee the API's quote gives, the live preview
//! equals the API's quote, a zero return in one click (filed once on a double
//! submit), an amendment as a new version (a stale form refused), the
//! statement and its CSV, CSRF refused, another operator's payor 404, and the
//! page reads in the access log. On SQLite and, with
//! `ROOMTAX_TEST_DATABASE_URL`, on PostgreSQL.

use reqwest::header;
use serde_json::json;

use crate::helpers::{TestApp, spawn_demo_app, spawn_demo_app_at, spawn_full_demo_app};
use crate::web_browser::{Browser, Page};

const LAKESIDE: &str = "5b0c8c1e-0000-4000-8000-000000000001";
/// Ten days after Montello's 2026-Q1 return was due (late, no forfeiture yet).
const LATE: &str = "2026-05-10T15:00:00Z";

impl Page {
    fn key(&self) -> String {
        let re = regex::Regex::new(r#"name="idempotency_key" value="([0-9a-f-]{36})""#).unwrap();
        re.captures(&self.body)
            .unwrap_or_else(|| panic!("no idempotency key in {}", self.body))[1]
            .to_owned()
    }
}

fn base() -> String {
    format!("/app/m/montello/payors/{LAKESIDE}")
}

async fn quote(app: &TestApp, gross: &str, on: &str) -> serde_json::Value {
    let res = app
        .client
        .post(app.url("/v1/municipalities/montello/quotes"))
        .json(&json!({"period": "2026-Q1", "gross_receipts": gross, "filed_on": on, "paid_on": on}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

fn filing<'a>(
    csrf: &'a str,
    key: &'a str,
    gross: &'a str,
    action: &'a str,
) -> Vec<(&'a str, &'a str)> {
    vec![
        ("csrf_token", csrf),
        ("idempotency_key", key),
        ("gross_receipts", gross),
        ("signer_name", "Pat Lakeside"),
        ("signer_title", "Owner"),
        ("attested", "yes"),
        ("action", action),
    ]
}

#[actix_web::test]
async fn a_late_return_filed_through_the_form_shows_the_apis_fee_and_files_once() {
    let app = spawn_demo_app_at(LATE).await;
    let mut b = Browser::new(&app);
    b.sign_in("operator@montello.demo").await;
    let home = b.get("/app/m/montello").await;
    let form_path = format!("{}/returns/2026-Q1/file", base());
    assert!(home.body.contains(&form_path), "{}", home.body);
    let form = b.get(&form_path).await;
    assert_eq!(form.status, 200, "{}", form.body);
    let (csrf, key) = (form.csrf(), form.key());
    // Refused without its field: the API's problem next to the field.
    let mut missing = filing(&csrf, &key, "10000.00", "file");
    missing.retain(|(n, _)| *n != "signer_name");
    let refused = b.post(&form_path, &missing).await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused.body.contains(r#"id="error-signer_name">"#)
            && !refused.body.contains(r#"id="error-signer_name"></span>"#),
        "{}",
        refused.body
    );
    let filed = b
        .post(&form_path, &filing(&csrf, &key, "10000.00", "file"))
        .await;
    assert_eq!(filed.status, 303, "{}", filed.body);
    let location = filed.location().to_owned();
    assert!(
        location.starts_with(&format!("{}/filed/", base())),
        "{location}"
    );
    // A double submit of the same form: the same return, filed once.
    let again = b
        .post(&form_path, &filing(&csrf, &key, "10000.00", "file"))
        .await;
    assert_eq!(
        (again.status.as_u16(), again.location()),
        (303, location.as_str())
    );
    let page = b.get(&location).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let q = quote(&app, "10000.00", "2026-05-10").await;
    let fee = q["late_filing_fee"].as_str().unwrap();
    assert_ne!(fee, "0.00", "{q}");
    assert!(page.body.contains("late-notice"), "{}", page.body);
    assert!(
        page.body.contains(&format!("late filing fee of ${fee}")),
        "{}",
        page.body
    );
    assert!(
        page.body.contains(&format!(
            "Amount due: ${}",
            q["total_due"].as_str().unwrap()
        )),
        "{q} {}",
        page.body
    );
    // Filed once: a fresh form for the same period is refused as the API refuses it.
    let fresh = b.get(&form_path).await;
    let dup = b
        .post(
            &form_path,
            &filing(&fresh.csrf(), &fresh.key(), "10000.00", "file"),
        )
        .await;
    assert_eq!(dup.status, 422);
    assert!(
        dup.body.contains("return_already_filed") || dup.body.contains("already on file"),
        "{}",
        dup.body
    );
}

#[actix_web::test]
async fn the_live_preview_and_the_preview_button_give_the_apis_quote() {
    let app = spawn_demo_app_at(LATE).await;
    let mut b = Browser::new(&app);
    b.sign_in("operator@montello.demo").await;
    let form_path = format!("{}/returns/2026-Q1/file", base());
    let form = b.get(&form_path).await;
    let q = quote(&app, "12345.67", "2026-05-10").await;
    let expected = format!(
        "Amount due: ${} (tax ${}",
        q["total_due"].as_str().unwrap(),
        q["tax"].as_str().unwrap()
    );
    let csrf = form.csrf();
    let fields = filing(&csrf, "", "12345.67", "preview");
    let fragment = b
        .post_htmx(&format!("{}/returns/2026-Q1/preview", base()), &fields)
        .await;
    assert_eq!(fragment.status, 200);
    assert!(
        !fragment.body.contains("<html"),
        "a fragment: {}",
        fragment.body
    );
    assert!(
        fragment.body.contains(&expected),
        "{expected} in {}",
        fragment.body
    );
    // Without JavaScript: the "Preview" button renders the same figures.
    let page = b.post(&form_path, &fields).await;
    assert_eq!(page.status, 200);
    assert!(
        page.body.contains("<html") && page.body.contains(&expected),
        "{}",
        page.body
    );
    // A bad amount: the API's message next to the field, live.
    let bad = b
        .post_htmx(
            &format!("{}/returns/2026-Q1/preview", base()),
            &filing(&csrf, "", "12.345", "preview"),
        )
        .await;
    assert!(
        bad.body
            .contains(r#"id="error-gross_receipts" hx-swap-oob="true">"#),
        "{}",
        bad.body
    );
    assert!(
        !bad.body
            .contains(r#"id="error-gross_receipts" hx-swap-oob="true"></span>"#),
        "{}",
        bad.body
    );
    // Nothing was filed.
    let home = b.get("/app/m/montello").await;
    assert!(home.body.contains(&form_path));
}

#[actix_web::test]
async fn a_zero_return_in_one_click_then_an_amendment_as_a_new_version() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    b.sign_in("operator@montello.demo").await;
    let home = b.get("/app/m/montello").await;
    let zero_path = format!("{}/returns/2026-Q2/zero", base());
    assert!(home.body.contains(&zero_path), "{}", home.body);
    let re = regex::Regex::new(&format!(r#"action="{}"><input type="hidden" name="csrf_token" value="([0-9a-f]{{64}})"><input type="hidden" name="idempotency_key" value="([0-9a-f-]{{36}})""#, regex::escape(&zero_path))).unwrap();
    let caps = re
        .captures(&home.body)
        .expect("the zero-return button's form");
    let fields = [("csrf_token", &caps[1]), ("idempotency_key", &caps[2])];
    let zero = b.post(&zero_path, &fields).await;
    assert_eq!(zero.status, 303, "{}", zero.body);
    let location = zero.location().to_owned();
    let twice = b.post(&zero_path, &fields).await;
    assert_eq!(
        (twice.status.as_u16(), twice.location()),
        (303, location.as_str())
    );
    let page = b.get(&location).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("Return 2026-Q2 as filed"),
        "{}",
        page.body
    );
    let token = app.token("operator@montello.demo").await;
    let id = location.rsplit('/').next().unwrap();
    let api: serde_json::Value = app
        .get_as(
            &token,
            &format!("/v1/municipalities/montello/payors/{LAKESIDE}/returns/{id}"),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(api["gross_receipts"], "0.00", "{api}");
    // Amend it up: version 2, the difference shown.
    let (csrf, key) = (page.csrf(), page.key());
    let amend_path = format!("{location}/amend");
    let mut fields = filing(&csrf, &key, "2000.00", "");
    fields.push(("version", "1"));
    let amended = b.post(&amend_path, &fields).await;
    assert_eq!(
        (amended.status.as_u16(), amended.location()),
        (303, location.as_str()),
        "{}",
        amended.body
    );
    let page = b.get(&location).await;
    assert!(page.body.contains("version 2 is in force"), "{}", page.body);
    assert!(page.body.contains("2000.00"), "{}", page.body);
    // A form of version 1 again (a new key): stale, refused.
    let stale_key = page.key();
    let mut stale = filing(&csrf, &stale_key, "3000.00", "");
    stale.push(("version", "1"));
    let refused = b.post(&amend_path, &stale).await;
    assert_eq!(refused.status, 412, "{}", refused.body);
    // The statement shows the return and its CSV is the API's.
    let account = b.get(&format!("{}/account", base())).await;
    assert_eq!(account.status, 200, "{}", account.body);
    assert!(account.body.contains("2026-Q2"), "{}", account.body);
    let csv = b.get(&format!("{}/account.csv", base())).await;
    assert_eq!(csv.status, 200);
    assert!(
        csv.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let api_csv = app
        .client
        .get(app.url(&format!(
            "/v1/municipalities/montello/payors/{LAKESIDE}/account"
        )))
        .bearer_auth(&token)
        .header(header::ACCEPT, "text/csv")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(csv.body, api_csv);
}

#[actix_web::test]
async fn posts_without_their_csrf_token_are_refused() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    b.sign_in("operator@montello.demo").await;
    let form_path = format!("{}/returns/2026-Q2/file", base());
    let form = b.get(&form_path).await;
    let key = form.key();
    let mut fields = filing("", &key, "100.00", "file");
    fields.retain(|(n, _)| *n != "csrf_token");
    assert_eq!(b.post(&form_path, &fields).await.status, 403);
    let zeros = "0".repeat(64);
    let wrong = filing(&zeros, &key, "100.00", "file");
    assert_eq!(b.post(&form_path, &wrong).await.status, 403);
    assert_eq!(
        b.post(
            &format!("{}/returns/2026-Q2/zero", base()),
            &[("idempotency_key", key.as_str())]
        )
        .await
        .status,
        403
    );
    assert_eq!(
        b.post_htmx(&format!("{}/returns/2026-Q2/preview", base()), &fields)
            .await
            .status,
        403
    );
    // Nothing was filed.
    assert!(b.get("/app/m/montello").await.body.contains(&form_path));
}

#[actix_web::test]
async fn another_operators_payor_is_not_found_on_every_page() {
    let app = spawn_demo_app().await;
    let mut hayward = Browser::new(&app);
    hayward.sign_in("operator@hayward.demo").await;
    for m in ["montello", "hayward"] {
        let b = format!("/app/m/{m}/payors/{LAKESIDE}");
        for path in [
            format!("{b}/returns/2026-Q2/file"),
            format!("{b}/account"),
            format!("{b}/account.csv"),
        ] {
            let page = hayward.get(&path).await;
            assert_eq!(page.status, 404, "{path}");
            assert!(!page.body.contains("Lakeside"), "{path}");
        }
    }
    let own = hayward.get("/app/m/hayward").await;
    let csrf = own.csrf();
    let path = format!("/app/m/hayward/payors/{LAKESIDE}/returns/2026-Q2/zero");
    let key = "8e03978e-40d5-43e8-bc93-6894a57f9324";
    assert_eq!(
        hayward
            .post(
                &path,
                &[("csrf_token", csrf.as_str()), ("idempotency_key", key)]
            )
            .await
            .status,
        404
    );
    let preview = hayward
        .post(
            &format!("/app/m/hayward/payors/{LAKESIDE}/returns/2026-Q2/preview"),
            &filing(&csrf, key, "1.00", "preview"),
        )
        .await;
    assert_eq!(preview.status, 404);
}

#[actix_web::test]
async fn the_return_and_statement_pages_are_written_to_the_access_log() {
    let app = spawn_demo_app().await;
    let mut b = Browser::new(&app);
    b.sign_in("operator@montello.demo").await;
    let home = b.get("/app/m/montello").await;
    let re = regex::Regex::new(&format!(
        r#"href="({}/filed/[0-9a-f-]+)""#,
        regex::escape(&base())
    ))
    .unwrap();
    let filed = re
        .captures(&home.body)
        .expect("a filed 2025 return on the home page")[1]
        .to_owned();
    let return_id = filed.rsplit('/').next().unwrap().to_owned();
    assert_eq!(b.get(&filed).await.status, 200);
    assert_eq!(b.get(&format!("{}/account", base())).await.status, 200);
    let clerk = app.token("clerk@montello.demo").await;
    let log = app
        .get_as(&clerk, "/v1/municipalities/montello/access-log")
        .await
        .text()
        .await
        .unwrap();
    assert!(log.contains(&format!("{return_id}/versions/1")), "{log}");
    assert!(
        log.contains("return_version") && log.contains("payor_account"),
        "{log}"
    );
}

#[actix_web::test]
async fn the_notices_and_their_pdfs_for_the_own_payor_only() {
    let app = spawn_full_demo_app().await;
    let lodge = "5b0c8c1e-0000-4000-8000-000000000003";
    let mut b = Browser::new(&app);
    b.sign_in("operator@hayward.demo").await;
    let page = b
        .get(&format!("/app/m/hayward/payors/{lodge}/notices"))
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let re = regex::Regex::new(
        r#"href="(/app/m/hayward/payors/[0-9a-f-]+/notices/[0-9a-f-]+/document)""#,
    )
    .unwrap();
    let doc = re
        .captures(&page.body)
        .expect("the lodge's estimate notice")[1]
        .to_owned();
    let pdf = b.request(reqwest::Method::GET, &doc).send().await.unwrap();
    assert_eq!(pdf.status(), 200);
    assert_eq!(pdf.headers()[header::CONTENT_TYPE], "application/pdf");
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"));
    let clerk = app.token("clerk@hayward.demo").await;
    let log = app
        .get_as(&clerk, "/v1/municipalities/hayward/access-log")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        log.contains("payor_notices") && log.contains("\"notice\""),
        "{log}"
    );
    // Montello's operator: neither the list nor the document.
    let mut other = Browser::new(&app);
    other.sign_in("operator@montello.demo").await;
    assert_eq!(
        other
            .get(&format!("/app/m/hayward/payors/{lodge}/notices"))
            .await
            .status,
        404
    );
    assert_eq!(other.get(&doc).await.status, 404);
}

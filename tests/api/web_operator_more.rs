//! More of the operator's pages over HTTP (issue 11 item 3), as a browser
//! without JavaScript uses them: Hayward's copy of the state sales-tax
//! return attached from the filed return's page (a plain file field; type
//! and size refused next to the field), an extension of the time to file
//! asked from the due list on Montello (the policy's, the period's and the
//! one-open-request refusals next to the field; the clerk's decision shown),
//! and the statement of account as a PDF with the page's figures. Each with
//! CSRF refused, another payor's pages 404 and a clerk-only action refused.
//! On SQLite and, with `ROOMTAX_TEST_DATABASE_URL`, on PostgreSQL.

use reqwest::header;
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_demo_app_at, spawn_full_demo_app};
use crate::web_browser::{Browser, Page};

const MOTEL: &str = roomtax::demo::MONTELLO_MOTEL_ID;
const LODGE: &str = roomtax::demo::HAYWARD_LODGE_ID;
/// 2026-04-10: Montello's 2026-Q1 return is due 2026-04-30 (an extension at
/// most to 2026-05-31); Hayward's 2025-Q4 return is on file, incomplete.
const APRIL: &str = "2026-04-10T15:00:00Z";

fn montello() -> String {
    format!("/app/m/montello/payors/{MOTEL}")
}

fn hayward() -> String {
    format!("/app/m/hayward/payors/{LODGE}")
}

/// A small well-formed PDF.
fn pdf() -> Vec<u8> {
    let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n".to_vec();
    out.extend_from_slice(b"trailer << /Root 1 0 R >>\n%%EOF\n");
    out
}

impl Page {
    /// The text of the error next to `field` ("" when none).
    fn error_at(&self, field: &str) -> String {
        let re = regex::Regex::new(&format!(r#"id="error-{field}">([^<]*)<"#)).unwrap();
        re.captures(&self.body)
            .unwrap_or_else(|| panic!("no error element for {field} in {}", self.body))[1]
            .to_owned()
    }
}

/// The id of the payor's return of `period` (through the API).
async fn return_id(app: &TestApp, token: &str, m: &str, payor: &str, period: &str) -> String {
    let body: Value = app
        .get_as(
            token,
            &format!(
                "/v1/municipalities/{m}/payors/{payor}/obligations?from=2025-01-01&to=2026-12-31"
            ),
        )
        .await
        .json()
        .await
        .unwrap();
    body["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["period"] == period)
        .and_then(|o| o["return_id"].as_str())
        .unwrap_or_else(|| panic!("a return of {period} in {body}"))
        .to_owned()
}

#[actix_web::test]
async fn hayward_attaches_the_state_sales_tax_return_from_the_filed_page() {
    let app = spawn_demo_app_at(APRIL).await;
    let op = app.token("operator@hayward.demo").await;
    let id = return_id(&app, &op, "hayward", LODGE, "2025-Q4").await;
    let filed = format!("{}/filed/{id}", hayward());
    let mut b = Browser::new(&app);
    b.sign_in("operator@hayward.demo").await;
    let page = b.get(&filed).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains("attachments-required")
            && page.body.contains("state sales tax return")
            && page.body.contains("no-attachments"),
        "{}",
        page.body
    );
    assert!(page.body.contains(r#"enctype="multipart/form-data""#));
    let upload = format!("{filed}/attachments");
    let csrf = page.csrf();
    let kind: &[u8] = b"state_sales_tax_return";
    // CSRF refused (no token, a wrong one), nothing attached.
    let doc = pdf();
    let no_token = b
        .post_multipart(
            &upload,
            &[
                ("kind", None, kind),
                ("document", Some("application/pdf"), &doc),
            ],
        )
        .await;
    assert_eq!(no_token.status, 403);
    let zeros = "0".repeat(64);
    let wrong = b
        .post_multipart(
            &upload,
            &[
                ("csrf_token", None, zeros.as_bytes()),
                ("kind", None, kind),
                ("document", Some("application/pdf"), &doc),
            ],
        )
        .await;
    assert_eq!(wrong.status, 403);
    // A text file called a PDF: refused next to the field.
    let text = b
        .post_multipart(
            &upload,
            &[
                ("csrf_token", None, csrf.as_bytes()),
                ("kind", None, kind),
                ("document", Some("application/pdf"), b"just some text"),
            ],
        )
        .await;
    assert_eq!(text.status, 422, "{}", text.body);
    assert!(
        text.error_at("document").contains("not a PDF, PNG or JPEG"),
        "{}",
        text.body
    );
    // Over 10 MiB: refused next to the field.
    let mut big = pdf();
    big.resize(10 * 1024 * 1024 + 1, b' ');
    let large = b
        .post_multipart(
            &upload,
            &[
                ("csrf_token", None, csrf.as_bytes()),
                ("kind", None, kind),
                ("document", Some("application/pdf"), &big),
            ],
        )
        .await;
    assert_eq!(large.status, 422, "{}", large.body);
    assert!(
        large.error_at("document").contains("too large"),
        "{}",
        large.body
    );
    // An unknown kind: next to its field.
    let odd = b
        .post_multipart(
            &upload,
            &[
                ("csrf_token", None, csrf.as_bytes()),
                ("kind", None, b"sales_tax"),
                ("document", Some("application/pdf"), &doc),
            ],
        )
        .await;
    assert_eq!(odd.status, 422, "{}", odd.body);
    assert!(!odd.error_at("kind").is_empty(), "{}", odd.body);
    let api = format!("/v1/municipalities/hayward/payors/{LODGE}/returns/{id}/attachments");
    let listed: Value = app.get_as(&op, &api).await.json().await.unwrap();
    assert_eq!(listed["items"], json!([]), "nothing attached yet");
    // The copy itself: attached, listed, downloadable byte for byte.
    let up = b
        .post_multipart(
            &upload,
            &[
                ("csrf_token", None, csrf.as_bytes()),
                ("kind", None, kind),
                ("document", Some("application/pdf"), &doc),
            ],
        )
        .await;
    assert_eq!(up.status, 303, "{}", up.body);
    assert_eq!(up.location(), format!("{filed}#attachments"));
    let listed: Value = app.get_as(&op, &api).await.json().await.unwrap();
    let items = listed["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{listed}");
    assert_eq!(items[0]["kind"], "state_sales_tax_return");
    let attachment = items[0]["id"].as_str().unwrap().to_owned();
    let page = b.get(&filed).await;
    assert!(!page.body.contains("attachments-required"), "{}", page.body);
    assert!(!page.body.contains("Incomplete"), "{}", page.body);
    let link = format!("{upload}/{attachment}");
    assert!(page.body.contains(&link), "{}", page.body);
    let res = b.request(reqwest::Method::GET, &link).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()[header::CONTENT_TYPE], "application/pdf");
    assert_eq!(res.bytes().await.unwrap().as_ref(), doc.as_slice());
    let clerk = app.token("clerk@hayward.demo").await;
    let log = app
        .get_as(&clerk, "/v1/municipalities/hayward/access-log")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        log.contains(&format!("{id}/attachments/{attachment}")),
        "{log}"
    );
    // Another payor's operator: the return's page, the upload and the
    // download are all 404, and nothing is attached.
    let mut other = Browser::new(&app);
    other.sign_in("operator@montello.demo").await;
    let own = other.get("/app/m/montello").await;
    let other_csrf = own.csrf();
    let b2 = format!("/app/m/hayward/payors/{LODGE}/filed/{id}");
    assert_eq!(other.get(&b2).await.status, 404);
    assert_eq!(other.get(&link).await.status, 404);
    let refused = other
        .post_multipart(
            &upload,
            &[
                ("csrf_token", None, other_csrf.as_bytes()),
                ("kind", None, kind),
                ("document", Some("application/pdf"), &doc),
            ],
        )
        .await;
    assert_eq!(refused.status, 404, "{}", refused.body);
    let listed: Value = app.get_as(&op, &api).await.json().await.unwrap();
    assert_eq!(listed["items"].as_array().unwrap().len(), 1);
}

/// The fields of the extension form.
fn ask<'a>(csrf: &'a str, period: &'a str, reason: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![("csrf_token", csrf), ("period", period), ("reason", reason)]
}

#[actix_web::test]
async fn montello_asks_for_an_extension_from_the_due_list_and_sees_the_decision() {
    let app = spawn_demo_app_at(APRIL).await;
    let mut b = Browser::new(&app);
    b.sign_in("operator@montello.demo").await;
    let home = b.get("/app/m/montello").await;
    let link = format!("{}/extensions?period=2026-Q1", montello());
    assert!(home.body.contains(&link), "{}", home.body);
    // 2025-Q1 is on file: no request offered for it.
    assert!(!home.body.contains("extensions?period=2025-Q1"));
    let form = b.get(&link).await;
    assert_eq!(form.status, 200, "{}", form.body);
    assert!(
        form.body
            .contains(r#"name="period" type="text" value="2026-Q1""#),
        "{}",
        form.body
    );
    assert!(form.body.contains("no-extensions"), "{}", form.body);
    let csrf = form.csrf();
    let post = format!("{}/extensions", montello());
    // CSRF refused.
    let mut no_token = ask("", "2026-Q1", "the bookkeeper is in hospital");
    no_token.remove(0);
    assert_eq!(b.post(&post, &no_token).await.status, 403);
    let zeros = "0".repeat(64);
    assert_eq!(
        b.post(
            &post,
            &ask(&zeros, "2026-Q1", "the bookkeeper is in hospital")
        )
        .await
        .status,
        403
    );
    // A blank reason, a period whose extension could no longer reach a date
    // to come: refused next to their fields.
    let blank = b.post(&post, &ask(&csrf, "2026-Q1", "  ")).await;
    assert_eq!(blank.status, 422, "{}", blank.body);
    assert!(!blank.error_at("reason").is_empty(), "{}", blank.body);
    assert!(blank.body.contains(r#"value="2026-Q1""#), "kept as typed");
    let ended = b
        .post(
            &post,
            &ask(&csrf, "2025-Q1", "the bookkeeper is in hospital"),
        )
        .await;
    assert_eq!(ended.status, 422, "{}", ended.body);
    assert!(
        ended.error_at("period").contains("already passed"),
        "{}",
        ended.body
    );
    let garbled = b
        .post(
            &post,
            &ask(&csrf, "Q1 please", "the bookkeeper is in hospital"),
        )
        .await;
    assert_eq!(garbled.status, 422);
    assert!(!garbled.error_at("period").is_empty());
    // Asked.
    let asked = b
        .post(
            &post,
            &ask(&csrf, "2026-Q1", "the bookkeeper is in hospital"),
        )
        .await;
    assert_eq!(asked.status, 303, "{}", asked.body);
    assert_eq!(asked.location(), post);
    let page = b.get(&post).await;
    assert!(
        page.body.contains("the bookkeeper is in hospital") && page.body.contains("requested"),
        "{}",
        page.body
    );
    // Asked twice: one open request per return.
    let twice = b
        .post(
            &post,
            &ask(&csrf, "2026-Q1", "the bookkeeper is in hospital"),
        )
        .await;
    assert_eq!(twice.status, 422, "{}", twice.body);
    assert!(
        twice.error_at("period").contains("already requested"),
        "{}",
        twice.body
    );
    // The due list no longer offers it.
    assert!(!b.get("/app/m/montello").await.body.contains(&link));
    let op = app.token("operator@montello.demo").await;
    let api = format!("/v1/municipalities/montello/payors/{MOTEL}/extensions");
    let list: Value = app.get_as(&op, &api).await.json().await.unwrap();
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{list}");
    let ext = items[0]["id"].as_str().unwrap().to_owned();
    // The clerk's decision is the clerk's: the operator's post to the
    // clerk's page is refused and the request stays open.
    let decide = format!("/app/m/montello/clerk/extensions/{ext}");
    let refused = b
        .post(
            &decide,
            &[
                ("csrf_token", csrf.as_str()),
                ("decision", "grant"),
                ("extended_to", "2026-05-31"),
            ],
        )
        .await;
    assert!(
        matches!(refused.status.as_u16(), 403 | 404),
        "{}: {}",
        refused.status,
        refused.body
    );
    let list: Value = app.get_as(&op, &api).await.json().await.unwrap();
    assert_eq!(list["items"][0]["status"], "requested", "{list}");
    // The clerk grants it (through the API); the operator's page shows it.
    let clerk = app.token("clerk@montello.demo").await;
    let res = app
        .client
        .post(app.url(&format!(
            "/v1/municipalities/montello/extensions/{ext}/grant"
        )))
        .bearer_auth(&clerk)
        .json(&json!({"extended_to": "2026-05-31"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "{}", res.text().await.unwrap());
    let page = b.get(&post).await;
    assert!(
        page.body.contains("granted: file by 2026-05-31"),
        "{}",
        page.body
    );
    let log = app
        .get_as(&clerk, "/v1/municipalities/montello/access-log")
        .await
        .text()
        .await
        .unwrap();
    assert!(log.contains("return_extension"), "{log}");
}

#[actix_web::test]
async fn hayward_has_no_extension_and_another_payors_extensions_are_not_found() {
    let app = spawn_demo_app_at(APRIL).await;
    let mut b = Browser::new(&app);
    b.sign_in("operator@hayward.demo").await;
    let home = b.get("/app/m/hayward").await;
    assert_eq!(home.status, 200);
    assert!(!home.body.contains("extensions?period="), "{}", home.body);
    let csrf = home.csrf();
    let post = format!("{}/extensions", hayward());
    let refused = b
        .post(
            &post,
            &ask(&csrf, "2026-Q1", "the bookkeeper is in hospital"),
        )
        .await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused.error_at("period").contains("provides no extension"),
        "{}",
        refused.body
    );
    // Montello's motel is not Hayward's operator's: 404 to read and to ask.
    for m in ["montello", "hayward"] {
        let path = format!("/app/m/{m}/payors/{MOTEL}/extensions");
        assert_eq!(b.get(&path).await.status, 404, "{path}");
        let page = b
            .post(
                &path,
                &ask(&csrf, "2026-Q1", "the bookkeeper is in hospital"),
            )
            .await;
        assert_eq!(page.status, 404, "{path}");
    }
    let op = app.token("operator@montello.demo").await;
    let list: Value = app
        .get_as(
            &op,
            &format!("/v1/municipalities/montello/payors/{MOTEL}/extensions"),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["items"], json!([]), "nothing asked");
}

/// The amounts of the page's by-period table, in order.
fn amounts(page: &str) -> Vec<String> {
    let table = &page[page.find(r#"id="periods""#).expect("the periods table")..];
    let table = &table[..table.find("</table>").unwrap()];
    let re = regex::Regex::new(r#"<td class="num">([^<]*)</td>"#).unwrap();
    re.captures_iter(table).map(|c| c[1].to_owned()).collect()
}

fn contains(bytes: &[u8], needle: &str) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
}

#[actix_web::test]
async fn the_statement_as_pdf_has_the_pages_figures() {
    let app = spawn_full_demo_app().await;
    let mut b = Browser::new(&app);
    b.sign_in("operator@montello.demo").await;
    let account = format!("{}/account?as_of=2026-06-30", montello());
    let page = b.get(&account).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let pdf_path = format!("{}/account.pdf?as_of=2026-06-30", montello());
    assert!(page.body.contains(&pdf_path), "{}", page.body);
    let figures = amounts(&page.body);
    assert!(figures.len() >= 6, "{figures:?}");
    assert!(figures.iter().any(|f| f != "0.00"), "{figures:?}");
    let balance = regex::Regex::new(r#"id="balance">\$([-0-9.]+)<"#)
        .unwrap()
        .captures(&page.body)
        .expect("the balance")[1]
        .to_owned();
    let res = b
        .request(reqwest::Method::GET, &pdf_path)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()[header::CONTENT_TYPE], "application/pdf");
    assert!(
        res.headers()[header::CONTENT_DISPOSITION]
            .to_str()
            .unwrap()
            .contains("account-2026-06-30.pdf")
    );
    let bytes = res.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    for f in &figures {
        assert!(contains(&bytes, &format!("({f})")), "{f} in the PDF");
    }
    assert!(
        contains(&bytes, &format!("({balance})")),
        "balance {balance}"
    );
    assert!(contains(&bytes, "(Lakeside Motel LLC)"));
    assert!(contains(&bytes, "(As of: 2026-06-30)"));
    // Another operator's payor: 404; a date to come: refused.
    let mut other = Browser::new(&app);
    other.sign_in("operator@hayward.demo").await;
    assert_eq!(other.get(&pdf_path).await.status, 404);
    let future = b
        .get(&format!("{}/account.pdf?as_of=2099-01-01", montello()))
        .await;
    assert_eq!(future.status, 422, "{}", future.body);
}

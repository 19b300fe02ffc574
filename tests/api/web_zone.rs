//! The zone's portal pages over HTTP (issue 11 items 5, 6 and 8), as a
//! browser without JavaScript uses them: the tourism entity writes a report
//! item by item (a refused lodging item shows the API's problem next to its
//! field and nothing is stored; corrected, it is added), submits it and
//! attaches a receipt; a commission member comments and accepts; CSRF is
//! refused; a commission member reaches no municipality page (operators'
//! figures); the charts are SVG whose table matches the API's figures.
//! On SQLite and, with `ROOMTAX_TEST_DATABASE_URL`, on PostgreSQL.

use reqwest::header;
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_full_demo_app};
use crate::web_browser::{Browser, Page};

const ZONE: &str = "/app/z/marquette-county";
const TOURISM: &str = "tourism@marquette-county.demo";
const COMMISSION: &str = "commission@marquette-county.demo";
const ADMIN: &str = "admin@marquette-county.demo";

impl Page {
    /// The hidden fields of the draft (`i{n}_*` and `items`), as the page holds them.
    fn hidden_fields(&self) -> Vec<(String, String)> {
        let re = regex::Regex::new(
            r#"<input type="hidden" name="((?:i\d+_[a-z]+)|items)" value="([^"]*)""#,
        )
        .unwrap();
        re.captures_iter(&self.body)
            .map(|c| (c[1].to_owned(), html_unescape(&c[2])))
            .collect()
    }

    /// The text of the error element of `field`.
    fn error_of(&self, field: &str) -> String {
        let re = regex::Regex::new(&format!(r#"id="error-{field}">([^<]*)<"#)).unwrap();
        re.captures(&self.body)
            .map(|c| c[1].to_owned())
            .unwrap_or_default()
    }
}

fn html_unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn owned(fields: &[(&str, &str)]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// A new item's fields (for 2025, a year the demo has not reported).
fn new_item(payee: &str, amount: &str, lodging: &str) -> Vec<(String, String)> {
    owned(&[
        ("period_start", "2025-01-01"),
        ("period_end", "2025-12-31"),
        ("received_declared", "0.00"),
        ("new_date", "2025-05-12"),
        ("new_payee", payee),
        ("new_amount", amount),
        ("new_category", "marketing_projects"),
        ("new_description", "Spring campaign"),
        ("new_explanation", ""),
        ("new_lodging", lodging),
    ])
}

async fn reports_via_api(app: &TestApp, email: &str) -> Vec<Value> {
    let token = app.token(email).await;
    let res = app
        .get_as(&token, "/v1/zones/marquette-county/expenditure-reports")
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    body["items"].as_array().unwrap().clone()
}

/// File a 2025 report over the API as the tourism entity; its id.
async fn file_2025(app: &TestApp) -> String {
    let token = app.token(TOURISM).await;
    let res = app
        .client
        .post(app.url("/v1/zones/marquette-county/expenditure-reports"))
        .bearer_auth(&token)
        .json(&json!({
            "period_start": "2025-01-01", "period_end": "2025-12-31", "received_declared": "0.00",
            "items": [{"date": "2025-03-01", "payee": "Print Shop", "amount": "1500.00",
                "category": "marketing_projects", "description": "Visitor guide",
                "constructs_or_develops_lodging_facility": false}]
        }))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[actix_web::test]
async fn tourism_entity_writes_a_report_item_by_item_a_lodging_item_refused_then_corrected() {
    let app = spawn_full_demo_app().await;
    let before = reports_via_api(&app, TOURISM).await.len();
    let mut b = Browser::new(&app);
    b.sign_in(TOURISM).await;
    let home = b.get(ZONE).await;
    assert!(home.body.contains("/expenditures/new"), "{}", home.body);
    let form = b.get(&format!("{ZONE}/expenditures/new")).await;
    assert_eq!(form.status, 200);
    let csrf = form.csrf();

    // A lodging facility: the API's 409, next to the statement, nothing stored.
    let mut fields = new_item("Lakeview Hotel Builders", "25000.00", "yes");
    fields.push(("csrf_token".into(), csrf.clone()));
    fields.push(("action".into(), "add".into()));
    let refused = b
        .post_owned(&format!("{ZONE}/expenditures/new"), &fields)
        .await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert!(
        refused.error_of("new_lodging").contains("lodging facility"),
        "{}",
        refused.body
    );
    assert!(
        refused.body.contains("Lakeview Hotel Builders"),
        "kept for correction"
    );
    assert!(
        refused
            .hidden_fields()
            .iter()
            .all(|(k, _)| !k.starts_with("i0_"))
    );
    assert_eq!(reports_via_api(&app, TOURISM).await.len(), before);

    // A field's rule (a date outside the period): 422 next to the date.
    let mut late = new_item("Radio WMTL", "300.00", "no");
    late.retain(|(k, _)| k != "new_date");
    late.push(("new_date".into(), "2026-02-01".into()));
    late.push(("csrf_token".into(), csrf.clone()));
    late.push(("action".into(), "add".into()));
    let page = b
        .post_owned(&format!("{ZONE}/expenditures/new"), &late)
        .await;
    assert_eq!(page.status, 422);
    assert!(!page.error_of("new_date").is_empty(), "{}", page.body);

    // Corrected: not a lodging facility, a smaller amount: added to the draft.
    let mut fields = new_item("Marquette Print Shop", "1250.00", "no");
    fields.push(("csrf_token".into(), csrf.clone()));
    fields.push(("action".into(), "add".into()));
    let added = b
        .post_owned(&format!("{ZONE}/expenditures/new"), &fields)
        .await;
    assert_eq!(added.status, 200, "{}", added.body);
    let hidden = added.hidden_fields();
    assert!(
        hidden.contains(&("i0_payee".into(), "Marquette Print Shop".into())),
        "{hidden:?}"
    );
    assert_eq!(
        reports_via_api(&app, TOURISM).await.len(),
        before,
        "still a draft"
    );

    // Submit: the draft as the page holds it.
    let mut submit = hidden;
    submit.extend(owned(&[
        ("period_start", "2025-01-01"),
        ("period_end", "2025-12-31"),
        ("received_declared", "0.00"),
        ("action", "submit"),
    ]));
    submit.push(("csrf_token".into(), csrf.clone()));
    let done = b
        .post_owned(&format!("{ZONE}/expenditures/new"), &submit)
        .await;
    assert_eq!(done.status, 303, "{}", done.body);
    let location = done.location().to_owned();
    let id = location.rsplit('/').next().unwrap().to_owned();
    let reports = reports_via_api(&app, TOURISM).await;
    assert_eq!(reports.len(), before + 1);
    let filed = reports.iter().find(|r| r["id"] == id.as_str()).unwrap();
    assert_eq!(filed["items"].as_array().unwrap().len(), 1);
    assert_eq!(filed["items"][0]["amount"], "1250.00");
    assert_eq!(filed["status"], "submitted");

    // A receipt, uploaded as a plain file field.
    let report = b.get(&location).await;
    assert_eq!(report.status, 200);
    let pdf: &[u8] = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n";
    let no_token = b
        .post_multipart(
            &format!("{location}/attachments"),
            &[
                ("kind", None, b"receipt"),
                ("document", Some("application/pdf"), pdf),
            ],
        )
        .await;
    assert_eq!(no_token.status, 403);
    let up = b
        .post_multipart(
            &format!("{location}/attachments"),
            &[
                ("csrf_token", None, report.csrf().as_bytes()),
                ("kind", None, b"receipt"),
                ("document", Some("application/pdf"), pdf),
            ],
        )
        .await;
    assert_eq!(up.status, 303, "{}", up.body);
    let reports = reports_via_api(&app, TOURISM).await;
    let filed = reports.iter().find(|r| r["id"] == id.as_str()).unwrap();
    assert_eq!(filed["attachments"].as_array().unwrap().len(), 1);
    let shown = b.get(&location).await;
    assert!(shown.body.contains("application/pdf"), "{}", shown.body);
}

#[actix_web::test]
async fn commission_member_comments_and_accepts_and_csrf_is_refused() {
    let app = spawn_full_demo_app().await;
    let id = file_2025(&app).await;
    let mut b = Browser::new(&app);
    b.sign_in(COMMISSION).await;
    let path = format!("{ZONE}/expenditures/{id}");
    let page = b.get(&path).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Print Shop"));
    assert!(page.body.contains("Accept this version"));
    let csrf = page.csrf();

    let forged = b
        .post_owned(
            &format!("{path}/review"),
            &owned(&[("act", "accept"), ("item", ""), ("text", "")]),
        )
        .await;
    assert_eq!(forged.status, 403);
    let reports = reports_via_api(&app, COMMISSION).await;
    let r = reports.iter().find(|r| r["id"] == id.as_str()).unwrap();
    assert_eq!(
        r["status"], "submitted",
        "nothing recorded without the token"
    );

    // A return needs its reason: the API's problem next to the text field.
    let no_reason = b
        .post_owned(
            &format!("{path}/review"),
            &owned(&[
                ("csrf_token", &csrf),
                ("act", "return"),
                ("item", ""),
                ("text", ""),
            ]),
        )
        .await;
    assert_eq!(no_reason.status, 422, "{}", no_reason.body);
    assert!(!no_reason.error_of("text").is_empty(), "{}", no_reason.body);

    let comment = b
        .post_owned(
            &format!("{path}/review"),
            &owned(&[
                ("csrf_token", &csrf),
                ("act", "comment"),
                ("item", "1"),
                ("text", "Good value"),
            ]),
        )
        .await;
    assert_eq!(comment.status, 303, "{}", comment.body);
    let accept = b
        .post_owned(
            &format!("{path}/review"),
            &owned(&[
                ("csrf_token", &csrf),
                ("act", "accept"),
                ("item", ""),
                ("text", ""),
            ]),
        )
        .await;
    assert_eq!(accept.status, 303, "{}", accept.body);
    let reports = reports_via_api(&app, COMMISSION).await;
    let r = reports.iter().find(|r| r["id"] == id.as_str()).unwrap();
    assert_eq!(r["status"], "accepted");
    let acts: Vec<&str> = r["review"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["act"].as_str().unwrap())
        .collect();
    assert_eq!(acts, ["comment", "accept"]);
    let shown = b.get(&path).await;
    assert!(shown.body.contains("Good value"));
    assert!(!shown.body.contains("Accept this version"), "decided once");

    // The tourism entity has no review form and may not act.
    let mut t = Browser::new(&app);
    t.sign_in(TOURISM).await;
    let page = t.get(&path).await;
    assert!(!page.body.contains("Accept this version"));
    let refused = t
        .post_owned(
            &format!("{path}/review"),
            &owned(&[
                ("csrf_token", &page.csrf()),
                ("act", "comment"),
                ("text", "x"),
            ]),
        )
        .await;
    assert_eq!(refused.status, 403);
}

#[actix_web::test]
async fn commission_member_reaches_no_operator_figures_through_any_page() {
    let app = spawn_full_demo_app().await;
    let mut b = Browser::new(&app);
    b.sign_in(COMMISSION).await;
    for path in [
        "/app/m/montello",
        "/app/m/hayward",
        "/app/m/montello/obligations",
        "/app/m/montello/payors",
        "/app/m/montello/returns",
    ] {
        let page = b.get(path).await;
        assert!(
            page.status == 403 || page.status == 404,
            "{path}: {}",
            page.status
        );
        assert!(!page.body.contains("Lakeside"), "{path}");
    }
    for path in [
        ZONE.to_owned(),
        format!("{ZONE}/remittances?year=2026"),
        format!("{ZONE}/expenditures"),
        format!("{ZONE}/charts?year=2026"),
        format!("{ZONE}/report-back/montello?year=2026"),
        format!("{ZONE}/sl-304/montello?year=2026"),
    ] {
        let page = b.get(&path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        for name in ["Lakeside", "Buffalo Lake", "Northwoods"] {
            assert!(!page.body.contains(name), "{path} names an operator");
        }
    }
    // A member that is not one: 404; the zone admin may not read the reports (as the API).
    assert_eq!(b.get(&format!("{ZONE}/sl-304/hayward")).await.status, 404);
    let mut admin = Browser::new(&app);
    admin.sign_in(ADMIN).await;
    assert_eq!(admin.get(&format!("{ZONE}/expenditures")).await.status, 403);
    assert_eq!(admin.get(&format!("{ZONE}/remittances")).await.status, 200);
    assert_eq!(
        admin
            .get(&format!("{ZONE}/charts/spending.svg"))
            .await
            .status,
        403
    );
    // Signed out: the sign-in page.
    let mut anon = Browser::new(&app);
    let page = anon.get(&format!("{ZONE}/remittances")).await;
    assert_eq!(page.status, 303);
    assert_eq!(page.location(), "/app/sign-in");
}

#[actix_web::test]
async fn charts_are_svg_and_their_table_matches_the_api() {
    let app = spawn_full_demo_app().await;
    let mut b = Browser::new(&app);
    b.sign_in(COMMISSION).await;
    let svg = b
        .get(&format!("{ZONE}/charts/collections.svg?year=2026"))
        .await;
    assert_eq!(svg.status, 200);
    assert!(
        svg.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("image/svg+xml")
    );
    assert!(svg.body.contains("<title>") && svg.body.contains("aria-label="));
    assert!(
        !svg.body.contains("style"),
        "no style attribute under the CSP"
    );
    let spending = b
        .get(&format!("{ZONE}/charts/spending.svg?year=2026"))
        .await;
    assert_eq!(spending.status, 200);

    let token = app.token(COMMISSION).await;
    let api: Value = app
        .get_as(&token, "/v1/zones/marquette-county/remittances?year=2026")
        .await
        .json()
        .await
        .unwrap();
    let page = b.get(&format!("{ZONE}/charts?year=2026")).await;
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains(&format!("src=\"{ZONE}/charts/collections.svg?year=2026\""))
    );
    let mut seen = 0;
    for q in api["items"].as_array().unwrap() {
        let tax = q["tax_collected"].as_str().unwrap_or("0.00");
        // The row of the quarter in the table, its member's column.
        let row = format!(
            "<th scope=\"row\">{}</th><td class=\"num\">{tax}</td>",
            q["period"].as_str().unwrap()
        );
        assert!(page.body.contains(&row), "{row} not in {}", page.body);
        assert!(svg.body.contains(&format!(">{tax}<")), "{tax} not drawn");
        seen += 1;
    }
    assert_eq!(seen, 4, "four quarters of one member");
    assert!(
        api["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|q| q["tax_collected"].as_str().is_some_and(|t| t != "0.00")),
        "the demo has collections to draw"
    );
}

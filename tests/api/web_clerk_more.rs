//! The rest of the clerk's pages over HTTP (issue 11 item 4): a
//! determination made through the form with its letter's PDF, disclosures
//! recorded, refused next to their fields and revoked, a remittance
//! previewed, submitted and its transfer recorded, the navigation that
//! links only what the role opens, and the payor registry's and the
//! disclosures' pages. Each with its CSRF refusal, staff against the
//! clerk-treasurer, and another municipality's clerk kept out. On SQLite
//! and, with `ROOMTAX_TEST_DATABASE_URL`, on PostgreSQL.

use serde_json::Value;

use crate::helpers::{TestApp, spawn_demo_app, spawn_demo_app_at};
use crate::web_browser::{Browser, Page};

const M: &str = "/app/m/montello/clerk";
const CAMPGROUND: &str = "5b0c8c1e-0000-4000-8000-000000000002";
const API: &str = "/v1/municipalities/montello";

async fn api_json(app: &TestApp, token: &str, path: &str) -> Value {
    let res = app.get_as(token, path).await;
    assert_eq!(res.status(), 200, "{path}");
    res.json().await.unwrap()
}

/// A CSRF token of this browser's session (from its home page, which every
/// signed-in person may open).
async fn csrf_of(b: &mut Browser<'_>) -> String {
    let home = b.get("/app/").await;
    let home = if home.status == 303 {
        b.get(home.location()).await
    } else {
        home
    };
    home.csrf()
}

fn owned(fields: &[(&str, &str)]) -> Vec<(String, String)> {
    fields
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

impl Page {
    /// The `value` of the first input named `name` after `marker` in the body.
    fn hidden_after(&self, marker: &str, name: &str) -> String {
        let at = self
            .body
            .find(marker)
            .unwrap_or_else(|| panic!("no {marker} in {}", self.body));
        let re = regex::Regex::new(&format!(r#"name="{name}" value="([^"]+)""#)).unwrap();
        re.captures(&self.body[at..])
            .unwrap_or_else(|| panic!("no {name} after {marker}"))[1]
            .to_owned()
    }
}

#[actix_web::test]
async fn the_navigation_links_only_the_pages_the_role_opens() {
    let app = spawn_demo_app().await;
    let clerk_only = [
        format!(r#"href="{M}/users""#),
        format!(r#"href="{M}/access-log""#),
        format!(r#"href="{M}/disclosures""#),
    ];
    let mut staff = Browser::new(&app);
    staff.sign_in("staff@montello.demo").await;
    let mut clerk = Browser::new(&app);
    clerk.sign_in("clerk@montello.demo").await;
    for path in [
        M.to_owned(),
        format!("{M}/payors"),
        format!("{M}/payors/{CAMPGROUND}"),
        format!("{M}/payors/{CAMPGROUND}/notices"),
        format!("{M}/remittances"),
        format!("{M}/extensions"),
    ] {
        let s = staff.get(&path).await;
        assert_eq!(s.status, 200, "staff {path}: {}", s.body);
        assert!(s.body.contains(&format!(r#"href="{M}/payors""#)), "{path}");
        let c = clerk.get(&path).await;
        assert_eq!(c.status, 200, "clerk {path}: {}", c.body);
        for link in &clerk_only {
            assert!(
                !s.body.contains(link.as_str()),
                "staff see {link} on {path}"
            );
            assert!(
                c.body.contains(link.as_str()),
                "clerk misses {link} on {path}"
            );
        }
    }
    // The links staff do not see are the pages that refuse them.
    for rest in ["/users", "/access-log", "/disclosures"] {
        assert_eq!(staff.get(&format!("{M}{rest}")).await.status, 403, "{rest}");
        assert_eq!(clerk.get(&format!("{M}{rest}")).await.status, 200, "{rest}");
    }
    // On the clerk-treasurer's own pages the menu is the clerk's too.
    let users = clerk.get(&format!("{M}/users")).await;
    assert!(users.body.contains(&format!(r#"href="{M}/disclosures""#)));
}

#[actix_web::test]
async fn a_determination_made_through_the_form_with_its_letter_as_the_api_sends_it() {
    let app = spawn_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let list = format!("{API}/payors/{CAMPGROUND}/determinations");
    let notices = format!("{M}/payors/{CAMPGROUND}/notices");
    let action = format!("{M}/payors/{CAMPGROUND}/determinations");
    let count = |v: &Value| v["items"].as_array().unwrap().len();
    assert_eq!(count(&api_json(&app, &token, &list).await), 0);
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    let page = b.get(&notices).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Make a determination"));
    let key = page.hidden("idempotency_key");
    let csrf = page.csrf();
    let form = |receipts: &str, basis: &str| {
        owned(&[
            ("csrf_token", &csrf),
            ("idempotency_key", &key),
            ("kind", "non_filer_estimate"),
            ("period", "2025-Q4"),
            ("determined_on", ""),
            ("basis", basis),
            ("gross_receipts", ""),
            ("exempt_receipts", ""),
            ("tax_found", ""),
            ("estimated_receipts", receipts),
        ])
    };
    // Refused: each problem next to its field, nothing made.
    let refused = b.post_owned(&action, &form("ten thousand", "")).await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused
            .body
            .contains(r#"id="error-estimated_receipts">enter an amount"#),
        "{}",
        refused.body
    );
    let refused = b.post_owned(&action, &form("10000.00", "")).await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        regex::Regex::new(r#"id="error-basis">[^<]+<"#)
            .unwrap()
            .is_match(&refused.body),
        "the use case's basis rule next to the field: {}",
        refused.body
    );
    assert_eq!(count(&api_json(&app, &token, &list).await), 0);
    // Without the CSRF token: refused before anything.
    let mut no_csrf = form("10000.00", "No return filed; estimated from 2025-Q3.");
    no_csrf.remove(0);
    let res = b.post_owned(&action, &no_csrf).await;
    assert_eq!(res.status, 403, "{}", res.body);
    assert!(res.body.contains("csrf_token_invalid"));
    assert_eq!(count(&api_json(&app, &token, &list).await), 0);
    // Made: 303 to the page, at the determination.
    let fields = form("10000.00", "No return filed; estimated from 2025-Q3.");
    let made = b.post_owned(&action, &fields).await;
    assert_eq!(made.status, 303, "{}", made.body);
    let api = api_json(&app, &token, &list).await;
    assert_eq!(count(&api), 1);
    let d = &api["items"][0];
    let id = d["id"].as_str().unwrap();
    assert_eq!(made.location(), format!("{notices}#determination-{id}"));
    assert_eq!(d["kind"], "non_filer_estimate");
    assert_eq!(d["charges"]["tax"], "450.00", "4.5 % of 10,000.00");
    assert_eq!(d["charges"]["estimate_penalty"], "45.00");
    // Sent again (a double click): the same determination, nothing more.
    let again = b.post_owned(&action, &fields).await;
    assert_eq!(again.status, 303);
    assert_eq!(again.location(), made.location());
    assert_eq!(count(&api_json(&app, &token, &list).await), 1);
    // The page shows it, with its letter: the notice's PDF, as the API sends it.
    let page = b.get(&notices).await;
    assert!(page.body.contains(&format!(r#"id="determination-{id}""#)));
    assert!(page.body.contains("non filer estimate"));
    assert!(page.body.contains("450.00"));
    let notice = d["notice_id"].as_str().unwrap();
    let letter = format!("{M}/payors/{CAMPGROUND}/notices/{notice}/document");
    assert!(page.body.contains(&letter), "{}", page.body);
    let pdf = b.get(&letter).await;
    assert_eq!(pdf.status, 200);
    assert_eq!(pdf.headers["content-type"], "application/pdf");
    let from_api = app
        .get_as(
            &token,
            &format!("{API}/payors/{CAMPGROUND}/notices/{notice}/document"),
        )
        .await;
    assert_eq!(pdf.body, from_api.text().await.unwrap());
    // The municipality's register of determinations links the payor and the letter.
    let all = b.get(&format!("{M}/determinations")).await;
    assert_eq!(all.status, 200, "{}", all.body);
    assert!(all.body.contains(&format!(r#"id="determination-{id}""#)));
    assert!(all.body.contains(&letter));
    assert!(all.body.contains(&format!(r#"href="{notices}""#)));
    // Staff read determinations but do not make them: no form, and 403.
    let mut staff = Browser::new(&app);
    staff.sign_in("staff@montello.demo").await;
    let page = staff.get(&notices).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains(&format!(r#"id="determination-{id}""#)));
    assert!(!page.body.contains("Make a determination"));
    let all = staff.get(&format!("{M}/determinations")).await;
    assert_eq!(all.status, 200, "{}", all.body);
    assert!(all.body.contains(&format!(r#"id="determination-{id}""#)));
    let mut theirs = fields.clone();
    theirs[0].1 = page.csrf();
    theirs[1].1 = "staff-key-1".into();
    let res = staff.post_owned(&action, &theirs).await;
    assert_eq!(res.status, 403, "{}", res.body);
    // Another municipality's clerk: 404, the page and the form.
    let mut hayward = Browser::new(&app);
    hayward.sign_in("clerk@hayward.demo").await;
    theirs[0].1 = csrf_of(&mut hayward).await;
    assert_eq!(hayward.get(&notices).await.status, 404);
    assert_eq!(hayward.get(&letter).await.status, 404);
    assert_eq!(
        hayward.get(&format!("{M}/determinations")).await.status,
        404
    );
    let mut operator = Browser::new(&app);
    operator.sign_in("operator@montello.demo").await;
    assert_eq!(
        operator.get(&format!("{M}/determinations")).await.status,
        403
    );
    let res = hayward.post_owned(&action, &theirs).await;
    assert_eq!(res.status, 404, "{}", res.body);
    assert_eq!(count(&api_json(&app, &token, &list).await), 1);
}

async fn api_disclosures(app: &TestApp, token: &str) -> Vec<Value> {
    api_json(app, token, &format!("{API}/disclosures"))
        .await
        .get("items")
        .and_then(Value::as_array)
        .cloned()
        .unwrap()
}

#[actix_web::test]
async fn disclosures_recorded_refused_by_field_and_revoked_through_the_form() {
    let app = spawn_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    let path = format!("{M}/disclosures");
    let page = b.get(&path).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("No disclosure has been recorded."));
    let csrf = page.csrf();
    let until = (chrono::Utc::now().date_naive() + chrono::Duration::days(30)).to_string();
    // Refused: every problem next to its field, nothing recorded.
    let bad = b
        .post(
            &path,
            &[
                ("csrf_token", &csrf),
                ("reference", ""),
                ("basis", "court_order"),
                ("grantee_email", "nobody@example.invalid"),
                ("payor_ids", &format!("{CAMPGROUND}, no-such-payor")),
                ("expires_at", "2020-01-01"),
            ],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    for field in ["reference", "expires_at"] {
        assert!(
            regex::Regex::new(&format!(r#"id="error-{field}">[^<]+<"#))
                .unwrap()
                .is_match(&bad.body),
            "{field}: {}",
            bad.body
        );
    }
    // The grantee and the payors (judged by the database once the terms are valid).
    let bad = b
        .post(
            &path,
            &[
                ("csrf_token", &csrf),
                ("reference", "Marquette County Circuit Court 2026CV000123"),
                ("basis", "court_order"),
                ("grantee_email", "nobody@example.invalid"),
                ("payor_ids", &format!("{CAMPGROUND} no-such-payor")),
                ("expires_at", &until),
            ],
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(
        bad.body
            .contains(r#"id="error-grantee_email">no user has this email"#),
        "{}",
        bad.body
    );
    assert!(
        bad.body
            .contains(r#"id="error-payor_ids">payor 2 (no-such-payor): no such payor"#),
        "{}",
        bad.body
    );
    assert!(api_disclosures(&app, &token).await.is_empty());
    // Without the CSRF token: refused.
    let good = [
        ("reference", "Marquette County Circuit Court 2026CV000123"),
        ("basis", "court_order"),
        ("grantee_email", "operator@hayward.demo"),
        ("payor_ids", CAMPGROUND),
        ("expires_at", until.as_str()),
    ];
    let res = b.post(&path, &good).await;
    assert_eq!(res.status, 403);
    assert!(api_disclosures(&app, &token).await.is_empty());
    // Recorded.
    let mut with_csrf = vec![("csrf_token", csrf.as_str())];
    with_csrf.extend_from_slice(&good);
    let done = b.post(&path, &with_csrf).await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(done.location(), path);
    let items = api_disclosures(&app, &token).await;
    assert_eq!(items.len(), 1);
    let d = &items[0];
    assert_eq!(d["active"], true);
    assert_eq!(d["basis"], "court_order");
    assert_eq!(d["grantee"]["email"], "operator@hayward.demo");
    assert_eq!(d["payor_ids"][0], CAMPGROUND);
    // The end of that local day in Wisconsin (UTC−6 or −5): early the next day in UTC.
    let next_day = (chrono::NaiveDate::parse_from_str(&until, "%Y-%m-%d").unwrap()
        + chrono::Duration::days(1))
    .to_string();
    let expires = d["expires_at"].as_str().unwrap();
    assert!(
        expires.starts_with(&format!("{next_day}T05:59:59"))
            || expires.starts_with(&format!("{next_day}T04:59:59")),
        "the end of the local day {until}: {expires}"
    );
    let id = d["id"].as_str().unwrap();
    let page = b.get(&path).await;
    assert!(page.body.contains(&format!(r#"id="disclosure-{id}""#)));
    assert!(page.body.contains("2026CV000123"));
    // Staff and another municipality's clerk cannot see, record or revoke.
    let revoke = format!("{path}/{id}/revoke");
    for (email, status) in [("staff@montello.demo", 403), ("clerk@hayward.demo", 404)] {
        let mut other = Browser::new(&app);
        other.sign_in(email).await;
        let csrf = csrf_of(&mut other).await;
        let page = other.get(&path).await;
        assert_eq!(page.status.as_u16(), status, "{email}");
        assert!(!page.body.contains("2026CV000123"), "{email}");
        let mut fields = vec![("csrf_token", csrf.as_str())];
        fields.extend_from_slice(&good);
        let res = other.post(&path, &fields).await;
        assert_eq!(res.status.as_u16(), status, "{email}: {}", res.body);
        let res = other.post(&revoke, &[("csrf_token", &csrf)]).await;
        assert_eq!(res.status.as_u16(), status, "{email}: {}", res.body);
    }
    assert_eq!(api_disclosures(&app, &token).await.len(), 1);
    assert_eq!(api_disclosures(&app, &token).await[0]["active"], true);
    // Revoking without the token is refused; with it, revoked.
    assert_eq!(b.post(&revoke, &[]).await.status, 403);
    let res = b.post(&revoke, &[("csrf_token", &csrf)]).await;
    assert_eq!(res.status, 303, "{}", res.body);
    assert_eq!(api_disclosures(&app, &token).await[0]["active"], false);
    let page = b.get(&path).await;
    assert!(page.body.contains("revoked "), "{}", page.body);
    assert!(!page.body.contains(&revoke));
}

#[actix_web::test]
async fn lists_page_with_the_apis_limit_and_cursor_forward_and_back() {
    let app = spawn_demo_app().await;
    let token = app.token("clerk@montello.demo").await;
    let api = api_json(&app, &token, &format!("{API}/payors?limit=200")).await;
    let mut names: Vec<String> = api["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["legal_name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 2, "{names:?}");
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    // One payor a page: each page the next payor, in the API's order.
    let mut path = format!("{M}/payors?limit=1");
    let mut seen = Vec::new();
    let mut pages = Vec::new();
    let next_re = regex::Regex::new(r#"rel="next" href="([^"]+)""#).unwrap();
    loop {
        let page = b.get(&path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        let shown: Vec<&String> = names
            .iter()
            .filter(|n| page.body.contains(n.as_str()))
            .collect();
        assert_eq!(
            page.body.contains(r#"rel="prev""#),
            !pages.is_empty(),
            "{path}"
        );
        pages.push(path.clone());
        if shown.is_empty() {
            // A full last page links to an empty one (keyset cursors cannot know).
            assert!(page.body.contains("No payor matches."), "{path}");
            assert!(!page.body.contains(r#"rel="next""#), "{path}");
            break;
        }
        assert_eq!(shown.len(), 1, "{path}: {shown:?}");
        seen.push(shown[0].clone());
        let next = next_re
            .captures(&page.body)
            .map(|c| c[1].replace("&amp;", "&"));
        match next {
            Some(n) => path = n,
            None => break,
        }
        assert!(pages.len() <= names.len() + 1, "the pages end");
    }
    seen.sort();
    assert_eq!(seen, names, "every payor once");
    // Previous from the last page is the page before it.
    let last = b.get(pages.last().unwrap()).await;
    let prev = regex::Regex::new(r#"rel="prev" href="([^"]+)""#)
        .unwrap()
        .captures(&last.body)
        .map(|c| c[1].replace("&amp;", "&"))
        .expect("a previous link");
    assert_eq!(prev, pages[pages.len() - 2]);
    // The API's bounds.
    for bad in ["0", "201", "many"] {
        let page = b.get(&format!("{M}/payors?limit={bad}")).await;
        assert_eq!(page.status, 422, "limit={bad}: {}", page.body);
    }
    // Without a limit: every demo payor on one page, no links.
    let page = b.get(&format!("{M}/payors")).await;
    assert!(names.iter().all(|n| page.body.contains(n.as_str())));
    assert!(!page.body.contains(r#"rel="next""#));
    // The returns of a period: one payor a page with the API's cursor, every one once.
    let api = api_json(
        &app,
        &token,
        &format!("{API}/returns?period=2025-Q4&limit=200"),
    )
    .await;
    let owing = api["items"].as_array().unwrap().len();
    assert!(owing >= 2, "{api}");
    let mut path = format!("{M}/returns?period=2025-Q4&limit=1");
    let mut rows = 0;
    for _ in 0..=owing {
        let page = b.get(&path).await;
        assert_eq!(page.status, 200, "{path}: {}", page.body);
        assert!(page.body.contains("Returns of 2025-Q4"));
        rows += page.body.matches(r#"<th scope="row">"#).count();
        match next_re.captures(&page.body) {
            Some(c) => {
                let next = c[1].replace("&amp;", "&");
                assert!(
                    next.contains("period=2025-Q4") && next.contains("cursor="),
                    "{next}"
                );
                path = next;
            }
            None => break,
        }
    }
    assert_eq!(rows, owing, "every payor's return of the period once");
    // The access log: the API's page size and cursor (the pages above were logged).
    let log = b.get(&format!("{M}/access-log?limit=2")).await;
    assert_eq!(log.status, 200, "{}", log.body);
    assert_eq!(log.body.matches(r#"<th scope="row">"#).count(), 2);
    let next = regex::Regex::new(r#"rel="next" href="([^"]+)""#)
        .unwrap()
        .captures(&log.body)
        .map(|c| c[1].replace("&amp;", "&"))
        .expect("a next page of the log");
    assert!(
        next.contains("cursor=") && next.contains("limit=2"),
        "{next}"
    );
    let second = b.get(&next).await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(second.body.matches(r#"<th scope="row">"#).count(), 2);
    assert!(second.body.contains(r#"rel="prev""#));
    assert_ne!(log.body, second.body);
    // The limit on the disclosures' page too, with the API's cursor.
    let csrf = page.csrf();
    let until = (chrono::Utc::now().date_naive() + chrono::Duration::days(30)).to_string();
    for reference in ["Order A-1", "Order B-2"] {
        let res = b
            .post(
                &format!("{M}/disclosures"),
                &[
                    ("csrf_token", &csrf),
                    ("reference", reference),
                    ("basis", "legal_duty"),
                    ("grantee_email", "operator@hayward.demo"),
                    ("payor_ids", CAMPGROUND),
                    ("expires_at", &until),
                ],
            )
            .await;
        assert_eq!(res.status, 303, "{}", res.body);
    }
    let first = b.get(&format!("{M}/disclosures?limit=1")).await;
    assert!(first.body.contains("Order B-2"), "newest first");
    assert!(!first.body.contains("Order A-1"));
    let next = regex::Regex::new(r#"rel="next" href="([^"]+)""#)
        .unwrap()
        .captures(&first.body)
        .map(|c| c[1].replace("&amp;", "&"))
        .expect("a next link");
    assert!(next.contains("cursor="), "{next}");
    let second = b.get(&next).await;
    assert_eq!(second.status, 200, "{}", second.body);
    assert!(second.body.contains("Order A-1"));
    assert!(!second.body.contains("Order B-2"));
    assert!(second.body.contains(r#"rel="prev""#));
}

/// Montello's 2026-Q3 as the API's year view shows it.
async fn year(app: &TestApp, token: &str) -> Value {
    api_json(app, token, &format!("{API}/remittances?year=2026")).await["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["period"] == "2026-Q3")
        .cloned()
        .unwrap()
}

#[actix_web::test]
async fn a_remittance_previewed_submitted_and_its_transfer_recorded_through_the_forms() {
    let app = spawn_demo_app_at("2026-11-20T15:00:00Z").await;
    let token = app.token("clerk@montello.demo").await;
    assert_eq!(year(&app, &token).await["status"], "due");
    let mut b = Browser::new(&app);
    b.sign_in("clerk@montello.demo").await;
    // Tax received in 2026-Q3: a payment received in August.
    let payor = b.get(&format!("{M}/payors/{CAMPGROUND}")).await;
    let paid = b
        .post(
            &format!("{M}/payors/{CAMPGROUND}/payments"),
            &[
                ("csrf_token", &payor.csrf()),
                ("idempotency_key", &payor.hidden("idempotency_key")),
                ("received_on", "2026-08-10"),
                ("amount", "200.00"),
                ("method", "check"),
                ("reference", "check 501"),
            ],
        )
        .await;
    assert_eq!(paid.status, 303, "{}", paid.body);
    // The list offers the preview of each ended quarter.
    let list = b.get(&format!("{M}/remittances?year=2026")).await;
    assert_eq!(list.status, 200, "{}", list.body);
    let preview_path = format!("{M}/remittances/submit?period=2026-Q3");
    assert!(
        list.body.contains(&preview_path.replace('&', "&amp;")),
        "{}",
        list.body
    );
    assert!(
        !list.body.contains("submit?period=2026-Q4"),
        "Q4 has not ended"
    );
    // The preview: the API's figures.
    let preview = b.get(&preview_path).await;
    assert_eq!(preview.status, 200, "{}", preview.body);
    let api = api_json(
        &app,
        &token,
        &format!("{API}/remittances/preview?period=2026-Q3"),
    )
    .await;
    assert_ne!(api["tax_collected"], "0.00");
    for (id, field) in [
        ("preview-tax", "tax_collected"),
        ("preview-retained", "retained"),
        ("preview-difference", "commission_difference"),
    ] {
        assert!(
            preview
                .body
                .contains(&format!(r#"id="{id}">{}<"#, api[field].as_str().unwrap())),
            "{id}: {}",
            preview.body
        );
    }
    let submit = vec![
        (
            "idempotency_key".to_owned(),
            preview.hidden("idempotency_key"),
        ),
        ("period".to_owned(), "2026-Q3".to_owned()),
    ];
    // Without the CSRF token: refused, nothing submitted.
    let res = b.post_owned(&format!("{M}/remittances"), &submit).await;
    assert_eq!(res.status, 403);
    assert_eq!(year(&app, &token).await["status"], "due");
    // A quarter not ended: refused next to the period.
    let early = b
        .post(
            &format!("{M}/remittances"),
            &[
                ("csrf_token", &preview.csrf()),
                ("idempotency_key", "early-1"),
                ("period", "2026-Q4"),
            ],
        )
        .await;
    assert_eq!(early.status, 422, "{}", early.body);
    assert!(
        early.body.contains("not_ended") || early.body.contains("ends on"),
        "{}",
        early.body
    );
    // Submitted: back to the year, at the quarter.
    let mut fields = owned(&[("csrf_token", &preview.csrf())]);
    fields.extend(submit.iter().cloned());
    let done = b.post_owned(&format!("{M}/remittances"), &fields).await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(
        done.location(),
        format!("{M}/remittances?year=2026#remittance-2026-Q3")
    );
    let q = year(&app, &token).await;
    assert_eq!(q["status"], "submitted");
    assert_eq!(q["commission"], api["commission"]);
    assert_eq!(q["version"], 1);
    // Again (a double click): the same version.
    let again = b.post_owned(&format!("{M}/remittances"), &fields).await;
    assert_eq!(again.status, 303);
    assert_eq!(year(&app, &token).await["version"], 1);
    // Staff see the quarter but neither the submit nor the transfer form, and get 403.
    let mut staff = Browser::new(&app);
    staff.sign_in("staff@montello.demo").await;
    let page = staff.get(&format!("{M}/remittances?year=2026")).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains(r#"id="remittance-2026-Q3""#));
    assert!(!page.body.contains("Record the transfer"));
    assert!(!page.body.contains("/remittances/submit"));
    assert_eq!(staff.get(&preview_path).await.status, 403);
    let staff_csrf = page.csrf();
    let res = staff
        .post(
            &format!("{M}/remittances"),
            &[("csrf_token", &staff_csrf), ("period", "2026-Q3")],
        )
        .await;
    assert_eq!(res.status, 403, "{}", res.body);
    // The transfer of the outstanding share, from the list.
    let list = b.get(&format!("{M}/remittances?year=2026")).await;
    let remittance = q["remittance_id"].as_str().unwrap();
    let transfer = format!("{M}/remittances/{remittance}/transfer");
    assert!(list.body.contains(&transfer), "{}", list.body);
    let key = list.hidden_after(&transfer, "idempotency_key");
    let csrf = list.csrf();
    let form = |paid_on: &str| {
        owned(&[
            ("csrf_token", &csrf),
            ("idempotency_key", &key),
            ("year", "2026"),
            ("paid_on", paid_on),
            ("method", "check"),
            ("reference", "check 9001"),
        ])
    };
    // Before the submission: refused next to the date.
    let refused = b.post_owned(&transfer, &form("2026-11-01")).await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused
            .body
            .contains(r#"id="error-paid_on">must not be before the version was submitted"#),
        "{}",
        refused.body
    );
    assert_eq!(year(&app, &token).await["transferred"], "0.00");
    // Staff and Hayward's clerk may not record it.
    let mut staff_form = form("2026-11-20");
    staff_form[0].1 = staff_csrf.clone();
    staff_form[1].1 = "staff-transfer".into();
    assert_eq!(staff.post_owned(&transfer, &staff_form).await.status, 403);
    let mut hayward = Browser::new(&app);
    hayward.sign_in("clerk@hayward.demo").await;
    staff_form[0].1 = csrf_of(&mut hayward).await;
    assert_eq!(hayward.post_owned(&transfer, &staff_form).await.status, 404);
    assert_eq!(hayward.get(&preview_path).await.status, 404);
    assert_eq!(
        hayward
            .get(&format!("{M}/remittances?year=2026"))
            .await
            .status,
        404
    );
    // Without the CSRF token.
    let mut no_csrf = form("2026-11-20");
    no_csrf.remove(0);
    assert_eq!(b.post_owned(&transfer, &no_csrf).await.status, 403);
    assert_eq!(year(&app, &token).await["transferred"], "0.00");
    // Recorded: the whole outstanding share; sent again, once.
    let done = b.post_owned(&transfer, &form("2026-11-20")).await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(
        done.location(),
        format!("{M}/remittances?year=2026#remittance-2026-Q3")
    );
    let again = b.post_owned(&transfer, &form("2026-11-20")).await;
    assert_eq!(again.status, 303, "{}", again.body);
    let q = year(&app, &token).await;
    assert_eq!(q["status"], "paid");
    assert_eq!(q["transferred"], api["commission"]);
    assert_eq!(q["outstanding"], "0.00");
    let list = b.get(&format!("{M}/remittances?year=2026")).await;
    assert!(!list.body.contains(&transfer), "nothing left to transfer");
}

//! The zone's portal pages of issue 11 items 5 and 6 (the remainder), as a
//! browser without JavaScript uses them: the tourism entity corrects a
//! returned report item by item (errors by item and field; the summed lines
//! and impact measures carried over) and answers the commission's question;
//! a member's clerk-treasurer requests an inspection and the tourism entity
//! answers it; the zone admin keeps the roster, invites a municipality
//! whose clerk-treasurer accepts on their own side (each side refused the
//! other's act), and reads the zone's access log. Every new POST refuses a
//! missing CSRF token and a role without the act; a commission member
//! reaches no operator's figures and no admin page.
//! On SQLite and, with `ROOMTAX_TEST_DATABASE_URL`, on PostgreSQL.

use serde_json::{Value, json};

use crate::admin::members::{PASSWORD, municipality_with_clerk};
use crate::expenditures::{REPORTS, app, file, get, pdf, post, report_2026};
use crate::helpers::TestApp;
use crate::web_browser::{Browser, Page};

const ZONE: &str = "/app/z/marquette-county";
const TOURISM: &str = "tourism@marquette-county.demo";
const COMMISSION: &str = "commission@marquette-county.demo";
const ADMIN: &str = "admin@marquette-county.demo";
const CLERK: &str = "clerk@montello.demo";
const HAYWARD_CLERK: &str = "clerk@hayward.demo";

impl Page {
    /// The text of the error element of `field` ("" when none or empty).
    fn error_text(&self, field: &str) -> String {
        let re = regex::Regex::new(&format!(r#"id="error-{field}">([^<]*)<"#)).unwrap();
        re.captures(&self.body)
            .map(|c| c[1].to_owned())
            .unwrap_or_default()
    }

    /// Every text or hidden `<input ... name="n" value="v">` of the page, in
    /// order (the form as a browser sends it back, radios left to the test).
    fn inputs(&self) -> Vec<(String, String)> {
        let tag = regex::Regex::new(r#"<input[^>]*>"#).unwrap();
        let pair = regex::Regex::new(r#" name="([^"]+)"[^>]* value="([^"]*)""#).unwrap();
        tag.find_iter(&self.body)
            .map(|t| t.as_str())
            .filter(|t| !t.contains(r#"type="radio""#) && !t.contains(r#"type="checkbox""#))
            .filter_map(|t| pair.captures(t))
            .map(|c| (c[1].to_owned(), unescape(&c[2])))
            .collect()
    }
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

impl Browser<'_> {
    /// Sign in through the form with an account's own password.
    async fn sign_in_with(&mut self, email: &str, password: &str) {
        let form = self.get("/app/sign-in").await;
        let page = self
            .post(
                "/app/sign-in",
                &[
                    ("csrf_token", &form.csrf()),
                    ("email", email),
                    ("password", password),
                ],
            )
            .await;
        assert_eq!(page.status, 303, "sign-in of {email}: {}", page.body);
    }
}

/// `fields` with `name` set to `value` (replaced or added).
fn with(mut fields: Vec<(String, String)>, name: &str, value: &str) -> Vec<(String, String)> {
    match fields.iter_mut().find(|(k, _)| k == name) {
        Some(f) => f.1 = value.to_owned(),
        None => fields.push((name.to_owned(), value.to_owned())),
    }
    fields
}

fn without(fields: &[(String, String)], name: &str) -> Vec<(String, String)> {
    fields.iter().filter(|(k, _)| k != name).cloned().collect()
}

async fn report(app: &TestApp, id: &str) -> Value {
    get(app, COMMISSION, &format!("{REPORTS}/{id}"))
        .await
        .json()
        .await
        .unwrap()
}

async fn signed_in<'a>(app: &'a TestApp, email: &str) -> Browser<'a> {
    let mut b = Browser::new(app);
    b.sign_in(email).await;
    b
}

#[actix_web::test]
async fn tourism_entity_corrects_a_returned_report_item_by_item() {
    let app = app().await;
    let id = file(&app, report_2026()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("{ZONE}/expenditures/{id}");
    let mut t = signed_in(&app, TOURISM).await;
    // Not returned yet: no link to correct it.
    assert!(!t.get(&path).await.body.contains("Correct this report"));
    let res = post(
        &app,
        COMMISSION,
        &format!("{REPORTS}/{id}/review"),
        json!({"act": "return", "text": "The fireworks cost less"}),
    )
    .await;
    assert_eq!(res.status(), 201);

    let shown = t.get(&path).await;
    assert!(shown.body.contains("Correct this report"), "{}", shown.body);
    let form = t.get(&format!("{path}/amend")).await;
    assert_eq!(form.status, 200, "{}", form.body);
    let fields = form.inputs();
    assert!(fields.contains(&("i2_payee".into(), "Lakeside Pyrotechnics".into())));
    assert!(fields.contains(&("i2_amount".into(), "12345.67".into())));
    assert!(fields.contains(&("version".into(), "1".into())));
    assert!(form.body.contains("Postage"), "summed lines shown");
    let action = format!("{path}/amend");
    // The browser sends the radios checked (the page checks "no") and the selects chosen.
    let mut base = fields.clone();
    for i in 0..3 {
        base = with(base, &format!("i{i}_lodging"), "no");
    }
    base = with(base, "i0_category", "marketing_projects");
    base = with(base, "i1_category", "tourist_information_services");
    base = with(base, "i2_category", "other");

    // Without the token: refused, nothing stored.
    let forged = t
        .post_owned(
            &action,
            &with(without(&base, "csrf_token"), "action", "submit"),
        )
        .await;
    assert_eq!(forged.status, 403);
    assert_eq!(report(&app, &id).await["latest_version"], 1);

    // A field's rule on item 2 (line 2): next to that item's field.
    let bad = with(with(base.clone(), "i1_amount", "ten"), "action", "check");
    let page = t.post_owned(&action, &bad).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(!page.error_text("i1_amount").is_empty(), "{}", page.body);
    assert!(page.error_text("i0_amount").is_empty());
    // A lodging facility on item 3: the API's 409 next to that item's statement.
    let lodging = with(with(base.clone(), "i2_lodging", "yes"), "action", "check");
    let page = t.post_owned(&action, &lodging).await;
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(
        page.error_text("i2_lodging").contains("lodging facility"),
        "{}",
        page.body
    );
    assert_eq!(
        report(&app, &id).await["latest_version"],
        1,
        "nothing stored"
    );

    // Corrected and submitted: version 2, the amount changed, the rest carried over.
    let fixed = with(
        with(base.clone(), "i2_amount", "11000.00"),
        "action",
        "submit",
    );
    let done = t.post_owned(&action, &fixed).await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(done.location(), path);
    let r = report(&app, &id).await;
    assert_eq!(r["latest_version"], 2, "{r}");
    assert_eq!(r["status"], "submitted");
    assert_eq!(r["items"][2]["amount"], "11000.00");
    assert_eq!(r["items"][0]["amount"], "4500.00");
    assert_eq!(r["items"][0]["impact"][0]["value"], 320, "{r}");
    assert_eq!(r["summed"].as_array().unwrap().len(), 2, "{r}");
    // The form of version 1 again: the API's 412 (a version filed meanwhile).
    let stale = t.post_owned(&action, &fixed).await;
    assert_eq!(stale.status, 412, "{}", stale.body);

    // A commission member may not amend; an accepted report cannot be.
    let mut c = signed_in(&app, COMMISSION).await;
    assert_eq!(c.get(&action).await.status, 403);
    let page = c.get(&path).await;
    let refused = c
        .post_owned(
            &action,
            &with(with(fixed, "csrf_token", &page.csrf()), "version", "2"),
        )
        .await;
    assert_eq!(refused.status, 403);
    let res = post(
        &app,
        COMMISSION,
        &format!("{REPORTS}/{id}/review"),
        json!({"act": "accept"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    assert_eq!(t.get(&action).await.status, 409);
}

#[actix_web::test]
async fn the_commission_asks_and_the_tourism_entity_answers_in_the_thread() {
    let app = app().await;
    let id = file(&app, report_2026()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("{ZONE}/expenditures/{id}");
    let mut c = signed_in(&app, COMMISSION).await;
    let page = c.get(&path).await;
    let asked = c
        .post_owned(
            &format!("{path}/review"),
            &[
                ("csrf_token".into(), page.csrf()),
                ("act".into(), "question".into()),
                ("item".into(), "3".into()),
                ("text".into(), "How many visitors stayed overnight?".into()),
            ],
        )
        .await;
    assert_eq!(asked.status, 303, "{}", asked.body);
    let r = report(&app, &id).await;
    let qid = r["review"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(r["review"][0]["act"], "question");
    let answer = format!("{path}/review/{qid}/answer");
    // The commission sees the question open, without an answer form.
    let shown = c.get(&path).await;
    assert!(shown.body.contains("Not answered yet"), "{}", shown.body);
    assert!(!shown.body.contains(&format!("action=\"{answer}\"")));

    let mut t = signed_in(&app, TOURISM).await;
    let shown = t.get(&path).await;
    assert!(shown.body.contains("How many visitors stayed overnight?"));
    assert!(
        shown.body.contains(&format!("action=\"{answer}\"")),
        "{}",
        shown.body
    );
    let csrf = shown.csrf();
    let forged = t.post(&answer, &[("text", "About 400")]).await;
    assert_eq!(forged.status, 403);
    let blank = t
        .post(&answer, &[("csrf_token", &csrf), ("text", " ")])
        .await;
    assert_eq!(blank.status, 422, "{}", blank.body);
    assert!(
        !blank.error_text(&format!("answer-{qid}")).is_empty(),
        "{}",
        blank.body
    );
    let done = t
        .post(
            &answer,
            &[
                ("csrf_token", &csrf),
                ("text", "About 400, by the lodging survey"),
            ],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.body);
    let r = report(&app, &id).await;
    assert_eq!(r["review"][1]["act"], "answer");
    assert_eq!(r["review"][1]["text"], "About 400, by the lodging survey");
    // Once: the API's 409, on the report.
    let again = t
        .post(&answer, &[("csrf_token", &csrf), ("text", "Again")])
        .await;
    assert_eq!(again.status, 409, "{}", again.body);
    // The thread: the question with its answer, for both.
    let shown = c.get(&path).await;
    assert!(shown.body.contains("About 400, by the lodging survey"));
    assert!(!shown.body.contains("Not answered yet"));
    // A commission member may not answer.
    let refused = c
        .post(&answer, &[("csrf_token", &shown.csrf()), ("text", "x")])
        .await;
    assert_eq!(refused.status, 403);
}

#[actix_web::test]
async fn a_members_clerk_requests_an_inspection_and_the_tourism_entity_answers() {
    let app = app().await;
    let id = file(&app, report_2026()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let list = format!("{ZONE}/inspections");
    let mut clerk = signed_in(&app, CLERK).await;
    let page = clerk.get(&list).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Request the inspection"));
    // A member's clerk reads no expenditure report (as the API).
    assert_eq!(
        clerk.get(&format!("{ZONE}/expenditures/{id}")).await.status,
        404
    );
    let csrf = page.csrf();
    let fields = [
        ("municipality", "montello"),
        ("records_of", "tourism_entity"),
        ("records", "Invoices of the 2026 fireworks"),
        ("requested_on", ""),
    ];
    let forged = clerk.post(&list, &fields).await;
    assert_eq!(forged.status, 403);
    let mut blank = fields.to_vec();
    blank[2].1 = "";
    blank.push(("csrf_token", &csrf));
    let refused = clerk.post(&list, &blank).await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        !refused.error_text("records").is_empty(),
        "{}",
        refused.body
    );
    let mut ok = fields.to_vec();
    ok.push(("csrf_token", &csrf));
    let done = clerk.post(&list, &ok).await;
    assert_eq!(done.status, 303, "{}", done.body);
    let api: Value = get(
        &app,
        TOURISM,
        "/v1/zones/marquette-county/inspection-requests",
    )
    .await
    .json()
    .await
    .unwrap();
    let rid = api["items"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(api["items"][0]["municipality"], "montello");
    assert!(api["items"][0]["answer"].is_null());

    // The clerk may not answer; the tourism entity does, once.
    let answer = format!("{list}/{rid}/answer");
    let on = format!("answered_on-{rid}");
    let text = format!("answer-{rid}");
    let refused = clerk
        .post(
            &answer,
            &[("csrf_token", &csrf), (&on, "2026-12-01"), (&text, "Yes")],
        )
        .await;
    assert_eq!(refused.status, 403);
    let mut t = signed_in(&app, TOURISM).await;
    let page = t.get(&list).await;
    assert!(page.body.contains("Invoices of the 2026 fireworks"));
    assert!(
        page.body.contains(&format!("action=\"{answer}\"")),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains("Request the inspection"),
        "not a member's clerk"
    );
    let tcsrf = page.csrf();
    let forged = t
        .post(&answer, &[(&on, "2026-12-01"), (&text, "Yes")])
        .await;
    assert_eq!(forged.status, 403);
    let future = t
        .post(
            &answer,
            &[("csrf_token", &tcsrf), (&on, "2027-01-05"), (&text, "Yes")],
        )
        .await;
    assert_eq!(future.status, 422, "{}", future.body);
    assert!(!future.error_text(&on).is_empty(), "{}", future.body);
    let done = t
        .post(
            &answer,
            &[
                ("csrf_token", &tcsrf),
                (&on, "2026-12-01"),
                (&format!("inspection_on-{rid}"), "2026-12-10"),
                (&text, "Records open at the office on December 10"),
            ],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.body);
    let shown = clerk.get(&list).await;
    assert!(
        shown
            .body
            .contains("Records open at the office on December 10")
    );
    assert!(shown.body.contains("inspection on 2026-12-10"));

    // The zone admin and another municipality's clerk: refused.
    let mut admin = signed_in(&app, ADMIN).await;
    assert_eq!(admin.get(&list).await.status, 403);
    let mut hayward = signed_in(&app, HAYWARD_CLERK).await;
    assert_eq!(hayward.get(&list).await.status, 404);
}

#[actix_web::test]
async fn the_zone_admin_keeps_the_roster_and_others_only_read_it() {
    let app = app().await;
    let roster = format!("{ZONE}/roster");
    let mut admin = signed_in(&app, ADMIN).await;
    let page = admin.get(&roster).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Add to the roster"));
    let csrf = page.csrf();
    let member = [
        ("name", "Pat Lakeside"),
        ("affiliation", "Buffalo Lake Inn"),
        ("industry", "yes"),
        ("appointed_by", "montello"),
        ("term_start", "2026-01-01"),
        ("term_end", ""),
    ];
    assert_eq!(admin.post(&roster, &member).await.status, 403, "no token");
    let mut wrong = member.to_vec();
    wrong[3].1 = "hayward";
    wrong.push(("csrf_token", &csrf));
    let refused = admin.post(&roster, &wrong).await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        !refused.error_text("appointed_by").is_empty(),
        "{}",
        refused.body
    );
    let mut ok = member.to_vec();
    ok.push(("csrf_token", &csrf));
    let done = admin.post(&roster, &ok).await;
    assert_eq!(done.status, 303, "{}", done.body);
    let api: Value = get(&app, ADMIN, "/v1/zones/marquette-county/commission-roster")
        .await
        .json()
        .await
        .unwrap();
    let added = api["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "Pat Lakeside")
        .unwrap_or_else(|| panic!("{api}"))
        .clone();
    assert_eq!(added["represents_lodging_and_tourism_industry"], true);
    let mid = added["id"].as_str().unwrap();
    let end = format!("{roster}/{mid}/end");
    let field = format!("term_end-{mid}");
    let early = admin
        .post(&end, &[("csrf_token", &csrf), (&field, "2025-06-30")])
        .await;
    assert_eq!(early.status, 422, "{}", early.body);
    assert!(!early.error_text(&field).is_empty(), "{}", early.body);
    let ended = admin
        .post(&end, &[("csrf_token", &csrf), (&field, "2026-06-30")])
        .await;
    assert_eq!(ended.status, 303, "{}", ended.body);
    let api: Value = get(&app, ADMIN, "/v1/zones/marquette-county/commission-roster")
        .await
        .json()
        .await
        .unwrap();
    let m = api["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == mid)
        .unwrap()
        .clone();
    assert_eq!(m["term_end"], "2026-06-30");

    // A commission member and a member's clerk read it, without forms, and may not write.
    for who in [COMMISSION, CLERK] {
        let mut b = signed_in(&app, who).await;
        let page = b.get(&roster).await;
        assert_eq!(page.status, 200, "{who}: {}", page.body);
        assert!(page.body.contains("Pat Lakeside"));
        assert!(!page.body.contains("Add to the roster"), "{who}");
        let mut fields = member.to_vec();
        let token = page.csrf();
        fields.push(("csrf_token", &token));
        assert_eq!(b.post(&roster, &fields).await.status, 403, "{who}");
    }
}

#[actix_web::test]
async fn joining_takes_both_sides_each_refused_the_others_act() {
    let app = app().await;
    municipality_with_clerk(&app, "westfield", "0.045").await;
    let members = format!("{ZONE}/members");
    let mut admin = signed_in(&app, ADMIN).await;
    let page = admin.get(&members).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("City of Montello"), "{}", page.body);
    let csrf = page.csrf();
    let invite = format!("{members}/invitations");
    let fields = [("municipality", "westfield"), ("joined_on", "")];
    assert_eq!(admin.post(&invite, &fields).await.status, 403, "no token");
    let unknown = admin
        .post(
            &invite,
            &[
                ("csrf_token", &csrf),
                ("municipality", "nowhere"),
                ("joined_on", ""),
            ],
        )
        .await;
    assert_eq!(unknown.status, 422, "{}", unknown.body);
    assert!(
        !unknown.error_text("municipality").is_empty(),
        "{}",
        unknown.body
    );
    let sent = admin
        .post(
            &invite,
            &[
                ("csrf_token", &csrf),
                ("municipality", "westfield"),
                ("joined_on", ""),
            ],
        )
        .await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    let again = admin
        .post(
            &invite,
            &[
                ("csrf_token", &csrf),
                ("municipality", "westfield"),
                ("joined_on", ""),
            ],
        )
        .await;
    assert_eq!(again.status, 409, "one pending invitation: {}", again.body);
    let list: Value = get(&app, ADMIN, "/v1/zones/marquette-county/invitations")
        .await
        .json()
        .await
        .unwrap();
    let iid = list["items"][0]["id"].as_str().unwrap().to_owned();
    assert_eq!(list["items"][0]["status"], "pending");

    // The zone admin cannot accept on the municipality's behalf.
    let accept = format!("/app/m/westfield/clerk/zone-invitations/{iid}/accept");
    let refused = admin.post(&accept, &[("csrf_token", &csrf)]).await;
    assert_eq!(refused.status, 404, "{}", refused.body);
    assert_eq!(
        admin
            .get("/app/m/westfield/clerk/zone-invitations")
            .await
            .status,
        404
    );
    // Another municipality's clerk neither.
    let mut montello = signed_in(&app, CLERK).await;
    let token = montello
        .get("/app/m/montello/clerk/zone-invitations")
        .await
        .csrf();
    assert_eq!(
        montello
            .post(&accept, &[("csrf_token", &token)])
            .await
            .status,
        404
    );

    // The invited clerk sees it and accepts it on their side.
    let mut w = Browser::new(&app);
    w.sign_in_with("clerk@westfield.test", PASSWORD).await;
    let page = w.get("/app/m/westfield/clerk/zone-invitations").await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Marquette County"), "{}", page.body);
    assert!(page.body.contains(&format!("action=\"{accept}\"")));
    assert_eq!(w.post(&accept, &[]).await.status, 403, "no token");
    // The clerk cannot send or withdraw the zone's invitations.
    let wcsrf = page.csrf();
    assert_eq!(
        w.post(
            &invite,
            &[("csrf_token", &wcsrf), ("municipality", "westfield")]
        )
        .await
        .status,
        404
    );
    let done = w.post(&accept, &[("csrf_token", &wcsrf)]).await;
    assert_eq!(done.status, 303, "{}", done.body);
    let zone: Value = app
        .get("/v1/zones/marquette-county")
        .await
        .json()
        .await
        .unwrap();
    assert!(
        zone["members"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["municipality"] == "westfield"),
        "{zone}"
    );
    // Answered once: the list again with the API's 409.
    let twice = w.post(&accept, &[("csrf_token", &wcsrf)]).await;
    assert_eq!(twice.status, 409, "{}", twice.body);
    // Now a member: the zone's member list shows it, and the clerk reaches the inspections.
    let page = admin.get(&members).await;
    assert!(page.body.contains("Village of westfield"), "{}", page.body);
    assert!(page.body.contains("accepted"));
    let own = w.get("/app/m/westfield/clerk/zone-invitations").await;
    assert!(
        own.body.contains("/app/z/marquette-county/inspections"),
        "{}",
        own.body
    );

    // Hayward levies another rate: the API's 409, on the page again.
    let hayward_invite = admin
        .post(
            &invite,
            &[
                ("csrf_token", &csrf),
                ("municipality", "hayward"),
                ("joined_on", ""),
            ],
        )
        .await;
    assert_eq!(hayward_invite.status, 409, "{}", hayward_invite.body);
    assert!(hayward_invite.body.contains("Invite a municipality"));
}

#[actix_web::test]
async fn the_zone_withdraws_and_the_municipality_declines_each_on_its_side() {
    let app = app().await;
    municipality_with_clerk(&app, "westfield", "0.045").await;
    let members = format!("{ZONE}/members");
    let invite = format!("{members}/invitations");
    let mut admin = signed_in(&app, ADMIN).await;
    let csrf = admin.get(&members).await.csrf();
    let sent = admin
        .post(
            &invite,
            &[
                ("csrf_token", &csrf),
                ("municipality", "westfield"),
                ("joined_on", ""),
            ],
        )
        .await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    let first: Value = get(&app, ADMIN, "/v1/zones/marquette-county/invitations")
        .await
        .json()
        .await
        .unwrap();
    let first = first["items"][0]["id"].as_str().unwrap().to_owned();
    // The municipality cannot withdraw the zone's invitation.
    let withdraw = format!("{invite}/{first}/withdraw");
    let mut w = Browser::new(&app);
    w.sign_in_with("clerk@westfield.test", PASSWORD).await;
    let wcsrf = w
        .get("/app/m/westfield/clerk/zone-invitations")
        .await
        .csrf();
    assert_eq!(
        w.post(&withdraw, &[("csrf_token", &wcsrf)]).await.status,
        404
    );
    assert_eq!(admin.post(&withdraw, &[]).await.status, 403, "no token");
    let done = admin.post(&withdraw, &[("csrf_token", &csrf)]).await;
    assert_eq!(done.status, 303, "{}", done.body);
    let page = admin.get(&members).await;
    assert!(page.body.contains("withdrawn"), "{}", page.body);
    // A new one, declined by the municipality; the zone cannot decline it.
    let sent = admin
        .post(
            &invite,
            &[
                ("csrf_token", &csrf),
                ("municipality", "westfield"),
                ("joined_on", ""),
            ],
        )
        .await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    let list: Value = get(&app, ADMIN, "/v1/zones/marquette-county/invitations")
        .await
        .json()
        .await
        .unwrap();
    let second = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["status"] == "pending")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let decline = format!("/app/m/westfield/clerk/zone-invitations/{second}/decline");
    assert_eq!(
        admin.post(&decline, &[("csrf_token", &csrf)]).await.status,
        404
    );
    let done = w.post(&decline, &[("csrf_token", &wcsrf)]).await;
    assert_eq!(done.status, 303, "{}", done.body);
    let list: Value = get(&app, ADMIN, "/v1/zones/marquette-county/invitations")
        .await
        .json()
        .await
        .unwrap();
    let statuses: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["status"].as_str().unwrap())
        .collect();
    assert!(
        statuses.contains(&"declined") && statuses.contains(&"withdrawn"),
        "{statuses:?}"
    );
    let zone: Value = app
        .get("/v1/zones/marquette-county")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        zone["members"].as_array().unwrap().len(),
        1,
        "no member added"
    );
}

#[actix_web::test]
async fn the_zone_admin_reads_the_access_log_and_no_one_else_does() {
    let app = app().await;
    let id = file(&app, report_2026()).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let tourism = app.token(TOURISM).await;
    let res = app
        .client
        .post(app.url(&format!("{REPORTS}/{id}/attachments?kind=receipt")))
        .bearer_auth(&tourism)
        .header("content-type", "application/pdf")
        .body(pdf())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    let att = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let log = format!("{ZONE}/access-log");
    let mut admin = signed_in(&app, ADMIN).await;
    let empty = admin.get(&log).await;
    assert_eq!(empty.status, 200, "{}", empty.body);
    assert!(!empty.body.contains(&att));

    // A commission member downloads the receipt through the page: logged.
    let mut c = signed_in(&app, COMMISSION).await;
    let doc = c
        .get(&format!("{ZONE}/expenditures/{id}/attachments/{att}"))
        .await;
    assert_eq!(doc.status, 200);
    let page = admin.get(&log).await;
    let record = format!("{id}/attachments/{att}");
    assert!(page.body.contains(&record), "{}", page.body);
    assert!(page.body.contains("commission_member"), "{}", page.body);
    let filtered = admin.get(&format!("{log}?record_id=nothing")).await;
    assert!(!filtered.body.contains(&record));

    // Nobody else: the zone's other roles and a member's clerk 403, another clerk 404.
    for who in [COMMISSION, TOURISM, CLERK] {
        let mut b = signed_in(&app, who).await;
        assert_eq!(b.get(&log).await.status, 403, "{who}");
    }
    let mut h = signed_in(&app, HAYWARD_CLERK).await;
    assert_eq!(h.get(&log).await.status, 404);
}

#[actix_web::test]
async fn a_commission_member_reaches_no_operator_figures_and_no_admin_page() {
    let app = app().await;
    let mut c = signed_in(&app, COMMISSION).await;
    let home = c.get(ZONE).await;
    assert_eq!(home.status, 200);
    assert!(
        !home.body.contains(&format!("{ZONE}/members")),
        "no admin link"
    );
    assert!(home.body.contains(&format!("{ZONE}/roster")));
    for path in [format!("{ZONE}/members"), format!("{ZONE}/access-log")] {
        assert_eq!(c.get(&path).await.status, 403, "{path}");
    }
    for path in [
        "/app/m/montello/clerk",
        "/app/m/montello/clerk/payors",
        "/app/m/montello/clerk/access-log",
        "/app/m/montello/clerk/zone-invitations",
        "/app/m/montello/obligations",
    ] {
        let page = c.get(path).await;
        assert!(
            page.status == 403 || page.status == 404,
            "{path}: {}",
            page.status
        );
        for name in ["Lakeside", "Buffalo Lake", "Northwoods"] {
            assert!(!page.body.contains(name), "{path} names an operator");
        }
    }
    let token = home.csrf();
    for (path, fields) in [
        (
            format!("{ZONE}/members/invitations"),
            vec![("municipality", "hayward")],
        ),
        (
            format!("{ZONE}/members/montello/leave"),
            vec![("left_on-montello", "2026-12-31")],
        ),
    ] {
        let mut f = fields;
        f.push(("csrf_token", &token));
        assert_eq!(c.post(&path, &f).await.status, 403, "{path}");
    }
    // The zone admin's pages for the admin, the zone home links them.
    let mut admin = signed_in(&app, ADMIN).await;
    let home = admin.get(ZONE).await;
    assert!(home.body.contains(&format!("{ZONE}/members")));
    assert!(home.body.contains(&format!("{ZONE}/access-log")));
}

//! Regression tests for the registry's defects (issue 7, items 5, 7 and 8),
//! from the user's side: HTTP in, HTTP out. Every one runs on both backends
//! (hostile input included: a NUL must be refused before PostgreSQL sees it).

use chrono::{Duration, Utc};
use reqwest::Method;
use roomtax::demo::{HAYWARD_LODGE_ID, MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID};
use serde_json::{Value, json};

use super::{CLERK, PAYORS, etag_of, ids, log_of, new_payor, payor_path, reads_of};
use crate::helpers::{
    TestApp,
    check::{assert_problem, rule_of},
    spawn_demo_app,
};

const HAYWARD_PAYORS: &str = "/v1/municipalities/hayward/payors";

/// The date `days` from today in Montello (the service dates a closing by the
/// municipality's own calendar, America/Chicago: between midnight UTC and
/// midnight there, UTC's date is already tomorrow).
fn in_days(days: i64) -> String {
    let today = Utc::now()
        .with_timezone(&chrono_tz::America::Chicago)
        .date_naive();
    (today + Duration::days(days)).to_string()
}

async fn add_establishment(app: &TestApp, token: &str, payor: &str) -> reqwest::Response {
    app.call(
        Method::POST,
        &format!("{}/establishments", payor_path(payor)),
    )
    .bearer(token)
    .json(json!({"name": "Annex", "address": "14 Lake Street", "kind": "motel", "units": 4}))
    .send()
    .await
}

async fn etag_of_payor(app: &TestApp, token: &str, payor: &str) -> String {
    let res = app
        .call(Method::GET, &payor_path(payor))
        .bearer(token)
        .send()
        .await;
    assert_eq!(res.status(), 200);
    etag_of(&res)
}

#[actix_web::test]
async fn the_location_of_a_new_establishment_answers_a_get() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let res = add_establishment(&app, &clerk, MONTELLO_MOTEL_ID).await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let created: Value = res.json().await.unwrap();
    let reads_before = reads_of(&app, "montello", MONTELLO_MOTEL_ID);

    let res = app.call(Method::GET, &location).bearer(&clerk).send().await;
    assert_eq!(res.status(), 200);
    assert_eq!(etag_of(&res), "\"1\"");
    let read: Value = res.json().await.unwrap();
    assert_eq!(read["id"], created["id"]);
    assert_eq!(read["payor_id"], MONTELLO_MOTEL_ID);
    assert_eq!(read["status"], "open");
    assert_eq!(
        reads_of(&app, "montello", MONTELLO_MOTEL_ID),
        reads_before + 1,
        "an establishment read is logged as a read of its payor"
    );
    let entry = log_of(&app, "montello", MONTELLO_MOTEL_ID)
        .into_iter()
        .rfind(|e| e.action == "read")
        .unwrap();
    assert_eq!(
        (entry.record_type.as_str(), entry.basis.as_str()),
        ("payor", "clerk_treasurer")
    );

    // The payor's operator reads it; nobody else learns it exists.
    let op = app.token("operator@montello.demo").await;
    assert_eq!(
        app.call(Method::GET, &location)
            .bearer(&op)
            .send()
            .await
            .status(),
        200
    );
    let id = created["id"].as_str().unwrap();
    let elsewhere = format!("{}/establishments/{id}", payor_path(MONTELLO_CAMPGROUND_ID));
    let res = app
        .call(Method::GET, &elsewhere)
        .bearer(&clerk)
        .send()
        .await;
    assert_problem(res, 404, "not-found", None).await;
    let hayward = app.token("clerk@hayward.demo").await;
    let res = app
        .call(Method::GET, &location)
        .bearer(&hayward)
        .send()
        .await;
    assert_problem(res, 404, "not-found", None).await;
    let commission = app.token("commission@marquette-county.demo").await;
    let res = app
        .call(Method::GET, &location)
        .bearer(&commission)
        .send()
        .await;
    assert_problem(res, 404, "not-found", None).await;
    let res = app.call(Method::GET, &location).send().await;
    assert_problem(res, 401, "unauthorized", None).await;
    let missing = format!("{}/establishments/nope", payor_path(MONTELLO_MOTEL_ID));
    let res = app.call(Method::GET, &missing).bearer(&clerk).send().await;
    assert_problem(res, 404, "not-found", None).await;
}

#[actix_web::test]
async fn a_payors_etag_changes_when_its_establishments_change() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let before = etag_of_payor(&app, &clerk, MONTELLO_MOTEL_ID).await;
    let res = add_establishment(&app, &clerk, MONTELLO_MOTEL_ID).await;
    let est_location = res.headers()["location"].to_str().unwrap().to_owned();
    let added = etag_of_payor(&app, &clerk, MONTELLO_MOTEL_ID).await;
    assert_ne!(
        before, added,
        "adding an establishment changes the payor's ETag"
    );

    // An If-Match taken before the change is stale now; the new one works.
    let patch = |tag: &str| {
        app.call(Method::PATCH, &payor_path(MONTELLO_MOTEL_ID))
            .bearer(&clerk)
            .json(json!({"dba": "Lakeside"}))
            .header("if-match", tag)
    };
    assert_problem(
        patch(&before).send().await,
        412,
        "precondition-failed",
        None,
    )
    .await;
    let res = patch(&added).send().await;
    assert_eq!(res.status(), 200);
    let after_patch = etag_of(&res);

    let res = app
        .call(Method::PATCH, &est_location)
        .bearer(&clerk)
        .json(json!({"units": 5}))
        .header("if-match", "\"1\"")
        .send()
        .await;
    assert_eq!(
        res.status(),
        200,
        "the establishment's own version is untouched by payor writes"
    );
    let changed = etag_of_payor(&app, &clerk, MONTELLO_MOTEL_ID).await;
    assert_ne!(
        after_patch, changed,
        "changing an establishment changes the payor's ETag"
    );
    let res = app
        .call(Method::POST, &format!("{est_location}/close"))
        .bearer(&clerk)
        .json(json!({"closed_on": in_days(0)}))
        .header("if-match", "\"2\"")
        .send()
        .await;
    assert_eq!(res.status(), 200);
    assert_ne!(
        changed,
        etag_of_payor(&app, &clerk, MONTELLO_MOTEL_ID).await
    );
}

#[actix_web::test]
async fn a_made_up_cursor_is_a_400_naming_cursor() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    for cursor in ["garbage", MONTELLO_MOTEL_ID] {
        let res = app
            .call(Method::GET, &format!("{PAYORS}?cursor={cursor}"))
            .bearer(&clerk)
            .send()
            .await;
        assert_problem(res, 400, "invalid-parameter", Some("cursor")).await;
    }
    // A control character is refused at the edge (the one rule for every string).
    let res = app
        .call(Method::GET, &format!("{PAYORS}?cursor=%00"))
        .bearer(&clerk)
        .send()
        .await;
    let problem = assert_problem(res, 422, "validation-failed", Some("cursor")).await;
    assert_eq!(
        rule_of(&problem, "cursor").as_deref(),
        Some("no_control_characters")
    );
    let res = app
        .call(
            Method::GET,
            "/v1/municipalities/montello/disclosures?cursor=garbage",
        )
        .bearer(&clerk)
        .send()
        .await;
    assert_problem(res, 400, "invalid-parameter", Some("cursor")).await;
    // A cursor the service returned still pages.
    let page: Value = app
        .call(Method::GET, &format!("{PAYORS}?limit=1"))
        .bearer(&clerk)
        .send()
        .await
        .json()
        .await
        .unwrap();
    let next = page["next_cursor"].as_str().unwrap();
    let rest: Value = app
        .call(Method::GET, &format!("{PAYORS}?limit=1&cursor={next}"))
        .bearer(&clerk)
        .send()
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&rest), vec![MONTELLO_CAMPGROUND_ID.to_owned()]);
}

#[actix_web::test]
async fn the_name_filter_ignores_case_non_ascii_letters_included() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let res = app
        .call(Method::POST, PAYORS)
        .bearer(&clerk)
        .json(new_payor("Ärger Ölmühle GmbH"))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for prefix in ["är", "ÄR", "ärger öl", "ÄRGER ÖLMÜHLE gmbh"] {
        let path = format!("{PAYORS}?name={}", urlencode(prefix));
        let list: Value = app
            .call(Method::GET, &path)
            .bearer(&clerk)
            .send()
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(ids(&list), vec![id.clone()], "{prefix}");
    }
    let list: Value = app
        .call(Method::GET, &format!("{PAYORS}?name=LAKESIDE%20motel"))
        .bearer(&clerk)
        .send()
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&list), vec![MONTELLO_MOTEL_ID.to_owned()]);
    let res = app
        .call(Method::GET, &format!("{PAYORS}?name=La%00"))
        .bearer(&clerk)
        .send()
        .await;
    let body = assert_problem(res, 422, "validation-failed", Some("name")).await;
    assert_eq!(
        rule_of(&body, "name").as_deref(),
        Some("no_control_characters")
    );
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[actix_web::test]
async fn a_future_closing_date_is_closing_until_it_comes() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let future = in_days(30);
    let res = app
        .call(
            Method::POST,
            &format!("{}/close", payor_path(MONTELLO_CAMPGROUND_ID)),
        )
        .bearer(&clerk)
        .json(json!({"closed_on": future}))
        .header("if-match", "\"1\"")
        .send()
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(
        (body["status"].as_str(), body["closed_on"].as_str()),
        (Some("closing"), Some(future.as_str()))
    );
    let list = |status: &'static str| {
        let path = format!("{PAYORS}?status={status}");
        let app = &app;
        let clerk = &clerk;
        async move {
            app.call(Method::GET, &path)
                .bearer(clerk)
                .send()
                .await
                .json::<Value>()
                .await
                .unwrap()
        }
    };
    let closing = list("closing").await;
    assert_eq!(ids(&closing), vec![MONTELLO_CAMPGROUND_ID.to_owned()]);
    assert_eq!(closing["items"][0]["status"], "closing");
    assert!(ids(&list("closed").await).is_empty());
    assert_eq!(ids(&list("open").await), vec![MONTELLO_MOTEL_ID.to_owned()]);
    // Still operating: it may add an establishment until the date comes.
    assert_eq!(
        add_establishment(&app, &clerk, MONTELLO_CAMPGROUND_ID)
            .await
            .status(),
        201
    );

    // A closing date of today is closed.
    let res = app
        .call(
            Method::POST,
            &format!("{}/close", payor_path(MONTELLO_MOTEL_ID)),
        )
        .bearer(&clerk)
        .json(json!({"closed_on": in_days(0)}))
        .header("if-match", "\"1\"")
        .send()
        .await;
    assert_eq!(res.json::<Value>().await.unwrap()["status"], "closed");
    assert_eq!(
        ids(&list("closed").await),
        vec![MONTELLO_MOTEL_ID.to_owned()]
    );
}

#[actix_web::test]
async fn if_match_star_lists_and_weak_tags_follow_rfc_9110() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let patch = |path: String, tags: &'static [&'static str], dba: &'static str| {
        let mut call = app
            .call(Method::PATCH, &path)
            .bearer(&clerk)
            .json(json!({"dba": dba}));
        for tag in tags {
            call = call.header("if-match", tag);
        }
        call.send()
    };
    let motel = payor_path(MONTELLO_MOTEL_ID);
    let res = patch(motel.clone(), &["*"], "Star").await;
    assert_eq!(res.status(), 200, "* matches the current version");
    assert_eq!(etag_of(&res), "\"2\"");
    let res = patch(
        payor_path("00000000-0000-4000-8000-000000000000"),
        &["*"],
        "x",
    )
    .await;
    assert_problem(res, 404, "not-found", None).await;
    let res = patch(motel.clone(), &["\"1\", \"2\""], "List").await;
    assert_eq!(res.status(), 200, "a list matches when any member does");
    let res = patch(motel.clone(), &["\"1\"", "\"3\""], "Headers").await;
    assert_eq!(res.status(), 200, "several If-Match headers form one list");
    let res = patch(motel.clone(), &["W/\"4\""], "Weak").await;
    assert_problem(res, 412, "precondition-failed", None).await;
    let res = patch(motel.clone(), &["\"1\", \"2\""], "Stale").await;
    assert_problem(res, 412, "precondition-failed", None).await;
    let res = patch(motel.clone(), &[], "None").await;
    assert_problem(res, 428, "precondition-required", None).await;
    let read: Value = app
        .call(Method::GET, &motel)
        .bearer(&clerk)
        .send()
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (read["dba"].as_str(), read["version"].as_i64()),
        (Some("Headers"), Some(4))
    );
}

#[actix_web::test]
async fn hayward_refuses_a_fiscal_election_citing_its_ordinance() {
    let app = spawn_demo_app().await;
    let clerk = app.token("clerk@hayward.demo").await;
    let res = app
        .call(Method::POST, HAYWARD_PAYORS)
        .bearer(&clerk)
        .json(new_payor("Northwoods Cabins LLC"))
        .send()
        .await;
    let body = assert_problem(res, 422, "validation-failed", Some("annual_election")).await;
    assert_eq!(
        rule_of(&body, "annual_election").as_deref(),
        Some("fiscal_year_not_allowed")
    );
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("Hayward room tax"),
        "{body}"
    );
    let mut calendar = new_payor("Northwoods Cabins LLC");
    calendar["annual_election"] = json!("calendar");
    calendar
        .as_object_mut()
        .unwrap()
        .remove("fiscal_year_end_month");
    let res = app
        .call(Method::POST, HAYWARD_PAYORS)
        .bearer(&clerk)
        .json(calendar)
        .send()
        .await;
    assert_eq!(res.status(), 201);

    let res = app
        .call(
            Method::PATCH,
            &format!("{HAYWARD_PAYORS}/{HAYWARD_LODGE_ID}"),
        )
        .bearer(&clerk)
        .json(json!({"annual_election": "fiscal", "fiscal_year_end_month": 6}))
        .header("if-match", "*")
        .send()
        .await;
    assert_problem(res, 422, "validation-failed", Some("annual_election")).await;

    // Montello's ordinance allows the election.
    let montello = app.token(CLERK).await;
    let res = app
        .call(Method::POST, PAYORS)
        .bearer(&montello)
        .json(new_payor("Fiscal LLC"))
        .send()
        .await;
    assert_eq!(res.status(), 201);
}

#[actix_web::test]
async fn invisible_names_and_control_characters_are_refused_before_the_database() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let cases = [
        ("legal_name", json!("\u{200B}\u{00A0}\u{FEFF}"), "non_empty"),
        (
            "legal_name",
            json!("Lake\u{0}side"),
            "no_control_characters",
        ),
        ("dba", json!("\u{1B}[31mRed"), "no_control_characters"),
        (
            "contact_email",
            json!("a\u{0}@b.example"),
            "no_control_characters",
        ),
        (
            "mailing_address",
            json!("PO Box 7\u{0}"),
            "no_control_characters",
        ),
        ("seller_permit", json!("456\u{0}"), "no_control_characters"),
    ];
    for (field, value, rule) in cases {
        let mut body = new_payor("Hostile LLC");
        body[field] = value;
        let res = app
            .call(Method::POST, PAYORS)
            .bearer(&clerk)
            .json(body)
            .send()
            .await;
        let problem = assert_problem(res, 422, "validation-failed", Some(field)).await;
        assert_eq!(rule_of(&problem, field).as_deref(), Some(rule), "{field}");
    }
    let res = app
        .call(
            Method::POST,
            &format!("{}/establishments", payor_path(MONTELLO_MOTEL_ID)),
        )
        .bearer(&clerk)
        .json(json!({"name": "\u{3164}", "address": "1 Road", "kind": "inn!", "units": 1}))
        .send()
        .await;
    let problem = assert_problem(res, 422, "validation-failed", Some("name")).await;
    assert_eq!(rule_of(&problem, "name").as_deref(), Some("non_empty"));
    assert_eq!(rule_of(&problem, "kind").as_deref(), Some("one_of"));
    // Control characters are refused at the edge, every offending field at once,
    // before any field rule runs.
    let res = app
        .call(
            Method::POST,
            &format!("{}/establishments", payor_path(MONTELLO_MOTEL_ID)),
        )
        .bearer(&clerk)
        .json(json!({"name": "Inn", "address": "1 Road\u{0}", "kind": "inn\u{0}", "units": 1}))
        .send()
        .await;
    let problem = assert_problem(res, 422, "validation-failed", Some("address")).await;
    assert_eq!(
        rule_of(&problem, "address").as_deref(),
        Some("no_control_characters")
    );
    assert_eq!(
        rule_of(&problem, "kind").as_deref(),
        Some("no_control_characters")
    );
    let list: Value = app
        .call(Method::GET, PAYORS)
        .bearer(&clerk)
        .send()
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&list).len(), 2, "nothing was stored");
}

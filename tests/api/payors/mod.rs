//! The payor registry over HTTP: the clerk's whole round trip, validation,
//! lists, who sees what (404 for anyone who may not know a payor exists),
//! and the access-log entry every read leaves.

use diesel::Connection;
use reqwest::Method;
use roomtax::{
    db::{
        self, DbConn,
        access_log::LogQuery,
        models::{AccessLogRow, ApiClientRow, DisclosureGrantRow, PayorRow},
    },
    demo::{HAYWARD_LODGE_ID, MONTELLO_CAMPGROUND_ID, MONTELLO_MOTEL_ID},
    tenancy::DbScope,
};
use serde_json::{Value, json};

mod defects;

use crate::helpers::{TestApp, check::assert_problem, spawn_demo_app};

pub(super) const CLERK: &str = "clerk@montello.demo";
pub(super) const PAYORS: &str = "/v1/municipalities/montello/payors";

pub(super) fn payor_path(id: &str) -> String {
    format!("{PAYORS}/{id}")
}

/// Send a request as `token` (none: anonymous), with an optional JSON body and `If-Match`.
async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
    if_match: Option<&str>,
) -> reqwest::Response {
    let mut call = app.call(method, path).maybe_bearer(token);
    if let Some(b) = body {
        call = call.json(b);
    }
    if let Some(tag) = if_match {
        call = call.header("if-match", tag);
    }
    call.send().await
}

pub(super) fn etag_of(res: &reqwest::Response) -> String {
    res.headers()
        .get("etag")
        .expect("an ETag header")
        .to_str()
        .unwrap()
        .to_owned()
}

pub(super) fn new_payor(name: &str) -> Value {
    json!({
        "legal_name": name,
        "dba": "Pine Cabins",
        "contact_name": "Dana Pine",
        "contact_email": "dana@pinecabins.example",
        "contact_phone": "(608) 555-0142",
        "mailing_address": "PO Box 7\nMontello, WI 53949",
        "seller_permit": "456-1234567890-02",
        "annual_election": "fiscal",
        "fiscal_year_end_month": 6
    })
}

/// Work on the database as its owner, with the tenant set (row-level security
/// binds the owner too on PostgreSQL, FORCE being on).
pub(super) fn as_owner<T>(
    app: &TestApp,
    slug: &str,
    work: impl FnOnce(&mut DbConn, i64) -> T,
) -> T {
    let mut conn = app.owner_conn();
    conn.transaction::<T, diesel::result::Error, _>(|conn| {
        let id = db::municipalities::by_slug(conn, slug)?
            .expect("municipality exists")
            .id;
        db::rls::apply(
            conn,
            &DbScope {
                municipality_id: Some(id),
                ..DbScope::default()
            },
        )?;
        Ok(work(conn, id))
    })
    .expect("owner transaction")
}

/// The access-log entries about one record.
pub(super) fn log_of(app: &TestApp, slug: &str, record_id: &str) -> Vec<AccessLogRow> {
    as_owner(app, slug, |conn, id| {
        db::access_log::list(
            conn,
            id,
            &LogQuery {
                record_id: Some(record_id.to_owned()),
                limit: 1000,
                ..LogQuery::default()
            },
        )
        .expect("access log")
    })
}

/// How many reads of a record the access log holds.
pub(super) fn reads_of(app: &TestApp, slug: &str, record_id: &str) -> usize {
    log_of(app, slug, record_id)
        .iter()
        .filter(|e| e.action == "read")
        .count()
}

/// The stored payor, read as the owner.
fn stored(app: &TestApp, slug: &str, payor_id: &str) -> PayorRow {
    as_owner(app, slug, |conn, id| {
        db::payors::get(conn, id, payor_id)
            .expect("query")
            .expect("payor")
    })
}

async fn user_id(app: &TestApp, token: &str) -> String {
    let me: Value = app.get_as(token, "/v1/me").await.json().await.unwrap();
    me["id"].as_str().unwrap().to_owned()
}

pub(super) fn ids(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect()
}

#[actix_web::test]
async fn a_clerk_registers_reads_updates_and_closes_a_payor() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let t = Some(clerk.as_str());

    let res = send(
        &app,
        Method::POST,
        PAYORS,
        t,
        Some(new_payor("Pine Cabins LLC")),
        None,
    )
    .await;
    assert_eq!(res.status(), 201);
    assert_eq!(etag_of(&res), "\"1\"");
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let created: Value = res.json().await.unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(location, payor_path(&id));
    assert_eq!(uuid::Uuid::parse_str(&id).unwrap().get_version_num(), 7);
    assert_eq!(created["status"], "open");
    assert_eq!(created["establishments"], json!([]));
    assert_eq!(reads_of(&app, "montello", &id), 0, "a write is not a read");

    let res = app.get_as(&clerk, &location).await;
    assert_eq!(res.status(), 200);
    assert_eq!(etag_of(&res), "\"1\"");
    let read: Value = res.json().await.unwrap();
    assert_eq!(read["legal_name"], "Pine Cabins LLC");
    assert_eq!(read["mailing_address"], "PO Box 7\nMontello, WI 53949");
    assert_eq!(read["annual_election"], "fiscal");
    assert_eq!(read["fiscal_year_end_month"], 6);
    assert_eq!(read["version"], 1);
    let log = log_of(&app, "montello", &id);
    let entry = log
        .iter()
        .find(|e| e.action == "read")
        .expect("the read is logged");
    assert_eq!(
        (
            entry.record_type.as_str(),
            entry.basis.as_str(),
            entry.actor_kind.as_str()
        ),
        ("payor", "clerk_treasurer", "user")
    );
    assert!(!entry.request_id.is_empty());

    // Update with the ETag read: `null` clears, the version moves on.
    let res = send(
        &app,
        Method::PATCH,
        &location,
        t,
        Some(json!({"dba": null, "contact_email": "office@pinecabins.example", "annual_election": "calendar"})),
        Some("\"1\""),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(etag_of(&res), "\"2\"");
    let updated: Value = res.json().await.unwrap();
    assert_eq!(updated["dba"], Value::Null);
    assert_eq!(updated["contact_email"], "office@pinecabins.example");
    assert_eq!(updated["annual_election"], "calendar");
    assert_eq!(updated["fiscal_year_end_month"], Value::Null);
    assert_eq!(updated["legal_name"], "Pine Cabins LLC");

    // A stale ETag changes nothing; no If-Match at all is refused.
    let stale = send(
        &app,
        Method::PATCH,
        &location,
        t,
        Some(json!({"dba": "Old"})),
        Some("\"1\""),
    )
    .await;
    assert_problem(stale, 412, "precondition-failed", None).await;
    let missing = send(
        &app,
        Method::PATCH,
        &location,
        t,
        Some(json!({"dba": "Old"})),
        None,
    )
    .await;
    assert_problem(missing, 428, "precondition-required", None).await;
    let weak = send(
        &app,
        Method::PATCH,
        &location,
        t,
        Some(json!({"dba": "Old"})),
        Some("W/\"2\""),
    )
    .await;
    assert_problem(weak, 412, "precondition-failed", None).await;
    assert_eq!(stored(&app, "montello", &id).dba, None);
    assert_eq!(stored(&app, "montello", &id).version, 2);

    // Establishments: add, change, close; shown inside the payor.
    let est_path = format!("{location}/establishments");
    let res = send(
        &app,
        Method::POST,
        &est_path,
        t,
        Some(json!({"name": "Pine Cabins", "address": "W123 County Road C", "kind": "cabin", "units": 8, "opened_on": "2024-05-01"})),
        None,
    )
    .await;
    assert_eq!(res.status(), 201);
    assert_eq!(etag_of(&res), "\"1\"");
    let est_location = res.headers()["location"].to_str().unwrap().to_owned();
    let est: Value = res.json().await.unwrap();
    let est_id = est["id"].as_str().unwrap();
    assert_eq!(est_location, format!("{est_path}/{est_id}"));
    let res = send(
        &app,
        Method::PATCH,
        &est_location,
        t,
        Some(json!({"units": 10})),
        Some("\"1\""),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(etag_of(&res), "\"2\"");
    let res = send(
        &app,
        Method::PATCH,
        &est_location,
        t,
        Some(json!({"units": 11})),
        Some("\"1\""),
    )
    .await;
    assert_problem(res, 412, "precondition-failed", None).await;
    let close_est = format!("{est_location}/close");
    let early = send(
        &app,
        Method::POST,
        &close_est,
        t,
        Some(json!({"closed_on": "2024-04-30"})),
        Some("\"2\""),
    )
    .await;
    let body = assert_problem(early, 422, "validation-failed", None).await;
    assert_eq!(body["errors"][0]["field"], "closed_on");
    assert_eq!(body["errors"][0]["rule"], "not_before_opened");
    let res = send(
        &app,
        Method::POST,
        &close_est,
        t,
        Some(json!({"closed_on": "2026-10-31"})),
        Some("\"2\""),
    )
    .await;
    assert_eq!(res.status(), 200);
    let closed_est: Value = res.json().await.unwrap();
    assert_eq!(
        (closed_est["status"].as_str(), closed_est["units"].as_i64()),
        (Some("closed"), Some(10))
    );
    // An establishment addressed under another payor does not exist.
    let elsewhere = format!("{}/establishments/{est_id}", payor_path(MONTELLO_MOTEL_ID));
    let res = send(
        &app,
        Method::PATCH,
        &elsewhere,
        t,
        Some(json!({"units": 1})),
        Some("\"3\""),
    )
    .await;
    assert_problem(res, 404, "not-found", None).await;

    let read: Value = app.get_as(&clerk, &location).await.json().await.unwrap();
    assert_eq!(
        read["version"], 5,
        "each establishment write (add, change, close) moves the payor's version on"
    );
    assert_eq!(read["establishments"][0]["id"], est_id);
    assert_eq!(read["establishments"][0]["closed_on"], "2026-10-31");
    assert_eq!(read["establishments"][0]["version"], 3);

    // Close the payor; closing twice conflicts; a closed payor takes no new establishment.
    let close = format!("{location}/close");
    let res = send(
        &app,
        Method::POST,
        &close,
        t,
        Some(json!({"closed_on": "2026-11-30"})),
        Some("\"5\""),
    )
    .await;
    assert_eq!(res.status(), 200);
    assert_eq!(etag_of(&res), "\"6\"");
    let closed: Value = res.json().await.unwrap();
    assert_eq!(
        (closed["status"].as_str(), closed["closed_on"].as_str()),
        (Some("closed"), Some("2026-11-30"))
    );
    let again = send(
        &app,
        Method::POST,
        &close,
        t,
        Some(json!({"closed_on": "2026-12-01"})),
        Some("\"6\""),
    )
    .await;
    assert_problem(again, 409, "conflict", None).await;
    let late = send(
        &app,
        Method::POST,
        &est_path,
        t,
        Some(json!({"name": "New", "address": "1 Road", "kind": "inn", "units": 2})),
        None,
    )
    .await;
    assert_problem(late, 409, "conflict", None).await;

    assert_eq!(reads_of(&app, "montello", &id), 2, "one entry per read");
    let writes: Vec<String> = log_of(&app, "montello", &id)
        .into_iter()
        .filter(|e| e.action != "read")
        .map(|e| e.action)
        .collect();
    assert_eq!(
        writes.len(),
        3,
        "create, update and close are logged: {writes:?}"
    );
}

#[actix_web::test]
async fn validation_names_the_field_and_the_rule() {
    let app = spawn_demo_app().await;
    let clerk = app.token(CLERK).await;
    let t = Some(clerk.as_str());

    let res = send(
        &app,
        Method::POST,
        PAYORS,
        t,
        Some(json!({
            "legal_name": "   ",
            "contact_email": "not an email",
            "contact_phone": "call me",
            "seller_permit": "ABC-1",
            "annual_election": "fiscal",
            "dba": "x".repeat(201)
        })),
        None,
    )
    .await;
    let body = assert_problem(res, 422, "validation-failed", None).await;
    let pairs: Vec<(String, String)> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap().to_owned(),
                e["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    for expected in [
        ("legal_name", "non_empty"),
        ("dba", "max_length"),
        ("contact_email", "email"),
        ("contact_phone", "phone"),
        ("mailing_address", "required"),
        ("seller_permit", "seller_permit"),
        ("fiscal_year_end_month", "required_for_fiscal"),
    ] {
        assert!(
            pairs.contains(&(expected.0.to_owned(), expected.1.to_owned())),
            "{expected:?} missing from {pairs:?}"
        );
    }

    let mut month = new_payor("Month LLC");
    month["fiscal_year_end_month"] = json!(12);
    let body = assert_problem(
        send(&app, Method::POST, PAYORS, t, Some(month), None).await,
        422,
        "validation-failed",
        None,
    )
    .await;
    assert_eq!(body["errors"][0]["field"], "fiscal_year_end_month");
    assert_eq!(body["errors"][0]["rule"], "range");

    let mut unknown = new_payor("Unknown LLC");
    unknown["owner"] = json!("me");
    let body = assert_problem(
        send(&app, Method::POST, PAYORS, t, Some(unknown), None).await,
        400,
        "unknown-field",
        None,
    )
    .await;
    assert_eq!(body["errors"][0]["field"], "owner");

    let motel = payor_path(MONTELLO_MOTEL_ID);
    let res = send(
        &app,
        Method::PATCH,
        &motel,
        t,
        Some(json!({"legal_name": null})),
        Some("\"1\""),
    )
    .await;
    let body = assert_problem(res, 422, "validation-failed", None).await;
    assert_eq!(
        (
            body["errors"][0]["field"].as_str(),
            body["errors"][0]["rule"].as_str()
        ),
        (Some("legal_name"), Some("not_null"))
    );
    let res = send(
        &app,
        Method::PATCH,
        &motel,
        t,
        Some(json!({})),
        Some("\"1\""),
    )
    .await;
    assert_problem(res, 422, "validation-failed", None).await;
    let res = send(
        &app,
        Method::POST,
        &format!("{motel}/close"),
        t,
        Some(json!({})),
        Some("\"1\""),
    )
    .await;
    let body = assert_problem(res, 422, "validation-failed", None).await;
    assert_eq!(
        (
            body["errors"][0]["field"].as_str(),
            body["errors"][0]["rule"].as_str()
        ),
        (Some("closed_on"), Some("required"))
    );
    let res = send(
        &app,
        Method::POST,
        &format!("{motel}/establishments"),
        t,
        Some(json!({"name": "Castle", "address": "1 Hill", "kind": "castle", "units": -1})),
        None,
    )
    .await;
    let body = assert_problem(res, 422, "validation-failed", None).await;
    assert_eq!(body["errors"][0]["field"], "kind");
    assert_eq!(body["errors"][0]["rule"], "one_of");
    assert_eq!(body["errors"][1]["field"], "units");
    assert_eq!(body["errors"][1]["rule"], "range");
    assert_eq!(
        stored(&app, "montello", MONTELLO_MOTEL_ID).version,
        1,
        "nothing changed"
    );

    assert_problem(
        app.get_as(&clerk, &format!("{PAYORS}?limit=0")).await,
        422,
        "validation-failed",
        None,
    )
    .await;
    assert_problem(
        app.get_as(&clerk, &format!("{PAYORS}?status=gone")).await,
        400,
        "invalid-parameter",
        None,
    )
    .await;
    assert_problem(
        app.get_as(&clerk, &format!("{PAYORS}?colour=red")).await,
        400,
        "invalid-parameter",
        None,
    )
    .await;
}

#[actix_web::test]
async fn the_list_pages_and_filters() {
    let app = spawn_demo_app().await;
    let staff = app.token("staff@montello.demo").await;
    let t = Some(staff.as_str());
    for name in ["Aspen Inn LLC", "Birch Resort Inc.", "Lakeview B&B"] {
        let res = send(&app, Method::POST, PAYORS, t, Some(new_payor(name)), None).await;
        assert_eq!(res.status(), 201, "municipal staff register payors");
    }

    // Five payors, two per page, in id order, each exactly once.
    let mut seen = Vec::new();
    let mut path = format!("{PAYORS}?limit=2");
    let mut pages = 0;
    loop {
        let page: Value = app.get_as(&staff, &path).await.json().await.unwrap();
        pages += 1;
        seen.extend(ids(&page));
        match page["next_cursor"].as_str() {
            Some(cursor) => path = format!("{PAYORS}?limit=2&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(seen, sorted);
    assert_eq!(seen.len(), 5);

    // A list shows names, which are confidential: every payor listed is logged.
    assert_eq!(reads_of(&app, "montello", MONTELLO_MOTEL_ID), 1);
    let entry = &log_of(&app, "montello", MONTELLO_MOTEL_ID)[0];
    assert_eq!(entry.basis, "municipal_staff");

    let lake: Value = app
        .get_as(&staff, &format!("{PAYORS}?name=Lake"))
        .await
        .json()
        .await
        .unwrap();
    let names: Vec<&str> = lake["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["legal_name"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.contains(&"Lakeside Motel LLC") && names.contains(&"Lakeview B&B"));
    let lower: Value = app
        .get_as(&staff, &format!("{PAYORS}?name=lAKE"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&lower), ids(&lake), "the prefix ignores case");

    let res = send(
        &app,
        Method::POST,
        &format!("{}/close", payor_path(MONTELLO_CAMPGROUND_ID)),
        t,
        Some(json!({"closed_on": "2026-09-30"})),
        Some("\"1\""),
    )
    .await;
    assert_eq!(res.status(), 200);
    let closed: Value = app
        .get_as(&staff, &format!("{PAYORS}?status=closed"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&closed), vec![MONTELLO_CAMPGROUND_ID.to_owned()]);
    assert_eq!(closed["items"][0]["status"], "closed");
    let open: Value = app
        .get_as(&staff, &format!("{PAYORS}?status=open&limit=200"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&open).len(), 4);
    assert!(open["next_cursor"].is_null());
}

#[actix_web::test]
async fn an_operator_sees_only_its_own_payor_and_writes_nothing() {
    let app = spawn_demo_app().await;
    let op = app.token("operator@montello.demo").await;
    let t = Some(op.as_str());

    let list: Value = app.get_as(&op, PAYORS).await.json().await.unwrap();
    assert_eq!(ids(&list), vec![MONTELLO_MOTEL_ID.to_owned()]);
    let res = app.get_as(&op, &payor_path(MONTELLO_MOTEL_ID)).await;
    assert_eq!(res.status(), 200);
    let own: Value = res.json().await.unwrap();
    assert_eq!(own["establishments"].as_array().unwrap().len(), 1);
    assert!(
        log_of(&app, "montello", MONTELLO_MOTEL_ID)
            .iter()
            .all(|e| e.basis == "operator")
    );
    assert_eq!(
        reads_of(&app, "montello", MONTELLO_MOTEL_ID),
        2,
        "the list and the read"
    );

    let other = app.get_as(&op, &payor_path(MONTELLO_CAMPGROUND_ID)).await;
    assert_problem(other, 404, "not-found", None).await;
    assert_eq!(reads_of(&app, "montello", MONTELLO_CAMPGROUND_ID), 0);

    let own_path = payor_path(MONTELLO_MOTEL_ID);
    let writes = [
        (Method::POST, PAYORS.to_owned(), new_payor("Mine LLC")),
        (Method::PATCH, own_path.clone(), json!({"dba": "Mine"})),
        (
            Method::POST,
            format!("{own_path}/close"),
            json!({"closed_on": "2026-01-31"}),
        ),
        (
            Method::POST,
            format!("{own_path}/establishments"),
            json!({"name": "Annex", "address": "14 Lake Street", "kind": "motel", "units": 4}),
        ),
    ];
    for (method, path, body) in writes {
        let res = send(&app, method, &path, t, Some(body), Some("\"1\"")).await;
        assert_problem(res, 403, "forbidden", None).await;
    }
    assert_eq!(stored(&app, "montello", MONTELLO_MOTEL_ID).version, 1);
}

#[actix_web::test]
async fn roles_without_registry_access_get_404() {
    let app = spawn_demo_app().await;
    for email in [
        "commission@marquette-county.demo",
        "tourism@marquette-county.demo",
        "admin@marquette-county.demo",
        "marketplace@montello.demo",
    ] {
        let token = app.token(email).await;
        let res = app.get_as(&token, PAYORS).await;
        assert_eq!(res.status(), 404, "{email} lists payors");
        assert_problem(res, 404, "not-found", None).await;
        let res = app.get_as(&token, &payor_path(MONTELLO_MOTEL_ID)).await;
        assert_eq!(res.status(), 404, "{email} reads a payor");
        // Related to Montello in another role: a write is forbidden, before the body is judged.
        let res = send(
            &app,
            Method::POST,
            PAYORS,
            Some(&token),
            Some(json!({})),
            None,
        )
        .await;
        assert_problem(res, 403, "forbidden", None).await;
    }
    assert_eq!(reads_of(&app, "montello", MONTELLO_MOTEL_ID), 0);
}

#[actix_web::test]
async fn another_municipality_gets_404_and_changes_nothing() {
    let app = spawn_demo_app().await;
    let hayward = app.token("clerk@hayward.demo").await;
    let t = Some(hayward.as_str());
    let motel = payor_path(MONTELLO_MOTEL_ID);

    assert_problem(app.get_as(&hayward, PAYORS).await, 404, "not-found", None).await;
    assert_problem(app.get_as(&hayward, &motel).await, 404, "not-found", None).await;
    let attempts = [
        (Method::POST, PAYORS.to_owned(), new_payor("Intruder LLC")),
        (
            Method::PATCH,
            motel.clone(),
            json!({"legal_name": "Renamed"}),
        ),
        (
            Method::POST,
            format!("{motel}/close"),
            json!({"closed_on": "2026-01-31"}),
        ),
        (
            Method::POST,
            format!("{motel}/establishments"),
            json!({"name": "Annex", "address": "1 Road", "kind": "motel", "units": 4}),
        ),
        // Even a malformed body answers 404: authorisation comes first.
        (Method::PATCH, motel.clone(), json!({"nope": true})),
    ];
    for (method, path, body) in attempts {
        let res = send(&app, method, &path, t, Some(body), Some("\"1\"")).await;
        assert_problem(res, 404, "not-found", None).await;
    }
    // Through its own municipality's path, the Montello payor does not exist either.
    let res = app
        .get_as(
            &hayward,
            &format!("/v1/municipalities/hayward/payors/{MONTELLO_MOTEL_ID}"),
        )
        .await;
    assert_problem(res, 404, "not-found", None).await;
    let res = send(
        &app,
        Method::PATCH,
        &format!("/v1/municipalities/hayward/payors/{MONTELLO_MOTEL_ID}"),
        t,
        Some(json!({"legal_name": "Renamed"})),
        Some("\"1\""),
    )
    .await;
    assert_problem(res, 404, "not-found", None).await;

    let motel_row = stored(&app, "montello", MONTELLO_MOTEL_ID);
    assert_eq!(
        (motel_row.version, motel_row.legal_name.as_str()),
        (1, "Lakeside Motel LLC")
    );
    assert!(log_of(&app, "montello", MONTELLO_MOTEL_ID).is_empty());
    let montello_count = as_owner(&app, "montello", |conn, id| {
        db::payors::list(
            conn,
            id,
            &db::payors::PayorQuery {
                limit: 100,
                ..Default::default()
            },
        )
        .unwrap()
        .len()
    });
    assert_eq!(montello_count, 2, "nothing was created in Montello");

    // Its own registry it sees whole.
    let own: Value = app
        .get_as(&hayward, "/v1/municipalities/hayward/payors")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ids(&own), vec![HAYWARD_LODGE_ID.to_owned()]);
}

#[actix_web::test]
async fn anonymous_callers_get_401() {
    let app = spawn_demo_app().await;
    let motel = payor_path(MONTELLO_MOTEL_ID);
    let calls = [
        (Method::GET, PAYORS.to_owned(), None),
        (Method::GET, motel.clone(), None),
        (Method::POST, PAYORS.to_owned(), Some(new_payor("Anon LLC"))),
        (Method::PATCH, motel.clone(), Some(json!({"dba": "x"}))),
        (Method::POST, format!("{motel}/close"), None),
        (
            Method::POST,
            format!("{motel}/establishments"),
            Some(json!({})),
        ),
    ];
    for (method, path, body) in calls {
        let res = send(&app, method, &path, None, body, Some("\"1\"")).await;
        assert_problem(res, 401, "unauthorized", None).await;
    }
    assert!(log_of(&app, "montello", MONTELLO_MOTEL_ID).is_empty());
}

#[actix_web::test]
async fn a_disclosure_grantee_reads_only_the_payors_its_grant_names() {
    let app = spawn_demo_app().await;
    // A commission member sees no payor, until a court order names one.
    let member = app.token("commission@marquette-county.demo").await;
    let member_id = user_id(&app, &member).await;
    let grant_id = roomtax::db::identity::new_id();
    as_owner(&app, "montello", |conn, municipality_id| {
        let now = db::identity::now();
        db::disclosures::insert(
            conn,
            &DisclosureGrantRow {
                municipality_id,
                id: grant_id.clone(),
                reference: "Case 2026CV0042".into(),
                basis: "court_order".into(),
                grantee_user_id: member_id.clone(),
                expires_at: now + chrono::Duration::days(30),
                created_at: now,
                created_by: "test".into(),
                revoked_at: None,
            },
            &[MONTELLO_CAMPGROUND_ID.to_owned()],
        )
        .unwrap();
    });

    let list: Value = app.get_as(&member, PAYORS).await.json().await.unwrap();
    assert_eq!(ids(&list), vec![MONTELLO_CAMPGROUND_ID.to_owned()]);
    let res = app
        .get_as(&member, &payor_path(MONTELLO_CAMPGROUND_ID))
        .await;
    assert_eq!(res.status(), 200);
    assert_problem(
        app.get_as(&member, &payor_path(MONTELLO_MOTEL_ID)).await,
        404,
        "not-found",
        None,
    )
    .await;
    let res = send(
        &app,
        Method::PATCH,
        &payor_path(MONTELLO_CAMPGROUND_ID),
        Some(&member),
        Some(json!({"dba": "Mine"})),
        Some("\"1\""),
    )
    .await;
    assert_problem(res, 403, "forbidden", None).await;

    let log = log_of(&app, "montello", MONTELLO_CAMPGROUND_ID);
    assert_eq!(log.len(), 2, "the list and the read");
    assert!(
        log.iter()
            .all(|e| e.basis == format!("disclosure:{grant_id}") && e.actor_id == member_id),
        "{log:?}"
    );
}

#[actix_web::test]
async fn an_api_client_reads_with_payors_read_and_may_not_write() {
    let app = spawn_demo_app().await;
    let client_id = db::identity::new_id();
    let secret = "client-secret-for-the-payor-tests-0123456789";
    as_owner(&app, "montello", |conn, municipality_id| {
        db::identity::insert_api_client(
            conn,
            &ApiClientRow {
                id: client_id.clone(),
                municipality_id: Some(municipality_id),
                zone_id: None,
                name: "Bookkeeping app".into(),
                secret_digest: roomtax::auth::opaque::digest(secret),
                scopes: "payors:read".into(),
                created_at: db::identity::now(),
                created_by: "test".into(),
                revoked_at: None,
            },
        )
        .unwrap();
    });
    let res = app
        .post_json(
            "/v1/oauth/token",
            &json!({"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let token: Value = res.json().await.unwrap();
    let token = token["access_token"].as_str().unwrap();

    let list: Value = app.get_as(token, PAYORS).await.json().await.unwrap();
    assert_eq!(ids(&list).len(), 2);
    assert_eq!(
        app.get_as(token, &payor_path(MONTELLO_MOTEL_ID))
            .await
            .status(),
        200
    );
    let log = log_of(&app, "montello", MONTELLO_MOTEL_ID);
    assert!(
        log.iter()
            .all(|e| e.actor_kind == "client" && e.basis == "api_client"),
        "{log:?}"
    );
    let res = send(
        &app,
        Method::POST,
        PAYORS,
        Some(token),
        Some(new_payor("App LLC")),
        None,
    )
    .await;
    assert_problem(res, 403, "forbidden", None).await;
    // Confined to its one municipality.
    assert_problem(
        app.get_as(token, "/v1/municipalities/hayward/payors").await,
        404,
        "not-found",
        None,
    )
    .await;
}

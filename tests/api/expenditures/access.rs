//! Who may file, read, review, attach and inspect; the zone's access log;
//! row-level security on the zone's tables.

use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl, sql_types::BigInt};
use serde_json::json;

use super::{
    COMMISSION, MONTELLO_CLERK, REPORTS, TOURISM, ZONE_ADMIN, app, file, get, pdf, post,
    report_2026,
};
use crate::helpers::{TestDb, check::assert_problem};

#[actix_web::test]
async fn each_role_reaches_only_its_part() {
    let app = app().await;
    // The commission cannot file; the tourism entity cannot review.
    let res = post(&app, COMMISSION, REPORTS, report_2026()).await;
    assert_problem(res, 403, "forbidden", None).await;
    let r = file(&app, report_2026()).await;
    let id = r["id"].as_str().unwrap();
    let res = post(
        &app,
        TOURISM,
        &format!("{REPORTS}/{id}/review"),
        json!({"act": "accept"}),
    )
    .await;
    assert_problem(res, 403, "forbidden", None).await;
    // The zone admin and a member's clerk are related (403); Hayward is not (404).
    for (who, status) in [
        (ZONE_ADMIN, 403),
        (MONTELLO_CLERK, 403),
        ("operator@montello.demo", 403),
        ("clerk@hayward.demo", 404),
        ("operator@hayward.demo", 404),
    ] {
        let res = get(&app, who, &format!("{REPORTS}/{id}")).await;
        assert_eq!(res.status(), status, "{who}");
        let res = get(&app, who, REPORTS).await;
        assert_eq!(res.status(), status, "{who}");
    }
    // Another zone: the Marquette roles have no relation to it (404).
    let mut conn = app.owner_conn();
    roomtax::db::zones::insert(
        &mut conn,
        &roomtax::db::models::NewZone {
            slug: "sawyer-county",
            name: "Sawyer County Tourism Zone",
            county: "Sawyer",
            commission_name: "Sawyer County Tourism Commission",
            tourism_entity_name: None,
        },
    )
    .unwrap();
    for who in [COMMISSION, TOURISM, ZONE_ADMIN] {
        let res = get(&app, who, "/v1/zones/sawyer-county/expenditure-reports").await;
        assert_eq!(res.status(), 404, "{who}");
    }
    let res = post(
        &app,
        TOURISM,
        "/v1/zones/sawyer-county/expenditure-reports",
        report_2026(),
    )
    .await;
    assert_eq!(res.status(), 404);
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[actix_web::test]
async fn every_read_of_an_attachment_is_logged() {
    let app = app().await;
    let r = file(&app, report_2026()).await;
    let id = r["id"].as_str().unwrap().to_owned();
    let token = app.token(TOURISM).await;
    let upload = |kind: &'static str, bytes: Vec<u8>, ctype: &'static str| {
        let url = app.url(&format!("{REPORTS}/{id}/attachments?kind={kind}"));
        let token = token.clone();
        let client = app.client.clone();
        async move {
            client
                .post(url)
                .bearer_auth(token)
                .header("content-type", ctype)
                .body(bytes)
                .send()
                .await
                .unwrap()
        }
    };
    let res = upload("invoice", b"not a pdf at all".to_vec(), "application/pdf").await;
    assert_eq!(res.status(), 415);
    let res = upload("voucher", pdf(), "application/pdf").await;
    assert_eq!(res.status(), 422);
    let res = upload("invoice", pdf(), "application/pdf").await;
    assert_eq!(res.status(), 201);
    let meta: serde_json::Value = res.json().await.unwrap();
    let att = meta["id"].as_str().unwrap().to_owned();
    assert_eq!(meta["kind"], "invoice");
    assert_eq!(meta["content_type"], "application/pdf");
    let shown: serde_json::Value = get(&app, COMMISSION, &format!("{REPORTS}/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(shown["attachments"][0]["id"], att.as_str());
    let path = format!("{REPORTS}/{id}/attachments/{att}");
    // The zone admin may not read it, and is not logged.
    assert_eq!(get(&app, ZONE_ADMIN, &path).await.status(), 403);
    for _ in 0..2 {
        let res = get(&app, COMMISSION, &path).await;
        assert_eq!(res.status(), 200);
        assert_eq!(res.bytes().await.unwrap().to_vec(), pdf());
    }
    let mut conn = app.owner_conn();
    let zone = roomtax::db::zones::by_slug(&mut conn, "marquette-county")
        .unwrap()
        .unwrap();
    let record = format!("{id}/attachments/{att}");
    let rows = roomtax::db::in_transaction(&mut conn, |c| {
        roomtax::db::rls::apply(
            c,
            &roomtax::tenancy::DbScope {
                municipality_id: None,
                zone_id: Some(zone.id),
                user_id: None,
                client_id: None,
            },
        )?;
        Ok(roomtax::db::expenditures::access_of(c, zone.id, &record)?)
    })
    .unwrap();
    assert_eq!(rows.len(), 2, "one entry per download");
    assert!(rows.iter().all(|r| r.action == "read"
        && r.basis == "commission_member"
        && r.record_type == "expenditure_attachment"
        && r.actor_kind == "user"));
}

#[actix_web::test]
async fn a_member_requests_an_inspection_and_the_answer_is_recorded() {
    let app = app().await;
    let path = "/v1/zones/marquette-county/inspection-requests";
    let body = json!({"municipality": "montello", "records_of": "tourism_entity",
        "records": "Invoices of 2026 over $1,000"});
    for (who, status) in [
        ("staff@montello.demo", 403),
        (COMMISSION, 403),
        (ZONE_ADMIN, 403),
        ("clerk@hayward.demo", 404),
    ] {
        assert_eq!(
            post(&app, who, path, body.clone()).await.status(),
            status,
            "{who}"
        );
    }
    let res = post(
        &app,
        MONTELLO_CLERK,
        path,
        json!({"municipality": "hayward",
        "records_of": "commission", "records": "x"}),
    )
    .await;
    assert_problem(res, 422, "validation-failed", Some("municipality")).await;
    let res = post(&app, MONTELLO_CLERK, path, body).await;
    assert_eq!(res.status(), 201);
    let request: serde_json::Value = res.json().await.unwrap();
    assert_eq!(request["requested_on"], "2026-12-01");
    assert_eq!(request["municipality"], "montello");
    assert!(
        request["citation"]
            .as_str()
            .unwrap()
            .contains("reasonable times")
    );
    let id = request["id"].as_str().unwrap();
    let answer = format!("{path}/{id}/answer");
    let res = post(
        &app,
        MONTELLO_CLERK,
        &answer,
        json!({"answered_on": "2026-12-01", "answer": "x"}),
    )
    .await;
    assert_eq!(res.status(), 403);
    let res = post(
        &app,
        TOURISM,
        &answer,
        json!({"answered_on": "2026-12-02", "answer": "Yes"}),
    )
    .await;
    assert_problem(res, 422, "validation-failed", Some("answered_on")).await;
    let res = post(
        &app,
        TOURISM,
        &answer,
        json!({"answered_on": "2026-12-01",
        "inspection_on": "2026-12-08", "answer": "Records open at the office, 9 am"}),
    )
    .await;
    assert_eq!(res.status(), 201);
    let res = post(
        &app,
        COMMISSION,
        &answer,
        json!({"answered_on": "2026-12-01", "answer": "again"}),
    )
    .await;
    assert_problem(res, 409, "conflict", Some("id")).await;
    for who in [MONTELLO_CLERK, COMMISSION, TOURISM] {
        let list: serde_json::Value = get(&app, who, path).await.json().await.unwrap();
        assert_eq!(list["items"].as_array().unwrap().len(), 1, "{who}");
        assert_eq!(list["items"][0]["answer"]["inspection_on"], "2026-12-08");
    }
    assert_eq!(get(&app, ZONE_ADMIN, path).await.status(), 403);
    assert_eq!(get(&app, "clerk@hayward.demo", path).await.status(), 404);
}

/// Row-level security alone hides one zone's reports from another and keeps them on record.
#[actix_web::test]
async fn row_level_security_keeps_reports_to_their_zone() {
    let app = app().await;
    let TestDb::Postgres { url, owner_url, .. } = &app.db else {
        crate::helpers::skip(
            "expenditures::access::row_level_security_keeps_reports_to_their_zone",
            "needs PostgreSQL (row-level security, roles)",
        );
        return;
    };
    file(&app, report_2026()).await;
    let mut owner = PgConnection::establish(owner_url).unwrap();
    let count =
        |c: &mut PgConnection, sql: &str| diesel::sql_query(sql).get_result::<Count>(c).unwrap().n;
    let zone = count(
        &mut owner,
        "SELECT id AS n FROM zones WHERE slug = 'marquette-county'",
    );
    let mut conn = PgConnection::establish(url).unwrap();
    conn.transaction::<_, diesel::result::Error, _>(|c| {
        for t in [
            "expenditure_reports",
            "expenditure_items",
            "expenditure_report_versions",
        ] {
            assert_eq!(
                count(c, &format!("SELECT count(*) AS n FROM {t}")),
                0,
                "unset: {t}"
            );
        }
        diesel::sql_query(format!(
            "SELECT set_config('app.zone_id', '{}', true)",
            zone + 1000
        ))
        .execute(c)?;
        assert_eq!(
            count(c, "SELECT count(*) AS n FROM expenditure_items"),
            0,
            "another zone"
        );
        diesel::sql_query(format!("SELECT set_config('app.zone_id', '{zone}', true)"))
            .execute(c)?;
        assert_eq!(count(c, "SELECT count(*) AS n FROM expenditure_items"), 3);
        Ok(())
    })
    .unwrap();
    let err = conn
        .transaction::<_, diesel::result::Error, _>(|c| {
            diesel::sql_query(format!("SELECT set_config('app.zone_id', '{zone}', true)"))
                .execute(c)?;
            diesel::sql_query("UPDATE expenditure_items SET amount_cents = 1").execute(c)
        })
        .unwrap_err();
    assert!(
        err.to_string().contains("append-only") || err.to_string().contains("permission"),
        "{err}"
    );
}

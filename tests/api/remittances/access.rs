//! Who may submit, transfer and read: only the clerk-treasurer submits; zone
//! roles read totals and nothing of a payor; another zone's admin and a
//! non-member learn nothing; a municipality outside any zone is refused,
//! citing the statute; row-level security on PostgreSQL.

use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl, sql_types::BigInt};
use serde_json::json;

use super::*;
use crate::helpers::{
    check::assert_problem, check::rule_of, skip_unless_postgres, spawn_demo_app_at,
};

#[actix_web::test]
async fn only_the_clerk_submits_and_zone_roles_see_totals_only() {
    let app = spawn_demo_app_at("2026-07-02T15:00:00Z").await;
    let body = json!({"period": "2026-Q1"});
    for (who, status) in [
        ("operator@montello.demo", 403),
        ("staff@montello.demo", 403),
        (COMMISSION, 403),
        (TOURISM, 403),
        (ZONE_ADMIN, 403),
        ("clerk@hayward.demo", 404),
    ] {
        let token = app.token(who).await;
        let res = submit(&app, &token, "montello", body.clone()).await;
        assert_eq!(res.status().as_u16(), status, "{who}");
        let res = transfer(
            &app,
            &token,
            "montello",
            "00000000-0000-4000-8000-00000000dead",
            json!({"paid_on": "2026-07-01", "method": "check", "reference": "1"}),
        )
        .await;
        assert_eq!(res.status().as_u16(), status, "{who} transfer");
    }
    let clerk = app.token(CLERK).await;
    let v = json_of(submit(&app, &clerk, "montello", body).await, 201).await;
    assert_eq!(v["tax_collected"], "0.00");
    assert_eq!(v["payor_count"], 0);

    // Hayward is in no zone: refused, citing the statute.
    let hayward = app.token("clerk@hayward.demo").await;
    let res = submit(&app, &hayward, "hayward", json!({"period": "2026-Q1"})).await;
    let problem = assert_problem(res, 409, "conflict", Some("period")).await;
    assert_eq!(
        rule_of(&problem, "period").as_deref(),
        Some("not_a_zone_member")
    );
    assert!(
        problem["detail"].as_str().unwrap().contains("66.0615"),
        "{problem}"
    );
    // Bad input names the field.
    let res = submit(&app, &clerk, "montello", json!({"period": "2026-Q5"})).await;
    assert_problem(res, 422, "validation-failed", Some("period")).await;
    let res = submit(&app, &clerk, "montello", json!({"period": "2026"})).await;
    let problem = assert_problem(res, 422, "validation-failed", Some("period")).await;
    assert_eq!(rule_of(&problem, "period").as_deref(), Some("quarter"));

    // Zone roles read the zone's view; never a payor.
    for who in [COMMISSION, TOURISM, ZONE_ADMIN] {
        let token = app.token(who).await;
        let res = app.get_as(&token, &format!("{ZONE}?year=2026")).await;
        let text = res.text().await.unwrap();
        assert!(
            text.contains("\"status\":\"submitted\"") || text.contains("\"paid\""),
            "{who}: {text}"
        );
        for payor in [
            roomtax::demo::MONTELLO_MOTEL_ID,
            roomtax::demo::MONTELLO_CAMPGROUND_ID,
            "Lakeside",
        ] {
            assert!(!text.contains(payor), "{who} saw {payor}");
        }
        // ...and not the clerk's own list (related: 403).
        let res = app
            .get_as(&token, "/v1/municipalities/montello/remittances?year=2026")
            .await;
        assert_eq!(res.status(), 403, "{who}");
    }
    // A member's clerk sees its own rows; a westfield clerk only westfield's.
    let westfield = entered_member(&app, "westfield").await;
    let own = json_of(
        app.get_as(&westfield, &format!("{ZONE}?year=2026")).await,
        200,
    )
    .await;
    assert!(
        own["items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|q| q["municipality"] == "westfield"),
        "{own}"
    );
    assert_eq!(own["items"].as_array().unwrap().len(), 4);
    // Outsiders: another zone's admin and Hayward's clerk learn nothing (404).
    let other = other_zone_admin(&app, "northwoods").await;
    for token in [&other, &hayward] {
        for path in [
            format!("{ZONE}?year=2026"),
            "/v1/zones/marquette-county/seats?year=2026".into(),
        ] {
            let res = app.get_as(token, &path).await;
            assert_problem(res, 404, "not-found", None).await;
        }
        let res = app
            .get_as(token, "/v1/municipalities/montello/remittances?year=2026")
            .await;
        assert_eq!(res.status(), 404);
    }
    // The year is judged after the caller: an outsider with a bad year is 404.
    let res = app.get_as(&other, &format!("{ZONE}?year=abc")).await;
    assert_eq!(res.status(), 404);
    let commission = app.token(COMMISSION).await;
    let res = app.get_as(&commission, &format!("{ZONE}?year=3000")).await;
    assert_problem(res, 422, "validation-failed", Some("year")).await;
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

fn count(conn: &mut PgConnection, settings: &[(&str, String)], sql: &str) -> i64 {
    conn.transaction::<i64, diesel::result::Error, _>(|conn| {
        for (name, value) in settings {
            diesel::sql_query(format!("SELECT set_config('{name}', '{value}', true)"))
                .execute(conn)?;
        }
        Ok(diesel::sql_query(sql).get_result::<Count>(conn)?.n)
    })
    .unwrap()
}

#[actix_web::test]
async fn row_level_security_shows_the_zone_its_members_and_a_municipality_its_own() {
    let app = spawn_demo_app_at("2026-07-02T15:00:00Z").await;
    if skip_unless_postgres(
        &app.db,
        "row_level_security_shows_the_zone_its_members_and_a_municipality_its_own",
    ) {
        return;
    }
    let clerk = app.token(CLERK).await;
    let westfield = entered_member(&app, "westfield").await;
    json_of(
        submit(&app, &clerk, "montello", json!({"period": "2026-Q1"})).await,
        201,
    )
    .await;
    json_of(
        submit(
            &app,
            &westfield,
            "westfield",
            json!({"period": "2026-Q1", "gross_receipts": "1000.00", "tax_collected": "45.00", "payor_count": 3}),
        )
        .await,
        201,
    )
    .await;
    let ids = {
        let mut owner = app.owner_conn();
        let id = |slug: &str, conn: &mut roomtax::db::DbConn| {
            roomtax::db::municipalities::by_slug(conn, slug)
                .unwrap()
                .unwrap()
                .id
        };
        let zone = roomtax::db::zones::by_slug(&mut owner, "marquette-county")
            .unwrap()
            .unwrap()
            .id;
        (
            id("montello", &mut owner),
            id("westfield", &mut owner),
            id("hayward", &mut owner),
            zone,
        )
    };
    let (montello, westfield_id, hayward, zone) = ids;
    // The runtime role, as the service connects.
    let mut conn = PgConnection::establish(app.db.url()).unwrap();
    let sql = "SELECT COUNT(*) AS n FROM remittances";
    assert_eq!(count(&mut conn, &[], sql), 0, "fail closed when unset");
    assert_eq!(
        count(&mut conn, &[("app.zone_id", zone.to_string())], sql),
        2
    );
    assert_eq!(
        count(
            &mut conn,
            &[("app.municipality_id", montello.to_string())],
            sql
        ),
        1
    );
    assert_eq!(
        count(
            &mut conn,
            &[("app.municipality_id", westfield_id.to_string())],
            sql
        ),
        1
    );
    assert_eq!(
        count(
            &mut conn,
            &[("app.municipality_id", hayward.to_string())],
            sql
        ),
        0
    );
    // Nobody changes or removes a row, not even in its own tenant.
    for statement in [
        "UPDATE remittances SET payor_count = 9",
        "DELETE FROM remittances",
    ] {
        let changed = conn.transaction::<usize, diesel::result::Error, _>(|conn| {
            diesel::sql_query(format!(
                "SELECT set_config('app.municipality_id', '{montello}', true)"
            ))
            .execute(conn)?;
            diesel::sql_query(statement).execute(conn)
        });
        assert!(changed.is_err(), "{statement} was allowed");
    }
}

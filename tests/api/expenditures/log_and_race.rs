//! The zone admin's reader of the zone's access log
//! (`GET /v1/zones/{zone}/access-log`), and one report per period under
//! concurrency, on both backends.

use reqwest::Method;
use serde_json::{Value, json};

use super::{
    COMMISSION, MONTELLO_CLERK, REPORTS, TOURISM, ZONE_ADMIN, app, file, get, pdf, report_2026,
};

const LOG: &str = "/v1/zones/marquette-county/access-log";

#[actix_web::test]
async fn a_commission_members_download_is_in_the_zone_admins_access_log() {
    let app = app().await;
    let r = file(&app, report_2026()).await;
    let id = r["id"].as_str().unwrap().to_owned();
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
    let record = format!("{id}/attachments/{att}");

    // Nothing downloaded yet: an empty log.
    let empty: Value = get(&app, ZONE_ADMIN, LOG).await.json().await.unwrap();
    assert_eq!(empty["items"], json!([]), "{empty}");

    let commission = app.token(COMMISSION).await;
    let me: Value = app
        .get_as(&commission, "/v1/me")
        .await
        .json()
        .await
        .unwrap();
    let commission_id = me["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{me}"))
        .to_owned();
    for _ in 0..3 {
        let res = app
            .get_as(&commission, &format!("{REPORTS}/{record}"))
            .await;
        assert_eq!(res.status(), 200);
    }

    let res = get(&app, ZONE_ADMIN, &format!("{LOG}?limit=2")).await;
    assert_eq!(res.status(), 200);
    let page: Value = res.json().await.unwrap();
    let items = page["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{page}");
    let e = &items[0];
    assert_eq!(e["record_type"], "expenditure_attachment");
    assert_eq!(e["record_id"], record.as_str());
    assert_eq!(e["action"], "read");
    assert_eq!(e["basis"], "commission_member");
    assert_eq!(e["actor_kind"], "user");
    assert_eq!(e["actor_id"], commission_id.as_str());
    // Newest first, then the next page holds the third entry and ends.
    assert!(items[0]["at"].as_str() >= items[1]["at"].as_str());
    let cursor = page["next_cursor"]
        .as_str()
        .expect("a full page has a cursor");
    let next: Value = get(&app, ZONE_ADMIN, &format!("{LOG}?limit=2&cursor={cursor}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(next["items"].as_array().unwrap().len(), 1, "{next}");
    assert_eq!(next["next_cursor"], Value::Null);
    let mut ids: Vec<&str> = items
        .iter()
        .chain(next["items"].as_array().unwrap())
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 3, "pages do not overlap");
    // Filters: by record and by actor; a bad cursor is 400, a bad `since` 422.
    let by_actor: Value = get(&app, ZONE_ADMIN, &format!("{LOG}?actor_id={commission_id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(by_actor["items"].as_array().unwrap().len(), 3);
    let none: Value = get(&app, ZONE_ADMIN, &format!("{LOG}?record_id=nothing"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(none["items"], json!([]));
    assert_eq!(
        get(&app, ZONE_ADMIN, &format!("{LOG}?cursor=nonsense"))
            .await
            .status(),
        400
    );
    assert_eq!(
        get(&app, ZONE_ADMIN, &format!("{LOG}?since=yesterday"))
            .await
            .status(),
        422
    );
    // Reading the log is not itself logged.
    let again: Value = get(&app, ZONE_ADMIN, LOG).await.json().await.unwrap();
    assert_eq!(again["items"].as_array().unwrap().len(), 3);

    // Every other role: 403 when related to the zone, 404 when not.
    for (who, status) in [
        (COMMISSION, 403),
        (TOURISM, 403),
        (MONTELLO_CLERK, 403),
        ("staff@montello.demo", 403),
        ("operator@montello.demo", 403),
        ("clerk@hayward.demo", 404),
        ("operator@hayward.demo", 404),
    ] {
        assert_eq!(get(&app, who, LOG).await.status(), status, "{who}");
    }
    assert_eq!(app.get(LOG).await.status(), 401);
}

#[actix_web::test]
async fn two_reports_for_one_period_posted_at_once_yield_one_report_and_one_409() {
    let app = app().await;
    let token = app.token(TOURISM).await;
    // Each round its own half-year, so earlier rounds do not overlap later ones.
    for (round, (start, end)) in [
        ("2020-01-01", "2020-06-30"),
        ("2020-07-01", "2020-12-31"),
        ("2021-01-01", "2021-06-30"),
        ("2021-07-01", "2021-12-31"),
    ]
    .into_iter()
    .enumerate()
    {
        let body = json!({"period_start": start, "period_end": end,
            "received_declared": "0.00",
            "items": [{"date": start, "payee": "Lakeland Printing", "amount": "1200.00",
                "category": "marketing_projects", "description": "Round",
                "constructs_or_develops_lodging_facility": false}],
            "summed": []});
        let post = || {
            app.call(Method::POST, REPORTS)
                .bearer(&token)
                .json(body.clone())
                .send()
        };
        let (a, b) = tokio::join!(post(), post());
        let mut statuses = [a.status().as_u16(), b.status().as_u16()];
        statuses.sort_unstable();
        assert_eq!(statuses, [201, 409], "round {round}");
        let refused = if a.status() == 409 { a } else { b };
        let problem: Value = refused.json().await.unwrap();
        assert!(
            problem.to_string().contains("one_report_per_period"),
            "{problem}"
        );
    }
    let list: Value = get(&app, COMMISSION, REPORTS).await.json().await.unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 4, "{list}");
}

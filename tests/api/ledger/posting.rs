//! Filing and amending through the API post balanced journals.
//!
//! Hand computation (Montello, 4.5 %; see `returns/mod.rs`): 2026-Q1, gross
//! 10,000.00, exempt 500.00, filed 2026-05-01 (due 2026-04-30): tax 427.50,
//! late filing fee 25.00 (its interest 4.28 is computed, not posted).
//! Amended on 2026-07-15 to gross 11,000.00: tax 472.50, +45.00 (interest
//! 1.35 not posted; the fee not charged again).

use chrono::NaiveDate;
use reqwest::Method;
use serde_json::Value;

use super::{all_lines, roomtax, sums};
use crate::helpers::spawn_demo_app_at;
use crate::returns::{MOTEL, OPERATOR, file, filing, returns_of};

fn lines_of(app: &crate::helpers::TestApp, cause: &str) -> (String, Vec<(String, i64)>) {
    let mut owner = app.owner_conn();
    let m = roomtax::db::municipalities::by_slug(&mut owner, "montello")
        .unwrap()
        .unwrap();
    let journals =
        roomtax::db::ledger::of_cause(&mut owner, m.id, "return_version", cause).unwrap();
    assert_eq!(journals.len(), 1, "one journal for {cause}");
    let j = &journals[0];
    let lines = roomtax::db::ledger::lines_of(&mut owner, m.id, &j.id)
        .unwrap()
        .into_iter()
        .map(|l| (l.account, l.amount_cents))
        .collect();
    (
        format!("{} {} {}", j.kind, j.posted_on, j.cause_type),
        lines,
    )
}

fn day(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

#[actix_web::test]
async fn filing_and_amending_post_journals_summing_to_zero_with_the_hand_computed_amounts() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let res = file(&app, &token, MOTEL, filing("2026-Q1", "10000.00", "500.00")).await;
    assert_eq!(res.status(), 201);
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let body: Value = res.json().await.unwrap();
    let id = body["id"].as_str().unwrap().to_owned();
    assert_eq!(
        (body["tax"].as_str(), body["late_filing_fee"].as_str()),
        (Some("427.50"), Some("25.00"))
    );

    app.set_now("2026-07-15T15:00:00Z");
    let res = app
        .call(
            Method::POST,
            &format!("{}/{id}/amendments", returns_of(MOTEL)),
        )
        .bearer(&token)
        .header("if-match", &etag)
        .json(filing("2026-Q1", "11000.00", "500.00"))
        .send()
        .await;
    assert_eq!(res.status(), 201);

    let tax = format!("payor:{MOTEL}:2026-Q1:tax");
    let fee = format!("payor:{MOTEL}:2026-Q1:late_filing_fee");
    let (head, lines) = lines_of(&app, &format!("{id}:1"));
    assert_eq!(head, "return_filed 2026-05-01 return_version");
    assert_eq!(
        lines,
        vec![
            (tax.clone(), 42750),
            ("municipality:revenue:tax".into(), -42750),
            (fee.clone(), 2500),
            ("municipality:revenue:late_filing_fee".into(), -2500),
        ]
    );
    let (head, lines) = lines_of(&app, &format!("{id}:2"));
    assert_eq!(head, "return_amended 2026-07-15 return_version");
    assert_eq!(
        lines,
        vec![
            (tax.clone(), 4500),
            ("municipality:revenue:tax".into(), -4500)
        ]
    );

    // Balances as of a date: what was posted by then.
    let mut owner = app.owner_conn();
    let m = roomtax::db::municipalities::by_slug(&mut owner, "montello")
        .unwrap()
        .unwrap();
    let balance = |owner: &mut roomtax::db::DbConn, on: &str, account: &str| {
        let all = roomtax::usecases::ledger::balances_as_of(owner, m.id, MOTEL, day(on)).unwrap();
        all.iter()
            .find(|(a, _)| a.to_string() == account)
            .map(|(_, b)| b.to_string())
    };
    assert_eq!(balance(&mut owner, "2026-04-30", &tax), None);
    assert_eq!(
        balance(&mut owner, "2026-05-01", &tax).as_deref(),
        Some("427.50")
    );
    assert_eq!(
        balance(&mut owner, "2026-07-14", &tax).as_deref(),
        Some("427.50")
    );
    assert_eq!(
        balance(&mut owner, "2026-07-15", &tax).as_deref(),
        Some("472.50")
    );
    assert_eq!(
        balance(&mut owner, "2026-12-31", &fee).as_deref(),
        Some("25.00")
    );
    // Interest is never a balance ahead of its settlement.
    let all = roomtax::usecases::ledger::balances_as_of(&mut owner, m.id, MOTEL, day("2026-12-31"))
        .unwrap();
    assert!(all.keys().all(|a| !a.to_string().ends_with(":interest")));

    // Every journal of the database sums to zero, and the check agrees.
    assert!(sums(&all_lines(&mut owner)).values().all(|s| *s == 0));
    let out = roomtax(&app.db, &["check"]);
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[actix_web::test]
async fn an_amendment_down_lowers_the_period_tax() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let token = app.token(OPERATOR).await;
    let res = file(&app, &token, MOTEL, filing("2026-Q1", "10000.00", "500.00")).await;
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let res = app
        .call(
            Method::POST,
            &format!("{}/{id}/amendments", returns_of(MOTEL)),
        )
        .bearer(&token)
        .header("if-match", &etag)
        .json(filing("2026-Q1", "9000.00", "500.00"))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let tax = format!("payor:{MOTEL}:2026-Q1:tax");
    // On time: no fee lines.
    let (_, lines) = lines_of(&app, &format!("{id}:1"));
    assert_eq!(
        lines,
        vec![
            (tax.clone(), 42750),
            ("municipality:revenue:tax".into(), -42750)
        ]
    );
    let (_, lines) = lines_of(&app, &format!("{id}:2"));
    assert_eq!(
        lines,
        vec![(tax, -4500), ("municipality:revenue:tax".into(), 4500)]
    );
}

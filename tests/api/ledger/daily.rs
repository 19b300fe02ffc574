//! The clerk's daily posting of Montello's late-payment forfeiture, over
//! HTTP and from the command line, on both backends.
//!
//! Hand computation (the payor of `delinquencies`: 2025-Q4 tax 360.00 on
//! time; 2026-Q1 tax 427.50 filed late 2026-05-01, fee 25.00, filing due
//! 2026-04-30). 2026-Q1's forfeiture: the lesser of 25 % of the previous
//! year's tax (2025: 360.00 → 90.00) and 1,000.00 = 90.00, due once the tax
//! is unpaid after 2026-05-30 (30 days after the due date is still in
//! time). 2025-Q4 has no previous year (2024): no forfeiture ever.
//!
//! - 2026-05-30: nothing posted (in time);
//! - 2026-06-05: 90.00 posted on 2026-Q1 (journal `forfeiture_posted`,
//!   cause the return); a second run the same day posts nothing;
//! - a payment of 1,000.00 received 2026-06-01 (before the posting) and
//!   recorded that day (after it): 2025-Q4 tax 360.00 and its interest 5
//!   months (2026-01 → 2026-06) 360.00 × 5 % = 18.00; 2026-Q1 tax 427.50, its
//!   interest 2 months 8.55, the fee 25.00; **no forfeiture charged again**
//!   (the posted one is dated after the payment, so the payment does not
//!   apply to it): 360.00 + 18.00 + 427.50 + 8.55 + 25.00 = 839.05 applied,
//!   160.95 held as credit. The statement as of 2026-06-05: 2026-Q1 charged
//!   427.50 + 25.00 + 8.55 + 90.00 = 551.05, paid 461.05, balance 90.00;
//!   total 90.00 − 160.95 credit = −70.95.

use reqwest::Method;
use serde_json::{Value, json};

use super::delinquencies::{STAFF, late_payor};
use super::{all_lines, roomtax, sums};
use crate::helpers::{TestApp, spawn_demo_app_at};
use crate::returns::{CLERK, OPERATOR};

const DAILY: &str = "/v1/municipalities/montello/ledger/daily-posting";

async fn run(app: &TestApp, token: &str) -> reqwest::Response {
    app.call(Method::POST, DAILY).bearer(token).send().await
}

fn posted_for<'a>(body: &'a Value, payor: &str) -> Vec<&'a Value> {
    body["posted"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["payor_id"] == payor)
        .collect()
}

/// The journals of `kind` in the database (as the owner).
fn journals_of_kind(app: &TestApp, kind: &str) -> Vec<roomtax::db::ledger::JournalRow> {
    use diesel::prelude::*;
    use roomtax::db::schema::ledger_journals::dsl;
    let mut owner = app.owner_conn();
    dsl::ledger_journals
        .filter(dsl::kind.eq(kind))
        .load(&mut owner)
        .unwrap()
}

#[actix_web::test]
async fn the_forfeiture_is_posted_once_after_30_days_and_a_later_payment_does_not_charge_it_again()
{
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = late_payor(&app, &clerk).await;

    app.set_now("2026-05-30T15:00:00Z");
    let res = run(&app, &clerk).await;
    assert_eq!(res.status(), 200);
    let first: Value = res.json().await.unwrap();
    assert_eq!(first["posted_on"], "2026-05-30");
    assert!(posted_for(&first, &payor).is_empty(), "{first}");

    app.set_now("2026-06-05T15:00:00Z");
    let staff = app.token(STAFF).await;
    let second: Value = run(&app, &staff).await.json().await.unwrap();
    let mine = posted_for(&second, &payor);
    assert_eq!(mine.len(), 1, "{second}");
    assert_eq!(mine[0]["period"], "2026-Q1");
    assert_eq!(mine[0]["amount"], "90.00");
    assert!(
        mine[0]["citation"]
            .as_str()
            .unwrap()
            .contains("Montello room tax")
    );
    let journal_id = mine[0]["journal_id"].as_str().unwrap().to_owned();
    let forfeitures = journals_of_kind(&app, "forfeiture_posted");
    let j = forfeitures.iter().find(|j| j.id == journal_id).unwrap();
    assert_eq!(
        (j.cause_type.as_str(), j.posted_on.to_string()),
        ("return", "2026-06-05".into())
    );

    // Twice the same day: nothing more.
    let third: Value = run(&app, &clerk).await.json().await.unwrap();
    assert!(posted_for(&third, &payor).is_empty(), "{third}");
    assert_eq!(
        journals_of_kind(&app, "forfeiture_posted").len(),
        forfeitures.len()
    );

    // A payment received before the posting, recorded after it.
    let res = app
        .call(Method::POST, &format!("/v1/municipalities/montello/payors/{payor}/payments"))
        .bearer(&clerk)
        .json(json!({"received_on": "2026-06-01", "amount": "1000.00", "method": "check", "reference": "2001"}))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let payment: Value = res.json().await.unwrap();
    let charged: Vec<(String, String, String)> = payment["charges_posted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["period"].as_str().unwrap().to_owned(),
                c["component"].as_str().unwrap().to_owned(),
                c["amount"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        charged,
        vec![
            (
                "2025-Q4".to_owned(),
                "interest".to_owned(),
                "18.00".to_owned()
            ),
            (
                "2026-Q1".to_owned(),
                "interest".to_owned(),
                "8.55".to_owned()
            ),
        ]
    );
    assert_eq!(payment["credit"], "160.95");

    let account: Value = app
        .get_as(
            &clerk,
            &format!("/v1/municipalities/montello/payors/{payor}/account?as_of=2026-06-05"),
        )
        .await
        .json()
        .await
        .unwrap();
    let q1 = account["periods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["period"] == "2026-Q1")
        .unwrap();
    assert_eq!(
        (&q1["charged"], &q1["paid"], &q1["balance"]),
        // The 160.95 left as credit pays the forfeiture posted 2026-06-05
        // (after the receipt date; usecases::ledger::credit::apply_credit):
        // 461.05 + 90.00 = 551.05 paid, 70.95 still held.
        (&json!("551.05"), &json!("551.05"), &json!("0.00"))
    );
    assert_eq!(account["totals"]["balance"], "-70.95");

    // The daily posting after the payment: the forfeiture stands, nothing new.
    app.set_now("2026-06-06T15:00:00Z");
    let fourth: Value = run(&app, &clerk).await.json().await.unwrap();
    assert!(posted_for(&fourth, &payor).is_empty(), "{fourth}");

    let mut owner = app.owner_conn();
    assert!(sums(&all_lines(&mut owner)).values().all(|s| *s == 0));
    let out = roomtax(&app.db, &["check"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[actix_web::test]
async fn only_the_clerk_and_staff_run_the_daily_posting() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    for (who, status) in [
        (OPERATOR, 403),
        ("commission@marquette-county.demo", 403),
        ("clerk@hayward.demo", 404),
    ] {
        let token = app.token(who).await;
        assert_eq!(run(&app, &token).await.status(), status, "{who}");
    }
    assert_eq!(app.call(Method::POST, DAILY).send().await.status(), 401);
    // Hayward has no late-payment forfeiture: its clerk's run posts nothing.
    let hayward = app.token("clerk@hayward.demo").await;
    let res = app
        .call(
            Method::POST,
            "/v1/municipalities/hayward/ledger/daily-posting",
        )
        .bearer(&hayward)
        .send()
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["posted"], json!([]), "{body}");
}

#[actix_web::test]
async fn roomtax_post_daily_posts_from_the_command_line_once() {
    // The command line uses the real date (after 2026-05-30, when this was
    // written): 2026-Q1's 90.00 is due.
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = late_payor(&app, &clerk).await;
    let before = journals_of_kind(&app, "forfeiture_posted").len();

    let out = roomtax(&app.db, &["post-daily", "--municipality", "montello"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 forfeiture(s) posted"), "{stdout}");
    assert!(
        !stdout.contains("90.00") && !stdout.contains("Lakeview"),
        "no confidential value: {stdout}"
    );
    let after = journals_of_kind(&app, "forfeiture_posted");
    assert_eq!(after.len(), before + 1);

    let again = roomtax(&app.db, &["post-daily", "--municipality", "montello"]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stdout).contains("0 forfeiture(s) posted"));
    assert_eq!(
        journals_of_kind(&app, "forfeiture_posted").len(),
        before + 1
    );

    let mut owner = app.owner_conn();
    let lines = all_lines(&mut owner);
    let forfeiture: i64 = lines
        .iter()
        .filter(|l| l.account == format!("payor:{payor}:2026-Q1:late_payment_forfeiture"))
        .map(|l| l.amount_cents)
        .sum();
    assert_eq!(forfeiture, 9000);

    let unknown = roomtax(&app.db, &["post-daily", "--municipality", "nowhere"]);
    assert!(!unknown.status.success());
}

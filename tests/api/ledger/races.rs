//! Races on one payor's account (issue 9 item 11), with real concurrent HTTP
//! requests (`tokio::join!` of two calls), repeated, on both backends: SQLite
//! serialises write units (`BEGIN IMMEDIATE`); on PostgreSQL every posting
//! to a payor's accounts (payment, refund, the credit step of a return
//! version) first takes the payor's row lock, so whichever comes second
//! reads what the first committed.
//!
//! Hand computation (Montello, 2026-Q1 gross 10,000.00, exempt 500.00 → tax
//! 427.50, due 2026-04-30, filed 2026-04-20; everything on 2026-04-25, before
//! the due date, so no interest):
//! - two payments of 300.00: 427.50 to tax (300.00 + 127.50, never 300.00
//!   twice), 172.50 held; credits [0.00, 172.50] in some order;
//! - an amendment to gross 9,000.00 (→ 8,500.00 × 4.5 % = 382.50, −45.00)
//!   and a payment of 427.50: either order ends with tax charged 382.50 and
//!   paid 382.50, 45.00 held (payment first: the amendment moves the 45.00
//!   paid beyond the new tax to credit; amendment first: the payment leaves
//!   45.00 over). A lost update would leave the tax 45.00 overpaid and no
//!   credit;
//! - two refunds of the 172.50 held: one is paid, the other refused
//!   (`exceeds_credit`).

use reqwest::Method;
use serde_json::{Value, json};

use super::payments::{check_passes, new_payor, paper_return, pay, period, statement};
use crate::helpers::{TestApp, spawn_demo_app_at};
use crate::returns::{CLERK, filing, returns_of};

const STAFF: &str = "staff@montello.demo";
const ROUNDS: usize = 4;

fn payment(amount: &str, reference: &str) -> Value {
    json!({"received_on": "2026-04-25", "amount": amount, "method": "check", "reference": reference})
}

/// A new payor with its 2026-Q1 return (427.50) filed by the clerk on
/// 2026-04-20: the return's path and ETag.
async fn filed(app: &TestApp, clerk: &str, name: &str) -> (String, String, String) {
    let payor = new_payor(app, clerk, name).await;
    let mut body = filing("2026-Q1", "10000.00", "500.00");
    body["received_on"] = json!("2026-04-20");
    let res = app
        .call(Method::POST, &returns_of(&payor))
        .bearer(clerk)
        .json(body)
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let etag = res.headers()["etag"].to_str().unwrap().to_owned();
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let path = format!("{}/{id}", returns_of(&payor));
    (payor, path, etag)
}

fn tax_of(account: &Value) -> (String, String) {
    let q1 = period(account, "2026-Q1");
    let tax = q1["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["component"] == "tax")
        .unwrap();
    (
        tax["charged"].as_str().unwrap().to_owned(),
        tax["paid"].as_str().unwrap().to_owned(),
    )
}

#[actix_web::test]
async fn two_payments_at_once_each_apply_exactly_once() {
    let app = spawn_demo_app_at("2026-04-25T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    for round in 0..ROUNDS {
        let payor = new_payor(&app, &clerk, &format!("Race Inn {round} LLC")).await;
        paper_return(
            &app,
            &clerk,
            &payor,
            "2026-Q1",
            "10000.00",
            "500.00",
            "2026-04-20",
        )
        .await;
        let (a, b) = tokio::join!(
            pay(&app, &clerk, &payor, payment("300.00", "A")),
            pay(&app, &staff, &payor, payment("300.00", "B")),
        );
        assert_eq!((a.status().as_u16(), b.status().as_u16()), (201, 201));
        let (a, b): (Value, Value) = (a.json().await.unwrap(), b.json().await.unwrap());
        let tax_applied: i64 = [&a, &b]
            .iter()
            .flat_map(|p| p["allocations"].as_array().unwrap().clone())
            .map(|x| {
                assert_eq!(x["component"], "tax");
                roomtax::domain::Money::parse(x["amount"].as_str().unwrap())
                    .unwrap()
                    .cents()
            })
            .sum();
        assert_eq!(tax_applied, 42750, "round {round}: {a} {b}");
        let mut credits = [
            a["credit"].as_str().unwrap().to_owned(),
            b["credit"].as_str().unwrap().to_owned(),
        ];
        credits.sort();
        assert_eq!(credits, ["0.00", "172.50"], "round {round}");
        let account = statement(&app, &clerk, &payor, "2026-04-25").await;
        assert_eq!(tax_of(&account), ("427.50".into(), "427.50".into()));
        assert_eq!(account["totals"]["credit"], "172.50");
    }
    check_passes(&app);
}

#[actix_web::test]
async fn an_amendment_and_a_payment_at_once_lose_no_update() {
    let app = spawn_demo_app_at("2026-04-25T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    for round in 0..ROUNDS {
        let (payor, path, etag) = filed(&app, &clerk, &format!("Amend Race {round} LLC")).await;
        let mut amended = filing("2026-Q1", "9000.00", "500.00");
        amended["received_on"] = json!("2026-04-25");
        let amend = app
            .call(Method::POST, &format!("{path}/amendments"))
            .bearer(&clerk)
            .header("if-match", &etag)
            .json(amended)
            .send();
        let (amendment, paid) =
            tokio::join!(amend, pay(&app, &staff, &payor, payment("427.50", "P")));
        assert_eq!(
            (amendment.status().as_u16(), paid.status().as_u16()),
            (201, 201),
            "round {round}"
        );
        let account = statement(&app, &clerk, &payor, "2026-04-25").await;
        assert_eq!(
            tax_of(&account),
            ("382.50".into(), "382.50".into()),
            "round {round}: {account}"
        );
        assert_eq!(account["totals"]["credit"], "45.00", "round {round}");
        assert_eq!(account["totals"]["balance"], "-45.00", "round {round}");
    }
    check_passes(&app);
}

#[actix_web::test]
async fn two_refunds_of_the_same_credit_at_once_pay_it_once() {
    let app = spawn_demo_app_at("2026-04-25T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    for round in 0..ROUNDS {
        let payor = new_payor(&app, &clerk, &format!("Refund Race {round} LLC")).await;
        paper_return(
            &app,
            &clerk,
            &payor,
            "2026-Q1",
            "10000.00",
            "500.00",
            "2026-04-20",
        )
        .await;
        let res = pay(&app, &clerk, &payor, payment("600.00", "P")).await;
        assert_eq!(res.json::<Value>().await.unwrap()["credit"], "172.50");
        let refund = |token: &str| {
            app.call(
                Method::POST,
                &format!("/v1/municipalities/montello/payors/{payor}/refunds"),
            )
            .bearer(token)
            .json(json!({
                "refunded_on": "2026-04-25", "amount": "172.50", "method": "check",
                "reference": "R", "overpayment_intentional_or_careless": false, "period": "2026-Q1"
            }))
            .send()
        };
        let (a, b) = tokio::join!(refund(&clerk), refund(&staff));
        let mut statuses = [a.status().as_u16(), b.status().as_u16()];
        statuses.sort();
        assert_eq!(statuses, [201, 422], "round {round}");
        let account = statement(&app, &clerk, &payor, "2026-04-25").await;
        assert_eq!(account["totals"]["credit"], "0.00");
        assert_eq!(account["refunds"].as_array().unwrap().len(), 1);
    }
    check_passes(&app);
}

#[actix_web::test]
async fn on_postgresql_an_amendment_waits_for_the_payors_lock_before_applying_credit() {
    // What makes the amendment race safe on PostgreSQL, shown deterministically:
    // while another transaction holds the payor's row lock (as a payment does), an
    // amendment does not read the payor's accounts; it goes on when that ends.
    let app = spawn_demo_app_at("2026-04-25T15:00:00Z").await;
    if crate::helpers::skip_unless_postgres(&app.db, "an_amendment_waits_for_the_payors_lock") {
        return;
    }
    use diesel::RunQueryDsl;
    let clerk = app.token(CLERK).await;
    let (payor, path, etag) = filed(&app, &clerk, "Locked Amendment LLC").await;
    let mut owner = app.owner_conn();
    let m = roomtax::db::municipalities::by_slug(&mut owner, "montello")
        .unwrap()
        .unwrap();
    diesel::sql_query("BEGIN").execute(&mut owner).unwrap();
    roomtax::db::payments::lock_payor(&mut owner, m.id, &payor).unwrap();
    let mut amended = filing("2026-Q1", "9000.00", "500.00");
    amended["received_on"] = json!("2026-04-25");
    let pending = actix_web::rt::spawn(
        app.client
            .post(app.url(&format!("{path}/amendments")))
            .bearer_auth(&clerk)
            .header("if-match", &etag)
            .json(&amended)
            .send(),
    );
    actix_web::rt::time::sleep(std::time::Duration::from_millis(800)).await;
    assert!(
        !pending.is_finished(),
        "the amendment did not wait for the lock"
    );
    diesel::sql_query("COMMIT").execute(&mut owner).unwrap();
    let res = pending.await.unwrap().unwrap();
    assert_eq!(res.status().as_u16(), 201);
}

/// Q1 tax 427.50 paid on 2026-04-25 by P of 500.00 (72.50 held). On
/// 2026-07-20 the Q2 return (90.00, whose filing applies held credit) and
/// P's reversal at once. Either order ends the same: reversal first, the
/// 72.50 leaves the credit and Q2 finds none; filing first, the credit pays
/// 72.50 of Q2 and the reversal reopens it. Q1 427.50 owed again with 3
/// months' interest 12.83, Q2 90.00, credit 0.00, total 530.33. A lost
/// update would leave the credit at −72.50 (or Q2 paid by money that
/// bounced).
#[actix_web::test]
async fn a_credit_application_and_a_reversal_at_once_never_leave_credit_negative() {
    use super::reversals::{paid_ahead, reverse};
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    for round in 0..ROUNDS {
        let (payor, id) =
            paid_ahead(&app, &clerk, &format!("Apply Race {round} LLC"), "500.00").await;
        app.set_now("2026-07-20T15:00:00Z");
        let mut q2 = filing("2026-Q2", "2000.00", "0.00");
        q2["received_on"] = json!("2026-07-20");
        let file = app
            .call(Method::POST, &returns_of(&payor))
            .bearer(&clerk)
            .json(q2)
            .send();
        let (filed, reversed) =
            tokio::join!(file, reverse(&app, &staff, &payor, &id, "2026-07-20"));
        assert_eq!(
            (filed.status().as_u16(), reversed.status().as_u16()),
            (201, 201),
            "round {round}"
        );
        let account = statement(&app, &clerk, &payor, "2026-07-20").await;
        assert_eq!(
            tax_of(&account),
            ("427.50".into(), "0.00".into()),
            "round {round}"
        );
        let q2 = period(&account, "2026-Q2");
        assert_eq!(q2["balance"], "90.00", "round {round}: {account}");
        assert_eq!(account["totals"]["credit"], "0.00", "round {round}");
        assert_eq!(account["totals"]["balance"], "530.33", "round {round}");
    }
    check_passes(&app);
}

/// P of 500.00 (72.50 held); on 2026-06-15 a refund of the 72.50 and P's
/// reversal at once. Refund first: it is paid and the reversal makes it owed
/// back (`refund_reclaimed` 72.50); reversal first: the credit is gone and
/// the refund is refused (`exceeds_credit`). Either way the credit ends at
/// 0.00 and Q1 owes 427.50 + 2 months' interest 8.55, plus 72.50 when the
/// refund was paid.
#[actix_web::test]
async fn a_refund_and_a_reversal_at_once_never_leave_credit_negative() {
    use super::reversals::{paid_ahead, refunded, reverse};
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    let mut orders = std::collections::BTreeSet::new();
    for round in 0..ROUNDS {
        let (payor, id) = paid_ahead(
            &app,
            &clerk,
            &format!("Refund Reversal {round} LLC"),
            "500.00",
        )
        .await;
        app.set_now("2026-06-15T15:00:00Z");
        let (refund, reversed) = tokio::join!(
            refunded(&app, &clerk, &payor, "72.50"),
            reverse(&app, &staff, &payor, &id, "2026-06-15")
        );
        assert_eq!(reversed.status().as_u16(), 201, "round {round}");
        let refund_paid = match refund.status().as_u16() {
            201 => true,
            422 => false,
            other => panic!("round {round}: refund answered {other}"),
        };
        orders.insert(refund_paid);
        let account = statement(&app, &clerk, &payor, "2026-06-15").await;
        assert_eq!(account["totals"]["credit"], "0.00", "round {round}");
        let q1 = period(&account, "2026-Q1");
        let (owed_back, balance) = if refund_paid {
            ("72.50", "508.55")
        } else {
            ("0.00", "436.05")
        };
        let reclaimed = q1["components"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["component"] == "refund_reclaimed")
            .map_or("0.00".to_owned(), |c| {
                c["charged"].as_str().unwrap().to_owned()
            });
        assert_eq!(reclaimed, owed_back, "round {round}: {account}");
        assert_eq!(q1["balance"], balance, "round {round}: {account}");
        assert_eq!(
            account["refunds"].as_array().unwrap().len(),
            usize::from(refund_paid),
            "round {round}"
        );
    }
    check_passes(&app);
}

/// A filing, a payment and a determination on one payor at once, repeated;
/// then `roomtax check`, which replays every payment on the journals stored
/// before it, passes: every writer took the payor's lock before its first
/// journal, so storage order is commit order (on PostgreSQL a filing that
/// wrote its journal before waiting for the lock would be stored before a
/// payment that committed first, and the payment's replay would count the
/// filing's charges). On 2026-06-15 (new payor, 2026-Q1 tax 427.50 filed
/// 2026-04-20): the 2025-Q3 return filed late (gross 4,000.00: tax 180.00
/// and its fee), a payment of 2,000.00, and an office audit of 2026-Q1
/// (12,000.00 less 500.00: 517.50, 90.00 more). Whatever the order, the
/// payment and the credit it leaves pay everything: 2,000.00 less what was
/// charged is held.
#[actix_web::test]
async fn a_filing_a_payment_and_a_determination_at_once_replay_in_the_check() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    let mut payors = Vec::new();
    for round in 0..ROUNDS {
        let payor = new_payor(&app, &clerk, &format!("Three Way {round} LLC")).await;
        paper_return(
            &app,
            &clerk,
            &payor,
            "2026-Q1",
            "10000.00",
            "500.00",
            "2026-04-20",
        )
        .await;
        payors.push(payor);
    }
    app.set_now("2026-06-15T15:00:00Z");
    for (round, payor) in payors.iter().enumerate() {
        let mut q3 = filing("2025-Q3", "4000.00", "0.00");
        q3["received_on"] = json!("2026-06-15");
        let file = app
            .call(Method::POST, &returns_of(payor))
            .bearer(&clerk)
            .json(q3)
            .send();
        let audit = app
            .call(
                Method::POST,
                &format!("/v1/municipalities/montello/payors/{payor}/determinations"),
            )
            .bearer(&clerk)
            .json(json!({
                "kind": "office_audit",
                "period": "2026-Q1",
                "basis": "Booking ledger shows 12,000.00 of room sales.",
                "gross_receipts": "12000.00",
                "exempt_receipts": "500.00"
            }))
            .send();
        let paid = pay(
            &app,
            &staff,
            payor,
            json!({"received_on": "2026-06-15", "amount": "2000.00", "method": "check", "reference": "T"}),
        );
        let (filed, audited, paid) = tokio::join!(file, audit, paid);
        assert_eq!(
            (
                filed.status().as_u16(),
                audited.status().as_u16(),
                paid.status().as_u16()
            ),
            (201, 201, 201),
            "round {round}: {} {}",
            filed.text().await.unwrap(),
            audited.text().await.unwrap()
        );
        let account = statement(&app, &clerk, payor, "2026-06-15").await;
        let q1 = period(&account, "2026-Q1");
        assert_eq!(q1["balance"], "0.00", "round {round}: {account}");
        let q3 = period(&account, "2025-Q3");
        assert_eq!(q3["balance"], "0.00", "round {round}: {account}");
        assert_eq!(
            account["totals"]["balance"]
                .as_str()
                .unwrap()
                .chars()
                .next(),
            Some('-'),
            "round {round}: credit held: {account}"
        );
    }
    check_passes(&app);
}

/// What makes that race replay on PostgreSQL, shown deterministically: while
/// another unit holds the payor's lock, a filing writes neither its version
/// nor its journal; both are stored after the lock is released.
#[actix_web::test]
async fn on_postgresql_a_filing_waits_for_the_payors_lock_before_writing_its_journal() {
    let app = spawn_demo_app_at("2026-04-25T15:00:00Z").await;
    if crate::helpers::skip_unless_postgres(&app.db, "a_filing_waits_for_the_payors_lock") {
        return;
    }
    use diesel::RunQueryDsl;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Locked Filing LLC").await;
    let mut owner = app.owner_conn();
    let m = roomtax::db::municipalities::by_slug(&mut owner, "montello")
        .unwrap()
        .unwrap();
    diesel::sql_query("BEGIN").execute(&mut owner).unwrap();
    roomtax::db::payments::lock_payor(&mut owner, m.id, &payor).unwrap();
    let mut body = filing("2026-Q1", "10000.00", "500.00");
    body["received_on"] = json!("2026-04-20");
    let pending = actix_web::rt::spawn(
        app.client
            .post(app.url(&returns_of(&payor)))
            .bearer_auth(&clerk)
            .json(&body)
            .send(),
    );
    actix_web::rt::time::sleep(std::time::Duration::from_millis(800)).await;
    assert!(
        !pending.is_finished(),
        "the filing did not wait for the lock"
    );
    let released = chrono::Utc::now().naive_utc();
    diesel::sql_query("COMMIT").execute(&mut owner).unwrap();
    let res = pending.await.unwrap().unwrap();
    assert_eq!(res.status().as_u16(), 201);
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let journals = roomtax::db::ledger::of_cause(
        &mut owner,
        m.id,
        "return_version",
        &roomtax::domain::ledger::Cause::ReturnVersion {
            return_id: id,
            version: 1,
        }
        .cause_id(),
    )
    .unwrap();
    assert!(!journals.is_empty());
    for j in journals {
        assert!(
            j.created_at >= released,
            "journal {} written while the lock was held",
            j.id
        );
    }
}

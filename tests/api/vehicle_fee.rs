//! Montello's vehicle registration fee from the clerk's side, on both
//! backends: the DOT's remittances reconciled, corrections as versions, the
//! segregated fund's spending and statement, Hayward refused, who may call.
//!
//! Hand computation (Montello vehicle registration fee: $20.00 per vehicle,
//! the DOT keeps $0.17 per vehicle; counts not in the issue):
//! - 2025-Q4, 943 vehicles: gross 943 × 20.00 = 18,860.00; retention
//!   943 × 0.17 = 160.31; net 18,699.69; received 18,700.00 on 2026-01-20:
//!   over by 0.31.
//! - 2026-Q1, 1,237 vehicles: gross 24,740.00; retention 210.29; net
//!   24,529.71; received 24,529.71 on 2026-04-20: matches. Fund 43,229.71.
//! - spent 2026-05-15, 30,000.00 on local street and road improvements:
//!   fund 13,229.71.
//! - 2026-Q2, 1,402 vehicles: gross 28,040.00; retention 238.34; net
//!   27,801.66; received 27,790.00 on 2026-07-10: short by 11.66. Fund
//!   41,019.71.
//! - correction of 2026-Q2 on 2026-07-14: the DOT pays the 11.66 (received
//!   27,801.66 in all): version 2 matches and posts 11.66. Fund 41,031.37.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, check::assert_problem, spawn_demo_app_at};

const CLERK: &str = "clerk@montello.demo";
const STAFF: &str = "staff@montello.demo";
const REMITTANCES: &str = "/v1/municipalities/montello/vehicle-fee-remittances";
const SPENDING: &str = "/v1/municipalities/montello/vehicle-fee-fund/spending";
const FUND: &str = "/v1/municipalities/montello/vehicle-fee-fund";

async fn post(app: &TestApp, token: &str, path: &str, body: Value) -> reqwest::Response {
    app.call(Method::POST, path)
        .bearer(token)
        .json(body)
        .send()
        .await
}

fn remittance(period: &str, count: i64, received: &str, on: &str) -> Value {
    json!({
        "period": period,
        "vehicle_count": count,
        "amount_received": received,
        "received_on": on,
        "reference": format!("DOT EFT {period}")
    })
}

fn spending(on: &str, amount: &str, purpose: &str) -> Value {
    json!({
        "spent_on": on,
        "amount": amount,
        "payee": "Marquette Paving Co.",
        "purpose": purpose,
        "description": "Resurfacing of Montello Street"
    })
}

async fn created(res: reqwest::Response) -> Value {
    let status = res.status();
    let body: Value = res.json().await.unwrap();
    assert_eq!(status, 201, "{body}");
    body
}

fn rules(problem: &Value) -> Vec<(String, String)> {
    problem["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["field"].as_str().unwrap().to_owned(),
                e["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn check_passes(app: &TestApp) -> String {
    let out = crate::ledger::roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The year's flow of the module doc, as recorded by the clerk and staff.
async fn the_year(app: &TestApp, clerk: &str, staff: &str) {
    app.set_now("2026-01-20T15:00:00Z");
    let q4 = created(
        post(
            app,
            clerk,
            REMITTANCES,
            remittance("2025-Q4", 943, "18700.00", "2026-01-20"),
        )
        .await,
    )
    .await;
    assert_eq!(
        (
            &q4["gross"]["amount"],
            &q4["dot_retention"]["amount"],
            &q4["expected_net"]["amount"]
        ),
        (&json!("18860.00"), &json!("160.31"), &json!("18699.69"))
    );
    assert_eq!(
        (&q4["difference"]["amount"], &q4["status"]),
        (&json!("0.31"), &json!("over"))
    );
    app.set_now("2026-04-20T15:00:00Z");
    let q1 = created(
        post(
            app,
            staff,
            REMITTANCES,
            remittance("2026-Q1", 1237, "24529.71", "2026-04-20"),
        )
        .await,
    )
    .await;
    assert_eq!(q1["status"], "matches");
    app.set_now("2026-05-15T15:00:00Z");
    let spent = created(
        post(
            app,
            clerk,
            SPENDING,
            spending(
                "2026-05-15",
                "30000.00",
                "local_street_and_road_improvements",
            ),
        )
        .await,
    )
    .await;
    assert_eq!(spent["fund_balance_after"], "13229.71");
    assert_eq!(spent["purpose_words"], "local street and road improvements");
    app.set_now("2026-07-10T15:00:00Z");
    let q2 = created(
        post(
            app,
            clerk,
            REMITTANCES,
            remittance("2026-Q2", 1402, "27790.00", "2026-07-10"),
        )
        .await,
    )
    .await;
    assert_eq!(
        (
            &q2["expected_net"]["amount"],
            &q2["difference"]["amount"],
            &q2["status"]
        ),
        (&json!("27801.66"), &json!("-11.66"), &json!("short"))
    );
}

#[actix_web::test]
async fn remittances_are_reconciled_to_the_cent_and_the_amount_received_goes_to_the_fund() {
    let app = spawn_demo_app_at("2026-01-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    the_year(&app, &clerk, &staff).await;

    // The 1,237 vehicles of 2026-Q1, explained and cited.
    let res = app
        .get_as(&clerk, &format!("{REMITTANCES}?period=2026-Q1"))
        .await;
    assert_eq!(res.status(), 200);
    let list: Value = res.json().await.unwrap();
    let q1 = &list["items"][0];
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    assert_eq!(
        (
            &q1["gross"]["amount"],
            &q1["dot_retention"]["amount"],
            &q1["expected_net"]["amount"]
        ),
        (&json!("24740.00"), &json!("210.29"), &json!("24529.71"))
    );
    assert_eq!(
        (&q1["fee_per_vehicle"], &q1["dot_retention_per_vehicle"]),
        (&json!("20.00"), &json!("0.17"))
    );
    assert_eq!(
        (&q1["posted_to_fund"], &q1["superseded"], &q1["version"]),
        (&json!("24529.71"), &json!(false), &json!(1))
    );
    assert!(
        q1["gross"]["explanation"]
            .as_str()
            .unwrap()
            .contains("1237 vehicle(s) × 20.00 = 24740.00")
    );
    assert!(
        q1["dot_retention"]["citation"]
            .as_str()
            .unwrap()
            .contains("DOT retention ¶")
    );
    assert!(
        q1["expected_net"]["citation"]
            .as_str()
            .unwrap()
            .contains("segregated fund")
    );

    // A second recording of a quarter is refused: a correction is a version.
    app.set_now("2026-07-15T15:00:00Z");
    let again = post(
        &app,
        &clerk,
        REMITTANCES,
        remittance("2026-Q1", 1240, "24589.20", "2026-07-15"),
    )
    .await;
    let problem = assert_problem(again, 409, "conflict", Some("period")).await;
    assert_eq!(
        rules(&problem),
        vec![("period".to_owned(), "already_recorded".to_owned())]
    );
    assert!(
        problem["detail"].as_str().unwrap().contains("corrections"),
        "{problem}"
    );

    // The fund: 18,700.00 + 24,529.71 − 30,000.00 + 27,790.00 = 41,019.71.
    let res = app.get_as(&clerk, FUND).await;
    assert_eq!(res.status(), 200);
    let fund: Value = res.json().await.unwrap();
    assert_eq!(
        (&fund["from"], &fund["to"]),
        (&json!("2026-01-01"), &json!("2026-07-15"))
    );
    assert_eq!(
        (
            &fund["opening_balance"],
            &fund["receipts"],
            &fund["spending"],
            &fund["closing_balance"]
        ),
        (
            &json!("0.00"),
            &json!("71019.71"),
            &json!("30000.00"),
            &json!("41019.71")
        )
    );
    let balances: Vec<(&str, &str, &str)> = fund["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["date"].as_str().unwrap(),
                e["amount"].as_str().unwrap(),
                e["balance"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        balances,
        vec![
            ("2026-01-20", "18700.00", "18700.00"),
            ("2026-04-20", "24529.71", "43229.71"),
            ("2026-05-15", "-30000.00", "13229.71"),
            ("2026-07-10", "27790.00", "41019.71"),
        ]
    );
    assert_eq!(
        fund["entries"][3]["receipt"]["difference"]["amount"],
        "-11.66"
    );
    assert_eq!(
        fund["entries"][2]["spending"]["purpose"],
        "local_street_and_road_improvements"
    );
    assert!(
        fund["citation"]
            .as_str()
            .unwrap()
            .contains("restricted to local street and road improvements")
    );
    assert_eq!(fund["allowed_purposes"].as_array().unwrap().len(), 3);

    // A span: opening 18,700.00 at the end of 2026-03-31; 04-20 and 05-15 only.
    let res = app
        .get_as(&staff, &format!("{FUND}?from=2026-04-01&to=2026-06-30"))
        .await;
    let span: Value = res.json().await.unwrap();
    assert_eq!(
        (
            &span["opening_balance"],
            &span["receipts"],
            &span["spending"],
            &span["closing_balance"]
        ),
        (
            &json!("18700.00"),
            &json!("24529.71"),
            &json!("30000.00"),
            &json!("13229.71")
        )
    );
    assert_eq!(span["entries"].as_array().unwrap().len(), 2);

    // The same as CSV: opening row, one row per movement, closing row.
    let res = app
        .client
        .get(app.url(&format!("{FUND}?from=2026-04-01&to=2026-06-30")))
        .bearer_auth(&staff)
        .header("accept", "text/csv")
        .send()
        .await
        .unwrap();
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let csv = res.text().await.unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 5, "{csv}");
    assert!(rows.iter().all(|r| r.split(',').count() == 14), "{csv}");
    assert_eq!(rows[1], "2026-03-31,opening_balance,,,,,,,,,,,,18700.00");
    assert_eq!(
        rows[2],
        "2026-04-20,receipt,2026-Q1,1,1237,24529.71,24529.71,0.00,matches,,,,24529.71,43229.71"
    );
    assert_eq!(
        rows[3],
        "2026-05-15,spending,,,,,,,,Marquette Paving Co.,local_street_and_road_improvements,Resurfacing of Montello Street,-30000.00,13229.71"
    );
    assert_eq!(rows[4], "2026-06-30,closing_balance,,,,,,,,,,,,13229.71");
    let out = check_passes(&app);
    assert!(
        out.contains("3 vehicle fee remittance version(s) and 1 spending(s)"),
        "{out}"
    );
}

#[actix_web::test]
async fn a_correction_is_a_new_version_posting_only_the_difference() {
    let app = spawn_demo_app_at("2026-01-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    the_year(&app, &clerk, &staff).await;
    app.set_now("2026-07-14T15:00:00Z");
    let corrections = format!("{REMITTANCES}/2026-Q2/corrections");
    let body = json!({
        "vehicle_count": 1402,
        "amount_received": "27801.66",
        "received_on": "2026-07-14",
        "reference": "DOT EFT 2026-Q2 balance",
        "reason": "The DOT paid the 11.66 it had short-paid"
    });
    let v2 = created(post(&app, &clerk, &corrections, body.clone()).await).await;
    assert_eq!(
        (&v2["version"], &v2["status"], &v2["posted_to_fund"]),
        (&json!(2), &json!("matches"), &json!("11.66"))
    );
    assert_eq!(v2["difference"]["amount"], "0.00");
    // The same figures again change nothing: refused, not posted twice.
    let same = post(&app, &clerk, &corrections, body).await;
    let problem = assert_problem(same, 422, "validation-failed", Some("amount_received")).await;
    assert_eq!(
        rules(&problem),
        vec![("amount_received".to_owned(), "no_change".to_owned())]
    );

    let res = app
        .get_as(&clerk, &format!("{REMITTANCES}?period=2026-Q2"))
        .await;
    let list: Value = res.json().await.unwrap();
    let versions: Vec<(i64, bool, &str, &str)> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["version"].as_i64().unwrap(),
                v["superseded"].as_bool().unwrap(),
                v["amount_received"].as_str().unwrap(),
                v["posted_to_fund"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        versions,
        vec![
            (1, true, "27790.00", "27790.00"),
            (2, false, "27801.66", "11.66")
        ]
    );
    let fund: Value = app.get_as(&clerk, FUND).await.json().await.unwrap();
    assert_eq!(fund["closing_balance"], "41031.37");

    // A correction down: 2026-Q1 was 1,235 vehicles, the DOT claws back 2 × 19.83
    // = 39.66 (1,235 × 19.83 = 24,490.05 in all): posted −39.66.
    let down = created(
        post(
            &app,
            &staff,
            &format!("{REMITTANCES}/2026-Q1/corrections"),
            json!({
                "vehicle_count": 1235,
                "amount_received": "24490.05",
                "received_on": "2026-07-14",
                "reference": "DOT adjustment 2026-Q1",
                "reason": "Two registrations were refunded by the DOT"
            }),
        )
        .await,
    )
    .await;
    assert_eq!(
        (
            &down["posted_to_fund"],
            &down["expected_net"]["amount"],
            &down["status"]
        ),
        (&json!("-39.66"), &json!("24490.05"), &json!("matches"))
    );
    let fund: Value = app.get_as(&clerk, FUND).await.json().await.unwrap();
    assert_eq!(fund["closing_balance"], "40991.71");

    // Faults of a correction: a quarter never recorded is 404; dates before the
    // version corrected, negative figures, a blank reason are 422.
    let missing = post(
        &app,
        &clerk,
        &format!("{REMITTANCES}/2024-Q2/corrections"),
        json!({
            "vehicle_count": 1, "amount_received": "19.83", "received_on": "2026-07-14",
            "reference": "x", "reason": "y"
        }),
    )
    .await;
    assert_problem(missing, 404, "not-found", None).await;
    let bad = post(
        &app,
        &clerk,
        &corrections,
        json!({
            "vehicle_count": -1, "amount_received": "-0.01", "received_on": "2026-07-15",
            "reference": "x", "reason": " "
        }),
    )
    .await;
    let problem = assert_problem(bad, 422, "validation-failed", None).await;
    let mut got = rules(&problem);
    got.sort();
    assert_eq!(
        got,
        vec![
            ("amount_received".to_owned(), "not_negative".to_owned()),
            ("reason".to_owned(), "non_empty".to_owned()),
            ("received_on".to_owned(), "in_the_future".to_owned()),
            ("vehicle_count".to_owned(), "not_negative".to_owned()),
        ]
    );
    let early = post(
        &app,
        &clerk,
        &corrections,
        json!({
            "vehicle_count": 1402, "amount_received": "27800.00", "received_on": "2026-07-13",
            "reference": "x", "reason": "y"
        }),
    )
    .await;
    let problem = assert_problem(early, 422, "validation-failed", Some("received_on")).await;
    assert_eq!(
        rules(&problem),
        vec![(
            "received_on".to_owned(),
            "before_previous_version".to_owned()
        )]
    );
    let out = check_passes(&app);
    assert!(
        out.contains("5 vehicle fee remittance version(s) and 1 spending(s)"),
        "{out}"
    );
}

#[actix_web::test]
async fn spending_is_refused_for_a_purpose_the_ordinance_does_not_allow_and_beyond_the_fund() {
    let app = spawn_demo_app_at("2026-01-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    the_year(&app, &clerk, &staff).await;
    app.set_now("2026-07-15T15:00:00Z");
    for purpose in ["general_fund", "tourism_promotion", "lodging_facility"] {
        let res = post(
            &app,
            &clerk,
            SPENDING,
            spending("2026-07-12", "100.00", purpose),
        )
        .await;
        let problem = assert_problem(res, 409, "conflict", Some("purpose")).await;
        assert_eq!(
            rules(&problem),
            vec![("purpose".to_owned(), "purpose_not_allowed".to_owned())]
        );
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains("Montello vehicle registration fee, fee ¶"),
            "{detail}"
        );
        assert!(
            detail.contains("transportation-related expenses"),
            "{detail}"
        );
    }
    // On 2026-06-01 the fund held 13,229.71: one cent more is refused.
    let res = post(
        &app,
        &clerk,
        SPENDING,
        spending("2026-06-01", "13229.72", "transportation_related_expenses"),
    )
    .await;
    let problem = assert_problem(res, 409, "conflict", Some("amount")).await;
    assert_eq!(
        rules(&problem),
        vec![("amount".to_owned(), "exceeds_fund_balance".to_owned())]
    );
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("holds 13229.71 on 2026-06-01"),
        "{problem}"
    );
    // On 2026-04-25 it held 43,229.71, but 30,000.00 left on 05-15: a payment dated
    // back there may take at most 13,229.71, or the fund would be overdrawn in May.
    let res = post(
        &app,
        &clerk,
        SPENDING,
        spending("2026-04-25", "15000.00", "transportation_related_expenses"),
    )
    .await;
    let problem = assert_problem(res, 409, "conflict", Some("amount")).await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("at most 13229.71"),
        "{problem}"
    );
    // Exactly what is available is spent; the fund is then empty on 06-01.
    let spent = created(
        post(
            &app,
            &staff,
            SPENDING,
            spending(
                "2026-06-01",
                "13229.71",
                "road_and_street_maintenance_and_operation",
            ),
        )
        .await,
    )
    .await;
    assert_eq!(spent["fund_balance_after"], "0.00");
    let res = post(
        &app,
        &clerk,
        SPENDING,
        spending("2026-07-01", "0.01", "transportation_related_expenses"),
    )
    .await;
    assert_problem(res, 409, "conflict", Some("amount")).await;
    // A correction may not take back more than the fund can give up either.
    let res = post(
        &app,
        &clerk,
        &format!("{REMITTANCES}/2026-Q1/corrections"),
        json!({
            "vehicle_count": 0, "amount_received": "0.00", "received_on": "2026-07-01",
            "reference": "x", "reason": "entered for the wrong city"
        }),
    )
    .await;
    let problem = assert_problem(res, 409, "conflict", Some("amount_received")).await;
    assert_eq!(
        rules(&problem),
        vec![(
            "amount_received".to_owned(),
            "exceeds_fund_balance".to_owned()
        )]
    );
    // Validation, all at once.
    let res = post(
        &app,
        &clerk,
        SPENDING,
        json!({
            "spent_on": "2026-07-16", "amount": "0.00", "payee": "\u{200b}",
            "purpose": "", "description": "x".repeat(501)
        }),
    )
    .await;
    let problem = assert_problem(res, 422, "validation-failed", None).await;
    let mut got = rules(&problem);
    got.sort();
    assert_eq!(
        got,
        vec![
            ("amount".to_owned(), "positive".to_owned()),
            ("description".to_owned(), "max_length".to_owned()),
            ("payee".to_owned(), "non_empty".to_owned()),
            ("purpose".to_owned(), "non_empty".to_owned()),
            ("spent_on".to_owned(), "in_the_future".to_owned()),
        ]
    );
    let fund: Value = app.get_as(&clerk, FUND).await.json().await.unwrap();
    assert_eq!(fund["closing_balance"], "27790.00");
    check_passes(&app);
}

#[actix_web::test]
async fn a_remittance_is_validated_and_idempotent() {
    let app = spawn_demo_app_at("2026-07-15T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let res = post(
        &app,
        &clerk,
        REMITTANCES,
        json!({
            "period": "2026", "vehicle_count": -3, "amount_received": "-1.00",
            "received_on": "2026-07-16", "reference": " "
        }),
    )
    .await;
    let problem = assert_problem(res, 422, "validation-failed", None).await;
    let mut got = rules(&problem);
    got.sort();
    assert_eq!(
        got,
        vec![
            ("amount_received".to_owned(), "not_negative".to_owned()),
            ("period".to_owned(), "quarter_only".to_owned()),
            ("received_on".to_owned(), "in_the_future".to_owned()),
            ("reference".to_owned(), "non_empty".to_owned()),
            ("vehicle_count".to_owned(), "not_negative".to_owned()),
        ]
    );
    let mut nul = remittance("2026-Q3", 10, "198.30", "2026-07-15");
    nul["reference"] = json!("a\u{0}b");
    let res = post(&app, &clerk, REMITTANCES, nul).await;
    let problem = assert_problem(res, 422, "validation-failed", Some("reference")).await;
    assert_eq!(
        rules(&problem),
        vec![("reference".to_owned(), "no_control_characters".to_owned())]
    );
    let res = post(
        &app,
        &clerk,
        REMITTANCES,
        remittance("2026-Q3", 10, "198.30", "2026-06-30"),
    )
    .await;
    let problem = assert_problem(res, 422, "validation-failed", Some("received_on")).await;
    assert_eq!(
        rules(&problem),
        vec![("received_on".to_owned(), "before_period".to_owned())]
    );

    // Zero vehicles is a remittance of nothing; a retry with the key answers the first.
    let send = || {
        app.call(Method::POST, REMITTANCES)
            .bearer(&clerk)
            .header("idempotency-key", "vf-2026-q3-first")
            .json(remittance("2026-Q3", 0, "0.00", "2026-07-15"))
            .send()
    };
    let first = created(send().await).await;
    let second = created(send().await).await;
    assert_eq!(first["id"], second["id"]);
    assert_eq!(
        (&first["gross"]["amount"], &first["status"]),
        (&json!("0.00"), &json!("matches"))
    );
    let list: Value = app
        .get_as(&clerk, &format!("{REMITTANCES}?year=2026"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    let res = app
        .call(Method::POST, REMITTANCES)
        .bearer(&clerk)
        .header("idempotency-key", "vf-2026-q3-first")
        .json(remittance("2026-Q3", 1, "19.83", "2026-07-15"))
        .send()
        .await;
    assert_problem(res, 422, "validation-failed", Some("Idempotency-Key")).await;

    // Hostile text is refused or kept exactly as sent, on either backend.
    let res = post(
        &app,
        &clerk,
        SPENDING,
        json!({
            "spent_on": "2026-07-15", "amount": "1.00", "payee": "Ac\u{85}me",
            "purpose": "transportation_related_expenses\u{7f}", "description": "ok"
        }),
    )
    .await;
    let problem = assert_problem(res, 422, "validation-failed", None).await;
    let mut got = rules(&problem);
    got.sort();
    assert_eq!(
        got,
        vec![
            ("payee".to_owned(), "no_control_characters".to_owned()),
            ("purpose".to_owned(), "no_control_characters".to_owned()),
        ]
    );
    let q2 = created(post(&app, &clerk, REMITTANCES, json!({
        "period": "2026-Q2", "vehicle_count": 5, "amount_received": "99.15",
        "received_on": "2026-07-15", "reference": "Robert'); DROP TABLE vehicle_fee_spending;-- ✓ Ålesund"
    }))
    .await)
    .await;
    assert_eq!(
        q2["reference"],
        "Robert'); DROP TABLE vehicle_fee_spending;-- ✓ Ålesund"
    );
    let spent = created(post(&app, &clerk, SPENDING, json!({
        "spent_on": "2026-07-15", "amount": "99.15", "payee": "=HYPERLINK(\"x\")",
        "purpose": "transportation_related_expenses", "description": "Bus shelter, \"Main\" St."
    }))
    .await)
    .await;
    assert_eq!(spent["payee"], "=HYPERLINK(\"x\")");
    let csv = app
        .client
        .get(app.url(FUND))
        .bearer_auth(&clerk)
        .header("accept", "text/csv")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(csv.contains(",\"'=HYPERLINK(\"\"x\"\")\",transportation_related_expenses,\"Bus shelter, \"\"Main\"\" St.\",-99.15,0.00\r\n"), "{csv}");
    check_passes(&app);
}

#[actix_web::test]
async fn hayward_levies_no_vehicle_fee_and_only_montellos_clerk_and_staff_reach_the_fund() {
    let app = spawn_demo_app_at("2026-07-15T15:00:00Z").await;
    let hayward = app.token("clerk@hayward.demo").await;
    for (method, path) in [
        (
            Method::POST,
            "/v1/municipalities/hayward/vehicle-fee-remittances",
        ),
        (
            Method::GET,
            "/v1/municipalities/hayward/vehicle-fee-remittances",
        ),
        (
            Method::POST,
            "/v1/municipalities/hayward/vehicle-fee-remittances/2026-Q1/corrections",
        ),
        (
            Method::POST,
            "/v1/municipalities/hayward/vehicle-fee-fund/spending",
        ),
        (Method::GET, "/v1/municipalities/hayward/vehicle-fee-fund"),
    ] {
        let mut call = app.call(method.clone(), path).bearer(&hayward);
        if method == Method::POST {
            call = call.json(if path.ends_with("spending") {
                spending("2026-07-15", "1.00", "transportation_related_expenses")
            } else if path.ends_with("corrections") {
                json!({"vehicle_count": 1, "amount_received": "19.83", "received_on": "2026-07-15", "reference": "x", "reason": "y"})
            } else {
                remittance("2026-Q2", 10, "198.30", "2026-07-15")
            });
        }
        let problem =
            assert_problem(call.send().await, 409, "conflict", Some("municipality")).await;
        assert_eq!(
            rules(&problem),
            vec![("municipality".to_owned(), "no_vehicle_fee".to_owned())]
        );
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .contains("City of Hayward levies no vehicle registration fee"),
            "{problem}"
        );
    }
    let clerk = app.token(CLERK).await;
    created(
        post(
            &app,
            &clerk,
            REMITTANCES,
            remittance("2026-Q2", 10, "198.30", "2026-07-15"),
        )
        .await,
    )
    .await;
    // Everyone else: Montello's other roles and the zone's 403, Hayward's users 404,
    // no token 401; none of them records anything.
    for (email, status) in [
        ("operator@montello.demo", 403),
        ("marketplace@montello.demo", 403),
        ("commission@marquette-county.demo", 403),
        ("tourism@marquette-county.demo", 403),
        ("admin@marquette-county.demo", 403),
        ("clerk@hayward.demo", 404),
        ("operator@hayward.demo", 404),
    ] {
        let token = app.token(email).await;
        for path in [REMITTANCES, FUND] {
            let res = app.get_as(&token, path).await;
            assert_eq!(res.status(), status, "GET {path} as {email}");
        }
        let res = post(
            &app,
            &token,
            SPENDING,
            spending("2026-07-15", "1.00", "transportation_related_expenses"),
        )
        .await;
        assert_eq!(res.status(), status, "spending as {email}");
        let res = post(
            &app,
            &token,
            REMITTANCES,
            remittance("2026-Q1", 10, "198.30", "2026-07-15"),
        )
        .await;
        assert_eq!(res.status(), status, "remittance as {email}");
    }
    let res = app.get(FUND).await;
    assert_eq!(res.status(), 401);
    let res = app
        .get_as(&app.token("commission@marquette-county.demo").await, FUND)
        .await;
    let problem = assert_problem(res, 403, "forbidden", None).await;
    assert_eq!(
        problem["detail"],
        "your role in this municipality may not read the vehicle registration fee fund"
    );
    let list: Value = app.get_as(&clerk, REMITTANCES).await.json().await.unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    let fund: Value = app.get_as(&clerk, FUND).await.json().await.unwrap();
    assert_eq!(fund["closing_balance"], "198.30");
}

/// A journal slipped past the service onto the fund (a spending no row
/// records, overdrawing it) is named by `roomtax check`.
#[actix_web::test]
async fn the_check_names_a_fund_journal_without_its_row_and_an_overdrawn_fund() {
    let app = spawn_demo_app_at("2026-07-15T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    created(
        post(
            &app,
            &clerk,
            REMITTANCES,
            remittance("2026-Q2", 10, "198.30", "2026-07-15"),
        )
        .await,
    )
    .await;
    check_passes(&app);
    let mut owner = app.owner_conn();
    let montello = roomtax::db::municipalities::require(&mut owner, "montello").unwrap();
    let header = roomtax::db::ledger::JournalRow {
        municipality_id: montello.id,
        id: "forged-journal".into(),
        posted_on: chrono::NaiveDate::from_ymd_opt(2026, 7, 15).unwrap(),
        kind: "vehicle_fee_spending".into(),
        cause_type: "vehicle_fee_spending".into(),
        cause_id: "ghost".into(),
        memo: "forged".into(),
        created_at: chrono::Utc::now().naive_utc(),
    };
    let line = |no: i32, account: &str, cents: i64| roomtax::db::ledger::LineRow {
        municipality_id: montello.id,
        journal_id: "forged-journal".into(),
        line_no: no,
        account: account.into(),
        amount_cents: cents,
    };
    roomtax::db::ledger::insert(
        &mut owner,
        &header,
        &[
            line(1, "municipality:vehicle_fee_fund", 20_000),
            line(2, "municipality:cash", -20_000),
        ],
    )
    .unwrap();
    let out = crate::ledger::roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains(
            "journal forged-journal names vehicle_fee_spending ghost, which does not exist"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("the vehicle registration fee fund is overdrawn at the end of 2026-07-15"),
        "{stdout}"
    );
}

#[actix_web::test]
async fn a_spending_recorded_in_error_is_reversed_by_a_new_entry_and_the_fund_never_goes_negative()
{
    // After the year: fund 41,019.71 on 2026-07-10 (13,229.71 after the
    // 30,000.00 spent on 2026-05-15). On 2026-07-12 the clerk records
    // 4,321.09 by mistake (fund 36,698.62), reverses it on 2026-07-13 (fund
    // 41,019.71 again), and records the right 1,234.56 (fund 39,785.15).
    let app = spawn_demo_app_at("2026-01-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    the_year(&app, &clerk, &staff).await;
    app.set_now("2026-07-13T15:00:00Z");
    let wrong = created(
        post(
            &app,
            &clerk,
            SPENDING,
            spending("2026-07-12", "4321.09", "transportation_related_expenses"),
        )
        .await,
    )
    .await;
    assert_eq!(wrong["fund_balance_after"], "36698.62");
    let id = wrong["id"].as_str().unwrap();
    let reversal = format!("{SPENDING}/{id}/reversal");
    // Before the spending, after today, a blank reason: 422, every fault at once.
    let res = post(
        &app,
        &staff,
        &reversal,
        json!({"reversed_on": "2026-07-11", "reason": " "}),
    )
    .await;
    let problem = assert_problem(res, 422, "validation-failed", Some("reversed_on")).await;
    let mut faults = rules(&problem);
    faults.sort();
    assert_eq!(
        faults,
        vec![
            ("reason".to_owned(), "non_empty".to_owned()),
            ("reversed_on".to_owned(), "before_spending".to_owned()),
        ],
        "{problem}"
    );
    let res = post(
        &app,
        &staff,
        &format!("{SPENDING}/00000000-0000-4000-8000-00000000dead/reversal"),
        json!({"reversed_on": "2026-07-13", "reason": "Entered twice"}),
    )
    .await;
    assert_eq!(res.status(), 404);
    let done = created(
        post(
            &app,
            &staff,
            &reversal,
            json!({"reversed_on": "2026-07-13", "reason": "Wrong invoice amount entered"}),
        )
        .await,
    )
    .await;
    assert_eq!(done["fund_balance_after"], "41019.71", "{done}");
    assert_eq!(done["spending"]["id"], id);
    assert_eq!(done["spending"]["amount"], "4321.09");
    // Once only.
    let res = post(
        &app,
        &clerk,
        &reversal,
        json!({"reversed_on": "2026-07-13", "reason": "Again"}),
    )
    .await;
    let problem = assert_problem(res, 409, "conflict", Some("spending")).await;
    assert_eq!(
        rules(&problem),
        vec![("spending".to_owned(), "already_reversed".to_owned())]
    );
    let right = created(
        post(
            &app,
            &clerk,
            SPENDING,
            spending("2026-07-13", "1234.56", "transportation_related_expenses"),
        )
        .await,
    )
    .await;
    assert_eq!(right["fund_balance_after"], "39785.15");
    // The fund can never go negative: one cent more than it holds is refused.
    let res = post(
        &app,
        &clerk,
        SPENDING,
        spending("2026-07-13", "39785.16", "transportation_related_expenses"),
    )
    .await;
    let problem = assert_problem(res, 409, "conflict", Some("amount")).await;
    assert_eq!(
        rules(&problem),
        vec![("amount".to_owned(), "exceeds_fund_balance".to_owned())]
    );
    // The statement shows the spending, its reversal and the right one; the
    // spending total is net: 30,000.00 + 4,321.09 − 4,321.09 + 1,234.56.
    let fund: Value = app
        .get_as(&clerk, &format!("{FUND}?from=2026-07-01&to=2026-07-13"))
        .await
        .json()
        .await
        .unwrap();
    let kinds: Vec<(&str, &str, &str)> = fund["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap(),
                e["amount"].as_str().unwrap(),
                e["balance"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("receipt", "27790.00", "41019.71"),
            ("spending", "-4321.09", "36698.62"),
            ("spending_reversed", "4321.09", "41019.71"),
            ("spending", "-1234.56", "39785.15"),
        ],
        "{fund}"
    );
    assert_eq!(
        fund["entries"][2]["reversal"]["reason"],
        "Wrong invoice amount entered"
    );
    assert_eq!(fund["entries"][2]["spending"]["id"], id);
    assert_eq!(fund["spending"], "1234.56");
    assert_eq!(fund["opening_balance"], "13229.71");
    assert_eq!(fund["closing_balance"], "39785.15");
    let year: Value = app.get_as(&clerk, FUND).await.json().await.unwrap();
    assert_eq!(year["spending"], "31234.56", "{year}");
    let csv = app
        .call(Method::GET, FUND)
        .bearer(&clerk)
        .header("accept", "text/csv")
        .send()
        .await
        .text()
        .await
        .unwrap();
    assert!(
        csv.lines()
            .any(|l| l.starts_with("2026-07-13,spending_reversed,")
                && l.contains("reversed: Wrong invoice amount entered")
                && l.ends_with(",4321.09,41019.71")),
        "{csv}"
    );
    let stdout = check_passes(&app);
    assert!(stdout.contains("spending"), "{stdout}");
}

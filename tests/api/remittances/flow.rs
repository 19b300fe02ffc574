//! From the ledger: a quarter's tax by the date received, a correction as a
//! new version posting the difference, idempotency, the transfer, the zone's
//! view with `paid`, `submitted`, `due` and `missing` quarters, and CSV
//! (figures in `mod.rs`).

use reqwest::Method;
use serde_json::{Value, json};

use super::*;
use crate::helpers::{check::assert_problem, check::rule_of, spawn_demo_app_at};

fn lines(journal_lines: &[roomtax::db::ledger::LineRow]) -> Vec<(String, i64)> {
    journal_lines
        .iter()
        .map(|l| (l.account.clone(), l.amount_cents))
        .collect()
}

/// The lines of the journals of `kind`, as the owner reads them, oldest first.
fn journals_of(app: &TestApp, kind: &str) -> Vec<Vec<(String, i64)>> {
    let mut owner = app.owner_conn();
    let all = crate::ledger::all_lines(&mut owner);
    crate::ledger::all_journals(&mut owner)
        .into_iter()
        .filter(|j| j.kind == kind)
        .map(|j| {
            lines(
                &all.iter()
                    .filter(|l| l.journal_id == j.id)
                    .cloned()
                    .collect::<Vec<_>>(),
            )
        })
        .collect()
}

#[actix_web::test]
async fn a_quarter_is_remitted_from_the_ledger_and_corrected_by_a_new_version() {
    let app = spawn_demo_app_at("2026-01-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let a = new_payor(&app, &clerk, "Remit Lodge LLC").await;
    let b = new_payor(&app, &clerk, "Late Cabins LLC").await;
    paper_return(&app, &clerk, &a, "2025-Q4", "8000.30", "0.00", "2026-01-20").await;
    paper_return(&app, &clerk, &b, "2025-Q4", "1000.00", "0.00", "2026-01-20").await;
    app.set_now("2026-01-25T15:00:00Z");
    pay(&app, &clerk, &a, "2026-01-25", "200.01").await;
    app.set_now("2026-03-10T15:00:00Z");
    let second = pay(&app, &clerk, &a, "2026-03-10", "200.00").await;
    assert_eq!(second["credit"], "36.80", "{second}");

    // Not ended yet: refused, naming the field and the rule.
    app.set_now("2026-03-31T15:00:00Z");
    let res = submit(&app, &clerk, "montello", json!({"period": "2026-Q1"})).await;
    let problem = assert_problem(res, 422, "validation-failed", Some("period")).await;
    assert_eq!(rule_of(&problem, "period").as_deref(), Some("not_ended"));

    app.set_now("2026-04-20T15:00:00Z");
    paper_return(
        &app,
        &clerk,
        &a,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-04-20",
    )
    .await;
    app.set_now("2026-04-25T15:00:00Z");
    let third = pay(&app, &clerk, &a, "2026-04-25", "400.00").await;
    assert_eq!(third["credit"], "9.30", "{third}");

    // Totals sent where the ledger computes them: refused.
    let res = submit(
        &app,
        &clerk,
        "montello",
        json!({"period": "2026-Q1", "tax_collected": "1.00"}),
    )
    .await;
    let problem = assert_problem(res, 422, "validation-failed", Some("tax_collected")).await;
    assert_eq!(
        rule_of(&problem, "tax_collected").as_deref(),
        Some("computed_from_ledger")
    );

    // The preview shows the figures; nothing is written.
    let preview = json_of(
        app.get_as(
            &clerk,
            "/v1/municipalities/montello/remittances/preview?period=2026-Q1",
        )
        .await,
        200,
    )
    .await;
    assert_eq!(preview["tax_collected"], "360.01", "{preview}");
    assert_eq!(preview["gross_receipts"], "8000.22");
    assert_eq!(preview["payor_count"], 1);
    assert_eq!(preview["commission"], "270.01");
    assert_eq!(preview["retained"], "90.00");
    assert_eq!(preview["latest_version"], Value::Null);
    assert!(journals_of(&app, "remittance").is_empty());

    let res = submit(&app, &clerk, "montello", json!({"period": "2026-Q1"})).await;
    assert_eq!(
        res.headers()["location"],
        "/v1/municipalities/montello/remittances?year=2026"
    );
    let v1 = json_of(res, 201).await;
    assert_eq!(v1["version"], 1);
    assert_eq!(v1["source"], "ledger");
    assert_eq!(v1["zone"], "marquette-county");
    assert_eq!(v1["tax_collected"], "360.01");
    assert_eq!(v1["commission"], "270.01");
    assert_eq!(v1["retained"], "90.00");
    assert_eq!(v1["commission_difference"], "270.01");
    assert_eq!(v1["commission_share"], "0.75");
    assert_eq!(v1["due_on"], "2026-05-31");
    assert!(
        v1["explanation"][0]["citation"]
            .as_str()
            .unwrap()
            .contains("distribution"),
        "{v1}"
    );
    assert!(!v1.to_string().contains(&a), "no payor id: {v1}");
    // The same figures again: the version on file, nothing posted.
    let again = json_of(
        submit(&app, &clerk, "montello", json!({"period": "2026-Q1"})).await,
        200,
    )
    .await;
    assert_eq!(again["id"], v1["id"]);
    assert_eq!(
        journals_of(&app, "remittance"),
        [vec![
            ("municipality:revenue:tax".to_owned(), 27001),
            ("municipality:commission_payable".to_owned(), -27001),
        ]]
    );

    // The commission's share paid by wire; not twice.
    let v1_id = v1["id"].as_str().unwrap().to_owned();
    let res = transfer(
        &app,
        &clerk,
        "montello",
        &v1_id,
        json!({"paid_on": "2026-04-24", "method": "wire", "reference": "W-1"}),
    )
    .await;
    let problem = assert_problem(res, 422, "validation-failed", Some("paid_on")).await;
    assert_eq!(
        rule_of(&problem, "paid_on").as_deref(),
        Some("before_submission")
    );
    let paid = json_of(
        transfer(
            &app,
            &clerk,
            "montello",
            &v1_id,
            json!({"paid_on": "2026-04-25", "method": "wire", "reference": "W-1"}),
        )
        .await,
        201,
    )
    .await;
    assert_eq!(paid["amount"], "270.01");
    assert_eq!(paid["method"], "wire");
    let res = transfer(
        &app,
        &clerk,
        "montello",
        &v1_id,
        json!({"paid_on": "2026-04-25", "method": "wire", "reference": "W-1"}),
    )
    .await;
    let problem = assert_problem(res, 409, "conflict", Some("remittance")).await;
    assert_eq!(
        rule_of(&problem, "remittance").as_deref(),
        Some("already_paid")
    );

    // A late-recorded payment of B, received in the quarter: a new version.
    app.set_now("2026-05-05T15:00:00Z");
    pay(&app, &clerk, &b, "2026-03-31", "45.00").await;
    let v2 = json_of(
        submit(&app, &clerk, "montello", json!({"period": "2026-Q1"})).await,
        201,
    )
    .await;
    assert_eq!(v2["version"], 2);
    assert_eq!(v2["tax_collected"], "405.01");
    assert_eq!(v2["gross_receipts"], "9000.22");
    assert_eq!(v2["payor_count"], 2);
    assert_eq!(v2["commission"], "303.76");
    assert_eq!(v2["retained"], "101.25");
    assert_eq!(v2["commission_difference"], "33.75");
    assert_eq!(journals_of(&app, "remittance")[1][1].1, -3375);
    // The superseded version takes no transfer; the latest pays the rest.
    let res = transfer(
        &app,
        &clerk,
        "montello",
        &v1_id,
        json!({"paid_on": "2026-05-05", "method": "ach", "reference": "A-2"}),
    )
    .await;
    assert_problem(res, 409, "conflict", Some("remittance")).await;
    let v2_id = v2["id"].as_str().unwrap().to_owned();
    let rest = json_of(
        transfer(
            &app,
            &clerk,
            "montello",
            &v2_id,
            json!({"paid_on": "2026-05-05", "method": "ach", "reference": "A-2"}),
        )
        .await,
        201,
    )
    .await;
    assert_eq!(rest["amount"], "33.75");
    assert_eq!(
        journals_of(&app, "remittance_transfer")[1],
        [
            ("municipality:commission_payable".to_owned(), 3375),
            ("municipality:cash".to_owned(), -3375),
        ]
    );

    // 2026-Q2 with an Idempotency-Key: a retry answers the first response.
    app.set_now("2026-07-02T15:00:00Z");
    let send = || {
        app.call(Method::POST, &remittances_of("montello"))
            .bearer(&clerk)
            .header("idempotency-key", "q2-2026")
            .json(json!({"period": "2026-Q2"}))
            .send()
    };
    let q2 = json_of(send().await, 201).await;
    assert_eq!(q2["tax_collected"], "427.50");
    assert_eq!(q2["gross_receipts"], "9500.00");
    assert_eq!(q2["commission"], "320.63");
    assert_eq!(q2["retained"], "106.87");
    let replay = json_of(send().await, 201).await;
    assert_eq!(replay["id"], q2["id"]);
    assert_eq!(journals_of(&app, "remittance").len(), 3);

    // The zone's view: Montello's Q1 paid, Q2 submitted, Q3 and Q4 due; a member
    // entering its totals, Q1 missing (due 2026-05-31), Q2 due (2026-08-31).
    entered_member(&app, "westfield").await;
    let commission = app.token(COMMISSION).await;
    let view = json_of(
        app.get_as(&commission, &format!("{ZONE}?year=2026")).await,
        200,
    )
    .await;
    let q1 = quarter(&view, "montello", "2026-Q1");
    assert_eq!(q1["status"], "paid", "{view}");
    assert_eq!(q1["version"], 2);
    assert_eq!(q1["tax_collected"], "405.01");
    assert_eq!(q1["commission"], "303.76");
    assert_eq!(q1["transferred"], "303.76");
    assert_eq!(q1["outstanding"], "0.00");
    assert_eq!(q1["last_paid_on"], "2026-05-05");
    let q2 = quarter(&view, "montello", "2026-Q2");
    assert_eq!(q2["status"], "submitted");
    assert_eq!(q2["outstanding"], "320.63");
    assert_eq!(quarter(&view, "montello", "2026-Q3")["status"], "due");
    assert_eq!(quarter(&view, "westfield", "2026-Q1")["status"], "missing");
    assert_eq!(quarter(&view, "westfield", "2026-Q2")["status"], "due");
    assert_eq!(
        quarter(&view, "westfield", "2026-Q2")["due_on"],
        "2026-08-31"
    );
    assert_eq!(view["totals"]["commission"], "624.39");
    assert_eq!(view["totals"]["outstanding"], "320.63");
    let text = view.to_string();
    for secret in [a.as_str(), b.as_str(), "Remit Lodge", "payor_id"] {
        assert!(
            !text.contains(secret),
            "{secret} in the zone's view: {text}"
        );
    }

    // CSV: the same rows.
    let csv = app
        .call(Method::GET, &format!("{ZONE}?year=2026"))
        .bearer(&commission)
        .header("accept", "text/csv")
        .send()
        .await;
    assert_eq!(csv.status(), 200);
    assert!(
        csv.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let csv = csv.text().await.unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert!(rows[0].starts_with("municipality,name,period,due_on,status,"));
    assert_eq!(rows.len(), 1 + 8, "{csv}");
    assert!(
        rows.iter().any(|r| r.starts_with(
            "montello,City of Montello,2026-Q1,2026-05-31,paid,2,ledger,9000.22,405.01,2,0.75,303.76,101.25,2026-05-05,303.76,0.00,2026-05-05"
        )),
        "{csv}"
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with("westfield,Village of westfield,2026-Q1,2026-05-31,missing,,,")),
        "{csv}"
    );

    // The clerk's own view matches, and `roomtax check` passes.
    let own = json_of(
        app.get_as(&clerk, "/v1/municipalities/montello/remittances?year=2026")
            .await,
        200,
    )
    .await;
    assert_eq!(own["items"].as_array().unwrap().len(), 4);
    assert_eq!(quarter(&own, "montello", "2026-Q1")["status"], "paid");
    let out = crate::ledger::roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[actix_web::test]
async fn entered_totals_are_recorded_as_entered_and_corrected_by_the_difference() {
    let app = spawn_demo_app_at("2026-04-02T15:00:00Z").await;
    let westfield = entered_member(&app, "westfield").await;
    // Each total is required where nothing is computed here.
    let res = submit(&app, &westfield, "westfield", json!({"period": "2026-Q1"})).await;
    let problem = assert_problem(res, 422, "validation-failed", None).await;
    for field in ["gross_receipts", "tax_collected", "payor_count"] {
        assert_eq!(
            rule_of(&problem, field).as_deref(),
            Some("required"),
            "{problem}"
        );
    }
    let res = submit(
        &app,
        &westfield,
        "westfield",
        json!({"period": "2026-Q1", "gross_receipts": "100.00", "tax_collected": "100.01", "payor_count": -1}),
    )
    .await;
    let problem = assert_problem(res, 422, "validation-failed", None).await;
    assert_eq!(
        rule_of(&problem, "tax_collected").as_deref(),
        Some("at_most_gross_receipts")
    );
    assert_eq!(
        rule_of(&problem, "payor_count").as_deref(),
        Some("not_negative")
    );
    // Nothing to preview where the clerk enters the totals.
    let res = app
        .get_as(
            &westfield,
            "/v1/municipalities/westfield/remittances/preview?period=2026-Q1",
        )
        .await;
    assert_problem(res, 409, "conflict", Some("municipality")).await;

    // 12,345.67 × 0.75 = 9259.2525 → 9259.25; retained 3086.42.
    let body = json!({"period": "2026-Q1", "gross_receipts": "274348.22", "tax_collected": "12345.67", "payor_count": 7});
    let v1 = json_of(
        submit(&app, &westfield, "westfield", body.clone()).await,
        201,
    )
    .await;
    assert_eq!(v1["source"], "entered");
    assert_eq!(v1["gross_receipts"], "274348.22");
    assert_eq!(v1["payor_count"], 7);
    assert_eq!(v1["commission"], "9259.25");
    assert_eq!(v1["retained"], "3086.42");
    let same = json_of(submit(&app, &westfield, "westfield", body).await, 200).await;
    assert_eq!(same["id"], v1["id"]);
    // Corrected down: 12,000.03 × 0.75 = 9000.0225 → 9000.02; 259.23 less.
    let v2 = json_of(
        submit(
            &app,
            &westfield,
            "westfield",
            json!({"period": "2026-Q1", "gross_receipts": "266667.33", "tax_collected": "12000.03", "payor_count": 7}),
        )
        .await,
        201,
    )
    .await;
    assert_eq!(v2["version"], 2);
    assert_eq!(v2["commission"], "9000.02");
    assert_eq!(v2["retained"], "3000.01");
    assert_eq!(v2["commission_difference"], "-259.23");
}

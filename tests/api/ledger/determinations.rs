//! Determinations over HTTP, on both backends: a Hayward non-filer estimated
//! in three quarters of 2026 against the $5,000 cap, a Montello office audit
//! and a fraud finding, the four-year limit, an estimate replaced by a
//! return filed later, the notices stored with their journals, who may make
//! and read them, and journals summing to zero (`roomtax check` passes).
//!
//! Hand computations are written beside each scenario.

use reqwest::Method;
use serde_json::{Value, json};

use super::{all_lines, roomtax, sums};
use crate::helpers::{TestApp, check::rule_of, spawn_demo_app_at};
use crate::returns::{CLERK, MOTEL, file, filing};

const STAFF: &str = "staff@montello.demo";
const HAYWARD_CLERK: &str = "clerk@hayward.demo";
const HAYWARD_STAFF: &str = "staff@hayward.demo";
const HAYWARD_OPERATOR: &str = "operator@hayward.demo";
const LODGE: &str = roomtax::demo::HAYWARD_LODGE_ID;

fn determinations_of(municipality: &str, payor: &str) -> String {
    format!("/v1/municipalities/{municipality}/payors/{payor}/determinations")
}

async fn determine(
    app: &TestApp,
    token: &str,
    municipality: &str,
    payor: &str,
    body: Value,
) -> reqwest::Response {
    app.call(Method::POST, &determinations_of(municipality, payor))
        .bearer(token)
        .json(body)
        .send()
        .await
}

async fn made(app: &TestApp, token: &str, municipality: &str, payor: &str, body: Value) -> Value {
    let res = determine(app, token, municipality, payor, body).await;
    let status = res.status();
    let text = res.text().await.unwrap();
    assert_eq!(status, 201, "{text}");
    serde_json::from_str(&text).unwrap()
}

/// A new calendar-year Montello payor registered by the clerk.
async fn new_payor(app: &TestApp, clerk: &str, name: &str) -> String {
    let mut body = crate::payors::new_payor(name);
    body["annual_election"] = json!("calendar");
    body.as_object_mut()
        .unwrap()
        .remove("fiscal_year_end_month");
    let res = app
        .call(Method::POST, "/v1/municipalities/montello/payors")
        .bearer(clerk)
        .json(body)
        .send()
        .await;
    assert_eq!(res.status(), 201);
    res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A paper return entered by the Montello clerk, received on `on`.
async fn paper_return(
    app: &TestApp,
    clerk: &str,
    payor: &str,
    period: &str,
    gross: &str,
    on: &str,
) {
    let mut body = filing(period, gross, "0.00");
    body["received_on"] = json!(on);
    let res = file(app, clerk, payor, body).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
}

async fn statement(
    app: &TestApp,
    token: &str,
    municipality: &str,
    payor: &str,
    as_of: &str,
) -> Value {
    let res = app
        .get_as(
            token,
            &format!("/v1/municipalities/{municipality}/payors/{payor}/account?as_of={as_of}"),
        )
        .await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

fn period<'a>(account: &'a Value, p: &str) -> &'a Value {
    account["periods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["period"] == p)
        .unwrap_or_else(|| panic!("no {p} in {account}"))
}

fn component(period: &Value, c: &str) -> String {
    period["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["component"] == c)
        .map(|x| x["charged"].as_str().unwrap().to_owned())
        .unwrap_or_else(|| "0.00".to_owned())
}

fn charges(d: &Value) -> (String, String, String) {
    let c = &d["charges"];
    (
        c["tax"].as_str().unwrap().to_owned(),
        c["estimate_penalty"].as_str().unwrap().to_owned(),
        c["fraud_penalty"].as_str().unwrap().to_owned(),
    )
}

fn money(a: &str, b: &str, c: &str) -> (String, String, String) {
    (a.to_owned(), b.to_owned(), c.to_owned())
}

fn check_passes(app: &TestApp) {
    let mut owner = app.owner_conn();
    assert!(sums(&all_lines(&mut owner)).values().all(|s| *s == 0));
    let out = roomtax(&app.db, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("determination(s) each have their journal"),
        "{stdout}"
    );
}

/// `(kind, journal_id, cause_type, cause_id, title)` of the notice `id`, read as the owner.
fn notice(app: &TestApp, id: &str) -> (String, Option<String>, String, String, String) {
    use diesel::prelude::*;
    use roomtax::db::schema::notices::dsl as n;
    let mut owner = app.owner_conn();
    n::notices
        .filter(n::id.eq(id))
        .select((
            n::kind,
            n::journal_id,
            n::cause_type,
            n::cause_id,
            n::content,
        ))
        .get_result(&mut owner)
        .unwrap()
}

/// `(kind, posted_on)` of the journals a determination caused, read as the owner.
fn journals_of(app: &TestApp, determination: &str) -> Vec<(String, chrono::NaiveDate, String)> {
    use diesel::prelude::*;
    use roomtax::db::schema::ledger_journals::dsl as j;
    let mut owner = app.owner_conn();
    j::ledger_journals
        .filter(j::cause_type.eq("determination"))
        .filter(j::cause_id.eq(determination))
        .order(j::created_at.asc())
        .select((j::kind, j::posted_on, j::id))
        .load(&mut owner)
        .unwrap()
}

/// Hayward, 4 %, estimate forfeiture 10 % "not to exceed the sum of $5,000 for
/// any calendar year". The demo lodge filed nothing for 2026. On 2026-11-15:
/// - 2026-Q1 estimated 500,000.00: tax 20,000.00, penalty 2,000.00 (0 before);
/// - 2026-Q2 estimated 600,000.00: tax 24,000.00, penalty 2,400.00 (2,000.00
///   before: room 3,000.00);
/// - 2026-Q3 estimated 400,000.00: tax 16,000.00, 10 % = 1,600.00, but only
///   5,000.00 − 4,400.00 = 600.00 is left: penalty 600.00. The year's
///   penalties total exactly 5,000.00.
///
/// Statement as of 2026-11-15 (interest 1 % a month from the due date, the
/// last business day of the month after the quarter, to the first of the
/// month after the statement's date): Q1 due 2026-04-30, 7 months, 20,000.00
/// × 7 % = 1,400.00; Q2 due 2026-07-31, 4 months, 960.00; Q3 due 2026-10-30,
/// 1 month, 160.00.
#[actix_web::test]
async fn a_hayward_non_filer_estimated_in_three_quarters_reaches_the_yearly_cap_in_the_third() {
    let app = spawn_demo_app_at("2026-11-15T18:00:00Z").await;
    let clerk = app.token(HAYWARD_CLERK).await;
    let estimate = |p: &str, receipts: &str| {
        json!({
            "kind": "non_filer_estimate",
            "period": p,
            "basis": "No return filed; receipts estimated from the state sales-tax return and occupancy reports.",
            "estimated_receipts": receipts
        })
    };
    let q1 = made(
        &app,
        &clerk,
        "hayward",
        LODGE,
        estimate("2026-Q1", "500000.00"),
    )
    .await;
    assert_eq!(charges(&q1), money("20000.00", "2000.00", "0.00"));
    assert_eq!(q1["charges"]["total"], "22000.00");
    assert_eq!(q1["determined_on"], "2026-11-15");
    assert!(q1["limit_date"].is_null());
    let q2 = made(
        &app,
        &clerk,
        "hayward",
        LODGE,
        estimate("2026-Q2", "600000.00"),
    )
    .await;
    assert_eq!(charges(&q2), money("24000.00", "2400.00", "0.00"));
    let q3 = made(
        &app,
        &clerk,
        "hayward",
        LODGE,
        estimate("2026-Q3", "400000.00"),
    )
    .await;
    assert_eq!(charges(&q3), money("16000.00", "600.00", "0.00"));
    let penalty = q3["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["code"] == "non_filer_penalty")
        .unwrap();
    assert_eq!(
        penalty["inputs"]["penalties_already_assessed_in_year"],
        "4400.00"
    );
    assert!(
        penalty["citation"].as_str().unwrap().contains("$5,000"),
        "{penalty}"
    );
    assert!(
        q3["citations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().contains("66.0615(2)(c)")),
        "{q3}"
    );

    // The same quarter again: 409.
    let res = determine(&app, &clerk, "hayward", LODGE, estimate("2026-Q1", "1.00")).await;
    let body = crate::helpers::check::assert_problem(res, 409, "conflict", Some("period")).await;
    assert_eq!(
        rule_of(&body, "period").as_deref(),
        Some("already_estimated")
    );
    // A quarter whose return was filed (2025-Q1): no estimate.
    let res = determine(&app, &clerk, "hayward", LODGE, estimate("2025-Q1", "1.00")).await;
    let body =
        crate::helpers::check::assert_problem(res, 422, "validation-failed", Some("period")).await;
    assert_eq!(rule_of(&body, "period").as_deref(), Some("return_filed"));

    // Each notice is an estimate notice tied to its journal and its determination.
    for d in [&q1, &q2, &q3] {
        let (kind, journal, cause_type, cause_id, content) =
            notice(&app, d["notice_id"].as_str().unwrap());
        assert_eq!(kind, "estimate");
        assert_eq!(journal.as_deref(), d["journal_id"].as_str());
        assert_eq!(
            (cause_type.as_str(), cause_id.as_str()),
            ("determination", d["id"].as_str().unwrap())
        );
        assert!(content.contains("Your rights"), "{content}");
        let posted = journals_of(&app, d["id"].as_str().unwrap());
        assert_eq!(posted.len(), 1);
        assert_eq!(posted[0].0, "determination");
        assert_eq!(Some(posted[0].2.as_str()), d["journal_id"].as_str());
    }

    // The third notice states the capped penalty, its title and the statute.
    let (_, _, _, _, content) = notice(&app, q3["notice_id"].as_str().unwrap());
    let content: Value = serde_json::from_str(&content).unwrap();
    assert_eq!(content["title"], "Notice of non-filer estimate, 2026-Q3");
    assert_eq!(content["issued_on"], "2026-11-15");
    assert_eq!(
        content["amounts"],
        json!([
            {"label": "Tax on the estimated receipts", "period": "2026-Q3", "amount": "16000.00"},
            {"label": "Penalty on the estimate (10 %)", "period": "2026-Q3", "amount": "600.00"}
        ])
    );
    assert!(
        content["citations"].to_string().contains("66.0615(2)(c)"),
        "{content}"
    );
    assert!(
        content["paragraphs"]
            .to_string()
            .contains("limited to 600.00"),
        "{content}"
    );

    // Staff may not determine; the payor's operator reads its own; Montello's clerk learns nothing.
    let staff = app.token(HAYWARD_STAFF).await;
    let res = determine(&app, &staff, "hayward", LODGE, estimate("2026-Q3", "1.00")).await;
    assert_eq!(res.status(), 403);
    let operator = app.token(HAYWARD_OPERATOR).await;
    let res = app
        .get_as(&operator, &determinations_of("hayward", LODGE))
        .await;
    assert_eq!(res.status(), 200);
    let list: Value = res.json().await.unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 3);
    let one = format!(
        "{}/{}",
        determinations_of("hayward", LODGE),
        q3["id"].as_str().unwrap()
    );
    let res = app.get_as(&operator, &one).await;
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.json::<Value>().await.unwrap()["charges"]["estimate_penalty"],
        "600.00"
    );
    let montello = app.token(CLERK).await;
    assert_eq!(app.get_as(&montello, &one).await.status(), 404);
    assert_eq!(
        app.get_as(&montello, &determinations_of("hayward", LODGE))
            .await
            .status(),
        404
    );

    let account = statement(&app, &clerk, "hayward", LODGE, "2026-11-15").await;
    for (p, tax, pen, due, interest) in [
        ("2026-Q1", "20000.00", "2000.00", "2026-04-30", "1400.00"),
        ("2026-Q2", "24000.00", "2400.00", "2026-07-31", "960.00"),
        ("2026-Q3", "16000.00", "600.00", "2026-10-30", "160.00"),
    ] {
        let q = period(&account, p);
        assert_eq!(component(q, "tax"), tax, "{p}");
        assert_eq!(component(q, "estimate_penalty"), pen, "{p}");
        assert_eq!(q["due_date"], due, "{p}");
        assert_eq!(q["interest_accrued"], interest, "{p}");
        let listed = q["determinations"].as_array().unwrap();
        assert_eq!(listed.len(), 1, "{p}");
        assert_eq!(listed[0]["kind"], "non_filer_estimate");
    }
    check_passes(&app);
}

/// Montello, 4.5 %. A new payor's 2026-Q1 paper return: gross 10,000.00 →
/// tax 450.00, received 2026-04-20 (due 2026-04-30: on time, no fee). On
/// 2026-06-15:
/// - office audit, audited gross 12,000.00, exempt 500.00: taxable 11,500.00,
///   tax 517.50; charge 517.50 − 450.00 = 67.50;
/// - fraud: 50 % of the quarter's tax as assessed and audited, 517.50 →
///   258.75 (no interest or other penalty in the base).
///
/// Statement as of 2026-06-15: tax 517.50, fraud penalty 258.75; interest on
/// the unpaid 517.50 from 2026-04-30, 2 months: 10.35.
/// A payment of 786.60 that day settles it: tax 517.50, its interest 10.35
/// (posted), the penalty 258.75 (no forfeiture: a new payor has no previous
/// year); nothing left.
#[actix_web::test]
async fn a_montello_office_audit_raises_the_tax_and_a_fraud_finding_adds_half_of_it() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Pine Shore Motel LLC").await;
    paper_return(&app, &clerk, &payor, "2026-Q1", "10000.00", "2026-04-20").await;
    app.set_now("2026-06-15T15:00:00Z");

    let audit = json!({
        "kind": "office_audit",
        "period": "2026-Q1",
        "basis": "Booking ledger for January to March shows 12,000.00 of room sales.",
        "gross_receipts": "12000.00",
        "exempt_receipts": "500.00"
    });
    let res = app
        .call(Method::POST, &determinations_of("montello", &payor))
        .bearer(&clerk)
        .header("idempotency-key", "audit-1")
        .json(audit.clone())
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let a: Value = res.json().await.unwrap();
    assert_eq!(
        location,
        format!(
            "{}/{}",
            determinations_of("montello", &payor),
            a["id"].as_str().unwrap()
        )
    );
    assert_eq!(charges(&a), money("67.50", "0.00", "0.00"));
    assert_eq!(a["tax_found"], "517.50");
    assert_eq!(a["gross_receipts"], "12000.00");
    assert_eq!(a["exempt_receipts"], "500.00");
    // Four years after the due date 2026-04-30.
    assert_eq!(a["limit_date"], "2030-04-30");
    // The retry answers the first response; nothing is posted twice.
    let again = app
        .call(Method::POST, &determinations_of("montello", &payor))
        .bearer(&clerk)
        .header("idempotency-key", "audit-1")
        .json(audit)
        .send()
        .await;
    assert_eq!(again.status(), 201);
    assert_eq!(again.json::<Value>().await.unwrap()["id"], a["id"]);
    let (kind, journal, ..) = notice(&app, a["notice_id"].as_str().unwrap());
    assert_eq!(kind, "determination");
    assert_eq!(journal.as_deref(), a["journal_id"].as_str());

    // Staff may read but not determine.
    let staff = app.token(STAFF).await;
    let res = determine(
        &app,
        &staff,
        "montello",
        &payor,
        json!({"kind": "fraud", "period": "2026-Q1", "basis": "x"}),
    )
    .await;
    assert_eq!(res.status(), 403);

    let f = made(
        &app,
        &clerk,
        "montello",
        &payor,
        json!({"kind": "fraud", "period": "2026-Q1", "basis": "The return left out a quarter of the sales on purpose."}),
    )
    .await;
    assert_eq!(charges(&f), money("0.00", "0.00", "258.75"));
    assert_eq!(f["tax_found"], "517.50");
    assert!(
        f["citations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().contains("fraud ¶")),
        "{f}"
    );

    let account = statement(&app, &staff, "montello", &payor, "2026-06-15").await;
    let q1 = period(&account, "2026-Q1");
    assert_eq!(component(q1, "tax"), "517.50");
    assert_eq!(component(q1, "fraud_penalty"), "258.75");
    assert_eq!(q1["interest_accrued"], "10.35");
    assert_eq!(q1["balance"], "786.60");
    assert_eq!(q1["determinations"].as_array().unwrap().len(), 2);

    let res = app
        .call(Method::POST, &format!("/v1/municipalities/montello/payors/{payor}/payments"))
        .bearer(&clerk)
        .json(json!({"received_on": "2026-06-15", "amount": "786.60", "method": "check", "reference": "2201"}))
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let paid: Value = res.json().await.unwrap();
    assert_eq!(paid["credit"], "0.00", "{paid}");
    let applied: Vec<(String, String)> = paid["allocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["component"].as_str().unwrap().to_owned(),
                x["amount"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        applied,
        vec![
            ("tax".to_owned(), "517.50".to_owned()),
            ("interest".to_owned(), "10.35".to_owned()),
            ("fraud_penalty".to_owned(), "258.75".to_owned()),
        ]
    );
    check_passes(&app);
}

/// Wis. Stat. § 66.0615(2)(a): within 4 years after the due date of the
/// return. The demo motel's 2025-Q1 return (taxable 18,000.00 → tax 810.00)
/// was due 2025-04-30: the last day is 2029-04-30. On that day an audit
/// finding 820.00 charges 10.00; the next day another is refused.
#[actix_web::test]
async fn a_determination_beyond_four_years_after_the_due_date_is_refused() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    app.set_now("2029-04-30T17:00:00Z");
    let clerk = app.token(CLERK).await;
    let audit = json!({
        "kind": "field_audit",
        "period": "2025-Q1",
        "basis": "Records examined on site.",
        "tax_found": "820.00"
    });
    let a = made(&app, &clerk, "montello", MOTEL, audit.clone()).await;
    assert_eq!(charges(&a), money("10.00", "0.00", "0.00"));
    assert_eq!(a["limit_date"], "2029-04-30");

    app.set_now("2029-05-01T17:00:00Z");
    let res = determine(&app, &clerk, "montello", MOTEL, audit).await;
    let body =
        crate::helpers::check::assert_problem(res, 422, "validation-failed", Some("determined_on"))
            .await;
    assert_eq!(
        rule_of(&body, "determined_on").as_deref(),
        Some("four_year_limit")
    );
    let text = body.to_string();
    assert!(text.contains("2029-04-30"), "{text}");
    assert!(text.contains("66.0615(2)(a)"), "{text}");
    let res = determine(
        &app,
        &clerk,
        "montello",
        MOTEL,
        json!({"kind": "fraud", "period": "2025-Q1", "basis": "Late."}),
    )
    .await;
    assert_eq!(res.status(), 422);
    check_passes(&app);
}

/// Montello. A new payor files nothing for 2026-Q1 (due 2026-04-30). On
/// 2026-06-15 the clerk estimates 20,000.00: tax 900.00, penalty 10 % 90.00.
/// On 2026-06-20 its paper return arrives: gross 15,000.00 → tax 675.00, late:
/// fee 25.00. The estimate's 900.00 of tax is taken back (journal
/// `estimate_replaced` on 2026-06-20); its 90.00 penalty stands.
/// Statement as of 2026-06-20: tax 900.00 − 900.00 + 675.00 = 675.00, penalty
/// 90.00, fee 25.00; interest on 675.00 from 2026-04-30, 2 months: 13.50.
#[actix_web::test]
async fn an_estimate_replaced_by_a_return_filed_later_keeps_its_penalty() {
    let app = spawn_demo_app_at("2026-06-15T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "Harbor Light Inn LLC").await;

    // Every fault of a body at once.
    let res = determine(
        &app,
        &clerk,
        "montello",
        &payor,
        json!({"kind": "non_filer_estimate", "period": "2026", "basis": " ", "gross_receipts": "1.00"}),
    )
    .await;
    let body = crate::helpers::check::assert_problem(res, 422, "validation-failed", None).await;
    for (field, rule) in [
        ("basis", "non_empty"),
        ("period", "quarter_only"),
        ("gross_receipts", "not_for_kind"),
        ("estimated_receipts", "required"),
    ] {
        assert_eq!(rule_of(&body, field).as_deref(), Some(rule), "{body}");
    }
    // No return to audit; a quarter not yet over.
    let res = determine(
        &app,
        &clerk,
        "montello",
        &payor,
        json!({"kind": "office_audit", "period": "2026-Q1", "basis": "x", "tax_found": "1.00"}),
    )
    .await;
    let body =
        crate::helpers::check::assert_problem(res, 422, "validation-failed", Some("period")).await;
    assert_eq!(rule_of(&body, "period").as_deref(), Some("no_return_filed"));
    let res = determine(
        &app,
        &clerk,
        "montello",
        &payor,
        json!({"kind": "non_filer_estimate", "period": "2026-Q2", "basis": "x", "estimated_receipts": "1.00"}),
    )
    .await;
    let body =
        crate::helpers::check::assert_problem(res, 422, "validation-failed", Some("determined_on"))
            .await;
    assert_eq!(
        rule_of(&body, "determined_on").as_deref(),
        Some("before_period_end")
    );

    let e = made(
        &app,
        &clerk,
        "montello",
        &payor,
        json!({
            "kind": "non_filer_estimate",
            "period": "2026-Q1",
            "basis": "No return filed; estimated from last year's occupancy.",
            "estimated_receipts": "20000.00"
        }),
    )
    .await;
    assert_eq!(charges(&e), money("900.00", "90.00", "0.00"));

    app.set_now("2026-06-20T15:00:00Z");
    paper_return(&app, &clerk, &payor, "2026-Q1", "15000.00", "2026-06-20").await;
    let posted = journals_of(&app, e["id"].as_str().unwrap());
    let kinds: Vec<(&str, String)> = posted
        .iter()
        .map(|(k, on, _)| (k.as_str(), on.to_string()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("determination", "2026-06-15".to_owned()),
            ("estimate_replaced", "2026-06-20".to_owned())
        ]
    );
    // An estimate is not made for a quarter with a return now on file.
    let res = determine(
        &app,
        &clerk,
        "montello",
        &payor,
        json!({"kind": "non_filer_estimate", "period": "2026-Q1", "basis": "x", "estimated_receipts": "1.00"}),
    )
    .await;
    assert_eq!(res.status(), 422);

    let account = statement(&app, &clerk, "montello", &payor, "2026-06-20").await;
    let q1 = period(&account, "2026-Q1");
    assert_eq!(component(q1, "tax"), "675.00");
    assert_eq!(component(q1, "estimate_penalty"), "90.00");
    assert_eq!(component(q1, "late_filing_fee"), "25.00");
    assert_eq!(q1["interest_accrued"], "13.50");
    // 675.00 + 90.00 + 25.00 + 13.50
    assert_eq!(q1["balance"], "803.50");
    // As of the estimate's day, before the return: the estimate's tax.
    let before = statement(&app, &clerk, "montello", &payor, "2026-06-15").await;
    assert_eq!(component(period(&before, "2026-Q1"), "tax"), "900.00");
    check_passes(&app);

    // A balanced journal slipped in past the service, naming a determination
    // that does not exist: the check names it and fails.
    let mut owner = app.owner_conn();
    let journal = roomtax::db::ledger::JournalRow {
        municipality_id: 1,
        id: "tampered-journal".into(),
        posted_on: "2026-06-20".parse().unwrap(),
        kind: "determination".into(),
        cause_type: "determination".into(),
        cause_id: "ghost".into(),
        memo: "m".into(),
        created_at: chrono::Utc::now().naive_utc(),
    };
    let line = |no: i32, account: &str, cents: i64| roomtax::db::ledger::LineRow {
        municipality_id: 1,
        journal_id: "tampered-journal".into(),
        line_no: no,
        account: account.into(),
        amount_cents: cents,
    };
    let municipality = {
        use diesel::prelude::*;
        use roomtax::db::schema::municipalities::dsl as m;
        m::municipalities
            .filter(m::slug.eq("montello"))
            .select(m::id)
            .get_result::<i64>(&mut owner)
            .unwrap()
    };
    let journal = roomtax::db::ledger::JournalRow {
        municipality_id: municipality,
        ..journal
    };
    let lines = [
        line(1, &format!("payor:{payor}:2026-Q1:tax"), 100),
        line(2, "municipality:revenue:tax", -100),
    ]
    .map(|l| roomtax::db::ledger::LineRow {
        municipality_id: municipality,
        ..l
    });
    roomtax::db::ledger::insert(&mut owner, &journal, &lines).unwrap();
    let out = roomtax(&app.db, &["check"]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("journal tampered-journal names determination ghost"),
        "{text}"
    );
}

/// Hostile bodies: an unknown field and a malformed date are 400; negative
/// figures, an over-long basis and a figure of another kind are 422, all at
/// once; nothing is posted.
#[actix_web::test]
async fn hostile_bodies_are_refused_before_anything_is_posted() {
    let app = spawn_demo_app_at("2026-06-15T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let res = determine(
        &app,
        &clerk,
        "montello",
        MOTEL,
        json!({"kind": "fraud", "period": "2025-Q1", "basis": "x", "amount": "1.00"}),
    )
    .await;
    assert_eq!(res.status(), 400);
    let res = determine(
        &app,
        &clerk,
        "montello",
        MOTEL,
        json!({"kind": "fraud", "period": "2025-Q1", "basis": "x", "determined_on": "2026-6-1"}),
    )
    .await;
    assert_eq!(res.status(), 400);
    let res = determine(
        &app,
        &clerk,
        "montello",
        MOTEL,
        json!({"kind": "desk_audit", "period": "2025-Q1", "basis": "x"}),
    )
    .await;
    assert_eq!(res.status(), 400);
    let res = determine(
        &app,
        &clerk,
        "montello",
        MOTEL,
        json!({
            "kind": "office_audit",
            "period": "2025-Q1",
            "basis": "b".repeat(4001),
            "gross_receipts": "-1.00",
            "estimated_receipts": "5.00",
            "determined_on": "2026-06-16"
        }),
    )
    .await;
    let body = crate::helpers::check::assert_problem(res, 422, "validation-failed", None).await;
    for (field, rule) in [
        ("basis", "max_length"),
        ("gross_receipts", "not_negative"),
        ("estimated_receipts", "not_for_kind"),
        ("determined_on", "in_the_future"),
    ] {
        assert_eq!(rule_of(&body, field).as_deref(), Some(rule), "{body}");
    }
    let list: Value = app
        .get_as(&clerk, &determinations_of("montello", MOTEL))
        .await
        .json()
        .await
        .unwrap();
    assert!(list["items"].as_array().unwrap().is_empty(), "{list}");
    check_passes(&app);
}

/// An estimate and the quarter's return sent at the same moment: whichever
/// lands first, the quarter's tax ends as the return's (the estimate is
/// refused, or made and then replaced), never both. Montello 2026-Q1 return
/// of 10,000.00: tax 450.00.
#[actix_web::test]
async fn an_estimate_racing_the_return_never_charges_the_tax_twice() {
    let app = spawn_demo_app_at("2026-06-15T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    for round in 0..3 {
        let payor = new_payor(&app, &clerk, &format!("Race Lodge {round} LLC")).await;
        let estimate = determine(
            &app,
            &clerk,
            "montello",
            &payor,
            json!({"kind": "non_filer_estimate", "period": "2026-Q1", "basis": "x", "estimated_receipts": "20000.00"}),
        );
        let mut body = filing("2026-Q1", "10000.00", "0.00");
        body["received_on"] = json!("2026-06-15");
        let filed = file(&app, &clerk, &payor, body);
        let (estimate, filed) = tokio::join!(estimate, filed);
        assert_eq!(filed.status(), 201, "round {round}");
        assert!(
            [201, 422].contains(&estimate.status().as_u16()),
            "round {round}: {}",
            estimate.status()
        );
        let account = statement(&app, &clerk, "montello", &payor, "2026-06-15").await;
        assert_eq!(
            component(period(&account, "2026-Q1"), "tax"),
            "450.00",
            "round {round}"
        );
    }
    check_passes(&app);
}

//! The commission's report back to each member and Form SL-304's figures
//! (issue 10 items 5 and 6), over HTTP, on both backends.
//!
//! Hand computation (Montello: 4.5 %, 75 % to the commission):
//! - Montello (ledger): a new payor's 2025-Q4 paper return, gross 8,000.30 →
//!   tax 360.01; paid 200.01 on 2026-01-25 and 200.00 on 2026-03-10 (160.00
//!   to tax, 3.20 interest, 36.80 credit): 2026-Q1 tax received 360.01;
//!   commission 360.01 × 0.75 = 270.0075 → 270.01, retained 90.00;
//!   transferred on 2026-04-25.
//! - Westfield (entered): 2026-Q1 tax 12,345.67 → commission 9259.2525 →
//!   9259.25 (transferred 2026-05-01); 2026-Q2 tax 1,000.00 → 750.00, not
//!   transferred.
//! - The commission received in 2026: 270.01 + 9259.25 = 9529.26.
//! - Accepted report (2026-01-01 to 2026-06-30): 4500.00 and 1000.00 listed,
//!   999.99 (an item under $1,000) and 450.50 (2 postage bills) summed:
//!   spent 6950.49; marketing 4500.00 + 999.99 = 5499.99 (999.99 under
//!   $1,000, 2 expenditures); inquiries 320 + 10 = 330. The pending report
//!   (2026-07-01 to 2026-12-31, 12,345.67) is listed, not counted.
//! - Hayward (ledger, no zone, 4 %): its one payor's 2025-Q1 tax of 1600.00 is
//!   the oldest open period, tax first: 1000.00 received 2026-02-10 (Q1) and
//!   500.00 on 2026-05-05 (Q2) are tax: collected 1500.00, forwarded 0.00,
//!   retained 1500.00.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, check::assert_problem, spawn_demo_app_at};
use crate::remittances::{
    entered_member, new_payor, other_zone_admin, paper_return, pay, submit, transfer,
};

const COMMISSION: &str = "commission@marquette-county.demo";
const TOURISM: &str = "tourism@marquette-county.demo";
const ZONE_ADMIN: &str = "admin@marquette-county.demo";
const CLERK: &str = "clerk@montello.demo";
const REPORTS: &str = "/v1/zones/marquette-county/expenditure-reports";

fn back(slug: &str) -> String {
    format!("/v1/zones/marquette-county/reports/{slug}?year=2026")
}

async fn json_ok(res: reqwest::Response, status: u16) -> Value {
    let url = res.url().to_string();
    assert_eq!(res.status().as_u16(), status, "{url}");
    res.json().await.unwrap()
}

async fn post_as(app: &TestApp, token: &str, path: &str, body: Value) -> Value {
    let res = app
        .call(Method::POST, path)
        .bearer(token)
        .json(body)
        .send()
        .await;
    let url = res.url().to_string();
    let status = res.status();
    let text = res.text().await.unwrap();
    assert_eq!(status.as_u16(), 201, "{url}: {text}");
    serde_json::from_str(&text).unwrap()
}

fn accepted_report() -> Value {
    json!({
        "period_start": "2026-01-01",
        "period_end": "2026-06-30",
        "received_declared": "9000.00",
        "items": [
            {"date": "2026-03-15", "payee": "Lakeland Printing", "amount": "4500.00",
             "category": "marketing_projects", "description": "2026 visitor guide",
             "constructs_or_develops_lodging_facility": false,
             "impact": [{"measure": "inquiries", "value": 320, "source": "reader-response cards"}]},
            {"date": "2026-05-01", "payee": "Montello Welcome Center", "amount": "1000.00",
             "category": "tourist_information_services", "description": "Summer staffing",
             "constructs_or_develops_lodging_facility": false,
             "impact": [{"measure": "visits", "value": 1250, "source": "door counter"}]},
            {"date": "2026-06-01", "payee": "Smith & Sons <Print>", "amount": "999.99",
             "category": "marketing_projects", "description": "Rack cards",
             "constructs_or_develops_lodging_facility": false,
             "impact": [{"measure": "inquiries", "value": 10, "source": "coupon codes"}]}
        ],
        "summed": [
            {"category": "administration", "amount": "450.50", "count": 2,
             "description": "Postage", "constructs_or_develops_lodging_facility": false}
        ]
    })
}

fn pending_report() -> Value {
    json!({
        "period_start": "2026-07-01",
        "period_end": "2026-12-31",
        "received_declared": "0.00",
        "items": [
            {"date": "2026-07-04", "payee": "Lakeside Pyrotechnics", "amount": "12345.67",
             "category": "other", "description": "Fourth of July fireworks",
             "explanation": "The display draws overnight visitors from outside the county",
             "constructs_or_develops_lodging_facility": false,
             "impact": [{"measure": "room_nights", "value": 410, "source": "lodging survey"}]}
        ]
    })
}

/// The year of the module doc; answers Westfield's clerk's token and the payor's id.
async fn year_2026(app: &TestApp) -> (String, String) {
    let clerk = app.token(CLERK).await;
    let a = new_payor(app, &clerk, "Reportback Lodge LLC").await;
    paper_return(app, &clerk, &a, "2025-Q4", "8000.30", "0.00", "2026-01-20").await;
    app.set_now("2026-01-25T15:00:00Z");
    pay(app, &clerk, &a, "2026-01-25", "200.01").await;
    app.set_now("2026-03-10T15:00:00Z");
    pay(app, &clerk, &a, "2026-03-10", "200.00").await;
    app.set_now("2026-04-25T15:00:00Z");
    let v1 = json_ok(
        submit(app, &clerk, "montello", json!({"period": "2026-Q1"})).await,
        201,
    )
    .await;
    assert_eq!(v1["commission"], "270.01");
    let id = v1["id"].as_str().unwrap().to_owned();
    json_ok(
        transfer(
            app,
            &clerk,
            "montello",
            &id,
            json!({"paid_on": "2026-04-25", "method": "wire", "reference": "W-1"}),
        )
        .await,
        201,
    )
    .await;
    let westfield = entered_member(app, "westfield").await;
    app.set_now("2026-05-01T15:00:00Z");
    let w1 = json_ok(
        submit(app, &westfield, "westfield", json!({"period": "2026-Q1", "gross_receipts": "274348.22", "tax_collected": "12345.67", "payor_count": 7})).await,
        201,
    )
    .await;
    assert_eq!(w1["commission"], "9259.25");
    let wid = w1["id"].as_str().unwrap().to_owned();
    json_ok(
        transfer(
            app,
            &westfield,
            "westfield",
            &wid,
            json!({"paid_on": "2026-05-01", "method": "check", "reference": "C-7"}),
        )
        .await,
        201,
    )
    .await;
    app.set_now("2026-07-10T15:00:00Z");
    json_ok(
        submit(app, &westfield, "westfield", json!({"period": "2026-Q2", "gross_receipts": "25000.00", "tax_collected": "1000.00", "payor_count": 7})).await,
        201,
    )
    .await;
    // The reports: one accepted, one pending.
    let tourism = app.token(TOURISM).await;
    let accepted = post_as(app, &tourism, REPORTS, accepted_report()).await;
    let commission = app.token(COMMISSION).await;
    let rid = accepted["id"].as_str().unwrap();
    post_as(
        app,
        &commission,
        &format!("{REPORTS}/{rid}/review"),
        json!({"act": "accept"}),
    )
    .await;
    app.set_now("2026-12-01T18:00:00Z");
    post_as(app, &tourism, REPORTS, pending_report()).await;
    (westfield, a)
}

#[actix_web::test]
async fn the_report_back_shows_contributions_receipts_and_accepted_spending() {
    let app = spawn_demo_app_at("2026-01-20T15:00:00Z").await;
    let (westfield, payor) = year_2026(&app).await;
    let commission = app.token(COMMISSION).await;
    let r = json_ok(app.get_as(&commission, &back("montello")).await, 200).await;
    assert_eq!(r["municipality"], "montello");
    assert!(r["citation"].as_str().unwrap().contains("distribution ¶B"));
    let q = &r["contributed"]["quarters"];
    assert_eq!(q.as_array().unwrap().len(), 4);
    assert_eq!(q[0]["period"], "2026-Q1");
    assert_eq!(q[0]["commission_share"], "270.01");
    assert_eq!(q[0]["transferred"], "270.01");
    assert_eq!(q[0]["status"], "paid");
    assert_eq!(q[1]["status"], "missing");
    assert_eq!(r["contributed"]["submitted"], "270.01");
    assert_eq!(r["contributed"]["transferred"], "270.01");
    assert_eq!(r["commission_received"], "9529.26");
    let s = &r["spending"];
    assert_eq!(s["spent"], "6950.49");
    assert_eq!(s["counted_reports"].as_array().unwrap().len(), 1);
    assert_eq!(s["pending_reports"][0]["status"], "submitted");
    assert_eq!(s["pending_reports"][0]["period_start"], "2026-07-01");
    let large: Vec<(&str, &str)> = s["large_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["payee"].as_str().unwrap(), i["amount"].as_str().unwrap()))
        .collect();
    assert_eq!(
        large,
        [
            ("Lakeland Printing", "4500.00"),
            ("Montello Welcome Center", "1000.00")
        ]
    );
    let marketing = s["by_category"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["category"] == "marketing_projects")
        .unwrap();
    assert_eq!(marketing["total"], "5499.99");
    assert_eq!(marketing["under_1000"], "999.99");
    assert_eq!(marketing["count"], 2);
    let admin = s["by_category"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["category"] == "administration")
        .unwrap();
    assert_eq!(admin["total"], "450.50");
    assert_eq!(admin["count"], 2);
    assert_eq!(
        r["impact_totals"],
        json!([{"measure": "inquiries", "total": 330}, {"measure": "visits", "total": 1250}])
    );
    assert!(!r.to_string().contains(&payor) && !r.to_string().contains("Reportback Lodge"));

    // The member with entered totals, read by its own clerk.
    let w = json_ok(app.get_as(&westfield, &back("westfield")).await, 200).await;
    assert_eq!(w["contributed"]["submitted"], "10009.25");
    assert_eq!(w["contributed"]["transferred"], "9259.25");
    assert_eq!(w["contributed"]["outstanding"], "750.00");
    assert_eq!(w["contributed"]["quarters"][1]["status"], "submitted");
    assert_eq!(w["commission_received"], "9529.26");

    // CSV and the printable page.
    let csv = app
        .call(Method::GET, &back("montello"))
        .bearer(&commission)
        .header("accept", "text/csv")
        .send()
        .await;
    assert!(
        csv.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let csv = csv.text().await.unwrap();
    assert!(csv.starts_with("section,key,date,payee,category,amount,count,detail\r\n"));
    assert!(
        csv.contains("\r\ncommission_received,marquette-county,,,,9529.26,,\r\n"),
        "{csv}"
    );
    assert!(csv.contains("\r\nlarge_item,,2026-03-15,Lakeland Printing,marketing_projects,4500.00,1,2026 visitor guide\r\n"), "{csv}");
    assert!(csv.contains("\r\nspent,,,,,6950.49,,\r\n"), "{csv}");
    let page = app
        .call(Method::GET, &back("montello"))
        .bearer(&commission)
        .header("accept", "text/html")
        .send()
        .await;
    assert!(
        page.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let page = page.text().await.unwrap();
    assert!(page.contains("@media print"));
    assert!(
        page.contains("<td>Smith &amp; Sons &lt;Print&gt;</td>"),
        "{page}"
    );
    assert!(!page.contains("<Print>"));
    assert!(!page.contains("http://") && !page.contains("https://") && !page.contains("<script"));
    assert!(page.contains("<td>Lakeland Printing</td>"));
    assert!(page.contains("9529.26"));

    // The expenditure report shows received from the transfers beside the
    // declared figure: 6 months of transfers (270.01 + 9259.25 = 9529.26)
    // against 9000.00 declared: 529.26 more.
    let list = json_ok(
        app.get_as(&commission, &format!("{REPORTS}?year=2026"))
            .await,
        200,
    )
    .await;
    let first = &list["items"][0];
    assert_eq!(first["totals"]["received"], "9529.26");
    assert_eq!(first["totals"]["declared"], "9000.00");
    assert_eq!(first["totals"]["declared_difference"], "529.26");
    assert_eq!(first["totals"]["carried_over"], "2578.77");
}

#[actix_web::test]
async fn only_the_commission_the_tourism_entity_and_the_members_own_clerk_read_it() {
    let app = spawn_demo_app_at("2026-01-20T15:00:00Z").await;
    let (westfield, _) = year_2026(&app).await;
    for (who, status) in [
        (COMMISSION, 200),
        (TOURISM, 200),
        (CLERK, 200),
        (ZONE_ADMIN, 403),
        ("staff@montello.demo", 403),
        ("operator@montello.demo", 403),
        ("clerk@hayward.demo", 404),
        ("operator@hayward.demo", 404),
    ] {
        let token = app.token(who).await;
        let res = app.get_as(&token, &back("montello")).await;
        assert_eq!(res.status().as_u16(), status, "{who}");
    }
    // Another member's clerk: 403; another zone's admin: 404; anonymous: 401.
    let res = app.get_as(&westfield, &back("montello")).await;
    assert_problem(res, 403, "forbidden", None).await;
    let other = other_zone_admin(&app, "other-zone").await;
    assert_eq!(app.get_as(&other, &back("montello")).await.status(), 404);
    assert_eq!(
        app.call(Method::GET, &back("montello"))
            .send()
            .await
            .status(),
        401
    );
    // Not a member of the zone.
    let commission = app.token(COMMISSION).await;
    let res = app.get_as(&commission, &back("hayward")).await;
    assert_eq!(res.status(), 404);
    // Hostile years: problems, never a 500.
    for query in ["year=%00", "year=20x6", "year=1800", ""] {
        let path = format!("/v1/zones/marquette-county/reports/montello?{query}");
        let res = app.get_as(&commission, &path).await;
        assert!(matches!(res.status().as_u16(), 400 | 422), "{query}");
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/problem+json")
        );
    }
}

#[actix_web::test]
async fn sl304_for_montello_shows_its_totals_the_commissions_spending_and_roster() {
    let app = spawn_demo_app_at("2026-01-20T15:00:00Z").await;
    let (_, payor) = year_2026(&app).await;
    let admin = app.token(ZONE_ADMIN).await;
    for (name, industry) in [("Ann Lake", true), ("Bo Reed", false), ("Cy Dunn", false)] {
        post_as(
            &app,
            &admin,
            "/v1/zones/marquette-county/commission-roster",
            json!({"name": name, "affiliation": "Montello", "represents_lodging_and_tourism_industry": industry,
                "appointed_by": "montello", "term_start": "2026-01-01"}),
        )
        .await;
    }
    // Public: no token.
    let res = app
        .call(
            Method::GET,
            "/v1/municipalities/montello/state-report?year=2026",
        )
        .send()
        .await;
    let r = json_ok(res, 200).await;
    assert_eq!(r["due_on"], "2027-05-01");
    assert_eq!(r["rate"], "0.045");
    assert_eq!(r["rate_percent"], "4.5");
    assert_eq!(r["quarters"][0]["source"], "remittance");
    assert_eq!(r["quarters"][0]["collected"], "360.01");
    assert_eq!(r["quarters"][1]["source"], "missing");
    assert_eq!(r["collected"], "360.01");
    assert_eq!(r["forwarded"], "270.01");
    assert_eq!(r["retained"], "90.00");
    let c = &r["commission"];
    assert_eq!(c["zone"], "marquette-county");
    assert_eq!(c["expenditures"]["spent"], "6950.49");
    assert_eq!(
        c["expenditures"]["large_items"][0]["payee"],
        "Lakeland Printing"
    );
    assert_eq!(c["expenditures"]["large_items"][0]["date"], "2026-03-15");
    assert_eq!(
        c["expenditures"]["large_items"].as_array().unwrap().len(),
        2
    );
    assert_eq!(
        c["expenditures"]["pending_reports"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(c["members"].as_array().unwrap().len(), 3);
    let ann = c["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "Ann Lake")
        .unwrap();
    assert_eq!(ann["affiliation"], "Montello");
    assert_eq!(ann["represents_lodging_and_tourism_industry"], true);
    assert!(
        c["roster_warning"]
            .as_str()
            .unwrap()
            .contains("only 1 of the commission's 3"),
        "{c}"
    );
    // Never an operator's figures.
    let text = r.to_string();
    for secret in [
        payor.as_str(),
        "Reportback Lodge",
        "payor",
        roomtax::demo::MONTELLO_MOTEL_ID,
    ] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    let csv = app
        .call(
            Method::GET,
            "/v1/municipalities/montello/state-report?year=2026",
        )
        .header("accept", "text/csv")
        .send()
        .await
        .text()
        .await
        .unwrap();
    assert!(csv.contains("\r\nforwarded,,,,,270.01,,\r\n"), "{csv}");
    assert!(csv.contains("\r\nlarge_item,,2026-05-01,Montello Welcome Center,tourist_information_services,1000.00,1,Summer staffing\r\n"), "{csv}");
    assert!(csv.contains("\r\nroster_warning,"), "{csv}");
    assert!(!csv.contains("Reportback Lodge"));
}

#[actix_web::test]
async fn sl304_for_hayward_comes_from_its_ledger_with_nothing_forwarded() {
    let app = spawn_demo_app_at("2026-02-10T15:00:00Z").await;
    let clerk = app.token("clerk@hayward.demo").await;
    let payments = format!(
        "/v1/municipalities/hayward/payors/{}/payments",
        roomtax::demo::HAYWARD_LODGE_ID
    );
    post_as(&app, &clerk, &payments, json!({"received_on": "2026-02-10", "amount": "1000.00", "method": "check", "reference": "H-1"})).await;
    app.set_now("2026-05-05T15:00:00Z");
    post_as(&app, &clerk, &payments, json!({"received_on": "2026-05-05", "amount": "500.00", "method": "check", "reference": "H-2"})).await;
    let r = json_ok(
        app.call(
            Method::GET,
            "/v1/municipalities/hayward/state-report?year=2026",
        )
        .send()
        .await,
        200,
    )
    .await;
    assert_eq!(r["rate"], "0.04");
    assert_eq!(r["quarters"][0]["source"], "ledger");
    assert_eq!(r["quarters"][0]["collected"], "1000.00");
    assert_eq!(r["quarters"][1]["collected"], "500.00");
    assert_eq!(r["quarters"][2]["collected"], "0.00");
    assert_eq!(r["collected"], "1500.00");
    assert_eq!(r["forwarded"], "0.00");
    assert_eq!(r["retained"], "1500.00");
    assert_eq!(r["commission"], Value::Null);
    assert!(
        r["note"]
            .as_str()
            .unwrap()
            .contains("not a member of a tourism zone"),
        "{r}"
    );
    // One payor: still only the municipality's totals.
    let text = r.to_string();
    for secret in [roomtax::demo::HAYWARD_LODGE_ID, "Northwoods", "payor"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    // Hostile years on the public form.
    for query in ["year=%00", "year=20x6", "year=3000"] {
        let path = format!("/v1/municipalities/hayward/state-report?{query}");
        let res = app.call(Method::GET, &path).send().await;
        assert!(matches!(res.status().as_u16(), 400 | 422), "{query}");
        assert!(
            res.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/problem+json")
        );
    }
    let res = app
        .call(
            Method::GET,
            "/v1/municipalities/nowhere/state-report?year=2026",
        )
        .send()
        .await;
    assert_eq!(res.status(), 404);
}

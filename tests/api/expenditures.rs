//! Expenditure reports, the commission's review, inspection requests and the
//! commission roster (issue 10 items 3, 4 and the roster of 6), over HTTP.

mod access;
mod flow;
mod log_and_race;
mod roster;
mod rules;

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_demo_app_at};

pub const REPORTS: &str = "/v1/zones/marquette-county/expenditure-reports";
pub const TOURISM: &str = "tourism@marquette-county.demo";
pub const COMMISSION: &str = "commission@marquette-county.demo";
pub const ZONE_ADMIN: &str = "admin@marquette-county.demo";
pub const MONTELLO_CLERK: &str = "clerk@montello.demo";

/// The demo, on 2026-12-01 (noon in Montello).
pub async fn app() -> TestApp {
    spawn_demo_app_at("2026-12-01T18:00:00Z").await
}

/// The 2026 report: three items listed (4500.00, 1000.00, 12345.67) and two
/// summed lines (2999.97 of 3 ads, 450.50 of 2 postage bills); 20000.00 declared
/// received. Spent: 4500.00 + 1000.00 + 12345.67 + 2999.97 + 450.50 = 21296.14;
/// received (the members' transfers; none in the demo): 0.00, so carried over
/// 0.00 − 21296.14 = −21296.14 (a deficit). The report back tests
/// (tests/api/reports.rs) receive real transfers.
pub fn report_2026() -> Value {
    json!({
        "period_start": "2026-01-01",
        "period_end": "2026-12-31",
        "received_declared": "20000.00",
        "items": [
            {"date": "2026-03-15", "payee": "Lakeland Printing", "amount": "4500.00",
             "category": "marketing_projects", "description": "2026 visitor guide, 20,000 copies",
             "constructs_or_develops_lodging_facility": false,
             "impact": [{"measure": "inquiries", "value": 320, "source": "reader-response cards"}]},
            {"date": "2026-05-01", "payee": "Montello Welcome Center", "amount": "1000.00",
             "category": "tourist_information_services", "description": "Summer staffing",
             "constructs_or_develops_lodging_facility": false,
             "impact": [{"measure": "visits", "value": 1250, "source": "door counter"}]},
            {"date": "2026-07-04", "payee": "Lakeside Pyrotechnics", "amount": "12345.67",
             "category": "other", "description": "Fourth of July fireworks",
             "explanation": "The display draws overnight visitors from outside the county",
             "constructs_or_develops_lodging_facility": false,
             "impact": [{"measure": "room_nights", "value": 410, "source": "lodging survey"}]}
        ],
        "summed": [
            {"category": "marketing_projects", "amount": "2999.97", "count": 3,
             "description": "Small newspaper ads", "constructs_or_develops_lodging_facility": false},
            {"category": "administration", "amount": "450.50", "count": 2,
             "description": "Postage", "constructs_or_develops_lodging_facility": false}
        ]
    })
}

/// POST a JSON body as `who`.
pub async fn post(app: &TestApp, who: &str, path: &str, body: Value) -> reqwest::Response {
    let token = app.token(who).await;
    app.call(Method::POST, path)
        .bearer(&token)
        .json(body)
        .send()
        .await
}

/// GET as `who`.
pub async fn get(app: &TestApp, who: &str, path: &str) -> reqwest::Response {
    let token = app.token(who).await;
    app.get_as(&token, path).await
}

/// File `body` as the tourism entity; answers the report.
pub async fn file(app: &TestApp, body: Value) -> Value {
    let res = post(app, TOURISM, REPORTS, body).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    res.json().await.unwrap()
}

/// A small well-formed PDF with binary bytes.
pub fn pdf() -> Vec<u8> {
    let mut out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n".to_vec();
    out.extend_from_slice(b"% binary \x00\x01\x9f\n");
    out.extend_from_slice(b"trailer << /Root 1 0 R >>\n%%EOF\n");
    out
}

//! Remittances to the zone, the zone's view and the commission's seats, from
//! the clerk's and the zone's side, on both backends (issue 10, items 1, 2, 7).
//!
//! Hand computation (Montello: 4.5 %, 75 % to the commission, interest 1 % a
//! month; remittance due the last day of the second month after the quarter).
//! Payor A (new, calendar year):
//! - 2025-Q4 paper return, gross 8,000.30 → tax 360.0135 → 360.01, filed
//!   2026-01-20 (due 2026-01-31);
//! - paid 200.01 on 2026-01-25 (to tax) and 200.00 on 2026-03-10: tax 160.00,
//!   its interest (2026-01 → 2026-03, 2 months) 3.20, 36.80 held as credit;
//! - 2026-Q1 paper return, gross 10,000.00, exempt 500.00 → 427.50, filed
//!   2026-04-20: the credit 36.80 pays its tax that day; paid 400.00 on
//!   2026-04-25: tax 390.70, 9.30 credit.
//!
//! 2026-Q1, tax received by the date received: 200.01 + 160.00 = 360.01;
//! gross 360.01 / 0.045 = 8000.2222… → 8000.22; commission 360.01 × 0.75 =
//! 270.0075 → 270.01; retained 90.00; 1 payor.
//! Payor B's 2025-Q4 return (gross 1,000.00 → 45.00) paid 45.00, recorded
//! late on 2026-05-05 as received 2026-03-31: 2026-Q1 becomes 405.01; gross
//! 8000.22 + 1000.00 = 9000.22; commission 303.7575 → 303.76 (33.75 more);
//! retained 101.25; 2 payors.
//! 2026-Q2: 36.80 (credit applied) + 390.70 = 427.50; gross 9500.00;
//! commission 320.625 → 320.63; retained 106.87.

mod access;
mod flow;
mod seats;

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::TestApp;

pub(super) const CLERK: &str = "clerk@montello.demo";
pub(super) const COMMISSION: &str = "commission@marquette-county.demo";
pub(super) const TOURISM: &str = "tourism@marquette-county.demo";
pub(super) const ZONE_ADMIN: &str = "admin@marquette-county.demo";
pub(super) const ZONE: &str = "/v1/zones/marquette-county/remittances";

pub(super) fn remittances_of(slug: &str) -> String {
    format!("/v1/municipalities/{slug}/remittances")
}

pub(super) async fn submit(
    app: &TestApp,
    token: &str,
    slug: &str,
    body: Value,
) -> reqwest::Response {
    app.call(Method::POST, &remittances_of(slug))
        .bearer(token)
        .json(body)
        .send()
        .await
}

pub(super) async fn transfer(
    app: &TestApp,
    token: &str,
    slug: &str,
    id: &str,
    body: Value,
) -> reqwest::Response {
    app.call(
        Method::POST,
        &format!("{}/{id}/transfer", remittances_of(slug)),
    )
    .bearer(token)
    .json(body)
    .send()
    .await
}

pub(super) async fn json_of(res: reqwest::Response, status: u16) -> Value {
    let url = res.url().to_string();
    assert_eq!(res.status().as_u16(), status, "{url}");
    res.json().await.unwrap()
}

/// The row of `municipality`'s `period` in a year's list.
pub(super) fn quarter<'a>(list: &'a Value, municipality: &str, period: &str) -> &'a Value {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["municipality"] == municipality && q["period"] == period)
        .unwrap_or_else(|| panic!("no {municipality} {period} in {list}"))
}

/// A new calendar-year Montello payor registered by the clerk.
pub(super) async fn new_payor(app: &TestApp, clerk: &str, name: &str) -> String {
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

/// A paper return entered by the clerk, received on `on`.
pub(super) async fn paper_return(
    app: &TestApp,
    clerk: &str,
    payor: &str,
    period: &str,
    gross: &str,
    exempt: &str,
    on: &str,
) {
    let mut body = crate::returns::filing(period, gross, exempt);
    body["received_on"] = json!(on);
    let res = crate::returns::file(app, clerk, payor, body).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
}

/// A payment received on `on`.
pub(super) async fn pay(app: &TestApp, clerk: &str, payor: &str, on: &str, amount: &str) -> Value {
    let res = app
        .call(
            Method::POST,
            &format!("/v1/municipalities/montello/payors/{payor}/payments"),
        )
        .bearer(clerk)
        .json(json!({"received_on": on, "amount": amount, "method": "check", "reference": "1041"}))
        .send()
        .await;
    json_of(res, 201).await
}

/// A member of the Marquette County zone since 2025-01-01 that administers its
/// tax elsewhere (no payor here), with a clerk-treasurer; returns its token.
pub(super) async fn entered_member(app: &TestApp, slug: &str) -> String {
    use roomtax::db::{self, models::MembershipRow};
    let token = municipality_with_clerk(app, slug).await;
    let mut conn = app.owner_conn();
    let zone = db::zones::by_slug(&mut conn, "marquette-county")
        .unwrap()
        .unwrap();
    let m = db::municipalities::by_slug(&mut conn, slug)
        .unwrap()
        .unwrap();
    db::zones::add_member(
        &mut conn,
        &MembershipRow {
            zone_id: zone.id,
            municipality_id: m.id,
            joined_on: chrono::NaiveDate::from_ymd_opt(2025, 1, 1).unwrap(),
            left_on: None,
        },
    )
    .unwrap();
    token
}

const PASSWORD: &str = "Remittance clerk pass 2026";

/// A municipality outside any zone with Montello's policy and a
/// clerk-treasurer `clerk@{slug}.test`; returns the clerk's token.
pub(super) async fn municipality_with_clerk(app: &TestApp, slug: &str) -> String {
    use roomtax::db::{self, models::NewMunicipality, models::NewPolicyVersion};
    let mut conn = app.owner_conn();
    let name = format!("Village of {slug}");
    let m = db::municipalities::insert(
        &mut conn,
        &NewMunicipality {
            slug,
            name: &name,
            kind: "village",
            county: "Marquette",
        },
    )
    .unwrap();
    let mut policy = roomtax::domain::presets::montello();
    policy.municipality = name.clone();
    db::policies::insert(
        &mut conn,
        &NewPolicyVersion {
            municipality_id: m.id,
            effective_from: policy.effective_from,
            document: &serde_json::to_string(&policy).unwrap(),
            source: "test",
        },
    )
    .unwrap();
    let email = format!("clerk@{slug}.test");
    roomtax::usecases::accounts::grant_role_in_transaction(
        &mut conn,
        &email,
        Some(PASSWORD),
        roomtax::auth::Role::ClerkTreasurer,
        &roomtax::usecases::accounts::GrantTarget::Municipality {
            id: m.id,
            payor_id: None,
        },
    )
    .unwrap();
    sign_in(app, &email).await
}

/// Sign in an account made by these tests.
pub(super) async fn sign_in(app: &TestApp, email: &str) -> String {
    let res = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": email, "password": PASSWORD}),
        )
        .await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.unwrap();
    body["access_token"].as_str().unwrap().to_owned()
}

/// Another zone with an admin `admin@{slug}.test`; returns the admin's token.
pub(super) async fn other_zone_admin(app: &TestApp, slug: &str) -> String {
    use roomtax::db::{self, models::NewZone};
    let mut conn = app.owner_conn();
    let zone = db::zones::insert(
        &mut conn,
        &NewZone {
            slug,
            name: "Other Zone",
            county: "Sawyer",
            commission_name: "Other Commission",
            tourism_entity_name: None,
        },
    )
    .unwrap();
    let email = format!("admin@{slug}.test");
    roomtax::usecases::accounts::grant_role_in_transaction(
        &mut conn,
        &email,
        Some(PASSWORD),
        roomtax::auth::Role::ZoneAdmin,
        &roomtax::usecases::accounts::GrantTarget::Zone { id: zone.id },
    )
    .unwrap();
    sign_in(app, &email).await
}

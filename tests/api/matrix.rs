//! The role × endpoint matrix: every operation of the generated OpenAPI
//! document, called by every kind of caller, answers the expected status.
//!
//! A new operation without a row here fails `every_operation_has_a_row`, so
//! no endpoint can ship without its authorisation being decided and tested.
//! Requests are harmless by construction: bodies are `{}` (so an authorised
//! caller stops at validation, 422) and ids point at nothing or at a payor
//! that is not the operator's own.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::helpers::spawn_full_demo_app;

/// Callers, in column order.
const CALLERS: [&str; 10] = [
    "anonymous",
    "clerk@montello.demo",
    "staff@montello.demo",
    "operator@montello.demo",
    "marketplace@montello.demo",
    "commission@marquette-county.demo",
    "tourism@marquette-county.demo",
    "admin@marquette-county.demo",
    "clerk@hayward.demo",
    "operator@hayward.demo",
];

/// `operationId` → expected status per caller (same order as `CALLERS`).
fn matrix() -> BTreeMap<&'static str, [u16; 10]> {
    const ALL_200: [u16; 10] = [200; 10];
    const ALL_422: [u16; 10] = [422; 10];
    const SIGNED_IN_200: [u16; 10] = [401, 200, 200, 200, 200, 200, 200, 200, 200, 200];
    //                                 anon clerk staff oper  mkt  comm tour zadm hclk hop
    const CLERK_ONLY_BODY: [u16; 10] = [401, 422, 403, 403, 403, 403, 403, 403, 404, 404];
    // Payor writers (clerk, staff) reach body validation (before If-Match);
    // related roles are refused (403); other municipalities' users learn nothing (404).
    // Clerk-treasurer administration: staff and zone roles related to Montello get
    // 403, Hayward's users 404. Revoking an id that exists nowhere is 404 even for the clerk.
    const CLERK_ONLY_200: [u16; 10] = [401, 200, 403, 403, 403, 403, 403, 403, 404, 404];
    const CLERK_ONLY_404: [u16; 10] = [401, 404, 403, 403, 403, 403, 403, 403, 404, 404];
    // Zone administration: everyone related to the zone (its roles, Montello's users)
    // gets 403 but the zone admin; Hayward is not a member: 404.
    const ZONE_ADMIN_200: [u16; 10] = [401, 403, 403, 403, 403, 403, 403, 200, 404, 404];
    const ZONE_ADMIN_BODY: [u16; 10] = [401, 403, 403, 403, 403, 403, 403, 422, 404, 404];
    const ZONE_ADMIN_404: [u16; 10] = [401, 403, 403, 403, 403, 403, 403, 404, 404, 404];
    const WRITERS_422: [u16; 10] = [401, 422, 422, 403, 403, 403, 403, 403, 404, 404];
    BTreeMap::from([
        // Operations and public law.
        ("healthz", ALL_200),
        ("readyz", ALL_200),
        ("list_problem_types", ALL_200),
        ("get_problem_type", ALL_200),
        ("list_zones", ALL_200),
        ("get_zone", ALL_200),
        ("list_municipalities", ALL_200),
        ("get_municipality", ALL_200),
        ("list_policy_versions", ALL_200),
        ("get_current_policy", ALL_200),
        ("get_due_calendar", ALL_200),
        ("create_quote", ALL_422),
        ("create_policy_version", CLERK_ONLY_BODY),
        // Authentication.
        ("get_jwks", ALL_200),
        ("sign_in", ALL_422),
        ("refresh_tokens", ALL_422),
        ("sign_out", ALL_422),
        ("client_credentials_token", [400; 10]),
        ("get_me", SIGNED_IN_200),
        (
            "change_my_password",
            [401, 422, 422, 422, 422, 422, 422, 422, 422, 422],
        ),
        // The payor registry (confidential). {payor} is Montello's campground: not
        // the Montello operator's own payor (the motel).
        (
            "list_payors",
            [401, 200, 200, 200, 404, 404, 404, 404, 404, 404],
        ),
        (
            "get_payor",
            [401, 200, 200, 404, 404, 404, 404, 404, 404, 404],
        ),
        ("create_payor", WRITERS_422),
        ("update_payor", WRITERS_422),
        ("close_payor", WRITERS_422),
        ("create_establishment", WRITERS_422),
        // Read like a payor; the establishment id exists nowhere, so readers get 404 too.
        (
            "get_establishment",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        ("update_establishment", WRITERS_422),
        ("close_establishment", WRITERS_422),
        // Municipal administration (clerk-treasurer).
        ("list_municipality_grants", CLERK_ONLY_200),
        ("create_municipality_grant", CLERK_ONLY_BODY),
        ("revoke_municipality_grant", CLERK_ONLY_404),
        ("list_municipality_api_clients", CLERK_ONLY_200),
        ("create_municipality_api_client", CLERK_ONLY_BODY),
        ("revoke_municipality_api_client", CLERK_ONLY_404),
        ("list_disclosures", CLERK_ONLY_200),
        ("create_disclosure", CLERK_ONLY_BODY),
        ("revoke_disclosure", CLERK_ONLY_404),
        ("list_access_log", CLERK_ONLY_200),
        ("list_zone_access_log", ZONE_ADMIN_200),
        // Zone administration (zone admin).
        ("list_zone_grants", ZONE_ADMIN_200),
        ("create_zone_grant", ZONE_ADMIN_BODY),
        ("revoke_zone_grant", ZONE_ADMIN_404),
        ("list_zone_api_clients", ZONE_ADMIN_200),
        ("create_zone_api_client", ZONE_ADMIN_BODY),
        ("revoke_zone_api_client", ZONE_ADMIN_404),
        ("invite_zone_member", ZONE_ADMIN_BODY),
        ("list_zone_invitations", ZONE_ADMIN_200),
        ("withdraw_zone_invitation", ZONE_ADMIN_404),
        ("leave_zone", ZONE_ADMIN_BODY),
        // The invited municipality's side of a zone invitation (clerk-treasurer).
        ("list_municipality_zone_invitations", CLERK_ONLY_200),
        ("accept_zone_invitation", CLERK_ONLY_404),
        ("decline_zone_invitation", CLERK_ONLY_404),
        // Returns (confidential). {payor} is the campground, not the Montello
        // operator's own payor: only the clerk-treasurer and staff reach it;
        // everyone else learns nothing (404). Return ids exist nowhere.
        (
            "list_payor_obligations",
            [401, 200, 200, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "file_return",
            [401, 422, 422, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "get_return",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "amend_return",
            [401, 422, 422, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "list_return_versions",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        // Attachments: writers reach the query (`kind` missing: 422) before the
        // return is looked up; readers find no such return.
        (
            "upload_return_attachment",
            [401, 422, 422, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "list_return_attachments",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "download_return_attachment",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        // The clerk's view of a period: staff too; related roles 403, Hayward 404.
        (
            "list_period_returns",
            [401, 200, 200, 403, 403, 403, 403, 403, 404, 404],
        ),
        // Marketplace reports: only a provider files (its `{}` stops at validation);
        // the clerk-treasurer, staff and providers read (a provider its own; the
        // report id exists nowhere: 404); other Montello-related roles 403, Hayward 404.
        (
            "file_marketplace_report",
            [401, 403, 403, 403, 422, 403, 403, 403, 404, 404],
        ),
        (
            "list_marketplace_reports",
            [401, 200, 200, 403, 200, 403, 403, 403, 404, 404],
        ),
        (
            "get_marketplace_report",
            [401, 404, 404, 403, 404, 403, 403, 403, 404, 404],
        ),
        // Extensions: asked like a return is filed, listed like returns are read, the
        // municipality's list and the decisions for the clerk-treasurer and staff
        // (related roles 403, Hayward 404); extension ids exist nowhere.
        (
            "request_extension",
            [401, 422, 422, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "list_payor_extensions",
            [401, 200, 200, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "list_extensions",
            [401, 200, 200, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "get_extension",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        ("grant_extension", WRITERS_422),
        ("refuse_extension", WRITERS_422),
        // Payments: the clerk-treasurer and staff record and reverse (`{}` stops at
        // validation, before the payment is looked up); related roles 403, Hayward 404.
        // The statement of account of the campground: the clerk and staff; the Montello
        // operator's own payor is the motel, so it gets 404 like everyone else.
        ("record_payment", WRITERS_422),
        ("reverse_payment", WRITERS_422),
        // Refunds: like payments (`{}` stops at validation, before the payor is read).
        ("record_refund", WRITERS_422),
        (
            "get_payor_account",
            [401, 200, 200, 404, 404, 404, 404, 404, 404, 404],
        ),
        // Determinations: only the clerk-treasurer makes them (staff 403); the clerk,
        // staff and the payor's own operator read them (the campground is not the
        // Montello operator's); an id that exists nowhere is 404 for everyone.
        ("make_determination", CLERK_ONLY_BODY),
        (
            "list_determinations",
            [401, 200, 200, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "get_determination",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        // Notices of the campground: read like its account; notice ids exist nowhere.
        (
            "list_payor_notices",
            [401, 200, 200, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "get_payor_notice",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "get_payor_notice_document",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        // Delinquencies, the roll, letters and the daily posting: the clerk-treasurer
        // and staff (related roles 403, Hayward 404). The campground's 2025 returns are
        // unpaid in the demo, so a letter is issued (201); the daily posting posts
        // nothing there (no previous year's tax).
        (
            "list_delinquencies",
            [401, 200, 200, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "list_special_assessments",
            [401, 200, 200, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "issue_delinquency_letter",
            [401, 201, 201, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "run_daily_posting",
            [401, 200, 200, 403, 403, 403, 403, 403, 404, 404],
        ),
        // Security deposits, clearance and successor liability: the clerk-treasurer
        // and staff act (`{}` stops at validation, or the deposit id exists nowhere:
        // 404); related roles 403, Hayward 404. Reading the campground's deposits: the
        // clerk and staff (the Montello operator's own payor is the motel: 404).
        ("require_security_deposit", WRITERS_422),
        ("receive_security_deposit", WRITERS_422),
        (
            "notify_security_application",
            [401, 404, 404, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "apply_security_deposit",
            [401, 404, 404, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "return_security_deposit",
            [401, 404, 404, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "list_security_deposits",
            [401, 200, 200, 404, 404, 404, 404, 404, 404, 404],
        ),
        (
            "get_security_deposit",
            [401, 404, 404, 404, 404, 404, 404, 404, 404, 404],
        ),
        ("get_successor_liability", WRITERS_422),
        // Transfers of establishments (the sale of a business): the clerk-treasurer
        // and staff (`{}` stops at validation); related roles 403, Hayward 404.
        ("transfer_establishments", WRITERS_422),
        (
            "list_transfers",
            [401, 200, 200, 403, 403, 403, 403, 403, 404, 404],
        ),
        // The public verification: the code `not-found` is no certificate's, for anyone.
        ("verify_clearance_certificate", [404; 10]),
        // Expenditure reports (issue 10 items 3, 4): the tourism entity files, amends,
        // answers and attaches (`{}` or a missing `kind` stops at validation); the
        // commission reviews; both read (the ids exist nowhere: 404); everyone else
        // related to the zone (Montello's users, the zone admin) 403, Hayward 404.
        (
            "file_expenditure_report",
            [401, 403, 403, 403, 403, 403, 422, 403, 404, 404],
        ),
        (
            "list_expenditure_reports",
            [401, 403, 403, 403, 403, 200, 200, 403, 404, 404],
        ),
        (
            "get_expenditure_report",
            [401, 403, 403, 403, 403, 404, 404, 403, 404, 404],
        ),
        (
            "amend_expenditure_report",
            [401, 403, 403, 403, 403, 403, 422, 403, 404, 404],
        ),
        (
            "review_expenditure_report",
            [401, 403, 403, 403, 403, 422, 403, 403, 404, 404],
        ),
        (
            "answer_review_question",
            [401, 403, 403, 403, 403, 403, 422, 403, 404, 404],
        ),
        (
            "upload_expenditure_attachment",
            [401, 403, 403, 403, 403, 403, 422, 403, 404, 404],
        ),
        (
            "download_expenditure_attachment",
            [401, 403, 403, 403, 403, 404, 404, 403, 404, 404],
        ),
        // Inspection requests: Montello's clerk-treasurer asks (`{}`: 422) and reads its
        // own; the commission and the tourism entity read and answer (no such request: 404).
        (
            "request_inspection",
            [401, 422, 403, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "list_inspection_requests",
            [401, 200, 403, 403, 403, 200, 200, 403, 404, 404],
        ),
        (
            "answer_inspection_request",
            [401, 403, 403, 403, 403, 404, 404, 403, 404, 404],
        ),
        // The commission roster: the zone admin writes; zone roles and member clerks read.
        (
            "get_commission_roster",
            [401, 200, 403, 403, 403, 200, 200, 200, 404, 404],
        ),
        ("add_commission_member", ZONE_ADMIN_BODY),
        ("end_commission_membership", ZONE_ADMIN_404),
        (
            "issue_clearance_certificate",
            [401, 409, 409, 403, 403, 403, 403, 403, 404, 404],
        ),
        // Montello's vehicle registration fee: the clerk-treasurer and staff record
        // (`{}` stops at validation) and read; Montello's other roles and the zone's
        // 403, Hayward's users 404 (Hayward's own fee-less fund is 409, tested in
        // tests/api/vehicle_fee.rs).
        ("record_vehicle_fee_remittance", WRITERS_422),
        ("correct_vehicle_fee_remittance", WRITERS_422),
        ("record_vehicle_fee_spending", WRITERS_422),
        ("reverse_vehicle_fee_spending", WRITERS_422),
        (
            "list_vehicle_fee_remittances",
            [401, 200, 200, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "get_vehicle_fee_fund",
            [401, 200, 200, 403, 403, 403, 403, 403, 404, 404],
        ),
        // Remittances to the zone: the clerk submits and marks transfers; the
        // clerk and staff read the municipality's own; the zone's view and
        // seats: the zone's roles and a member's clerk (its own rows).
        ("submit_remittance", CLERK_ONLY_BODY),
        ("preview_remittance", CLERK_ONLY_BODY),
        ("record_remittance_transfer", CLERK_ONLY_BODY),
        (
            "list_municipality_remittances",
            [401, 200, 200, 403, 403, 403, 403, 403, 404, 404],
        ),
        (
            "list_zone_remittances",
            [401, 200, 403, 403, 403, 200, 200, 200, 404, 404],
        ),
        (
            "get_zone_seats",
            [401, 200, 403, 403, 403, 200, 200, 200, 404, 404],
        ),
        // Public statistics: no sign-in, small cells withheld.
        ("get_zone_statistics", ALL_200),
        ("get_municipality_statistics", ALL_200),
        // The commission's report back: commission members, the tourism entity and
        // the member's own clerk; the zone admin and Montello's other roles 403,
        // Hayward's users 404. Form SL-304's figures: public.
        (
            "get_report_back",
            [401, 200, 403, 403, 403, 200, 200, 403, 404, 404],
        ),
        ("get_state_report", ALL_200),
    ])
}

/// Concrete values for path parameters and required query strings.
fn concrete(path: &str) -> String {
    let mut p = path
        .replace("{municipality}", "montello")
        .replace("{zone}", "marquette-county")
        .replace("{code}", "not-found")
        .replace("{payor}", roomtax::demo::MONTELLO_CAMPGROUND_ID);
    // Any other id: one that exists nowhere.
    while let (Some(start), Some(end)) = (p.find('{'), p.find('}')) {
        p.replace_range(start..=end, "00000000-0000-4000-8000-00000000dead");
    }
    if p.ends_with("/calendar") {
        p.push_str("?year=2026");
    }
    if p.ends_with("/remittances") || p.ends_with("/seats") {
        p.push_str("?year=2026");
    }
    if p.ends_with("/state-report") || p.contains("/reports/") {
        p.push_str("?year=2026");
    }
    if p == "/v1/municipalities/montello/returns" {
        p.push_str("?period=2026-Q1");
    }
    p
}

fn operations() -> Vec<(String, String, String)> {
    let spec: Value = serde_json::from_str(&roomtax::api::openapi_json()).unwrap();
    let mut ops = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            ops.push((
                op["operationId"].as_str().unwrap().to_owned(),
                method.to_uppercase(),
                path.clone(),
            ));
        }
    }
    ops
}

#[test]
fn every_operation_has_a_row() {
    let table = matrix();
    let ops = operations();
    let missing: Vec<_> = ops
        .iter()
        .filter(|(id, ..)| !table.contains_key(id.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "operations without a row in the role matrix: {missing:?}"
    );
    let stale: Vec<_> = table
        .keys()
        .filter(|id| !ops.iter().any(|(op, ..)| op == *id))
        .collect();
    assert!(
        stale.is_empty(),
        "matrix rows for operations that no longer exist: {stale:?}"
    );
}

#[actix_web::test]
async fn every_caller_gets_the_expected_status_on_every_operation() {
    let app = spawn_full_demo_app().await;
    let mut tokens = vec![None];
    for email in &CALLERS[1..] {
        tokens.push(Some(app.token(email).await));
    }
    let table = matrix();
    let mut wrong = Vec::new();
    for (id, method, path) in operations() {
        let Some(expected) = table.get(id.as_str()) else {
            continue; // reported by every_operation_has_a_row
        };
        let url = app.url(&concrete(&path));
        for (i, caller) in CALLERS.iter().enumerate() {
            let mut req = app
                .client
                .request(method.parse().unwrap(), &url)
                .header("content-type", "application/json");
            if method != "GET" {
                req = req.body("{}");
            }
            if let Some(token) = &tokens[i] {
                req = req.bearer_auth(token);
            }
            let status = req.send().await.unwrap().status().as_u16();
            if status != expected[i] {
                wrong.push(format!(
                    "{method} {path} ({id}) as {caller}: expected {}, got {status}",
                    expected[i]
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "role matrix mismatches:\n{}",
        wrong.join("\n")
    );
}

#[actix_web::test]
async fn callers_without_a_relation_learn_nothing_from_bad_parameters() {
    // Authorisation comes before parsing: a protected operation answers an unrelated
    // caller 404 even when its query string or body is malformed.
    let app = spawn_full_demo_app().await;
    let outsider = app.token("operator@hayward.demo").await;
    let spec: Value = serde_json::from_str(&roomtax::api::openapi_json()).unwrap();
    let mut wrong = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        if !path.starts_with("/v1/municipalities/{municipality}/") {
            continue;
        }
        for (method, op) in item.as_object().unwrap() {
            if op["security"].as_array().is_none_or(|s| s.is_empty()) {
                continue; // public law: no relation needed
            }
            let url = app.url(&format!(
                "{}?limit=lots&cursor=%%",
                concrete(path).split('?').next().unwrap()
            ));
            let status = app
                .client
                .request(method.to_uppercase().parse().unwrap(), &url)
                .bearer_auth(&outsider)
                .header("content-type", "application/json")
                .body("{not json")
                .send()
                .await
                .unwrap()
                .status()
                .as_u16();
            if status != 404 {
                wrong.push(format!("{method} {path}: {status}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "answered an outsider before authorising: {wrong:?}"
    );
}

#[actix_web::test]
async fn a_refusal_says_in_words_what_the_role_may_not_do() {
    // Regression (issue 7, item 7): 403 details named internal enum variants
    // ("WritePayors"); they now say what the caller may not do.
    let app = spawn_full_demo_app().await;
    let operator = app.token("operator@montello.demo").await;
    let res = app
        .client
        .post(app.url("/v1/municipalities/montello/payors"))
        .bearer_auth(&operator)
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    let body = crate::helpers::assert_problem(res, 403, "forbidden").await;
    assert_eq!(
        body["detail"],
        "your role in this municipality may not change the payor registry"
    );
    let commission = app.token("commission@marquette-county.demo").await;
    let res = app
        .get_as(&commission, "/v1/zones/marquette-county/grants")
        .await;
    let body = crate::helpers::assert_problem(res, 403, "forbidden").await;
    assert_eq!(
        body["detail"],
        "only a zone_admin of this zone may manage the zone's users and their roles"
    );
    assert!(!body.to_string().contains("ManageUsers"), "{body}");
}

//! The demo's money (`roomtax demo`, `serve --demo`), read back through the
//! API on both backends: what the README's walk-through shows, loading twice
//! changes nothing, and `roomtax check` passes on it.
//!
//! Hand computation (interest 1 % a month in whole months,
//! `(12·y(paid) + m(paid)) − (12·y(due) + m(due))`):
//! - Lakeside Motel (Montello, 4.5 %): Q1 18,000.00 → 810.00, paid 2026-04-06:
//!   12 months → 97.20, charged 907.20. The first payment 1,500.00 − 907.20 =
//!   592.80 to Q2's tax (31,250.00 → 1,406.25), interest 9 months × 592.80 =
//!   53.35; the second (2026-04-20) the other 813.45 with 9 months 73.21, so
//!   Q2's interest 126.56, plus the 25.00 late filing fee and a forfeiture of
//!   0.00 (no 2024 tax): 1,557.81. Q3 as amended 36,000.00 → 1,620.00, 6
//!   months 97.20: 1,717.20. Q4 as adjusted 12,100.00 → 544.50, 3 months
//!   16.335 → 16.34: 560.84. Charged 4,743.05; paid 1,500.00 + 3,443.05 =
//!   4,943.05, so 200.00 credit, refunded 2026-04-27 on 2025-Q4 (due
//!   2026-01-31): 3 months × 200.00 = 6.00 of interest. Nothing owed: the
//!   clearance certificate of 2026-04-30.
//! - Buffalo Lake Campground: 2025-Q4 estimated on 8,000.00 → 360.00 tax,
//!   10 % penalty 36.00: charged 396.00; a deposit of 1,000.00 held.
//! - Northwoods Lodge (Hayward, 4 %): Q1 40,000.00 → 1,600.00 paid with the
//!   return; 2026-Q1 estimated on 30,000.00 → 1,200.00 + 120.00 = 1,320.00.

use serde_json::Value;

use super::payments::{check_passes, period, statement};
use crate::helpers::spawn_app;
use crate::returns::CLERK;

const MOTEL: &str = "5b0c8c1e-0000-4000-8000-000000000001";
const CAMPGROUND: &str = "5b0c8c1e-0000-4000-8000-000000000002";
const LODGE: &str = "5b0c8c1e-0000-4000-8000-000000000003";

#[actix_web::test]
async fn the_demo_money_reads_back_as_hand_computed_and_loads_once() {
    let mut app = spawn_app().await;
    let report = app.load_full_demo().await;
    app.accounts = report.accounts.clone();
    let clerk = app.token(CLERK).await;

    // The public verification, without signing in: the trade name, never the
    // owner's legal name.
    assert_eq!(report.certificates.len(), 1);
    assert_eq!(report.certificates[0].payor_id, MOTEL);
    let code = &report.certificates[0].verification_code;
    let verified: Value = app
        .get(&format!("/v1/clearance-certificates/{code}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        verified,
        serde_json::json!({"valid": true, "public_name": "Lakeside Motel", "issued_on": "2026-04-30"})
    );

    let motel = statement(&app, &clerk, MOTEL, "2026-12-01").await;
    let q1 = period(&motel, "2025-Q1");
    assert_eq!(
        (q1["charged"].as_str(), q1["paid"].as_str()),
        (Some("907.20"), Some("907.20"))
    );
    let q2 = period(&motel, "2025-Q2");
    assert_eq!(q2["charged"], "1557.81");
    assert_eq!(q2["balance"], "0.00");
    assert_eq!(period(&motel, "2025-Q3")["charged"], "1717.20");
    assert_eq!(period(&motel, "2025-Q4")["charged"], "560.84");
    let payments: Vec<&str> = motel["payments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["amount"].as_str().unwrap())
        .collect();
    assert_eq!(payments, ["1500.00", "3443.05"]);
    let refunds = motel["refunds"].as_array().unwrap();
    assert_eq!(refunds.len(), 1, "{motel}");
    assert_eq!(refunds[0]["amount"], "200.00");
    assert_eq!(refunds[0]["interest"], "6.00", "{}", refunds[0]);

    let camp = statement(&app, &clerk, CAMPGROUND, "2026-12-01").await;
    assert_eq!(period(&camp, "2025-Q4")["charged"], "396.00");
    let notices: Value = app
        .get_as(
            &clerk,
            &format!("/v1/municipalities/montello/payors/{CAMPGROUND}/notices"),
        )
        .await
        .json()
        .await
        .unwrap();
    let mut kinds: Vec<&str> = notices["items"]
        .as_array()
        .unwrap_or_else(|| panic!("{notices}"))
        .iter()
        .map(|n| n["kind"].as_str().unwrap())
        .collect();
    kinds.sort_unstable();
    assert_eq!(kinds, ["delinquency", "estimate", "security_required"]);
    let deposits: Value = app
        .get_as(
            &clerk,
            &format!("/v1/municipalities/montello/payors/{CAMPGROUND}/security-deposits"),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(deposits["items"][0]["held"], "1000.00", "{deposits}");

    let hayward_clerk = app.token("clerk@hayward.demo").await;
    let lodge: Value = app
        .get_as(
            &hayward_clerk,
            &format!("/v1/municipalities/hayward/payors/{LODGE}/account?as_of=2026-12-01"),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(period(&lodge, "2025-Q1")["paid"], "1600.00");
    assert_eq!(period(&lodge, "2026-Q1")["charged"], "1320.00");

    // The certificate's code is in no row: only the first load reports it.
    let again = app.load_full_demo().await;
    assert!(again.created.is_empty(), "{:?}", again.created);
    assert!(again.certificates.is_empty());
    check_passes(&app);
}

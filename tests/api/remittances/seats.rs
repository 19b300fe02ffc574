//! Seats on the commission from the previous year's submitted tax collected,
//! at the statute's boundaries (Wis. Stat. § 66.0615(1m)(c): 1 seat at or
//! below 300,000.00, 2 up to 1,000,000.00, 3 above), naming missing quarters.
//! Westfield enters its 2025 totals; its 2025-Q1 is corrected across each
//! boundary; Montello submitted nothing for 2025 (1 seat, four quarters
//! missing).

use serde_json::{Value, json};

use super::*;
use crate::helpers::spawn_demo_app_at;

fn member<'a>(seats: &'a Value, slug: &str) -> &'a Value {
    seats["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["municipality"] == slug)
        .unwrap_or_else(|| panic!("no {slug} in {seats}"))
}

#[actix_web::test]
async fn seats_follow_the_previous_years_collections_at_the_boundaries() {
    let app = spawn_demo_app_at("2026-02-10T15:00:00Z").await;
    let westfield = entered_member(&app, "westfield").await;
    let entered = |period: &str, tax: &str| json!({"period": period, "gross_receipts": "99000000.00", "tax_collected": tax, "payor_count": 4});
    // Q2 and Q3: 100,000.00 each; Q4 not submitted.
    for q in ["2025-Q2", "2025-Q3"] {
        json_of(
            submit(&app, &westfield, "westfield", entered(q, "100000.00")).await,
            201,
        )
        .await;
    }
    let commission = app.token(COMMISSION).await;
    let mut seen = Vec::new();
    for (q1, total, seats) in [
        ("100000.00", "300000.00", 1),
        ("100000.01", "300000.01", 2),
        ("800000.00", "1000000.00", 2),
        ("800000.01", "1000000.01", 3),
    ] {
        json_of(
            submit(&app, &westfield, "westfield", entered("2025-Q1", q1)).await,
            201,
        )
        .await;
        let body = json_of(
            app.get_as(&commission, "/v1/zones/marquette-county/seats?year=2026")
                .await,
            200,
        )
        .await;
        assert_eq!(body["collections_year"], 2025);
        let w = member(&body, "westfield");
        assert_eq!(w["collections"], total, "{body}");
        assert_eq!(w["seats"], seats, "{total}: {body}");
        assert_eq!(w["missing_quarters"], json!(["2025-Q4"]));
        assert!(
            w["explanation"]["citation"]
                .as_str()
                .unwrap()
                .contains("66.0615"),
            "{w}"
        );
        let m = member(&body, "montello");
        assert_eq!(m["seats"], 1);
        assert_eq!(m["collections"], "0.00");
        assert_eq!(
            m["missing_quarters"],
            json!(["2025-Q1", "2025-Q2", "2025-Q3", "2025-Q4"])
        );
        seen.push(seats);
    }
    assert_eq!(seen, [1, 2, 2, 3]);
    // A member's clerk sees its own seats only.
    let own = json_of(
        app.get_as(&westfield, "/v1/zones/marquette-county/seats?year=2026")
            .await,
        200,
    )
    .await;
    assert_eq!(own["members"].as_array().unwrap().len(), 1);
    assert_eq!(member(&own, "westfield")["seats"], 3);
}

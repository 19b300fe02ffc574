//! Written notices as documents: a delinquency letter issued by the clerk,
//! listed, shown as JSON, downloaded as a real PDF (by `Accept` and by its
//! `/document` path), read by each role or refused, each read in the
//! access log; on both backends.
//!
//! Hand computation: the payor of `delinquencies` as of 2026-06-30 owes
//! 2025-Q4 tax 360.00 + interest accrued 18.00, 2026-Q1 tax 427.50 + fee
//! 25.00 + interest accrued 8.55: total 839.05.

use reqwest::Method;
use serde_json::{Value, json};

use super::delinquencies::{STAFF, late_payor, new_payor};
use crate::helpers::{TestApp, spawn_demo_app_at};
use crate::returns::{CLERK, MOTEL, OPERATOR};

fn letters_of(payor: &str) -> String {
    format!("/v1/municipalities/montello/payors/{payor}/delinquency-letters")
}

fn notices_of(payor: &str) -> String {
    format!("/v1/municipalities/montello/payors/{payor}/notices")
}

async fn issue(app: &TestApp, token: &str, payor: &str) -> reqwest::Response {
    app.call(Method::POST, &letters_of(payor))
        .bearer(token)
        .send()
        .await
}

fn contains(bytes: &[u8], needle: &str) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// A real PDF: header, trailer, and the text in its (uncompressed) content.
fn assert_pdf(bytes: &[u8], texts: &[&str]) {
    assert!(bytes.starts_with(b"%PDF-"), "not a PDF");
    assert!(bytes.trim_ascii_end().ends_with(b"%%EOF"), "no %%EOF");
    assert!(contains(bytes, "startxref") && contains(bytes, "/Type /Catalog"));
    for t in texts {
        assert!(
            contains(bytes, &format!("({t})")),
            "no text {t:?} in the PDF"
        );
    }
}

#[actix_web::test]
async fn a_delinquency_letter_is_issued_listed_shown_and_downloaded_as_a_pdf() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = late_payor(&app, &clerk).await;
    app.set_now("2026-06-30T15:00:00Z");

    let res = issue(&app, &clerk, &payor).await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let issued: Value = res.json().await.unwrap();
    let id = issued["id"].as_str().unwrap().to_owned();
    assert_eq!(location, format!("{}/{id}", notices_of(&payor)));
    assert_eq!(issued["kind"], "delinquency");
    assert_eq!(issued["issued_on"], "2026-06-30");
    assert_eq!(
        issued["title"],
        "Notice of delinquent room tax as of 2026-06-30"
    );
    assert_eq!(issued["journal_id"], Value::Null);
    assert_eq!(
        (&issued["cause_type"], &issued["cause_id"]),
        (&json!("payor"), &json!(payor))
    );

    // The list: metadata only, newest first.
    let list: Value = app
        .get_as(&clerk, &notices_of(&payor))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    assert_eq!(list["items"][0]["id"], id.as_str());
    assert!(list["items"][0].get("paragraphs").is_none());
    assert_eq!(list["next_cursor"], Value::Null);

    // JSON: the content, with the amounts table.
    let shown: Value = app.get_as(&clerk, &location).await.json().await.unwrap();
    assert_eq!(
        shown["addressee"],
        json!([
            "Lakeview Cabins LLC",
            "d/b/a Pine Cabins",
            "PO Box 7",
            "Montello, WI 53949"
        ])
    );
    let amounts: Vec<(String, Option<String>, String)> = shown["amounts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["label"].as_str().unwrap().to_owned(),
                a["period"].as_str().map(str::to_owned),
                a["amount"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let row =
        |l: &str, p: Option<&str>, a: &str| (l.to_owned(), p.map(str::to_owned), a.to_owned());
    assert_eq!(
        amounts,
        vec![
            row("Room tax", Some("2025-Q4"), "360.00"),
            row("Interest accrued to 2026-06-30", Some("2025-Q4"), "18.00"),
            row("Room tax", Some("2026-Q1"), "427.50"),
            row("Late filing fee", Some("2026-Q1"), "25.00"),
            row("Interest accrued to 2026-06-30", Some("2026-Q1"), "8.55"),
            row("Total owed", None, "839.05"),
        ]
    );
    assert!(
        shown["citations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c.as_str().unwrap().contains("Montello room tax, interest"))
    );
    let digest = shown["document_sha256"].as_str().unwrap().to_owned();
    assert_eq!(digest.len(), 64);

    // The PDF, by its path and by Accept: the same bytes, as sent.
    let res = app.get_as(&clerk, &format!("{location}/document")).await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/pdf");
    let disposition = res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"notice-delinquency-2026-06-30-")
            && disposition.ends_with(".pdf\""),
        "{disposition}"
    );
    let pdf = res.bytes().await.unwrap();
    assert_pdf(
        &pdf,
        &[
            "City of Montello",
            "Notice of delinquent room tax as of 2026-06-30",
            "Lakeview Cabins LLC",
            "Date: 2026-06-30",
            "839.05",
            &format!(
                "Notice {id} | Ledger journal none (this notice posts no journal) | Page 1 of 1"
            ),
        ],
    );
    let by_accept = app
        .call(Method::GET, &location)
        .bearer(&clerk)
        .header("accept", "application/pdf")
        .send()
        .await;
    assert_eq!(by_accept.status(), 200);
    assert_eq!(by_accept.bytes().await.unwrap(), pdf);
    {
        use sha2::Digest;
        let hex: String = sha2::Sha256::digest(&pdf)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(hex, digest);
    }

    // Each read is in the access log (the list, the JSON, two downloads).
    let log: Value = app
        .get_as(&clerk, "/v1/municipalities/montello/access-log?limit=200")
        .await
        .json()
        .await
        .unwrap();
    let reads = log["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["record_type"] == "notice" && e["record_id"] == id.as_str())
        .count();
    assert!(reads >= 3, "{log}");
}

#[actix_web::test]
async fn who_may_issue_and_read_notices() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let staff = app.token(STAFF).await;
    let operator = app.token(OPERATOR).await;
    // The demo motel (the operator's own) has 2025 returns on file and nothing paid.
    let res = issue(&app, &staff, MOTEL).await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let id = res.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let one = format!("{}/{id}", notices_of(MOTEL));
    let document = format!("{one}/document");

    for (who, status) in [
        (CLERK, 200),
        (STAFF, 200),
        (OPERATOR, 200),
        ("marketplace@montello.demo", 404),
        ("commission@marquette-county.demo", 404),
        ("clerk@hayward.demo", 404),
        ("operator@hayward.demo", 404),
    ] {
        let token = app.token(who).await;
        for path in [notices_of(MOTEL), one.clone(), document.clone()] {
            assert_eq!(
                app.get_as(&token, &path).await.status(),
                status,
                "{who} {path}"
            );
        }
    }
    assert_eq!(app.get(&document).await.status(), 401);
    // The operator may not issue letters (403), not even about itself.
    assert_eq!(issue(&app, &operator, MOTEL).await.status(), 403);
    // Another payor's notice path does not reach this notice.
    let other = new_payor(&app, &clerk, "Quiet Pines LLC").await;
    let res = app
        .get_as(&clerk, &format!("{}/{id}", notices_of(&other)))
        .await;
    assert_eq!(res.status(), 404);
    // Nothing past due: no letter.
    let res = issue(&app, &clerk, &other).await;
    let body = crate::helpers::assert_problem(res, 422, "validation-failed").await;
    assert_eq!(
        crate::helpers::check::rule_of(&body, "payor").as_deref(),
        Some("nothing_past_due")
    );
    // Pagination: a made-up cursor is a 400 naming it.
    let res = app
        .get_as(&clerk, &format!("{}?cursor=nope", notices_of(MOTEL)))
        .await;
    assert_eq!(res.status(), 400);
}

#[actix_web::test]
async fn a_payor_s_notices_come_newest_first_in_pages() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        let res = issue(&app, &clerk, MOTEL).await;
        assert_eq!(res.status(), 201);
        ids.push(
            res.json::<Value>().await.unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    ids.reverse(); // newest first
    let first: Value = app
        .get_as(&clerk, &format!("{}?limit=2", notices_of(MOTEL)))
        .await
        .json()
        .await
        .unwrap();
    let page = |v: &Value| -> Vec<String> {
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(page(&first), ids[..2]);
    let cursor = first["next_cursor"].as_str().expect("a second page");
    let second: Value = app
        .get_as(
            &clerk,
            &format!("{}?limit=2&cursor={cursor}", notices_of(MOTEL)),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(page(&second), ids[2..]);
    assert_eq!(second["next_cursor"], Value::Null);
    let res = app
        .get_as(&clerk, &format!("{}?limit=0", notices_of(MOTEL)))
        .await;
    assert_eq!(res.status(), 422, "limit out of range");
}

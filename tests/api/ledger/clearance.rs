//! Clearance certificates on the sale of a business (Montello room tax, sale
//! of business ¶) and their public verification, on both backends.
//!
//! Hand computation (Montello 4.5 %): 2026-Q1 gross 10,000.00, federal
//! exemption 500.00 → tax 427.50, filed on its due date 2026-04-30, unpaid.
//! As of 2026-05-01 interest accrued 2026-04 → 2026-05 = 1 month: 427.50 ×
//! 1 % = 4.275 → 4.28; owed 427.50 + 4.28 = 431.78, so the certificate is
//! refused naming 2026-Q1 and 431.78. A payment of 431.78 that day settles
//! tax 427.50 and the interest 4.28 it posts; then the certificate is a
//! receipt that the tax is paid. A payor never charged gets a certificate
//! that nothing is due.

use reqwest::Method;
use serde_json::{Value, json};

use super::security::{HAYWARD_CLERK, journals_balance, new_payor, paper_return, post};
use crate::helpers::{assert_problem, spawn_demo_app_at};
use crate::returns::CLERK;

fn certificates(slug: &str, payor: &str) -> String {
    format!("/v1/municipalities/{slug}/payors/{payor}/clearance-certificates")
}

#[actix_web::test]
async fn a_clearance_certificate_is_refused_while_owed_then_issued_and_verified_by_anyone() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "montello", "Heron Point Resort LLC").await;
    paper_return(
        &app,
        &clerk,
        "montello",
        &payor,
        "2026-Q1",
        "10000.00",
        "500.00",
        "2026-04-30",
    )
    .await;

    let res = post(
        &app,
        &clerk,
        &certificates("montello", &payor),
        json!({"sale_on": "2026-05-15"}),
    )
    .await;
    let body = assert_problem(res, 409, "conflict").await;
    assert_eq!(body["errors"][0]["rule"], "amount_owed");
    let detail = body["errors"][0]["message"].as_str().unwrap();
    assert!(
        detail.contains("2026-Q1 431.78") && detail.contains("4.28"),
        "{detail}"
    );

    let res = post(
        &app,
        &clerk,
        &format!("/v1/municipalities/montello/payors/{payor}/payments"),
        json!({"received_on": "2026-05-01", "amount": "431.78", "method": "check", "reference": "3001"}),
    )
    .await;
    assert_eq!(res.status(), 201);

    let res = post(
        &app,
        &clerk,
        &certificates("montello", &payor),
        json!({"sale_on": "2026-05-15"}),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let c: Value = res.json().await.unwrap();
    assert_eq!(c["kind"], "tax_paid_receipt");
    assert_eq!(c["public_name"], "Pine Cabins");
    assert_eq!(c["issued_on"], "2026-05-01");
    assert!(
        c["withholding_duty"]
            .as_str()
            .unwrap()
            .contains("shall withhold sufficient of the purchase price")
    );
    let code = c["verification_code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 26);

    // Public: no sign-in, exactly the three fields.
    let res = app.get(&format!("/v1/clearance-certificates/{code}")).await;
    assert_eq!(res.status(), 200);
    let v: Value = res.json().await.unwrap();
    assert_eq!(
        v,
        json!({"valid": true, "public_name": "Pine Cabins", "issued_on": "2026-05-01"})
    );
    // Typed in lower case with a dash: the same certificate.
    let typed = format!("{}-{}", code[..13].to_lowercase(), &code[13..]);
    assert_eq!(
        app.get(&format!("/v1/clearance-certificates/{typed}"))
            .await
            .status(),
        200
    );
    // From another tenant's context (a Hayward clerk's token): the code alone locates it.
    let hayward = app.token(HAYWARD_CLERK).await;
    let res = app
        .get_as(&hayward, &format!("/v1/clearance-certificates/{code}"))
        .await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap(), v);
    // A wrong code: 404, nothing else.
    let mut wrong = code.clone();
    wrong.replace_range(0..1, if code.starts_with('A') { "B" } else { "A" });
    let res = app
        .get(&format!("/v1/clearance-certificates/{wrong}"))
        .await;
    assert_problem(res, 404, "not-found").await;
    assert_eq!(app.get("/v1/clearance-certificates/x").await.status(), 404);

    // A payor never charged: nothing due.
    let other = new_payor(&app, &clerk, "montello", "Quiet Acres LLC").await;
    let res = post(&app, &clerk, &certificates("montello", &other), json!({})).await;
    assert_eq!(res.status(), 201);
    assert_eq!(res.json::<Value>().await.unwrap()["kind"], "nothing_due");

    // The notice is stored with the certificate.
    let res = app
        .call(
            Method::GET,
            &format!("/v1/municipalities/montello/payors/{payor}/account"),
        )
        .bearer(&clerk)
        .send()
        .await;
    assert_eq!(res.status(), 200);
    journals_balance(&app);
}

/// Nothing owed on the ledger is not "no amount due" while a return is missing: a
/// payor whose cabins opened 2025-10-01 and never filed is refused, naming the
/// returns past their due date (2025-Q4 due 2026-01-31, the annual 2025 return due
/// 2026-01-31, 2026-Q1 due 2026-04-30).
#[actix_web::test]
async fn a_clearance_certificate_is_refused_while_a_return_is_missing() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "montello", "Silent Pines LLC").await;
    let res = post(
        &app,
        &clerk,
        &format!("/v1/municipalities/montello/payors/{payor}/establishments"),
        json!({"name": "Silent Pines", "address": "4 Birch Lane", "kind": "cabin", "units": 3, "opened_on": "2025-10-01"}),
    )
    .await;
    assert_eq!(res.status(), 201, "{}", res.text().await.unwrap());
    let res = post(&app, &clerk, &certificates("montello", &payor), json!({})).await;
    let body = assert_problem(res, 409, "conflict").await;
    assert_eq!(body["errors"][0]["rule"], "returns_missing");
    let detail = body["errors"][0]["message"].as_str().unwrap();
    assert!(detail.contains("2025-Q4, 2025, 2026-Q1"), "{detail}");

    // Filing the quarters (zero returns are returns) leaves the annual return.
    for (period, on) in [("2025-Q4", "2026-01-30"), ("2026-Q1", "2026-04-30")] {
        paper_return(&app, &clerk, "montello", &payor, period, "0.00", "0.00", on).await;
    }
    let res = post(&app, &clerk, &certificates("montello", &payor), json!({})).await;
    let body = assert_problem(res, 409, "conflict").await;
    let detail = body["errors"][0]["message"].as_str().unwrap();
    assert!(
        detail.starts_with("no return is on file for 2025 "),
        "{detail}"
    );
    journals_balance(&app);
}

#[actix_web::test]
async fn hayward_has_no_clearance_certificate() {
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(HAYWARD_CLERK).await;
    let payor = new_payor(&app, &clerk, "hayward", "Lake Hayward Inn LLC").await;
    let res = post(&app, &clerk, &certificates("hayward", &payor), json!({})).await;
    let body = assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["rule"], "clearance_not_provided");
    assert!(
        body["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("four preceding calendar quarters")
    );
}

/// Row-level security alone: the runtime role with no tenant set sees no
/// certificate, a wrong digest none, the code's digest exactly its one row.
#[actix_web::test]
async fn the_public_lookup_sees_only_the_certificate_whose_digest_it_sets() {
    use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl, sql_types::BigInt};
    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    if crate::helpers::skip_unless_postgres(
        &app.db,
        "ledger::clearance::the_public_lookup_sees_only",
    ) {
        return;
    }
    let clerk = app.token(CLERK).await;
    let mut codes = Vec::new();
    for name in ["Alder Court LLC", "Basswood Inn LLC"] {
        let payor = new_payor(&app, &clerk, "montello", name).await;
        let res = post(&app, &clerk, &certificates("montello", &payor), json!({})).await;
        assert_eq!(res.status(), 201);
        let c: Value = res.json().await.unwrap();
        codes.push(c["verification_code"].as_str().unwrap().to_owned());
    }
    let mut conn = PgConnection::establish(app.db.url()).unwrap();
    conn.transaction::<_, diesel::result::Error, _>(|conn| {
        let count = |conn: &mut PgConnection| {
            diesel::sql_query("SELECT count(*) AS n FROM clearance_certificates")
                .get_result::<Count>(conn)
                .unwrap()
                .n
        };
        let set = |conn: &mut PgConnection, v: &str| {
            diesel::sql_query(format!(
                "SELECT set_config('app.clearance_code_hash', '{v}', true)"
            ))
            .execute(conn)
            .unwrap();
        };
        assert_eq!(count(conn), 0);
        set(conn, &"0".repeat(64));
        assert_eq!(count(conn), 0);
        set(conn, &roomtax::auth::opaque::digest(&codes[0]));
        assert_eq!(count(conn), 1);
        Ok(())
    })
    .unwrap();
}

/// A certificate is never changed nor deleted, even by the owner (triggers on
/// both backends).
#[actix_web::test]
async fn a_certificate_is_never_changed() {
    use diesel::RunQueryDsl;
    let app = spawn_demo_app_at("2026-05-01T15:00:00Z").await;
    let clerk = app.token(CLERK).await;
    let payor = new_payor(&app, &clerk, "montello", "Cedar Row LLC").await;
    let res = post(&app, &clerk, &certificates("montello", &payor), json!({})).await;
    assert_eq!(res.status(), 201);
    let mut owner = app.owner_conn();
    for sql in [
        "UPDATE clearance_certificates SET public_name = 'x'",
        "DELETE FROM clearance_certificates",
    ] {
        assert!(
            diesel::sql_query(sql).execute(&mut owner).is_err(),
            "{sql} was allowed"
        );
    }
}

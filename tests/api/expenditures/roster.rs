//! The commission roster and its industry-half warning.

use serde_json::{Value, json};

use super::{COMMISSION, MONTELLO_CLERK, TOURISM, ZONE_ADMIN, app, get, post};
use crate::helpers::check::assert_problem;

const ROSTER: &str = "/v1/zones/marquette-county/commission-roster";

fn member(name: &str, industry: bool) -> Value {
    json!({"name": name, "affiliation": "Montello", "represents_lodging_and_tourism_industry": industry,
        "appointed_by": "montello", "term_start": "2026-01-01"})
}

#[actix_web::test]
async fn the_roster_warns_when_fewer_than_half_represent_the_industry() {
    let app = app().await;
    assert_eq!(
        post(&app, COMMISSION, ROSTER, member("A", true))
            .await
            .status(),
        403
    );
    let res = post(
        &app,
        ZONE_ADMIN,
        ROSTER,
        json!({"name": "B", "affiliation": "x",
        "represents_lodging_and_tourism_industry": true, "appointed_by": "hayward",
        "term_start": "2026-01-01", "term_end": "2025-01-01"}),
    )
    .await;
    let p = assert_problem(res, 422, "validation-failed", Some("appointed_by")).await;
    assert!(
        crate::helpers::check::rule_of(&p, "term_end").is_some(),
        "{p}"
    );
    let mut ids = Vec::new();
    for (name, industry) in [
        ("Ann Lake", true),
        ("Bo Inn", true),
        ("Cy Mayor", false),
        ("Di Clerk", false),
    ] {
        let res = post(&app, ZONE_ADMIN, ROSTER, member(name, industry)).await;
        assert_eq!(res.status(), 201);
        let m: Value = res.json().await.unwrap();
        assert_eq!(m["appointed_by"], "montello");
        assert_eq!(m["current"], true);
        ids.push(m["id"].as_str().unwrap().to_owned());
    }
    // 2 of 4: exactly half is enough.
    let r: Value = get(&app, COMMISSION, ROSTER).await.json().await.unwrap();
    assert_eq!(r["current_members"], 4);
    assert_eq!(r["current_industry_members"], 2);
    assert!(r["warning"].is_null(), "{r}");
    // An industry member leaves on 2026-11-30: 1 of 3 on 2026-12-01.
    let end = format!("{ROSTER}/{}/end", ids[1]);
    let res = post(&app, ZONE_ADMIN, &end, json!({"term_end": "2026-11-30"})).await;
    assert_eq!(res.status(), 200);
    let ended: Value = res.json().await.unwrap();
    assert_eq!(ended["term_end"], "2026-11-30");
    assert_eq!(ended["current"], false);
    let res = post(&app, ZONE_ADMIN, &end, json!({"term_end": "2026-11-30"})).await;
    assert_problem(res, 409, "conflict", Some("term_end")).await;
    for who in [COMMISSION, TOURISM, ZONE_ADMIN, MONTELLO_CLERK] {
        let r: Value = get(&app, who, ROSTER).await.json().await.unwrap();
        assert_eq!(r["current_members"], 3, "{who}");
        assert_eq!(r["members"].as_array().unwrap().len(), 4, "never deleted");
        let warning = r["warning"].as_str().expect("a warning");
        assert!(
            warning.contains("only 1 of the commission's 3"),
            "{warning}"
        );
        assert!(r["citation"].as_str().unwrap().contains("1/2"));
    }
    let before: Value = get(&app, COMMISSION, &format!("{ROSTER}?on=2026-11-30"))
        .await
        .json()
        .await
        .unwrap();
    assert!(before["warning"].is_null());
    assert_eq!(get(&app, "staff@montello.demo", ROSTER).await.status(), 403);
    assert_eq!(get(&app, "clerk@hayward.demo", ROSTER).await.status(), 404);
}

//! `/v1/zones/{zone}/grants`: zone admins manage the zone's roles.

use serde_json::{Value, json};

use super::{
    CLERK, COMMISSION, HAYWARD_CLERK, ZONE_ADMIN, assert_invalid, assert_refusals, delete, get_ok,
    post,
};
use crate::helpers::{assert_problem, spawn_demo_app};

const GRANTS: &str = "/v1/zones/marquette-county/grants";

#[actix_web::test]
async fn a_zone_admin_manages_zone_roles_and_only_zone_roles() {
    let app = spawn_demo_app().await;
    let admin = app.token(ZONE_ADMIN).await;
    let commission = app.token(COMMISSION).await;
    let hayward = app.token(HAYWARD_CLERK).await;
    let montello_clerk = app.token(CLERK).await;

    let body = json!({"email": "promoter@marquette-county.demo", "display_name": "Promoter",
                      "role": "tourism_entity", "password": "a fine initial password"});
    let (app_ref, body_ref) = (&app, &body);
    assert_refusals(
        |t| async move { post(app_ref, t.as_deref(), GRANTS, body_ref).await },
        &commission,
        &hayward,
    )
    .await;
    // A member municipality's clerk is related to the zone, but no admin of it.
    assert_problem(
        post(&app, Some(&montello_clerk), GRANTS, &body).await,
        403,
        "forbidden",
    )
    .await;
    assert_problem(app.get_as(&commission, GRANTS).await, 403, "forbidden").await;
    assert_problem(app.get_as(&hayward, GRANTS).await, 404, "not-found").await;
    assert_problem(app.get(GRANTS).await, 401, "unauthorized").await;
    assert_problem(
        app.get_as(&admin, "/v1/zones/nowhere/grants").await,
        404,
        "not-found",
    )
    .await;

    let res = post(&app, Some(&admin), GRANTS, &body).await;
    assert_eq!(res.status(), 201);
    let created: Value = res.json().await.unwrap();
    assert_eq!(created["role"], "tourism_entity");
    assert_eq!(created["user_created"], true);
    assert!(created.get("payor_id").is_none());
    let id = created["id"].as_str().unwrap().to_owned();

    // A zone admin never grants a municipal role (that would reach confidential data).
    let mut clerk_body = body.clone();
    clerk_body["role"] = json!("clerk_treasurer");
    assert_invalid(
        post(&app, Some(&admin), GRANTS, &clerk_body).await,
        "role",
        "municipality_role",
    )
    .await;
    let mut with_payor = body.clone();
    with_payor["payor_id"] = json!(roomtax::demo::MONTELLO_MOTEL_ID);
    assert_problem(
        post(&app, Some(&admin), GRANTS, &with_payor).await,
        400,
        "unknown-field",
    )
    .await;

    let list = get_ok(&app, &admin, GRANTS).await;
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 4, "three demo grants and the new one");
    assert_eq!(items[0]["id"], id.as_str());

    let path = format!("{GRANTS}/{id}");
    assert_problem(delete(&app, Some(&hayward), &path).await, 404, "not-found").await;
    assert_problem(
        delete(&app, Some(&commission), &path).await,
        403,
        "forbidden",
    )
    .await;
    assert_eq!(
        get_ok(&app, &admin, &format!("{GRANTS}?active=true")).await["items"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    assert_eq!(delete(&app, Some(&admin), &path).await.status(), 204);
    assert_eq!(
        get_ok(&app, &admin, &format!("{GRANTS}?active=true")).await["items"]
            .as_array()
            .unwrap()
            .len(),
        3
    );

    // The admin's own last zone_admin grant stays.
    let own = get_ok(&app, &admin, "/v1/me").await["grants"][0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_problem(
        delete(&app, Some(&admin), &format!("{GRANTS}/{own}")).await,
        409,
        "conflict",
    )
    .await;
}

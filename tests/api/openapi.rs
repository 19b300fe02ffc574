//! The OpenAPI document: committed file in sync with the code, served as
//! generated, every field described, and the docs page fully offline.

use serde_json::Value;

use crate::helpers::spawn_app;

#[test]
fn committed_openapi_json_matches_the_code() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi/openapi.json");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let generated = roomtax::api::openapi_json();
    assert!(
        committed == generated,
        "openapi/openapi.json is stale: regenerate it with \
         `cargo run -- openapi --output openapi/openapi.json`"
    );
}

#[test]
fn every_schema_property_and_parameter_has_a_description() {
    let spec: Value = serde_json::from_str(&roomtax::api::openapi_json()).unwrap();
    let mut missing = Vec::new();
    for (name, schema) in spec["components"]["schemas"].as_object().unwrap() {
        walk_properties(name, schema, &mut missing);
    }
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            assert!(
                op["summary"].is_string() || op["description"].is_string(),
                "{method} {path} undocumented"
            );
            for p in op["parameters"].as_array().into_iter().flatten() {
                if p["description"].as_str().is_none_or(str::is_empty) {
                    missing.push(format!("{method} {path} parameter {}", p["name"]));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "fields without a description: {missing:#?}"
    );
}

fn walk_properties(at: &str, schema: &Value, missing: &mut Vec<String>) {
    if let Some(props) = schema["properties"].as_object() {
        for (field, prop) in props {
            // utoipa describes an optional reference inside its `oneOf` item.
            let described = prop["description"].as_str().is_some_and(|d| !d.is_empty())
                || prop["oneOf"].as_array().is_some_and(|items| {
                    items
                        .iter()
                        .any(|i| i["description"].as_str().is_some_and(|d| !d.is_empty()))
                });
            if !described {
                missing.push(format!("{at}.{field}"));
            }
            walk_properties(&format!("{at}.{field}"), prop, missing);
        }
    }
    for key in ["allOf", "oneOf", "anyOf"] {
        for (i, sub) in schema[key].as_array().into_iter().flatten().enumerate() {
            walk_properties(&format!("{at}.{key}[{i}]"), sub, missing);
        }
    }
    if schema["items"].is_object() {
        walk_properties(&format!("{at}[]"), &schema["items"], missing);
    }
}

#[actix_web::test]
async fn the_served_document_is_the_generated_one() {
    let app = spawn_app().await;
    let res = app.get("/openapi.json").await;
    assert_eq!(res.status(), 200);
    let served: Value = res.json().await.unwrap();
    let generated: Value = serde_json::from_str(&roomtax::api::openapi_json()).unwrap();
    assert_eq!(served, generated);
    assert_eq!(served["openapi"], "3.1.0");
    assert!(
        served["info"]["license"]["name"]
            .as_str()
            .is_some_and(|l| !l.is_empty())
    );
}

#[actix_web::test]
async fn docs_are_served_without_any_external_asset() {
    let app = spawn_app().await;
    let res = app.get("/docs").await;
    assert_eq!(res.status(), 308);
    assert_eq!(res.headers()["location"], "/docs/");

    let res = app.get("/docs/").await;
    assert_eq!(res.status(), 200);
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = res.text().await.unwrap();
    let mut assets = Vec::new();
    for attr in ["src=\"", "href=\""] {
        for part in html.split(attr).skip(1) {
            let target = part.split('"').next().unwrap();
            assert!(
                !target.starts_with("http://")
                    && !target.starts_with("https://")
                    && !target.starts_with("//"),
                "/docs/ loads an external asset: {target}"
            );
            assets.push(target.trim_start_matches("./").to_owned());
        }
    }
    assert!(
        assets.iter().any(|a| a.ends_with(".js")),
        "no script found in {html}"
    );
    for asset in &assets {
        let res = app.get(&format!("/docs/{asset}")).await;
        assert_eq!(res.status(), 200, "asset {asset}");
        let body = res.text().await.unwrap();
        if asset.ends_with("swagger-initializer.js") {
            assert!(
                body.contains("/openapi.json"),
                "the UI must load our spec: {body}"
            );
        }
    }
    // The initializer is always fetched by the page.
    let init = app.get("/docs/swagger-initializer.js").await;
    assert_eq!(init.status(), 200);
    let init = init.text().await.unwrap();
    assert!(
        !init.contains("https://"),
        "initializer loads from the network: {init}"
    );
    assert!(
        init.contains(r#""validatorUrl": "none""#),
        "the page must not call swagger.io's online validator: {init}"
    );
}

#[test]
fn operation_ids_are_unique_for_client_generators() {
    let spec: Value = serde_json::from_str(&roomtax::api::openapi_json()).unwrap();
    let mut seen = std::collections::HashSet::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path} has no operationId"));
            assert!(seen.insert(id.to_owned()), "operationId {id} is used twice");
        }
    }
}

#[test]
fn every_reference_resolves() {
    let spec: Value = serde_json::from_str(&roomtax::api::openapi_json()).unwrap();
    let mut refs = Vec::new();
    collect_refs(&spec, &mut refs);
    assert!(!refs.is_empty());
    let dangling: Vec<&String> = refs
        .iter()
        .filter(|r| {
            let name = r.trim_start_matches("#/components/schemas/");
            spec["components"]["schemas"].get(name).is_none()
        })
        .collect();
    assert!(
        dangling.is_empty(),
        "references to undefined schemas: {dangling:?}"
    );
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                out.push(r.clone());
            }
            map.values().for_each(|x| collect_refs(x, out));
        }
        Value::Array(items) => items.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}

#[test]
fn documented_responses_cover_what_the_framework_answers() {
    // Every JSON body can be malformed (400), too large (413), of the wrong type (415)
    // or break a rule (422); every protected operation can be unauthenticated (401).
    let spec: Value = serde_json::from_str(&roomtax::api::openapi_json()).unwrap();
    let mut missing = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            let json_body = op["requestBody"]["content"]
                .get("application/json")
                .is_some();
            let mut needed: Vec<&str> = Vec::new();
            if json_body {
                needed.extend(["400", "413", "415", "422"]);
            }
            if !op["security"].is_null() {
                needed.push("401");
            }
            for status in needed {
                if !responses.contains_key(status) {
                    missing.push(format!("{method} {path}: {status}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "undocumented responses: {missing:#?}");
}

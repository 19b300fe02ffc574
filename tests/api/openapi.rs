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

/// Every operation has a summary and a description (spectral's
/// `operation-description`), and a protected one says who may call it: the
/// generic 403 the framework adds points at the description for the roles.
#[test]
fn every_operation_has_a_description_naming_who_may_call_it() {
    let spec: Value = serde_json::from_str(&roomtax::api::openapi_json()).unwrap();
    let mut wrong = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let text = |k: &str| op[k].as_str().unwrap_or("").trim().to_owned();
            let (summary, description) = (text("summary"), text("description"));
            if summary.is_empty() || description.is_empty() || summary == description {
                wrong.push(format!("{method} {path}: summary and description"));
            }
            let public = op["security"].as_array().is_some_and(Vec::is_empty);
            let says_who = ["Public", "Only ", "Any ", "Clerk-treasurer", "Whoever"]
                .iter()
                .any(|w| description.starts_with(w));
            if !says_who {
                wrong.push(format!(
                    "{method} {path}: does not start by saying who may call it"
                ));
            }
            if public != description.starts_with("Public") {
                wrong.push(format!("{method} {path}: `Public` iff `security: []`"));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// A parameter is listed once per operation, with its description (path
/// parameters documented by `api::params` are not repeated by utoipa's
/// actix-web integration).
#[test]
fn no_parameter_is_listed_twice() {
    let spec: Value = serde_json::from_str(&roomtax::api::openapi_json()).unwrap();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let mut seen = Vec::new();
            for p in op["parameters"].as_array().into_iter().flatten() {
                let key = (p["name"].clone(), p["in"].clone());
                assert!(!seen.contains(&key), "{method} {path}: {key:?} twice");
                seen.push(key);
            }
            for name in path.split('{').skip(1).filter_map(|s| s.split('}').next()) {
                assert!(
                    seen.iter().any(|(n, i)| n == name && i == "path"),
                    "{method} {path}: `{name}` undocumented"
                );
            }
        }
    }
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

/// The framework's answers, provoked for real on each operation that can give
/// them: each status received must be documented for that operation (the
/// hostile-input sweep in `hostile.rs` does the same for 422, over every caller).
#[actix_web::test]
async fn the_statuses_the_framework_gives_are_documented_where_they_occur() {
    let app = crate::helpers::spawn_demo_app().await;
    let spec: Value = app.get("/openapi.json").await.json().await.unwrap();
    let mut wrong = Vec::new();
    for (template, item) in spec["paths"].as_object().unwrap() {
        let path = template
            .replace("{municipality}", "montello")
            .replace("{zone}", "marquette-county")
            .replace(['{', '}'], "");
        for (method, op) in item.as_object().unwrap() {
            let m = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
            let json_body = op["requestBody"]["content"]
                .get("application/json")
                .is_some();
            let mut probes: Vec<(&str, reqwest::RequestBuilder)> = Vec::new();
            if json_body {
                let req = || app.client.request(m.clone(), app.url(&path));
                probes.push((
                    "malformed JSON",
                    req().header("content-type", "application/json").body("{"),
                ));
                probes.push((
                    "text/plain body",
                    req().header("content-type", "text/plain").body("{}"),
                ));
                probes.push((
                    "oversized body",
                    req()
                        .header("content-type", "application/json")
                        .body(vec![b' '; 300 * 1024]),
                ));
            }
            probes.push((
                "a control character in the query",
                app.client
                    .request(m.clone(), app.url(&format!("{path}?x=%00"))),
            ));
            for (what, req) in probes {
                let res = req.send().await.unwrap();
                let status = res.status().as_u16().to_string();
                if op["responses"].get(&status).is_none() {
                    wrong.push(format!(
                        "{method} {template} with {what}: {status} undocumented"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Limits the document states are the limits the server applies: values at the
/// documented bounds pass, values just past them are refused.
#[actix_web::test]
async fn documented_limits_are_the_enforced_ones() {
    let app = crate::helpers::spawn_demo_app().await;
    let spec: Value = app.get("/openapi.json").await.json().await.unwrap();
    // The calendar's year range.
    let year = spec["paths"]["/v1/municipalities/{municipality}/calendar"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "year")
        .unwrap()["schema"]
        .clone();
    let (min, max) = (
        year["minimum"].as_i64().unwrap(),
        year["maximum"].as_i64().unwrap(),
    );
    for (y, ok) in [(min, true), (max, true), (min - 1, false), (max + 1, false)] {
        let res = app
            .get(&format!("/v1/municipalities/montello/calendar?year={y}"))
            .await;
        assert_eq!(res.status().is_success(), ok, "year {y}: {}", res.status());
    }
    // The period pattern of a quote, checked against the server's own parser.
    let pattern = spec["components"]["schemas"]["QuoteRequest"]["properties"]["period"]["pattern"]
        .as_str()
        .expect("the period has a pattern");
    let re = regex::Regex::new(pattern).unwrap();
    for period in [
        "2026-Q1",
        "2026",
        "FY2026-06",
        "2026-Q5",
        "2026-q1",
        "FY2026-12",
        "26-Q1",
        "2026-Q1 ",
    ] {
        let res = app
            .post_json(
                "/v1/municipalities/montello/quotes",
                &serde_json::json!({"period": period, "gross_receipts": "10.00"}),
            )
            .await;
        assert_eq!(
            res.status() == 200,
            re.is_match(period),
            "{period}: {}",
            res.status()
        );
    }
    // ISO dates on every date field; slug pattern on every slug parameter; If-Match required.
    fn dates_without_pattern(v: &Value, seen: &mut usize) -> usize {
        match v {
            Value::Object(m) => {
                let own = if m.get("format").is_some_and(|f| f == "date") {
                    *seen += 1;
                    usize::from(
                        m.get("pattern").and_then(Value::as_str)
                            != Some(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"),
                    )
                } else {
                    0
                };
                own + m
                    .values()
                    .map(|x| dates_without_pattern(x, seen))
                    .sum::<usize>()
            }
            Value::Array(a) => a.iter().map(|x| dates_without_pattern(x, seen)).sum(),
            _ => 0,
        }
    }
    let mut dates = 0;
    assert_eq!(
        dates_without_pattern(&spec, &mut dates),
        0,
        "a date without the ISO 8601 pattern"
    );
    assert!(dates >= 5, "only {dates} date fields");
    let zone = &spec["paths"]["/v1/zones/{zone}"]["get"]["parameters"][0]["schema"];
    let slug = regex::Regex::new(zone["pattern"].as_str().unwrap()).unwrap();
    assert!(
        slug.is_match("marquette-county") && !slug.is_match("Marquette") && !slug.is_match("a--b")
    );
    assert_eq!(zone["maxLength"], 63);
    let patch = &spec["paths"]["/v1/municipalities/{municipality}/payors/{payor}"]["patch"];
    let if_match = patch["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "If-Match")
        .unwrap();
    assert_eq!(if_match["in"], "header");
    assert_eq!(if_match["required"], true);
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            assert!(
                op["security"].is_array(),
                "{method} {path} states no security"
            );
        }
    }
    assert_eq!(spec["servers"][0]["url"], "/");
}

//! The answers the framework gives on every operation, documented in one place.
//!
//! Contract: [`FrameworkAnswers`] is the one `utoipa::Modify` that adds to each
//! operation the problem+json responses its handler does not write itself but
//! the service gives anyway, derived from what the operation declares:
//! - every operation: 422 (the control-character rule of
//!   [`super::input_guard`] applies to every path and query string);
//! - a query parameter: 400 (`invalid-parameter`: wrong type, unknown name);
//! - a path parameter: 404 (no such resource, or one the caller may not know),
//!   naming the path parameters;
//! - a JSON body: 400 (malformed, unknown or wrong-typed field), 413 (over
//!   [`super::extract::JSON_LIMIT`]), 415 (not `application/json`);
//!   a form body: 400 and 415;
//! - an `If-Match` header parameter: 412 (stale version) and 428 (missing),
//!   the answers of `payors::precondition`;
//! - a protected operation (non-empty `security`): 401 and 403 (the roles that
//!   may call it are in the operation's `description`, written once there).
//!
//! Each parameter is listed once (see [`dedupe_parameters`]).
//! It also states limits the service enforces everywhere they apply: the slug
//! pattern and length on every `municipality` / `zone` path parameter, and the
//! ISO 8601 pattern of [`crate::domain::iso_date`] on every `format: date`
//! string. A response the handler already documents is kept as it is. Public
//! operations get an explicit `security: []`, and the document a `servers`
//! entry (relative: the service that serves the document). Whether the
//! statuses added here are really given is checked from outside by the
//! hostile-input sweep (`tests/api/hostile.rs`) and schemathesis in CI.

use serde_json::{Value, json};

/// Adds the framework answers, `security: []` and `servers` (see the module docs).
pub struct FrameworkAnswers;

impl utoipa::Modify for FrameworkAnswers {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let mut doc = serde_json::to_value(&*openapi).expect("the OpenAPI document serialises");
        complete(&mut doc);
        *openapi = serde_json::from_value(doc).expect("still an OpenAPI document");
    }
}

use crate::domain::tenant::{SLUG_MAX_LEN, SLUG_PATTERN};

fn problem(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
    })
}

/// Edit the document as JSON (utoipa's builders cannot edit operations in place).
pub fn complete(doc: &mut Value) {
    doc["servers"] = json!([{
        "url": "/",
        "description": "The roomtax instance serving this document"
    }]);
    state_limits(doc);
    let Some(paths) = doc["paths"].as_object_mut() else {
        return;
    };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for op in item.values_mut() {
            complete_operation(op);
        }
    }
}

/// Slug parameters and ISO 8601 dates, wherever they occur in the document.
fn state_limits(v: &mut Value) {
    match v {
        Value::Object(map) => {
            let slug_param = map.get("in").is_some_and(|i| i == "path")
                && map
                    .get("name")
                    .is_some_and(|n| n == "municipality" || n == "zone");
            if slug_param && let Some(schema) = map.get_mut("schema") {
                schema["pattern"] = json!(SLUG_PATTERN);
                schema["maxLength"] = json!(SLUG_MAX_LEN);
            }
            let is_date = map.get("format").is_some_and(|f| f == "date");
            if is_date && !map.contains_key("pattern") {
                map.insert("pattern".into(), json!(crate::domain::iso_date::PATTERN));
            }
            map.values_mut().for_each(state_limits);
        }
        Value::Array(items) => items.iter_mut().for_each(state_limits),
        _ => {}
    }
}

fn complete_operation(op: &mut Value) {
    dedupe_parameters(op);
    let content = &op["requestBody"]["content"];
    let json_body = content.get("application/json").is_some();
    let form_body = content.get("application/x-www-form-urlencoded").is_some();
    let params = op["parameters"].as_array().cloned().unwrap_or_default();
    let has = |place: &str| params.iter().any(|p| p["in"] == place);
    let (query, path) = (has("query"), has("path"));
    let if_match = params
        .iter()
        .any(|p| p["in"] == "header" && p["name"] == "If-Match");
    let secured = op["security"].as_array().is_some_and(|s| !s.is_empty());
    if !secured {
        op["security"] = json!([]);
    }
    let Some(responses) = op["responses"].as_object_mut() else {
        return;
    };
    let mut add = |status: &str, description: &str| {
        responses
            .entry(status)
            .or_insert_with(|| problem(description));
    };
    add(
        "422",
        "A value breaks a rule (e.g. `no_control_characters` in a path, query or body value); `errors` names the field and the rule",
    );
    if query {
        add(
            "400",
            "A query parameter is unknown, repeated or of the wrong type; `errors` names it",
        );
    }
    if path {
        add("404", &not_found(&params));
    }
    if json_body {
        add(
            "400",
            "Malformed JSON, an unknown field or a field of the wrong type",
        );
        add("413", "Body over 256 KiB");
        add("415", "Body not sent as application/json");
    }
    if form_body {
        add("400", "The form body cannot be read");
        add("415", "Body neither form-encoded nor JSON");
    }
    if if_match {
        add(
            "412",
            "`If-Match` names another version (RFC 9110 § 13.1.1): read the resource again",
        );
        add("428", "`If-Match` is missing (RFC 6585 § 3)");
    }
    if secured {
        add("401", "No valid access token");
        add(
            "403",
            "The caller may know the resource but may not do this (the operation's description says who may)",
        );
    }
}

/// One entry per (`name`, `in`): utoipa's actix-web integration adds again, with
/// no description, the path arguments a handler reads with `web::Path` when
/// they are documented by an `IntoParams` struct ([`super::params`]); the first,
/// described entry is kept.
fn dedupe_parameters(op: &mut Value) {
    let Some(params) = op["parameters"].as_array_mut() else {
        return;
    };
    let mut seen = Vec::new();
    params.retain(|p| {
        let key = (p["name"].clone(), p["in"].clone());
        let first = !seen.contains(&key);
        seen.push(key);
        first
    });
}

/// The 404 of an operation with path parameters, naming them: deny by default
/// (DESIGN.md § 1) answers 404, not 403, to a caller who may not know it exists.
fn not_found(params: &[Value]) -> String {
    let names: Vec<String> = params
        .iter()
        .filter(|p| p["in"] == "path")
        .filter_map(|p| p["name"].as_str())
        .map(|n| format!("`{n}`"))
        .collect();
    format!(
        "No resource for {}, or one the caller may not know exists (answered instead of 403 to a caller with no relation to it)",
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_follow_what_the_operation_declares() {
        let mut doc = json!({"paths": {
            "/a/{id}": {"get": {"parameters": [{"in": "path", "name": "id", "description": "d"},
                                                {"in": "path", "name": "id"}],
                                 "responses": {"200": {"description": "ok"}}}},
            "/b": {"post": {"security": [{"bearer": []}],
                            "parameters": [{"in": "header", "name": "If-Match"}],
                            "requestBody": {"content": {"application/json": {}}},
                            "responses": {"400": {"description": "mine"}}}}
        }});
        complete(&mut doc);
        let get = &doc["paths"]["/a/{id}"]["get"];
        let keys = |op: &Value| {
            let mut k: Vec<String> = op["responses"]
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect();
            k.sort();
            k
        };
        assert_eq!(keys(get), ["200", "404", "422"]);
        assert_eq!(get["security"], json!([]));
        assert_eq!(
            get["parameters"],
            json!([{"in": "path", "name": "id", "description": "d"}])
        );
        assert!(
            get["responses"]["404"]["description"]
                .as_str()
                .unwrap()
                .contains("`id`")
        );
        let post = &doc["paths"]["/b"]["post"];
        assert_eq!(
            keys(post),
            ["400", "401", "403", "412", "413", "415", "422", "428"]
        );
        assert_eq!(post["responses"]["400"]["description"], "mine");
        assert_eq!(post["security"], json!([{"bearer": []}]));
        assert_eq!(doc["servers"][0]["url"], "/");
    }
}

//! Hostile input from outside, on whichever backend the suite runs on
//! (PostgreSQL when `ROOMTAX_TEST_DATABASE_URL` is set).
//!
//! The sweep reads the running app's own `/openapi.json` and, for every
//! operation, anonymously, as a clerk-treasurer and as an operator, sends
//! control characters in each path parameter, each query parameter and each
//! string field (and a key) of the request body. Every answer must be a
//! documented status of that operation, never a 5xx, with a problem+json body;
//! path and query values must be refused by the `no_control_characters` rule
//! naming the parameter (that rule runs before any sign-in check).

use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app, spawn_demo_app};

/// NUL, SOH, US, LF, DEL and NEL (a C1 control): the edges of both ranges.
const CONTROLS: [char; 6] = ['\u{0}', '\u{1}', '\u{1f}', '\n', '\u{7f}', '\u{85}'];

fn pct(c: char) -> String {
    let mut buf = [0u8; 4];
    c.encode_utf8(&mut buf)
        .bytes()
        .map(|b| format!("%{b:02X}"))
        .collect()
}

/// A plausible value for a path parameter, so the other segments are valid.
fn sample_path_value(name: &str) -> &'static str {
    match name {
        "municipality" => "montello",
        "zone" => "marquette-county",
        "code" => "not-found",
        _ => "x1",
    }
}

fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(r) => {
            let name = r.trim_start_matches("#/components/schemas/");
            resolve(doc, &doc["components"]["schemas"][name])
        }
        None => schema,
    }
}

/// Every string-typed place of a request schema, as a body holding only it.
fn string_bodies(doc: &Value, schema: &Value, depth: usize, out: &mut Vec<(String, Value)>) {
    fn wrap(path: &[String], leaf: Value) -> Value {
        path.iter().rev().fold(leaf, |inner, key| {
            if key == "[]" {
                json!([inner])
            } else {
                json!({ key.clone(): inner })
            }
        })
    }
    fn go(
        doc: &Value,
        s: &Value,
        path: &mut Vec<String>,
        depth: usize,
        out: &mut Vec<(String, Value)>,
    ) {
        let s = resolve(doc, s);
        if depth > 6 {
            return;
        }
        for alt in ["oneOf", "anyOf", "allOf"] {
            if let Some(items) = s[alt].as_array() {
                for item in items {
                    go(doc, item, path, depth + 1, out);
                }
            }
        }
        let types: Vec<&str> = match &s["type"] {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        if types.contains(&"string") || (s.get("enum").is_some() && types.is_empty()) {
            let shown = path.join(".").replace(".[]", "[0]");
            out.push((shown, wrap(path, Value::Null)));
        }
        if let Some(props) = s["properties"].as_object() {
            for (key, prop) in props {
                path.push(key.clone());
                go(doc, prop, path, depth + 1, out);
                path.pop();
            }
        }
        if s.get("items").is_some() {
            path.push("[]".into());
            go(doc, &s["items"], path, depth + 1, out);
            path.pop();
        }
    }
    go(doc, schema, &mut Vec::new(), depth, out);
}

/// Replace the `null` leaf of a one-field body with `text`.
fn fill(body: &Value, text: &str) -> Value {
    match body {
        Value::Null => Value::String(text.to_owned()),
        Value::Object(m) => {
            Value::Object(m.iter().map(|(k, v)| (k.clone(), fill(v, text))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(|v| fill(v, text)).collect()),
        other => other.clone(),
    }
}

struct Outcome {
    requests: usize,
    refused_by_rule: usize,
    failures: Vec<String>,
}

async fn send(
    app: &TestApp,
    token: Option<&str>,
    method: &str,
    path: &str,
    body: Option<(&str, Vec<u8>)>,
) -> (u16, String, Value) {
    let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
    let mut req = app
        .client
        .request(method, app.url(path))
        .header("if-match", "\"1\"");
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some((ctype, bytes)) = body {
        req = req.header("content-type", ctype).body(bytes);
    }
    let res = req.send().await.expect("request sent");
    let status = res.status().as_u16();
    let ctype = res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let body = res.json().await.unwrap_or(Value::Null);
    (status, ctype, body)
}

fn judge(
    out: &mut Outcome,
    op: &Value,
    what: &str,
    (status, ctype, body): (u16, String, Value),
    expect_field: Option<&str>,
) {
    out.requests += 1;
    let documented = op["responses"].get(status.to_string()).is_some();
    let problem = ctype.starts_with("application/problem+json") && body["status"] == status;
    let rule = body["errors"][0]["rule"].as_str() == Some("no_control_characters");
    if rule {
        out.refused_by_rule += 1;
    }
    let mut wrong = Vec::new();
    if status >= 500 {
        wrong.push("a server error".to_owned());
    }
    if !documented {
        wrong.push("an undocumented status".to_owned());
    }
    if !problem {
        wrong.push(format!("not a problem+json body ({ctype})"));
    }
    if let Some(field) = expect_field
        && !(status == 422 && rule && body["errors"][0]["field"] == field)
    {
        wrong.push(format!(
            "not refused naming `{field}` by no_control_characters"
        ));
    }
    if status == 422
        && rule
        && expect_field.is_none()
        && body["errors"][0]["field"].as_str().is_none()
    {
        wrong.push("the refusal names no field".to_owned());
    }
    if !wrong.is_empty() {
        out.failures
            .push(format!("{what}: {status} is {} ({body})", wrong.join(", ")));
    }
}

async fn sweep(app: &TestApp, token: Option<&str>, doc: &Value, out: &mut Outcome) {
    for (template, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let params = op["parameters"].as_array().cloned().unwrap_or_default();
            let base = |hostile: Option<(&str, &str)>| {
                let mut path = template.clone();
                for p in params.iter().filter(|p| p["in"] == "path") {
                    let name = p["name"].as_str().unwrap();
                    let value = match hostile {
                        Some((n, v)) if n == name => v.to_owned(),
                        _ => sample_path_value(name).to_owned(),
                    };
                    path = path.replace(&format!("{{{name}}}"), &value);
                }
                path
            };
            for p in &params {
                let name = p["name"].as_str().unwrap();
                for c in CONTROLS {
                    let hostile = format!("a{}b", pct(c));
                    let (path, label) = match p["in"].as_str() {
                        Some("path") => (base(Some((name, &hostile))), "path"),
                        Some("query") => (format!("{}?{name}={hostile}", base(None)), "query"),
                        _ => continue,
                    };
                    let what = format!("{} {path} ({label} {name})", method.to_uppercase());
                    let answer = send(app, token, method, &path, None).await;
                    judge(out, op, &what, answer, Some(name));
                }
            }
            let content = &op["requestBody"]["content"];
            if let Some(schema) = content["application/json"].get("schema") {
                let mut bodies = Vec::new();
                string_bodies(doc, schema, 0, &mut bodies);
                bodies.push(("key".into(), json!({"bad\u{0}key": "x"})));
                for (field, body) in bodies {
                    for c in ['\u{0}', '\u{85}'] {
                        let bytes = serde_json::to_vec(&fill(&body, &format!("a{c}b"))).unwrap();
                        let what = format!("{} {template} (body {field:?})", method.to_uppercase());
                        let answer = send(
                            app,
                            token,
                            method,
                            &base(None),
                            Some(("application/json", bytes)),
                        )
                        .await;
                        judge(out, op, &what, answer, None);
                    }
                }
            }
            if let Some(schema) = content["application/x-www-form-urlencoded"].get("schema") {
                let schema = resolve(doc, schema);
                for name in schema["properties"].as_object().unwrap().keys() {
                    let form = format!("grant_type=client_credentials&{name}=a%00b");
                    let what = format!("{} {template} (form {name})", method.to_uppercase());
                    let answer = send(
                        app,
                        token,
                        method,
                        &base(None),
                        Some(("application/x-www-form-urlencoded", form.into_bytes())),
                    )
                    .await;
                    judge(out, op, &what, answer, Some(name));
                }
            }
        }
    }
}

#[actix_web::test]
async fn control_characters_anywhere_are_refused_by_every_operation_for_every_caller() {
    let app = spawn_demo_app().await;
    let doc: Value = app.get("/openapi.json").await.json().await.unwrap();
    let clerk = app.token("clerk@montello.demo").await;
    let operator = app.token("operator@montello.demo").await;
    let mut out = Outcome {
        requests: 0,
        refused_by_rule: 0,
        failures: Vec::new(),
    };
    for token in [None, Some(clerk.as_str()), Some(operator.as_str())] {
        sweep(&app, token, &doc, &mut out).await;
    }
    assert!(
        out.failures.is_empty(),
        "{} of {} hostile requests answered wrongly on {}:\n{}",
        out.failures.len(),
        out.requests,
        app.db.backend(),
        out.failures.join("\n")
    );
    // The sweep really reached the rule: most requests were refused by it.
    assert!(out.requests > 1000, "only {} requests sent", out.requests);
    assert!(
        out.refused_by_rule * 2 > out.requests,
        "{} of {} refused by the rule",
        out.refused_by_rule,
        out.requests
    );
}

#[actix_web::test]
async fn nothing_with_a_nul_reaches_the_database() {
    // The inputs that answered 500 on PostgreSQL before the rule: sign-in e-mail,
    // zone slug in the path, OAuth client_id in a form body and in Basic credentials.
    let app = spawn_app().await;
    let res = app
        .post_json(
            "/v1/auth/token",
            &json!({"email": "a\u{0}@b.c", "password": "x"}),
        )
        .await;
    let body = crate::helpers::assert_problem(res, 422, "validation-failed").await;
    assert_eq!(
        body["errors"][0],
        json!({"field": "email", "rule": "no_control_characters",
        "message": body["errors"][0]["message"]})
    );
    let res = app.get("/v1/zones/%00").await;
    let body = crate::helpers::assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["field"], "zone");
    let res = app
        .client
        .post(app.url("/v1/oauth/token"))
        .basic_auth("id\u{0}", Some("secret"))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .unwrap();
    let body = crate::helpers::assert_problem(res, 422, "validation-failed").await;
    assert_eq!(body["errors"][0]["field"], "client_id");
}

#[actix_web::test]
async fn request_dates_are_iso_8601_only() {
    let app = spawn_app().await;
    app.load_demo().await;
    let quote = |filed_on: &str| json!({"period": "2026-Q1", "gross_receipts": "1000.00", "filed_on": filed_on});
    for bad in [
        "2026-4-30",
        "2026-04-30T00:00",
        "+2026-04-30",
        " 2026-04-30",
        "2026-02-30",
    ] {
        let res = app
            .post_json("/v1/municipalities/montello/quotes", &quote(bad))
            .await;
        let body = crate::helpers::assert_problem(res, 400, "invalid-field-type").await;
        assert_eq!(body["errors"][0]["field"], "filed_on", "{bad}: {body}");
    }
    let res = app
        .post_json("/v1/municipalities/montello/quotes", &quote("2026-04-30"))
        .await;
    assert_eq!(res.status(), 200);
}

/// `roomtax serve` as a real process; returns its exit code and standard error.
fn serve_refused(dir: &std::path::Path, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_roomtax"));
    cmd.arg("serve")
        .current_dir(dir)
        .env("DATABASE_URL", "sqlite://data/refused.db")
        .env("ROOMTAX_PORT", "0")
        .env_remove("ROOMTAX_DATABASE_URL")
        .env_remove("ROOMTAX_MIGRATION_DATABASE_URL")
        .env_remove("ROOMTAX_CONFIG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("roomtax runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_taken_port_or_bad_settings_exit_1_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (code, err) = serve_refused(dir.path(), &[("ROOMTAX_PORT", &port)]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("cannot listen on 127.0.0.1:"), "{err}");
    let (code, err) = serve_refused(dir.path(), &[("ROOMTAX_PORT", "eighty")]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("roomtax: "), "{err}");
    let (code, err) = serve_refused(dir.path(), &[("DATABASE_URL", "mysql://nope")]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("unsupported database URL scheme"), "{err}");
}

/// A role that may bypass row-level security is refused, every time with exit 1:
/// before the fix about one start in ten died with SIGSEGV (exit 139) because the
/// pool's threads were still connecting while the process exited.
#[test]
fn a_role_that_can_bypass_rls_is_refused_cleanly_every_time() {
    let db = crate::helpers::TestDb::create();
    let Some(owner) = db.owner_url() else {
        crate::helpers::skip(
            "hostile::a_role_that_can_bypass_rls_is_refused_cleanly_every_time",
            "needs PostgreSQL (row-level security, roles)",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for attempt in 0..8 {
        let (code, err) = serve_refused(dir.path(), &[("DATABASE_URL", owner)]);
        assert_eq!(code, Some(1), "attempt {attempt}: {err}");
        assert!(err.contains("refusing to serve"), "{err}");
    }
}

/// Send `request` on a raw connection (after `before`, a request that parses,
/// on the same kept-alive connection) and read what comes back until the
/// server closes: (status, content type, JSON body) of the last response.
async fn raw(app: &TestApp, before: Option<String>, request: Vec<u8>) -> (u16, String, Value) {
    let addr = app.address.trim_start_matches("http://").to_owned();
    tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(std::time::Duration::from_secs(20)))
            .unwrap();
        if let Some(first) = before {
            s.write_all(first.as_bytes()).unwrap();
            let mut got = Vec::new();
            let mut buf = [0u8; 4096];
            // One whole answer: its head, then content-length bytes.
            loop {
                let n = s.read(&mut buf).unwrap();
                assert!(n > 0, "closed after the first request");
                got.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&got).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let len: usize = text[..end]
                        .lines()
                        .find_map(|l| {
                            l.to_ascii_lowercase()
                                .strip_prefix("content-length: ")
                                .map(|v| v.trim().parse().unwrap())
                        })
                        .unwrap_or(0);
                    if got.len() >= end + 4 + len {
                        assert!(text.starts_with("HTTP/1.1 200"), "{text}");
                        break;
                    }
                }
            }
        }
        s.write_all(&request).unwrap();
        let mut got = Vec::new();
        let _ = s.read_to_end(&mut got);
        let text = String::from_utf8_lossy(&got).to_string();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        let status = head.split(' ').nth(1).unwrap_or("0").parse().unwrap_or(0);
        let content_type = head
            .lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .strip_prefix("content-type: ")
                    .map(str::to_owned)
            })
            .unwrap_or_default();
        let json = serde_json::from_str(body).unwrap_or(Value::Null);
        (status, content_type, json)
    })
    .await
    .unwrap()
}

/// A control byte in a header is refused below actix's parser, which would
/// answer a bare 400: problem+json naming the header and the rule, for every
/// caller (the head is judged before anyone is signed in), on a fresh and on
/// a kept-alive connection, whichever header carries it.
#[actix_web::test]
async fn a_control_byte_in_a_header_is_a_problem_naming_the_header() {
    let app = spawn_demo_app().await;
    let clerk = app.token("clerk@montello.demo").await;
    let path = "/v1/municipalities/montello/payors/5b0c8c1e-0000-4000-8000-000000000001/payments";
    for auth in [String::new(), format!("Authorization: Bearer {clerk}\r\n")] {
        for (header, value) in [
            ("Idempotency-Key", b"key\x01one".to_vec()),
            ("Idempotency-Key", b"key\x7f".to_vec()),
            ("Idempotency-Key", b"a\x00".to_vec()),
            ("Accept", b"application/json\x1f".to_vec()),
            ("If-Match", b"\"v1\"\x0b".to_vec()),
        ] {
            let mut request = format!(
                "POST {path} HTTP/1.1\r\nHost: x\r\n{auth}Content-Type: application/json\r\nContent-Length: 2\r\n{header}: "
            )
            .into_bytes();
            request.extend_from_slice(&value);
            request.extend_from_slice(b"\r\n\r\n{}");
            for before in [
                None,
                Some("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".to_owned()),
            ] {
                let kept = before.is_some();
                let (status, content_type, body) = raw(&app, before, request.clone()).await;
                let case = format!(
                    "{header} {value:?} signed in {} kept-alive {kept}",
                    !auth.is_empty()
                );
                assert_eq!(status, 400, "{case}: {body}");
                assert_eq!(content_type, "application/problem+json", "{case}");
                assert_eq!(body["code"], "invalid-parameter", "{case}: {body}");
                assert_eq!(
                    body["errors"][0]["field"],
                    header.to_ascii_lowercase(),
                    "{case}: {body}"
                );
                assert_eq!(
                    body["errors"][0]["rule"], "no_control_characters",
                    "{case}: {body}"
                );
            }
        }
    }
    // The Authorization header itself.
    let mut request =
        b"GET /v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ab\x02c\r\n\r\n".to_vec();
    let (status, _, body) = raw(&app, None, std::mem::take(&mut request)).await;
    assert_eq!(
        (status, &body["errors"][0]["field"]),
        (400, &json!("authorization")),
        "{body}"
    );
    // A head that parses is untouched: the same connection answers normally.
    let (status, _, _) = raw(
        &app,
        Some("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".to_owned()),
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec(),
    )
    .await;
    assert_eq!(status, 200);
}

//! Attachments of returns, from the user's side: Hayward's required copy of
//! the state sales-tax return, uploads judged by their content, downloads
//! byte for byte, the access log, and who may see what.
//!
//! Hand computation (Hayward, 4 %, quarterly due the last business day of the
//! month after the quarter): 2026-Q1, gross 10,000.00, no exemptions: tax
//! 10,000.00 × 0.04 = 400.00; due Thursday 2026-04-30; filed 2026-04-10, on
//! time, so 400.00 is due. Hayward requires the state sales-tax return with
//! it (Hayward room tax, returns ¶A): until attached it is `incomplete`.

use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::{TestApp, check::assert_problem, spawn_demo_app_at};

const HAYWARD_OPERATOR: &str = "operator@hayward.demo";
const HAYWARD_CLERK: &str = "clerk@hayward.demo";
const LODGE: &str = roomtax::demo::HAYWARD_LODGE_ID;
const MIB: usize = 1024 * 1024;

/// A small but well-formed PDF (one blank page), with binary bytes (NUL, C1
/// controls) in a comment and an unused stream, as real PDFs have.
fn pdf() -> Vec<u8> {
    let mut out: Vec<u8> = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let binary: &[u8] = b"\x00\x01\x1f\x7f\x85\x9f\xff\x00";
    let objects: [Vec<u8>; 4] = [
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>".to_vec(),
        [
            format!("<< /Length {} >>\nstream\n", binary.len()).as_bytes(),
            binary,
            b"\nendstream",
        ]
        .concat(),
    ];
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

/// The start of a PNG: its signature and an IHDR chunk (1 × 1, RGBA).
fn png() -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
    out.extend_from_slice(&[
        0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4, 0x89,
    ]);
    out.extend_from_slice(b"\0\0\0\0IEND\xaeB`\x82");
    out
}

fn returns_of(payor: &str) -> String {
    format!("/v1/municipalities/hayward/payors/{payor}/returns")
}

/// File the lodge's 2026-Q1 return (the hand computation above); its path.
async fn filed(app: &TestApp, token: &str) -> (String, Value) {
    let body = json!({
        "period": "2026-Q1", "gross_receipts": "10000.00", "exemptions": [],
        "signer": {"name": "Kari Lind", "title": "Owner"}, "attested": true
    });
    let res = app
        .call(Method::POST, &returns_of(LODGE))
        .bearer(token)
        .json(body)
        .send()
        .await;
    assert_eq!(res.status(), 201);
    let body: Value = res.json().await.unwrap();
    let path = format!("{}/{}", returns_of(LODGE), body["id"].as_str().unwrap());
    (path, body)
}

/// POST `bytes` as `content_type` to the return's attachments (`query` after `?`).
async fn upload(
    app: &TestApp,
    token: Option<&str>,
    return_path: &str,
    query: &str,
    content_type: &str,
    bytes: Vec<u8>,
) -> reqwest::Response {
    let mut req = app
        .client
        .post(app.url(&format!("{return_path}/attachments?{query}")))
        .header("content-type", content_type)
        .body(bytes);
    if let Some(token) = token {
        req = req.bearer_auth(token);
    }
    req.send().await.expect("request sent")
}

const STATE_RETURN: &str = "kind=state_sales_tax_return";

async fn status_of(app: &TestApp, token: &str, path: &str) -> Value {
    let res = app.call(Method::GET, path).bearer(token).send().await;
    assert_eq!(res.status(), 200);
    res.json().await.unwrap()
}

/// The access-log entries (as the Hayward clerk reads them) about `record_id`.
async fn log_of(app: &TestApp, record_id: &str) -> Vec<Value> {
    let clerk = app.token(HAYWARD_CLERK).await;
    let path = format!("/v1/municipalities/hayward/access-log?record_id={record_id}&limit=200");
    let page = status_of(app, &clerk, &path).await;
    page["items"].as_array().unwrap().clone()
}

#[actix_web::test]
async fn a_hayward_return_is_incomplete_until_the_state_sales_tax_return_is_attached() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let token = app.token(HAYWARD_OPERATOR).await;
    let (path, filed) = filed(&app, &token).await;
    let res = app.call(Method::GET, &path).bearer(&token).send().await;
    assert_eq!(
        res.json::<Value>().await.unwrap(),
        filed,
        "the filing's answer (missing attachments included) is the return as read"
    );
    assert_eq!(filed["tax"], "400.00");
    assert_eq!(filed["due_date"], "2026-04-30");
    assert_eq!(filed["amount_due"], "400.00");
    assert_eq!(filed["status"], "incomplete", "{filed}");
    assert_eq!(
        filed["missing_attachments"],
        json!(["state_sales_tax_return"])
    );

    // Another kind of document does not complete it.
    let res = upload(&app, Some(&token), &path, "kind=other", "image/png", png()).await;
    assert_eq!(res.status(), 201);
    let read = status_of(&app, &token, &path).await;
    assert_eq!(read["status"], "incomplete");

    // The state return, as a real (small) PDF, a minute later.
    app.set_now("2026-04-10T15:01:00Z");
    let bytes = pdf();
    let sha = roomtax::domain::attachment::sha256_hex(&bytes);
    let res = upload(
        &app,
        Some(&token),
        &path,
        STATE_RETURN,
        "application/pdf",
        bytes.clone(),
    )
    .await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let meta: Value = res.json().await.unwrap();
    let id = meta["id"].as_str().unwrap();
    assert_eq!(location, format!("{path}/attachments/{id}"));
    assert_eq!(meta["kind"], "state_sales_tax_return");
    assert_eq!(meta["content_type"], "application/pdf");
    assert_eq!(meta["size"], bytes.len());
    assert_eq!(meta["sha256"], sha);
    assert_eq!(meta["uploaded_at"], "2026-04-10T15:01:00Z");

    // Complete now, for the operator and in the clerk's view of the period.
    let read = status_of(&app, &token, &path).await;
    assert_eq!(read["status"], "filed", "{read}");
    assert_eq!(read["missing_attachments"], json!([]));
    let clerk = app.token(HAYWARD_CLERK).await;
    let view = status_of(
        &app,
        &clerk,
        "/v1/municipalities/hayward/returns?period=2026-Q1",
    )
    .await;
    let line = &view["items"][0];
    assert_eq!(line["return_status"], "filed", "{view}");
    assert_eq!(line["missing_attachments"], json!([]));

    // Listed (metadata only, oldest first) and downloaded byte for byte.
    let list = status_of(&app, &token, &format!("{path}/attachments")).await;
    let items = list["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[1], meta);
    assert!(items.iter().all(|i| i.get("content").is_none()));
    let res = app.call(Method::GET, &location).bearer(&token).send().await;
    assert_eq!(res.status(), 200);
    let headers = res.headers().clone();
    assert_eq!(headers["content-type"], "application/pdf");
    assert_eq!(headers["content-length"], bytes.len().to_string().as_str());
    assert_eq!(
        headers["content-disposition"],
        format!("attachment; filename=\"state_sales_tax_return-{id}.pdf\"").as_str()
    );
    assert_eq!(headers["x-content-type-options"], "nosniff");
    let got = res.bytes().await.unwrap();
    assert_eq!(got.as_ref(), bytes.as_slice());
    assert_eq!(roomtax::domain::attachment::sha256_hex(&got), sha);
    // Repr-Digest: the same SHA-256, base64 (hand check against the hex).
    let digest = headers["repr-digest"].to_str().unwrap();
    let b64 = digest
        .strip_prefix("sha-256=:")
        .and_then(|d| d.strip_suffix(':'))
        .unwrap();
    use base64::Engine as _;
    let raw = base64::engine::general_purpose::STANDARD
        .decode(b64)
        .unwrap();
    let hex: String = raw.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hex, sha);
    assert_eq!(headers["digest"], format!("sha-256={b64}").as_str());

    // Every upload, list and download is in the access log.
    let record = format!("{}/attachments/{id}", filed["id"].as_str().unwrap());
    let entries = log_of(&app, &record).await;
    let actions: Vec<&str> = entries
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions.iter().filter(|a| **a == "create").count(),
        1,
        "{entries:?}"
    );
    assert_eq!(
        actions.iter().filter(|a| **a == "read").count(),
        2,
        "{entries:?}"
    );
    assert!(
        entries
            .iter()
            .all(|e| e["record_type"] == "return_attachment")
    );
}

#[actix_web::test]
async fn uploads_are_judged_by_their_content_and_the_limit_is_10_mib() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let token = app.token(HAYWARD_OPERATOR).await;
    let (path, _) = filed(&app, &token).await;
    let send = |query: &'static str, ctype: &'static str, bytes: Vec<u8>| {
        let (app, token, path) = (&app, &token, &path);
        async move { upload(app, Some(token), path, query, ctype, bytes).await }
    };

    // A text file renamed .pdf and sent as a PDF.
    let res = send(
        STATE_RETURN,
        "application/pdf",
        b"Gross receipts: 10000.00\n".to_vec(),
    )
    .await;
    let body = assert_problem(res, 415, "unsupported-media-type", Some("body")).await;
    assert_eq!(body["errors"][0]["rule"], "attachment_type_unsupported");
    // A PNG declared as a JPEG.
    let res = send(STATE_RETURN, "image/jpeg", png()).await;
    let body = assert_problem(res, 415, "unsupported-media-type", Some("Content-Type")).await;
    assert_eq!(body["errors"][0]["rule"], "attachment_type_mismatch");
    // JSON is no document either; nor is nothing.
    let res = send(STATE_RETURN, "application/json", b"{}".to_vec()).await;
    assert_problem(res, 415, "unsupported-media-type", Some("body")).await;
    let res = send(STATE_RETURN, "application/pdf", Vec::new()).await;
    let body = assert_problem(res, 415, "unsupported-media-type", Some("body")).await;
    assert_eq!(body["errors"][0]["rule"], "attachment_empty");

    // The kind is required, one of the vocabulary, and held to the edge rule.
    let res = send("", "application/pdf", pdf()).await;
    let body = assert_problem(res, 422, "validation-failed", Some("kind")).await;
    assert_eq!(body["errors"][0]["rule"], "required");
    let res = send("kind=sales_tax", "application/pdf", pdf()).await;
    let body = assert_problem(res, 422, "validation-failed", Some("kind")).await;
    assert_eq!(body["errors"][0]["rule"], "one_of");
    let res = send("kind=other%00", "application/pdf", pdf()).await;
    let body = assert_problem(res, 422, "validation-failed", Some("kind")).await;
    assert_eq!(body["errors"][0]["rule"], "no_control_characters");

    // 11 MiB: refused, with a Content-Length and chunked.
    let mut big = pdf();
    big.resize(11 * MIB, b' ');
    let res = send(STATE_RETURN, "application/pdf", big).await;
    let body = assert_problem(res, 413, "payload-too-large", None).await;
    assert!(
        body["detail"].as_str().unwrap().contains("10485760"),
        "{body}"
    );
    let chunks = std::iter::once(pdf())
        .chain((0..11 * 16).map(|_| vec![b' '; 64 * 1024]))
        .map(|c| Ok::<_, std::io::Error>(bytes::Bytes::from(c)));
    let res = app
        .client
        .post(app.url(&format!("{path}/attachments?{STATE_RETURN}")))
        .bearer_auth(&token)
        .header("content-type", "application/pdf")
        .body(reqwest::Body::wrap_stream(futures_util::stream::iter(
            chunks,
        )))
        .send()
        .await
        .unwrap();
    assert_problem(res, 413, "payload-too-large", None).await;

    // Nothing refused was stored: the return is still incomplete, with none attached.
    let list = status_of(&app, &token, &format!("{path}/attachments")).await;
    assert_eq!(list["items"], json!([]));

    // Exactly 10 MiB is accepted, and comes back the same (BLOB / BYTEA).
    // (padding inside the file: a PDF still ends with its `%%EOF` marker)
    let mut largest = pdf();
    let trailer = b"\n%%EOF\n";
    largest.resize(10 * MIB - trailer.len(), b'\0');
    largest.extend_from_slice(trailer);
    let res = send(STATE_RETURN, "application/pdf", largest.clone()).await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().unwrap().to_owned();
    let res = app.call(Method::GET, &location).bearer(&token).send().await;
    assert_eq!(res.status(), 200);
    assert!(res.bytes().await.unwrap().as_ref() == largest.as_slice());
    let read = status_of(&app, &token, &path).await;
    assert_eq!(read["status"], "filed");
}

#[actix_web::test]
async fn binary_bodies_pass_without_weakening_the_json_rule() {
    // The PDF holds NUL and C1 bytes: bytes, not text, so the control-character
    // rule does not apply to them; it still does to every JSON body.
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let token = app.token(HAYWARD_OPERATOR).await;
    let (path, _) = filed(&app, &token).await;
    let bytes = pdf();
    assert!(bytes.contains(&0) && bytes.contains(&0x85));
    let res = upload(
        &app,
        Some(&token),
        &path,
        STATE_RETURN,
        "application/pdf",
        bytes,
    )
    .await;
    assert_eq!(res.status(), 201);
    let body = json!({
        "period": "2026-Q1", "gross_receipts": "1.00", "exemptions": [],
        "signer": {"name": "Kari\u{0}Lind", "title": "Owner"}, "attested": true
    });
    let res = app
        .call(Method::POST, &format!("{path}/amendments"))
        .bearer(&token)
        .header("if-match", "\"1\"")
        .json(body)
        .send()
        .await;
    let body = assert_problem(res, 422, "validation-failed", Some("signer.name")).await;
    assert_eq!(body["errors"][0]["rule"], "no_control_characters");
}

#[actix_web::test]
async fn others_learn_nothing_and_readers_may_not_upload() {
    let app = spawn_demo_app_at("2026-04-10T15:00:00Z").await;
    let operator = app.token(HAYWARD_OPERATOR).await;
    let (path, filed) = filed(&app, &operator).await;
    let res = upload(
        &app,
        Some(&operator),
        &path,
        STATE_RETURN,
        "application/pdf",
        pdf(),
    )
    .await;
    assert_eq!(res.status(), 201);
    let location = res.headers()["location"].to_str().unwrap().to_owned();

    // Hayward's clerk and staff read it and may attach too.
    for who in [HAYWARD_CLERK, "staff@hayward.demo"] {
        let token = app.token(who).await;
        let list = status_of(&app, &token, &format!("{path}/attachments")).await;
        assert!(!list["items"].as_array().unwrap().is_empty(), "{who}");
        let res = app.call(Method::GET, &location).bearer(&token).send().await;
        assert_eq!(res.status(), 200, "{who}");
    }
    let clerk = app.token(HAYWARD_CLERK).await;
    let res = upload(
        &app,
        Some(&clerk),
        &path,
        "kind=receipts_schedule",
        "image/png",
        png(),
    )
    .await;
    assert_eq!(res.status(), 201);

    // Montello's users, zone roles: 404 on every operation, even with a bad body.
    for who in [
        "operator@montello.demo",
        "clerk@montello.demo",
        "commission@marquette-county.demo",
        "admin@marquette-county.demo",
    ] {
        let token = app.token(who).await;
        for res in [
            app.call(Method::GET, &format!("{path}/attachments"))
                .bearer(&token)
                .send()
                .await,
            app.call(Method::GET, &location).bearer(&token).send().await,
            upload(
                &app,
                Some(&token),
                &path,
                STATE_RETURN,
                "application/pdf",
                pdf(),
            )
            .await,
            upload(
                &app,
                Some(&token),
                &path,
                "kind=nope",
                "text/plain",
                b"x".to_vec(),
            )
            .await,
        ] {
            assert_problem(res, 404, "not-found", None).await;
        }
    }
    // Anonymous: 401, and the body is not judged.
    let res = upload(&app, None, &path, "kind=nope", "text/plain", b"x".to_vec()).await;
    assert_problem(res, 401, "unauthorized", None).await;
    let res = app.get(&location).await;
    assert_problem(res, 401, "unauthorized", None).await;

    // Ids that are not this return's: 404.
    let elsewhere = "00000000-0000-4000-8000-00000000dead";
    let attachment = location.rsplit('/').next().unwrap();
    for wrong in [
        format!("{path}/attachments/{elsewhere}"),
        format!("{}/{elsewhere}/attachments/{attachment}", returns_of(LODGE)),
        format!("{}/{elsewhere}/attachments", returns_of(LODGE)),
    ] {
        let res = app.call(Method::GET, &wrong).bearer(&clerk).send().await;
        assert_problem(res, 404, "not-found", None).await;
    }
    let res = upload(
        &app,
        Some(&clerk),
        &format!("{}/{elsewhere}", returns_of(LODGE)),
        STATE_RETURN,
        "application/pdf",
        pdf(),
    )
    .await;
    assert_problem(res, 404, "not-found", None).await;

    // Nobody outside learnt anything, and no refused read is in the log.
    let record = format!("{}/attachments/{attachment}", filed["id"].as_str().unwrap());
    let reads = log_of(&app, &record).await;
    assert_eq!(
        reads.iter().filter(|e| e["action"] == "read").count(),
        4,
        "the clerk's and the staff's lists and downloads: {reads:?}"
    );
}

/// `Idempotency-Key` on an upload: the retry gets the first 201 and the
/// document is stored once; other bytes under the same key are 422.
#[actix_web::test]
async fn an_upload_retried_with_its_key_is_stored_once() {
    let app = spawn_demo_app_at("2026-04-20T15:00:00Z").await;
    let op = app.token(HAYWARD_OPERATOR).await;
    let (path, _) = filed(&app, &op).await;
    let send = |bytes: Vec<u8>, content_type: &'static str| {
        app.client
            .post(app.url(&format!("{path}/attachments?{STATE_RETURN}")))
            .bearer_auth(&op)
            .header("content-type", content_type)
            .header("idempotency-key", "\"upload-1\"")
            .body(bytes)
            .send()
    };
    let first = send(pdf(), "application/pdf").await.expect("sent");
    assert_eq!(first.status(), 201);
    let location = first.headers()["location"].to_str().unwrap().to_owned();
    let first: Value = first.json().await.unwrap();
    let again = send(pdf(), "application/pdf").await.expect("sent");
    assert_eq!(again.status(), 201);
    assert_eq!(again.headers()["location"].to_str().unwrap(), location);
    assert_eq!(again.json::<Value>().await.unwrap(), first);
    let list: Value = app
        .call(Method::GET, &format!("{path}/attachments"))
        .bearer(&op)
        .send()
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 1, "{list}");
    let other = send(png(), "image/png").await.expect("sent");
    assert_eq!(other.status(), 422);
}

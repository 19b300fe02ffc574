//! One rule at the edge for every string the API accepts: no control characters.
//!
//! Contract: a control character (Unicode general category Cc: U+0000–U+001F and
//! U+007F–U+009F) in any JSON string value or object key, any query or form
//! value or name, or any path segment is refused with a 422 problem whose
//! `errors[]` names each offending field (the JSON path as the other body errors write it,
//! e.g. `establishments[0].name`, or the parameter's name) and the rule
//! [`RULE`]. One exception: a postal address is written on several lines, so
//! the JSON fields named in [`MULTILINE_FIELDS`] may hold LF (U+000A), and only
//! LF; every other field, parameter and segment refuses it too.
//!
//! Why: PostgreSQL cannot store U+0000 in `text` (the query fails, which was a
//! 500), and SQLite stored it silently, so the same input gave two answers.
//! The JSON, query and form extractors of [`super::extract`] call
//! [`check_json`] / [`check_pairs`]; path segments and every query string are
//! checked by [`middleware`], which wraps the whole app, so no route (nor a
//! handler that reads `web::Path` or ignores its query string) can bypass it.
//! A middleware rather than a wrapped `Path` extractor: it needs no change in
//! any handler and also covers paths that match no route.
//! A body that is not text, the bytes of an attachment
//! (`api::returns::attachments`), is read by its own extractor and never
//! reaches [`check_json`]: NUL and C1 bytes are part of a PDF or an image.
//! Its path and query (`kind`) are still held to the rule, by the middleware.

use actix_web::{
    ResponseError,
    body::{BoxBody, MessageBody},
    dev::{ServiceRequest, ServiceResponse},
    middleware::Next,
    web,
};

use crate::error::{ApiError, FieldError, fallback::RouteTable};

/// The stable rule name in `errors[].rule`.
pub const RULE: &str = "no_control_characters";

/// JSON fields (by their own name, at any depth) that may hold LF: the postal
/// addresses of payors (`mailing_address`) and establishments (`address`).
pub const MULTILINE_FIELDS: [&str; 2] = ["mailing_address", "address"];

fn is_forbidden(c: char) -> bool {
    c.is_control()
}

fn check_multiline(field: &str, value: &str) -> Result<(), ApiError> {
    match value
        .char_indices()
        .find(|(_, c)| *c != '\n' && is_forbidden(*c))
    {
        None => Ok(()),
        Some((at, c)) => Err(refusal(field, at, c)),
    }
}

/// Refuse `value` if it holds a control character; `field` names it.
pub fn check_text(field: &str, value: &str) -> Result<(), ApiError> {
    match value.char_indices().find(|(_, c)| is_forbidden(*c)) {
        None => Ok(()),
        Some((at, c)) => Err(refusal(field, at, c)),
    }
}

fn refusal(field: &str, at: usize, c: char) -> ApiError {
    ApiError::Validation(vec![FieldError::new(
        field,
        RULE,
        format!(
            "control character U+{:04X} at byte {at}: text may not contain control characters \
             (U+0000–U+001F, U+007F–U+009F)",
            c as u32
        ),
    )])
}

/// Walk a parsed JSON body: every string value and every object key. Every
/// offending field is reported at once (one `errors[]` entry each, in
/// document order), like the field rules behind it.
pub fn check_json(value: &serde_json::Value) -> Result<(), ApiError> {
    let mut faults = Vec::new();
    walk(value, &mut String::new(), &mut faults);
    if faults.is_empty() {
        Ok(())
    } else {
        Err(ApiError::Validation(faults))
    }
}

fn collect(faults: &mut Vec<FieldError>, checked: Result<(), ApiError>) {
    if let Err(ApiError::Validation(found)) = checked {
        faults.extend(found);
    }
}

fn walk(value: &serde_json::Value, path: &mut String, faults: &mut Vec<FieldError>) {
    use serde_json::Value;
    match value {
        Value::String(s) => collect(
            faults,
            check_text(if path.is_empty() { "body" } else { path }, s),
        ),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                walk(item, path, faults);
                path.truncate(len);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let len = path.len();
                if !path.is_empty() {
                    path.push('.');
                }
                if let Some((at, c)) = key.char_indices().find(|(_, c)| is_forbidden(*c)) {
                    path.push_str(&key.escape_debug().to_string());
                    collect(faults, Err(refusal(path, at, c)));
                    path.truncate(len);
                    continue;
                }
                path.push_str(key);
                match item {
                    Value::String(text) if MULTILINE_FIELDS.contains(&key.as_str()) => {
                        collect(faults, check_multiline(path, text))
                    }
                    _ => walk(item, path, faults),
                }
                path.truncate(len);
            }
        }
        _ => {}
    }
}

/// Check every name and value of an `application/x-www-form-urlencoded`
/// text (a query string or a form body), after percent-decoding.
pub fn check_pairs(encoded: &[u8]) -> Result<(), ApiError> {
    for (name, value) in form_urlencoded::parse(encoded) {
        if let Some((at, c)) = name.char_indices().find(|(_, c)| is_forbidden(*c)) {
            return Err(refusal(&name.escape_debug().to_string(), at, c));
        }
        check_text(&name, &value)?;
    }
    Ok(())
}

/// Percent-decode one path segment (invalid UTF-8 is replaced, not refused here:
/// the route's own extractor answers for it).
fn decode_segment(segment: &str) -> String {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Check the request's path segments (named by the route template they match)
/// and its query string.
pub fn check_request(path: &str, query: &str, routes: Option<&RouteTable>) -> Result<(), ApiError> {
    for (index, segment) in path.split('/').enumerate() {
        let decoded = decode_segment(segment);
        if decoded.chars().any(is_forbidden) {
            let name = routes
                .and_then(|r| r.parameter_at(path, index))
                .unwrap_or_else(|| format!("path segment {index}"));
            return check_text(&name, &decoded);
        }
    }
    check_pairs(query.as_bytes())
}

/// Middleware: refuse control characters in the path and the query string
/// before routing (see the module contract).
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let routes = req.app_data::<web::Data<RouteTable>>().cloned();
    let routes = routes.as_ref().map(|r| r.get_ref());
    if let Err(err) = check_request(req.path(), req.query_string(), routes) {
        return Ok(req.into_response(err.error_response()));
    }
    next.call(req)
        .await
        .map(ServiceResponse::map_into_boxed_body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule_field(err: ApiError) -> (String, String) {
        match err {
            ApiError::Validation(e) => (e[0].field.clone(), e[0].rule.clone()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_control_character_is_refused_and_nothing_else() {
        for c in (0u32..=0x1f).chain(0x7f..=0x9f) {
            let c = char::from_u32(c).unwrap();
            let err = check_text("name", &format!("a{c}b")).unwrap_err();
            assert_eq!(rule_field(err), ("name".into(), RULE.into()));
        }
        for ok in [
            "Motel 6",
            "Café Ünïcode",
            "tab-free – dash",
            "\u{a0}nbsp",
            "😀",
        ] {
            assert!(check_text("name", ok).is_ok(), "{ok:?}");
        }
    }

    #[test]
    fn json_errors_name_the_path_and_keys_are_checked() {
        let v = serde_json::json!({"a": {"b": ["ok", "bad\u{0}"]}});
        assert_eq!(rule_field(check_json(&v).unwrap_err()).0, "a.b[1]");
        let v = serde_json::json!({"ok": 1, "k\u{7}ey": "x"});
        assert_eq!(rule_field(check_json(&v).unwrap_err()).0, "k\\u{7}ey");
        let v = serde_json::json!({"line": "one\ntwo"});
        assert_eq!(rule_field(check_json(&v).unwrap_err()).0, "line");
        // Addresses may span lines (LF only); other controls stay refused there.
        let v = serde_json::json!({"mailing_address": "PO Box 7\nMontello, WI"});
        assert!(check_json(&v).is_ok());
        let v = serde_json::json!({"e": [{"address": "a\r\nb"}]});
        assert_eq!(rule_field(check_json(&v).unwrap_err()).0, "e[0].address");
        assert!(check_json(&serde_json::json!({"n": 1, "s": "plain", "l": [true]})).is_ok());
    }

    #[test]
    fn pairs_and_paths_are_decoded_first() {
        assert_eq!(
            rule_field(check_pairs(b"a=1&email=x%00y").unwrap_err()).0,
            "email"
        );
        assert_eq!(
            rule_field(check_pairs(b"a%01b=1").unwrap_err()).0,
            "a\\u{1}b"
        );
        assert!(check_pairs(b"name=a+b%20c&x=%C3%A9").is_ok());
        let err = check_request("/v1/zones/%00", "", None).unwrap_err();
        assert_eq!(rule_field(err).0, "path segment 3");
        let err = check_request("/v1/zones/x", "cursor=%1b", None).unwrap_err();
        assert_eq!(rule_field(err).0, "cursor");
        assert!(check_request("/v1/zones/%41%", "q=%zz", None).is_ok());
        assert_eq!(decode_segment("a%2Fb%c2%85"), "a/b\u{85}");
    }
}

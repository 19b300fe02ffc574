//! Strict request extractors whose failures name the offending field.
//!
//! Contract: [`ApiJson`] accepts only `application/json` (or `+json`) bodies of
//! at most [`JSON_LIMIT`] bytes and reports the JSON path of a wrong-typed,
//! unknown or missing field; [`ApiQuery`] does the same for query strings.
//! Request types must use `#[serde(deny_unknown_fields)]` to be strict.
//! Every string of a JSON body, a query string or a form body ([`parse_form`])
//! is first held to the edge rule of [`super::input_guard`] (no control
//! characters: a 422 naming the field and the rule `no_control_characters`).
//! Request dates use [`crate::domain::iso_date`] (`YYYY-MM-DD` only).
//! A protected handler takes `Result<ApiJson<T>, ApiError>` (or the same for
//! `ApiQuery`) and unwraps it only after its authorisation check, so a caller
//! that may not act gets its 401/403/404, never a 400/422 describing the
//! operation's fields.

use std::{future::Future, pin::Pin};

use actix_web::{FromRequest, HttpRequest, dev::Payload, http::header};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;

use crate::error::{ApiError, FieldError};

/// The largest JSON body accepted: 256 KiB.
pub const JSON_LIMIT: usize = 256 * 1024;

/// A JSON request body, parsed strictly.
#[derive(Debug)]
pub struct ApiJson<T>(pub T);

/// A query string, parsed strictly.
#[derive(Debug)]
pub struct ApiQuery<T>(pub T);

/// The request's declared `Content-Length`, if it has a readable one (a body
/// over a limit is refused on it before a byte is read).
pub(crate) fn declared_length(req: &HttpRequest) -> Option<usize> {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
}

fn is_json(req: &HttpRequest) -> bool {
    let Some(value) = req.headers().get(header::CONTENT_TYPE) else {
        return false;
    };
    let Ok(text) = value.to_str() else {
        return false;
    };
    let essence = text
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || (essence.starts_with("application/") && essence.ends_with("+json"))
}

/// Whether serde_path_to_error's `path` names the body itself.
fn at_root(path: &str) -> bool {
    path == "." || path.is_empty()
}

/// The field `name` inside the value at `path`.
fn field_at(path: &str, name: &str) -> String {
    if at_root(path) {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

/// Map a serde error at `path` to the problem a client can act on.
fn classify(path: String, message: String, is_syntax: bool) -> ApiError {
    if is_syntax {
        return ApiError::MalformedJson(message);
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (name, expected) = rest.split_once('`').unwrap_or((rest, ""));
        // The path already ends with the unknown key itself.
        let field = if at_root(&path) {
            name.to_owned()
        } else {
            path
        };
        let expected = expected
            .trim_start_matches(", expected one of ")
            .trim_start_matches(", expected ")
            .replace('`', "");
        return ApiError::UnknownField { field, expected };
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let name = rest.split('`').next().unwrap_or(rest);
        let field = field_at(&path, name);
        return ApiError::Validation(vec![FieldError::new(
            field,
            "required",
            "this field is required",
        )]);
    }
    if let Some(rest) = message.strip_prefix("duplicate field `") {
        let name = rest.split('`').next().unwrap_or(rest);
        let field = field_at(&path, name);
        return ApiError::InvalidFieldType {
            field,
            message: "given more than once".into(),
        };
    }
    let field = if path == "." { "body".to_owned() } else { path };
    ApiError::InvalidFieldType { field, message }
}

/// Strip serde_json's " at line L column C" suffix from data errors.
fn without_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_owned(),
        None => message.to_owned(),
    }
}

/// Parse a JSON body into `T`, naming the failing field.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // Every request body is an object; serde would otherwise read a struct from
    // an array, field by field, by position.
    if let Some(first) = bytes.iter().find(|b| !b.is_ascii_whitespace())
        && *first != b'{'
        && (b"[\"-0123456789tfn".contains(first))
    {
        return Err(ApiError::InvalidFieldType {
            field: "body".into(),
            message: "the request body must be a JSON object".into(),
        });
    }
    // The edge rule first, over every string and key (a body that is not JSON
    // at all falls through to the typed parse below, which reports it).
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) {
        super::input_guard::check_json(&value)?;
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let result: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    match result {
        Ok(value) => {
            // Trailing characters after the value are malformed JSON too.
            de.end()
                .map_err(|e| ApiError::MalformedJson(e.to_string()))?;
            Ok(value)
        }
        Err(err) => {
            let path = err.path().to_string();
            let inner = err.into_inner();
            let syntax = matches!(
                inner.classify(),
                serde_json::error::Category::Syntax | serde_json::error::Category::Eof
            );
            let message = if syntax {
                inner.to_string()
            } else {
                without_position(&inner.to_string())
            };
            Err(classify(path, message, syntax))
        }
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for ApiJson<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let json = is_json(req);
        let declared_len = declared_length(req);
        let mut payload = payload.take();
        Box::pin(async move {
            if !json {
                return Err(ApiError::UnsupportedMediaType);
            }
            if declared_len.is_some_and(|n| n > JSON_LIMIT) {
                return Err(ApiError::PayloadTooLarge { limit: JSON_LIMIT });
            }
            let mut body = Vec::with_capacity(declared_len.unwrap_or(1024).min(JSON_LIMIT));
            while let Some(chunk) = payload.next().await {
                let chunk =
                    chunk.map_err(|e| ApiError::MalformedJson(format!("body not read: {e}")))?;
                if body.len() + chunk.len() > JSON_LIMIT {
                    return Err(ApiError::PayloadTooLarge { limit: JSON_LIMIT });
                }
                body.extend_from_slice(&chunk);
            }
            parse_json(&body).map(ApiJson)
        })
    }
}

/// Parse a query string into `T`, naming the failing parameter.
pub fn parse_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    super::input_guard::check_pairs(query.as_bytes())?;
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    serde_path_to_error::deserialize(de).map_err(|err| {
        let path = err.path().to_string();
        let message = err.into_inner().to_string();
        match classify(path.clone(), message.clone(), false) {
            ApiError::InvalidFieldType { field, message } => ApiError::InvalidParameter {
                name: field,
                message,
            },
            ApiError::UnknownField { field, expected } => ApiError::InvalidParameter {
                name: field,
                message: format!("unknown parameter; expected one of: {expected}"),
            },
            other => other,
        }
    })
}

/// Parse an `application/x-www-form-urlencoded` body into `T` (the OAuth token
/// endpoint), under the same edge rule; the error names the failing parameter.
pub fn parse_form<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    super::input_guard::check_pairs(body)?;
    let text = std::str::from_utf8(body).map_err(|_| ApiError::InvalidParameter {
        name: "body".into(),
        message: "the form body is not UTF-8".into(),
    })?;
    parse_query(text)
}

impl<T: DeserializeOwned + 'static> FromRequest for ApiQuery<T> {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(parse_query(req.query_string()).map(ApiQuery))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        name: String,
        count: u32,
        nested: Option<Nested>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Nested {
        flag: bool,
    }

    #[test]
    fn errors_name_the_field() {
        let err = parse_json::<Body>(br#"{"name":"a","count":"x"}"#).unwrap_err();
        assert!(
            matches!(err, ApiError::InvalidFieldType { ref field, .. } if field == "count"),
            "{err:?}"
        );
        let err = parse_json::<Body>(br#"{"name":"a","count":1,"nested":{"flag":1}}"#).unwrap_err();
        assert!(
            matches!(err, ApiError::InvalidFieldType { ref field, .. } if field == "nested.flag"),
            "{err:?}"
        );
        let err = parse_json::<Body>(br#"{"name":"a","count":1,"extra":1}"#).unwrap_err();
        assert!(
            matches!(err, ApiError::UnknownField { ref field, .. } if field == "extra"),
            "{err:?}"
        );
        let err = parse_json::<Body>(br#"{"name":"a"}"#).unwrap_err();
        assert!(
            matches!(err, ApiError::Validation(ref e) if e[0].field == "count"),
            "{err:?}"
        );
        let err = parse_json::<Body>(br#"{"name":"a","#).unwrap_err();
        assert!(matches!(err, ApiError::MalformedJson(_)), "{err:?}");
        let err = parse_json::<Body>(br#"{"name":"a","count":1} x"#).unwrap_err();
        assert!(matches!(err, ApiError::MalformedJson(_)), "{err:?}");
        let err = parse_json::<Body>(br#"["a", 1, null]"#).unwrap_err();
        assert!(
            matches!(err, ApiError::InvalidFieldType { ref field, .. } if field == "body"),
            "{err:?}"
        );
        let err = parse_json::<Body>(br#"{"name":"a\u0000","count":1}"#).unwrap_err();
        assert!(
            matches!(err, ApiError::Validation(ref e) if e[0].field == "name" && e[0].rule == "no_control_characters"),
            "{err:?}"
        );
        // Checked before the type: an unknown key with a NUL is still named.
        let err = parse_json::<Body>(br#"{"name":"a","count":1,"x":["\u009f"]}"#).unwrap_err();
        assert!(
            matches!(err, ApiError::Validation(ref e) if e[0].field == "x[0]"),
            "{err:?}"
        );
        let err = parse_json::<Body>(br#"{"name":"a","count":1,"count":2}"#).unwrap_err();
        assert!(
            matches!(err, ApiError::InvalidFieldType { ref field, .. } if field == "count"),
            "{err:?}"
        );
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Query {
        limit: Option<u32>,
    }

    #[test]
    fn query_errors_name_the_parameter() {
        let err = parse_query::<Query>("limit=abc").unwrap_err();
        assert!(
            matches!(err, ApiError::InvalidParameter { ref name, .. } if name == "limit"),
            "{err:?}"
        );
        let err = parse_query::<Query>("nope=1").unwrap_err();
        assert!(
            matches!(err, ApiError::InvalidParameter { ref name, .. } if name == "nope"),
            "{err:?}"
        );
        assert_eq!(parse_query::<Query>("limit=5").unwrap().limit, Some(5));
        let err = parse_query::<Query>("nope=%00").unwrap_err();
        assert!(
            matches!(err, ApiError::Validation(ref e) if e[0].field == "nope" && e[0].rule == "no_control_characters"),
            "{err:?}"
        );
        let err = parse_form::<Query>(b"limit=%7f").unwrap_err();
        assert!(
            matches!(err, ApiError::Validation(ref e) if e[0].field == "limit"),
            "{err:?}"
        );
        let err = parse_query::<Query>("limit=5&limit=6").unwrap_err();
        assert!(
            matches!(err, ApiError::InvalidParameter { ref name, .. } if name == "limit"),
            "{err:?}"
        );
    }
}

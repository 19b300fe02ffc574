//! CSV answers (`Accept: text/csv`): the one field rule and the one content
//! negotiation that every endpoint offering CSV uses (statements, the period
//! view, delinquencies, remittances, statistics, the report back, the state
//! report, the vehicle-fee fund).
//!
//! Contract: a field follows RFC 4180 (quoted when it holds a comma, a quote
//! or a line break; quotes doubled) and is never read by a spreadsheet as a
//! formula: a field starting with `=`, `+`, `-` or `@` is prefixed with `'`,
//! unless it is a decimal number (a negative amount stays a number). Lines end
//! in CRLF; the builders of each document live with their endpoint.

use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder, http::header};
use rust_decimal::Decimal;
use serde::Serialize;

/// The media type of every CSV answer.
pub const CONTENT_TYPE: &str = "text/csv; charset=utf-8";

/// One CSV field (see the module doc).
pub fn field(text: &str) -> String {
    let formula = text.starts_with(['=', '+', '-', '@']) && Decimal::from_str_exact(text).is_err();
    let text = if formula {
        format!("'{text}")
    } else {
        text.to_owned()
    };
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// An optional value as a field's text (empty when absent).
pub fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

/// Whether the request's `Accept` names `media` (`text/csv`, `text/html`).
pub fn accepts(req: &HttpRequest, media: &str) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains(media))
}

/// Whether the request asks for CSV.
pub fn wanted(req: &HttpRequest) -> bool {
    accepts(req, "text/csv")
}

/// `200 OK` with `body` as CSV.
pub fn ok(body: String) -> HttpResponse {
    HttpResponse::Ok().content_type(CONTENT_TYPE).body(body)
}

/// `200 OK` with `body` as the CSV `to_csv` writes of it when the request asks for
/// CSV ([`wanted`]), as JSON otherwise: the negotiation of an endpoint offering both.
pub fn or_json<T: Serialize>(
    req: &HttpRequest,
    body: T,
    to_csv: impl FnOnce(&T) -> String,
) -> HttpResponse {
    or_json_in(HttpResponse::Ok(), req, body, to_csv)
}

/// [`or_json`] on a response already begun: `response` (the status and any
/// headers of the endpoint's own, e.g. `Cache-Control`) gets the CSV
/// `to_csv` writes of `body` with [`CONTENT_TYPE`] when the request asks for
/// CSV ([`wanted`]), `body` as JSON otherwise.
pub fn or_json_in<T: Serialize>(
    mut response: HttpResponseBuilder,
    req: &HttpRequest,
    body: T,
    to_csv: impl FnOnce(&T) -> String,
) -> HttpResponse {
    if wanted(req) {
        response.content_type(CONTENT_TYPE).body(to_csv(&body))
    } else {
        response.json(body)
    }
}

#[cfg(test)]
mod tests {
    use super::field;

    #[test]
    fn fields_are_quoted_when_they_must_be() {
        assert_eq!(field("Lakeview Cabins LLC"), "Lakeview Cabins LLC");
        assert_eq!(field("Smith, Jones & Co"), "\"Smith, Jones & Co\"");
        assert_eq!(field("The \"Inn\""), "\"The \"\"Inn\"\"\"");
        assert_eq!(field("two\r\nlines"), "\"two\r\nlines\"");
    }

    #[test]
    fn nothing_is_read_as_a_formula_but_numbers_stay_numbers() {
        assert_eq!(field("=SUM(A1)"), "'=SUM(A1)");
        assert_eq!(field("=HYPERLINK(1)"), "'=HYPERLINK(1)");
        assert_eq!(field("@x"), "'@x");
        assert_eq!(field("+1 608 555 0100"), "'+1 608 555 0100");
        assert_eq!(field("-cmd"), "'-cmd");
        assert_eq!(field("-19.83"), "-19.83");
        assert_eq!(field("-7"), "-7");
        assert_eq!(field("-inf"), "'-inf");
        assert_eq!(field("=1,2"), "\"'=1,2\"");
    }
}

//! A guard on the bytes of each request head, below actix's HTTP parser.
//!
//! Contract: actix-http refuses a request whose header carries a control
//! byte (0x00 to 0x1F but tab, and 0x7F: not allowed in a field value, RFC
//! 9110 §5.5) before any of our code sees the request, with a bare `400 Bad
//! Request` and no body. Every error of this service is RFC 9457
//! problem+json naming the field and the rule (DESIGN §4), so each
//! connection's stream is wrapped in [`Guarded`]:
//! - it watches the bytes read while a request head arrives (from the start
//!   of the connection, and again once a final response has begun, for the
//!   next request on a kept-alive connection) and notes the first header
//!   line holding such a byte (its name when the name itself is clean,
//!   otherwise `header`);
//! - when the parser then writes its bare 400 (status 400, `content-length:
//!   0`), the guard sends in its place a problem+json 400
//!   `invalid-parameter` whose `errors` name that header with rule
//!   `no_control_characters`, with `connection: close` (the parser closes
//!   the connection after a malformed head, as before).
//!
//! Nothing else changes: every other byte passes through untouched, a head
//! that parses is never rewritten (its own 400s are problem+json already,
//! never empty), and the header's value is neither echoed nor logged (it
//! may be a credential).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::error::{FieldError, Problem, ProblemCode};

/// The most of a request head watched (actix refuses larger heads itself).
const HEAD_LIMIT: usize = 64 * 1024;

/// A stream whose request heads are watched (see the module doc).
#[derive(Debug)]
pub struct Guarded<T> {
    inner: T,
    /// The bytes of the request head arriving, while `watching`.
    head: Vec<u8>,
    watching: bool,
    /// The header found holding a control byte.
    bad: Option<String>,
    /// The problem+json answer still to be written in place of the bare 400.
    out: Vec<u8>,
    /// The bare 400 was replaced: what actix writes after it is dropped.
    replaced: bool,
}

impl<T> Guarded<T> {
    /// Watch `inner`'s request heads.
    pub fn new(inner: T) -> Self {
        Guarded {
            inner,
            head: Vec::new(),
            watching: true,
            bad: None,
            out: Vec::new(),
            replaced: false,
        }
    }

    /// The wrapped stream.
    pub fn get_ref(&self) -> &T {
        &self.inner
    }

    fn watch(&mut self, bytes: &[u8]) {
        if !self.watching || bytes.is_empty() {
            return;
        }
        let room = HEAD_LIMIT.saturating_sub(self.head.len());
        self.head.extend_from_slice(&bytes[..bytes.len().min(room)]);
        let end = find(&self.head, b"\r\n\r\n").map(|i| i + 4);
        if let Some(end) = end {
            self.head.truncate(end);
        }
        if self.bad.is_none() {
            self.bad = bad_header(&self.head);
        }
        if end.is_some() || self.head.len() >= HEAD_LIMIT {
            self.watching = false;
        }
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn is_control(b: u8) -> bool {
    (b < 0x20 && b != b'\t') || b == 0x7f
}

/// The first header line of `head` (request line excluded) holding a
/// control byte: its name, or `header` when the name is not a clean token.
fn bad_header(head: &[u8]) -> Option<String> {
    let mut lines = head.split(|b| *b == b'\n');
    lines.next()?;
    for line in lines {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.iter().copied().any(is_control) {
            continue;
        }
        let name = line
            .iter()
            .position(|b| *b == b':')
            .map(|i| &line[..i])
            .filter(|n| {
                !n.is_empty()
                    && n.iter()
                        .all(|b| b.is_ascii_alphanumeric() || b"-_.!#$%&'*+^`|~".contains(b))
            });
        return Some(match name {
            Some(n) => String::from_utf8_lossy(n).to_ascii_lowercase(),
            None => "header".to_owned(),
        });
    }
    None
}

/// Whether `buf` starts a bare 400 (no body) as actix's parser writes it.
fn is_bare_400(buf: &[u8]) -> bool {
    let Some(end) = find(buf, b"\r\n\r\n") else {
        return false;
    };
    let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
    head.starts_with("http/1.1 400 ") && head.contains("\r\ncontent-length: 0")
}

/// The problem+json answer naming `header`.
fn answer(header: &str) -> Vec<u8> {
    let problem = Problem::new(
        ProblemCode::InvalidParameter,
        format!("header `{header}`: a header value may not hold control characters"),
    )
    .with_errors(vec![FieldError::new(
        header.to_owned(),
        "no_control_characters",
        "a header value may not hold control characters (bytes 0x00 to 0x1F but tab, or 0x7F; RFC 9110 §5.5)".to_owned(),
    )]);
    let body = serde_json::to_vec(&problem).unwrap_or_else(|_| b"{}".to_vec());
    let mut out = format!(
        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    out
}

impl<T: AsyncWrite + Unpin> Guarded<T> {
    /// Write what is left of the answer; ready when all of it is written.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.out.is_empty() {
            match Pin::new(&mut self.inner).poll_write(cx, &self.out) {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => {
                    self.out.drain(..n);
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Guarded<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if let Poll::Ready(Ok(())) = &polled {
            let fresh = buf.filled()[before..].to_vec();
            this.watch(&fresh);
        }
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Guarded<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.replaced {
            return match this.drain(cx) {
                Poll::Ready(Ok(())) => Poll::Ready(Ok(buf.len())),
                Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                Poll::Pending => Poll::Pending,
            };
        }
        if let Some(header) = &this.bad
            && is_bare_400(buf)
        {
            this.out = answer(header);
            this.replaced = true;
            return match this.drain(cx) {
                Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                // Taken: the rest of the answer goes out on the next
                // write, flush or shutdown.
                _ => Poll::Ready(Ok(buf.len())),
            };
        }
        // A final response begins: the next request's head is watched.
        if buf.starts_with(b"HTTP/1.") && !buf.starts_with(b"HTTP/1.1 1") {
            this.head.clear();
            this.bad = None;
            this.watching = true;
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_flush(cx),
            other => other,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match this.drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_shutdown(cx),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_header_with_a_control_byte_is_named() {
        let head =
            b"POST /v1/x HTTP/1.1\r\nHost: a\r\nIdempotency-Key: ab\x01c\r\nAccept: \x7f\r\n\r\n";
        assert_eq!(bad_header(head).as_deref(), Some("idempotency-key"));
        // A tab is allowed; a clean head names nothing.
        assert_eq!(bad_header(b"GET / HTTP/1.1\r\nX-A: a\tb\r\n\r\n"), None);
        // Still arriving: the partial line counts.
        assert_eq!(
            bad_header(b"GET / HTTP/1.1\r\nAuthorization: Bearer \x00").as_deref(),
            Some("authorization")
        );
        // A name that is not a token is not echoed.
        assert_eq!(
            bad_header(b"GET / HTTP/1.1\r\nX\x01Y: a\r\n\r\n").as_deref(),
            Some("header")
        );
    }

    #[test]
    fn only_an_empty_400_is_replaced() {
        assert!(is_bare_400(
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\ndate: x\r\n\r\n"
        ));
        assert!(!is_bare_400(
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 120\r\ncontent-type: application/problem+json\r\n\r\n{}"
        ));
        assert!(!is_bare_400(
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"
        ));
        let a = String::from_utf8(answer("idempotency-key")).unwrap();
        assert!(
            a.starts_with("HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\n")
        );
        assert!(a.contains(r#""field":"idempotency-key""#), "{a}");
        assert!(a.contains(r#""rule":"no_control_characters""#), "{a}");
    }
}

//! A request sent byte for byte, header names exactly as a case spells them
//! (`mcp-protocol-version`, `AUTHORIZATION`). The checkers' HTTP client
//! (`check::http`, ureq) writes every header name in lower case, so a
//! server that compares names case-sensitively against lower-case spellings
//! would pass every other case: "Clients and servers MUST use
//! case-insensitive comparisons for header names" (2026-07-28
//! basic/transports/streamable-http › Case Sensitivity). Used by 06 and 12
//! (`check::http` is shared with doctor and stays as it is); recorded in
//! the transcript as `check::http::send` records a request.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::Failure;
use super::harness::http_panic;
use crate::check::http::{self, Reply, Request};
use crate::check::report::{Direction, EntryKind};
use crate::check::session::{Session, Stop};

/// Sends `request` over a fresh connection with its header names as
/// written (`Host`, `Content-Length` and `Connection: close` added), and
/// reads the reply to the end. Errors: the server did not listen, closed
/// the connection without a response, took past the session's deadline,
/// or panicked (the harness's report).
pub fn send(s: &mut Session, request: &Request) -> Result<Reply, Failure> {
    let address = http::wait_until_listening(s)?;
    let mut sent = request.clone();
    if !sent.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        sent.headers.insert(0, ("Host".into(), address.to_string()));
    }
    if let Some(body) = &sent.body {
        sent.headers.push(("Content-Length".into(), body.len().to_string()));
    }
    sent.headers.push(("Connection".into(), "close".into()));
    s.note(Direction::ToLearner, &http::request_line(&sent), EntryKind::Http);
    if let Some(body) = &sent.body {
        note_body(s, Direction::ToLearner, body);
    }
    let mut bytes = format!("{} {} HTTP/1.1\r\n", sent.method, sent.path).into_bytes();
    for (name, value) in &sent.headers {
        bytes.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    bytes.extend_from_slice(b"\r\n");
    bytes.extend_from_slice(sent.body.as_deref().unwrap_or_default());
    let left = s
        .deadline()
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(50));
    let raw = exchange(address, &bytes, left).map_err(|e| match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => Stop::Timeout(s.timeout()),
        _ => Stop::Io(format!("the HTTP request failed: {e}")),
    })?;
    let reply = parse(&raw).ok_or_else(|| {
        Stop::Io(format!(
            "the server's answer is not an HTTP/1.1 response: {}",
            crate::text::shorten(&String::from_utf8_lossy(&raw), 200)
        ))
    })?;
    s.note(Direction::FromLearner, &http::status_line(&reply), EntryKind::Http);
    if !reply.body.is_empty() {
        note_body(s, Direction::FromLearner, &reply.body);
    }
    http_panic(reply)
}

/// Writes `bytes` to `address` and reads until the server closes.
fn exchange(address: std::net::SocketAddr, bytes: &[u8], timeout: Duration) -> std::io::Result<Vec<u8>> {
    let mut stream = TcpStream::connect_timeout(&address, timeout)?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    stream.write_all(bytes)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    Ok(raw)
}

/// An HTTP/1.1 response: the status, the headers (names lower-cased, as
/// [`Reply`] holds them) and the body, by `Content-Length`, chunked, or
/// up to the end. `None` when it is not one.
fn parse(raw: &[u8]) -> Option<Reply> {
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&raw[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.strip_prefix("HTTP/1.")?.get(2..5)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let rest = &raw[end + 4..];
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
    let body = if header("transfer-encoding").is_some_and(|v| v.eq_ignore_ascii_case("chunked")) {
        dechunk(rest)?
    } else if let Some(length) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        rest.get(..length)?.to_vec()
    } else {
        rest.to_vec()
    };
    Some(Reply { status, headers, body })
}

/// A chunked body, joined.
fn dechunk(mut rest: &[u8]) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let line_end = rest.windows(2).position(|w| w == b"\r\n")?;
        let size = std::str::from_utf8(&rest[..line_end]).ok()?;
        let size = usize::from_str_radix(size.split(';').next()?.trim(), 16).ok()?;
        rest = &rest[line_end + 2..];
        if size == 0 {
            return Some(body);
        }
        body.extend_from_slice(rest.get(..size)?);
        rest = rest.get(size + 2..)?;
    }
}

/// Records a body on a line of its own: a frame when it is JSON.
fn note_body(s: &mut Session, direction: Direction, body: &[u8]) {
    let kind = match serde_json::from_slice::<Value>(body) {
        Ok(_) => EntryKind::Frame,
        Err(_) => EntryKind::Http,
    };
    s.note(
        direction,
        &crate::text::shorten(&String::from_utf8_lossy(body), 2000),
        kind,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_parse_by_length_chunks_or_end() {
        let by_length =
            parse(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 2\r\nWWW-Authenticate: Bearer\r\n\r\n{}junk").unwrap();
        assert_eq!(by_length.status, 403);
        assert_eq!(by_length.body, b"{}");
        assert_eq!(by_length.header("www-authenticate"), Some("Bearer"));
        let chunked =
            parse(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n")
                .unwrap();
        assert_eq!(chunked.body, b"abcde");
        let to_end = parse(b"HTTP/1.0 202 Accepted\r\n\r\n").unwrap();
        assert_eq!((to_end.status, to_end.body.len()), (202, 0));
        assert!(parse(b"SSH-2.0-OpenSSH\r\n\r\n").is_none());
        assert!(parse(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort").is_none());
    }
}

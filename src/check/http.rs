//! HTTP exchanges with a learner's server ([`Shape::Http`]): the checker
//! sends real HTTP/1.1 requests to `127.0.0.1:<port>` (never anything but
//! loopback) with the `ureq` client, and records each request and response
//! in the session's transcript. `mcplings doctor --url` uses the same
//! client on any URL, `https://` too (rustls; [`Trust`]).
//!
//! The transcript shows every header the checker sent: `Host` is set
//! explicitly (`127.0.0.1:<port>` unless a case names another), ureq adds
//! no `User-Agent`, `Accept` or `Accept-Encoding` of its own, and the
//! `Content-Length` it adds is shown too. A request reads as two lines,
//! `POST /mcp · Host: … · Mcp-Method: …` and its body; a response as its
//! status with the headers that matter, then its body (an SSE stream's
//! events, one frame each). A body that is JSON is recorded as a frame,
//! with its id.
//!
//! [`Shape::Http`]: super::checkers::Shape::Http

use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;
use ureq::config::AutoHeaderValue;
use ureq::tls::{Certificate, PemItem, RootCerts, TlsConfig};

use super::report::{Direction, EntryKind};
use super::session::{Session, Stop};
use crate::text::shorten;

/// One HTTP request to send.
#[derive(Debug, Clone)]
pub struct Request {
    /// `POST`, `GET`, `DELETE`.
    pub method: &'static str,
    /// The path, e.g. `/mcp`.
    pub path: &'static str,
    /// Headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body, if any.
    pub body: Option<Vec<u8>>,
}

/// What came back.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// Response headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The whole body.
    pub body: Vec<u8>,
}

impl Reply {
    /// Header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The media type of `Content-Type`, lower-cased, without parameters.
    pub fn media_type(&self) -> Option<String> {
        self.header("content-type")
            .map(|v| v.split(';').next().unwrap_or("").trim().to_ascii_lowercase())
    }

    /// The body as JSON, if it is JSON.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// The body as text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Response headers shown in the transcript; the rest are noise. (A
/// request shows all of its own.)
const SHOWN: &[&str] = &[
    "mcp-protocol-version",
    "mcp-method",
    "mcp-name",
    "origin",
    "accept",
    "content-type",
    "allow",
    "authorization",
    "www-authenticate",
];

/// Waits until the server accepts connections on its port. Errors: the
/// program exited, the check was cancelled, or nothing listened before the
/// session's deadline.
pub fn wait_until_listening(s: &mut Session) -> Result<SocketAddr, Stop> {
    let port = s
        .port()
        .ok_or_else(|| Stop::Io("this session has no HTTP port".into()))?;
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    loop {
        // A connection to itself is not a listener: with nothing bound to a
        // port of the ephemeral range, the kernel may pick that very port as
        // the probe's own and connect it to itself (TCP simultaneous open).
        // Program ports lie below that range (`session::conversation`)
        // unless it was busy; this keeps the probe honest for those too.
        if let Ok(probe) = TcpStream::connect_timeout(&address, Duration::from_millis(100))
            && probe.local_addr().ok() != Some(address)
        {
            return Ok(address);
        }
        if s.cancelled() {
            return Err(Stop::Cancelled);
        }
        if let Some(status) = s.exited_within(Duration::ZERO) {
            return Err(Stop::Exited(Some(status)));
        }
        if Instant::now() >= s.deadline() {
            return Err(Stop::Io(format!(
                "nothing listened on 127.0.0.1:{port}, the port given with --port; the server must bind exactly that address"
            )));
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Sends `request` to the server and returns its reply, recording both:
/// the request line with every header sent (`Host` and `Content-Length`
/// included), the body, then the status line and the body or SSE events.
/// Errors: the server did not listen, closed the connection without a
/// response, or took past the session's deadline.
pub fn send(s: &mut Session, request: &Request) -> Result<Reply, Stop> {
    let address = wait_until_listening(s)?;
    let mut sent = request.clone();
    if !sent.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
        sent.headers.insert(0, ("Host".into(), address.to_string()));
    }
    if let Some(body) = &sent.body {
        sent.headers.push(("Content-Length".into(), body.len().to_string()));
    }
    s.note(Direction::ToLearner, &request_line(&sent), EntryKind::Http);
    if let Some(body) = &sent.body {
        note_body(s, Direction::ToLearner, body);
    }
    let left = s
        .deadline()
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(50));
    let reply = match fetch(&format!("http://{address}{}", request.path), &sent, left) {
        Ok(reply) => reply,
        Err(Fetched::Timeout) => return Err(Stop::Timeout(s.timeout())),
        Err(Fetched::Failed(e)) => {
            if let Some(status) = s.exited_within(Duration::from_millis(100)) {
                return Err(Stop::Exited(Some(status)));
            }
            return Err(Stop::Io(e));
        }
    };
    if reply.media_type().as_deref() == Some("text/event-stream") {
        // An SSE stream reads best as its events, one JSON-RPC message each.
        s.note(
            Direction::FromLearner,
            &format!("{}{} · an SSE stream:", reply.status, shown_headers(&reply.headers)),
            EntryKind::Http,
        );
        for event in parse_events(&reply.text()) {
            s.note(Direction::FromLearner, &event.data, EntryKind::Frame);
        }
    } else {
        s.note(Direction::FromLearner, &status_line(&reply), EntryKind::Http);
        if !reply.body.is_empty() {
            note_body(s, Direction::FromLearner, &reply.body);
        }
    }
    Ok(reply)
}

/// Why [`fetch`] got no reply.
#[derive(Debug, Clone, PartialEq)]
pub enum Fetched {
    /// Nothing came back within the timeout.
    Timeout,
    /// The request failed (refused, reset, a body that cannot be read).
    Failed(String),
}

/// The certificates an `https://` request trusts.
#[derive(Debug, Clone, Default)]
pub enum Trust {
    /// Mozilla's root certificates (the `webpki-roots` crate ureq carries).
    #[default]
    WebPki,
    /// Only these (`--cacert FILE`: a self-signed certificate, or a private
    /// authority), as `curl --cacert` trusts them.
    Only(Arc<Vec<Certificate<'static>>>),
}

impl Trust {
    /// The certificates of the PEM file at `path`. Errors, one sentence:
    /// the file cannot be read, is not PEM, or holds no certificate.
    pub fn from_pem_file(path: &Path) -> Result<Trust, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read the certificate file {}: {e}", path.display()))?;
        let mut certificates = Vec::new();
        for item in ureq::tls::parse_pem(&bytes) {
            match item {
                Ok(PemItem::Certificate(c)) => certificates.push(c),
                Ok(_) => {}
                Err(e) => return Err(format!("{} is not a PEM file: {e}", path.display())),
            }
        }
        if certificates.is_empty() {
            return Err(format!(
                "{} holds no certificate (a PEM file with -----BEGIN CERTIFICATE-----)",
                path.display()
            ));
        }
        Ok(Trust::Only(Arc::new(certificates)))
    }

    fn roots(&self) -> RootCerts {
        match self {
            Trust::WebPki => RootCerts::WebPki,
            Trust::Only(certificates) => RootCerts::Specific(certificates.clone()),
        }
    }
}

/// A TLS failure in plain words, one sentence naming the problem; `None`
/// when `error` is no TLS failure. rustls says what went wrong in its
/// error's text (`invalid peer certificate: UnknownIssuer`).
fn tls_failure(url: &str, error: &str) -> Option<String> {
    let host = url.split("://").nth(1).and_then(|r| r.split('/').next()).unwrap_or(url);
    let certificate = |problem: &str| Some(format!("TLS with {host} failed: the server's certificate {problem}"));
    if error.contains("UnknownIssuer") {
        certificate("is not signed by an authority this client trusts (a self-signed one? trust it with --cacert FILE)")
    } else if error.contains("NotValidForName") {
        certificate("is not valid for the host name in the URL")
    } else if error.contains("Expired") {
        certificate("has expired")
    } else if error.contains("NotValidYet") {
        certificate("is not valid yet")
    } else if error.contains("invalid peer certificate") {
        certificate(&format!("was refused ({error})"))
    } else if error.contains("InvalidContentType") || error.contains("corrupt message") {
        Some(format!(
            "TLS with {host} failed: the server did not answer in TLS (an http:// server?)"
        ))
    } else if url.starts_with("https://")
        && (error.contains("rustls") || error.contains("TLS") || error.contains("tls"))
    {
        Some(format!("TLS with {host} failed: {error}"))
    } else {
        None
    }
}

/// Sends `request` to `url` (its `path` is not used) with the `ureq`
/// client: exactly the headers given (no User-Agent, Accept or
/// Accept-Encoding of ureq's own; a `Content-Length` header is left to
/// ureq, which sets it from the body), no redirects followed, every status
/// a reply, the body read up to 16 MiB, all within `timeout`. An
/// `https://` URL trusts Mozilla's roots ([`Trust::WebPki`]).
pub fn fetch(url: &str, request: &Request, timeout: Duration) -> Result<Reply, Fetched> {
    fetch_trusting(url, request, timeout, &Trust::WebPki)
}

/// [`fetch`], an `https://` URL trusting `trust`; a TLS failure is
/// [`Fetched::Failed`] with one plain sentence naming it (an unknown
/// issuer, a name mismatch, an expired certificate, no TLS at all).
pub fn fetch_trusting(url: &str, request: &Request, timeout: Duration, trust: &Trust) -> Result<Reply, Fetched> {
    let tls = TlsConfig::builder().root_certs(trust.roots()).build();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .tls_config(tls)
        .http_status_as_error(false)
        .timeout_global(Some(timeout))
        .max_redirects(0)
        .user_agent(AutoHeaderValue::None)
        .accept(AutoHeaderValue::None)
        .accept_encoding(AutoHeaderValue::None)
        .build()
        .into();
    let mut builder = ureq::http::Request::builder().method(request.method).uri(url);
    for (name, value) in request
        .headers
        .iter()
        .filter(|(n, _)| !n.eq_ignore_ascii_case("content-length"))
    {
        builder = builder.header(name, value);
    }
    let outcome = match &request.body {
        Some(body) => builder
            .body(body.clone())
            .map_err(|e| e.to_string())
            .and_then(|r| agent.run(r).map_err(|e| e.to_string())),
        None => builder
            .body(())
            .map_err(|e| e.to_string())
            .and_then(|r| agent.run(r).map_err(|e| e.to_string())),
    };
    let response = match outcome {
        Ok(response) => response,
        Err(e) if e.contains("timeout") || e.contains("Timeout") => return Err(Fetched::Timeout),
        Err(e) if tls_failure(url, &e).is_some() => return Err(Fetched::Failed(tls_failure(url, &e).unwrap_or(e))),
        Err(e) => return Err(Fetched::Failed(format!("the HTTP request failed: {e}"))),
    };
    let status = response.status().as_u16();
    let headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .map(|(n, v)| {
            (
                n.as_str().to_ascii_lowercase(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let body = response
        .into_body()
        .with_config()
        .limit(16 << 20)
        .read_to_vec()
        .map_err(|e| Fetched::Failed(format!("cannot read the response body: {e}")))?;
    Ok(Reply { status, headers, body })
}

/// The headers a conforming 2026-07-28 client sends with the JSON-RPC
/// message `body` (basic/transports/streamable-http › Sending Messages,
/// › Request Metadata): Content-Type, Accept, MCP-Protocol-Version (the
/// body's own, else 2026-07-28), Mcp-Method, and Mcp-Name for
/// `tools/call`, `resources/read` and `prompts/get`: `params.name` or
/// `params.uri`, in the Base64 sentinel when it is not a plain header value
/// (› Standard Request Headers, › Value Encoding;
/// [`crate::mcp::header_value`]).
pub fn headers_for(body: &Value) -> Vec<(String, String)> {
    let version = body
        .pointer("/params/_meta")
        .and_then(|m| m.get(crate::mcp::meta::PROTOCOL_VERSION))
        .and_then(Value::as_str)
        .unwrap_or(crate::mcp::MODERN);
    let method = body["method"].as_str().unwrap_or("");
    let mut headers = vec![
        ("Content-Type".to_string(), "application/json".to_string()),
        ("Accept".to_string(), "application/json, text/event-stream".to_string()),
        ("MCP-Protocol-Version".to_string(), version.to_string()),
        ("Mcp-Method".to_string(), method.to_string()),
    ];
    if let Some(name) = crate::mcp::header_value::mcp_name(body) {
        headers.push(("Mcp-Name".to_string(), name));
    }
    headers
}

/// Records a body on a line of its own: a frame when it is JSON, else
/// text (cut at 2,000 characters).
fn note_body(s: &mut Session, direction: Direction, body: &[u8]) {
    let text = String::from_utf8_lossy(body);
    let kind = match serde_json::from_slice::<Value>(body) {
        Ok(_) => EntryKind::Frame,
        Err(_) => EntryKind::Http,
    };
    s.note(direction, &shorten(&text, 2000), kind);
}

fn shown_headers(headers: &[(String, String)]) -> String {
    headers
        .iter()
        .filter(|(n, _)| SHOWN.contains(&n.to_ascii_lowercase().as_str()))
        .map(|(n, v)| format!(" · {n}: {v}"))
        .collect()
}

/// A request's first line and every header it carries, `POST /mcp · Host:
/// 127.0.0.1:4000 · Mcp-Method: tools/call`, and `· (no body)` without
/// one; the body goes on a line of its own.
pub fn request_line(request: &Request) -> String {
    let all: String = request.headers.iter().map(|(n, v)| format!(" · {n}: {v}")).collect();
    let none = if request.body.is_none() { " · (no body)" } else { "" };
    format!("{} {}{all}{none}", request.method, request.path)
}

/// A response's status and the headers that matter, `200 · content-type:
/// application/json`, and `· (no body)` without one; the body goes on a
/// line of its own.
pub fn status_line(reply: &Reply) -> String {
    let none = if reply.body.is_empty() { " · (no body)" } else { "" };
    format!("{}{}{none}", reply.status, shown_headers(&reply.headers))
}

/// One event of an SSE stream (WHATWG HTML › Server-sent events).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Event {
    /// The `event:` field; `message` when absent.
    pub event: String,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
    /// The `id:` field, if any.
    pub id: Option<String>,
}

/// Parses an SSE stream: fields per line, `:` comments ignored, an event
/// dispatched at each blank line when it has data.
pub fn parse_events(stream: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let mut current = Event::default();
    let mut data: Vec<&str> = Vec::new();
    for line in stream.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)) {
        if line.is_empty() {
            // An event whose data is empty is not dispatched (WHATWG HTML ›
            // Server-sent events › Dispatch the event): a priming event
            // (an id and `data:` alone) carries no message.
            if !data.is_empty() && data != [""] {
                current.data = data.join("\n");
                if current.event.is_empty() {
                    current.event = "message".into();
                }
                events.push(std::mem::take(&mut current));
            }
            current = Event::default();
            data.clear();
            continue;
        }
        if line.starts_with(':') {
            continue;
        }
        let (field, value) = line
            .split_once(':')
            .map(|(f, v)| (f, v.strip_prefix(' ').unwrap_or(v)))
            .unwrap_or((line, ""));
        match field {
            "event" => current.event = value.to_string(),
            "data" => data.push(value),
            "id" => current.id = Some(value.to_string()),
            _ => {}
        }
    }
    events
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_events_with_multiline_data_comments_and_ids() {
        let stream = ": keep-alive\n\nevent: message\ndata: {\"a\":\ndata: 1}\nid: 7\n\ndata: x\r\n\r\nretry: 100\n\n";
        let events = parse_events(stream);
        assert_eq!(
            events,
            vec![
                Event {
                    event: "message".into(),
                    data: "{\"a\":\n1}".into(),
                    id: Some("7".into())
                },
                Event {
                    event: "message".into(),
                    data: "x".into(),
                    id: None
                },
            ]
        );
    }

    #[test]
    fn an_event_with_empty_data_is_not_dispatched() {
        let events = parse_events("id: 1\ndata: \n\nevent: message\ndata: {}\n\n");
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!(events[0].data, "{}");
    }

    #[test]
    fn an_event_without_a_blank_line_after_it_is_not_dispatched() {
        assert!(parse_events("data: cut off").is_empty());
    }
}

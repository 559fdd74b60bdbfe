//! One check's connection to a Streamable HTTP server for `mcplings
//! doctor --url`: it POSTs frames (and DELETEs) with the headers a
//! conforming client sends, and records each exchange as a transcript
//! (the request line with the URL, the status line, each JSON-RPC message
//! as a frame) for the check's report and the schema check.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::features::Caller;
use crate::check::http::{self as wire, Fetched, Reply, Request, Trust};
use crate::check::report::{Direction, EntryKind, TranscriptEntry};
use crate::check::session::Finished;
use crate::check::toolkit::Failure;
use crate::mcp;

/// How long one HTTP exchange may take.
const EXCHANGE: Duration = Duration::from_secs(10);

/// One check's connection: the URL, a request counter and the transcript.
pub(super) struct HttpConn {
    url: String,
    trust: Trust,
    started: Instant,
    entries: Vec<TranscriptEntry>,
    next_id: u64,
}

impl HttpConn {
    pub(super) fn new(url: &str, trust: &Trust) -> HttpConn {
        HttpConn {
            url: url.to_string(),
            trust: trust.clone(),
            started: Instant::now(),
            entries: Vec::new(),
            next_id: 1,
        }
    }

    /// The transcript's line for `request`: `POST URL · headers`, the URL
    /// being where the request went (`request.path` is empty: doctor
    /// fetches the URL it was given).
    fn request_line(&self, request: &Request) -> String {
        let line = wire::request_line(request);
        let rest = line.strip_prefix(request.method).unwrap_or(&line).trim_start();
        format!("{} {} {rest}", request.method, self.url).trim_end().to_string()
    }

    fn note(&mut self, dir: Direction, line: &str, kind: EntryKind) {
        let id = serde_json::from_str::<Value>(line)
            .ok()
            .and_then(|v| crate::jsonrpc::frame_id(&v));
        self.entries.push(TranscriptEntry {
            dir,
            line: line.to_string(),
            id,
            time_ms: self.started.elapsed().as_millis() as u64,
            kind,
        });
    }

    /// POSTs `body` (any text) with `headers`, recording both ways.
    pub(super) fn post_text(&mut self, headers: Vec<(String, String)>, body: &str) -> Result<Reply, Failure> {
        let request = Request {
            method: "POST",
            path: "",
            headers,
            body: Some(body.as_bytes().to_vec()),
        };
        self.note(Direction::ToLearner, &self.request_line(&request), EntryKind::Http);
        self.note(Direction::ToLearner, body, EntryKind::Frame);
        let reply = wire::fetch_trusting(&self.url, &request, EXCHANGE, &self.trust).map_err(|e| match e {
            Fetched::Timeout => Failure::new(format!("no HTTP reply within {} s", EXCHANGE.as_secs())),
            Fetched::Failed(e) => Failure::new(e),
        })?;
        let sse = reply.media_type().as_deref() == Some("text/event-stream");
        self.note(Direction::FromLearner, &wire::status_line(&reply), EntryKind::Http);
        if sse {
            for event in wire::parse_events(&reply.text()) {
                self.note(Direction::FromLearner, &event.data, EntryKind::Frame);
            }
        } else if !reply.body.is_empty() {
            let kind = if reply.json().is_some() {
                EntryKind::Frame
            } else {
                EntryKind::Junk
            };
            self.note(Direction::FromLearner, &reply.text(), kind);
        }
        Ok(reply)
    }

    /// Sends a `method` request without a body (DELETE), recording both
    /// ways.
    pub(super) fn send(&mut self, method: &'static str, headers: Vec<(String, String)>) -> Result<Reply, Failure> {
        let request = Request {
            method,
            path: "",
            headers,
            body: None,
        };
        self.note(Direction::ToLearner, &self.request_line(&request), EntryKind::Http);
        let reply = wire::fetch_trusting(&self.url, &request, EXCHANGE, &self.trust).map_err(|e| match e {
            Fetched::Timeout => Failure::new(format!("no HTTP reply within {} s", EXCHANGE.as_secs())),
            Fetched::Failed(e) => Failure::new(e),
        })?;
        self.note(Direction::FromLearner, &wire::status_line(&reply), EntryKind::Http);
        Ok(reply)
    }

    /// POSTs the message `frame` with the headers a conforming client sends.
    pub(super) fn post(&mut self, frame: &Value) -> Result<Reply, Failure> {
        self.post_text(wire::headers_for(frame), &frame.to_string())
    }

    /// The finished check's transcript.
    pub(super) fn finished(self) -> Finished {
        Finished {
            transcript: self.entries,
            ..Finished::default()
        }
    }
}

/// The JSON-RPC response a reply carries: its JSON body, or the SSE event
/// that is a response.
pub(super) fn message(reply: &Reply) -> Option<Value> {
    if reply.media_type().as_deref() == Some("text/event-stream") {
        return wire::parse_events(&reply.text())
            .iter()
            .filter_map(|e| serde_json::from_str::<Value>(&e.data).ok())
            .find(|v| v.get("result").is_some() || v.get("error").is_some());
    }
    reply.json()
}

/// The reply as a value for a failure's `actual`.
pub(super) fn shown(reply: &Reply) -> Value {
    json!({"status": reply.status, "content-type": reply.header("content-type"), "body": reply.json().unwrap_or_else(|| json!(reply.text()))})
}

impl Caller for HttpConn {
    fn call(&mut self, method: &str, mut params: Value) -> Result<Value, Failure> {
        params["_meta"] = mcp::request_meta(mcp::MODERN);
        let id = self.next_id;
        self.next_id += 1;
        let frame = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let reply = self.post(&frame)?;
        match message(&reply) {
            Some(response) if response.get("id") == Some(&json!(id)) => Ok(response),
            _ => Err(Failure::showing(
                format!("the reply to `{method}` (id {id}) carries no JSON-RPC response to it"),
                shown(&reply),
            )),
        }
    }
}

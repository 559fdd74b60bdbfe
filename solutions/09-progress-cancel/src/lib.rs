//! Exercise 09 · Progress and cancellation (reference solution)
//!
//! A client supervisor around one call (2025-11-25 basic/utilities/progress
//! and cancellation, basic/lifecycle › Timeouts; the same rules on stdio in
//! 2026-07-28):
//!
//! - The request carries a fresh progress token in `_meta.progressToken`.
//! - `notifications/progress` for that token, with a `progress` greater than
//!   the last one, goes to `on_progress` and restarts the idle timer.
//!   Anything else (another token, a value that does not go up) is a
//!   protocol violation: reported through `on_violation`, not passed on.
//! - When the idle timer or the hard cap runs out, the call is cancelled
//!   with exactly one `notifications/cancelled`, and its late response, if
//!   any, is ignored. `initialize` is never cancelled.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

/// Why a message could not be received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeerError {
    /// Nothing arrived in time.
    Timeout,
    /// The server closed the connection.
    Closed,
}

/// The connection to the server: one JSON-RPC message per call.
pub trait Peer {
    /// Sends one message.
    fn send(&mut self, message: &Value) -> Result<(), PeerError>;
    /// Waits up to `timeout` for the next message from the server.
    fn recv(&mut self, timeout: Duration) -> Result<Value, PeerError>;
}

/// Which era the connection speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// After the `initialize` handshake (2025-11-25).
    Legacy,
    /// Every request carries the modern `_meta` (2026-07-28).
    Modern,
}

/// How long a call may take.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Longest silence: restarted by each valid progress notification.
    pub idle: Duration,
    /// Longest call, progress or not.
    pub cap: Duration,
}

/// One progress notification that was passed on.
#[derive(Debug, Clone, PartialEq)]
pub struct Progress {
    /// The progress so far; it only goes up.
    pub progress: f64,
    /// The total, when the server knows it.
    pub total: Option<f64>,
    /// A message for the user, if any.
    pub message: Option<String>,
}

/// How a call ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The `result` of the response.
    Result(Value),
    /// The `error` object of the response.
    Error(Value),
    /// No response in time. `cancelled` says whether a
    /// `notifications/cancelled` was sent (never for `initialize`).
    TimedOut { cancelled: bool },
}

/// Runs calls one at a time, with progress and timeouts.
#[derive(Debug)]
pub struct Supervisor {
    era: Era,
    client_info: Value,
    next_id: i64,
    next_token: u64,
}

impl Supervisor {
    /// A supervisor for a connection of `era`. `client_info` is this
    /// client's `Implementation` (sent in the modern `_meta`).
    pub fn new(era: Era, client_info: Value) -> Supervisor {
        Supervisor { era, client_info, next_id: 1, next_token: 1 }
    }

    /// Sends `method` with `params`, passes valid progress to `on_progress`,
    /// reports violations to `on_violation`, and waits within `limits`.
    ///
    /// Errors: the server closed the connection.
    pub fn call(
        &mut self,
        peer: &mut impl Peer,
        method: &str,
        params: Value,
        limits: Limits,
        on_progress: &mut dyn FnMut(&Progress),
        on_violation: &mut dyn FnMut(String),
    ) -> Result<Outcome, PeerError> {
        let id = json!(self.next_id);
        self.next_id += 1;
        let token = json!(format!("progress-{}", self.next_token));
        self.next_token += 1;
        let mut params = match params {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let meta = params.entry("_meta").or_insert_with(|| json!({}));
        meta["progressToken"] = token.clone();
        if self.era == Era::Modern {
            add_modern_meta(meta, &self.client_info);
        }
        send(peer, &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;

        let started = Instant::now();
        let cap = started + limits.cap;
        let mut idle_until = started + limits.idle;
        let mut last: Option<f64> = None;
        loop {
            let now = Instant::now();
            let until = idle_until.min(cap);
            let message = match peer.recv(until.saturating_duration_since(now)) {
                Ok(message) => message,
                Err(PeerError::Timeout) => {
                    // initialize MUST NOT be cancelled: give up on it quietly.
                    if method == "initialize" {
                        return Ok(Outcome::TimedOut { cancelled: false });
                    }
                    let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "timed out"}});
                    send(peer, &cancel)?;
                    return Ok(Outcome::TimedOut { cancelled: true });
                }
                Err(e) => return Err(e),
            };
            match message.get("method").and_then(Value::as_str) {
                Some("notifications/progress") => {
                    let p = &message["params"];
                    let Some(value) = p.get("progress").and_then(Value::as_f64) else {
                        on_violation(format!("progress without a number: {message}"));
                        continue;
                    };
                    if p.get("progressToken") != Some(&token) {
                        on_violation(format!("progress for a token this call does not hold: {}", p.get("progressToken").unwrap_or(&Value::Null)));
                    } else if last.is_some_and(|l| value <= l) {
                        on_violation(format!("progress went from {} to {value}: it must only go up", last.unwrap_or_default()));
                    } else {
                        last = Some(value);
                        idle_until = Instant::now() + limits.idle;
                        on_progress(&Progress { progress: value, total: p.get("total").and_then(Value::as_f64), message: p.get("message").and_then(Value::as_str).map(str::to_string) });
                    }
                }
                Some("ping") if message.get("id").is_some() => send(peer, &json!({"jsonrpc": "2.0", "id": message["id"], "result": {}}))?,
                Some(other) => eprintln!("ignored {other}"),
                // A malformed response is no answer, even with our id.
                None if !well_formed(&message) => on_violation(format!("a malformed response: {message}")),
                None if message.get("id") == Some(&id) => {
                    return Ok(match message.get("result") {
                        Some(result) => Outcome::Result(result.clone()),
                        None => Outcome::Error(message.get("error").cloned().unwrap_or(Value::Null)),
                    });
                }
                // A late response to a call we gave up on: an orphan.
                None => eprintln!("dropped a response for no call in flight: {message}"),
            }
        }
    }
}

/// Whether `message` is a well-formed response (JSON-RPC 2.0 §5; 2025-11-25
/// basic/index › Responses): `"jsonrpc": "2.0"`, exactly one of `result`
/// and `error`, an error being an object with an integer `code` and a
/// string `message`, and a string or integer id (absent or null only on an
/// error that answers no request).
fn well_formed(message: &Value) -> bool {
    let error_object = |e: &Value| e.get("code").is_some_and(Value::is_i64) && e.get("message").is_some_and(Value::is_string);
    let id = message.get("id");
    let id_ok = id.is_some_and(|i| i.is_string() || i.is_i64());
    message.get("jsonrpc") == Some(&json!("2.0"))
        && match (message.get("result"), message.get("error")) {
            (Some(_), None) => id_ok,
            (None, Some(error)) => error_object(error) && (id_ok || id.is_none_or(Value::is_null)),
            _ => false,
        }
}

/// Adds the modern request `_meta` fields to `meta`.
fn add_modern_meta(meta: &mut Value, client_info: &Value) {
    meta["io.modelcontextprotocol/protocolVersion"] = json!("2026-07-28");
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({});
    meta["io.modelcontextprotocol/clientInfo"] = client_info.clone();
}

fn send(peer: &mut impl Peer, message: &Value) -> Result<(), PeerError> {
    peer.send(message)
}

//! Exercise 09 · Progress and cancellation
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
//!
//! Write `Supervisor::call`. Save: mcplings rebuilds and checks, and each
//! failing case tells you what to change.

#[allow(unused_imports)]
use std::time::{Duration, Instant};

#[allow(unused_imports)]
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
        // 1. A fresh id and a fresh progress token; the token goes in
        //    params._meta.progressToken (add_modern_meta adds the rest in the
        //    modern era). Send the request.
        // 2. Wait until the idle timer or the cap runs out, whichever is
        //    first, and look at each message that arrives.
        let _ = (peer, method, params, limits, on_progress, on_violation, self.era, &self.client_info, self.next_id, self.next_token);
        todo!("send with a progress token, pass on good progress, cancel at the timeout")
    }
}

/// Adds the modern request `_meta` fields to `meta`.
#[allow(dead_code)]
fn add_modern_meta(meta: &mut Value, client_info: &Value) {
    meta["io.modelcontextprotocol/protocolVersion"] = json!("2026-07-28");
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({});
    meta["io.modelcontextprotocol/clientInfo"] = client_info.clone();
}

#[allow(dead_code)]
fn send(peer: &mut impl Peer, message: &Value) -> Result<(), PeerError> {
    peer.send(message)
}

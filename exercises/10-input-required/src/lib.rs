//! Exercise 10 · Asking the user, in two eras
//!
//! A tool call that needs the user's input mid-way:
//!
//! - Modern (2026-07-28 basic/patterns/mrtr): the server answers with a
//!   result whose `resultType` is `"input_required"`, carrying
//!   `inputRequests` (a map from key to `{method, params}`) and maybe a
//!   `requestState`. The client answers each input request through its
//!   handler and retries the call with a new id, the same name and
//!   arguments, `inputResponses` under the same keys, and the
//!   `requestState` exactly as it came (left out when none came). It stops
//!   after `max_rounds` retries. An absent `resultType` means complete.
//! - Legacy (2025-11-25 client/elicitation): the server sends its own
//!   `elicitation/create` request while the client's call is in flight; the
//!   client answers it with a response carrying the server's id, and keeps
//!   waiting for its own call.
//!
//! Write `Client::call_tool` (the modern loop) and `Client::request` (which
//! also answers the server's own requests in the legacy era). Save:
//! mcplings rebuilds and checks, and each failing case tells you what to
//! change.

use std::time::Duration;

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

/// Answers one input request: `(method, params)` to its result, or `None`
/// for a method this client does not handle.
pub type Handler<'a> = dyn FnMut(&str, &Value) -> Option<Value> + 'a;

/// Why a call failed.
#[derive(Debug, Clone, PartialEq)]
pub enum CallError {
    /// Still `input_required` after `max_rounds` retries.
    TooManyRounds(usize),
    /// An input request for a method the handler does not know.
    UnknownInputMethod(String),
    /// An error response (its error object).
    Rpc(Value),
    /// A `resultType` this client does not know.
    UnknownResultType(String),
    /// The server went away or stopped answering.
    Gone(PeerError),
}

/// The capabilities this client declares: it can answer form elicitation.
pub fn capabilities() -> Value {
    json!({"elicitation": {"form": {}}})
}

/// A client that calls tools and answers the server's questions.
#[derive(Debug)]
pub struct Client {
    era: Era,
    client_info: Value,
    next_id: i64,
    /// The most retries one call may take.
    pub max_rounds: usize,
    /// How long to wait for each message.
    pub timeout: Duration,
}

impl Client {
    /// A client for a connection of `era`.
    pub fn new(era: Era, client_info: Value) -> Client {
        Client { era, client_info, next_id: 1, max_rounds: 4, timeout: Duration::from_secs(5) }
    }

    /// Runs the legacy handshake: `initialize`, then `notifications/initialized`.
    pub fn initialize(&mut self, peer: &mut impl Peer) -> Result<Value, CallError> {
        let params = json!({"protocolVersion": "2025-11-25", "capabilities": capabilities(), "clientInfo": self.client_info});
        let result = self.request(peer, "initialize", params, &mut |_, _| None)?;
        peer.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).map_err(CallError::Gone)?;
        Ok(result)
    }

    /// Calls tool `name` with `arguments`, answering the server's input
    /// requests through `handler`; returns the final `CallToolResult`.
    pub fn call_tool(&mut self, peer: &mut impl Peer, name: &str, arguments: &Value, handler: &mut Handler) -> Result<Value, CallError> {
        let _ = (peer, name, arguments, handler);
        todo!("call, then answer input requests and retry while input_required")
    }

    /// Sends one request (a fresh id; the modern `_meta` in that era) and
    /// waits for its result. A request from the server that arrives
    /// meanwhile is answered: `ping` with `{}`, others through `handler`,
    /// or -32601 when it does not know them.
    fn request(&mut self, peer: &mut impl Peer, method: &str, mut params: Value, handler: &mut Handler) -> Result<Value, CallError> {
        let _ = (peer, method, &mut params, handler, self.era, self.next_id);
        todo!("send with a fresh id (and the modern _meta), answer server requests, return the result")
    }
}

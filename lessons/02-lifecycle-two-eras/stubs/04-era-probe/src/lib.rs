//! Exercise 04 · The era probe
//!
//! A dual-era client on stdio finds out which era its server speaks
//! (2026-07-28 basic/transports/stdio › Backward Compatibility):
//!
//! 1. Send `server/discover` with the modern `_meta`, at the newest modern
//!    version the client knows.
//! 2. A `DiscoverResult`: the server is modern. Stay modern.
//! 3. A -32022 UnsupportedProtocolVersionError is a modern error, so the
//!    server is modern too: retry with the newest version in
//!    `error.data.supported` that the client also knows, or stop with an
//!    incompatibility error when there is none. Don't fall back blindly:
//!    only when the shared version is a legacy one (a dual-era server) is
//!    `initialize` at that version the retry.
//!    Any other code from -32020 to -32099 (but -32042) is a modern error
//!    too, since the spec keeps that range for itself (2026-07-28
//!    basic/index › Error Codes; `MODERN_ERRORS`): the server is modern,
//!    yet refused the probe. Stop with `ConnectError::Protocol` naming it;
//!    never fall back.
//! 4. Any other error, or no answer within `probe_timeout`: the server is
//!    legacy. Fall back to `initialize` (2025-11-25 basic/lifecycle), then
//!    `notifications/initialized`.
//! 5. A -32022 in answer to `initialize` means the server was modern after
//!    all, only slow to answer the probe: a modern server refuses
//!    `initialize`, with a code of its choosing, and -32022 is modern
//!    evidence. Probe once more.
//!
//! Write `with_meta` (the modern `_meta`), `connect`, which runs the
//! probe, and `Connection::request`, which builds later requests for the
//! era it found. `request`, `send`,
//! `wait_for` and `error_code` at the bottom of this file are done for you.
//! Save: mcplings rebuilds and checks, and each failing case tells you what
//! to change.

use std::fmt;
use std::time::Duration;

#[allow(unused_imports)]
use serde_json::{Map, Value, json};

/// Legacy protocol versions this client speaks, newest first.
pub const LEGACY_VERSIONS: [&str; 2] = ["2025-11-25", "2025-06-18"];

/// The -32022 UnsupportedProtocolVersionError code (2026-07-28
/// basic/versioning › Protocol Version Negotiation).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;

/// The error codes the MCP specification keeps for itself, so a modern
/// server's (2026-07-28 basic/index › Error Codes), all but
/// [`URL_ELICITATION_REQUIRED`]; reading the whole range as modern is this
/// course's rule (course rule: modern-error-range).
pub const MODERN_ERRORS: std::ops::RangeInclusive<i64> = -32099..=-32020;

/// -32042, URL elicitation required: inside [`MODERN_ERRORS`] but defined
/// by 2025-11-25 only (2026-07-28 keeps it reserved), so a legacy server
/// may send it: no evidence of a modern one.
pub const URL_ELICITATION_REQUIRED: i64 = -32042;

/// The `_meta` keys every modern request carries (2026-07-28 basic/index › _meta).
pub const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// See [`META_PROTOCOL_VERSION`].
pub const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// See [`META_PROTOCOL_VERSION`].
pub const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The `_meta` key a modern server puts its name and version under.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// How to connect.
#[derive(Debug, Clone)]
pub struct Config {
    /// Modern protocol versions this client speaks, newest first.
    pub modern_versions: Vec<String>,
    /// How long to wait for an answer to the probe before deciding the
    /// server is legacy.
    pub probe_timeout: Duration,
    /// How long to wait for any other response.
    pub request_timeout: Duration,
    /// This client's `Implementation`: `{"name": …, "version": …}`.
    pub client_info: Value,
}

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

/// Which era the server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// Handshake-based (2025-11-25 and earlier).
    Legacy,
    /// Stateless, per-request `_meta` (2026-07-28 and later).
    Modern,
}

/// Why `connect` gave up.
#[derive(Debug, Clone, PartialEq)]
pub enum ConnectError {
    /// The server speaks no protocol version this client knows; `offered`
    /// is what it named.
    Incompatible { offered: Vec<String> },
    /// The server closed the connection.
    Closed,
    /// The server did not answer a request in time.
    Timeout { method: String },
    /// The server answered in a way the protocol does not allow.
    Protocol(String),
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConnectError::Incompatible { offered } => write!(f, "no protocol version in common: the server offers {}", offered.join(", ")),
            ConnectError::Closed => write!(f, "the server closed the connection"),
            ConnectError::Timeout { method } => write!(f, "no answer to {method}"),
            ConnectError::Protocol(what) => write!(f, "protocol error: {what}"),
        }
    }
}

/// A connection whose era and version are settled.
#[derive(Debug, Clone)]
pub struct Connection {
    /// The server's era.
    pub era: Era,
    /// The protocol version in use.
    pub version: String,
    /// The server's capabilities (from `DiscoverResult` or `InitializeResult`).
    pub server_capabilities: Value,
    /// The server's `Implementation`, when it named itself.
    pub server_info: Option<Value>,
    client_info: Value,
    next_id: i64,
}

impl Connection {
    /// Builds the next request for this connection, with a fresh id. In
    /// the modern era its `params._meta` carries the protocol version,
    /// the client's capabilities and its info; in the legacy era the
    /// session already knows them, and nothing is added.
    pub fn request(&mut self, method: &str, params: Option<Value>) -> Value {
        let _ = (method, params, &self.client_info, self.next_id);
        todo!("a fresh id; in the modern era, params._meta with the three fields")
    }
}

/// Finds the server's era and settles the protocol version; see the
/// module documentation for the rules.
///
/// Errors: [`ConnectError::Incompatible`] when no version is shared,
/// [`ConnectError::Closed`] or [`ConnectError::Timeout`] when the server
/// goes away or stops answering after the probe, and
/// [`ConnectError::Protocol`] when it answers `initialize` with an error.
pub fn connect(peer: &mut impl Peer, config: &Config) -> Result<Connection, ConnectError> {
    // 1. Probe: send request(1, "server/discover", Some(with_meta(None, …)))
    //    and wait_for(peer, 1, config.probe_timeout).
    // 2. Decide by the answer, as the list at the top of this file says.
    // 3. Legacy: initialize with a fresh id, check the version the server
    //    chose, then send notifications/initialized.
    let _ = (peer, config);
    todo!("probe with server/discover, then stay modern or fall back to initialize")
}

/// The `error.code` of a response, if it is an error response.
#[allow(dead_code)]
fn error_code(response: &Value) -> Option<i64> {
    response.pointer("/error/code").and_then(Value::as_i64)
}

#[allow(dead_code)]
fn request(id: i64, method: &str, params: Option<Value>) -> Value {
    let mut frame = json!({"jsonrpc": "2.0", "id": id, "method": method});
    if let Some(params) = params {
        frame["params"] = params;
    }
    frame
}

/// `params` with the modern request `_meta` added.
#[allow(dead_code)]
fn with_meta(params: Option<Value>, version: &str, client_info: &Value) -> Value {
    // Keep whatever params there are, and add `_meta` with
    // META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES ({} here: this
    // client offers no optional capability) and META_CLIENT_INFO.
    let _ = (params, version, client_info);
    todo!("params with the modern _meta")
}

#[allow(dead_code)]
fn send(peer: &mut impl Peer, message: &Value) -> Result<(), ConnectError> {
    peer.send(message).map_err(|_| ConnectError::Closed)
}

/// Whether `message` is a well-formed response: `"jsonrpc": "2.0"` and
/// exactly one of `result` and `error` ("both members MUST NOT be
/// included", JSON-RPC 2.0 §5), an error being an object with an integer
/// `code` and a string `message` (2025-11-25 basic/index › Responses).
#[allow(dead_code)]
fn well_formed(message: &Value) -> bool {
    let error_object = |e: &Value| e.get("code").is_some_and(Value::is_i64) && e.get("message").is_some_and(Value::is_string);
    message.get("jsonrpc") == Some(&json!("2.0"))
        && match (message.get("result"), message.get("error")) {
            (Some(_), None) => true,
            (None, Some(error)) => error_object(error),
            _ => false,
        }
}

/// Waits for the response with id `id`. Notifications, stray responses and
/// malformed ones that arrive first are logged and skipped; a `ping` from
/// the server is answered (a legacy server may ping during the handshake).
#[allow(dead_code)]
fn wait_for(peer: &mut impl Peer, id: i64, timeout: Duration) -> Result<Value, ConnectError> {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let message = match peer.recv(left) {
            Ok(message) => message,
            Err(PeerError::Timeout) => return Err(ConnectError::Timeout { method: format!("request {id}") }),
            Err(PeerError::Closed) => return Err(ConnectError::Closed),
        };
        match (message.get("method").and_then(Value::as_str), message.get("id")) {
            // Only a well-formed response is an answer: a malformed one with
            // our id is skipped like any stray message.
            (None, Some(got)) if *got == json!(id) && well_formed(&message) => return Ok(message),
            (Some("ping"), Some(ping_id)) => send(peer, &json!({"jsonrpc": "2.0", "id": ping_id, "result": {}}))?,
            (Some(method), Some(request_id)) => send(peer, &json!({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": format!("Method not found: {method}")}}))?,
            _ => eprintln!("skipped while waiting for response {id}: {message}"),
        }
    }
}

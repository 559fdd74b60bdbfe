//! Exercise 04 · The era probe (reference solution)
//!
//! A dual-era client on stdio finds out which era its server speaks
//! (2026-07-28 basic/versioning › Backward Compatibility):
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
//!    Any other code from -32020 to -32099 is a modern error too, since
//!    only the spec defines codes there (2026-07-28 basic/index › Error
//!    Codes): the server is modern, yet refused the probe. Stop with
//!    `ConnectError::Protocol` naming it; never fall back.
//! 4. Any other error, or no answer within `probe_timeout`: the server is
//!    legacy. Fall back to `initialize` (2025-11-25 basic/lifecycle), then
//!    `notifications/initialized`.
//! 5. A -32022 in answer to `initialize` means the server was modern after
//!    all, only slow to answer the probe: probe once more.
//!
//! `connect` runs the probe; `Connection::request` builds later requests
//! for the era it found.

use std::fmt;
use std::time::Duration;

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
        let id = self.next_id;
        self.next_id += 1;
        let params = match self.era {
            Era::Modern => Some(with_meta(params, &self.version, &self.client_info)),
            Era::Legacy => params,
        };
        request(id, method, params)
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
    let newest = config.modern_versions.first().cloned().ok_or(ConnectError::Incompatible { offered: Vec::new() })?;
    let mut step = Step::Probe(newest);
    // Versions the server refused with -32022, so none is tried twice.
    let mut refused: Vec<String> = Vec::new();
    let mut reprobed = false;
    let mut next_id = 1;
    loop {
        let id = next_id;
        next_id += 1;
        match step {
            Step::Probe(version) => {
                send(peer, &request(id, "server/discover", Some(with_meta(None, &version, &config.client_info))))?;
                let answer = match wait_for(peer, id, config.probe_timeout) {
                    Ok(answer) => answer,
                    // Silence: a legacy server that ignores unknown methods.
                    Err(ConnectError::Timeout { .. }) => {
                        step = Step::Initialize(LEGACY_VERSIONS[0].to_string());
                        continue;
                    }
                    Err(e) => return Err(e),
                };
                if let Some(result) = answer.get("result") {
                    return Ok(Connection {
                        era: Era::Modern,
                        version,
                        server_capabilities: result.get("capabilities").cloned().unwrap_or_else(|| json!({})),
                        server_info: result.pointer("/_meta").and_then(|m| m.get(META_SERVER_INFO)).cloned(),
                        client_info: config.client_info.clone(),
                        next_id,
                    });
                }
                if !error_code(&answer).is_some_and(|code| MODERN_ERRORS.contains(&code) && code != URL_ELICITATION_REQUIRED) {
                    // Any other error means legacy; never key this on one code.
                    step = Step::Initialize(LEGACY_VERSIONS[0].to_string());
                    continue;
                }
                if error_code(&answer) != Some(UNSUPPORTED_PROTOCOL_VERSION) {
                    // Modern, yet the probe is refused: no fallback.
                    return Err(ConnectError::Protocol(format!("server/discover refused: {}", answer["error"])));
                }
                refused.push(version);
                step = after_unsupported(config, &answer, &refused)?;
            }
            Step::Initialize(version) => {
                let params = json!({"protocolVersion": version, "capabilities": {}, "clientInfo": config.client_info});
                send(peer, &request(id, "initialize", Some(params)))?;
                let answer = wait_for(peer, id, config.request_timeout)?;
                if let Some(result) = answer.get("result") {
                    return confirm(peer, config, result, next_id);
                }
                if error_code(&answer) == Some(UNSUPPORTED_PROTOCOL_VERSION) && !reprobed {
                    // A modern server that was only slow to answer the
                    // probe: -32022 to initialize is modern evidence too.
                    // Probe once more.
                    reprobed = true;
                    step = after_unsupported(config, &answer, &refused)?;
                    continue;
                }
                return Err(ConnectError::Protocol(format!("initialize failed: {}", answer.get("error").unwrap_or(&Value::Null))));
            }
        }
    }
}

/// What `connect` does next.
enum Step {
    /// Send `server/discover` at this modern version.
    Probe(String),
    /// Send `initialize` at this legacy version.
    Initialize(String),
}

/// The step after a -32022 answer: the newest version in
/// `error.data.supported` that this client knows and the server has not
/// refused. A modern one is probed; a legacy one means a dual-era server,
/// and `initialize` at that version is the retry.
fn after_unsupported(config: &Config, answer: &Value, refused: &[String]) -> Result<Step, ConnectError> {
    let offered: Vec<String> = answer.pointer("/error/data/supported").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect();
    if let Some(modern) = config.modern_versions.iter().find(|v| offered.contains(v) && !refused.contains(v)) {
        return Ok(Step::Probe(modern.clone()));
    }
    match LEGACY_VERSIONS.iter().find(|v| offered.iter().any(|o| o == *v)) {
        Some(legacy) => Ok(Step::Initialize(legacy.to_string())),
        None => Err(ConnectError::Incompatible { offered }),
    }
}

/// Ends the legacy handshake: checks the version the server chose, then
/// sends `notifications/initialized`. `next_id` is the first unused id.
fn confirm(peer: &mut impl Peer, config: &Config, result: &Value, next_id: i64) -> Result<Connection, ConnectError> {
    let version = result.get("protocolVersion").and_then(Value::as_str).unwrap_or_default().to_string();
    if !LEGACY_VERSIONS.contains(&version.as_str()) {
        // A counter-offer this client can't speak: disconnect, and never
        // confirm the session with `initialized`.
        return Err(ConnectError::Incompatible { offered: vec![version] });
    }
    send(peer, &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    Ok(Connection {
        era: Era::Legacy,
        version,
        server_capabilities: result.get("capabilities").cloned().unwrap_or_else(|| json!({})),
        server_info: result.get("serverInfo").cloned(),
        client_info: config.client_info.clone(),
        next_id,
    })
}

/// The `error.code` of a response, if it is an error response.
fn error_code(response: &Value) -> Option<i64> {
    response.pointer("/error/code").and_then(Value::as_i64)
}

fn request(id: i64, method: &str, params: Option<Value>) -> Value {
    let mut frame = json!({"jsonrpc": "2.0", "id": id, "method": method});
    if let Some(params) = params {
        frame["params"] = params;
    }
    frame
}

/// `params` with the modern request `_meta` added.
fn with_meta(params: Option<Value>, version: &str, client_info: &Value) -> Value {
    let mut params = match params {
        Some(Value::Object(map)) => map,
        _ => Map::new(),
    };
    let meta = params.entry("_meta").or_insert_with(|| json!({}));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert(META_PROTOCOL_VERSION.into(), json!(version));
        meta.insert(META_CLIENT_CAPABILITIES.into(), json!({}));
        meta.insert(META_CLIENT_INFO.into(), client_info.clone());
    }
    Value::Object(params)
}

fn send(peer: &mut impl Peer, message: &Value) -> Result<(), ConnectError> {
    peer.send(message).map_err(|_| ConnectError::Closed)
}

/// Whether `message` is a well-formed response: `"jsonrpc": "2.0"` and
/// exactly one of `result` and `error` ("both members MUST NOT be
/// included", JSON-RPC 2.0 §5), an error being an object with an integer
/// `code` and a string `message` (2025-11-25 basic/index › Responses).
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

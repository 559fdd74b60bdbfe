//! Exercise 03 · The handshake gate (reference solution)
//!
//! A legacy-era MCP server (2025-11-25 basic/lifecycle) guards its session
//! with a three-phase state machine:
//!
//! ```text
//! AwaitingInitialize --initialize--> AwaitingInitialized --notifications/initialized--> Ready
//! ```
//!
//! `Server::handle` takes one incoming message and returns the response to
//! write back, or `None` when nothing must be written (a notification, a
//! response, a message that is not a request).

use serde_json::{Value, json};

/// The protocol versions this server implements, newest first. It answers
/// an `initialize` for one of them with that version, and any other with
/// the first (2025-11-25 basic/lifecycle › Version Negotiation).
pub const SUPPORTED_VERSIONS: [&str; 2] = ["2025-11-25", "2025-06-18"];

/// JSON-RPC's "Invalid Request" code. This server uses it for a request
/// the current phase does not allow; the spec names no code for that, and
/// SDKs differ (the Python SDK answers -32602).
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's "Method not found" code.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC's "Invalid params" code.
pub const INVALID_PARAMS: i64 = -32602;

/// Where the handshake stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Nothing but `initialize` (and `ping`) is served yet.
    AwaitingInitialize,
    /// `initialize` was answered; the client's `notifications/initialized`
    /// has not arrived.
    AwaitingInitialized,
    /// The session is open.
    Ready,
}

/// A legacy MCP server with one tool, `echo`.
#[derive(Debug)]
pub struct Server {
    phase: Phase,
    /// The version agreed in `initialize`.
    version: Option<String>,
}

impl Default for Server {
    fn default() -> Self {
        Server::new()
    }
}

impl Server {
    /// A server waiting for `initialize`.
    pub fn new() -> Server {
        Server { phase: Phase::AwaitingInitialize, version: None }
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The negotiated protocol version, once `initialize` was answered.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// Handles one incoming message and returns the response to write, or
    /// `None` when nothing must be written.
    pub fn handle(&mut self, message: &Value) -> Option<Value> {
        let method = message.get("method").and_then(Value::as_str);
        let id = message.get("id");
        let (method, id) = match (method, id) {
            // A notification: never answered (2025-11-25 basic/index › Notifications).
            (Some(method), None) => {
                if method == "notifications/initialized" && self.phase == Phase::AwaitingInitialized {
                    self.phase = Phase::Ready;
                }
                return None;
            }
            (Some(method), Some(id)) => (method, id.clone()),
            // A response, or something that is no message at all: this
            // server sends no requests, so nothing waits for a response.
            _ => {
                eprintln!("dropped a message that is not a request or notification: {message}");
                return None;
            }
        };
        // MCP ids are strings or integers; any other id (null, 1.5) makes
        // the frame invalid, so the error leaves the id out (2025-11-25
        // basic/index › Requests, › Error Responses).
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return Some(json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request: the id must be a string or an integer"}}));
        }
        let params = message.get("params");
        let answer = match (method, self.phase) {
            // Ping is served in every phase (2025-11-25 basic/utilities/ping).
            ("ping", _) => Ok(json!({})),
            ("initialize", Phase::AwaitingInitialize) => self.initialize(params),
            ("initialize", _) => Err((INVALID_REQUEST, "Invalid Request: the session is already initialized".to_string())),
            (_, Phase::AwaitingInitialize) => Err((INVALID_REQUEST, format!("Invalid Request: `{method}` before initialize; send initialize first"))),
            (method, _) => serve(method, params),
        };
        Some(match answer {
            Ok(result) => respond(&id, result),
            Err((code, message)) => refuse(&id, code, &message),
        })
    }

    fn initialize(&mut self, params: Option<&Value>) -> Result<Value, (i64, String)> {
        let Some(requested) = params.and_then(|p| p.get("protocolVersion")).and_then(Value::as_str) else {
            return Err((INVALID_PARAMS, "Invalid params: initialize needs params.protocolVersion".to_string()));
        };
        // Echo a version we implement; otherwise offer our latest.
        let version = if SUPPORTED_VERSIONS.contains(&requested) { requested } else { SUPPORTED_VERSIONS[0] };
        self.version = Some(version.to_string());
        self.phase = Phase::AwaitingInitialized;
        Ok(json!({
            "protocolVersion": version,
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "handshake-gate", "version": "0.1.0"},
        }))
    }
}

/// A success response to the request with id `id`.
fn respond(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error response to the request with id `id`.
fn refuse(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Serves a request once `initialize` has been answered. This server
/// advertised only the `tools` capability, so every other feature's
/// methods are unknown here (-32601).
fn serve(method: &str, params: Option<&Value>) -> Result<Value, (i64, String)> {
    match method {
        "tools/list" => Ok(json!({"tools": tools()})),
        "tools/call" => call_tool(params),
        _ => Err((METHOD_NOT_FOUND, format!("Method not found: {method}"))),
    }
}

/// The tools this server offers: one, `echo`.
pub fn tools() -> Value {
    json!([{
        "name": "echo",
        "description": "Returns the text it is given.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"]
        }
    }])
}

/// Runs `tools/call`: an unknown tool is a protocol error (-32602); bad
/// arguments are a tool error (`isError: true`), so the model can correct
/// itself (2025-11-25 server/tools › Error Handling).
fn call_tool(params: Option<&Value>) -> Result<Value, (i64, String)> {
    let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
    if name != Some("echo") {
        return Err((INVALID_PARAMS, format!("Unknown tool: {}", name.unwrap_or("(none)"))));
    }
    match params.and_then(|p| p.pointer("/arguments/text")).and_then(Value::as_str) {
        Some(text) => Ok(json!({"content": [{"type": "text", "text": text}]})),
        None => Ok(json!({"content": [{"type": "text", "text": "echo needs a string argument `text`"}], "isError": true})),
    }
}

//! Exercise 03 · The handshake gate
//!
//! A legacy-era MCP server (2025-11-25 basic/lifecycle) guards its session
//! with a three-phase state machine:
//!
//! ```text
//! AwaitingInitialize --initialize--> AwaitingInitialized --notifications/initialized--> Ready
//! ```
//!
//! Write `Server::handle`: it takes one incoming message and returns the
//! response to write back, or `None` when nothing must be written. The
//! rules, in the order the checker tries them:
//!
//! - `initialize` gets a result with a protocol version this server
//!   implements: the one requested if it is in `SUPPORTED_VERSIONS`,
//!   otherwise the newest one (a counter-offer, not an error);
//! - `ping` is answered with an empty result in every phase;
//! - any other request before `initialize` gets an error response with the
//!   request's own id: never silence;
//! - notifications are never answered; `notifications/initialized` moves
//!   `AwaitingInitialized` to `Ready`, and changes nothing in another phase;
//! - a second `initialize` gets an error response and changes nothing;
//! - once `initialize` is answered, requests go to `serve` (done for you),
//!   before `notifications/initialized` too;
//! - every response carries the request's id exactly, in type and value; a
//!   request whose id is not a string or an integer gets -32600 with no id.
//!
//! Then fix the bug marked TODO in `src/main.rs`. Save: mcplings rebuilds
//! and checks, and each failing case tells you what to change.

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
        // Tell the three shapes apart first (Part 1): a request has a
        // method and an id, a notification a method and no id. Then decide
        // by method and phase. `respond` and `refuse` below build the two
        // kinds of response; `serve` answers requests once initialized.
        let _ = message;
        todo!("answer initialize, ping, notifications and early requests by phase")
    }
}

/// A success response to the request with id `id`.
#[allow(dead_code)]
fn respond(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// An error response to the request with id `id`.
#[allow(dead_code)]
fn refuse(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Serves a request once `initialize` has been answered. This server
/// advertised only the `tools` capability, so every other feature's
/// methods are unknown here (-32601).
#[allow(dead_code)]
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

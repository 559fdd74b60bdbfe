//! Exercise 11 · The capstone server (reference solution)
//!
//! A complete dual-era MCP server on stdio. A legacy client opens a session
//! with `initialize` (2025-11-25 basic/lifecycle); a modern client sends
//! each request self-contained, with its version and capabilities in
//! `_meta` (2026-07-28 basic/index). Both get the same features
//! (`features.rs`), and both may ask for progress on the long tool and
//! cancel it (2025-11-25 basic/utilities/progress and cancellation;
//! 2026-07-28 basic/patterns/progress and cancellation).
//!
//! Every frame goes out through an [`Outbox`], so a call still running
//! on its own thread can send progress and, at the end, its response,
//! while the stdio loop goes on reading.

pub mod features;

use std::collections::HashSet;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use features::{Call, STEP_MS};

/// Which era a request belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// Inside a session opened by `initialize` (2025-11-25 and earlier).
    Legacy,
    /// A self-contained request carrying the modern `_meta` (2026-07-28).
    Modern,
}

/// A JSON-RPC error object: the request fails as a whole.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    /// The error code, e.g. -32602.
    pub code: i64,
    /// One sentence for the client's log.
    pub message: String,
}

impl RpcError {
    /// -32602 Invalid params.
    pub fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError { code: -32602, message: message.into() }
    }
}

/// Where frames go: each [`Outbox::send`] becomes one line on stdout.
/// Clone it to send from another thread.
#[derive(Debug, Clone)]
pub struct Outbox(Sender<Value>);

impl Outbox {
    /// An outbox feeding `tx` (the harness writes what arrives there).
    pub fn new(tx: Sender<Value>) -> Outbox {
        Outbox(tx)
    }

    /// Queues one frame. A closed stdout drops it: nobody is listening.
    pub fn send(&self, frame: Value) {
        let _ = self.0.send(frame);
    }
}

/// Legacy versions this server implements, newest first.
pub const LEGACY_VERSIONS: [&str; 2] = ["2025-11-25", "2025-06-18"];
/// Modern versions this server implements.
pub const MODERN_VERSIONS: [&str; 1] = ["2026-07-28"];

/// Every version this dual-era server implements, modern first: what
/// `server/discover` and a -32022 error list, so a client may pick either
/// era (2026-07-28 basic/versioning › Protocol Version Negotiation, whose
/// example lists `["2026-07-28", "2025-11-25"]`).
fn all_versions() -> Vec<&'static str> {
    MODERN_VERSIONS.iter().chain(LEGACY_VERSIONS.iter()).copied().collect()
}
/// The `_meta` key of a modern request's protocol version.
pub const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key of a modern request's client capabilities.
pub const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// 2026-07-28's UnsupportedProtocolVersionError code.
pub const UNSUPPORTED_VERSION: i64 = -32022;

fn capabilities() -> Value {
    json!({"tools": {}, "resources": {}, "prompts": {}})
}

fn server_info() -> Value {
    json!({"name": "capstone-server", "version": "0.1.0"})
}

/// Whether results of `method` may be cached (2026-07-28: they carry
/// `ttlMs` and `cacheScope`).
pub fn cacheable(method: &str) -> bool {
    matches!(method, "server/discover" | "tools/list" | "resources/list" | "resources/templates/list" | "resources/read" | "prompts/list")
}

/// Finishes a result for its era: modern results carry `resultType`, and
/// cacheable ones `ttlMs` (milliseconds) and `cacheScope`.
pub fn finish(era: Era, method: &str, mut result: Value) -> Value {
    if era == Era::Modern {
        result["resultType"] = json!("complete");
        if cacheable(method) {
            result["ttlMs"] = json!(60_000);
            result["cacheScope"] = json!("public");
        }
    }
    result
}

/// The ids of the calls still running, each as its JSON text (so `1` and
/// `"1"` stay apart). A call that is no longer here was cancelled, or has
/// answered.
type Running = Arc<Mutex<HashSet<String>>>;

/// A dual-era server.
#[derive(Debug, Default)]
pub struct Server {
    /// The version `initialize` settled, once it did.
    session: Option<String>,
    running: Running,
}

impl Server {
    /// A server no client has opened a session with.
    pub fn new() -> Server {
        Server::default()
    }

    /// Handles one message from the client, sending what it calls for
    /// through `out`: a response for a request, now or (for a countdown)
    /// later; nothing for a notification or a response.
    pub fn handle(&mut self, message: &Value, out: &Outbox) {
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            eprintln!("ignored a message that is not a request or a notification: {message}");
            return;
        };
        let params = message.get("params").cloned().unwrap_or_else(|| json!({}));
        let Some(id) = message.get("id").cloned() else {
            return self.notification(method, &params);
        };
        // MCP ids are strings or integers; any other id (null, 1.5) makes
        // the frame invalid, and the error leaves the id out (2025-11-25
        // basic/index › Requests, › Error Responses).
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return out.send(json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request: the id must be a string or an integer"}}));
        }
        let reply = |outcome: Result<Value, RpcError>| match outcome {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => {
                let mut error = json!({"code": e.code, "message": e.message});
                if e.code == UNSUPPORTED_VERSION {
                    error["data"] = json!({"supported": all_versions(), "requested": params.pointer("/_meta").and_then(|m| m.get(META_VERSION))});
                }
                json!({"jsonrpc": "2.0", "id": id, "error": error})
            }
        };
        let era = match self.era(method, &params) {
            Ok(Some(era)) => era,
            Ok(None) => return out.send(reply(self.lifecycle(method, &params))),
            Err(e) => return out.send(reply(Err(e))),
        };
        let outcome = match method {
            "tools/call" => match features::call_tool(params.get("name").and_then(Value::as_str).unwrap_or(""), params.get("arguments").unwrap_or(&json!({}))) {
                Ok(Call::Done(result)) => Ok(result),
                Ok(Call::Countdown(steps)) => return self.countdown(&id, steps, params.pointer("/_meta/progressToken").cloned(), era, out),
                Err(e) => Err(e),
            },
            _ => route(method, &params, era),
        };
        out.send(reply(outcome.map(|result| finish(era, method, result))));
    }

    /// Which era `method` belongs to: `Ok(None)` for what the lifecycle
    /// answers itself (`initialize`, a legacy `ping`).
    ///
    /// Errors: -32022 for a modern version this server does not implement;
    /// -32602 for a modern request without client capabilities (they are
    /// per request: never taken from an earlier one); -32600 for a legacy
    /// request before `initialize`.
    fn era(&self, method: &str, params: &Value) -> Result<Option<Era>, RpcError> {
        let meta = params.get("_meta");
        match (meta.and_then(|m| m.get(META_VERSION)), method) {
            (Some(version), _) => {
                if !version.as_str().is_some_and(|v| MODERN_VERSIONS.contains(&v)) {
                    return Err(RpcError { code: UNSUPPORTED_VERSION, message: format!("Unsupported protocol version: {version}") });
                }
                if !meta.and_then(|m| m.get(META_CAPABILITIES)).is_some_and(Value::is_object) {
                    return Err(RpcError::invalid_params(format!("Missing _meta[\"{META_CAPABILITIES}\"]")));
                }
                Ok(Some(Era::Modern))
            }
            (None, "initialize" | "ping") => Ok(None),
            (None, _) if self.session.is_some() => Ok(Some(Era::Legacy)),
            (None, _) => Err(RpcError { code: -32600, message: format!("Invalid Request: `{method}` before initialize") }),
        }
    }

    /// `initialize` (version negotiation: the one asked for if this server
    /// implements it, else its newest) and a legacy `ping`.
    fn lifecycle(&mut self, method: &str, params: &Value) -> Result<Value, RpcError> {
        if method == "ping" {
            return Ok(json!({}));
        }
        if self.session.is_some() {
            return Err(RpcError { code: -32600, message: "Invalid Request: the session is already initialized".into() });
        }
        let requested = params.get("protocolVersion").and_then(Value::as_str).unwrap_or("");
        let version = if LEGACY_VERSIONS.contains(&requested) { requested } else { LEGACY_VERSIONS[0] };
        self.session = Some(version.to_string());
        Ok(json!({"protocolVersion": version, "capabilities": capabilities(), "serverInfo": server_info()}))
    }

    /// A notification: never answered. `notifications/cancelled` stops the
    /// call it names, if it is still running; an unknown or finished id is
    /// ignored (2025-11-25 basic/utilities/cancellation › Error Handling).
    fn notification(&mut self, method: &str, params: &Value) {
        if method == "notifications/cancelled" {
            let Some(id) = params.get("requestId") else { return };
            let stopped = self.running.lock().unwrap_or_else(|e| e.into_inner()).remove(&id.to_string());
            let reason = params.get("reason").and_then(Value::as_str).unwrap_or("no reason given");
            eprintln!("cancelled {id} ({reason}): {}", if stopped { "stopped" } else { "not running, ignored" });
        }
    }

    /// Runs a countdown on its own thread: a step every [`STEP_MS`], a
    /// `notifications/progress` after each when the request carried a
    /// progress token, then the response. A cancellation stops it
    /// between steps: no more progress, and no response at all.
    fn countdown(&self, id: &Value, steps: i64, token: Option<Value>, era: Era, out: &Outbox) {
        let key = id.to_string();
        self.running.lock().unwrap_or_else(|e| e.into_inner()).insert(key.clone());
        let (id, running, out) = (id.clone(), Arc::clone(&self.running), out.clone());
        std::thread::spawn(move || {
            for step in 1..=steps {
                std::thread::sleep(Duration::from_millis(STEP_MS));
                // The lock makes "still running?" and the send one step, so a
                // cancel either comes before this frame or after it.
                let live = running.lock().unwrap_or_else(|e| e.into_inner());
                if !live.contains(&key) {
                    return;
                }
                if let Some(token) = &token {
                    let params = json!({"progressToken": token, "progress": step, "total": steps, "message": format!("step {step} of {steps}")});
                    out.send(json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params}));
                }
            }
            if running.lock().unwrap_or_else(|e| e.into_inner()).remove(&key) {
                let result = finish(era, "tools/call", features::countdown_result(steps));
                out.send(json!({"jsonrpc": "2.0", "id": id, "result": result}));
            }
        });
    }
}

/// Every request but `tools/call`, in an era already settled.
fn route(method: &str, params: &Value, era: Era) -> Result<Value, RpcError> {
    let arguments = params.get("arguments").unwrap_or(&Value::Null);
    match (method, era) {
        ("server/discover", Era::Modern) => Ok(json!({"supportedVersions": all_versions(), "capabilities": capabilities(), "_meta": {"io.modelcontextprotocol/serverInfo": server_info()}})),
        ("tools/list", _) => Ok(json!({"tools": features::tools()})),
        ("resources/list", _) => Ok(json!({"resources": features::resources()})),
        ("resources/templates/list", _) => Ok(json!({"resourceTemplates": []})),
        ("resources/read", _) => features::read_resource(params.get("uri").and_then(Value::as_str).unwrap_or(""), era),
        ("prompts/list", _) => Ok(json!({"prompts": features::prompts()})),
        ("prompts/get", _) => features::get_prompt(params.get("name").and_then(Value::as_str).unwrap_or(""), arguments),
        _ => Err(RpcError { code: -32601, message: format!("Method not found: {method}") }),
    }
}

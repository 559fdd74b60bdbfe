//! Exercise 07 · A server with something to offer
//!
//! A dual-era MCP server: tools, resources and a prompt, served to a legacy
//! client after the `initialize` handshake (2025-11-25) and to a modern
//! client request by request (2026-07-28). The era plumbing is at the end
//! of this file: `Server::handle` answers the handshake, checks the modern
//! `_meta`, answers `server/discover`, and calls the feature functions.
//!
//! Write the five feature functions marked `todo!`: `tools_page`,
//! `call_tool`, `read_resource`, `get_prompt` and `finish`. The data they
//! serve (`tools()`, `resources()`, …) is given. Save: mcplings rebuilds and
//! checks, and each failing case tells you what to change.

use serde_json::{Value, json};

/// Tools per `tools/list` page; small, so that listing takes two pages.
pub const PAGE_SIZE: usize = 3;

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
    /// -32602 Invalid params: an unknown tool or prompt, a missing
    /// argument, an invalid cursor, a missing resource (2026-07-28).
    pub fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError { code: -32602, message: message.into() }
    }
}

/// -32002 Resource not found: the legacy era's code (2025-11-25
/// server/resources › Error Handling); 2026-07-28 uses -32602 instead.
pub const RESOURCE_NOT_FOUND: i64 = -32002;

/// The tools, in their stable order.
pub fn tools() -> Vec<Value> {
    vec![
        json!({"name": "greet", "description": "Greets someone by name.", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}),
        json!({"name": "describe", "description": "Shows one of each kind of content block.", "inputSchema": {"type": "object", "additionalProperties": false}}),
        json!({
            "name": "add",
            "description": "Adds two integers.",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]},
            "outputSchema": {"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]}
        }),
        json!({
            "name": "set_volume",
            "description": "Sets the speaker volume, from 0 to 10.",
            "inputSchema": {"type": "object", "properties": {"level": {"type": "integer", "minimum": 0, "maximum": 10}}, "required": ["level"]},
            "annotations": {"idempotentHint": true, "destructiveHint": false}
        }),
    ]
}

/// The resources `resources/list` names.
pub fn resources() -> Vec<Value> {
    vec![
        json!({"uri": "file:///notes/readme.md", "name": "readme", "mimeType": "text/markdown"}),
        json!({"uri": "file:///images/pixel.png", "name": "pixel", "mimeType": "image/png"}),
    ]
}

/// The resource templates (RFC 6570 URI templates).
pub fn resource_templates() -> Vec<Value> {
    vec![json!({"uriTemplate": "weather://forecast/{city}", "name": "forecast", "mimeType": "text/plain"})]
}

/// The prompts.
pub fn prompts() -> Vec<Value> {
    vec![json!({"name": "summarize", "description": "Asks for a summary of a text.", "arguments": [{"name": "text", "description": "The text to summarize.", "required": true}]})]
}

/// A 1×1 transparent PNG, base64.
pub const PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/// One page of `tools/list`: `{"tools": […], "nextCursor": …}`, the cursor
/// only when more tools follow: only an absent `nextCursor` ends the list
/// (2026-07-28 server/utilities/pagination › Implementation Guidelines).
/// The cursor is opaque to the client; here it is `tools@<index>`.
///
/// Errors: -32602 for a cursor this server did not hand out (2025-11-25
/// server/utilities/pagination › Error Handling).
pub fn tools_page(cursor: Option<&str>) -> Result<Value, RpcError> {
    let _ = cursor;
    todo!("a page of PAGE_SIZE tools, nextCursor while more follow")
}

/// A text content block.
#[allow(dead_code)]
fn text(text: impl Into<String>) -> Value {
    json!({"type": "text", "text": text.into()})
}

/// A tool error the model can read and correct (`isError: true`).
#[allow(dead_code)]
fn tool_error(message: impl Into<String>) -> Value {
    json!({"content": [text(message)], "isError": true})
}

/// Runs `tools/call`. An unknown tool, or `arguments` that is not an object
/// (a malformed request), is a protocol error (-32602); bad input is a tool
/// error (`isError: true`, 2025-11-25 server/tools › Error Handling,
/// SEP-1303), so the model sees what to fix.
pub fn call_tool(name: &str, arguments: &Value) -> Result<Value, RpcError> {
    let _ = (name, arguments);
    todo!("run greet, describe, add and set_volume")
}

#[allow(dead_code)]
const README: &str = "# Notes\n\nThis server speaks both eras of MCP.\n";

/// Runs `resources/read`: `{"contents": [ … ]}`, text or base64 blob.
///
/// Errors: a URI no resource or template matches: -32002 in the legacy era
/// (a SHOULD, 2025-11-25 server/resources › Error Handling), -32602 in the
/// modern one (a MUST, 2026-07-28 server/resources › Error Handling). Not
/// an empty `contents`: 2026-07-28 forbids it, and in the legacy era it
/// hides the -32002 the client should see.
pub fn read_resource(uri: &str, era: Era) -> Result<Value, RpcError> {
    let _ = (uri, era);
    todo!("the two resources, the template, and not found by era")
}

/// Runs `prompts/get`.
///
/// Errors: -32602 for an unknown prompt or a missing required argument
/// (2025-11-25 server/prompts › Error Handling).
pub fn get_prompt(name: &str, arguments: &Value) -> Result<Value, RpcError> {
    let _ = (name, arguments);
    todo!("the summarize prompt and its required argument")
}

/// Whether results of `method` may be cached: the list methods and
/// `resources/read` (2026-07-28: their results carry `ttlMs` and
/// `cacheScope`).
pub fn cacheable(method: &str) -> bool {
    matches!(method, "tools/list" | "resources/list" | "resources/templates/list" | "resources/read" | "prompts/list")
}

/// Finishes a result for its era. Modern results carry `resultType`, and
/// cacheable ones `ttlMs` (milliseconds the client may reuse it) and
/// `cacheScope`; legacy results are left as they are.
pub fn finish(era: Era, method: &str, mut result: Value) -> Value {
    let _ = (era, method, &mut result);
    todo!("resultType, and ttlMs and cacheScope when cacheable, in the modern era")
}

// ---------------------------------------------------------------------------
// The era plumbing (given): handshake, modern `_meta`, dispatch.
// ---------------------------------------------------------------------------

/// Legacy versions this server implements, newest first.
pub const LEGACY_VERSIONS: [&str; 2] = ["2025-11-25", "2025-06-18"];
/// Modern versions this server implements.
pub const MODERN_VERSIONS: [&str; 1] = ["2026-07-28"];
const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

fn capabilities() -> Value {
    json!({"tools": {}, "resources": {}, "prompts": {}})
}

fn server_info() -> Value {
    json!({"name": "tool-server", "version": "0.1.0"})
}

/// A dual-era server. Its legacy session, if a client opened one, lives
/// in `session`.
#[derive(Debug, Default)]
pub struct Server {
    /// The version `initialize` settled, once it did.
    session: Option<String>,
}

impl Server {
    /// A server no client has opened a session with.
    pub fn new() -> Server {
        Server::default()
    }

    /// Handles one message; returns the response to write, if any.
    pub fn handle(&mut self, message: &Value) -> Option<Value> {
        let method = message.get("method").and_then(Value::as_str)?;
        let id = message.get("id")?.clone();
        // MCP ids are strings or integers; any other id (null, 1.5) makes
        // the frame invalid, and the error leaves the id out (2025-11-25
        // basic/index › Requests, › Error Responses).
        if !(id.is_string() || id.is_i64() || id.is_u64()) {
            return Some(json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request: the id must be a string or an integer"}}));
        }
        let params = message.get("params").cloned().unwrap_or_else(|| json!({}));
        let outcome = self.route(method, &params);
        Some(match outcome {
            Ok(result) => json!({"jsonrpc": "2.0", "id": id, "result": result}),
            Err(e) => {
                let mut error = json!({"code": e.code, "message": e.message});
                if e.code == -32022 {
                    error["data"] = json!({"supported": MODERN_VERSIONS, "requested": params.pointer("/_meta").and_then(|m| m.get(META_VERSION))});
                }
                json!({"jsonrpc": "2.0", "id": id, "error": error})
            }
        })
    }

    fn route(&mut self, method: &str, params: &Value) -> Result<Value, RpcError> {
        let meta = params.get("_meta");
        let modern = meta.and_then(|m| m.get(META_VERSION)).and_then(Value::as_str);
        let era = match (modern, method) {
            (Some(version), _) => {
                if !MODERN_VERSIONS.contains(&version) {
                    return Err(RpcError { code: -32022, message: format!("Unsupported protocol version: {version}") });
                }
                if !meta.and_then(|m| m.get(META_CAPABILITIES)).is_some_and(Value::is_object) {
                    return Err(RpcError::invalid_params(format!("Missing _meta[\"{META_CAPABILITIES}\"]")));
                }
                Era::Modern
            }
            (None, "initialize") => return self.initialize(params),
            (None, "ping") => return Ok(json!({})),
            (None, _) if self.session.is_some() => Era::Legacy,
            (None, _) => return Err(RpcError { code: -32600, message: format!("Invalid Request: `{method}` before initialize") }),
        };
        let result = match (method, era) {
            ("server/discover", Era::Modern) => {
                Ok(json!({"supportedVersions": MODERN_VERSIONS, "capabilities": capabilities(), "ttlMs": 60_000, "cacheScope": "public", "_meta": {"io.modelcontextprotocol/serverInfo": server_info()}}))
            }
            ("tools/list", _) => tools_page(params.get("cursor").and_then(Value::as_str)),
            ("tools/call", _) => call_tool(params.get("name").and_then(Value::as_str).unwrap_or(""), params.get("arguments").unwrap_or(&json!({}))),
            ("resources/list", _) => Ok(json!({"resources": resources()})),
            ("resources/templates/list", _) => Ok(json!({"resourceTemplates": resource_templates()})),
            ("resources/read", _) => read_resource(params.get("uri").and_then(Value::as_str).unwrap_or(""), era),
            ("prompts/list", _) => Ok(json!({"prompts": prompts()})),
            ("prompts/get", _) => get_prompt(params.get("name").and_then(Value::as_str).unwrap_or(""), params.get("arguments").unwrap_or(&json!({}))),
            _ => Err(RpcError { code: -32601, message: format!("Method not found: {method}") }),
        }?;
        Ok(finish(era, method, result))
    }

    fn initialize(&mut self, params: &Value) -> Result<Value, RpcError> {
        if self.session.is_some() {
            return Err(RpcError { code: -32600, message: "Invalid Request: the session is already initialized".into() });
        }
        let requested = params.get("protocolVersion").and_then(Value::as_str).unwrap_or("");
        let version = if LEGACY_VERSIONS.contains(&requested) { requested } else { LEGACY_VERSIONS[0] };
        self.session = Some(version.to_string());
        Ok(json!({"protocolVersion": version, "capabilities": capabilities(), "serverInfo": server_info()}))
    }
}

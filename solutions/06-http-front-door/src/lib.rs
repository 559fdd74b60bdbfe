//! Exercise 06 · The HTTP front door (reference solution)
//!
//! A modern (2026-07-28) MCP server on Streamable HTTP: one endpoint,
//! `POST /mcp`, each JSON-RPC message its own request
//! (2026-07-28 basic/transports/streamable-http). `handle` decides the
//! whole HTTP response for one HTTP request; the harness (`harness/`) moves the bytes.
//!
//! In the order `handle` applies them:
//!
//! 1. A foreign `Origin` gets 403 (Security & Endpoint); a loopback one
//!    (http or https; `localhost`, `127.0.0.1` or `[::1]`; any port) and
//!    none at all are served. The `Host` header proves nothing.
//! 2. The path, then the method: another path gets 404, then anything but
//!    POST gets 405 with `Allow: POST` (GET, DELETE, …; RFC 9110 § 15.5.6).
//! 3. A notification gets 202 with an empty body (Sending Messages), with
//!    no header checked: this revision defines none for a notification
//!    POST. A request whose id is not a string or an integer (null, 1.5,
//!    …) gets 400 with -32600 and no id (2026-07-28 basic/index ›
//!    Requests).
//! 4. A request whose `params._meta` lacks the protocol version or the
//!    client capabilities gets 400 with -32602 (2026-07-28 schema:
//!    `RequestMetaObject` requires both), before any header is checked.
//! 5. The request metadata headers must match the body. On every request:
//!    `MCP-Protocol-Version` and the body's `_meta` version, `Mcp-Method`
//!    and `method`. On `tools/call`, `resources/read` and `prompts/get`
//!    only: `Mcp-Name` and `params.name` (`params.uri` for
//!    `resources/read`), after decoding `=?base64?…?=` (Standard Request
//!    Headers). A required header missing, or one that disagrees: 400 with
//!    -32020 HeaderMismatch (Server Validation).
//! 6. A version this server does not implement gets 400 with -32022.
//! 7. An unknown method gets 404 with -32601.
//! 8. Everything else gets 200: JSON, or an SSE stream when the request
//!    asked for progress (progress notifications first, then the response).

use base64::Engine;
use serde_json::{Value, json};

/// The protocol versions this server implements.
pub const SUPPORTED_VERSIONS: [&str; 1] = ["2026-07-28"];

/// HeaderMismatch: headers missing, malformed, or disagreeing with the body
/// (2026-07-28 basic/transports/streamable-http › Server Validation).
pub const HEADER_MISMATCH: i64 = -32020;
/// UnsupportedProtocolVersionError (2026-07-28 basic/versioning).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// JSON-RPC's "Invalid Request".
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's "Method not found".
pub const METHOD_NOT_FOUND: i64 = -32601;
/// JSON-RPC's "Invalid params".
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC's "Parse error".
pub const PARSE_ERROR: i64 = -32700;

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// One HTTP request, as the harness read it.
#[derive(Debug, Clone, Default)]
pub struct HttpRequest {
    /// `GET`, `POST`, …
    pub method: String,
    /// The path, e.g. `/mcp` (a query string stays attached).
    pub path: String,
    /// Every header as (name, value), names as sent.
    pub headers: Vec<(String, String)>,
    /// The body bytes.
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The value of header `name`; header names compare case-insensitively
    /// (RFC 9110 › Field Names).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// One HTTP response for the harness to send.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpResponse {
    /// The status code, e.g. 200.
    pub status: u16,
    /// Headers to send, e.g. ("Content-Type", "application/json").
    pub headers: Vec<(String, String)>,
    /// The body; empty for none.
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// A response with a status and no body.
    pub fn empty(status: u16) -> HttpResponse {
        HttpResponse { status, headers: Vec::new(), body: Vec::new() }
    }

    /// A response whose body is one JSON value.
    pub fn json(status: u16, body: &Value) -> HttpResponse {
        HttpResponse { status, headers: vec![("Content-Type".into(), "application/json".into())], body: body.to_string().into_bytes() }
    }
}

/// A JSON-RPC error response; `id` is left out when it is `None`.
pub fn error_response(id: Option<&Value>, code: i64, message: &str, data: Option<Value>) -> Value {
    let mut error = json!({"code": code, "message": message});
    if let Some(data) = data {
        error["data"] = data;
    }
    let mut response = json!({"jsonrpc": "2.0", "error": error});
    if let Some(id) = id {
        response["id"] = id.clone();
    }
    response
}

/// Decides the response to one HTTP request. See the module documentation
/// for the rules, in order.
pub fn handle(request: &HttpRequest) -> HttpResponse {
    if let Some(origin) = request.header("Origin")
        && !is_local_origin(origin)
    {
        return HttpResponse::json(403, &error_response(None, INVALID_REQUEST, &format!("Forbidden: origin {origin} is not allowed"), None));
    }
    let path = request.path.split('?').next().unwrap_or("");
    if path != "/mcp" {
        return HttpResponse::empty(404);
    }
    if request.method != "POST" {
        let mut response = HttpResponse::empty(405);
        response.headers.push(("Allow".into(), "POST".into()));
        return response;
    }
    let message: Value = match serde_json::from_slice(&request.body) {
        Ok(message @ Value::Object(_)) => message,
        _ => return HttpResponse::json(400, &error_response(None, PARSE_ERROR, "Parse error: the body must be one JSON-RPC message", None)),
    };
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    let Some(id) = message.get("id") else {
        // A notification: accepted, nothing to say (Sending Messages, item 5).
        return HttpResponse::empty(202);
    };
    // MCP ids are strings or integers (2026-07-28 basic/index › Requests);
    // any other id makes the message invalid: 400, and an error without an
    // id, since the id could not be used (› Error Responses).
    if !(id.is_string() || id.is_i64() || id.is_u64()) {
        return HttpResponse::json(400, &error_response(None, INVALID_REQUEST, "Invalid Request: the id must be a string or an integer", None));
    }
    if let Err(reason) = check_meta(&message) {
        return HttpResponse::json(400, &error_response(Some(id), INVALID_PARAMS, &format!("Invalid params: {reason}"), None));
    }
    if let Err(reason) = check_headers(request, &message) {
        return HttpResponse::json(400, &error_response(Some(id), HEADER_MISMATCH, &format!("Header mismatch: {reason}"), None));
    }
    let version = message.pointer("/params/_meta").and_then(|m| m.get(META_VERSION)).and_then(Value::as_str).unwrap_or("");
    if !SUPPORTED_VERSIONS.contains(&version) {
        let data = json!({"supported": SUPPORTED_VERSIONS, "requested": version});
        return HttpResponse::json(400, &error_response(Some(id), UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", Some(data)));
    }
    let params = message.get("params").cloned().unwrap_or_else(|| json!({}));
    match method {
        "server/discover" => HttpResponse::json(200, &result(id, discover())),
        "tools/list" => HttpResponse::json(200, &result(id, json!({"tools": tools(), "ttlMs": 0, "cacheScope": "public"}))),
        "tools/call" => call(id, &params, request),
        _ => HttpResponse::json(404, &error_response(Some(id), METHOD_NOT_FOUND, &format!("Method not found: {method}"), None)),
    }
}

/// Whether `origin` is this machine: `http` or `https`, host `localhost`,
/// `127.0.0.1` or `[::1]` exactly, any port or none. A page from anywhere
/// else must not drive a local server (DNS rebinding), whatever the `Host`
/// header says: a rebinding request names the attacker's site there too.
fn is_local_origin(origin: &str) -> bool {
    let Some(rest) = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) else { return false };
    let (host, port) = match rest.strip_prefix("[::1]") {
        Some(port) => ("[::1]", port),
        None => rest.split_at(rest.find(':').unwrap_or(rest.len())),
    };
    let port_ok = port.is_empty() || port.strip_prefix(':').is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    matches!(host, "localhost" | "127.0.0.1" | "[::1]") && port_ok
}

/// Checks that the body's `params._meta` carries the two fields every
/// modern request must: the protocol version and the client capabilities
/// (an object; `{}` declares none).
fn check_meta(message: &Value) -> Result<(), String> {
    let Some(meta) = message.pointer("/params/_meta").and_then(Value::as_object) else {
        return Err("params._meta is missing".into());
    };
    if !meta.contains_key(META_VERSION) {
        return Err(format!("params._meta has no {META_VERSION}"));
    }
    if !meta.get(META_CAPABILITIES).is_some_and(Value::is_object) {
        return Err(format!("params._meta has no {META_CAPABILITIES} object"));
    }
    Ok(())
}

/// Checks the request metadata headers against the body.
fn check_headers(request: &HttpRequest, message: &Value) -> Result<(), String> {
    let body_version = message.pointer("/params/_meta").and_then(|m| m.get(META_VERSION)).and_then(Value::as_str);
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    match request.header("MCP-Protocol-Version") {
        None => return Err("the MCP-Protocol-Version header is missing".into()),
        Some(header) if Some(header) != body_version => {
            return Err(format!("MCP-Protocol-Version is {header}, but the body's _meta says {}", body_version.unwrap_or("nothing")));
        }
        Some(_) => {}
    }
    match request.header("Mcp-Method") {
        None => return Err("the Mcp-Method header is missing".into()),
        Some(header) if header != method => return Err(format!("Mcp-Method is {header}, but the body's method is {method}")),
        Some(_) => {}
    }
    let name_field = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    };
    if let Some(field) = name_field {
        let body_name = message.pointer(&format!("/params/{field}")).and_then(Value::as_str).unwrap_or("");
        let Some(header) = request.header("Mcp-Name") else { return Err("the Mcp-Name header is missing".into()) };
        let Some(name) = decode_header_value(header) else { return Err(format!("the Mcp-Name header {header} is not valid base64")) };
        if name != body_name {
            return Err(format!("Mcp-Name is {name}, but the body's params.{field} is {body_name}"));
        }
    }
    Ok(())
}

/// A header value with the `=?base64?…?=` sentinel decoded; a plain value
/// is returned as it is. `None` for a sentinel that is not valid base64 of
/// UTF-8 (2026-07-28 basic/transports/streamable-http › Value Encoding).
pub fn decode_header_value(value: &str) -> Option<String> {
    match value.strip_prefix("=?base64?").and_then(|v| v.strip_suffix("?=")) {
        Some(encoded) => base64::engine::general_purpose::STANDARD.decode(encoded).ok().and_then(|bytes| String::from_utf8(bytes).ok()),
        None => Some(value.to_string()),
    }
}

/// A success response: `result` with `resultType` and this server's info.
fn result(id: &Value, mut result: Value) -> Value {
    result["resultType"] = json!("complete");
    result["_meta"] = json!({"io.modelcontextprotocol/serverInfo": {"name": "http-front-door", "version": "0.1.0"}});
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn discover() -> Value {
    json!({"supportedVersions": SUPPORTED_VERSIONS, "capabilities": {"tools": {}}, "ttlMs": 60000, "cacheScope": "public"})
}

/// The tools this server offers: `echo` and `count`.
pub fn tools() -> Value {
    json!([
        {"name": "echo", "description": "Returns the text it is given.", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
        {"name": "count", "description": "Counts from 1 to `to`, reporting progress at each step.", "inputSchema": {"type": "object", "properties": {"to": {"type": "integer", "minimum": 1, "maximum": 100}}, "required": ["to"]}}
    ])
}

/// Answers `tools/call`. A call that asked for progress (a progress token
/// in `_meta`) and accepts SSE gets a stream: each progress notification as
/// an event, then the response, then the end of the stream.
fn call(id: &Value, params: &Value, request: &HttpRequest) -> HttpResponse {
    let arguments = params.get("arguments").cloned().unwrap_or_else(|| json!({}));
    let (steps, outcome) = match params.get("name").and_then(Value::as_str) {
        Some("echo") => (0, json!({"content": [{"type": "text", "text": arguments.get("text").and_then(Value::as_str).unwrap_or("")}]})),
        Some("count") => match arguments.get("to").and_then(Value::as_u64).filter(|n| (1..=100).contains(n)) {
            Some(to) => (to, json!({"content": [{"type": "text", "text": format!("counted to {to}")}]})),
            None => (0, json!({"content": [{"type": "text", "text": "`to` must be an integer from 1 to 100"}], "isError": true})),
        },
        other => {
            let message = format!("Unknown tool: {}", other.unwrap_or("(none)"));
            return HttpResponse::json(200, &error_response(Some(id), INVALID_PARAMS, &message, None));
        }
    };
    let response = result(id, outcome);
    let token = params.pointer("/_meta/progressToken");
    let accepts_sse = request.header("Accept").is_some_and(|a| a.contains("text/event-stream"));
    match token {
        Some(token) if accepts_sse => {
            let mut stream = String::new();
            for step in 1..=steps {
                let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": step, "total": steps}});
                stream.push_str(&sse_event(&progress));
            }
            stream.push_str(&sse_event(&response));
            HttpResponse {
                status: 200,
                headers: vec![("Content-Type".into(), "text/event-stream".into()), ("Cache-Control".into(), "no-cache".into()), ("X-Accel-Buffering".into(), "no".into())],
                body: stream.into_bytes(),
            }
        }
        _ => HttpResponse::json(200, &response),
    }
}

/// One SSE event carrying one JSON-RPC message: `data:` and a blank line.
/// Compact JSON has no newline, so one `data:` line holds it.
fn sse_event(message: &Value) -> String {
    format!("event: message\ndata: {message}\n\n")
}

//! Exercise 12 · The auth gate (reference solution)
//!
//! A modern (2026-07-28) MCP server on Streamable HTTP that is an OAuth 2.1
//! resource server (2026-07-28 basic/authorization): it serves requests
//! that carry an access token for it, and refuses the rest with the status
//! and `WWW-Authenticate` challenge a client acts on. Behind it is a notes
//! API upstream, which it calls with its own credential.
//!
//! In the order `handle` applies them:
//!
//! 1. A foreign `Origin` gets 403, on every path.
//! 2. `GET /.well-known/oauth-protected-resource/mcp` gets the Protected
//!    Resource Metadata (RFC 9728 §3): `resource` (the canonical URI),
//!    `authorization_servers`, `scopes_supported`, `bearer_methods_supported`.
//! 3. Another path gets 404; anything but POST 405.
//! 4. The token, from the `Authorization` header only, its scheme `Bearer`
//!    in any case (RFC 9110 §11.1):
//!    - none (another scheme, or a token only in the query string, which
//!      does not count): 401, `Bearer resource_metadata="…"`;
//!    - a `Bearer` header that is not `Bearer <token>`, two `Authorization`
//!      headers, or a token in two places: 400, `error="invalid_request"`
//!      (RFC 6750 §3.1).
//! 5. The token's claims, from the authorization server's introspection
//!    endpoint (RFC 7662): inactive, another audience than the canonical
//!    URI (or none), or expired: 401, `error="invalid_token"`, whatever
//!    else is wrong. An introspection that fails judged nothing: 503.
//! 6. Its scope must cover the request ([`scopes_needed`]): if not, 403,
//!    `error="insufficient_scope"`, `scope="…"`, `resource_metadata="…"`.
//! 7. Then the MCP checks of exercise 06 ([`serve_mcp`]).
//!
//! The tools call the upstream notes API with this server's own
//! credential, never the client's token ([`upstream_authorization`]).

use base64::Engine;
use serde_json::{Value, json};

/// The protocol versions this server implements.
pub const SUPPORTED_VERSIONS: [&str; 1] = ["2026-07-28"];

/// The scopes this server knows: reading notes, and writing them.
pub const SCOPES_SUPPORTED: [&str; 2] = ["notes:read", "notes:write"];

/// HeaderMismatch (2026-07-28 basic/transports/streamable-http › Server Validation).
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

/// Where the Protected Resource Metadata of an endpoint at `/mcp` lives
/// (RFC 9728 §3.1: the well-known path, then the endpoint's path).
pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource/mcp";

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

/// What the command line told this server (the harness reads it).
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// This server's canonical URI, e.g. `http://127.0.0.1:8765/mcp`.
    pub resource: String,
    /// The authorization server (its issuer), e.g. `http://127.0.0.1:9000`.
    pub authorization_server: String,
    /// This server's client id at the authorization server, for introspection.
    pub client_id: String,
    /// Its client secret there.
    pub client_secret: String,
    /// The upstream notes API, e.g. `http://127.0.0.1:9000/upstream`.
    pub upstream: String,
    /// This server's own credential for the upstream API.
    pub upstream_token: String,
}

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
    /// The value of header `name` (the first, if sent more than once);
    /// names compare case-insensitively (RFC 9110 › Field Names).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// How many times header `name` was sent.
    pub fn header_count(&self, name: &str) -> usize {
        self.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).count()
    }

    /// The value of parameter `name` in the query string, if any.
    pub fn query(&self, name: &str) -> Option<&str> {
        let query = self.path.split_once('?')?.1;
        query.split('&').find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
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

/// A refusal: `status` with the `WWW-Authenticate` challenge and a JSON
/// body saying why, e.g. `refuse(401, "Bearer resource_metadata=\"…\"".into(), "no token")`.
pub fn refuse(status: u16, challenge: String, why: &str) -> HttpResponse {
    let mut response = HttpResponse::json(status, &json!({"error": why}));
    response.headers.push(("WWW-Authenticate".into(), challenge));
    response
}

/// Decides the response to one HTTP request. See the module documentation
/// for the rules, in order.
pub fn handle(request: &HttpRequest, config: &Config) -> HttpResponse {
    if let Some(origin) = request.header("Origin")
        && !is_local_origin(origin)
    {
        return HttpResponse::json(403, &json!({"error": format!("origin {origin} is not allowed")}));
    }
    let path = request.path.split('?').next().unwrap_or("");
    if request.method == "GET" && path == METADATA_PATH {
        return HttpResponse::json(200, &protected_resource_metadata(config));
    }
    if path != "/mcp" {
        return HttpResponse::empty(404);
    }
    if request.method != "POST" {
        let mut response = HttpResponse::empty(405);
        response.headers.push(("Allow".into(), "POST".into()));
        return response;
    }
    let metadata = format!("resource_metadata=\"{}\"", metadata_url(config));
    // Where the token is: the Authorization header, and nowhere else.
    let token = match bearer_token(request) {
        Err(why) => return refuse(400, format!("Bearer error=\"invalid_request\", error_description=\"{why}\""), why),
        Ok(None) => return refuse(401, format!("Bearer {metadata}, scope=\"notes:read\""), "no access token"),
        Ok(Some(token)) => token,
    };
    // Whether it is a live token for this server. No answer means no
    // verdict: 503, the failure is ours, not the token's.
    let claims = match introspect(config, &token) {
        Ok(claims) => claims,
        Err(why) => return HttpResponse::json(503, &json!({"error": format!("cannot validate the token: {why}")})),
    };
    if let Err(why) = check_claims(&claims, config) {
        return refuse(401, format!("Bearer error=\"invalid_token\", error_description=\"{why}\", {metadata}"), why);
    }
    // Whether it may do this.
    let message: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
    let needed = scopes_needed(&message);
    let granted: Vec<&str> = claims["scope"].as_str().unwrap_or("").split(' ').collect();
    if needed.iter().any(|scope| !granted.contains(scope)) {
        let scope = needed.join(" ");
        let challenge = format!("Bearer error=\"insufficient_scope\", scope=\"{scope}\", {metadata}");
        return refuse(403, challenge, "insufficient scope");
    }
    serve_mcp(request, &message, config)
}

/// This server's Protected Resource Metadata (RFC 9728 §2).
pub fn protected_resource_metadata(config: &Config) -> Value {
    json!({
        "resource": config.resource,
        "authorization_servers": [config.authorization_server],
        "scopes_supported": SCOPES_SUPPORTED,
        "bearer_methods_supported": ["header"],
    })
}

/// Where the metadata is: the canonical URI's origin, the well-known path,
/// then the endpoint's path (RFC 9728 §3.1).
fn metadata_url(config: &Config) -> String {
    let after_scheme = config.resource.find("://").map_or(0, |at| at + 3);
    let path_at = config.resource[after_scheme..].find('/').map_or(config.resource.len(), |at| after_scheme + at);
    let (origin, path) = config.resource.split_at(path_at);
    format!("{origin}/.well-known/oauth-protected-resource{path}")
}

/// The bearer token, if the request carries one: `Ok(None)` when the
/// `Authorization` header holds none (a token only in the query string
/// does not count: it MUST NOT be there); `Err` for a malformed header or
/// a token sent in two places (RFC 6750 §2: one method per request).
fn bearer_token(request: &HttpRequest) -> Result<Option<String>, &'static str> {
    if request.header_count("Authorization") > 1 {
        return Err("more than one Authorization header");
    }
    let Some(value) = request.header("Authorization") else { return Ok(None) };
    let Some((scheme, token)) = value.split_once(' ') else {
        return if value.eq_ignore_ascii_case("Bearer") { Err("Bearer without a token") } else { Ok(None) };
    };
    if !scheme.eq_ignore_ascii_case("Bearer") {
        // Another scheme (Basic, …) carries no bearer token.
        return Ok(None);
    }
    // RFC 6750 §2.1: b64token, 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
    let body = token.trim_end_matches('=');
    let b64token = !body.is_empty() && body.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
    if !b64token {
        return Err("the Authorization header is not Bearer followed by one token");
    }
    if request.query("access_token").is_some() {
        return Err("the token was sent in two places");
    }
    Ok(Some(token.to_string()))
}

/// Asks the authorization server about `token` (RFC 7662 §2): its
/// introspection endpoint comes from its metadata (RFC 8414 §3), and this
/// server authenticates there with its client credentials (HTTP Basic).
fn introspect(config: &Config, token: &str) -> Result<Value, String> {
    let issuer = config.authorization_server.trim_end_matches('/');
    let (_, metadata) = http_get(&format!("{issuer}/.well-known/oauth-authorization-server"), None)?;
    let endpoint = metadata["introspection_endpoint"].as_str().ok_or("no introspection_endpoint in the metadata")?;
    let credentials = format!("{}:{}", config.client_id, config.client_secret);
    let basic = format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(credentials));
    let (status, claims) = http_post_form(endpoint, &basic, &[("token", token), ("token_type_hint", "access_token")])?;
    if status != 200 {
        return Err(format!("introspection answered {status}"));
    }
    Ok(claims)
}

/// Whether introspection's answer is a live token for this server.
fn check_claims(claims: &Value, config: &Config) -> Result<(), &'static str> {
    if claims["active"] != json!(true) {
        return Err("the token is not active");
    }
    // `aud` is a string or a list of strings (RFC 7662 §2.2, RFC 7519 §4.1.3).
    let for_us = match &claims["aud"] {
        Value::String(aud) => *aud == config.resource,
        Value::Array(auds) => auds.iter().any(|aud| *aud == config.resource.as_str()),
        _ => false,
    };
    if !for_us {
        return Err("the token was not issued for this server");
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    if claims["exp"].as_u64().is_some_and(|exp| exp <= now) {
        return Err("the token has expired");
    }
    Ok(())
}

/// The `Authorization` header this server sends to the upstream notes API:
/// its own credential. The client's token was issued for this server, not
/// for the notes API, and MUST NOT be passed through.
pub fn upstream_authorization(config: &Config, request: &HttpRequest) -> String {
    let _ = request;
    format!("Bearer {}", config.upstream_token)
}

// ---------------------------------------------------------------------------
// Given: the scopes each request needs, the MCP checks of exercise 06, the
// tools, and a small HTTP client.
// ---------------------------------------------------------------------------

/// The scopes a message needs: `notes:read` for anything, and `notes:write`
/// too for a `tools/call` of `add_note`.
pub fn scopes_needed(message: &Value) -> Vec<&'static str> {
    let writes = message["method"] == "tools/call" && message.pointer("/params/name") == Some(&json!("add_note"));
    if writes { vec!["notes:read", "notes:write"] } else { vec!["notes:read"] }
}

/// Whether `origin` is this machine: `http` or `https`, host `localhost`,
/// `127.0.0.1` or `[::1]` exactly, any port or none (exercise 06).
pub fn is_local_origin(origin: &str) -> bool {
    let Some(rest) = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) else { return false };
    let (host, port) = match rest.strip_prefix("[::1]") {
        Some(port) => ("[::1]", port),
        None => rest.split_at(rest.find(':').unwrap_or(rest.len())),
    };
    let port_ok = port.is_empty() || port.strip_prefix(':').is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    matches!(host, "localhost" | "127.0.0.1" | "[::1]") && port_ok
}

/// A JSON-RPC error response; `id` is left out when it is `None`.
pub fn error_response(id: Option<&Value>, code: i64, message: &str) -> Value {
    let mut response = json!({"jsonrpc": "2.0", "error": {"code": code, "message": message}});
    if let Some(id) = id {
        response["id"] = id.clone();
    }
    response
}

/// The MCP side of an authorized request (exercise 06, in short): the body,
/// the headers against it, the version, then the method.
pub fn serve_mcp(request: &HttpRequest, message: &Value, config: &Config) -> HttpResponse {
    if !message.is_object() {
        return HttpResponse::json(400, &error_response(None, PARSE_ERROR, "Parse error: the body must be one JSON-RPC message"));
    }
    let Some(id) = message.get("id") else { return HttpResponse::empty(202) };
    if !(id.is_string() || id.is_i64() || id.is_u64()) {
        return HttpResponse::json(400, &error_response(None, INVALID_REQUEST, "Invalid Request: the id must be a string or an integer"));
    }
    let method = message["method"].as_str().unwrap_or("");
    let version = message.pointer("/params/_meta").and_then(|m| m.get(META_VERSION)).and_then(Value::as_str);
    let name = message.pointer("/params/name").and_then(Value::as_str);
    let mismatch = if request.header("MCP-Protocol-Version") != version {
        Some("MCP-Protocol-Version")
    } else if request.header("Mcp-Method") != Some(method) {
        Some("Mcp-Method")
    } else if method == "tools/call" && request.header("Mcp-Name") != name {
        Some("Mcp-Name")
    } else {
        None
    };
    if let Some(header) = mismatch {
        return HttpResponse::json(400, &error_response(Some(id), HEADER_MISMATCH, &format!("Header mismatch: {header} is missing or disagrees with the body")));
    }
    if !version.is_some_and(|v| SUPPORTED_VERSIONS.contains(&v)) {
        let mut error = error_response(Some(id), UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version");
        error["error"]["data"] = json!({"supported": SUPPORTED_VERSIONS, "requested": version});
        return HttpResponse::json(400, &error);
    }
    match method {
        "server/discover" => HttpResponse::json(200, &result(id, json!({"supportedVersions": SUPPORTED_VERSIONS, "capabilities": {"tools": {}}, "ttlMs": 60000, "cacheScope": "public"}))),
        "tools/list" => HttpResponse::json(200, &result(id, json!({"tools": tools(), "ttlMs": 0, "cacheScope": "private"}))),
        "tools/call" => HttpResponse::json(200, &call(id, &message["params"], request, config)),
        _ => HttpResponse::json(404, &error_response(Some(id), METHOD_NOT_FOUND, &format!("Method not found: {method}"))),
    }
}

/// A success response: `result` with `resultType` and this server's info.
fn result(id: &Value, mut result: Value) -> Value {
    result["resultType"] = json!("complete");
    result["_meta"] = json!({"io.modelcontextprotocol/serverInfo": {"name": "auth-gate", "version": "0.1.0"}});
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// The tools this server offers: `list_notes` and `add_note`.
pub fn tools() -> Value {
    json!([
        {"name": "list_notes", "description": "Lists the notes in the notes API.", "inputSchema": {"type": "object", "properties": {}}},
        {"name": "add_note", "description": "Adds a note (needs the notes:write scope).", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}
    ])
}

/// Answers `tools/call`: both tools call the upstream notes API, with the
/// credential [`upstream_authorization`] gives.
fn call(id: &Value, params: &Value, request: &HttpRequest, config: &Config) -> Value {
    let authorization = upstream_authorization(config, request);
    let notes = format!("{}/notes", config.upstream.trim_end_matches('/'));
    let outcome = match params["name"].as_str() {
        Some("list_notes") => http_get(&notes, Some(&authorization)),
        Some("add_note") => http_post_form(&notes, &authorization, &[("text", params.pointer("/arguments/text").and_then(Value::as_str).unwrap_or(""))]),
        other => return error_response(Some(id), INVALID_PARAMS, &format!("Unknown tool: {}", other.unwrap_or("(none)"))),
    };
    let text = |t: String| json!({"content": [{"type": "text", "text": t}]});
    match outcome {
        Ok((200, body)) => {
            let lines: Vec<&str> = body["notes"].as_array().map(|n| n.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            result(id, text(if lines.is_empty() { "saved".into() } else { lines.join("\n") }))
        }
        Ok((status, _)) => result(id, json!({"content": [{"type": "text", "text": format!("the notes API answered {status}")}], "isError": true})),
        Err(e) => result(id, json!({"content": [{"type": "text", "text": format!("the notes API is unreachable: {e}")}], "isError": true})),
    }
}

/// GETs `url`, with an `Authorization` header when given; the status and
/// the body as JSON (`null` when it is not JSON).
pub fn http_get(url: &str, authorization: Option<&str>) -> Result<(u16, Value), String> {
    let mut request = agent().get(url);
    if let Some(authorization) = authorization {
        request = request.header("Authorization", authorization);
    }
    read(request.call())
}

/// POSTs `form` (`application/x-www-form-urlencoded`) to `url` with this
/// `Authorization` header; the status and the body as JSON.
pub fn http_post_form(url: &str, authorization: &str, form: &[(&str, &str)]) -> Result<(u16, Value), String> {
    read(agent().post(url).header("Authorization", authorization).send_form(form.iter().copied()))
}

fn agent() -> ureq::Agent {
    let config = ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(std::time::Duration::from_secs(5))).build();
    config.into()
}

fn read(outcome: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Result<(u16, Value), String> {
    let mut response = outcome.map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    let text = response.body_mut().read_to_string().map_err(|e| e.to_string())?;
    Ok((status, serde_json::from_str(&text).unwrap_or(Value::Null)))
}

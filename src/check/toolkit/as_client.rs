//! The checker as the client of a learner's stdio server, in either era:
//! legacy after the `initialize` handshake (2025-11-25 basic/lifecycle),
//! or modern with the per-request `_meta` (2026-07-28 basic/index). Used by
//! the checkers of the server exercises (07-tool-server,
//! 11-capstone-server).

use serde_json::{Value, json};

use super::case::{CaseResult, Failure};
use super::harness::panic_failure;
use crate::check::session::Session;
use crate::jsonrpc::{Kind, classify};
use crate::mcp;

/// The modern `_meta` this client puts on every request.
pub(crate) fn modern_meta() -> Value {
    mcp::request_meta(mcp::MODERN)
}

/// The checker as a client of one era.
pub(crate) struct Client {
    /// Whether requests carry the modern `_meta`.
    pub modern: bool,
    next_id: u64,
}

impl Client {
    /// A legacy client, after the handshake at 2025-11-25.
    pub fn legacy(s: &mut Session) -> Result<Client, Failure> {
        let mut c = Client {
            modern: false,
            next_id: 1,
        };
        c.result(s, "initialize", initialize_params(mcp::LEGACY))?;
        s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(c)
    }

    /// A legacy client that has not sent `initialize` yet.
    pub fn before_initialize() -> Client {
        Client {
            modern: false,
            next_id: 1,
        }
    }

    /// A modern client: no handshake.
    pub fn modern() -> Client {
        Client {
            modern: true,
            next_id: 1,
        }
    }

    /// The revision this client speaks, for reasons.
    pub fn era(&self) -> &'static str {
        if self.modern { mcp::MODERN } else { mcp::LEGACY }
    }

    /// Sends a request without waiting; returns its id. In the modern era
    /// `params._meta` gets the modern fields, beside any `_meta` members
    /// `params` already has (a progress token).
    pub fn send(&mut self, s: &mut Session, method: &str, mut params: Value) -> Result<Value, Failure> {
        if self.modern {
            let mut meta = modern_meta();
            if let Some(extra) = params.get("_meta").and_then(Value::as_object) {
                for (k, v) in extra {
                    meta[k] = v.clone();
                }
            }
            params["_meta"] = meta;
        }
        let id = json!(self.next_id);
        self.next_id += 1;
        s.send_json(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        Ok(id)
    }

    /// Sends a request and returns the whole response frame, skipping
    /// notifications.
    pub fn call(&mut self, s: &mut Session, method: &str, params: Value) -> Result<Value, Failure> {
        let id = self.send(s, method, params)?;
        loop {
            let got = s.recv()?.value;
            if matches!(classify(&got), Kind::Notification { .. }) {
                continue;
            }
            return response_to(got, &id, method);
        }
    }

    /// Like [`Client::call`], and the response must be a result; returns it.
    pub fn result(&mut self, s: &mut Session, method: &str, params: Value) -> Result<Value, Failure> {
        let response = self.call(s, method, params.clone())?;
        as_result(response, method, &params, self.era())
    }

    /// Like [`Client::call`], and the response must be an error with
    /// `code`; `why` explains the rule.
    pub fn error(&mut self, s: &mut Session, method: &str, params: Value, code: i64, why: &str) -> CaseResult {
        let response = self.call(s, method, params)?;
        expect_error(response, code, why)
    }
}

/// A tools/call result, with `content` checked to be a list of blocks and,
/// in the modern era, `resultType`.
pub(crate) fn call_tool(c: &mut Client, s: &mut Session, name: &str, arguments: Value) -> Result<Value, Failure> {
    let result = c.result(s, "tools/call", json!({"name": name, "arguments": arguments}))?;
    content_list(&result)?;
    if c.modern {
        modern_fields(&result, "tools/call", false)?;
    }
    Ok(result)
}

/// Fails unless the tools/call `result` holds its content as a list.
pub(crate) fn content_list(result: &Value) -> CaseResult {
    if result.get("content").is_some_and(Value::is_array) {
        return Ok(());
    }
    Err(Failure::partial(
        "content is always a list of content blocks, even for one block: `\"content\": [{\"type\": \"text\", …}]` (CallToolResult, 2025-11-25 schema; inspector#84)",
        json!({"content": [{"type": "text", "text": "…"}]}),
        result.clone(),
    ))
}

/// Fails unless the tools/call `result` carries `expected` as its
/// structuredContent and the same JSON in a text block. `declares` names
/// the tool and its outputSchema, for the reason.
pub(crate) fn structured_with_mirror(result: &Value, expected: &Value, declares: &str) -> CaseResult {
    if result.get("structuredContent") != Some(expected) {
        return Err(Failure::partial(
            format!(
                "{declares}, so its result carries structuredContent that fits it: {expected} (2025-11-25 server/tools › Structured Content)"
            ),
            json!({"structuredContent": expected}),
            result.clone(),
        ));
    }
    let mirrored = result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b.get("text").and_then(Value::as_str))
        .any(|t| serde_json::from_str::<Value>(t).ok().as_ref() == Some(expected));
    if !mirrored {
        return Err(Failure::partial(
            "a tool that returns structuredContent SHOULD also return it as serialized JSON in a text block, for clients that read only content (2025-11-25 server/tools › Structured Content)",
            json!({"content": [{"type": "text", "text": expected.to_string()}], "structuredContent": expected}),
            result.clone(),
        ));
    }
    Ok(())
}

/// A legacy call of a tool that does not exist must get -32602.
pub(crate) fn unknown_tool(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy(s)?;
    c.error(
        s,
        "tools/call",
        json!({"name": "launch_rockets", "arguments": {}}),
        -32602,
        "a tool that does not exist is a protocol error: -32602 Invalid params (tools/call itself exists, so not -32601) (2025-11-25 server/tools › Error Handling; typescript-sdk#1510)",
    )
}

/// `initialize` params offering `version`.
pub(crate) fn initialize_params(version: &str) -> Value {
    json!({"protocolVersion": version, "capabilities": {}, "clientInfo": mcp::checker_info()})
}

/// `got` when it is the response to request `id` (for `method`); a
/// reported panic or any other frame fails.
pub(crate) fn response_to(got: Value, id: &Value, method: &str) -> Result<Value, Failure> {
    match classify(&got) {
        Kind::Success { id: got_id } | Kind::Error { id: Some(got_id), .. } if got_id.to_value() == *id => {
            if let Some(report) = got
                .pointer("/error/data")
                .filter(|d| d.get("harness").and_then(Value::as_str) == Some("panic"))
            {
                return Err(panic_failure(report));
            }
            Ok(got)
        }
        _ => Err(Failure::showing(
            format!("the answer to `{method}` is not its response (id {id})"),
            got,
        )),
    }
}

/// The `result` of `response`; fails when it is an error.
pub(crate) fn as_result(response: Value, method: &str, params: &Value, era: &str) -> Result<Value, Failure> {
    match response.get("result") {
        Some(result) => Ok(result.clone()),
        None => Err(Failure::partial(
            format!("`{method}` {params} failed ({era}), but it should succeed"),
            json!({"result": "…"}),
            response,
        )),
    }
}

/// Passes when `response` is an error with `code`; `why` explains the rule.
pub(crate) fn expect_error(response: Value, code: i64, why: &str) -> CaseResult {
    let got = response.pointer("/error/code").and_then(Value::as_i64);
    if got == Some(code) {
        return Ok(());
    }
    let detail = match (got, response.get("result")) {
        (Some(other), _) => format!("got error code {other}"),
        (None, Some(result)) if result.get("isError") == Some(&json!(true)) => {
            "got a result with isError: true, which tells the model its input was wrong; this is a protocol error"
                .to_string()
        }
        (None, Some(result))
            if result
                .get("contents")
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty) =>
        {
            "got a result with an empty contents list, which reads as \"the resource is empty\"".to_string()
        }
        _ => "got a result".to_string(),
    };
    Err(Failure::partial(
        format!("{why}; {detail}"),
        json!({"error": {"code": code, "message": "…"}}),
        response,
    ))
}

/// Checks the modern fields of a result: `resultType`, and for cacheable
/// ones `ttlMs` and `cacheScope`.
pub(crate) fn modern_fields(result: &Value, method: &str, cacheable: bool) -> CaseResult {
    if result.get("resultType") != Some(&json!("complete")) {
        return Err(Failure::partial(
            format!(
                "every 2026-07-28 result carries resultType, \"complete\" for a finished one; the `{method}` result has {} (2026-07-28 basic/index)",
                match result.get("resultType") {
                    None => "none".to_string(),
                    Some(v) => v.to_string(),
                }
            ),
            json!({"resultType": "complete"}),
            result.clone(),
        ));
    }
    let ttl_ok = result.get("ttlMs").and_then(Value::as_u64).is_some();
    let scope_ok = matches!(
        result.get("cacheScope").and_then(Value::as_str),
        Some("public" | "private")
    );
    if cacheable && !(ttl_ok && scope_ok) {
        return Err(Failure::partial(
            format!(
                "the `{method}` result is cacheable in 2026-07-28: it needs ttlMs (milliseconds the client may reuse it, an integer) and cacheScope (\"public\" or \"private\")"
            ),
            json!({"resultType": "complete", "ttlMs": "(an integer ≥ 0)", "cacheScope": "(\"public\" or \"private\")"}),
            result.clone(),
        ));
    }
    Ok(())
}

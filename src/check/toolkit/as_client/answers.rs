//! Judging what a learner's server answered the checker's client: a
//! result where one is due, an error with the right code, the modern
//! fields of a result, and tool results (content blocks, structured
//! content).

use serde_json::{Value, json};

use super::Client;
use crate::check::diff::ANY_COUNT;
use crate::check::session::Session;
use crate::check::toolkit::{CaseResult, Failure};

/// The placeholder for a cacheScope ([`crate::check::diff`]).
pub(crate) const CACHE_SCOPE: &str = "‹\"public\" or \"private\"›";

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
    let mut c = Client::legacy_varied(s)?;
    c.error(
        s,
        "tools/call",
        json!({"name": "launch_rockets", "arguments": {}}),
        -32602,
        "a tool that does not exist is a protocol error: -32602 Invalid params (tools/call itself exists, so not -32601) (2025-11-25 server/tools › Error Handling; typescript-sdk#1510)",
    )
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
            json!({"resultType": "complete", "ttlMs": ANY_COUNT, "cacheScope": CACHE_SCOPE}),
            result.clone(),
        ));
    }
    Ok(())
}

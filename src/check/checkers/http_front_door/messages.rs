//! 06's cases on what every message and result carries, whatever the
//! transport: server/discover and the cache hints (2026-07-28
//! basic/versioning, server/utilities/caching), and request ids
//! (basic/index › Requests, [`ids`]), and progress on an SSE stream
//! (streamable-http › Receiving Messages).

use serde_json::{Value, json};

use super::requests::{headers_for, ok_reply, post, post_text, shown, tool_call};
use crate::check::diff::ANY_COUNT;
use crate::check::http;
use crate::check::session::Session;
use crate::check::toolkit::as_client::CACHE_SCOPE;
use crate::check::toolkit::{CaseResult, Failure, ids};
use crate::mcp;

pub(super) fn discover(s: &mut Session) -> CaseResult {
    for (id, method) in [(15, "server/discover"), (16, "tools/list")] {
        let body =
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": {"_meta": mcp::request_meta(mcp::MODERN)}});
        let reply = post(s, headers_for(&body), &body)?;
        let result = ok_reply(&reply, id, &format!("{method} is served"))?;
        let mut expected = match method {
            "server/discover" => json!({"supportedVersions": [mcp::MODERN], "capabilities": {"tools": {}}}),
            _ => json!({}),
        };
        // Any ttlMs >= 0 and either scope will do: placeholders, not examples.
        expected["resultType"] = json!("complete");
        expected["ttlMs"] = json!(ANY_COUNT);
        expected["cacheScope"] = json!(CACHE_SCOPE);
        let lists_modern = method != "server/discover"
            || (result
                .get("supportedVersions")
                .and_then(Value::as_array)
                .is_some_and(|v| v.contains(&json!(mcp::MODERN)))
                && result.pointer("/capabilities/tools").is_some_and(Value::is_object));
        let cached = result.get("ttlMs").and_then(Value::as_u64).is_some()
            && matches!(
                result.get("cacheScope").and_then(Value::as_str),
                Some("public" | "private")
            );
        if !lists_modern {
            return Err(Failure::partial(
                "\"Servers MUST implement\" server/discover (2026-07-28 basic/versioning): its result lists the versions the server speaks, 2026-07-28 among them, and its capabilities, tools here",
                expected,
                result,
            ));
        }
        if result.get("resultType") != Some(&json!("complete")) || !cached {
            return Err(Failure::partial(
                format!(
                    "the {method} result needs resultType \"complete\" and its caching hints: \"Servers MUST include caching hints\" on server/discover and tools/list results, ttlMs an integer >= 0 and cacheScope \"public\" or \"private\" (2026-07-28 server/utilities/caching)"
                ),
                expected,
                result,
            ));
        }
    }
    Ok(())
}

/// The id rules ([`ids`]) over HTTP: a legal id comes back exactly in a
/// 200 result; a forbidden one gets an HTTP error status (2026-07-28
/// basic/transports/streamable-http › Sending Messages: a server that
/// "cannot accept" a message answers e.g. 400, its body MAY be an error
/// "that has no id"), whose body, if JSON-RPC, is -32600 without an id.
pub(super) fn request_ids(s: &mut Session) -> CaseResult {
    let meta = json!({"_meta": mcp::request_meta(mcp::MODERN)});
    let body = |id: &str| format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/list\",\"params\":{meta}}}");
    for (what, wire) in ids::legal() {
        let reply = post_text(s, &body(&wire))?;
        let sent = ids::value_of(&wire);
        let response = reply.json().unwrap_or(Value::Null);
        ids::served(what, &sent, &response).map_err(|f| Failure {
            expected: Some(json!({"status": 200, "body": f.expected, "…": "…"})),
            actual: Some(shown(&reply)),
            ..f
        })?;
        if reply.status != 200 {
            return Err(Failure::mismatch(
                format!(
                    "a request whose id is {what} got its result with status {}: a request that is served gets 200",
                    reply.status
                ),
                json!({"status": 200, "body": {"jsonrpc": "2.0", "id": sent, "result": "…"}, "…": "…"}),
                shown(&reply),
            ));
        }
    }
    for (what, wire) in ids::FORBIDDEN {
        let reply = post_text(s, &body(wire))?;
        if let Some(answer) = reply
            .json()
            .filter(|b| b.get("result").is_some() || b.get("error").is_some())
        {
            ids::refused(what, &ids::value_of(wire), &answer)?;
        }
        if !(400..500).contains(&reply.status) {
            return Err(Failure::mismatch(
                format!(
                    "a request whose id is {what} is not a valid request (\"Requests MUST include a string or integer ID\", 2026-07-28 basic/index › Requests): refuse it with an HTTP error status, 400 Bad Request, and optionally a -32600 error without an id; got {}",
                    reply.status
                ),
                json!({"status": 400, "body": {"jsonrpc": "2.0", "error": {"code": -32600, "message": "…"}}}),
                shown(&reply),
            ));
        }
    }
    Ok(())
}

pub(super) fn sse_progress(s: &mut Session) -> CaseResult {
    let mut body = tool_call(11, "count", json!({"to": 3}), mcp::MODERN);
    body["params"]["_meta"]["progressToken"] = json!("p-11");
    let reply = post(s, headers_for(&body), &body)?;
    if reply.status != 200 || reply.media_type().as_deref() != Some("text/event-stream") {
        return Err(Failure::mismatch(
            "a call that carries a progress token, from a client that accepts text/event-stream, is answered with an SSE stream, so the progress can travel before the result",
            json!({"status": 200, "content-type": "text/event-stream", "…": "…"}),
            shown(&reply),
        ));
    }
    let events = http::parse_events(&reply.text());
    let messages: Vec<Value> = events
        .iter()
        .map(|e| serde_json::from_str(&e.data).unwrap_or_else(|_| json!(e.data)))
        .collect();
    let response_at = messages.iter().position(|m| m.get("id") == Some(&json!(11)));
    let Some(at) = response_at else {
        for message in &messages {
            ids::unchanged(&json!(11), message, "`tools/call` on the stream")?;
        }
        return Err(Failure::showing(
            "the stream carries no response for request 11: each event's data: line holds one JSON-RPC message, and the response is the last",
            Value::Array(messages),
        ));
    };
    if at + 1 != messages.len() {
        return Err(Failure::showing(
            "something came after the response: the response is the last message for its request, and the stream SHOULD end with it (2026-07-28 basic/transports/streamable-http › Receiving Messages)",
            Value::Array(messages),
        ));
    }
    let progress: Vec<&Value> = messages[..at]
        .iter()
        .filter(|m| m.get("method") == Some(&json!("notifications/progress")))
        .collect();
    let values: Vec<f64> = progress
        .iter()
        .filter_map(|m| m.pointer("/params/progress").and_then(Value::as_f64))
        .collect();
    let tokens_ok = progress
        .iter()
        .all(|m| m.pointer("/params/progressToken") == Some(&json!("p-11")));
    if progress.len() != 3 || !tokens_ok || values.windows(2).any(|w| w[1] <= w[0]) {
        return Err(Failure::mismatch(
            "before the response, the stream should carry the three progress notifications of count to 3: each with the request's progressToken p-11 and a progress value that goes up",
            json!([{"method": "notifications/progress", "params": {"progressToken": "p-11", "progress": 1, "total": 3}}, "… 2 …", "… 3 …", {"id": 11, "result": "…"}]),
            Value::Array(messages),
        ));
    }
    Ok(())
}

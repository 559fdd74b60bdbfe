//! The checker's side of the HTTP exchange: the modern request bodies and
//! the headers a conforming client sends with them, one POST, and reading
//! a reply as the error or the result a case expects.

use crate::check::diff::ANY_STRING;
use crate::check::http::{self, Reply, Request};
use crate::check::session::Session;
use crate::check::toolkit::compare::quoted_error;
use crate::check::toolkit::harness::http_panic;
use crate::check::toolkit::{Failure, ids};
use crate::mcp;
use serde_json::{Value, json};

pub(super) fn tool_call(id: u64, name: &str, arguments: Value, version: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments, "_meta": mcp::request_meta(version)}})
}

/// The headers a conforming client sends with a body (shared with doctor).
pub(super) use crate::check::http::headers_for;

/// `headers` with `name` set to `value`, or removed when `value` is None.
pub(super) fn with_header(
    mut headers: Vec<(String, String)>,
    name: &str,
    value: Option<&str>,
) -> Vec<(String, String)> {
    headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    if let Some(value) = value {
        headers.push((name.to_string(), value.to_string()));
    }
    headers
}

/// Sends `request`; a 500 carrying the harness's panic report becomes a
/// failure naming the panic.
pub(super) fn send(s: &mut Session, request: &Request) -> Result<Reply, Failure> {
    http_panic(http::send(s, request)?)
}

/// Sends an HTTP request to `/mcp` ([`send`]).
pub(super) fn exchange(
    s: &mut Session,
    method: &'static str,
    headers: Vec<(String, String)>,
    body: Option<&Value>,
) -> Result<Reply, Failure> {
    let request = Request {
        method,
        path: "/mcp",
        headers,
        body: body.map(|b| b.to_string().into_bytes()),
    };
    send(s, &request)
}

pub(super) fn post(s: &mut Session, headers: Vec<(String, String)>, body: &Value) -> Result<Reply, Failure> {
    exchange(s, "POST", headers, Some(body))
}

/// POSTs `body` as it is written (escapes and all), with the headers a
/// conforming client sends with it.
pub(super) fn post_text(s: &mut Session, body: &str) -> Result<Reply, Failure> {
    let value: Value = serde_json::from_str(body).expect("the checker's bodies are JSON");
    send(
        s,
        &Request {
            method: "POST",
            path: "/mcp",
            headers: headers_for(&value),
            body: Some(body.as_bytes().to_vec()),
        },
    )
}

/// What a failure shows as the actual reply.
pub(super) fn shown(reply: &Reply) -> Value {
    json!({"status": reply.status, "content-type": reply.header("content-type"), "body": reply.json().unwrap_or_else(|| json!(reply.text()))})
}

/// Checks an error reply: `status`, and a JSON-RPC error object with `code`.
/// `why` states the rule and ends where "400 with error code -32020" goes
/// on from it ("… a request without it gets").
pub(super) fn error_reply(reply: &Reply, status: u16, code: i64, why: &str) -> Result<Value, Failure> {
    let body = reply.json();
    let got_code = body
        .as_ref()
        .and_then(|b| b.pointer("/error/code"))
        .and_then(Value::as_i64);
    let has_message = body
        .as_ref()
        .and_then(|b| b.pointer("/error/message"))
        .is_some_and(Value::is_string);
    if reply.status == status && got_code == Some(code) {
        if !has_message {
            return Err(Failure::partial(
                format!(
                    "{why} {status} with error code {code}, and that is right, but the error has no message: \"Error responses MUST include an error field with a code and message\" (2026-07-28 basic/index › Error Responses), a string a person can read"
                ),
                json!({"status": status, "body": {"error": {"code": code, "message": ANY_STRING}}}),
                shown(reply),
            ));
        }
        return Ok(body.unwrap_or(Value::Null));
    }
    let expected = json!({"status": status, "body": {"jsonrpc": "2.0", "id": "‹the request's id›", "error": {"code": code, "message": "…", "…": "…"}}, "…": "…"});
    let detail = match (reply.status == status, got_code) {
        (true, None) => format!(
            "the status is right, but the body should be a JSON-RPC error response with code {code}, so a client can tell this error from any other {status}"
        ),
        (true, Some(c)) => format!("the status is right, but the error code is {c}, not {code}"),
        (false, Some(c)) if c == code => format!(
            "the error code is right, but the HTTP status is {}, not {status}: clients and intermediaries decide by the status first",
            reply.status
        ),
        (false, _) => format!(
            "it got {}{}",
            reply.status,
            body.as_ref()
                .and_then(quoted_error)
                .map(|e| format!(", with {e}"))
                .unwrap_or_default()
        ),
    };
    Err(Failure::mismatch(
        format!("{why} {status} with error code {code}. Here {detail}"),
        expected,
        shown(reply),
    ))
}

/// Checks a success reply: 200 JSON carrying a result for `id`; returns the
/// result. `why` is a clause saying that and why the request is served
/// ("a well-formed tools/call is served"); the reason goes on from it.
pub(super) fn ok_reply(reply: &Reply, id: u64, why: &str) -> Result<Value, Failure> {
    let body = reply.json();
    let error = body.as_ref().and_then(quoted_error);
    if reply.status != 200 || reply.media_type().as_deref() != Some("application/json") {
        return Err(Failure::mismatch(
            format!(
                "{why}: 200 with Content-Type application/json. Here it got {} {}{}",
                reply.status,
                reply.header("content-type").unwrap_or("without a Content-Type"),
                error.map(|e| format!(", with {e}")).unwrap_or_default()
            ),
            json!({"status": 200, "content-type": "application/json", "body": {"jsonrpc": "2.0", "id": id, "result": "…"}}),
            shown(reply),
        ));
    }
    let body = body.unwrap_or(Value::Null);
    let sent = json!(id);
    let problem = match (body.get("id"), body.get("result")) {
        (Some(got), Some(result)) if *got == sent => return Ok(result.clone()),
        _ if !body.is_object() => "the body is not a JSON-RPC message".to_string(),
        (Some(got), _) if ids::changed(&sent, got).is_some() => ids::changed(&sent, got).unwrap_or_default(),
        _ if error.is_some() => format!("the body is {}", error.unwrap_or_default()),
        (None, _) => "the body has no id".to_string(),
        (Some(got), _) if *got != sent => format!("the body's id is {got}"),
        _ => "the body has no result".to_string(),
    };
    Err(Failure::mismatch(
        format!("{why}, and the body is the JSON-RPC response to request {id}; here {problem}"),
        json!({"jsonrpc": "2.0", "id": id, "result": "…"}),
        body,
    ))
}

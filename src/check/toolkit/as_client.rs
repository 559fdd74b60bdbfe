//! The checker as the client of a learner's stdio server, in either era:
//! legacy after the `initialize` handshake (2025-11-25 basic/lifecycle),
//! or modern with the per-request `_meta` (2026-07-28 basic/index). One
//! client, at two levels:
//!
//! - frame by frame ([`exchange`]): the case writes each request itself
//!   (ids, versions, frames a client should not send) and gets the
//!   response within [`ANSWER_WITHIN`], with every way a server can fail to
//!   answer named (silence, a wrong id, a reply to a notification, a
//!   request instead). Used by 03-handshake-gate, whose cases are about
//!   exactly that.
//! - as a [`Client`] of one era, which numbers its requests, runs the
//!   legacy handshake or adds the modern `_meta`, and takes the next
//!   response as the answer. Used by 07-tool-server and 11-capstone-server.
//!
//! Judging what a server answered (a result, an error code, the modern
//! fields, tool results) is [`answers`].

mod answers;
mod client;

use std::time::Duration;

use serde_json::{Value, json};

pub(crate) use client::Client;

pub(crate) use answers::{
    CACHE_SCOPE, as_result, call_tool, content_list, expect_error, modern_fields, structured_with_mirror, unknown_tool,
};

use super::case::{CaseResult, Failure};
use super::harness::panic_in_response;
use super::ids;
use crate::check::diff::{ANY_INTEGER, ANY_STRING};
use crate::check::report::Direction;
use crate::check::session::{Received, Session, Stop};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;

/// What a "no response" failure says of the rule it breaks.
pub(crate) const REPLY_RULE: &str = "Every request gets a response, an error if nothing else: \"When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications\" (JSON-RPC 2.0 § 5)";

/// `reason` without the rule sentence a "no response" failure carries
/// ([`REPLY_RULE`] and what follows it): for a note where silence breaks
/// no rule (a probe a legacy server may leave unanswered; a process still
/// starting).
pub(crate) fn without_reply_rule(reason: &str) -> String {
    match reason.find(REPLY_RULE) {
        Some(at) => reason[..at].trim_end().trim_end_matches('.').to_string(),
        None => reason.to_string(),
    }
}

/// How long a server may take to answer one request in an [`exchange`].
/// The exercises' servers answer at once; this only bounds waiting for an
/// answer that never comes.
pub(crate) const ANSWER_WITHIN: Duration = Duration::from_millis(1000);

/// `initialize` params offering `version`.
pub(crate) fn initialize_params(version: &str) -> Value {
    json!({"protocolVersion": version, "capabilities": {}, "clientInfo": mcp::checker_info()})
}

/// A request frame; `params` left out when `None`.
pub(crate) fn request(id: impl Into<Value>, method: &str, params: Option<Value>) -> Value {
    let mut frame = json!({"jsonrpc": "2.0", "id": id.into(), "method": method});
    if let Some(params) = params {
        frame["params"] = params;
    }
    frame
}

/// An `initialize` request frame offering `version`.
pub(crate) fn initialize_request(id: impl Into<Value>, version: &str) -> Value {
    request(id, "initialize", Some(initialize_params(version)))
}

/// The next line within [`ANSWER_WITHIN`], or `None` when the server is
/// quietly waiting. A server that has exited is a stop, not silence.
pub(crate) fn next(s: &mut Session) -> Result<Option<Received>, Failure> {
    next_within(s, ANSWER_WITHIN)
}

/// Like [`next`], waiting up to `within` (stretched by load): a server
/// that is not one of the course's may take longer to start.
pub(crate) fn next_within(s: &mut Session, within: Duration) -> Result<Option<Received>, Failure> {
    match s.recv_within(s.slack(within))? {
        Some(got) => Ok(Some(got)),
        None => match s.exited_within(Duration::ZERO) {
            Some(status)
                if status.success()
                    && s.transcript()
                        .iter()
                        .any(|e| e.dir == Direction::ToLearner && e.line.trim().is_empty()) =>
            {
                Err(Failure {
                    stop: Some(Stop::Exited(Some(status))),
                    ..Failure::new(
                        "the server exited after a blank line. A blank line carries no message: skip it and read on; only end of input (read_line returning Ok(0)) ends the loop",
                    )
                })
            }
            Some(status) => Err(Stop::Exited(Some(status)).into()),
            None => Ok(None),
        },
    }
}

/// Sends `frame` and returns the response to it. Notifications from the
/// server are skipped; silence, a wrong id and a request are failures.
pub(crate) fn exchange(s: &mut Session, frame: &Value) -> Result<Value, Failure> {
    exchange_within(s, frame, ANSWER_WITHIN)
}

/// The failure of a request `method` (id `id`) that got no response
/// within the window `within`. The nominal window is in the words and the
/// stretch beside them (`Failure::within`): a report's reason reads the
/// same on a quiet and a busy machine, and the learner is told both.
pub(crate) fn no_response(method: &str, id: &Value, within: Duration) -> Failure {
    Failure::new(format!(
        "no response to `{method}` (id {id}) within {:.1} s. {REPLY_RULE}; a client left without one waits forever",
        within.as_secs_f64()
    ))
    .within(within)
}

/// Like [`exchange`], waiting up to `within` (stretched by load) for each
/// line of the answer.
pub(crate) fn exchange_within(s: &mut Session, frame: &Value, within: Duration) -> Result<Value, Failure> {
    s.send_json(frame)?;
    let id = frame["id"].clone();
    let method = frame["method"].as_str().unwrap_or("?");
    loop {
        let Some(got) = next_within(s, within)? else {
            return Err(no_response(method, &id, within));
        };
        let is_response = got.value.get("result").is_some() || got.value.get("error").is_some();
        let got_id = got.value.get("id");
        ids::unchanged(&id, &got.value, &format!("`{method}`"))?;
        if is_response && got_id != Some(&id) && got_id.is_none_or(|g| !earlier(s, g)) {
            return Err(Failure::showing(
                format!(
                    "while the checker waited for the response to `{method}` (id {id}), a response arrived that answers no request it sent. Is it a reply to a notification sent just before? A notification gets no reply at all, not even with a null id; a response to `{method}` carries its id ({id})"
                ),
                got.value,
            ));
        }
        match classify(&got.value) {
            Kind::Notification { .. } => continue,
            Kind::Success { id: got_id } | Kind::Error { id: Some(got_id), .. } if got_id.to_value() == id => {
                return Ok(got.value);
            }
            Kind::Success { id: got_id } | Kind::Error { id: Some(got_id), .. } => {
                return Err(Failure::mismatch(
                    format!(
                        "the response to `{method}` carries id {}, but the request's id is {id}: echo the request's id exactly, type included",
                        got_id.to_value()
                    ),
                    json!({"jsonrpc": "2.0", "id": id, "result": "…"}),
                    got.value,
                ));
            }
            Kind::Error { id: None, .. } => {
                return Err(Failure::mismatch(
                    format!(
                        "the error response to `{method}` has no id. The request's id ({id}) could be read, so the response carries it"
                    ),
                    json!({"jsonrpc": "2.0", "id": id, "error": "…"}),
                    got.value,
                ));
            }
            Kind::Request { method: sent, .. } => {
                return Err(Failure::new(format!(
                    "the server sent a `{sent}` request while the client waited for its `{method}` response. The client declared no capability that calls for one and will not answer it: answer the client's request"
                )));
            }
            Kind::Invalid { reason } => {
                return Err(Failure::new(format!(
                    "the answer to `{method}` is not a valid JSON-RPC message: {reason}: {}",
                    got.line
                )));
            }
        }
    }
}

/// Every request a legacy client could send before `initialize` (every
/// feature's methods, offered or not), with the params a served call
/// would need.
pub(crate) fn early_requests() -> Vec<(&'static str, Value)> {
    vec![
        ("tools/list", json!({})),
        ("tools/call", json!({"name": "echo", "arguments": {"text": "hi"}})),
        ("resources/list", json!({})),
        ("resources/read", json!({"uri": "notes://capstone/about"})),
        ("resources/templates/list", json!({})),
        ("prompts/list", json!({})),
        (
            "prompts/get",
            json!({"name": "review_code", "arguments": {"code": "x"}}),
        ),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "review_code"}, "argument": {"name": "code", "value": "x"}}),
        ),
        ("logging/setLevel", json!({"level": "info"})),
    ]
}

/// The lifecycle gate of a legacy server, in a session that has not
/// initialized: every request of [`early_requests`] is refused with an
/// error carrying its id; then a ping is answered with `{}`, and
/// `initialize` at `version` gets a result, which is returned.
pub(crate) fn gate_holds(s: &mut Session, version: &str) -> Result<Value, Failure> {
    for (n, (method, params)) in early_requests().into_iter().enumerate() {
        let frame = request(n as u64 + 1, method, Some(params));
        let response = exchange(s, &frame)?;
        if response.get("error").is_none() {
            return Err(Failure::mismatch(
                format!(
                    "`{method}` before initialize was served. Until initialize has been answered there is no session: every request but ping is refused with an error carrying its id (-32600 is common). \"The initialization phase MUST be the first interaction between client and server\" (2025-11-25 basic/lifecycle › Initialization). Put the phase check before the methods, not in the fallback arm, so a method with an arm of its own is refused too"
                ),
                json!({"jsonrpc": "2.0", "id": frame["id"], "error": {"code": ANY_INTEGER, "message": ANY_STRING}}),
                response,
            ));
        }
    }
    let ping = exchange(s, &request("gate-ping", "ping", None))?;
    if ping.get("result") != Some(&json!({})) {
        return Err(Failure::mismatch(
            "after the refusals a ping is still answered with an empty result: ping is served in every phase (2025-11-25 basic/utilities/ping)",
            json!({"jsonrpc": "2.0", "id": "gate-ping", "result": {}}),
            ping,
        ));
    }
    exchange_ok(s, &initialize_request("gate-init", version)).map_err(|f| Failure {
        reason: format!(
            "after refusing early requests the server must still accept initialize: {}",
            f.reason
        ),
        ..f
    })
}

/// A request line whose id is the JSON text `id` (sent as it is, escapes
/// and all); `params` left out when `None`.
pub(crate) fn request_line(id: &str, method: &str, params: Option<&Value>) -> String {
    let params = params.map(|p| format!(",\"params\":{p}")).unwrap_or_default();
    format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":{}{params}}}",
        Value::from(method)
    )
}

/// The next frame that is not a notification; silence fails, naming the
/// request (`what`) that went unanswered.
fn answer_to(s: &mut Session, what: &str) -> Result<Value, Failure> {
    loop {
        let Some(got) = next(s)? else {
            return Err(Failure::new(format!(
                "no response to the request {what} within {:.1} s. {REPLY_RULE}",
                ANSWER_WITHIN.as_secs_f64()
            ))
            .within(ANSWER_WITHIN));
        };
        if !matches!(classify(&got.value), Kind::Notification { .. }) {
            return Ok(got.value);
        }
    }
}

/// The id rules ([`ids`]) over stdio. `frame` writes a request around an
/// id's JSON text: one the server serves with a result in this session.
/// Each legal id is sent and must come back exactly, with a result. Each
/// forbidden id is sent, then the same request with an ordinary id: every
/// frame before that one's response must be a refusal (-32600, no id), and
/// none is also fine.
pub(crate) fn ids_kept(s: &mut Session, frame: &dyn Fn(&str) -> String) -> CaseResult {
    ids_echoed(s, frame)?;
    ids_refused(s, frame)
}

/// The first half of [`ids_kept`]: each legal id is sent and must come
/// back exactly, with a result.
pub(crate) fn ids_echoed(s: &mut Session, frame: &dyn Fn(&str) -> String) -> CaseResult {
    ids_echoed_these(s, frame, ids::legal())
}

/// [`ids_echoed`] for the legal ids `these`, as (what it is, its JSON text).
pub(crate) fn ids_echoed_these(
    s: &mut Session,
    frame: &dyn Fn(&str) -> String,
    these: Vec<(&'static str, String)>,
) -> CaseResult {
    for (what, wire) in these {
        let sent = ids::value_of(&wire);
        s.send(&frame(&wire))?;
        let response = answer_to(s, &format!("whose id is {what}"))?;
        ids::served(what, &sent, &response)?;
    }
    Ok(())
}

/// The second half of [`ids_kept`]: each forbidden id is sent, then the
/// same request with an ordinary id; every frame before that one's
/// response must be a refusal (-32600, no id), and none is also fine.
pub(crate) fn ids_refused(s: &mut Session, frame: &dyn Fn(&str) -> String) -> CaseResult {
    for (k, (what, wire)) in ids::FORBIDDEN.iter().enumerate() {
        let sentinel = format!("\"after-{k}\"");
        s.send(&frame(wire))?;
        s.send(&frame(&sentinel))?;
        loop {
            let got = answer_to(
                s,
                &format!("whose id is the ordinary {sentinel}, sent after one whose id is {what}"),
            )?;
            if got.get("id") == Some(&ids::value_of(&sentinel)) {
                break;
            }
            ids::refused(what, &ids::value_of(wire), &got)?;
        }
    }
    Ok(())
}

/// [`ids_kept`] for a dual-era server, legacy: after the handshake, on
/// tools/list.
pub(crate) fn ids_legacy(s: &mut Session) -> CaseResult {
    Client::legacy(s)?;
    ids_kept(s, &|id| request_line(id, "tools/list", None))
}

/// [`ids_kept`] for a dual-era server, modern: tools/list with the
/// 2026-07-28 `_meta`.
pub(crate) fn ids_modern(s: &mut Session) -> CaseResult {
    let params = json!({"_meta": mcp::request_meta(mcp::MODERN)});
    ids_kept(s, &|id| request_line(id, "tools/list", Some(&params)))
}

/// Whether `id` is the id of a request the checker sent earlier in this
/// session (a response to it is late or repeated, not unrequested).
fn earlier(s: &Session, id: &Value) -> bool {
    s.transcript()
        .iter()
        .any(|e| e.dir == Direction::ToLearner && e.id.as_ref() == Some(id))
}

/// Like [`exchange`], and the response must be a result; returns it.
pub(crate) fn exchange_ok(s: &mut Session, frame: &Value) -> Result<Value, Failure> {
    let response = exchange(s, frame)?;
    match response.get("result") {
        Some(result) => Ok(result.clone()),
        None => Err(Failure::mismatch(
            format!(
                "`{}` failed, but it should succeed here",
                frame["method"].as_str().unwrap_or("?")
            ),
            json!({"jsonrpc": "2.0", "id": frame["id"], "result": "…"}),
            response,
        )),
    }
}

/// Like [`exchange`], and the response must be an error object; returns it.
pub(crate) fn exchange_err(s: &mut Session, frame: &Value, why: &str) -> Result<Value, Failure> {
    let response = exchange(s, frame)?;
    match response.get("error") {
        Some(error) => Ok(error.clone()),
        None => Err(Failure::mismatch(
            why,
            json!({"jsonrpc": "2.0", "id": frame["id"], "error": {"code": "…", "message": "…"}}),
            response,
        )),
    }
}

/// `got` when it is the response to request `id` (for `method`); a
/// reported panic or any other frame fails.
pub(crate) fn response_to(got: Value, id: &Value, method: &str) -> Result<Value, Failure> {
    // Exact, in type and value: `classify` reads 1.0 as the integer 1.
    ids::unchanged(id, &got, &format!("`{method}`"))?;
    match classify(&got) {
        Kind::Success { id: got_id } | Kind::Error { id: Some(got_id), .. } if got_id.to_value() == *id => {
            match panic_in_response(&got) {
                Some(panic) => Err(panic),
                None => Ok(got),
            }
        }
        _ => Err(Failure::showing(
            format!("the answer to `{method}` is not its response (id {id})"),
            got,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_about_silence_quotes_no_rule() {
        let reason =
            format!("no response to `ping` (id 1) within 1.0 s. {REPLY_RULE}; a client left without one waits forever");
        assert_eq!(without_reply_rule(&reason), "no response to `ping` (id 1) within 1.0 s");
        assert_eq!(without_reply_rule("a crash"), "a crash");
    }
}

//! The conversation helpers of 02-id-router's cases: start a call through
//! the learner's router (held to the request shape), send a frame as the
//! server, and expect a response to reach its call.

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::compare::same;
use crate::check::toolkit::harness::{self, ask, harness_kind, reply};
use crate::check::toolkit::{CaseResult, Failure};
use crate::jsonrpc::{Kind, classify};

/// Asks the router to start a call; returns the request frame and its id.
pub(super) fn call(s: &mut Session, tag: &str, method: &str, params: Option<Value>) -> Result<(Value, Value), Failure> {
    let mut command = json!({"harness": "call", "tag": tag, "method": method});
    if let Some(p) = &params {
        command["params"] = p.clone();
    }
    let got = ask(s, command).map_err(harness::framing_failure)?;
    let frame = got.value;
    match classify(&frame) {
        Kind::Request { id, method: m } if m == method => {
            let mut expected = json!({"jsonrpc": "2.0", "id": id.to_value(), "method": method});
            if let Some(p) = params {
                expected["params"] = p;
            }
            same(
                expected,
                &frame,
                &format!("call(\"{tag}\", \"{method}\", …) should send this request"),
            )?;
            Ok((frame, id.to_value()))
        }
        Kind::Request { method: m, .. } => Err(Failure::new(format!(
            "call(\"{tag}\", \"{method}\", …) sent a request for `{m}`"
        ))),
        Kind::Invalid { reason } => Err(Failure::new(format!(
            "call(\"{tag}\", …) sent {} which is not a valid request: {reason}",
            got.line
        ))),
        other => Err(Failure::new(format!(
            "call(\"{tag}\", …) must send a request (method and id) but sent a {}: {}",
            other.name(),
            got.line
        ))),
    }
}

/// A tools/call result holding one text block.
pub(super) fn result_text(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

/// A success response line with `id` and `result`.
pub(super) fn response(id: &Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// Sends a frame as the server and returns where the router routed it.
pub(super) fn deliver(s: &mut Session, line: &str) -> Result<Value, Failure> {
    s.send(line)?;
    Ok(reply(s)?.value)
}

/// Sends `line` and expects the router to deliver it to call `tag` as
/// `id`'s `result`; a delivery to another call is named as such.
pub(super) fn expect_reply(
    s: &mut Session,
    line: &str,
    tag: &str,
    id: &Value,
    result: &Value,
    why: &str,
) -> CaseResult {
    let got = deliver(s, line)?;
    let expected = json!({"harness": "reply", "tag": tag, "id": id, "result": result});
    if harness_kind(&got) == Some("reply") && got["tag"] != tag {
        return Err(Failure::mismatch(
            format!(
                "the response with id {id} reached call {}, not {tag}: look the call up by the response's id, not by arrival order",
                got["tag"].as_str().unwrap_or("?")
            ),
            expected,
            got,
        ));
    }
    same(expected, &got, why)
}

//! Malformed responses are violations: a response with the call's id (or
//! an id of a forbidden type) that breaks the response rules (both
//! `result` and `error`, neither, a wrong or missing `jsonrpc`, an error
//! object without an integer `code` and a string `message`) does not end
//! the call. The supervisor reports each through `on_violation`, as it does
//! for bad progress, and keeps waiting; a second response to a call already
//! answered does not end the next call either. Rules: JSON-RPC 2.0 §5 and
//! 2025-11-25 / 2026-07-28 basic/index › Responses (see
//! [`crate::check::toolkit::as_server::malformed`]).

use serde_json::{Value, json};

use super::{call_request, reports_until_outcome, tool_result};
use crate::check::session::Session;
use crate::check::toolkit::as_server::malformed::{self, Malformed};
use crate::check::toolkit::as_server::{respond, respond_error};
use crate::check::toolkit::harness::harness_kind;
use crate::check::toolkit::{CaseResult, Failure};

const SKIP: &str = "A malformed response is no answer: report it through on_violation and keep waiting for the well-formed response with the call's id";

pub(super) fn violations(s: &mut Session) -> CaseResult {
    let (id, _) = call_request(s, "tools/call", true)?;
    let sent = malformed::responses(
        &id,
        |label| json!({"content": [{"type": "text", "text": format!("malformed: {label}")}]}),
        |label| json!({"code": -32603, "message": format!("malformed: {label}")}),
    );
    for m in &sent {
        s.send_json(&m.frame)?;
    }
    // The real answer is an error, so an outcome shows which one ended
    // the call.
    let real = json!({"code": -32000, "message": "the real answer"});
    respond_error(s, &id, real.clone())?;
    let (seen, outcome) = reports_until_outcome(s, "tools/call")?;
    let reported = seen.iter().filter(|r| harness_kind(r) == Some("violation")).count();
    if let Some(m) = taken(&outcome, &sent, reported) {
        return Err(Failure::showing(
            format!(
                "the call ended with the response with {}, but {}. {SKIP}",
                m.label, m.rule
            ),
            outcome,
        ));
    }
    if outcome["kind"] != json!("error") || outcome["error"] != real {
        return Err(Failure::mismatch(
            "the only well-formed response to the call was an error response: the call ends with Outcome::Error and that error object",
            json!({"harness": "outcome", "kind": "error", "error": real, "…": "…"}),
            outcome,
        ));
    }
    if reported != sent.len() {
        return Err(Failure::mismatch(
            format!(
                "of {} malformed responses with the call's id, {reported} reached on_violation. Each one breaks a response rule and is a violation: {}",
                sent.len(),
                sent.iter().map(|m| m.label).collect::<Vec<_>>().join("; ")
            ),
            json!({"violations": sent.len()}),
            json!({"violations": reported, "reports": seen}),
        ));
    }
    // Call 2: a second response to call 1 comes first.
    let (second, _) = call_request(s, "tools/call", true)?;
    respond_error(
        s,
        &id,
        json!({"code": -32603, "message": "a second response to call 1"}),
    )?;
    respond(s, &second, tool_result())?;
    let (_, outcome) = reports_until_outcome(s, "tools/call")?;
    if outcome["kind"] != json!("result") {
        return Err(Failure::mismatch(
            format!(
                "call 2 (id {second}) ended with a second response to call 1 (id {id}): a response answers the request whose id it carries, and call 1 was already answered. Match the id exactly"
            ),
            json!({"harness": "outcome", "kind": "result", "…": "…"}),
            outcome,
        ));
    }
    Ok(())
}

/// Which malformed response ended the call, if one did: an error outcome
/// carries its error object; a result one (the real answer is an error)
/// came after `reported` violations, so it is most likely the first shape
/// with a result from there.
fn taken<'a>(outcome: &Value, sent: &'a [Malformed], reported: usize) -> Option<&'a Malformed> {
    match outcome["kind"].as_str() {
        Some("result") if reported < sent.len() => sent.iter().skip(reported).find(|m| m.frame.get("result").is_some()),
        Some("result") => sent.iter().find(|m| m.frame.get("result").is_some()),
        Some("error") => sent.iter().find(|m| m.frame.get("error") == Some(&outcome["error"])),
        _ => None,
    }
}

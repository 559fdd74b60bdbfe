//! The legacy and unknown-result cases: in a 2025-11-25 session the
//! server asks with a request of its own (elicitation/create), and a
//! `resultType` the client does not know is reported, not guessed at.

use std::time::Duration;

use serde_json::{Value, json};

use super::{ELICIT, accepted, elicitation, final_result, greet_call, hello, report_after_questions};
use crate::check::session::Session;
use crate::check::toolkit::as_server::{frame, frame_or, respond};
use crate::check::toolkit::harness::harness_kind;
use crate::check::toolkit::{CaseResult, Failure, compare, ids};
use crate::mcp;

pub(super) fn legacy(s: &mut Session) -> CaseResult {
    let init = frame(s, "initialize")?;
    if init.get("method") != Some(&json!("initialize")) {
        return Err(Failure::showing(
            "in the legacy era the client starts with initialize",
            init,
        ));
    }
    respond(
        s,
        &init["id"],
        json!({"protocolVersion": mcp::LEGACY, "capabilities": {"tools": {}}, "serverInfo": mcp::checker_info()}),
    )?;
    let note = frame(s, "notifications/initialized")?;
    if note.get("method") != Some(&json!("notifications/initialized")) {
        return Err(Failure::showing(
            "notifications/initialized follows the initialize result",
            note,
        ));
    }
    let call = greet_call(s, "the tools/call for greet")?;
    // The server's own requests: one with an id of its own, then a ping
    // with the same id as the client's call, then one whose id reads like
    // the call's in the other type ("1" for 1, 7 for "7"; 0 for a string
    // that reads as no number). The two directions number their requests
    // independently, and each answer carries its request's id exactly.
    let alike = match &call["id"] {
        Value::String(t) => t.parse::<i64>().map_or(json!(0), Value::from),
        other => json!(other.to_string()),
    };
    let server_requests = [
        (
            json!({"jsonrpc": "2.0", "id": "srv-1", "method": ELICIT, "params": elicitation()["params"]}),
            json!({"jsonrpc": "2.0", "id": "srv-1", "result": accepted()}),
        ),
        (
            json!({"jsonrpc": "2.0", "id": call["id"], "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": call["id"], "result": {}}),
        ),
        (
            json!({"jsonrpc": "2.0", "id": alike, "method": "ping"}),
            json!({"jsonrpc": "2.0", "id": alike, "result": {}}),
        ),
    ];
    for (asked, expected) in server_requests {
        s.send_json(&asked)?;
        let what = format!(
            "the response to the server's {} (id {})",
            asked["method"].as_str().unwrap_or("?"),
            asked["id"]
        );
        let method = asked["method"].as_str().unwrap_or("?");
        let answer = frame_or(s, &what, |reason| {
            format!(
                "{reason}. The server's {method} is a request of its own, with an id from the server's id space (even when it equals your call's id): answer it with a response carrying that id, and keep waiting for your call (2025-11-25 client/elicitation; basic/index)"
            )
        })?;
        if answer.get("method").is_some() {
            return Err(Failure::showing(
                "the server's request is answered with a response carrying its id, before anything else",
                answer,
            ));
        }
        let why = match ids::changed(&asked["id"], answer.get("id").unwrap_or(&Value::Null)) {
            Some(changed) => format!("the server's {method} was answered, but {changed}: a string and an integer are different ids, however alike they read"),
            None => "answer the server's request with a response carrying the server's own id and the result (the handler's, or {} for a ping)".into(),
        };
        compare::same(expected, &answer, &why)?;
    }
    respond(s, &call["id"], hello())?;
    compare::same(
        hello(),
        &final_result(s)?,
        "after answering the server, the call's own response is what call_tool returns",
    )
}

pub(super) fn unknown_result_type(s: &mut Session) -> CaseResult {
    let first = greet_call(s, "the tools/call for greet")?;
    respond(
        s,
        &first["id"],
        json!({"resultType": "task", "task": {"taskId": "t-1"}}),
    )?;
    if let Some(more) = s.recv_within(Duration::from_millis(300))? {
        return Err(Failure::showing(
            "resultType \"task\" is not one this client knows, yet it called again: an unrecognized resultType is invalid for this client (2026-07-28 basic/index); end the call with CallError::UnknownResultType",
            more.value,
        ));
    }
    match report_after_questions(s)? {
        Some(got)
            if harness_kind(&got) == Some("failed")
                && got["error"].as_str().is_some_and(|e| e.contains("UnknownResultType")) =>
        {
            Ok(())
        }
        other => Err(Failure {
            actual: other,
            ..Failure::new(
                "a result whose resultType the client does not know is neither complete nor input_required: call_tool returns CallError::UnknownResultType instead of passing it off as the tool's result",
            )
        }),
    }
}

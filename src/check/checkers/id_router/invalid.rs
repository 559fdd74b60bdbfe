//! The cases that send what is no answer: lines that are not JSON-RPC
//! messages, and responses with a call's id that break the response rules
//! (both or neither of `result` and `error`, a wrong `jsonrpc`, a broken
//! error object, an id of a forbidden type). Each is `Routed::Invalid` and
//! the call stays in flight.

use serde_json::json;

use super::{call, deliver, expect_reply, response, result_text};
use crate::check::session::Session;
use crate::check::toolkit::as_server::malformed;
use crate::check::toolkit::compare::same;
use crate::check::toolkit::harness::{ask, harness_kind};
use crate::check::toolkit::{CaseResult, Failure};

pub(super) fn invalid_lines(s: &mut Session) -> CaseResult {
    let (_, id) = call(s, "c1", "tools/list", None)?;
    for (line, why) in [
        (
            "Starting server v1.2...",
            "a line that is not JSON is dropped (and logged), not routed",
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            "a request with a null id is invalid in MCP: don't answer it as a ping and don't take it for a notification",
        ),
    ] {
        let got = deliver(s, line)?;
        if harness_kind(&got) != Some("invalid") {
            return Err(Failure::mismatch(
                why,
                json!({"harness": "invalid", "reason": "‹any reason›"}),
                got,
            ));
        }
    }
    let got = deliver(
        s,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    )?;
    same(
        json!({"harness": "orphan", "id": null}),
        &got,
        "an error response with a null id answers no request: it is dropped as an orphan",
    )?;
    let tools = json!({"tools": []});
    expect_reply(
        s,
        &response(&id, tools.clone()),
        "c1",
        &id,
        &tools,
        "after all that, c1's response still reaches c1",
    )
}

pub(super) fn malformed_responses(s: &mut Session) -> CaseResult {
    let (_, id) = call(
        s,
        "c1",
        "tools/call",
        Some(json!({"name": "add", "arguments": {"a": 2, "b": 3}})),
    )?;
    let shapes = malformed::responses(&id, result_text, |label| json!({"code": -32603, "message": label}));
    for m in &shapes {
        let got = deliver(s, &m.frame.to_string())?;
        let as_what = match harness_kind(&got) {
            Some("invalid") => continue,
            Some("reply") if got.get("result").is_some() => "routed to c1 as its result",
            Some("reply") => "routed to c1 as its error",
            Some("orphan") => "dropped as an orphan, as if it were a well-formed response for another call",
            _ => "not reported as invalid",
        };
        return Err(Failure::mismatch(
            format!(
                "a response with {} was {as_what}. It is no response at all: {}. Report it as Routed::Invalid (logged and dropped) and keep c1 in flight",
                m.label, m.rule
            ),
            json!({"harness": "invalid", "reason": "‹any reason›"}),
            got,
        ));
    }
    let got = ask(s, json!({"harness": "in_flight"}))?.value;
    if got["calls"].as_array().is_none_or(|c| c.len() != 1) {
        return Err(Failure::mismatch(
            "after the malformed responses c1 should still be in flight: none of them answered it",
            json!({"harness": "in_flight", "calls": [[id, "c1"]]}),
            got,
        ));
    }
    let result = result_text("5");
    expect_reply(
        s,
        &response(&id, result.clone()),
        "c1",
        &id,
        &result,
        "c1's own well-formed response, after the malformed ones, reaches c1",
    )
}

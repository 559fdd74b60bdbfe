//! Checker for exercise 02-id-router: the checker plays the server, the
//! learner's router the client.
//!
//! Expected behaviour comes from JSON-RPC 2.0 §4–§5 and MCP 2025-11-25
//! basic/index (ids unique and never reused within a session; notifications
//! never answered; the response rules), basic/utilities/ping (answer `{}`),
//! and the legacy rule that each direction has its own id space. Mistakes it
//! catches: C02 (null id), C24 (late responses), matching by arrival order,
//! answering notifications, taking a server's request for a response, and
//! taking a malformed response for an answer.
//!
//! The exercise gives the learner the classifier (`src/frame.rs`: exercise
//! 01's rules, `classify(line) -> Kind`); the learner writes the routing. The
//! cases still hold the whole program to every rule below, so a router that
//! goes around the classifier (looks an id up before classifying, routes an
//! invalid line by the id it carries) fails them as a hand-written
//! classification mistake would.
//!
//! Rules (2025-11-25 basic/index unless named) → case:
//! - "Requests MUST include a string or integer ID" (› Requests) → two calls,
//!   two ids (each call is held to the request shape).
//! - "the ID MUST NOT be null" (› Requests) → two calls, two ids (sending);
//!   invalid lines dropped (receiving: a null-id request is not a ping).
//! - "The request ID MUST NOT have been previously used by the requestor
//!   within the same session" (› Requests) → ids never reused.
//! - "Result responses MUST include the same ID as the request they
//!   correspond to" (› Responses) → out-of-order responses, orphan logged and
//!   dropped (ids match exactly, type included), malformed responses invalid
//!   (a null, absent, array, object, boolean or fractional id).
//! - "Error responses MUST include the same ID … (except … the ID could not be
//!   read)" → error reaches its call; invalid lines dropped (a null-id error
//!   is an orphan).
//! - "Error responses MUST include an `error` field with a `code` and
//!   `message`"; "Error codes MUST be integers" (› Responses) → malformed
//!   responses invalid.
//! - JSON-RPC 2.0 §5: `jsonrpc` "MUST be exactly \"2.0\""; "Either the result
//!   member or error member MUST be included, but both members MUST NOT be
//!   included" → malformed responses invalid.
//! - "The receiver MUST NOT send a response" to a notification
//!   (› Notifications) → notification not answered.
//! - A request from the server is answered with its own id
//!   (basic/utilities/ping: "The receiver MUST respond promptly with an empty
//!   response") → server request is not a response.
//! - A second response for an id already answered is not delivered again
//!   (2025-11-25 basic/utilities/cancellation › Timing: the late response
//!   races) → orphan logged and dropped.
//!
//! Not tested here, with the reason: "Notifications MUST NOT include an ID"
//! (the router sends no notifications; 01 holds encode_notification to it);
//! "JSON-RPC messages MUST be UTF-8 encoded" (the harness reads lines as
//! text before the router sees them; 05 holds the codec to it).

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::check::diff::ANY_STRING;
use crate::check::session::Session;
use crate::check::toolkit::as_server::malformed;
use crate::check::toolkit::compare::same;
use crate::check::toolkit::harness::{self, ask, harness_kind, reply};
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use crate::jsonrpc::{Kind, classify};

/// The checker named `id-router`.
pub static CHECKER: Checker = Checker {
    name: "id-router",
    shape: Shape::Program,
    schema: false,
    cases: &[
        Case {
            name: "two calls, two ids",
            about: "each call is sent as a valid request with its own string or integer id; no params member when there are none",
            rules: &[],
            args: &[],
            run: two_calls,
        },
        Case {
            name: "out-of-order responses",
            about: "responses arriving in reverse order, with a notification between them, each reach their own call",
            rules: &[],
            args: &[],
            run: out_of_order,
        },
        Case {
            name: "notification not answered",
            about: "notifications go to the handler with their params, and nothing is written back",
            rules: &[],
            args: &[],
            run: notifications,
        },
        Case {
            name: "error reaches its call",
            about: "an error response completes its call with the error object",
            rules: &[],
            args: &[],
            run: error_reply,
        },
        Case {
            name: "orphan logged and dropped",
            about: "a response for an unknown or already answered id is dropped, and the router keeps working",
            rules: &[],
            args: &[],
            run: orphans,
        },
        Case {
            name: "ids never reused",
            about: "a new call never takes an id used earlier in the session, answered or not",
            rules: &[],
            args: &[],
            run: ids_never_reused,
        },
        Case {
            name: "server request is not a response",
            about: "a ping from the server with the same id as a call in flight is answered, and the call still waits for its response",
            rules: &[],
            args: &[],
            run: server_request,
        },
        Case {
            name: "malformed responses invalid",
            about: "a response with c1's id that breaks the response rules (both result and error, neither, a wrong or missing jsonrpc, an id of a forbidden type, a broken error object) is reported as invalid, and c1 stays in flight",
            rules: &[],
            args: &[],
            run: malformed_responses,
        },
        Case {
            name: "invalid lines dropped",
            about: "junk, a request with a null id and an error with a null id are dropped, not routed or answered",
            rules: &[],
            args: &[],
            run: invalid_lines,
        },
    ],
};

/// Asks the router to start a call; returns the request frame and its id.
fn call(s: &mut Session, tag: &str, method: &str, params: Option<Value>) -> Result<(Value, Value), Failure> {
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

fn result_text(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}]})
}

fn response(id: &Value, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string()
}

/// Sends a frame as the server and returns where the router routed it.
fn deliver(s: &mut Session, line: &str) -> Result<Value, Failure> {
    s.send(line)?;
    Ok(reply(s)?.value)
}

fn expect_reply(s: &mut Session, line: &str, tag: &str, id: &Value, result: &Value, why: &str) -> CaseResult {
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

fn two_calls(s: &mut Session) -> CaseResult {
    let (_, id1) = call(
        s,
        "c1",
        "tools/call",
        Some(json!({"name": "add", "arguments": {"a": 2, "b": 3}})),
    )?;
    let (_, id2) = call(
        s,
        "c2",
        "tools/call",
        Some(json!({"name": "add", "arguments": {"a": 10, "b": 20}})),
    )?;
    if id1 == id2 {
        return Err(Failure::new(format!(
            "both calls got id {id1}: ids must be unique among calls in flight, or a response can't tell them apart"
        )));
    }
    let (_, id3) = call(s, "c3", "tools/list", None)?;
    if id3 == id1 || id3 == id2 {
        return Err(Failure::new(format!("the third call reused id {id3}")));
    }
    Ok(())
}

fn out_of_order(s: &mut Session) -> CaseResult {
    let (_, id1) = call(
        s,
        "c1",
        "tools/call",
        Some(json!({"name": "add", "arguments": {"a": 2, "b": 3}})),
    )?;
    let (_, id2) = call(
        s,
        "c2",
        "tools/call",
        Some(json!({"name": "add", "arguments": {"a": 10, "b": 20}})),
    )?;
    expect_reply(
        s,
        &response(&id2, result_text("30")),
        "c2",
        &id2,
        &result_text("30"),
        "the first response carries c2's id, so it belongs to c2",
    )?;
    let progress = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "p1", "progress": 1, "total": 2}});
    let got = deliver(s, &progress.to_string())?;
    same(
        json!({"harness": "notification", "method": "notifications/progress", "params": progress["params"]}),
        &got,
        "a notification between two responses goes to the notification handler",
    )?;
    expect_reply(
        s,
        &response(&id1, result_text("5")),
        "c1",
        &id1,
        &result_text("5"),
        "the last response carries c1's id, so it belongs to c1",
    )
}

fn notifications(s: &mut Session) -> CaseResult {
    let (_, _id) = call(s, "c1", "tools/list", None)?;
    for frame in [
        json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "indexing"}}),
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
    ] {
        let got = deliver(s, &frame.to_string())?;
        if harness_kind(&got).is_none() {
            return Err(Failure::showing(
                format!(
                    "the router answered the notification {}: nobody waits for an answer to a notification, and the receiver MUST NOT reply, not even with an error (2025-11-25 basic/index › Notifications). Hand Kind::Notification to the handler (Routed::Notification)",
                    frame["method"]
                ),
                got,
            ));
        }
        let mut expected = json!({"harness": "notification", "method": frame["method"]});
        if let Some(params) = frame.get("params") {
            expected["params"] = params.clone();
        }
        same(
            expected,
            &got,
            "a notification goes to the handler with its method and params (and params stay absent when it has none)",
        )?;
    }
    let got = ask(s, json!({"harness": "in_flight"}))?.value;
    if got["calls"].as_array().is_none_or(|c| c.len() != 1) {
        return Err(Failure::mismatch(
            "notifications must not complete calls: c1 should still be in flight",
            json!({"harness": "in_flight", "calls": [["<id>", "c1"]]}),
            got,
        ));
    }
    Ok(())
}

fn error_reply(s: &mut Session) -> CaseResult {
    let (_, id) = call(s, "c1", "tools/call", Some(json!({"name": "nope", "arguments": {}})))?;
    let error = json!({"code": -32602, "message": "Unknown tool: nope"});
    let got = deliver(s, &json!({"jsonrpc": "2.0", "id": id, "error": error}).to_string())?;
    same(
        json!({"harness": "reply", "tag": "c1", "id": id, "error": error}),
        &got,
        "an error response answers its call just as a result does: deliver the error object to c1",
    )
}

fn orphans(s: &mut Session) -> CaseResult {
    let (_, id1) = call(s, "c1", "tools/list", None)?;
    let unknown = if id1 == json!(999) { json!(998) } else { json!(999) };
    let before = s.stderr_len();
    let got = deliver(s, &response(&unknown, json!({"tools": []})))?;
    same(
        json!({"harness": "orphan", "id": unknown}),
        &got,
        "no call with this id is in flight: log the response and drop it; never deliver it to some other call",
    )?;
    harness::logged(s, before, &format!("the response for id {unknown}"))?;
    let tools = json!({"tools": []});
    // The same id with the other JSON type is another id: 1 is not "1".
    let retyped = match &id1 {
        Value::Number(n) => Some(json!(n.to_string())),
        Value::String(t) => t.parse::<i64>().ok().map(|n| json!(n)),
        _ => None,
    };
    if let Some(retyped) = retyped {
        let got = deliver(s, &response(&retyped, tools.clone()))?;
        same(
            json!({"harness": "orphan", "id": retyped}),
            &got,
            &format!(
                "c1's id is {id1}, and {retyped} is a different id: ids match exactly, type included. Key the table by the id itself, not by its text"
            ),
        )?;
    }
    expect_reply(
        s,
        &response(&id1, tools.clone()),
        "c1",
        &id1,
        &tools,
        "after an orphan, c1's own response must still reach c1",
    )?;
    let got = deliver(s, &response(&id1, tools))?;
    same(
        json!({"harness": "orphan", "id": id1}),
        &got,
        "c1 was already answered: a second response with its id (a late answer, as after a cancellation) is an orphan",
    )
}

fn ids_never_reused(s: &mut Session) -> CaseResult {
    let mut used = HashSet::new();
    let (_, id1) = call(s, "c1", "tools/list", None)?;
    let (_, id2) = call(s, "c2", "tools/list", None)?;
    used.insert(id1.to_string());
    used.insert(id2.to_string());
    let tools = json!({"tools": []});
    expect_reply(
        s,
        &response(&id1, tools.clone()),
        "c1",
        &id1,
        &tools,
        "c1's response reaches c1",
    )?;
    for tag in ["c3", "c4", "c5"] {
        let (_, id) = call(s, tag, "tools/list", None)?;
        if !used.insert(id.to_string()) {
            return Err(Failure::new(format!(
                "{tag} got id {id}, which an earlier call already used. A late response for the old call would reach the new one; in 2025-11-25 an id is never reused within a session (basic/index › Requests). A counter that only goes up is enough"
            )));
        }
    }
    Ok(())
}

fn server_request(s: &mut Session) -> CaseResult {
    let (_, id) = call(
        s,
        "c1",
        "tools/call",
        Some(json!({"name": "add", "arguments": {"a": 2, "b": 3}})),
    )?;
    let ping = json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
    let got = deliver(s, &ping.to_string())?;
    let expected = json!({"jsonrpc": "2.0", "id": id, "result": {}});
    if harness_kind(&got) == Some("reply") {
        return Err(Failure::mismatch(
            "the server's ping was taken for the response to c1 because it has the same id. It has a method, so it is a request (Kind::Request): the server numbers its requests in its own id space. Classify before you look an id up, answer the ping, and keep c1 waiting for its own response",
            expected,
            got,
        ));
    }
    same(
        expected,
        &got,
        "answer a ping with an empty result and the ping's own id (2025-11-25 basic/utilities/ping)",
    )?;
    let unknown = json!({"jsonrpc": "2.0", "id": "s-1", "method": "demo/unknown", "params": {}});
    let got = deliver(s, &unknown.to_string())?;
    let code = got.pointer("/error/code").cloned();
    if got.get("id") != Some(&json!("s-1")) || code != Some(json!(-32601)) {
        return Err(Failure::mismatch(
            "a request for a method this client does not know gets an error response with code -32601 (Method not found) and the request's id",
            json!({"jsonrpc": "2.0", "id": "s-1", "error": {"code": -32601, "message": ANY_STRING}}),
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
        "c1 is still in flight after the ping, and its response must reach it",
    )
}

fn invalid_lines(s: &mut Session) -> CaseResult {
    let (_, id) = call(s, "c1", "tools/list", None)?;
    for (line, why) in [
        (
            "Starting server v1.2...",
            "a line that is not JSON is dropped (and logged), not routed",
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            "a request with a null id is invalid in MCP (classify says Kind::Invalid): don't answer it as a ping and don't take it for a notification",
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
        "an error response with a null id (Kind::Error with no id) answers no request, not even the only call in flight: it is dropped as an orphan",
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

fn malformed_responses(s: &mut Session) -> CaseResult {
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
                "a response with {} was {as_what}. It is no response at all: {}. classify says Kind::Invalid whatever its id: report it as Routed::Invalid (logged and dropped) without looking its id up, and keep c1 in flight",
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

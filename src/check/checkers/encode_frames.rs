//! Checker for exercise 01-encode-frames: the four frames, classification,
//! and orphan responses.
//!
//! Expected frames are the four frames of Part 1 (2025-11-25), written out
//! by hand here from the JSON-RPC 2.0 spec §4–§5 and MCP 2025-11-25
//! basic/index, not produced by the reference solution. Mistakes it
//! catches, from our implementer-mistakes log: C02 (null id taken for a
//! notification), C06 (notification sent with an id), C18 (frames over
//! several lines), C21 (batches), C24 (late responses after a cancel).
//!
//! Rules → case. Each rule is named by its key, as the case's `rules` and
//! the lesson (Part 1 › Three shapes, one id, which the exercise needs)
//! write it; "basic/index" is 2025-11-25 basic/index.
//! - `basic/index › Messages` (every message follows JSON-RPC 2.0, so
//!   `jsonrpc` "MUST be exactly \"2.0\"", JSON-RPC 2.0 §4/§5) → request
//!   frame (writing); classify the four frames, invalid lines are named
//!   (reading: `"1.0"`, no `jsonrpc`).
//! - `basic/index › Requests` ("Requests MUST include a string or integer
//!   ID"; "the ID MUST NOT be null") → request frame, ids echoed exactly
//!   (writing); classify the four frames, null id: not a notification,
//!   invalid lines are named (reading: null, 1.5, an object); ids match
//!   exactly (a peer's ping with id 1 is a request, not call 1's answer).
//! - `basic/index › Responses` (a response holds "either the result or
//!   error"; JSON-RPC 2.0 §5: "both members MUST NOT be included") → success
//!   response and error response (no member of the other kind); invalid
//!   lines are named (both members; neither).
//! - `basic/index › Result Responses` ("MUST include the same ID as the
//!   request they correspond to"; "MUST include a `result` field") → success
//!   response, ids echoed exactly; classify the four frames; invalid lines
//!   are named (a result without an id); ids match exactly (type included).
//! - `basic/index › Error Responses` ("the same ID … (except … the ID could
//!   not be read)"; "an `error` field with a `code` and `message`"; "Error
//!   codes MUST be integers") → error response (writing; `code` is an i64
//!   in the API), ids echoed exactly; classify the four frames, null id is
//!   not a notification (a null-id error answers no request), invalid lines
//!   are named (no code, no message, a string or fractional code, an id of
//!   1.5); orphan logged and dropped, ids match exactly (an error completes
//!   its call).
//! - `basic/index › Notifications` ("Notifications MUST NOT include an ID")
//!   → notification has no id; classify the four frames.
//! - `2025-11-25 basic/transports › stdio` ("Messages … MUST NOT contain
//!   embedded newlines") → one frame, one line.
//! - `2025-06-18 changelog › Major changes` (batches removed) → invalid
//!   lines are named (an array).
//! - `course rule: orphans-dropped` (a response whose id matches no call in
//!   flight, or an error without an id, is logged and dropped, not guessed
//!   at, retried or crashed on; the spec says only that a canceller SHOULD
//!   ignore a late response, 2025-11-25 basic/utilities/cancellation ›
//!   Behavior Requirements) → orphan logged and dropped; ids match exactly.
//!
//! Not tested here, with the reason: "The request ID MUST NOT have been
//! previously used" (the caller picks ids here; 02 holds a router to it);
//! "The receiver MUST NOT send a response" to a notification (nothing here
//! answers anything; 02 covers it); "JSON-RPC messages MUST be UTF-8
//! encoded" (the harness exchanges text lines; 05 covers bytes).

mod classify;

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::compare::{same, same_at};
use crate::check::toolkit::harness::{self, ask, framing_failure, harness_kind};
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};

/// The checker named `encode-frames`.
pub static CHECKER: Checker = Checker {
    name: "encode-frames",
    shape: Shape::Program,
    schema: false,
    cases: &[
        Case {
            name: "request frame",
            about: "encode_request writes a tools/call request with its id, method and params, and leaves params out when there are none",
            rules: &["2025-11-25 basic/index › Messages", "2025-11-25 basic/index › Requests"],
            args: &["encode"],
            run: request_frame,
        },
        Case {
            name: "ids echoed exactly",
            about: "an id keeps its type: the string \"11\" stays a string, the integer 0 stays an integer",
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &["encode"],
            run: ids_exact,
        },
        Case {
            name: "success response",
            about: "encode_result writes the id and the result, and no error member",
            rules: &[
                "2025-11-25 basic/index › Responses",
                "2025-11-25 basic/index › Result Responses",
            ],
            args: &["encode"],
            run: success_response,
        },
        Case {
            name: "error response",
            about: "encode_error writes code and message inside an error object, data only when given, and no result member",
            rules: &[
                "2025-11-25 basic/index › Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &["encode"],
            run: error_response,
        },
        Case {
            name: "notification has no id",
            about: "encode_notification writes no id member at all, not even null",
            rules: &["2025-11-25 basic/index › Notifications"],
            args: &["encode"],
            run: notification_no_id,
        },
        Case {
            name: "one frame, one line",
            about: "a result whose text holds newlines is still one line of JSON",
            rules: &["2025-11-25 basic/transports › stdio"],
            args: &["encode"],
            run: one_line,
        },
        Case {
            name: "classify the four frames",
            about: "classify tells requests, notifications, success and error responses apart, with their ids",
            rules: &[
                "2025-11-25 basic/index › Messages",
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Notifications",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &["classify"],
            run: classify::four,
        },
        Case {
            name: "null id: not a notification",
            about: "a request with \"id\": null is invalid; an error response with a null id answers no request",
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &["classify"],
            run: classify::null_id,
        },
        Case {
            name: "invalid lines are named",
            about: "junk, batches, wrong versions, impossible shapes and broken error objects are classified invalid, with a reason",
            rules: &[
                "2025-11-25 basic/index › Messages",
                "2025-06-18 changelog › Major changes",
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Responses",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &["classify"],
            run: classify::invalid_lines,
        },
        Case {
            name: "orphan logged and dropped",
            about: "a response whose id matches no call in flight is dropped without a crash, and later responses still match",
            rules: &[
                "course rule: orphans-dropped",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &["accept"],
            run: orphan_dropped,
        },
        Case {
            name: "ids match exactly",
            about: "the string id \"1\" does not answer the call with integer id 1; error responses complete calls too",
            rules: &[
                "course rule: orphans-dropped",
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &["accept"],
            run: ids_match_exactly,
        },
    ],
};

fn request_frame(s: &mut Session) -> CaseResult {
    let params = json!({"name": "add", "arguments": {"a": 2, "b": 3}});
    let got = encoded(
        s,
        json!({"harness": "encode_request", "id": 11, "method": "tools/call", "params": params}),
    )?;
    let expected = json!({"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": params});
    same(
        expected,
        &got,
        "encode_request(11, \"tools/call\", params) should give the request frame from the lesson's \"The four frames\"",
    )?;
    let got = encoded(s, json!({"harness": "encode_request", "id": 2, "method": "tools/list"}))?;
    same_at(
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        &got,
        &["/params"],
        "encode_request with params None should leave the params member out",
        "encode_request(2, \"tools/list\", None)",
    )
}

fn ids_exact(s: &mut Session) -> CaseResult {
    let got = encoded(s, json!({"harness": "encode_request", "id": "11", "method": "ping"}))?;
    if got.get("id") != Some(&json!("11")) {
        return Err(Failure::mismatch(
            "the string id \"11\" must stay the string \"11\": a peer matches ids exactly, type included (2025-11-25 basic/index › Responses)",
            json!({"jsonrpc": "2.0", "id": "11", "method": "ping"}),
            got,
        ));
    }
    let got = encoded(s, json!({"harness": "encode_result", "id": 0, "result": {}}))?;
    same_at(
        json!({"jsonrpc": "2.0", "id": 0, "result": {}}),
        &got,
        &["/id"],
        "the integer id 0 is a valid id and must be echoed as 0",
        "encode_result(0, {})",
    )?;
    let got = encoded(
        s,
        json!({"harness": "encode_error", "id": "req-7", "code": -32603, "message": "Internal error"}),
    )?;
    same_at(
        json!({"jsonrpc": "2.0", "id": "req-7", "error": {"code": -32603, "message": "Internal error"}}),
        &got,
        &["/id"],
        "an error response echoes the request's string id exactly",
        "encode_error(\"req-7\", -32603, \"Internal error\", None)",
    )
}

fn success_response(s: &mut Session) -> CaseResult {
    let result = json!({"content": [{"type": "text", "text": "5"}]});
    let got = encoded(s, json!({"harness": "encode_result", "id": 11, "result": result}))?;
    same_at(
        json!({"jsonrpc": "2.0", "id": 11, "result": result}),
        &got,
        &["/result", "/error"],
        "encode_result(11, result) should give the success response from the lesson's \"The four frames\": a response has exactly one of result and error",
        "encode_result(11, result)",
    )
}

fn error_response(s: &mut Session) -> CaseResult {
    let got = encoded(
        s,
        json!({"harness": "encode_error", "id": 12, "code": -32601, "message": "Method not found"}),
    )?;
    same_at(
        json!({"jsonrpc": "2.0", "id": 12, "error": {"code": -32601, "message": "Method not found"}}),
        &got,
        &["/error", "/result"],
        "encode_error(12, -32601, \"Method not found\", None) should give the error response from the lesson's \"The four frames\", with no data member",
        "encode_error(12, -32601, \"Method not found\", None)",
    )?;
    let data = json!({"tool": "nope"});
    let got = encoded(
        s,
        json!({"harness": "encode_error", "id": "c7", "code": -32602, "message": "Unknown tool: nope", "data": data}),
    )?;
    same_at(
        json!({"jsonrpc": "2.0", "id": "c7", "error": {"code": -32602, "message": "Unknown tool: nope", "data": data}}),
        &got,
        &["/error/data", "/data"],
        "data goes inside the error object, next to code and message (JSON-RPC 2.0 §5.1)",
        "encode_error(\"c7\", -32602, \"Unknown tool: nope\", data)",
    )
}

fn notification_no_id(s: &mut Session) -> CaseResult {
    let params = json!({"progressToken": "p1", "progress": 1, "total": 3});
    let got = encoded(
        s,
        json!({"harness": "encode_notification", "method": "notifications/progress", "params": params}),
    )?;
    let expected = json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": params});
    if got.get("id").is_some() {
        return Err(Failure::mismatch(
            "a notification has no id member at all, not even null. With an id it is a request: a compliant peer answers or rejects it instead of taking the notification (2025-11-25 basic/index › Notifications)",
            expected,
            got,
        ));
    }
    same(
        expected,
        &got,
        "encode_notification(\"notifications/progress\", params) should give the notification from the lesson's \"The four frames\"",
    )?;
    let got = encoded(
        s,
        json!({"harness": "encode_notification", "method": "notifications/initialized"}),
    )?;
    same_at(
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        &got,
        &["/id", "/params"],
        "notifications/initialized without params is exactly {\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}: no id, no params",
        "encode_notification(\"notifications/initialized\", None)",
    )
}

fn one_line(s: &mut Session) -> CaseResult {
    let text = "SELECT a\nFROM t\r\n-- \"quoted\" \u{2028}end";
    let result = json!({"content": [{"type": "text", "text": text}]});
    let got = encoded(s, json!({"harness": "encode_result", "id": 7, "result": result}))?;
    same_at(
        json!({"jsonrpc": "2.0", "id": 7, "result": result}),
        &got,
        &["/result"],
        "the text must survive the round trip: newlines inside strings are escaped as \\n, never written raw",
        "encode_result(7, result)",
    )
}

/// Sends an encode command and reads back the one line the encoder made.
fn encoded(s: &mut Session, command: Value) -> Result<Value, Failure> {
    let got = ask(s, command).map_err(framing_failure)?;
    if harness_kind(&got.value).is_some() {
        return Err(Failure::new(format!("unexpected harness reply: {}", got.line)));
    }
    Ok(got.value)
}

/// Sends a response line in accept mode; returns what accept_response said.
fn accepted(s: &mut Session, line: &str) -> Result<Value, Failure> {
    s.send(line)?;
    Ok(harness::reply(s)?.value)
}

fn set_in_flight(s: &mut Session, calls: Value) -> CaseResult {
    ask(s, json!({"harness": "in_flight", "calls": calls}))?;
    Ok(())
}

fn orphan_dropped(s: &mut Session) -> CaseResult {
    set_in_flight(s, json!([[11, "tools/call"]]))?;
    let before = s.stderr_len();
    let got = accepted(
        s,
        r#"{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"late"}]}}"#,
    )
    .map_err(|f| Failure {
        reason: format!(
            "{}. A response nobody waits for must not crash the client: log it and drop it",
            f.reason
        ),
        ..f
    })?;
    same(
        json!({"harness": "orphan", "id": 42, "in_flight": [11]}),
        &got,
        "no call with id 42 is in flight: log the response and drop it. Guessing a call corrupts correlation, a retry repeats work, and a crash loses every call in flight",
    )?;
    harness::logged(s, before, "the response for id 42")?;
    let got = accepted(
        s,
        r#"{"jsonrpc":"2.0","id":11,"result":{"content":[{"type":"text","text":"5"}]}}"#,
    )?;
    same(
        json!({"harness": "matched", "id": 11, "method": "tools/call", "in_flight": []}),
        &got,
        "after an orphan, the response to call 11 must still match it and take it out of flight",
    )?;
    let got = accepted(
        s,
        r#"{"jsonrpc":"2.0","id":11,"result":{"content":[{"type":"text","text":"5"}]}}"#,
    )?;
    same(
        json!({"harness": "orphan", "id": 11, "in_flight": []}),
        &got,
        "a second response for 11 arrives after the call was answered (as a late answer does after a cancellation): it is an orphan now",
    )?;
    let got = accepted(
        s,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    )?;
    same(
        json!({"harness": "orphan", "id": null, "in_flight": []}),
        &got,
        "an error response with a null id answers no request: log it and drop it, don't crash",
    )
}

fn ids_match_exactly(s: &mut Session) -> CaseResult {
    set_in_flight(s, json!([[1, "tools/list"], ["c2", "tools/call"]]))?;
    let got = accepted(s, r#"{"jsonrpc":"2.0","id":"1","result":{"tools":[]}}"#)?;
    same(
        json!({"harness": "orphan", "id": "1", "in_flight": [1, "c2"]}),
        &got,
        "the string id \"1\" is not the integer id 1: ids match exactly, type included",
    )?;
    let got = accepted(
        s,
        r#"{"jsonrpc":"2.0","id":"c2","error":{"code":-32602,"message":"Unknown tool: nope"}}"#,
    )?;
    same(
        json!({"harness": "matched", "id": "c2", "method": "tools/call", "in_flight": [1]}),
        &got,
        "an error response answers its call just as a result does",
    )?;
    let got = accepted(
        s,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#,
    )?;
    same(
        json!({"harness": "not_a_response", "in_flight": [1]}),
        &got,
        "a notification is not a response and completes no call",
    )?;
    let got = accepted(s, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)?;
    same(
        json!({"harness": "not_a_response", "in_flight": [1]}),
        &got,
        "a ping from the peer with id 1 is a request (it has a method), not the response to call 1: decide the shape first, then look the id up",
    )
}

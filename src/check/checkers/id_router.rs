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
//! each named by its key, as the cases' `rules` and Part 1 (› Three shapes,
//! one id; › A router that matches ids) write it.
//! - › Messages, every message is JSON-RPC 2.0 (`jsonrpc` "MUST be exactly
//!   \"2.0\"", JSON-RPC 2.0 §5) → two calls, two ids; malformed responses
//!   invalid.
//! - › Requests, a string or integer id, never null, never reused within
//!   the session → two calls, two ids; ids never reused; invalid lines
//!   dropped (a null-id request is no ping); server request is not a
//!   response (a frame with a method is a request).
//! - › Responses, exactly one of result and error (JSON-RPC 2.0 §5) →
//!   malformed responses invalid.
//! - › Result Responses, "the same ID as the request they correspond to" →
//!   out-of-order responses; orphan logged and dropped (type included);
//!   malformed responses invalid (a null, absent, array, object, boolean or
//!   fractional id).
//! - › Error Responses, the same id unless it could not be read, an error
//!   with an integer `code` and a `message` → error reaches its call;
//!   malformed responses invalid; invalid lines dropped (a null-id error is
//!   an orphan).
//! - › Notifications, "The receiver MUST NOT send a response" →
//!   notification not answered.
//! - 2025-11-25 basic/utilities/ping › Behavior Requirements (an empty
//!   result, promptly) and 2026-07-28 basic/index › Error Codes (JSON-RPC's
//!   codes: -32601 for a method the client lacks) → server request is not a
//!   response.
//! - course rule: orphans-dropped (the spec says only that a canceller
//!   SHOULD ignore a late response, 2025-11-25 basic/utilities/cancellation
//!   › Behavior Requirements) → orphan logged and dropped; invalid lines
//!   dropped.
//!
//! - Ids of every legal shape wherever an id travels (› Requests: "a
//!   string or integer ID"). The router picks its own ids (two calls, two
//!   ids: either shape); the checker varies the ones it sends back. Member
//!   → case (mutant in `tests/suite/checkers/ex02_id_router.rs`): a
//!   response whose id is the call's retyped ("1" for 1) → orphan logged
//!   and dropped (`m02_router_compares_ids_as_strings`); a server request
//!   with the call's own id → server ping is not a reply
//!   (`m02_server_ping_taken_for_a_response`); a ping whose id reads like
//!   the call's in the other type, answered with it exactly → the same
//!   (`m02_ping_answered_with_the_id_as_a_number`); a string id ("s-1") on
//!   an unknown method's error → the same
//!   (`m02_every_server_request_answered_like_ping`).
//!
//! Not tested here, with the reason: "Notifications MUST NOT include an ID"
//! (the router sends no notifications; 01 holds encode_notification to it);
//! "JSON-RPC messages MUST be UTF-8 encoded" (the harness reads lines as
//! text before the router sees them; 05 holds the codec to it).

mod talk;

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::check::diff::ANY_STRING;
use crate::check::session::Session;
use crate::check::toolkit::as_server::malformed;
use crate::check::toolkit::compare::same;
use crate::check::toolkit::harness::{self, ask, harness_kind};
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use talk::{call, deliver, expect_reply, response, result_text};

/// The checker named `id-router`.
pub static CHECKER: Checker = Checker {
    name: "id-router",
    shape: Shape::Program,
    schema: false,
    cases: &[
        Case {
            name: "two calls, two ids",
            about: "each call is sent as a valid request with its own string or integer id; no params member when there are none",
            rules: &["2025-11-25 basic/index › Messages", "2025-11-25 basic/index › Requests"],
            args: &[],
            run: two_calls,
        },
        Case {
            name: "out-of-order responses",
            about: "responses arriving in reverse order, with a notification between them, each reach their own call",
            rules: &["2025-11-25 basic/index › Result Responses"],
            args: &[],
            run: out_of_order,
        },
        Case {
            name: "notification not answered",
            about: "notifications go to the handler with their params, and nothing is written back",
            rules: &["2025-11-25 basic/index › Notifications"],
            args: &[],
            run: notifications,
        },
        Case {
            name: "error reaches its call",
            about: "an error response completes its call with the error object",
            rules: &["2025-11-25 basic/index › Error Responses"],
            args: &[],
            run: error_reply,
        },
        Case {
            name: "orphan logged and dropped",
            about: "a response for an unknown or already answered id is dropped, and the router keeps working",
            rules: &[
                "course rule: orphans-dropped",
                "2025-11-25 basic/index › Result Responses",
            ],
            args: &[],
            run: orphans,
        },
        Case {
            name: "ids never reused",
            about: "a new call never takes an id used earlier in the session, answered or not",
            rules: &["2025-11-25 basic/index › Requests"],
            args: &[],
            run: ids_never_reused,
        },
        Case {
            name: "server ping is not a reply",
            about: "a ping from the server with the same id as a call in flight is answered, so is one whose id reads like it in the other type (\"1\" for 1), each with its id exactly, and the call still waits for its response",
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/utilities/ping › Behavior Requirements",
                "2026-07-28 basic/index › Error Codes",
            ],
            args: &[],
            run: server_request,
        },
        Case {
            name: "malformed responses invalid",
            about: "a response with c1's id that breaks the response rules (both result and error, neither, a wrong or missing jsonrpc, an id of a forbidden type, a broken error object) is reported as invalid, and c1 stays in flight",
            rules: &[
                "2025-11-25 basic/index › Messages",
                "2025-11-25 basic/index › Responses",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &[],
            run: malformed_responses,
        },
        Case {
            name: "invalid lines dropped",
            about: "junk, a request with a null id and an error with a null id are dropped, not routed or answered",
            rules: &[
                "course rule: orphans-dropped",
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &[],
            run: invalid_lines,
        },
    ],
};

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
    // A second ping whose id reads like c1's in the other type ("1" for 1,
    // 7 for "7"; "0" for an id that reads as no number): the answer
    // carries it exactly, type included.
    let alike = match &id {
        Value::String(t) => t.parse::<i64>().map_or_else(|_| json!("0"), Value::from),
        other => json!(other.to_string()),
    };
    let got = deliver(s, &json!({"jsonrpc": "2.0", "id": alike, "method": "ping"}).to_string())?;
    same(
        json!({"jsonrpc": "2.0", "id": alike, "result": {}}),
        &got,
        &format!(
            "a ping with id {alike} gets an empty result with that id exactly, type included: a string and an integer are different ids, however alike they read (2025-11-25 basic/index › Result Responses: \"the same ID as the request\")"
        ),
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

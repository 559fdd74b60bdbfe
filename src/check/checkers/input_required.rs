//! Checker for exercise 10-input-required: the learner's program is a
//! client whose tool call needs the user's input; the checker plays the
//! server, modern (input requests inside the result) or legacy (its own
//! `elicitation/create` request).
//!
//! Expected behaviour comes from MCP 2026-07-28 basic/patterns/mrtr (retry
//! with a new id, the same name and arguments, `inputResponses` under the
//! same keys, `requestState` echoed exactly; an absent `resultType` means
//! complete) and 2025-11-25 client/elicitation with basic/index (the
//! server's request has an id of its own, answered while the client's call
//! is in flight). Mistakes it catches: retrying with the same id, losing or
//! re-encoding `requestState`, inventing one, changing the arguments,
//! looping without end, treating a result without `resultType` as pending,
//! taking the server's request for the response to the call, and taking a
//! malformed response for the answer.
//!
//! Rules → case:
//! - mrtr › Client Requirements: "the client MUST construct the requested
//!   inputs before retrying" → one round of input; "the client MUST echo back
//!   the exact value" of requestState, "MUST NOT include one" when none came
//!   → requestState echoed, one round of input; "The JSON-RPC id MUST be
//!   different between the initial request and the retry" → one round of
//!   input, requestState echoed.
//! - 2026-07-28 basic/index › Result Responses: "clients MUST treat an absent
//!   resultType as complete" → absent resultType: done; "A resultType of any
//!   value unrecognized by the client MUST be considered invalid" → unknown
//!   resultType: error.
//! - 2025-11-25 client/elicitation › Capabilities: "Clients that support
//!   elicitation MUST declare the elicitation capability" → one round of
//!   input (the call's _meta).
//! - 2025-11-25 basic/index › Responses: a response carries the id of the
//!   request it answers → legacy: answer the server (the server's id, not
//!   the call's).
//! - Ids of every legal shape wherever an id travels (basic/index ›
//!   Requests: "a string or integer ID"). The client picks its own ids; the
//!   checker varies the server's. Member → case (mutant in
//!   `tests/suite/checkers/ex10_input_required.rs`): a server request with
//!   a string id ("srv-1"), with the call's own id, and with the call's id
//!   retyped ("1" for 1), each answered with its id exactly → legacy:
//!   answer the server (`m10_legacy_server_request_taken_for_the_response`,
//!   `m10_server_id_read_as_a_number`); a response whose id is not the
//!   call's (null, another call's) → malformed responses skipped
//!   (`m10_any_id_is_the_answer`, `m10_duplicate_answers_the_retry`); the
//!   retry's id, a new one → one round of input (`m10_retry_reuses_the_id`).
//! - JSON-RPC 2.0 §5 and basic/index › Responses (exactly one of result and
//!   error, jsonrpc "2.0", the request's id, an integer code and a string
//!   message) → malformed responses skipped; a second response to the first
//!   call is not the retry's → the same.
//! - course rule: bounded-rounds (mrtr › Error Handling lets a server ask
//!   again; a client must not loop forever) → rounds are bounded; an input
//!   the handler can't give (the client cannot construct it, so it cannot
//!   retry) → unknown input method.
//!
//! Not tested here, with the reason: "inputRequests and requestState … MUST
//! NOT be used for any other request" (the harness runs one call at a time);
//! the elicitation UI rules ("Provide UI that makes it clear which server is
//! requesting information", review before sending) are about a person in
//! front of a screen, not the wire; "Clients MUST treat requests without a
//! mode field as form mode" (the handler here is the harness's, fixed).

mod legacy;
mod malformed;

use std::time::Duration;

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::as_server::{frame_or, report, respond};
use crate::check::toolkit::harness::harness_kind;
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use crate::check::toolkit::{compare, harness};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;

/// The checker named `input-required`.
pub static CHECKER: Checker = Checker {
    name: "input-required",
    shape: Shape::Client,
    schema: true,
    cases: &[
        Case {
            name: "one round of input",
            about: "an input_required result is answered by a retry with a new id, the same name and arguments, and inputResponses under the same key",
            rules: &[
                "2026-07-28 basic/patterns/mrtr › Client Requirements",
                "2026-07-28 basic/index › _meta",
                "2025-11-25 client/elicitation › Capabilities",
            ],
            args: &["--era", "modern"],
            run: one_round,
        },
        Case {
            name: "requestState echoed",
            about: "requestState comes back exactly as sent, and a result with only a requestState is retried at once",
            rules: &["2026-07-28 basic/patterns/mrtr › Client Requirements"],
            args: &["--era", "modern"],
            run: request_state,
        },
        Case {
            name: "absent resultType: done",
            about: "a result without resultType (a server of an earlier revision) is the final result: no retry",
            rules: &["2026-07-28 basic/index › ResultType"],
            args: &["--era", "modern"],
            run: absent_result_type,
        },
        Case {
            name: "unknown resultType: error",
            about: "a resultType the client does not know (here \"task\", an extension's) ends the call with an error, not a retry and not a result",
            rules: &["2026-07-28 basic/index › ResultType"],
            args: &["--era", "modern"],
            run: legacy::unknown_result_type,
        },
        Case {
            name: "rounds are bounded",
            about: "a server that asks for input forever is given up on after max_rounds retries",
            rules: &[
                "course rule: bounded-rounds",
                "2026-07-28 basic/patterns/mrtr › Error Handling",
            ],
            args: &["--era", "modern", "--max-rounds", "3"],
            run: bounded,
        },
        Case {
            name: "unknown input method",
            about: "an input request the handler cannot answer ends the call with an error, without a retry",
            rules: &["2026-07-28 basic/patterns/mrtr › Client Requirements"],
            args: &["--era", "modern"],
            run: unknown_method,
        },
        Case {
            name: "malformed responses skipped",
            about: "a response with the call's id that breaks the response rules (both result and error, neither, a wrong or missing jsonrpc, an id of a forbidden type, a broken error object) is skipped, and a second response to the first call is not the retry's",
            rules: &[
                "2025-11-25 basic/index › Messages",
                "2025-11-25 basic/index › Responses",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &["--era", "modern"],
            run: malformed::skipped,
        },
        Case {
            name: "legacy: answer the server",
            about: "in the legacy era the server's requests, in its own id space (\"srv-1\", the call's id, the call's id retyped), are answered with their ids exactly while the call waits",
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Responses",
                "2025-11-25 client/elicitation › Capabilities",
            ],
            args: &["--era", "legacy"],
            run: legacy::legacy,
        },
    ],
};

const ELICIT: &str = "elicitation/create";

fn elicitation() -> Value {
    json!({"method": ELICIT, "params": {"mode": "form", "message": "What is your name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}})
}

fn accepted() -> Value {
    json!({"action": "accept", "content": {"name": "Ada"}})
}

fn hello() -> Value {
    json!({"resultType": "complete", "content": [{"type": "text", "text": "Hello, Ada!"}]})
}

/// Reads a tools/call for greet; returns the whole request.
fn greet_call(s: &mut Session, what: &str) -> Result<Value, Failure> {
    greet_call_or(s, what, |reason| reason)
}

/// Like [`greet_call`], with `on_stall` as for [`frame_or`].
fn greet_call_or(s: &mut Session, what: &str, on_stall: impl FnOnce(String) -> String) -> Result<Value, Failure> {
    let request = frame_or(s, what, on_stall)?;
    match classify(&request) {
        Kind::Request { method, .. } if method == "tools/call" => {}
        _ => {
            return Err(Failure::showing(format!("{what} was due"), request));
        }
    }
    if request.pointer("/params/name") != Some(&json!("greet"))
        || request.pointer("/params/arguments") != Some(&json!({}))
    {
        return Err(Failure::mismatch(
            "the call is greet with empty arguments, and a retry keeps both exactly",
            json!({"name": "greet", "arguments": {}, "…": "…"}),
            request["params"].clone(),
        ));
    }
    Ok(request)
}

/// Checks a retry against the call before it: a new id, and exactly the
/// `inputResponses` and `requestState` expected (None: absent).
fn check_retry(retry: &Value, earlier: &[Value], responses: Option<Value>, state: Option<Value>) -> CaseResult {
    if earlier.iter().any(|e| e["id"] == retry["id"]) {
        return Err(Failure::new(format!(
            "the retry reuses id {}. A retry is a new request: it needs a fresh id (2026-07-28 basic/patterns/mrtr), or its response is indistinguishable from the first one's",
            retry["id"]
        )));
    }
    let got = retry.pointer("/params/inputResponses").cloned();
    if got != responses {
        let why = match (&responses, &got) {
            (None, Some(Value::Null)) => {
                "the retry carries \"inputResponses\": null; with nothing asked there is nothing to answer, so leave the member out (null is not absent)"
            }
            _ => {
                "the retry carries params.inputResponses: for each key of inputRequests, the handler's answer under the same key"
            }
        };
        return Err(Failure::mismatch(
            why,
            member("inputResponses", responses),
            member("inputResponses", got),
        ));
    }
    let got = retry.pointer("/params/requestState").cloned();
    if got != state {
        let why = match (&state, &got) {
            (None, Some(Value::Null)) => "the retry carries \"requestState\": null. No requestState came with the last result, so leave the member out: null is not absent".to_string(),
            (None, Some(_)) => "no requestState came with the last result, so the retry carries none: the state is the server's, never the client's invention".to_string(),
            (Some(s), None) => format!("the last result carried requestState {s}: the retry must echo it in params.requestState, or the server loses its place"),
            _ => "requestState is opaque: echo it byte for byte, no decoding, trimming or re-encoding".to_string(),
        };
        return Err(Failure::mismatch(
            why,
            member("requestState", state),
            member("requestState", got),
        ));
    }
    Ok(())
}

/// `{name: value}`, or `{}` when there is no value: so an absent member
/// and a null one show as different.
fn member(name: &str, value: Option<Value>) -> Value {
    let mut object = serde_json::Map::new();
    if let Some(value) = value {
        object.insert(name.to_string(), value);
    }
    Value::Object(object)
}

/// The client's final report: the result it returned.
fn final_result(s: &mut Session) -> Result<Value, Failure> {
    loop {
        let got = report(s)?;
        match harness_kind(&got) {
            Some("asked") => continue,
            Some("result") => return Ok(got["result"].clone()),
            _ => {
                return Err(Failure::showing(
                    format!("call_tool failed: {}", got["error"].as_str().unwrap_or("?")),
                    got.clone(),
                ));
            }
        }
    }
}

fn one_round(s: &mut Session) -> CaseResult {
    let first = greet_call(s, "the tools/call for greet")?;
    let caps = first
        .pointer("/params/_meta")
        .and_then(|m| m.get(mcp::meta::CLIENT_CAPABILITIES))
        .and_then(|c| c.get("elicitation"));
    if !caps.is_some_and(Value::is_object) {
        return Err(Failure::showing(
            "the call's _meta must declare the elicitation capability: a server may only ask for input the client said it can give, and answers -32021 otherwise",
            first,
        ));
    }
    respond(
        s,
        &first["id"],
        json!({"resultType": "input_required", "inputRequests": {"user_name": elicitation()}}),
    )?;
    let retry = greet_call_or(s, "the retry of greet with the answer", |reason| {
        format!(
            "{reason}: a result with resultType \"input_required\" is not the end of the call; answer its inputRequests and call again"
        )
    })?;
    check_retry(&retry, &[first], Some(json!({"user_name": accepted()})), None)?;
    respond(s, &retry["id"], hello())?;
    compare::same(
        hello(),
        &final_result(s)?,
        "the complete result after the retry is what call_tool returns",
    )
}

fn request_state(s: &mut Session) -> CaseResult {
    let first = greet_call(s, "the tools/call for greet")?;
    let state1 = json!("eyJzdGVwIjoxfQ==/+ ");
    respond(
        s,
        &first["id"],
        json!({"resultType": "input_required", "inputRequests": {"who": elicitation()}, "requestState": state1}),
    )?;
    let second = greet_call(s, "the retry of greet")?;
    check_retry(
        &second,
        std::slice::from_ref(&first),
        Some(json!({"who": accepted()})),
        Some(state1),
    )?;
    // Only state this time: nothing to ask, retry at once.
    let state2 = json!("step-2");
    respond(
        s,
        &second["id"],
        json!({"resultType": "input_required", "requestState": state2}),
    )?;
    let third = greet_call(s, "a retry carrying only the new requestState").map_err(|f| Failure {
        reason: format!("{} (an input_required result with a requestState and no inputRequests asks for an immediate retry with that state)", f.reason),
        ..f
    })?;
    check_retry(&third, &[first, second], None, Some(state2))?;
    respond(s, &third["id"], hello())?;
    compare::same(
        hello(),
        &final_result(s)?,
        "the complete result is what call_tool returns",
    )
}

fn absent_result_type(s: &mut Session) -> CaseResult {
    let retried = |more: Value| {
        Failure::showing(
            "the result had no resultType, which means complete (a client MUST treat an absent resultType as \"complete\", 2026-07-28 basic/index): there is nothing to retry",
            more,
        )
    };
    let first = greet_call(s, "the tools/call for greet")?;
    let old = json!({"content": [{"type": "text", "text": "Hello!"}]});
    respond(s, &first["id"], old.clone())?;
    if let Some(more) = s.recv_within(Duration::from_millis(200))? {
        return Err(retried(more.value));
    }
    let result = match final_result(s) {
        Ok(result) => result,
        // On a loaded machine a retry can come after the window above: the
        // client then waits for its answer instead of reporting.
        Err(failure) => match s.recv_within(Duration::from_millis(50))? {
            Some(more) => return Err(retried(more.value)),
            None => return Err(failure),
        },
    };
    compare::same(old, &result, "a result without resultType is the final result")
}

fn bounded(s: &mut Session) -> CaseResult {
    let mut seen: Vec<Value> = Vec::new();
    for round in 0..=3 {
        let request = match round {
            0 => greet_call(s, "the tools/call for greet")?,
            _ => greet_call_or(s, "a retry", |_| {
                format!(
                    "the client stopped after {} retries, but --max-rounds 3 allows 3: max_rounds counts the retries after the first call",
                    round - 1
                )
            })?,
        };
        respond(
            s,
            &request["id"],
            json!({"resultType": "input_required", "inputRequests": {"again": elicitation()}}),
        )?;
        seen.push(request);
    }
    // Three retries were allowed (--max-rounds 3): no fifth request.
    if let Some(more) = s.recv_within(Duration::from_millis(300))? {
        return Err(Failure::showing(
            "a fifth request after the call and its three allowed retries: a server can ask for input forever, so the client stops after max_rounds and reports it",
            more.value,
        ));
    }
    match report_after_questions(s)? {
        Some(got)
            if harness_kind(&got) == Some("failed")
                && got["error"].as_str().is_some_and(|e| e.contains("TooManyRounds")) =>
        {
            Ok(())
        }
        other => Err(Failure {
            actual: other,
            ..Failure::new("after max_rounds retries, call_tool returns CallError::TooManyRounds")
        }),
    }
}

/// The first report that is not a handler question, if any.
fn report_after_questions(s: &mut Session) -> Result<Option<Value>, Failure> {
    loop {
        match s.recv_output(s.slack(Duration::from_secs(2)))? {
            Some(got) if harness_kind(&got.value) == Some("asked") => continue,
            Some(got) if harness_kind(&got.value) == Some("panic") => return Err(harness::panic_failure(&got.value)),
            other => return Ok(other.map(|g| g.value)),
        }
    }
}

fn unknown_method(s: &mut Session) -> CaseResult {
    let first = greet_call(s, "the tools/call for greet")?;
    let sampling = json!({"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 10}});
    respond(
        s,
        &first["id"],
        json!({"resultType": "input_required", "inputRequests": {"draft": sampling}}),
    )?;
    if let Some(more) = s.recv_within(Duration::from_millis(300))? {
        return Err(Failure::showing(
            "the handler cannot answer sampling/createMessage, yet the client called again. Without an answer for every key there is nothing to retry with: end the call with CallError::UnknownInputMethod",
            more.value,
        ));
    }
    match report_after_questions(s)? {
        Some(got)
            if harness_kind(&got) == Some("failed")
                && got["error"].as_str().is_some_and(|e| e.contains("UnknownInputMethod")) =>
        {
            Ok(())
        }
        other => Err(Failure {
            actual: other,
            ..Failure::new(
                "an input request the handler does not know ends the call with CallError::UnknownInputMethod",
            )
        }),
    }
}

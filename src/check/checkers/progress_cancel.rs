//! Checker for exercise 09-progress-cancel: the learner's program is a
//! client supervisor around one call; the checker plays the server, in
//! the legacy era (after the handshake) or the modern one.
//!
//! Expected behaviour comes from MCP 2025-11-25 basic/utilities/progress
//! (a token per request, `progress` strictly increasing),
//! basic/utilities/cancellation (`notifications/cancelled` with the
//! `requestId`; `initialize` MUST NOT be cancelled; late responses are
//! ignored) and basic/lifecycle › Timeouts (progress MAY reset the timeout,
//! a maximum SHOULD hold), the same on stdio in 2026-07-28
//! (basic/patterns/progress and cancellation). Mistakes it catches: a
//! reused or missing progress token, progress that repeats or goes back
//! passed on, cancelling twice or never, a timeout that progress extends
//! without end, cancelling `initialize`, and taking a malformed response
//! for the call's answer.
//!
//! Rules (2025-11-25 unless named) → case:
//! - progress: "Progress tokens MUST be a string or integer value"; "MUST be
//!   unique across all active requests" → a fresh token per call (and every
//!   case reads the token).
//! - progress: "The progress value MUST increase with each notification";
//!   "Progress notifications MUST only reference tokens that were provided in
//!   an active request" (the receiver holds the sender to both) → bad
//!   progress not passed on, a finished call's token.
//! - course rule: bad-progress-reported (the spec binds the sender only;
//!   the course's client reports a violation, passes nothing on and
//!   touches no timer) → bad progress not passed on, a finished call's
//!   token.
//! - cancellation: "Cancellation notifications MUST only reference requests
//!   that … are believed to still be in-progress" → timeout: one cancel
//!   (names the request, once), legacy cancel; 2026-07-28 stdio: "the client
//!   MUST send a notifications/cancelled notification referencing the
//!   request's ID" → timeout: one cancel.
//! - cancellation: "The initialize request MUST NOT be cancelled by clients"
//!   → initialize never cancelled.
//! - cancellation › Timing: "Both parties MUST handle these race conditions
//!   gracefully" (a late response is ignored) → timeout: one cancel, progress
//!   resets idle, not the cap, legacy cancel.
//! - basic/lifecycle › Timeouts: a maximum SHOULD hold whatever progress
//!   comes → progress resets idle only.
//! - JSON-RPC 2.0 §5 and basic/index › Responses (exactly one of result and
//!   error, jsonrpc "2.0", a string or integer id, an integer code and a
//!   string message) → malformed responses flagged; a second response to
//!   call 1 does not end call 2 → the same.
//! - basic/index › Notifications: "Notifications MUST NOT include an ID" →
//!   every case that reads a cancel.
//! - Ids of every legal shape wherever an id travels (basic/index ›
//!   Requests: "a string or integer ID"; › Result Responses: "the same ID
//!   as the request"; progress: "a string or integer value"). The client
//!   picks its ids and tokens, so the checker cannot vary their shape; it
//!   varies what comes back. Member → case (mutant in
//!   `tests/suite/checkers/ex09_progress_cancel.rs`): a response whose id
//!   reads like the call's but is of the other type ("1" for 1) → look-alike
//!   ids are others (`m09_response_matched_by_id_text`); progress for a
//!   look-alike token → the same (`m09_progress_token_matched_by_text`;
//!   tokens like "progress-1" have no look-alike: a string token of another
//!   call, "not-yours", is in bad progress not passed on,
//!   `m09_progress_token_not_checked`); the cancel's
//!   `requestId`, the call's id exactly, type included → timeout: one cancel
//!   (`m09_cancel_names_the_id_as_a_string`, `m09_cancel_names_the_token`);
//!   a response whose id has a forbidden type → malformed responses:
//!   violations (`m09_forbidden_id_not_reported`).
//!
//! Not tested here, with the reason: "Progress notifications MUST stop after
//! completion" and "Servers … MUST NOT send any further messages" for a
//! cancelled request bind the server, not this client; task-augmented
//! requests and `tasks/cancel` are outside the course.

mod cancel;
mod malformed;

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::as_server::{frame, report, respond, respond_error};
use crate::check::toolkit::harness::harness_kind;
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;

/// The checker named `progress-cancel`.
pub static CHECKER: Checker = Checker {
    name: "progress-cancel",
    shape: Shape::Client,
    schema: true,
    cases: &[
        Case {
            name: "a fresh token per call",
            about: "after the legacy handshake, each tools/call carries a progressToken in _meta, a different one each time",
            rules: &["2025-11-25 basic/utilities/progress › Progress Flow"],
            args: &["--era", "legacy", "--calls", "2"],
            run: fresh_tokens,
        },
        Case {
            name: "progress passed on",
            about: "in the modern era, progress for the call's token with rising values reaches on_progress, then the result ends the call",
            rules: &[
                "2025-11-25 basic/utilities/progress › Progress Flow",
                "2026-07-28 basic/index › _meta",
            ],
            args: &["--era", "modern"],
            run: progress_passed,
        },
        Case {
            name: "bad progress not passed on",
            about: "progress for another token, or a value that repeats or goes back, is reported as a violation and not passed on",
            rules: &[
                "2025-11-25 basic/utilities/progress › Progress Flow",
                "course rule: bad-progress-reported",
            ],
            args: &["--era", "modern"],
            run: bad_progress,
        },
        Case {
            name: "a finished call's token",
            about: "progress for call 1's token that arrives during call 2 is a violation, not call 2's progress",
            rules: &[
                "2025-11-25 basic/utilities/progress › Behavior Requirements",
                "course rule: bad-progress-reported",
            ],
            args: &["--era", "modern", "--calls", "2"],
            run: finished_token,
        },
        Case {
            name: "look-alike ids are others",
            about: "an error response whose id looks like the call's but is of the other type (\"1\" for 1, 7 for \"7\") does not end the call, and progress for a look-alike token is a violation; the call's own response ends it",
            rules: &[
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/utilities/progress › Progress Flow",
                "course rule: bad-progress-reported",
            ],
            args: &["--era", "modern"],
            run: look_alikes,
        },
        Case {
            name: "malformed responses flagged",
            about: "a response with the call's id that breaks the response rules (both result and error, neither, a wrong or missing jsonrpc, an id of a forbidden type, a broken error object) is reported as a violation and the call keeps waiting; a second response to call 1 does not end call 2",
            rules: &[
                "2025-11-25 basic/index › Messages",
                "2025-11-25 basic/index › Responses",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &["--era", "modern", "--calls", "2"],
            run: malformed::violations,
        },
        Case {
            name: "timeout: one cancel",
            about: "when the idle timeout runs out, exactly one notifications/cancelled names the request, and a late response is ignored",
            rules: &[
                "2025-11-25 basic/lifecycle › Timeouts",
                "2026-07-28 basic/patterns/cancellation › Transport-Specific Cancellation",
                "2025-11-25 basic/utilities/cancellation › Behavior Requirements",
                "2025-11-25 basic/utilities/cancellation › Timing Considerations",
                "2025-11-25 basic/index › Notifications",
            ],
            args: &["--era", "modern", "--idle-ms", "300"],
            run: cancel::one_cancel,
        },
        Case {
            name: "progress resets idle only",
            about: "steady progress keeps a call alive past its idle timeout, but not past its hard cap",
            rules: &["2025-11-25 basic/lifecycle › Timeouts"],
            args: &["--era", "modern", "--idle-ms", "300", "--cap-ms", "600"],
            run: cancel::cap_holds,
        },
        Case {
            name: "legacy cancel",
            about: "in the legacy era too, a call that times out is cancelled with notifications/cancelled",
            rules: &[
                "2025-11-25 basic/lifecycle › Timeouts",
                "2025-11-25 basic/utilities/cancellation › Behavior Requirements",
            ],
            args: &["--era", "legacy", "--idle-ms", "300"],
            run: cancel::legacy_cancel,
        },
        Case {
            name: "initialize never cancelled",
            about: "an initialize that times out is given up on quietly: no notifications/cancelled for it",
            rules: &["2025-11-25 basic/utilities/cancellation › Behavior Requirements"],
            args: &["--era", "legacy", "--idle-ms", "200", "--cap-ms", "400"],
            run: cancel::initialize_not_cancelled,
        },
    ],
};

fn progress(s: &mut Session, token: &Value, value: f64) -> CaseResult {
    Ok(s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": value, "total": 3}}))?)
}

fn tool_result() -> Value {
    json!({"content": [{"type": "text", "text": "done"}]})
}

/// Reads a request for `method`; returns its id and its progress token.
fn call_request(s: &mut Session, method: &str, modern: bool) -> Result<(Value, Value), Failure> {
    let request = frame(s, &format!("a {method} request"))?;
    let id = match classify(&request) {
        Kind::Request { id, method: m } if m == method => id.to_value(),
        _ => {
            return Err(Failure::showing(format!("a {method} request was due"), request));
        }
    };
    let meta = request.pointer("/params/_meta").cloned().unwrap_or(Value::Null);
    if modern && meta.get(mcp::meta::PROTOCOL_VERSION) != Some(&json!(mcp::MODERN)) {
        return Err(Failure::showing(
            "in the modern era every request carries params._meta with the protocol version and client capabilities",
            request,
        ));
    }
    let token = meta.get("progressToken").cloned().unwrap_or(Value::Null);
    // Progress is opt-in: nobody needs it for initialize.
    if method != "initialize" && !(token.is_string() || token.is_i64() || token.is_u64()) {
        let reason = match request.pointer("/params/progressToken") {
            Some(_) => {
                "the progressToken is at params.progressToken; it belongs in params._meta.progressToken, where the server looks for it (2025-11-25 basic/utilities/progress)"
            }
            None => {
                "the request carries no progressToken: put a string or integer in params._meta.progressToken, or the server has nothing to tag its progress with (2025-11-25 basic/utilities/progress)"
            }
        };
        return Err(Failure::showing(reason, request));
    }
    Ok((id, token))
}

/// Runs the legacy handshake as the server.
fn handshake(s: &mut Session) -> CaseResult {
    let (id, _) = call_request(s, "initialize", false)?;
    respond(
        s,
        &id,
        json!({"protocolVersion": mcp::LEGACY, "capabilities": {"tools": {}}, "serverInfo": mcp::checker_info()}),
    )?;
    let note = frame(s, "notifications/initialized")?;
    if note.get("method") != Some(&json!("notifications/initialized")) {
        return Err(Failure::showing(
            "after the initialize result the harness sends notifications/initialized",
            note,
        ));
    }
    Ok(())
}

/// The harness's report lines until the outcome of a call of `method`
/// (an earlier initialize's outcome is skipped over).
fn reports_until_outcome(s: &mut Session, method: &str) -> Result<(Vec<Value>, Value), Failure> {
    let mut seen = Vec::new();
    loop {
        let got = report(s)?;
        match harness_kind(&got) {
            Some("outcome") if got["method"] == json!(method) => return Ok((seen, got)),
            Some("outcome") => {}
            Some("failed") => {
                return Err(Failure::showing("Supervisor::call returned an error", got));
            }
            _ => seen.push(got),
        }
    }
}

fn fresh_tokens(s: &mut Session) -> CaseResult {
    handshake(s)?;
    let (id1, token1) = call_request(s, "tools/call", false)?;
    respond(s, &id1, tool_result())?;
    let (id2, token2) = call_request(s, "tools/call", false)?;
    if token1 == token2 {
        return Err(Failure::new(format!(
            "both calls carry the progress token {token1}. A token MUST be unique across the requester's active requests; make every call's token fresh, so a late progress for an old call can never be taken for the new one"
        )));
    }
    if id1 == id2 {
        return Err(Failure::new(format!(
            "both calls have id {id1}: every request gets a fresh id"
        )));
    }
    respond(s, &id2, tool_result())
}

fn progress_passed(s: &mut Session) -> CaseResult {
    let (id, token) = call_request(s, "tools/call", true)?;
    progress(s, &token, 1.0)?;
    progress(s, &token, 2.0)?;
    respond(s, &id, tool_result())?;
    let (seen, outcome) = reports_until_outcome(s, "tools/call")?;
    let passed: Vec<f64> = seen
        .iter()
        .filter(|r| harness_kind(r) == Some("progress"))
        .filter_map(|r| r["progress"].as_f64())
        .collect();
    if passed != [1.0, 2.0] {
        return Err(Failure::mismatch(
            "two progress notifications for the call's token, 1 then 2 of 3, should each reach on_progress, in order",
            json!([{"harness": "progress", "progress": 1, "…": "…"}, {"harness": "progress", "progress": 2, "…": "…"}]),
            Value::Array(seen),
        ));
    }
    if outcome["kind"] != json!("result") {
        return Err(Failure::showing("the response ends the call: Outcome::Result", outcome));
    }
    Ok(())
}

fn bad_progress(s: &mut Session) -> CaseResult {
    let (id, token) = call_request(s, "tools/call", true)?;
    progress(s, &json!("not-yours"), 1.0)?;
    progress(s, &token, 2.0)?;
    progress(s, &token, 2.0)?;
    progress(s, &token, 1.0)?;
    progress(s, &token, 3.0)?;
    respond(s, &id, tool_result())?;
    let (seen, _) = reports_until_outcome(s, "tools/call")?;
    let passed: Vec<f64> = seen
        .iter()
        .filter(|r| harness_kind(r) == Some("progress"))
        .filter_map(|r| r["progress"].as_f64())
        .collect();
    let violations = seen.iter().filter(|r| harness_kind(r) == Some("violation")).count();
    if passed == [2.0, 3.0] && violations == 3 {
        return Ok(());
    }
    let why = if passed.first() == Some(&1.0) {
        "progress for the token not-yours reached on_progress: only progress carrying this call's own token belongs to it; report the rest through on_violation"
    } else if passed.windows(2).any(|w| w[1] == w[0]) {
        "a repeated progress value (2, then 2 again) reached on_progress: progress MUST increase with each notification (2025-11-25 basic/utilities/progress); report a repeat through on_violation"
    } else if passed.windows(2).any(|w| w[1] < w[0]) {
        "a progress value that went back (2, then 1) reached on_progress: progress MUST increase with each notification (2025-11-25 basic/utilities/progress); report it through on_violation"
    } else {
        "of five progress notifications (token not-yours: 1; yours: 2, 2, 1, 3), 2 and 3 are good and reach on_progress; the other three are violations, each reported through on_violation"
    };
    Err(Failure::mismatch(
        why,
        json!({"passed on": [2.0, 3.0], "violations": 3}),
        json!({"passed on": passed, "violations": violations}),
    ))
}

fn finished_token(s: &mut Session) -> CaseResult {
    let (id1, token1) = call_request(s, "tools/call", true)?;
    respond(s, &id1, tool_result())?;
    reports_until_outcome(s, "tools/call")?;
    let (id2, token2) = call_request(s, "tools/call", true)?;
    if token2 == token1 {
        return Err(Failure::new(format!(
            "both calls carry the progress token {token1}: every call needs a fresh one"
        )));
    }
    progress(s, &token1, 1.0)?;
    respond(s, &id2, tool_result())?;
    let (seen, _) = reports_until_outcome(s, "tools/call")?;
    if seen.iter().any(|r| harness_kind(r) == Some("progress")) {
        return Err(Failure::mismatch(
            format!(
                "progress for {token1}, the token of call 1, which was already answered, reached on_progress during call 2. \"Progress notifications MUST only reference tokens that were provided in an active request\" (2025-11-25 basic/utilities/progress › Behavior Requirements): only the running call's own token ({token2}) counts; report the rest through on_violation"
            ),
            json!([{"harness": "violation", "call": 2, "…": "…"}]),
            Value::Array(seen),
        ));
    }
    if !seen.iter().any(|r| harness_kind(r) == Some("violation")) {
        return Err(Failure::mismatch(
            format!("progress for {token1}, a finished call's token, is a violation: report it through on_violation"),
            json!([{"harness": "violation", "call": 2, "…": "…"}]),
            Value::Array(seen),
        ));
    }
    Ok(())
}

/// The id or token that reads like `v` and is not it: the string "n" for
/// the integer n, the integer n for the string "n"; `None` for a string
/// that reads as no integer.
fn look_alike(v: &Value) -> Option<Value> {
    match v {
        Value::Number(n) => Some(json!(n.to_string())),
        Value::String(t) => t.parse::<i64>().ok().map(Value::from),
        _ => None,
    }
}

/// Progress for the look-alike of the call's token, then good progress,
/// an error response with the look-alike of the call's id, then the call's
/// result. Only the good progress is passed on, and the result ends the
/// call. The client picks its ids and tokens: a look-alike exists only for
/// an integer or a string of digits (a token "progress-1" has none, and
/// that part tests nothing).
fn look_alikes(s: &mut Session) -> CaseResult {
    let (id, token) = call_request(s, "tools/call", true)?;
    let (other_id, other_token) = (look_alike(&id), look_alike(&token));
    if let Some(other) = &other_token {
        progress(s, other, 1.0)?;
    }
    progress(s, &token, 2.0)?;
    if let Some(other) = &other_id {
        respond_error(
            s,
            other,
            json!({"code": -32603, "message": "an answer to another request"}),
        )?;
    }
    respond(s, &id, tool_result())?;
    let (seen, outcome) = reports_until_outcome(s, "tools/call")?;
    if outcome["kind"] != json!("result") {
        let why = match &other_id {
            Some(other) if outcome["kind"] == json!("error") => format!(
                "an error response with id {other} ended the call whose id is {id}: the two look alike, but a string and an integer are different ids. A response belongs to the request whose id it carries exactly, type included (2025-11-25 basic/index › Result Responses: \"the same ID as the request\"); compare the ids as JSON values"
            ),
            _ => "the call's own response ends it: Outcome::Result".to_string(),
        };
        return Err(Failure::mismatch(
            why,
            json!({"harness": "outcome", "kind": "result", "…": "…"}),
            outcome,
        ));
    }
    let passed: Vec<f64> = seen
        .iter()
        .filter(|r| harness_kind(r) == Some("progress"))
        .filter_map(|r| r["progress"].as_f64())
        .collect();
    if passed != [2.0] {
        let why = match &other_token {
            Some(other) if passed.first() == Some(&1.0) => format!(
                "progress for the token {other} reached on_progress, but the call's token is {token}: a string and an integer are different tokens, however alike they read. Compare the token as a JSON value, type included (2025-11-25 basic/utilities/progress: \"a string or integer value\"), and report the rest through on_violation"
            ),
            _ => format!("progress 2 for the call's token {token} should reach on_progress, and nothing else"),
        };
        return Err(Failure::mismatch(
            why,
            json!({"passed on": [2.0]}),
            json!({"passed on": passed}),
        ));
    }
    Ok(())
}

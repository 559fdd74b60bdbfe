//! Driving an exercise harness: library-style exercises ship a small
//! harness (`src/main.rs`) that exposes the learner's functions over stdio.
//! Lines to and from the harness that are not MCP frames are JSON objects
//! with a `"harness"` member: a command (`{"harness":"encode_request",…}`)
//! or a reported value (`{"harness":"classified",…}`). A panic inside a
//! learner's function comes back as
//! `{"harness":"panic","function":…,"message":…,"location":…}`; an HTTP
//! exercise's harness sends it as the body of a 500 ([`http_panic`]).

use serde_json::Value;

use super::case::{CaseResult, Failure};
use crate::check::http::Reply;
use crate::check::session::{Received, Session, Stop, part_of_a_spread_message};

/// Sends a harness command and returns the harness's reply line, turning a
/// reported panic into a failure that names the learner's function.
pub(crate) fn ask(s: &mut Session, command: Value) -> Result<Received, Failure> {
    s.send_json(&command)?;
    reply(s)
}

/// Reads the next line and turns a reported panic into a failure.
pub(crate) fn reply(s: &mut Session) -> Result<Received, Failure> {
    let got = s.recv()?;
    if harness_kind(&got.value) == Some("panic") {
        return Err(panic_failure(&got.value));
    }
    Ok(got)
}

/// The failure naming a panic in the learner's handler, when `response` is
/// the error response a server harness answers with then: a -32603 carrying
/// the harness's panic report as its `data`.
pub(crate) fn panic_in_response(response: &Value) -> Option<Failure> {
    response
        .pointer("/error/data")
        .filter(|d| harness_kind(d) == Some("panic"))
        .map(panic_failure)
}

/// `reply`, or a failure naming the panic when it is an HTTP harness's 500
/// carrying a panic report.
pub(crate) fn http_panic(reply: Reply) -> Result<Reply, Failure> {
    if reply.status == 500
        && let Some(report) = reply.json().filter(|v| harness_kind(v) == Some("panic"))
    {
        return Err(panic_failure(&report));
    }
    Ok(reply)
}

pub(crate) fn panic_failure(v: &Value) -> Failure {
    let function = v.get("function").and_then(Value::as_str).unwrap_or("your code");
    let message = v.get("message").and_then(Value::as_str).unwrap_or("");
    let location = v.get("location").and_then(Value::as_str).unwrap_or("");
    let todo = if message.starts_with("not yet implemented") || message.starts_with("TODO") {
        " (a TODO still to write)"
    } else {
        ""
    };
    Failure::new(format!("`{function}` panicked at {location}: {message}{todo}"))
}

/// Fails when the program wrote nothing to stderr since it had written
/// `before` bytes: an orphan must be logged, not dropped silently.
pub(crate) fn logged(s: &Session, before: usize, what: &str) -> CaseResult {
    if s.stderr_grew(before, std::time::Duration::from_millis(300)) {
        Ok(())
    } else {
        Err(Failure::new(format!(
            "{what} was dropped without a word: log it to stderr (eprintln!) before dropping it, so that when a call hangs the log shows the stray response"
        )))
    }
}

/// The `"harness"` member of a reported value, e.g. `"classified"`.
pub(crate) fn harness_kind(v: &Value) -> Option<&str> {
    v.get("harness").and_then(Value::as_str)
}

/// Turns a stop on a line that was meant to be one encoded frame into a
/// specific reason: pretty-printing and trailing newlines show up as lines
/// that are not JSON on their own.
pub(crate) fn framing_failure(f: Failure) -> Failure {
    match &f.stop {
        Some(Stop::NotJson { line, .. }) if line.trim().is_empty() => Failure {
            reason: "an empty line on stdout: the frame you returned ends with its own newline. Return the frame without a line ending; the transport adds exactly one".into(),
            ..f
        },
        Some(Stop::NotJson { line, .. }) if part_of_a_spread_message(line) => Failure {
            reason: format!(
                "the frame spans several lines (this line alone is `{line}`): encode it compactly with serde_json::to_string, not to_string_pretty. On stdio every frame is exactly one line (2025-11-25 basic/transports › stdio)"
            ),
            ..f
        },
        Some(Stop::NotJson { line, .. }) if line.trim_start().starts_with(['{', '[']) => Failure {
            reason: format!(
                "the frame is one line but not JSON: `{line}`. Build it as a serde_json value (json!, Map) and encode it with serde_json::to_string: text formatted by hand easily breaks JSON (a {{:?}} of an id prints Int(11), a string needs quotes and escapes). On stdio, \"Messages are individual JSON-RPC requests, notifications, or responses\" (2025-11-25 basic/transports › stdio)"
            ),
            ..f
        },
        _ => f,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_on_one_line_that_is_not_json_is_not_called_pretty_printed() {
        let stop = |line: &str| Failure {
            stop: Some(Stop::NotJson {
                number: 1,
                line: line.to_string(),
            }),
            ..Failure::new("stopped")
        };
        let one_line = framing_failure(stop(r#"{"jsonrpc": "2.0", "id": Int(11), "method": "tools/call"}"#));
        assert!(
            one_line.reason.starts_with("the frame is one line but not JSON"),
            "{}",
            one_line.reason
        );
        for piece in ["{", "  \"jsonrpc\": \"2.0\",", "}"] {
            let spread = framing_failure(stop(piece));
            assert!(
                spread.reason.starts_with("the frame spans several lines"),
                "{piece}: {}",
                spread.reason
            );
        }
        assert!(framing_failure(stop("")).reason.starts_with("an empty line on stdout"));
    }

    #[test]
    fn a_todo_panic_names_the_function_and_place() {
        let f = panic_failure(
            &serde_json::json!({"harness":"panic","function":"classify","message":"not yet implemented: classify a line","location":"src/lib.rs:80:5"}),
        );
        assert_eq!(
            f.reason,
            "`classify` panicked at src/lib.rs:80:5: not yet implemented: classify a line (a TODO still to write)"
        );
    }
}

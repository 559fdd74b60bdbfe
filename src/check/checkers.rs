//! The checkers: for each exercise, a list of named cases. A case talks to a
//! fresh run of the learner's program through a [`Session`] and either
//! passes or returns a [`Failure`] whose reason tells the learner what to
//! change.
//!
//! Library-style exercises ship a small harness (`src/main.rs`) that exposes
//! the learner's functions over stdio. Lines to and from the harness that are
//! not MCP frames are JSON objects with a `"harness"` member: a command
//! (`{"harness":"encode_request",…}`) or a reported value
//! (`{"harness":"classified",…}`). A panic inside a learner's function comes
//! back as `{"harness":"panic","function":…,"message":…,"location":…}`.

mod capstone_server;
mod encode_frames;
mod era_probe;
mod handshake_gate;
mod http_front_door;
mod id_router;
mod input_required;
mod pagination_walker;
mod progress_cancel;
mod server_client;
mod stdio_codec;
mod tool_server;

use std::time::Duration;

use serde_json::Value;

use super::diff::diff;
use super::session::{Received, Session, Stop};

/// Why a case failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// One line a learner can act on.
    pub reason: String,
    /// What a correct program produces, when that is a value.
    pub expected: Option<Value>,
    /// What this program produced.
    pub actual: Option<Value>,
    /// Set when the conversation itself broke (timeout, exit, junk).
    pub stop: Option<Stop>,
}

impl Failure {
    /// A failure with a reason only.
    pub fn new(reason: impl Into<String>) -> Failure {
        Failure {
            reason: reason.into(),
            expected: None,
            actual: None,
            stop: None,
        }
    }

    /// A failure showing expected against actual.
    pub fn mismatch(reason: impl Into<String>, expected: Value, actual: Value) -> Failure {
        Failure {
            reason: reason.into(),
            expected: Some(expected),
            actual: Some(actual),
            stop: None,
        }
    }

    /// Like [`Failure::mismatch`] for an `expected` that names only the
    /// members the case checks: every object in it is open, so the
    /// differences leave out members it does not list (see [`open`]).
    pub fn partial(reason: impl Into<String>, expected: Value, actual: Value) -> Failure {
        Failure::mismatch(reason, open(expected), actual)
    }
}

impl From<Stop> for Failure {
    fn from(stop: Stop) -> Failure {
        Failure {
            reason: stop.reason(),
            expected: None,
            actual: None,
            stop: Some(stop),
        }
    }
}

/// `value` with every object in it marked open (a `"…"` member): a
/// difference is then reported only for what the value lists.
pub(crate) fn open(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut map: serde_json::Map<String, Value> = map.into_iter().map(|(k, v)| (k, open(v))).collect();
            map.insert("…".into(), Value::String("…".into()));
            Value::Object(map)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(open).collect()),
        other => other,
    }
}

/// A case's result.
pub type CaseResult = Result<(), Failure>;

/// One named case of a checker.
pub struct Case {
    /// Short name shown in the case list.
    pub name: &'static str,
    /// What the case proves, in one sentence.
    pub about: &'static str,
    /// Command-line arguments for the learner's program.
    pub args: &'static [&'static str],
    /// The conversation.
    pub run: fn(&mut Session) -> CaseResult,
}

/// How the learner's program is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// A server or an exercise harness: the checker writes to its stdin and
    /// reads its stdout ([`Session::spawn`]).
    Program,
    /// A client: it is given a server command and launches it; the checker
    /// plays that server ([`Session::spawn_client`]).
    Client,
    /// An HTTP server: it is started with `--port N`, a free loopback port
    /// the checker picked, and the checker sends it HTTP requests
    /// ([`crate::check::http`]).
    Http,
}

/// A checker: a name (used in `exercises.toml`) and its cases in order.
pub struct Checker {
    /// The name content refers to.
    pub name: &'static str,
    /// How every case runs the program.
    pub shape: Shape,
    /// Whether the learner's frames are MCP messages: after each case that
    /// passes, every frame it sent is checked against the official types of
    /// its revision ([`crate::check::schema`]), and the first that breaks
    /// them fails the case.
    pub schema: bool,
    /// The cases, run in order.
    pub cases: &'static [Case],
}

static CHECKERS: &[&Checker] = &[
    &encode_frames::CHECKER,
    &id_router::CHECKER,
    &handshake_gate::CHECKER,
    &era_probe::CHECKER,
    &stdio_codec::CHECKER,
    &http_front_door::CHECKER,
    &tool_server::CHECKER,
    &pagination_walker::CHECKER,
    &progress_cancel::CHECKER,
    &input_required::CHECKER,
    &capstone_server::CHECKER,
];

/// The checker called `name`.
pub fn find(name: &str) -> Option<&'static Checker> {
    CHECKERS.iter().copied().find(|c| c.name == name)
}

/// Every checker's name.
pub fn names() -> Vec<&'static str> {
    CHECKERS.iter().map(|c| c.name).collect()
}

/// Sends a harness command and returns the harness's reply line, turning a
/// reported panic into a failure that names the learner's function.
pub(crate) fn ask(s: &mut Session, command: Value) -> Result<Received, Failure> {
    s.send_json(&command)?;
    reply(s)
}

/// Reads the next line and turns a reported panic into a failure.
pub(crate) fn reply(s: &mut Session) -> Result<Received, Failure> {
    let got = s.recv()?;
    if got.value.get("harness").and_then(Value::as_str) == Some("panic") {
        return Err(panic_failure(&got.value));
    }
    Ok(got)
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

/// Passes when `actual` equals `expected` structurally; otherwise fails with
/// `reason` and the differences.
pub(crate) fn same(expected: Value, actual: &Value, reason: &str) -> CaseResult {
    if diff(&expected, actual).is_empty() {
        Ok(())
    } else {
        Err(Failure::mismatch(reason, expected, actual.clone()))
    }
}

/// Like [`same`], for a reason that speaks about particular members only:
/// `reason` is used when a difference lies at or under one of `pointers`.
/// When every difference lies elsewhere, the failure names the first one
/// instead (`call` says what produced `actual`), so a learner is never told
/// to fix a member that is right.
pub(crate) fn same_at(expected: Value, actual: &Value, pointers: &[&str], reason: &str, call: &str) -> CaseResult {
    let differences = diff(&expected, actual);
    let Some(first) = differences.first() else {
        return Ok(());
    };
    let about = |pointer: &str| {
        pointers
            .iter()
            .any(|p| pointer == *p || pointer.strip_prefix(p).is_some_and(|rest| rest.starts_with('/')))
    };
    if differences.iter().any(|d| about(&d.pointer)) {
        return Err(Failure::mismatch(reason, expected, actual.clone()));
    }
    let reason = match (&first.expected, &first.actual) {
        (None, Some(Value::Null)) => {
            let member = first
                .pointer
                .rsplit('/')
                .next()
                .unwrap_or("")
                .replace("~1", "/")
                .replace("~0", "~");
            format!(
                "{call} wrote \"{member}\": null. A member that is absent is left out of the object, not written as null"
            )
        }
        _ => format!("{call} gave a different frame: {}", first.describe()),
    };
    Err(Failure::mismatch(reason, expected, actual.clone()))
}

/// The next frame the client sends. When the client stops instead, the
/// failure says why, from its report: a panic, or the error `connect`
/// returned. `next` names what was due, for the reasons.
pub(crate) fn frame(s: &mut Session, next: &str) -> Result<Value, Failure> {
    frame_or(s, next, |reason| reason)
}

/// Like [`frame`], with `on_stall` given the reason when the client gave
/// up, finished or went quiet instead (not when it panicked or crashed),
/// to add the rule that applies where `next` was due.
pub(crate) fn frame_or(s: &mut Session, next: &str, on_stall: impl FnOnce(String) -> String) -> Result<Value, Failure> {
    let stalled = |f: Failure| Failure {
        reason: on_stall(f.reason.clone()),
        ..f
    };
    match s.recv() {
        Ok(got) => Ok(got.value),
        Err(stop @ (Stop::Exited(_) | Stop::Timeout(_))) => {
            let report = s.recv_output(Duration::from_millis(500))?.map(|r| r.value);
            Err(match (report, stop) {
                (Some(r), _) if harness_kind(&r) == Some("panic") => panic_failure(&r),
                (Some(r), _) if harness_kind(&r) == Some("failed") => stalled(Failure::new(format!(
                    "the client gave up (`{}`) where {next} was due",
                    r["error"].as_str().unwrap_or("?")
                ))),
                (Some(r), _) => stalled(Failure {
                    actual: Some(r),
                    ..Failure::new(format!("the client finished without sending {next}"))
                }),
                (None, Stop::Timeout(after)) => stalled(Failure {
                    stop: Some(Stop::Timeout(after)),
                    ..Failure::new(format!(
                        "the client sent nothing for {:.1} s where {next} was due: is it waiting for an answer that will never come? Every wait needs a timeout",
                        after.as_secs_f64()
                    ))
                }),
                (None, Stop::Exited(status)) => Failure {
                    stop: Some(Stop::Exited(status)),
                    ..Failure::new(match status.and_then(|s| s.code()) {
                        Some(0) => format!(
                            "the client exited (status 0) without sending {next}: it must launch the server command it is given and talk to it until its work is done"
                        ),
                        Some(code) => {
                            format!("the client exited with code {code} without sending {next}; see its stderr")
                        }
                        None => format!(
                            "the client was killed by a signal (or closed the connection) without sending {next}"
                        ),
                    })
                },
                (None, stop) => stop.into(),
            })
        }
        Err(stop) => Err(stop.into()),
    }
}

/// The client's next report line (its own stdout), waiting up to 2 s.
pub(crate) fn report(s: &mut Session) -> Result<Value, Failure> {
    report_or(
        s,
        "the client printed no report where one was due: its call should have ended",
    )
}

/// Like [`report`], with `missing` as the reason when no report comes.
pub(crate) fn report_or(s: &mut Session, missing: &str) -> Result<Value, Failure> {
    match s.recv_output(Duration::from_secs(2))? {
        Some(r) if harness_kind(&r.value) == Some("panic") => Err(panic_failure(&r.value)),
        Some(r) => Ok(r.value),
        None => Err(Failure::new(missing)),
    }
}

/// Answers request `id` with `result`, as the server a client talks to.
pub(crate) fn respond(s: &mut Session, id: &Value, result: Value) -> CaseResult {
    Ok(s.send_json(&serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result}))?)
}

/// Answers request `id` with the error object `error`.
pub(crate) fn respond_error(s: &mut Session, id: &Value, error: Value) -> CaseResult {
    Ok(s.send_json(&serde_json::json!({"jsonrpc": "2.0", "id": id, "error": error}))?)
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
        Some(Stop::NotJson { line, .. }) if line.trim_start().starts_with(['{', '[', '"', '}']) || line.starts_with(' ') => Failure {
            reason: format!(
                "the frame spans several lines (this line alone is `{line}`): encode it compactly with serde_json::to_string, not to_string_pretty. On stdio every frame is exactly one line (2025-11-25 basic/transports › stdio)"
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
    fn every_checker_has_distinct_case_names() {
        for checker in CHECKERS {
            let mut names: Vec<_> = checker.cases.iter().map(|c| c.name).collect();
            names.sort();
            names.dedup();
            assert_eq!(names.len(), checker.cases.len(), "{}", checker.name);
        }
    }

    #[test]
    fn a_reason_about_one_member_is_kept_for_that_member_only() {
        let expected = serde_json::json!({"jsonrpc": "2.0", "id": 0, "result": {}});
        let wrong_id = serde_json::json!({"jsonrpc": "2.0", "id": "0", "result": {}});
        assert_eq!(
            same_at(expected.clone(), &wrong_id, &["/id"], "echo the id", "f()")
                .unwrap_err()
                .reason,
            "echo the id"
        );
        let null_error = serde_json::json!({"jsonrpc": "2.0", "id": 0, "result": {}, "error": null});
        let f = same_at(expected.clone(), &null_error, &["/id"], "echo the id", "f()").unwrap_err();
        assert_eq!(
            f.reason,
            "f() wrote \"error\": null. A member that is absent is left out of the object, not written as null"
        );
        let other = serde_json::json!({"jsonrpc": "2.0", "id": 0, "result": []});
        let f = same_at(expected.clone(), &other, &["/id"], "echo the id", "f()").unwrap_err();
        assert_eq!(f.reason, "f() gave a different frame: /result: expected {}, got []");
        assert!(same_at(expected.clone(), &expected, &["/id"], "echo the id", "f()").is_ok());
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

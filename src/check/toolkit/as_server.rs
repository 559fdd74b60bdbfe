//! The checker as the server of a learner's client: client exercises are
//! given a server command, which the checker answers through a relay
//! ([`super::Shape::Client`]). It reads the frames the client sends, the
//! report lines the client prints, and answers its requests; [`malformed`]
//! holds the responses that are no answer at all.

pub(crate) mod malformed;

use std::time::Duration;

use serde_json::Value;

use super::case::{CaseResult, Failure};
use super::harness::{harness_kind, panic_failure};
use crate::check::session::{Session, Stop};

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
            // A handler's question ("asked") is no outcome: read past it.
            let report = loop {
                match s.recv_output(s.slack(Duration::from_millis(500)))? {
                    Some(r) if harness_kind(&r.value) == Some("asked") => continue,
                    other => break other.map(|r| r.value),
                }
            };
            Err(match (report, stop) {
                (Some(r), _) if harness_kind(&r) == Some("panic") => panic_failure(&r),
                (Some(r), _) if harness_kind(&r) == Some("failed") => stalled(Failure::new(format!(
                    "the client gave up (`{}`) where {next} was due",
                    r["error"].as_str().unwrap_or("?")
                ))),
                (Some(r), _) => stalled(Failure::showing(
                    format!("the client finished without sending {next}"),
                    r,
                )),
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
    match s.recv_output(s.slack(Duration::from_secs(2)))? {
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

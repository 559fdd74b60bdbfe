//! The cancellation cases: a call that times out is cancelled once, with
//! its own id, and a late answer ignored; the cap holds whatever progress
//! comes; legacy cancels; `initialize` is never cancelled (2025-11-25
//! basic/utilities/cancellation).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{call_request, handshake, progress, reports_until_outcome, tool_result};
use crate::check::session::Session;
use crate::check::toolkit::as_server::{frame_or, respond};
use crate::check::toolkit::{CaseResult, Failure};
use crate::jsonrpc::{Kind, classify};

/// Waits for the one cancel of request `id` (the 300 ms idle timeout's),
/// sent no sooner than `after` and no later than `before` (measured from
/// `since`, when the checker read the request: a loaded machine delivers
/// it late, so `after` sits well below the timeout; both stretch with the
/// `--idle-ms` the case gave, see `session/slack.rs`).
fn expect_cancel(s: &mut Session, id: &Value, since: Instant, after: Duration, before: Duration) -> CaseResult {
    let cancel = frame_or(s, "notifications/cancelled", |reason| {
        format!("no notifications/cancelled when the call timed out: {reason}")
    })?;
    let waited = since.elapsed();
    match classify(&cancel) {
        Kind::Notification { method } if method == "notifications/cancelled" => {}
        Kind::Request { method, .. } if method == "notifications/cancelled" => {
            return Err(Failure::showing(
                "notifications/cancelled carries an id: a notification has none, and nobody answers it",
                cancel,
            ));
        }
        _ => {
            return Err(Failure::showing(
                "at the timeout the client sends notifications/cancelled for the call",
                cancel,
            ));
        }
    }
    if cancel.pointer("/params/requestId") != Some(id) {
        return Err(Failure::mismatch(
            format!(
                "the cancel must name the request it cancels: params.requestId {id}, the call's own id, exactly, in type and value"
            ),
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "…": "…"}}),
            cancel,
        ));
    }
    if waited < s.slack(after) {
        return Err(Failure::new(format!(
            "the cancel came after {} ms, well before the 300 ms idle timeout could have run out",
            waited.as_millis()
        ))
        .within(Duration::from_millis(300)));
    }
    if waited > s.slack(before) {
        return Err(Failure::new(format!(
            "the cancel came after {} ms, well past the {} ms it should have taken",
            waited.as_millis(),
            before.as_millis()
        ))
        .within(before));
    }
    Ok(())
}

/// After the cancel: a late response is ignored, no second cancel comes,
/// and the outcome says the call timed out and was cancelled.
fn after_cancel(s: &mut Session, id: &Value) -> CaseResult {
    respond(s, id, tool_result())?;
    // A second cancel or an answer to the late response comes at once if
    // at all: 150 ms of silence (exact, never stretched) shows there is none.
    if let Some(more) = s.recv_within(Duration::from_millis(150))? {
        let what = match more.value.get("method") == Some(&json!("notifications/cancelled")) {
            true => "a second notifications/cancelled for the call",
            false => "something more for the call",
        };
        return Err(Failure::showing(
            format!(
                "after its one notifications/cancelled the client sent {what}. Cancel exactly once, and ignore a late response: the race is normal (2025-11-25 basic/utilities/cancellation › Timing Considerations)"
            ),
            more.value,
        ));
    }
    let (_, outcome) = reports_until_outcome(s, "tools/call")?;
    if outcome["kind"] != json!("timed_out") || outcome["cancelled"] != json!(true) {
        let why = match outcome["kind"].as_str() {
            Some("result") => {
                "the call returned the late response as its result. Once the call is cancelled it is over: a response that arrives afterwards is ignored (the sender SHOULD ignore it, 2025-11-25 basic/utilities/cancellation), and the call ends as Outcome::TimedOut { cancelled: true }"
            }
            _ => "the call ends as Outcome::TimedOut { cancelled: true }",
        };
        return Err(Failure::mismatch(
            why,
            json!({"kind": "timed_out", "cancelled": true, "…": "…"}),
            outcome,
        ));
    }
    Ok(())
}

pub(super) fn one_cancel(s: &mut Session) -> CaseResult {
    let (id, _) = call_request(s, "tools/call", true)?;
    let since = Instant::now();
    expect_cancel(s, &id, since, Duration::from_millis(150), Duration::from_millis(1500))?;
    after_cancel(s, &id)
}

pub(super) fn cap_holds(s: &mut Session) -> CaseResult {
    let (id, token) = call_request(s, "tools/call", true)?;
    let since = Instant::now();
    let mut value = 0.0;
    // Progress every 50 ms: well inside the 300 ms idle timeout, even when
    // a loaded machine delays a few (this is a pace: never stretched).
    // The cap, 600 ms, is judged against 450 ms: midway between the idle
    // timeout (where a client that lets progress reset nothing cancels)
    // and the cap, so delivery delays either way do not blur the two.
    let stopped = |f: Failure| {
        match f.stop {
        Some(crate::check::session::Stop::Exited(_)) => Failure {
            reason: "the client ended the call without a notifications/cancelled: when the cap runs out, send exactly one cancel naming the request, then give up".into(),
            ..f
        },
        _ => f,
    }
    };
    loop {
        value += 1.0;
        progress(s, &token, value).map_err(stopped)?;
        match s
            .recv_within(Duration::from_millis(50))
            .map_err(|e| stopped(e.into()))?
        {
            None if since.elapsed() < s.slack(Duration::from_millis(1500)) => continue,
            None => {
                return Err(Failure::new(
                    "steady progress kept the call alive for 1.5 s, past its 0.6 s cap. Progress MAY reset the idle timeout, but a maximum SHOULD hold however much progress comes (2025-11-25 basic/lifecycle › Timeouts): keep the cap as a separate deadline",
                ));
            }
            Some(got) => {
                let waited = since.elapsed();
                match classify(&got.value) {
                    Kind::Notification { method } if method == "notifications/cancelled" => {}
                    Kind::Request { method, .. } if method == "notifications/cancelled" => {
                        return Err(Failure::showing(
                            "notifications/cancelled carries an id: a notification has none, and nobody answers it",
                            got.value,
                        ));
                    }
                    _ => {
                        return Err(Failure::showing(
                            "while progress came in, only a cancel at the cap was due",
                            got.value,
                        ));
                    }
                }
                if got.value.pointer("/params/requestId") != Some(&id) {
                    return Err(Failure::mismatch(
                        format!("the cancel must name the call: params.requestId {id}, exactly, in type and value"),
                        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "…": "…"}}),
                        got.value,
                    ));
                }
                if waited < s.slack(Duration::from_millis(450)) {
                    return Err(Failure::new(format!(
                        "the call was cancelled after {} ms although progress came every 50 ms, inside the 300 ms idle timeout. Each valid progress notification restarts the idle timer; only the 0.6 s cap ends a call that keeps moving",
                        waited.as_millis()
                    ))
                    .within(Duration::from_millis(300)));
                }
                break;
            }
        }
    }
    after_cancel(s, &id)
}

pub(super) fn legacy_cancel(s: &mut Session) -> CaseResult {
    handshake(s)?;
    let (id, _) = call_request(s, "tools/call", false)?;
    let since = Instant::now();
    expect_cancel(s, &id, since, Duration::from_millis(150), Duration::from_millis(1500))?;
    after_cancel(s, &id)
}

pub(super) fn initialize_not_cancelled(s: &mut Session) -> CaseResult {
    call_request(s, "initialize", false)?;
    // Past the 400 ms cap, with room: no cancel may come for initialize.
    if let Some(sent) = s.recv_within(s.slack(Duration::from_millis(700)))? {
        let reason = if sent.value.get("method") == Some(&json!("notifications/cancelled")) {
            "the client cancelled initialize. initialize MUST NOT be cancelled (2025-11-25 basic/utilities/cancellation): the session exists only through it. A client that gives up on it just stops waiting and closes the connection"
        } else {
            "after an unanswered initialize, nothing more is due"
        };
        return Err(Failure::showing(reason, sent.value));
    }
    let (_, outcome) = reports_until_outcome(s, "initialize")?;
    if outcome["kind"] != json!("timed_out") || outcome["cancelled"] != json!(false) {
        return Err(Failure::mismatch(
            "initialize that times out ends as Outcome::TimedOut { cancelled: false }",
            json!({"kind": "timed_out", "cancelled": false, "…": "…"}),
            outcome,
        ));
    }
    Ok(())
}

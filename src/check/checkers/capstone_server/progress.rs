//! The capstone's countdown: progress notifications that echo the
//! request's token, and cancellation in either era.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{STEP_MS, silent};
use crate::check::session::Session;
use crate::check::toolkit::as_client::{Client, as_result, call_tool, modern_fields, response_to};
use crate::check::toolkit::compare::same;
use crate::check::toolkit::{CaseResult, Failure, ids};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;

/// Reads frames until the response to `id`; returns the frames before it
/// (notifications, other responses) and the response.
pub(super) fn until_response(s: &mut Session, id: &Value, method: &str) -> Result<(Vec<Value>, Value), Failure> {
    let mut before = Vec::new();
    loop {
        let got = s.recv()?.value;
        let mine = match classify(&got) {
            Kind::Success { id: got_id } | Kind::Error { id: Some(got_id), .. } => got_id.to_value() == *id,
            _ => false,
        };
        ids::unchanged(id, &got, &format!("`{method}`"))?;
        if mine {
            return Ok((before, response_to(got, id, method)?));
        }
        before.push(got);
    }
}

/// How long a call sent right behind a cancel may take to be answered.
const QUICK_WITHIN: Duration = Duration::from_millis(1000);

pub(super) fn is_progress(frame: &Value) -> bool {
    frame.get("method") == Some(&json!("notifications/progress"))
}

/// Checks the progress frames of a countdown of `steps` that asked with
/// `token`: each echoes the token, and the values go 1, 2, … `steps`, of
/// `total` steps.
pub(super) fn check_progress(frames: &[Value], token: &Value, id: &Value, steps: u64) -> CaseResult {
    let progress: Vec<&Value> = frames.iter().filter(|f| is_progress(f)).collect();
    if let Some(wrong) = progress
        .iter()
        .find(|p| p.pointer("/params/progressToken") != Some(token))
    {
        let got = wrong.pointer("/params/progressToken").cloned().unwrap_or(Value::Null);
        let why = if got == *id {
            format!(
                "the progress carries the request's id ({id}) as its token: echo the token the request carried in params._meta.progressToken, {token}; the two are different values (2025-11-25 basic/utilities/progress)"
            )
        } else {
            format!(
                "the progress carries progressToken {got}, but the request asked with {token}: echo that token exactly, or the client cannot tell which call it belongs to (2025-11-25 basic/utilities/progress)"
            )
        };
        return Err(Failure::partial(
            why,
            json!({"method": "notifications/progress", "params": {"progressToken": token}}),
            (*wrong).clone(),
        ));
    }
    let values: Vec<Value> = progress
        .iter()
        .map(|p| p.pointer("/params/progress").cloned().unwrap_or(Value::Null))
        .collect();
    let expected: Vec<Value> = (1..=steps).map(|n| json!(n)).collect();
    if values.iter().map(Value::as_f64).collect::<Vec<_>>() != expected.iter().map(Value::as_f64).collect::<Vec<_>>() {
        let numbers: Vec<f64> = values.iter().filter_map(Value::as_f64).collect();
        let why = if numbers.windows(2).any(|w| w[1] <= w[0]) {
            "progress MUST increase with every notification (2025-11-25 basic/utilities/progress › Progress Flow; typescript-sdk#1001): a value that repeats or goes back can hold a client's timeout open forever".to_string()
        } else {
            format!("countdown {steps} reports progress after each step, 1 to {steps}, all before its result")
        };
        return Err(Failure::mismatch(why, json!(expected), json!(values)));
    }
    if let Some(bad) = progress
        .iter()
        .find(|p| p.pointer("/params/total").and_then(Value::as_f64) != Some(steps as f64))
    {
        return Err(Failure::partial(
            format!("each progress of countdown {steps} carries total {steps}"),
            json!({"params": {"total": steps}}),
            (*bad).clone(),
        ));
    }
    Ok(())
}

/// After a countdown's response: nothing more about it may come.
pub(super) fn nothing_after(s: &mut Session) -> CaseResult {
    match s.recv_within(Duration::from_millis(2 * STEP_MS))? {
        None => Ok(()),
        Some(got) if is_progress(&got.value) => Err(Failure::showing(
            "progress came after the countdown's result: progress MUST stop once the response is sent, since the token is dead then (2025-11-25 basic/utilities/progress › Behavior Requirements). Send the last progress, then the result",
            got.value,
        )),
        Some(got) => Err(Failure::showing(
            "after the countdown's result nothing more was due",
            got.value,
        )),
    }
}

/// When fewer than `steps` progress frames came before a countdown's
/// result, fails if the rest come after it.
pub(super) fn early_result(s: &mut Session, before: &[Value], steps: usize) -> CaseResult {
    if before.iter().filter(|f| is_progress(f)).count() < steps {
        nothing_after(s)
    } else {
        Ok(())
    }
}

/// Checks a finished countdown of `steps`.
pub(super) fn liftoff(response: Value, steps: u64, modern: bool) -> CaseResult {
    let result = as_result(
        response,
        "tools/call",
        &json!({"name": "countdown"}),
        if modern { mcp::MODERN } else { mcp::LEGACY },
    )?;
    same(
        json!({"content": [{"type": "text", "text": format!("Liftoff after {steps} steps.")}], "…": "…"}),
        &result,
        &format!("countdown {steps} ends with one text block, \"Liftoff after {steps} steps.\""),
    )?;
    if modern {
        modern_fields(&result, "tools/call", false)?;
    }
    Ok(())
}

pub(super) fn countdown(c: &mut Client, s: &mut Session, steps: u64, token: Option<Value>) -> Result<Value, Failure> {
    let mut params = json!({"name": "countdown", "arguments": {"steps": steps}});
    if let Some(token) = token {
        params["_meta"] = json!({"progressToken": token});
    }
    c.send(s, "tools/call", params)
}

pub(super) fn progress_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    let token = json!("tok-legacy");
    let id = countdown(&mut c, s, 3, Some(token.clone()))?;
    let (before, response) = until_response(s, &id, "tools/call")?;
    early_result(s, &before, 3)?;
    check_progress(&before, &token, &id, 3)?;
    liftoff(response, 3, false)?;
    nothing_after(s)
}

pub(super) fn progress_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let token = json!(77);
    let id = countdown(&mut c, s, 3, Some(token.clone()))?;
    let first = s.recv()?.value;
    if !is_progress(&first) {
        if first.get("id") == Some(&id) {
            early_result(s, &[], 3)?;
        }
        let reason = match classify(&first) {
            Kind::Success { .. } | Kind::Error { .. } => {
                "the countdown answered before any progress: with a progressToken in its _meta, countdown 3 sends progress after each 100 ms step, then its result"
            }
            _ => "the first frame after countdown 3 is its first progress",
        };
        return Err(Failure::partial(
            reason,
            json!({"method": "notifications/progress", "params": {"progressToken": 77, "progress": 1, "total": 3}}),
            first,
        ));
    }
    let other = c.send(
        s,
        "tools/call",
        json!({"name": "reverse", "arguments": {"text": "live"}}),
    )?;
    let (mut before, response) = until_response(s, &id, "tools/call")?;
    before.insert(0, first);
    for frame in &before {
        ids::unchanged(&other, frame, "reverse, sent while countdown 3 ran,")?;
    }
    let answered = before.iter().position(|f| f.get("id") == Some(&other));
    let Some(at) = answered else {
        return Err(Failure::new(
            "reverse, sent while countdown 3 ran, was not answered before the countdown finished: handle() waited for the countdown. Run the countdown on a thread of its own, so the loop keeps reading and answering (and can see a cancellation)",
        ));
    };
    let reversed = before.remove(at);
    same(
        json!({"jsonrpc": "2.0", "id": other, "result": {"content": [{"type": "text", "text": "evil"}], "resultType": "complete", "…": "…"}}),
        &reversed,
        "reverse of \"live\" is \"evil\", with its resultType",
    )?;
    check_progress(&before, &token, &id, 3)?;
    liftoff(response, 3, true)?;
    nothing_after(s)
}

pub(super) fn no_token(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let id = countdown(&mut c, s, 2, None)?;
    let (before, response) = until_response(s, &id, "tools/call")?;
    if let Some(progress) = before.iter().find(|f| is_progress(f)) {
        return Err(Failure::showing(
            "the request carried no progressToken, yet progress came: progress is opt-in, and without a token there is nothing to tag it with (2025-11-25 basic/utilities/progress)",
            progress.clone(),
        ));
    }
    liftoff(response, 2, true)
}

/// Starts countdown 4 with a token, its request's id `id` (a string, so a
/// server that looks cancellations up by integer fails), waits for its
/// first progress, cancels it, and checks that neither progress nor a
/// response follows for it. The cancellation rules of the era in play,
/// `rules` citing them.
pub(super) fn cancelled(c: &mut Client, s: &mut Session, id: Value, rules: &str) -> CaseResult {
    let token = json!("tok-cancel");
    // The cancel must land while the countdown runs: 4 steps on a quiet
    // machine, more (up to the tool's 10) as the load stretches the time
    // the checker takes to read progress 1 and send the cancel. (At 4 a
    // loaded machine let the countdown end first, and the right answer,
    // the result, read as "the cancelled request got a response".)
    let steps = (s.slack(Duration::from_millis(4 * STEP_MS)).as_millis() as u64)
        .div_ceil(STEP_MS)
        .clamp(4, 10);
    let mut params = json!({"name": "countdown", "arguments": {"steps": steps}});
    params["_meta"] = json!({"progressToken": token});
    let id = c.send_as(s, id, "tools/call", params)?;
    let first = s.recv()?.value;
    if !is_progress(&first) {
        return Err(Failure::partial(
            format!(
                "countdown {steps} with a progressToken first sends progress 1 of {steps}, after its first 100 ms step"
            ),
            json!({"method": "notifications/progress", "params": {"progressToken": token, "progress": 1}}),
            first,
        ));
    }
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "the user pressed Esc"}}))?;
    let sent = Instant::now();
    // A quick call right behind the cancel: a server that reads while the
    // countdown runs answers it at once; one whose handle() runs the
    // countdown itself reads both only when the countdown is over.
    let quick = c.send(s, "tools/call", json!({"name": "reverse", "arguments": {"text": "on"}}))?;
    let mut answered_quick = false;
    // The rest of the countdown would take 3 steps: nothing about it may
    // come until past them (a silence window: exact). The quick call is
    // expected within a second (stretched on a loaded machine).
    let silence_until = sent + Duration::from_millis(3 * STEP_MS + 150);
    let quick_until = sent + s.slack(QUICK_WITHIN);
    let in_flight = s.slack(Duration::from_millis(STEP_MS / 2));
    // The first frame about the cancelled call that should not have come.
    // Whether the loop was blocked is decided by order, not by a clock: a
    // server that keeps reading answers the quick call before its
    // countdown's own response; one whose handle() runs the countdown only
    // after it. So the verdict waits for the quick answer or for that
    // response (on a loaded machine the quick answer can come after a
    // progress that was due 100 ms later).
    let mut offence: Option<Value> = None;
    loop {
        let until = match answered_quick {
            true => silence_until,
            false => silence_until.max(quick_until),
        };
        let Some(got) = s.recv_until(until)? else { break };
        let frame = got.value;
        // The quick call's id may look like the countdown's ("0" and 0):
        // only a frame that is not the countdown's can be the quick one's.
        if frame.get("id") != Some(&id) {
            ids::unchanged(&quick, &frame, "the tools/call sent right after the cancel")?;
        }
        if frame.get("id") == Some(&quick) && frame.get("method").is_none() {
            let text = frame.pointer("/result/content/0/text").cloned().unwrap_or(Value::Null);
            if text != json!("no") {
                return Err(Failure::partial(
                    "a call sent right after the cancel is served as usual: reverse of \"on\" is \"no\"",
                    json!({"id": quick, "result": {"content": [{"type": "text", "text": "no"}], "…": "…"}}),
                    frame,
                ));
            }
            answered_quick = true;
            if offence.is_some() {
                break;
            }
            continue;
        }
        // A progress already on its way when the cancel was sent is the
        // normal race (› Timing Considerations).
        if is_progress(&frame) && sent.elapsed() < in_flight {
            continue;
        }
        let about_the_call = is_progress(&frame) || frame.get("id") == Some(&id);
        // An error with code 0 for the cancelled id is that bug whenever it
        // comes: it is not the countdown's result, so it says nothing about
        // a blocked loop.
        let code_0 = frame.get("id") == Some(&id) && frame.pointer("/error/code") == Some(&json!(0));
        if code_0 || !about_the_call {
            let why = if code_0 {
                format!(
                    "the cancelled request {id} got an error response with code 0. A cancelled request gets no response at all ({rules}; python-sdk#2480, where a client reconnected on every cancel), and code 0 means nothing in JSON-RPC"
                )
            } else if frame.get("id").is_some_and(|got| ids::changed(&id, got).is_some()) {
                format!(
                    "the cancelled request {id} got a response, with its id changed on the way ({}): a cancelled request gets no response at all ({rules})",
                    frame["id"]
                )
            } else {
                "after notifications/cancelled nothing was due: a notification is never answered".to_string()
            };
            return Err(Failure::showing(why, frame));
        }
        let ended = frame.get("id") == Some(&id);
        offence.get_or_insert(frame);
        if ended {
            // The countdown's own response: a quick answer still due
            // waited for it.
            break;
        }
    }
    if let Some(frame) = offence {
        let why = if !answered_quick {
            format!(
                "the countdown went on after notifications/cancelled named it, and a call sent right behind the cancel waited for it: handle() runs the countdown itself, so the cancel sits unread in stdin until the countdown is over, and the receiver SHOULD stop the work ({rules}). Run the countdown on a thread of its own and keep reading; the thread checks between steps whether the call was cancelled"
            )
        } else if is_progress(&frame) {
            format!(
                "the countdown went on after notifications/cancelled named it: the receiver SHOULD stop the work and free its resources ({rules}). Check between steps whether the call was cancelled"
            )
        } else {
            format!(
                "the cancelled request {id} got a response. The receiver of notifications/cancelled sends no response for that request ({rules}): the client has forgotten it and would take it for an orphan"
            )
        };
        return Err(Failure::showing(why, frame));
    }
    if !answered_quick {
        return Err(Failure::new(format!(
            "a tools/call sent right after the cancel got no response within {} ms",
            QUICK_WITHIN.as_millis()
        ))
        .within(QUICK_WITHIN));
    }
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999, "reason": "no such call"}}))?;
    silent(
        s,
        Duration::from_millis(100),
        "the client cancelled request 999, which never existed (such a cancel SHOULD be ignored, › Error Handling)",
    )?;
    let after = call_tool(c, s, "reverse", json!({"text": "on"}))?;
    same(
        json!({"content": [{"type": "text", "text": "no"}], "…": "…"}),
        &after,
        "after a cancellation the server stays usable: reverse of \"on\" is \"no\"",
    )
}

/// The legacy cancel: the countdown's id is a plain string.
pub(super) fn cancel_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    cancelled(
        &mut c,
        s,
        json!("req-countdown"),
        "2025-11-25 basic/utilities/cancellation › Behavior Requirements",
    )
}

/// The modern cancel: the countdown's id is the string "0", and the call
/// sent right behind the cancel has the integer 0 (the client's first id).
pub(super) fn cancel_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    cancelled(
        &mut c,
        s,
        json!("0"),
        "2026-07-28 basic/patterns/cancellation › Behavior Requirements",
    )
}

//! The capstone's `cancel one of two`: two countdowns whose ids and
//! tokens look alike ("5" and 5), one cancelled, the other run to its end.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::STEP_MS;
use super::progress::{check_progress, is_progress, liftoff};
use crate::check::session::Session;
use crate::check::toolkit::as_client::{Client, response_to};
use crate::check::toolkit::{CaseResult, Failure, ids};

/// Two countdowns at once whose ids and tokens look alike, crossed: A has
/// id "5" and token 5, B id 5 and token "5". B is cancelled after its first
/// progress; A runs on to its result, its id and its token echoed exactly,
/// and nothing more comes for B. A server that keys its running calls, or
/// reads a cancellation's `requestId`, by the id's text without its type
/// stops both or neither.
pub(super) fn cancel_one_of_two(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let rules = "2026-07-28 basic/patterns/cancellation › Behavior Requirements";
    let (a_token, b_token) = (json!(5), json!("5"));
    let steps = (s.slack(Duration::from_millis(4 * STEP_MS)).as_millis() as u64)
        .div_ceil(STEP_MS)
        .clamp(4, 10);
    let start = |c: &mut Client, s: &mut Session, id: Value, steps: u64, token: &Value| {
        let params = json!({"name": "countdown", "arguments": {"steps": steps}, "_meta": {"progressToken": token}});
        c.send_as(s, id, "tools/call", params)
    };
    let b_steps = (steps + 3).min(10);
    let a = start(&mut c, s, json!("5"), 3, &a_token)?;
    let b = start(&mut c, s, json!(5), b_steps, &b_token)?;
    // A's frames, and B's after the cancel (past the one in flight).
    // A progress is A's or B's by its total (3 or b_steps), so a token
    // changed on the way is named as such.
    let mut a_frames = Vec::new();
    // When the cancel was sent, and B's progress it followed.
    let mut cancelled_at: Option<(Instant, f64)> = None;
    let until = Instant::now() + s.slack(Duration::from_millis(3 * STEP_MS + 1500));
    let in_flight = s.slack(Duration::from_millis(STEP_MS / 2));
    let response = loop {
        let Some(got) = s.recv_until(until)? else {
            return Err(Failure::new(match cancelled_at {
                Some(_) => format!(
                    "countdown 3 with id \"5\" (a string) never answered after notifications/cancelled named request 5 (an integer): the cancel stopped it too. The ids 5 and \"5\" are different ids (2025-11-25 basic/index › Requests: \"a string or integer ID\"); key running calls by the id as the JSON value it is, type included, and cancel only the one the requestId names ({rules})"
                ),
                None => format!(
                    "countdown {b_steps} with id 5 and progressToken \"5\" sent no progress, so the checker could not cancel it"
                ),
            }));
        };
        let frame = got.value;
        let of_b = frame.pointer("/params/total").and_then(Value::as_u64) == Some(b_steps);
        if is_progress(&frame) && of_b {
            let token = frame.pointer("/params/progressToken").cloned().unwrap_or(Value::Null);
            if token != b_token {
                return Err(Failure::partial(
                    format!(
                        "the progress of countdown {b_steps} (id 5) carries progressToken {token}, but its request asked with \"5\" (a string), while countdown 3 beside it asked with 5 (an integer): echo the token exactly, type included, or the client takes one call's progress for the other's (2025-11-25 basic/utilities/progress)"
                    ),
                    json!({"method": "notifications/progress", "params": {"progressToken": b_token}}),
                    frame,
                ));
            }
            let value = frame.pointer("/params/progress").and_then(Value::as_f64).unwrap_or(0.0);
            match cancelled_at {
                None => {
                    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": b, "reason": "only this one"}}))?;
                    cancelled_at = Some((Instant::now(), value));
                }
                // The step after the one the cancel followed may already
                // have been on its way (› Timing Considerations): judged by
                // its value, and by time only beyond it.
                Some((at, last)) if value <= last + 1.0 || at.elapsed() < in_flight => {}
                Some(_) => {
                    return Err(Failure::showing(
                        format!(
                            "countdown {b_steps} with id 5 went on after notifications/cancelled named request 5 (an integer), while countdown 3 with id \"5\" ran beside it: look the requestId up as the JSON value it is, and stop that call between steps ({rules})"
                        ),
                        frame,
                    ));
                }
            }
            continue;
        }
        if frame.get("id") == Some(&b) && frame.get("method").is_none() {
            // Countdown 3's result with its id "5" turned into 5?
            if frame.pointer("/result/content/0/text") == Some(&json!("Liftoff after 3 steps.")) {
                ids::unchanged(&a, &frame, "countdown 3 (id \"5\", sent from its thread)")?;
            }
            return Err(Failure::showing(
                format!(
                    "the cancelled request 5 (an integer) got a response: a cancelled request gets no response at all ({rules})"
                ),
                frame,
            ));
        }
        if frame.get("id") == Some(&a) && frame.get("method").is_none() {
            break frame;
        }
        ids::unchanged(&a, &frame, "countdown 3 (id \"5\")")?;
        a_frames.push(frame);
    };
    if cancelled_at.is_none() {
        return Err(Failure::new(
            "countdown 3 with id \"5\" answered before the countdown with id 5 beside it sent any progress: with a progressToken in its _meta, each countdown sends progress after each 100 ms step",
        ));
    }
    check_progress(&a_frames, &a_token, &a, 3)?;
    liftoff(response_to(response, &a, "tools/call")?, 3, true)?;
    // Nothing more may come, but the step of B that was on its way when the
    // cancel went (a silence window: exact).
    let last = cancelled_at.map_or(0.0, |(_, last)| last);
    let quiet_until = Instant::now() + Duration::from_millis(2 * STEP_MS);
    while let Some(got) = s.recv_until(quiet_until)? {
        let late = got.value;
        let value = late
            .pointer("/params/progress")
            .and_then(Value::as_f64)
            .unwrap_or(f64::MAX);
        let of_b = late.pointer("/params/total").and_then(Value::as_u64) == Some(b_steps);
        if !(is_progress(&late) && of_b && value <= last + 1.0) {
            return Err(Failure::showing(
                "after countdown 3's result nothing more was due: it is over, and the countdown with id 5 beside it was cancelled (a cancelled request gets no more progress and no response)",
                late,
            ));
        }
    }
    Ok(())
}

//! `subscriptions/listen` where a modern server advertises a change
//! notification (`listChanged` on tools, resources or prompts, or
//! resources' `subscribe`), over stdio (2026-07-28
//! basic/patterns/subscriptions): doctor opens a stream asking for what
//! is advertised; the first message carrying the subscription's id must be
//! `notifications/subscriptions/acknowledged`; then doctor cancels it with
//! `notifications/cancelled`, and nothing more may come for it (stdio ›
//! Cancellation) while the server goes on serving. Not over HTTP yet: its
//! stream stays open, and doctor's HTTP client reads whole replies.

use serde_json::{Value, json};

use super::super::lifecycle::open;
use super::super::{Check, Checked, Ctx, Era, Finding, Outcome, rules, setup};
use crate::check::session::Session;
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_client::{next_within, request};
use crate::mcp;

/// The key of a subscription's id in `_meta`.
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// The listen request's id.
const LISTEN_ID: &str = "doctor-listen";

/// The check over stdio: modern only, in a process of its own (a stream
/// left open may go on writing).
pub(in super::super) static CHECK: Check = Check {
    id: "subscriptions-listen",
    name: "subscriptions/listen",
    about: "where a change notification is advertised, subscriptions/listen is acknowledged first (notifications/subscriptions/acknowledged with the subscription id), and after notifications/cancelled nothing more comes for it",
    rule: &rules::LISTEN_ACK,
    eras: &[Era::Modern],
    schema: true,
    run: listen,
};

/// The filter of what `capabilities` advertise, if anything.
pub(in super::super) fn filter(capabilities: &Value) -> Option<Value> {
    let on = |pointer: &str| capabilities.pointer(pointer) == Some(&json!(true));
    let mut filter = json!({});
    for (pointer, field) in [
        ("/tools/listChanged", "toolsListChanged"),
        ("/prompts/listChanged", "promptsListChanged"),
        ("/resources/listChanged", "resourcesListChanged"),
    ] {
        if on(pointer) {
            filter[field] = json!(true);
        }
    }
    // `subscribe` alone: a stream for no resource still gets acknowledged.
    if on("/resources/subscribe") && filter.as_object().is_some_and(serde_json::Map::is_empty) {
        filter["resourceSubscriptions"] = json!([]);
    }
    filter.as_object().is_some_and(|f| !f.is_empty()).then_some(filter)
}

/// Whether `frame` belongs to the subscription (its `_meta` id, or the
/// response to the listen request).
fn on_subscription(frame: &Value) -> bool {
    frame.pointer("/params/_meta").and_then(|m| m.get(SUBSCRIPTION_ID)) == Some(&json!(LISTEN_ID))
        || frame.get("id") == Some(&json!(LISTEN_ID))
}

fn listen(s: &mut Session, ctx: &Ctx) -> Checked {
    let Some(filter) = filter(&ctx.capabilities) else {
        return Ok(Outcome::Skip(
            "the server advertises no change notification (listChanged, subscribe)".into(),
        ));
    };
    open(s, ctx).map_err(setup)?;
    let meta = mcp::request_meta(mcp::MODERN);
    let frame = request(
        LISTEN_ID,
        "subscriptions/listen",
        Some(json!({"notifications": filter, "_meta": meta})),
    );
    s.send_json(&frame)?;
    // The first message of the subscription: the acknowledgment.
    let first = loop {
        match next_within(s, ctx.startup)? {
            Some(got) if on_subscription(&got.value) => break Some(got.value),
            Some(_) => continue,
            None => break None,
        }
    };
    let acknowledged = first
        .as_ref()
        .is_some_and(|f| f["method"] == json!("notifications/subscriptions/acknowledged"));
    if !acknowledged {
        let reason = match &first {
            None => format!(
                "subscriptions/listen ({filter}) got nothing within {} s: notifications/subscriptions/acknowledged is due first",
                ctx.startup.as_secs()
            ),
            Some(_) => "the first message of the subscription is not notifications/subscriptions/acknowledged".into(),
        };
        let expected = json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"_meta": {SUBSCRIPTION_ID: LISTEN_ID}, "notifications": "…"}});
        let failure = match first {
            Some(got) => Failure::partial(reason, expected, got),
            None => Failure::new(reason),
        };
        return Err(Finding::under(&rules::LISTEN_ACK, failure));
    }
    // The client ends it; then a served request. Stdio is read in order:
    // once that request is answered the server has read the cancel, and
    // nothing more may come for the subscription. Before then a
    // notification may have been on its way (sent before the cancel was
    // read): only a response to the listen request, which the cancel
    // leaves nothing to answer, fails there.
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": LISTEN_ID, "reason": "doctor", "_meta": mcp::request_meta(mcp::MODERN)}}))?;
    let after = super::super::detect::discover("doctor-after-listen", mcp::MODERN);
    s.send_json(&after)?;
    loop {
        let Some(got) = next_within(s, ctx.startup)? else {
            return Err(setup(Failure::new(
                "after the subscription was cancelled, server/discover got no answer",
            )));
        };
        if got.value.get("id") == Some(&json!("doctor-after-listen")) {
            break;
        }
        if got.value.get("id") == Some(&json!(LISTEN_ID)) {
            return Err(after_cancel(got.value));
        }
    }
    // What the server writes for the subscription once it has read the
    // cancel, within a moment (other messages read past).
    let until = std::time::Instant::now() + std::time::Duration::from_millis(300);
    while let Some(left) = until.checked_duration_since(std::time::Instant::now()) {
        match next_within(s, left)? {
            Some(got) if on_subscription(&got.value) => return Err(after_cancel(got.value)),
            Some(_) => continue,
            None => break,
        }
    }
    Ok(Outcome::Note(format!(
        "acknowledged {}",
        first.map_or(json!(null), |f| f["params"]["notifications"].clone())
    )))
}

/// The finding for `frame`, a message for the subscription after the
/// server read its cancel.
fn after_cancel(frame: Value) -> Finding {
    Finding::under(
        &rules::LISTEN_CANCELLED,
        Failure::showing(
            "after notifications/cancelled ended the subscription, the server still sent a message for it",
            frame,
        ),
    )
}

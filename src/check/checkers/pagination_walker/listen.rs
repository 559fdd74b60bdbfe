//! 08's `listen: ours invalidates`: the subscription that tells the walker
//! its cached list went stale.

use std::time::Duration;

use serde_json::json;

use super::{all_listed, from_cache, no_request, serve_walk};
use crate::check::session::Session;
use crate::check::toolkit::as_server::{frame, report_or};
use crate::check::toolkit::harness::harness_kind;
use crate::check::toolkit::{CaseResult, Failure};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;
use crate::mcp::meta::SUBSCRIPTION_ID;

pub(super) fn listen(s: &mut Session) -> CaseResult {
    let request = frame(s, "a subscriptions/listen request")?;
    let id = match classify(&request) {
        Kind::Request { id, method } if method == "subscriptions/listen" => id.to_value(),
        _ => {
            return Err(Failure::showing(
                "with --listen the walker opens a subscriptions/listen stream first",
                request,
            ));
        }
    };
    if request.pointer("/params/notifications/toolsListChanged") != Some(&json!(true))
        || request
            .pointer("/params/_meta")
            .and_then(|m| m.get(mcp::meta::PROTOCOL_VERSION))
            .is_none()
    {
        return Err(Failure::showing(
            "subscriptions/listen opts in to what it wants: params.notifications.toolsListChanged true, plus the modern _meta (SubscriptionsListenRequest, 2026-07-28)",
            request,
        ));
    }
    no_request(
        s,
        Duration::from_millis(150),
        "the walker went on before the acknowledgement. Nothing arrives on a subscription before notifications/subscriptions/acknowledged: wait for it",
    )?;
    let tag = json!({SUBSCRIPTION_ID: id});
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"notifications": {"toolsListChanged": true}, "_meta": tag}}))?;
    let got = report_or(
        s,
        "listen() did not return after the acknowledgement. A listen request gets no response while its stream is open: the acknowledgement notification, tagged with the request's id, is the signal to go on (request() would wait for a response that never comes)",
    )?;
    if harness_kind(&got) != Some("listening") {
        return Err(Failure::showing(
            "the acknowledgement, tagged with the listen request's id, completes listen()",
            got,
        ));
    }
    serve_walk(s, Some(60_000))?;
    all_listed(s, 1)?;
    from_cache(s, 2, "the pages said ttlMs 60000")?;
    let other = json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": {SUBSCRIPTION_ID: "someone-else"}}});
    s.send_json(&other)?;
    from_cache(
        s,
        3,
        "a list_changed tagged with another subscription id made the walker fetch again. Check the tag: only a notification carrying your listen request's id is about your stream",
    )?;
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": tag}}))?;
    serve_walk(s, Some(60_000)).map_err(|f| Failure {
        reason: format!("{} (a notifications/tools/list_changed tagged with this walker's subscription id makes the cached list stale: the next listing walks again)", f.reason),
        ..f
    })?;
    all_listed(s, 4)
}

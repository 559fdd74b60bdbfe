//! Malformed answers to the probe: a response with the probe's id that
//! breaks the response rules (both `result` and `error`, neither, a wrong or
//! missing `jsonrpc`, an id of a forbidden type, an error object without an
//! integer `code` and a string `message`) is no answer at all. The client
//! skips it and keeps waiting, so it is neither a modern answer nor a
//! legacy one: what decides the era is the well-formed answer after it.
//! Rules: JSON-RPC 2.0 §5 and 2025-11-25 / 2026-07-28 basic/index ›
//! Responses (see [`crate::check::toolkit::as_server::malformed`]).

use serde_json::{Value, json};

use super::legacy::{check_initialize, initialized, legacy_tools_list};
use super::{discover_result, initialize_result, modern_tools_list, probe, tools};
use crate::check::session::Session;
use crate::check::toolkit::as_server::malformed::{self, Malformed, Reading};
use crate::check::toolkit::as_server::{frame_or, report_or, respond, respond_error};
use crate::check::toolkit::{CaseResult, Failure};
use crate::mcp;
use crate::mcp::meta::SERVER_INFO;

/// The malformed answers to the probe `id` a careless client reads as
/// `reading` (or as either, for both members).
fn shapes(id: &Value, reading: Reading) -> Vec<Malformed> {
    malformed::responses(
        id,
        |label| {
            let mut result = discover_result(&[mcp::MODERN]);
            // The label reaches the report, which shows which one was taken.
            result["_meta"][SERVER_INFO] = json!({"name": label, "version": "0"});
            result
        },
        |label| json!({"code": -32601, "message": label}),
    )
    .into_iter()
    .filter(|m| m.reading == reading || m.reading == Reading::Both)
    .collect()
}

const SKIP: &str = "A malformed response is no answer at all: skip it (log it) and keep waiting for a well-formed response with the probe's id";

/// Malformed answers that carry a `result`, then a well-formed -32601: the
/// client falls back to `initialize`. Then a second, well-formed answer to
/// the probe arrives while `initialize` waits: it is not initialize's
/// answer.
pub(super) fn not_modern(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    let sent = shapes(&id, Reading::Result);
    for m in &sent {
        s.send_json(&m.frame)?;
    }
    respond_error(s, &id, json!({"code": -32601, "message": "Method not found"}))?;
    let after = "after malformed answers and then -32601";
    let next = frame_or(s, "the fallback to initialize", |reason| {
        format!("{reason}: {after} the server is legacy")
    })?;
    if next.get("method") == Some(&json!("tools/list")) {
        return Err(went_modern(s, next, &sent));
    }
    let init = check_initialize(next, after, &id, mcp::LEGACY)?;
    // The probe answered twice: the second answer is a stray.
    respond(s, &id, discover_result(&[mcp::MODERN]))?;
    respond(s, &init, initialize_result(mcp::LEGACY))?;
    initialized(s).map_err(|f| Failure {
        reason: format!(
            "{} (a second answer to the probe, id {id}, came before the initialize result: a response with another request's id is not initialize's answer)",
            f.reason
        ),
        ..f
    })?;
    legacy_tools_list(s, mcp::LEGACY)
}

/// The client sent `tools/list` after malformed answers and -32601: it
/// took one of them for a DiscoverResult. Its report names which.
fn went_modern(s: &mut Session, request: Value, sent: &[Malformed]) -> Failure {
    if let Some(id) = request.get("id") {
        let _ = respond(
            s,
            id,
            json!({"resultType": "complete", "tools": tools(), "ttlMs": 0, "cacheScope": "private"}),
        );
    }
    let report = report_or(s, "no report").ok();
    let label = report
        .as_ref()
        .and_then(|r| r.pointer("/serverInfo/name"))
        .and_then(Value::as_str);
    let reason = match sent.iter().find(|m| Some(m.label) == label) {
        Some(m) => format!(
            "the client took the answer with {} for a DiscoverResult and stayed modern, but {}. {SKIP}: here the one that followed, -32601, means legacy",
            m.label, m.rule
        ),
        None => format!(
            "the client stayed modern although the only well-formed answer to the probe was -32601: it took one of the malformed answers before it ({}) for a DiscoverResult. {SKIP}",
            labels(sent)
        ),
    };
    Failure::showing(reason, report.unwrap_or(request))
}

/// Malformed answers that carry something error-ish, then a well-formed
/// DiscoverResult: the client stays modern.
pub(super) fn not_legacy(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    let sent = shapes(&id, Reading::Error);
    for m in &sent {
        s.send_json(&m.frame)?;
    }
    respond(s, &id, discover_result(&[mcp::MODERN]))?;
    modern_tools_list(s, mcp::MODERN, std::slice::from_ref(&id)).map_err(|f| {
        let label = f.actual.as_ref().and_then(|a| a.pointer("/serverInfo/name"));
        if let Some(m) = sent.iter().find(|m| label == Some(&json!(m.label))) {
            return Failure {
                reason: format!(
                    "the client took the answer with {} for a DiscoverResult, but {}. {SKIP}",
                    m.label, m.rule
                ),
                ..f
            };
        }
        match f.actual.as_ref().and_then(|a| a.get("method")) == Some(&json!("initialize")) {
            true => Failure {
                reason: format!(
                    "the client fell back to initialize although the only well-formed answer to the probe was a DiscoverResult: it took one of the malformed answers before it ({}) for an error. Each breaks a rule: a response carries exactly one of result and error (JSON-RPC 2.0 §5), and \"Error responses MUST include an `error` field with a `code` and `message`\" with \"Error codes MUST be integers\" (2025-11-25 basic/index › Responses). {SKIP}",
                    labels(&sent)
                ),
                ..f
            },
            false => f,
        }
    })
}

fn labels(shapes: &[Malformed]) -> String {
    shapes.iter().map(|m| m.label).collect::<Vec<_>>().join("; ")
}

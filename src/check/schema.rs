//! Checks the frames a learner's program sends against the official MCP
//! types of the revision in play, and says where a frame breaks them:
//! `result.content[0]: missing `type` (CallToolResult, 2025-11-25)`.
//!
//! The types come from the `rust-mcp-schema` crate, which is generated from
//! the official `schema.json` of each revision: 0.10 for 2025-11-25 (the
//! newest legacy revision) and 2.0 for 2026-07-28 (the modern one). One
//! major version of that crate compiles only one revision at a time, so the
//! two are separate dependencies of the workspace's `mcplings-types` crate
//! (`crates/types`), which deserializes a value into them and says where it
//! does not fit; this module picks the definition and words the report.
//!
//! What is checked is the frame's own definition: a request against its
//! method's request type (`CallToolRequest`), a notification against its
//! notification type, a response against `JSONRPCResultResponse` and then the
//! result type of the request it answers (`CallToolResult` for `tools/call`),
//! an error response against `JSONRPCErrorResponse`. Methods outside the
//! revision's schema are left to the checkers.

mod methods;
#[cfg(test)]
mod tests;

use std::fmt;

use serde_json::Value;

use super::report::{Direction, EntryKind, TranscriptEntry};
use crate::mcp;
use mcplings_types::{Problem, join, legacy_types, modern_types};
use methods::{message_definition, result_definition};

/// The `_meta` key that marks a modern (2026-07-28) request.
pub use crate::mcp::meta::PROTOCOL_VERSION as META_PROTOCOL_VERSION;

/// A revision whose official types frames are checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revision {
    /// 2025-11-25, the newest legacy (handshake-era) revision. Frames of
    /// older legacy revisions are checked against it too: their messages
    /// are a subset, apart from fields later revisions added as optional.
    Legacy,
    /// 2026-07-28, the modern (stateless) revision.
    Modern,
}

impl Revision {
    /// The revision's date, e.g. `2025-11-25`.
    pub fn date(self) -> &'static str {
        match self {
            Revision::Legacy => mcp::LEGACY,
            Revision::Modern => mcp::MODERN,
        }
    }

    /// The revision a request belongs to: modern when its `params._meta`
    /// names a protocol version, or when it is `server/discover`
    /// (2026-07-28 basic/lifecycle); legacy otherwise.
    pub fn of_request(request: &Value) -> Revision {
        let modern_meta = request
            .pointer("/params/_meta")
            .and_then(Value::as_object)
            .is_some_and(|m| m.contains_key(META_PROTOCOL_VERSION));
        if modern_meta || request.get("method").and_then(Value::as_str) == Some("server/discover") {
            Revision::Modern
        } else {
            Revision::Legacy
        }
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.date())
    }
}

/// Where a frame breaks its definition, and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The path to the offending member, dotted with `[index]` for arrays:
    /// `result.content[0]`, `params.arguments`; `(the frame)` for the root.
    pub at: String,
    /// What is wrong there, e.g. ``missing `type` ``.
    pub problem: String,
    /// The schema definition the frame was checked against, e.g. `CallToolResult`.
    pub definition: &'static str,
    /// The revision whose schema that definition comes from.
    pub revision: Revision,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} ({}, {})",
            self.at, self.problem, self.definition, self.revision
        )
    }
}

/// What came of checking a transcript.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checked {
    /// Frames checked against a definition.
    pub frames: usize,
    /// The first frame that broke its definition, if any.
    pub violation: Option<Violation>,
    /// That frame.
    pub offending: Option<Value>,
}

/// Checks every frame the learner sent in `transcript`, in order.
///
/// A request's revision comes from its own `_meta` ([`Revision::of_request`]);
/// a response's from the request it answers (the latest one sent to the
/// learner with the same id); a notification's from the latest request in
/// either direction. Lines that are not JSON, harness lines, and frames
/// whose method the revision does not define are skipped.
pub fn check_transcript(transcript: &[TranscriptEntry]) -> Checked {
    let mut checked = Checked::default();
    let mut asked: Vec<Value> = Vec::new();
    let mut era = Revision::Legacy;
    for entry in transcript.iter().filter(|e| e.kind == EntryKind::Frame) {
        let Ok(frame) = serde_json::from_str::<Value>(&entry.line) else {
            continue;
        };
        let method = frame.get("method").and_then(Value::as_str);
        let is_request = method.is_some() && frame.get("id").is_some();
        if is_request {
            era = Revision::of_request(&frame);
        }
        if entry.dir == Direction::ToLearner {
            if is_request {
                asked.push(frame);
            }
            continue;
        }
        let outcome = match method {
            Some(method) => check_message(era, method, &frame),
            None => match asked
                .iter()
                .rev()
                .find(|r| frame.get("id").is_some() && r.get("id") == frame.get("id"))
            {
                Some(request) => check_response(request, &frame),
                None => None,
            },
        };
        if let Some(outcome) = outcome {
            checked.frames += 1;
            if let (Err(violation), None) = (outcome, &checked.violation) {
                checked.violation = Some(violation);
                checked.offending = Some(frame);
            }
        }
    }
    checked
}

/// Checks a request or notification against its method's definition in
/// `revision`; `None` when that revision defines no such method.
pub fn check_message(revision: Revision, method: &str, frame: &Value) -> Option<Result<(), Violation>> {
    let definition = message_definition(revision, method)?;
    Some(check(revision, definition, frame, ""))
}

/// Checks `response` against the definitions for an answer to `request`:
/// `JSONRPCErrorResponse` for an error, else `JSONRPCResultResponse` and the
/// result type of the request's method. `None` when the request's method
/// is not one the revision defines.
pub fn check_response(request: &Value, response: &Value) -> Option<Result<(), Violation>> {
    let revision = Revision::of_request(request);
    if response.get("error").is_some() && response.get("result").is_none() {
        return Some(check(revision, "JSONRPCErrorResponse", response, ""));
    }
    let method = request.get("method").and_then(Value::as_str)?;
    let result_type = result_definition(revision, method)?;
    if let Err(violation) = check(revision, "JSONRPCResultResponse", response, "") {
        return Some(Err(violation));
    }
    let result = response.get("result").unwrap_or(&Value::Null);
    // 2026-07-28 lets three methods answer "ask the user first" instead
    // (server/utilities/input-required): the result names which by resultType.
    let asks =
        revision == Revision::Modern && result.get("resultType").and_then(Value::as_str) == Some("input_required");
    let definition = if asks && matches!(method, "tools/call" | "prompts/get" | "resources/read") {
        "InputRequiredResult"
    } else {
        result_type
    };
    Some(check(revision, definition, result, "result"))
}

/// Checks `value` against the definition called `definition` (its name in
/// the official schema, e.g. `CallToolResult`) in `revision`, reporting
/// paths under `prefix`. A definition the types do not cover passes.
pub fn check(revision: Revision, definition: &'static str, value: &Value, prefix: &str) -> Result<(), Violation> {
    let outcome = match revision {
        Revision::Legacy => legacy_types(definition, value),
        Revision::Modern => modern_types(definition, value),
    };
    match outcome {
        None | Some(Ok(())) => Ok(()),
        Some(Err(Problem { path, message })) => {
            let at = join(prefix, &path);
            Err(Violation {
                at: if at.is_empty() { "(the frame)".into() } else { at },
                problem: message,
                definition,
                revision,
            })
        }
    }
}

/// Whether `revision`'s types cover the definition called `definition`.
pub fn covers(revision: Revision, definition: &str) -> bool {
    let probe = Value::Null;
    match revision {
        Revision::Legacy => legacy_types(definition, &probe).is_some(),
        Revision::Modern => modern_types(definition, &probe).is_some(),
    }
}

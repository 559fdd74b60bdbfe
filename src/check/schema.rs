//! Checks the frames a learner's program sends against the official MCP
//! types of the revision in play, and says where a frame breaks them:
//! `result.content[0]: missing `type` (CallToolResult, 2025-11-25)`.
//!
//! The types come from the `rust-mcp-schema` crate, which is generated from
//! the official `schema.json` of each revision: 0.10 for 2025-11-25 (the
//! newest legacy revision) and 2.0 for 2026-07-28 (the modern one). One
//! major version of that crate compiles only one revision at a time, so the
//! two are separate dependencies.
//!
//! What is checked is the frame's own definition: a request against its
//! method's request type (`CallToolRequest`), a notification against its
//! notification type, a response against `JSONRPCResultResponse` and then the
//! result type of the request it answers (`CallToolResult` for `tools/call`),
//! an error response against `JSONRPCErrorResponse`. Methods outside the
//! revision's schema are left to the checkers.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_path_to_error::Segment;

use super::report::{Direction, EntryKind, TranscriptEntry};
use crate::mcp;

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

/// The request or notification definition for `method` in `revision`.
fn message_definition(revision: Revision, method: &str) -> Option<&'static str> {
    let both = match method {
        "tools/call" => "CallToolRequest",
        "tools/list" => "ListToolsRequest",
        "resources/list" => "ListResourcesRequest",
        "resources/templates/list" => "ListResourceTemplatesRequest",
        "resources/read" => "ReadResourceRequest",
        "prompts/list" => "ListPromptsRequest",
        "prompts/get" => "GetPromptRequest",
        "completion/complete" => "CompleteRequest",
        "sampling/createMessage" => "CreateMessageRequest",
        "elicitation/create" => "ElicitRequest",
        "roots/list" => "ListRootsRequest",
        "notifications/cancelled" => "CancelledNotification",
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/prompts/list_changed" => "PromptListChangedNotification",
        "notifications/resources/list_changed" => "ResourceListChangedNotification",
        "notifications/resources/updated" => "ResourceUpdatedNotification",
        _ => "",
    };
    if !both.is_empty() {
        return Some(both);
    }
    match (revision, method) {
        (Revision::Legacy, "initialize") => Some("InitializeRequest"),
        (Revision::Legacy, "notifications/initialized") => Some("InitializedNotification"),
        (Revision::Legacy, "ping") => Some("PingRequest"),
        (Revision::Legacy, "logging/setLevel") => Some("SetLevelRequest"),
        (Revision::Legacy, "resources/subscribe") => Some("SubscribeRequest"),
        (Revision::Legacy, "resources/unsubscribe") => Some("UnsubscribeRequest"),
        (Revision::Legacy, "notifications/roots/list_changed") => Some("RootsListChangedNotification"),
        (Revision::Legacy, "notifications/elicitation/complete") => Some("ElicitationCompleteNotification"),
        (Revision::Modern, "server/discover") => Some("DiscoverRequest"),
        (Revision::Modern, "subscriptions/listen") => Some("SubscriptionsListenRequest"),
        (Revision::Modern, "notifications/subscriptions/acknowledged") => Some("SubscriptionsAcknowledgedNotification"),
        _ => None,
    }
}

/// The result definition for a response to `method` in `revision`.
fn result_definition(revision: Revision, method: &str) -> Option<&'static str> {
    Some(match (revision, method) {
        (_, "tools/call") => "CallToolResult",
        (_, "tools/list") => "ListToolsResult",
        (_, "resources/list") => "ListResourcesResult",
        (_, "resources/templates/list") => "ListResourceTemplatesResult",
        (_, "resources/read") => "ReadResourceResult",
        (_, "prompts/list") => "ListPromptsResult",
        (_, "prompts/get") => "GetPromptResult",
        (_, "completion/complete") => "CompleteResult",
        (_, "sampling/createMessage") => "CreateMessageResult",
        (_, "elicitation/create") => "ElicitResult",
        (_, "roots/list") => "ListRootsResult",
        (Revision::Legacy, "initialize") => "InitializeResult",
        (Revision::Legacy, "ping" | "logging/setLevel" | "resources/subscribe" | "resources/unsubscribe") => {
            "EmptyResult"
        }
        (Revision::Modern, "server/discover") => "DiscoverResult",
        (Revision::Modern, "subscriptions/listen") => "SubscriptionsListenResult",
        _ => return None,
    })
}

/// A deserialisation failure: the path to it and what went wrong.
struct Problem {
    path: String,
    message: String,
}

/// The lookup of one revision's types by definition name.
type Lookup = fn(&str, &Value) -> Option<Result<(), Problem>>;

/// Deserialises `value` as `T`, keeping the path of the first failure;
/// `types` are the revision's types, for a closer look at untagged enums.
fn typed<T: DeserializeOwned>(value: &Value, types: Lookup) -> Result<(), Problem> {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(_) => Ok(()),
        Err(error) => {
            let segments: Vec<Segment> = error.path().iter().cloned().collect();
            let path = segments.iter().fold(String::new(), |path, segment| match segment {
                Segment::Seq { index } => format!("{path}[{index}]"),
                Segment::Map { key } | Segment::Enum { variant: key } => join(&path, key),
                Segment::Unknown => path,
            });
            let message = plain(&error.inner().to_string());
            // serde's word for an untagged enum that matched no variant says
            // nothing of why; content blocks and ids are worth a closer look.
            let at = segments.iter().try_fold(value, |v, s| match s {
                Segment::Seq { index } => v.get(*index),
                Segment::Map { key } => v.get(key.as_str()),
                _ => None,
            });
            match (message.contains("untagged enum"), at) {
                (true, Some(at)) => Err(closer_look(&message, at, types).map_or(
                    Problem {
                        path: path.clone(),
                        message,
                    },
                    |p| Problem {
                        path: join(&path, &p.path),
                        message: p.message,
                    },
                )),
                _ => Err(Problem { path, message }),
            }
        }
    }
}

/// A better account of an untagged-enum failure at `value`, when the enum
/// is one learners meet often.
fn closer_look(message: &str, value: &Value, types: Lookup) -> Option<Problem> {
    let here = |message: String| {
        Some(Problem {
            path: String::new(),
            message,
        })
    };
    if message.contains("enum RequestId") || message.contains("enum ProgressToken") {
        return here(format!("is {}, expected a string or an integer", kind_of(value)));
    }
    if !message.contains("enum ContentBlock") {
        return None;
    }
    let Some(object) = value.as_object() else {
        return here(format!(
            "is {}, expected a content block (an object with `type`)",
            kind_of(value)
        ));
    };
    let Some(kind) = object.get("type") else {
        return here("missing `type`".into());
    };
    const KINDS: &str = "`text`, `image`, `audio`, `resource_link` or `resource`";
    let definition = match kind.as_str() {
        Some("text") => "TextContent",
        Some("image") => "ImageContent",
        Some("audio") => "AudioContent",
        Some("resource_link") => "ResourceLink",
        Some("resource") => "EmbeddedResource",
        _ => return here(format!("`type` is {kind}, expected {KINDS}")),
    };
    types(definition, value)?.err()
}

/// `a.b` from `a` and `b`, without a dot when either is empty.
fn join(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty() || path == ".") {
        (_, true) => prefix.to_string(),
        (true, false) => path.to_string(),
        (false, false) if path.starts_with('[') => format!("{prefix}{path}"),
        (false, false) => format!("{prefix}.{path}"),
    }
}

/// serde's messages in plainer words: ``missing field `x` `` → ``missing `x` ``,
/// `invalid type: sequence, expected a map` → `is an array, expected an object`.
fn plain(message: &str) -> String {
    let message = message.replace("missing field ", "missing ");
    let Some(rest) = message.strip_prefix("invalid type: ") else {
        return message;
    };
    let got = |s: &str| match s {
        "map" => "an object".to_string(),
        "sequence" => "an array".to_string(),
        "unit value" => "null".to_string(),
        _ => ["string ", "integer ", "floating point ", "boolean "]
            .iter()
            .find(|p| s.starts_with(*p))
            .map_or(s.to_string(), |p| {
                let value = s[p.len()..].trim_matches('`');
                format!(
                    "{} {value}",
                    if *p == "floating point " {
                        "the number"
                    } else if *p == "integer " {
                        "the integer"
                    } else if *p == "boolean " {
                        "the boolean"
                    } else {
                        "a string"
                    }
                )
            }),
    };
    let expected = |s: &str| match s {
        "a sequence" => "an array".to_string(),
        "a map" => "an object".to_string(),
        "i64" | "u64" | "i32" | "u32" | "i16" | "u16" | "i8" | "u8" => "an integer".to_string(),
        "f64" | "f32" => "a number".to_string(),
        _ => s
            .strip_prefix("struct ")
            .map_or(s.to_string(), |name| format!("an object ({name})")),
    };
    match rest.split_once(", expected ") {
        Some((found, wanted)) => format!("is {}, expected {}", got(found), expected(wanted)),
        None => format!("is {}", got(rest)),
    }
}

/// `an object`, `an array`, `a string` … for a JSON value.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A lookup from schema definition names to the generated types of one
/// revision: `Some(outcome)` when the name is covered.
macro_rules! definitions {
    ($name:ident, $module:ident, [$($definition:literal => $ty:ident),* $(,)?]) => {
        fn $name(definition: &str, value: &Value) -> Option<Result<(), Problem>> {
            Some(match definition {
                $($definition => typed::<$module::$ty>(value, $name),)*
                _ => return None,
            })
        }
    };
}

definitions!(legacy_types, legacy, [
    "JSONRPCResultResponse" => JsonrpcResultResponse,
    "JSONRPCErrorResponse" => JsonrpcErrorResponse,
    "JSONRPCRequest" => JsonrpcRequest,
    "JSONRPCNotification" => JsonrpcNotification,
    "InitializeRequest" => InitializeRequest,
    "InitializeResult" => InitializeResult,
    "InitializedNotification" => InitializedNotification,
    "PingRequest" => PingRequest,
    "EmptyResult" => EmptyResult,
    "CallToolRequest" => CallToolRequest,
    "CallToolResult" => CallToolResult,
    "ListToolsRequest" => ListToolsRequest,
    "ListToolsResult" => ListToolsResult,
    "ListResourcesRequest" => ListResourcesRequest,
    "ListResourcesResult" => ListResourcesResult,
    "ListResourceTemplatesRequest" => ListResourceTemplatesRequest,
    "ListResourceTemplatesResult" => ListResourceTemplatesResult,
    "ReadResourceRequest" => ReadResourceRequest,
    "ReadResourceResult" => ReadResourceResult,
    "SubscribeRequest" => SubscribeRequest,
    "UnsubscribeRequest" => UnsubscribeRequest,
    "ListPromptsRequest" => ListPromptsRequest,
    "ListPromptsResult" => ListPromptsResult,
    "GetPromptRequest" => GetPromptRequest,
    "GetPromptResult" => GetPromptResult,
    "CompleteRequest" => CompleteRequest,
    "CompleteResult" => CompleteResult,
    "CreateMessageRequest" => CreateMessageRequest,
    "CreateMessageResult" => CreateMessageResult,
    "ElicitRequest" => ElicitRequest,
    "ElicitResult" => ElicitResult,
    "ListRootsRequest" => ListRootsRequest,
    "ListRootsResult" => ListRootsResult,
    "SetLevelRequest" => SetLevelRequest,
    "CancelledNotification" => CancelledNotification,
    "ProgressNotification" => ProgressNotification,
    "LoggingMessageNotification" => LoggingMessageNotification,
    "ToolListChangedNotification" => ToolListChangedNotification,
    "PromptListChangedNotification" => PromptListChangedNotification,
    "ResourceListChangedNotification" => ResourceListChangedNotification,
    "ResourceUpdatedNotification" => ResourceUpdatedNotification,
    "RootsListChangedNotification" => RootsListChangedNotification,
    "ElicitationCompleteNotification" => ElicitationCompleteNotification,
    "TextContent" => TextContent,
    "ImageContent" => ImageContent,
    "AudioContent" => AudioContent,
    "ResourceLink" => ResourceLink,
    "EmbeddedResource" => EmbeddedResource,
]);

definitions!(modern_types, modern, [
    "JSONRPCResultResponse" => JsonrpcResultResponse,
    "JSONRPCErrorResponse" => JsonrpcErrorResponse,
    "JSONRPCRequest" => JsonrpcRequest,
    "JSONRPCNotification" => JsonrpcNotification,
    "DiscoverRequest" => DiscoverRequest,
    "DiscoverResult" => DiscoverResult,
    "DiscoverResultResponse" => DiscoverResultResponse,
    "CallToolRequest" => CallToolRequest,
    "CallToolRequestParams" => CallToolRequestParams,
    "CallToolResult" => CallToolResult,
    "CallToolResultResponse" => CallToolResultResponse,
    "InputRequiredResult" => InputRequiredResult,
    "InputRequests" => InputRequests,
    "InputResponses" => InputResponses,
    "ListToolsRequest" => ListToolsRequest,
    "ListToolsResult" => ListToolsResult,
    "ListToolsResultResponse" => ListToolsResultResponse,
    "ListResourcesRequest" => ListResourcesRequest,
    "ListResourcesResult" => ListResourcesResult,
    "ListResourcesResultResponse" => ListResourcesResultResponse,
    "ListResourceTemplatesRequest" => ListResourceTemplatesRequest,
    "ListResourceTemplatesResult" => ListResourceTemplatesResult,
    "ListResourceTemplatesResultResponse" => ListResourceTemplatesResultResponse,
    "ReadResourceRequest" => ReadResourceRequest,
    "ReadResourceResult" => ReadResourceResult,
    "ReadResourceResultResponse" => ReadResourceResultResponse,
    "ListPromptsRequest" => ListPromptsRequest,
    "ListPromptsResult" => ListPromptsResult,
    "ListPromptsResultResponse" => ListPromptsResultResponse,
    "GetPromptRequest" => GetPromptRequest,
    "GetPromptRequestParams" => GetPromptRequestParams,
    "GetPromptResult" => GetPromptResult,
    "GetPromptResultResponse" => GetPromptResultResponse,
    "CompleteRequest" => CompleteRequest,
    "CompleteRequestParams" => CompleteRequestParams,
    "CompleteResult" => CompleteResult,
    "CompleteResultResponse" => CompleteResultResponse,
    "CreateMessageRequest" => CreateMessageRequest,
    "CreateMessageRequestParams" => CreateMessageRequestParams,
    "CreateMessageResult" => CreateMessageResult,
    "ElicitRequest" => ElicitRequest,
    "ElicitRequestFormParams" => ElicitRequestFormParams,
    "ElicitResult" => ElicitResult,
    "ListRootsRequest" => ListRootsRequest,
    "ListRootsResult" => ListRootsResult,
    "SubscriptionsListenRequest" => SubscriptionsListenRequest,
    "SubscriptionsListenResult" => SubscriptionsListenResult,
    "SubscriptionsListenResultResponse" => SubscriptionsListenResultResponse,
    "SubscriptionsAcknowledgedNotification" => SubscriptionsAcknowledgedNotification,
    "CancelledNotification" => CancelledNotification,
    "CancelledNotificationParams" => CancelledNotificationParams,
    "ProgressNotification" => ProgressNotification,
    "ProgressNotificationParams" => ProgressNotificationParams,
    "LoggingMessageNotification" => LoggingMessageNotification,
    "LoggingMessageNotificationParams" => LoggingMessageNotificationParams,
    "ToolListChangedNotification" => ToolListChangedNotification,
    "PromptListChangedNotification" => PromptListChangedNotification,
    "ResourceListChangedNotification" => ResourceListChangedNotification,
    "ResourceUpdatedNotification" => ResourceUpdatedNotification,
    "ResourceUpdatedNotificationParams" => ResourceUpdatedNotificationParams,
    "PaginatedRequestParams" => PaginatedRequestParams,
    "ClientCapabilities" => ClientCapabilities,
    "ServerCapabilities" => ServerCapabilities,
    "Tool" => Tool,
    "Resource" => Resource,
    "ResourceLink" => ResourceLink,
    "Root" => Root,
    "TextContent" => TextContent,
    "ImageContent" => ImageContent,
    "AudioContent" => AudioContent,
    "EmbeddedResource" => EmbeddedResource,
    "TextResourceContents" => TextResourceContents,
    "BlobResourceContents" => BlobResourceContents,
    "ToolUseContent" => ToolUseContent,
    "ToolResultContent" => ToolResultContent,
    "SamplingMessage" => SamplingMessage,
    "ModelPreferences" => ModelPreferences,
    "BooleanSchema" => BooleanSchema,
    "NumberSchema" => NumberSchema,
    "StringSchema" => StringSchema,
    "TitledMultiSelectEnumSchema" => TitledMultiSelectEnumSchema,
    "TitledSingleSelectEnumSchema" => TitledSingleSelectEnumSchema,
    "UntitledMultiSelectEnumSchema" => UntitledMultiSelectEnumSchema,
    "UntitledSingleSelectEnumSchema" => UntitledSingleSelectEnumSchema,
    "ParseError" => ParseError,
    "InternalError" => InternalError,
    "InvalidParamsError" => InvalidParamsError,
    "MethodNotFoundError" => MethodNotFoundError,
    "HeaderMismatchError" => HeaderMismatchError,
    "MissingRequiredClientCapabilityError" => MissingRequiredClientCapabilityError,
    "UnsupportedProtocolVersionError" => UnsupportedProtocolVersionError,
]);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn violation(revision: Revision, definition: &'static str, value: Value) -> String {
        check(revision, definition, &value, "result")
            .expect_err("a violation")
            .to_string()
    }

    #[test]
    fn a_content_block_without_type_is_named_by_its_path() {
        let result = json!({"content": [{"text": "hi"}]});
        assert_eq!(
            violation(Revision::Legacy, "CallToolResult", result),
            "result.content[0]: missing `type` (CallToolResult, 2025-11-25)"
        );
    }

    #[test]
    fn a_content_block_of_a_known_kind_is_checked_as_that_kind() {
        let result = json!({"resultType": "complete", "content": [{"type": "image", "data": "aGk="}]});
        assert_eq!(
            violation(Revision::Modern, "CallToolResult", result),
            "result.content[0]: missing `mimeType` (CallToolResult, 2026-07-28)"
        );
        let result = json!({"content": [{"type": "txt", "text": "a"}]});
        assert_eq!(
            violation(Revision::Legacy, "CallToolResult", result),
            "result.content[0]: `type` is \"txt\", expected `text`, `image`, `audio`, `resource_link` or `resource` (CallToolResult, 2025-11-25)"
        );
    }

    #[test]
    fn the_modern_result_needs_its_result_type() {
        let result = json!({"content": [{"type": "text", "text": "a"}]});
        assert_eq!(
            violation(Revision::Modern, "CallToolResult", result.clone()),
            "result: missing `resultType` (CallToolResult, 2026-07-28)"
        );
        assert!(check(Revision::Legacy, "CallToolResult", &result, "result").is_ok());
    }

    #[test]
    fn wrong_types_are_said_in_json_words() {
        let result = json!({"content": {"type": "text", "text": "a"}});
        assert_eq!(
            violation(Revision::Legacy, "CallToolResult", result),
            "result.content: is an object, expected an array (CallToolResult, 2025-11-25)"
        );
        let frame = json!({"jsonrpc": "2.0", "id": 1.5, "result": {}});
        assert_eq!(
            check(Revision::Legacy, "JSONRPCResultResponse", &frame, "")
                .unwrap_err()
                .to_string(),
            "id: is a number, expected a string or an integer (JSONRPCResultResponse, 2025-11-25)"
        );
    }

    #[test]
    fn a_response_is_checked_against_the_result_of_the_request_it_answers() {
        let request = json!({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {}});
        let response = json!({"jsonrpc": "2.0", "id": 7, "result": {"protocolVersion": mcp::LEGACY, "capabilities": {}, "serverInfo": {"name": "s"}}});
        let found = check_response(&request, &response)
            .expect("initialize is defined")
            .unwrap_err();
        assert_eq!(
            found.to_string(),
            "result.serverInfo: missing `version` (InitializeResult, 2025-11-25)"
        );
        // A modern tools/call may answer input_required instead.
        let request = json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "t", "_meta": {META_PROTOCOL_VERSION: mcp::MODERN}}});
        let asks = json!({"jsonrpc": "2.0", "id": 8, "result": {"resultType": "input_required", "inputRequests": {}}});
        assert_eq!(check_response(&request, &asks), Some(Ok(())));
        // An error response is checked as one.
        let error = json!({"jsonrpc": "2.0", "id": 8, "error": {"code": "-32602", "message": "no"}});
        assert_eq!(
            check_response(&request, &error).unwrap().unwrap_err().to_string(),
            "error.code: is a string \"-32602\", expected an integer (JSONRPCErrorResponse, 2026-07-28)"
        );
    }

    #[test]
    fn requests_are_checked_in_the_revision_their_meta_names() {
        let legacy =
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": [1]}});
        assert_eq!(
            check_message(Revision::of_request(&legacy), "tools/call", &legacy)
                .unwrap()
                .unwrap_err()
                .to_string(),
            "params.arguments: is an array, expected an object (CallToolRequest, 2025-11-25)"
        );
        // Methods a revision does not define are left to the checkers.
        assert_eq!(check_message(Revision::Modern, "initialize", &legacy), None);
        assert_eq!(check_message(Revision::Legacy, "tools/frobnicate", &legacy), None);
    }

    #[test]
    fn a_transcript_is_checked_frame_by_frame() {
        let entry = |dir, line: Value| TranscriptEntry {
            dir,
            line: line.to_string(),
            id: None,
            time_ms: 0,
            kind: EntryKind::Frame,
        };
        let transcript = vec![
            entry(
                Direction::ToLearner,
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            ),
            entry(
                Direction::FromLearner,
                json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}}),
            ),
            entry(
                Direction::ToLearner,
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "a"}}),
            ),
            entry(
                Direction::FromLearner,
                json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 1}}),
            ),
            entry(
                Direction::FromLearner,
                json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text"}]}}),
            ),
            entry(
                Direction::FromLearner,
                json!({"jsonrpc": "2.0", "id": 99, "result": {}}),
            ),
        ];
        let checked = check_transcript(&transcript);
        assert_eq!(checked.frames, 3);
        assert_eq!(
            checked.violation.unwrap().to_string(),
            "result.content[0]: missing `text` (CallToolResult, 2025-11-25)"
        );
    }
}

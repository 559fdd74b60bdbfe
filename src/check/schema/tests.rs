//! Unit tests of the schema check: violations worded and placed.

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
    let legacy = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "t", "arguments": [1]}});
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

//! Mutants of 07-tool-server: tools, resources and a prompt, in both eras.
//! Each solution's unmutated control is in `controls`.

use mcplings::check::Status;

use crate::common::summary;
use crate::helpers::{TOOLS, assert_caught, assert_failed, check_mutant, check_mutant_on};

const UNKNOWN_TOOL_ARM: &str = "        other => Err(RpcError::invalid_params(format!(\"Unknown tool: {other}\"))),\n";

/// An unknown tool reported as a tool error (`isError: true`), as the
/// Python SDK does: the model is told to fix input that was never wrong.
#[test]
fn m07_unknown_tool_as_a_tool_error() {
    let replace = "        other => Ok(tool_error(format!(\"Unknown tool: {other}\"))),\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-unknown-tool-iserror",
        &[("src/lib.rs", UNKNOWN_TOOL_ARM, replace)],
        &["unknown tool: -32602"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "unknown tool: -32602",
        &[
            "a tool that does not exist is a protocol error",
            "got a result with isError: true",
            "this is a protocol error",
        ],
    );
}

/// An unknown tool answered with -32601 Method not found: the method,
/// tools/call, exists.
#[test]
fn m07_unknown_tool_as_method_not_found() {
    let replace = "        other => Err(RpcError { code: -32601, message: format!(\"Method not found: {other}\") }),\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-unknown-tool-32601",
        &[("src/lib.rs", UNKNOWN_TOOL_ARM, replace)],
        &["unknown tool: -32602"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "unknown tool: -32602",
        &["got error code -32601", "tools/call itself exists, so not -32601"],
    );
}

/// A level out of range refused with a JSON-RPC error (-32602): the model
/// never sees the message that says what to fix.
#[test]
fn m07_out_of_range_as_a_protocol_error() {
    let find = "            Some(level) => tool_error(format!(\"level {level} is out of range: use 0 to 10\")),\n";
    let replace = "            Some(level) => return Err(RpcError::invalid_params(format!(\"level {level} is out of range: use 0 to 10\"))),\n";
    let report = check_mutant(TOOLS, "mutant-07-range-as-error", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "out of range: isError",
        &["a tool error, a result with isError: true", "not a JSON-RPC error"],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "schema-breaking arguments")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// `content` as a single block instead of a list of one.
#[test]
fn m07_content_not_a_list() {
    let find = "            Some(who) => json!({\"content\": [text(format!(\"Hello, {who}!\"))]}),\n";
    let replace = "            Some(who) => json!({\"content\": text(format!(\"Hello, {who}!\"))}),\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-content-object",
        &[("src/lib.rs", find, replace)],
        &["greet: text"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "greet: text",
        &["content is always a list of content blocks, even for one block"],
    );
}

/// structuredContent with a prose text block instead of its JSON mirror.
#[test]
fn m07_structured_content_without_its_mirror() {
    let find = "                    Ok(json!({\"content\": [text(structured.to_string())], \"structuredContent\": structured}))\n";
    let replace = "                    Ok(json!({\"content\": [text(format!(\"The sum is {sum}.\"))], \"structuredContent\": structured}))\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-no-mirror",
        &[("src/lib.rs", find, replace)],
        &["add: structured + mirror"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "add: structured + mirror",
        &["SHOULD also return it as serialized JSON in a text block"],
    );
}

/// The last page still carries `nextCursor: ""`: a client that follows
/// every cursor (as it must) asks for the next page forever.
#[test]
fn m07_last_page_keeps_a_cursor() {
    let find = "    if end < all.len() {\n        page[\"nextCursor\"] = json!(format!(\"tools@{end}\"));\n    }\n";
    let replace =
        "    page[\"nextCursor\"] = json!(if end < all.len() { format!(\"tools@{end}\") } else { String::new() });\n";
    let report = check_mutant(TOOLS, "mutant-07-last-cursor", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    for name in ["tools in pages (legacy)", "tools in pages (modern)"] {
        assert_failed(
            &report,
            name,
            &[
                "the last page still carries nextCursor \"\"",
                "Only an absent nextCursor ends the list",
            ],
        );
    }
}

/// A cursor the server never handed out silently served as the first page.
#[test]
fn m07_invalid_cursor_served_as_the_first_page() {
    let find = ".ok_or_else(|| RpcError::invalid_params(format!(\"Invalid cursor: {c}\")))?,";
    let report = check_mutant(
        TOOLS,
        "mutant-07-cursor-unchecked",
        &[("src/lib.rs", find, ".unwrap_or(0),")],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "invalid cursor: -32602",
        &["a cursor the server never handed out gets -32602", "got a result"],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "tools in pages (modern)")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// A missing resource answered with an empty `contents` list, which reads
/// as "the resource exists and is empty".
#[test]
fn m07_missing_resource_as_empty_contents() {
    let find = "                return Err(RpcError { code, message: format!(\"Resource not found: {uri}\") });\n";
    let replace = "                let _ = code;\n                return Ok(json!({\"contents\": []}));\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-empty-contents",
        &[("src/lib.rs", find, replace)],
        &["missing resource (legacy)", "missing resource (modern)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "missing resource (legacy)",
        &[
            "-32002 Resource not found in the legacy era",
            "got a result with an empty contents list",
        ],
    );
    assert_failed(
        &report,
        "missing resource (modern)",
        &["got a result with an empty contents list"],
    );
}

/// -32002 in both eras: 2026-07-28 retired it for -32602.
#[test]
fn m07_legacy_not_found_code_in_the_modern_era() {
    let replace = "                    Era::Modern => RESOURCE_NOT_FOUND,\n";
    let report = check_mutant(
        TOOLS,
        "mutant-07-32002-everywhere",
        &[("src/lib.rs", "                    Era::Modern => -32602,\n", replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "missing resource (modern)",
        &[
            "gets -32602 in 2026-07-28, which retired -32002",
            "got error code -32002",
        ],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "missing resource (legacy)")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// -32602 in both eras: a legacy client looks for -32002.
#[test]
fn m07_modern_not_found_code_in_the_legacy_era() {
    let replace = "                    Era::Legacy => -32602,\n";
    let report = check_mutant(
        TOOLS,
        "mutant-07-32602-everywhere",
        &[(
            "src/lib.rs",
            "                    Era::Legacy => RESOURCE_NOT_FOUND,\n",
            replace,
        )],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "missing resource (legacy)",
        &["-32002 Resource not found in the legacy era", "got error code -32602"],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "missing resource (modern)")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// `finish` forgets ttlMs and cacheScope on cacheable modern results.
#[test]
fn m07_finish_without_cache_fields() {
    let find = "        if cacheable(method) {\n            result[\"ttlMs\"] = json!(60_000);\n            result[\"cacheScope\"] = json!(\"public\");\n        }\n";
    let report = check_mutant(TOOLS, "mutant-07-no-ttl", &[("src/lib.rs", find, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "tools in pages (modern)",
        &[
            "the `tools/list` result is cacheable in 2026-07-28",
            "ttlMs",
            "cacheScope",
        ],
    );
    assert_failed(
        &report,
        "missing resource (modern)",
        &["the `resources/read` result is cacheable"],
    );
    assert_failed(
        &report,
        "prompt and its argument",
        &["the `prompts/list` result is cacheable"],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "tools in pages (legacy)")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// A missing prompt argument filled in with "undefined" instead of -32602.
#[test]
fn m07_missing_prompt_argument_filled_in() {
    let find = "    let Some(body) = arguments.get(\"text\").and_then(Value::as_str) else {\n        return Err(RpcError::invalid_params(\"Missing required argument: text\"));\n    };\n";
    let replace = "    let body = arguments.get(\"text\").and_then(Value::as_str).unwrap_or(\"undefined\");\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-prompt-undefined",
        &[("src/lib.rs", find, replace)],
        &["prompt and its argument"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "prompt and its argument",
        &[
            "without the required argument `text` gets -32602 Invalid params",
            "got a result",
        ],
    );
}

/// The PNG served as `text` (its base64) instead of `blob`.
#[test]
fn m07_blob_served_as_text() {
    let find =
        "\"file:///images/pixel.png\" => json!({\"uri\": uri, \"mimeType\": \"image/png\", \"blob\": PIXEL_PNG}),";
    let replace =
        "\"file:///images/pixel.png\" => json!({\"uri\": uri, \"mimeType\": \"image/png\", \"text\": PIXEL_PNG}),";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-blob-as-text",
        &[("src/lib.rs", find, replace)],
        &["read text, blob, template"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "read text, blob, template",
        &["the PNG is binary", "carries `blob`, base64, and no `text`"],
    );
}

const ID_CHECK: &str = "        if !(id.is_string() || id.is_i64() || id.is_u64()) {\n";

const BEFORE_ROUTE: &str = "        let outcome = self.route(method, &params);\n";

/// Ids kept as f64, as a JavaScript-style server keeps every number.
#[test]
fn m07_ids_through_f64() {
    let replace = "        let id = id.as_f64().map(|f| json!(f)).unwrap_or(id);\n        let outcome = self.route(method, &params);\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-ids-f64",
        &[("src/lib.rs", BEFORE_ROUTE, replace)],
        &["request ids (modern)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "request ids (modern)",
        &["whose id is zero", "went through a floating-point number"],
    );
}

/// A string of digits taken for a number.
#[test]
fn m07_digit_strings_turned_into_numbers() {
    let replace = "        let id = match id.as_str().and_then(|s| s.parse::<i64>().ok()) { Some(n) => json!(n), None => id };\n        let outcome = self.route(method, &params);\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-ids-as-numbers",
        &[("src/lib.rs", BEFORE_ROUTE, replace)],
        &["request ids (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "request ids (legacy)",
        &["a string of digits", "the string came back as a number"],
    );
}

/// A request whose id is null served (the reference did, before issue 17).
#[test]
fn m07_null_id_served() {
    let replace = "        if !(id.is_string() || id.is_i64() || id.is_u64() || id.is_null()) {\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-null-id-served",
        &[("src/lib.rs", ID_CHECK, replace)],
        &["request ids (modern)"],
    );
    assert_caught(&report);
    assert_failed(&report, "request ids (modern)", &["whose id is null", "was served"]);
}

/// Caching hints only on tools/list: the other cacheable results lack
/// them.
#[test]
fn m07_cache_hints_on_tools_list_only() {
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-hints-tools-only",
        &[(
            "src/lib.rs",
            "        if cacheable(method) {\n",
            "        if method == \"tools/list\" {\n",
        )],
        &["cache hints (modern)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "cache hints (modern)",
        &["the `resources/list` result is cacheable in 2026-07-28"],
    );
}

/// The same mutant in a case about something else: the response to
/// initialize is there with its id changed (0.0), and the reason says so
/// rather than call it some other frame.
#[test]
fn m07_ids_through_f64_named_in_any_case() {
    let replace = "        let id = id.as_f64().map(|f| json!(f)).unwrap_or(id);\n        let outcome = self.route(method, &params);\n";
    let report = check_mutant_on(
        TOOLS,
        "mutant-07-ids-f64",
        &[("src/lib.rs", BEFORE_ROUTE, replace)],
        &["tools in pages (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "tools in pages (legacy)",
        &[
            "the response to `initialize` came back, but the response's id is 0.0, not 0",
            "echo the id exactly, in type and value",
        ],
    );
}

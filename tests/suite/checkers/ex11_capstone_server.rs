//! Mutants of 11-capstone-server: the learner's own dual-era server, progress
//! and cancellation included.
//! Each solution's unmutated control is in `controls`.

use mcplings::check::Status;

use crate::common::summary;
use crate::helpers::{CAPSTONE, assert_caught, assert_failed, check_mutant, check_mutant_on};

const PROGRESS_PARAMS: &str = "let params = json!({\"progressToken\": token, \"progress\": step, \"total\": steps, \"message\": format!(\"step {step} of {steps}\")});";

const CANCEL_REMOVE: &str =
    "let stopped = self.running.lock().unwrap_or_else(|e| e.into_inner()).remove(&id.to_string());";

/// The request's id echoed as the progress token instead of the token the
/// request carried.
#[test]
fn m11_progress_tagged_with_the_request_id() {
    let find = "return self.countdown(&id, steps, params.pointer(\"/_meta/progressToken\").cloned(), era, out),";
    let replace =
        "return self.countdown(&id, steps, params.pointer(\"/_meta/progressToken\").map(|_| id.clone()), era, out),";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-token-is-id",
        &[("src/lib.rs", find, replace)],
        &["progress (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress (legacy)",
        &["carries the request's id (\"req-1\") as its token", "\"tok-legacy\""],
    );
}

/// C23: the same progress value sent every step.
#[test]
fn m11_progress_that_repeats() {
    let replace = "let params = json!({\"progressToken\": token, \"progress\": 1, \"total\": steps, \"message\": format!(\"step {step} of {steps}\")});";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-progress-repeats",
        &[("src/lib.rs", PROGRESS_PARAMS, replace)],
        &["progress (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress (legacy)",
        &["progress MUST increase with every notification"],
    );
}

/// The response sent before the last step's progress.
#[test]
fn m11_progress_after_the_response() {
    let find =
        "            for step in 1..=steps {\n                std::thread::sleep(Duration::from_millis(STEP_MS));\n";
    let replace = "            out.send(json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": finish(era, \"tools/call\", features::countdown_result(steps))}));\n            for step in 1..=steps {\n                std::thread::sleep(Duration::from_millis(STEP_MS));\n";
    let end_find = "                out.send(json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": result}));\n";
    let end_replace = "                let _ = result;\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-progress-after-result",
        &[("src/lib.rs", find, replace), ("src/lib.rs", end_find, end_replace)],
        &["progress (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress (legacy)",
        &[
            "progress came after the countdown's result",
            "MUST stop once the response is sent",
        ],
    );
}

/// Progress sent without being asked for.
#[test]
fn m11_progress_without_a_token() {
    let find = "params.pointer(\"/_meta/progressToken\").cloned(), era, out),";
    let replace = "Some(params.pointer(\"/_meta/progressToken\").cloned().unwrap_or(json!(0))), era, out),";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-unasked-progress",
        &[("src/lib.rs", find, replace)],
        &["no token, no progress"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "no token, no progress",
        &["the request carried no progressToken, yet progress came"],
    );
}

/// notifications/cancelled ignored: the countdown runs on and answers.
#[test]
fn m11_cancellation_ignored() {
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-cancel-ignored",
        &[("src/lib.rs", CANCEL_REMOVE, "let stopped = false;")],
        &["cancel (legacy)", "cancel (modern)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "cancel (legacy)",
        &["the countdown went on after notifications/cancelled named it"],
    );
    assert_failed(
        &report,
        "cancel (modern)",
        &[
            "the countdown went on after notifications/cancelled named it",
            "2026-07-28 basic/patterns/cancellation",
            "Check between steps",
        ],
    );
}

/// C24: the cancelled request answered with an error of code 0, as the
/// Python SDK's server did (python-sdk#2480).
#[test]
fn m11_cancelled_request_answered_with_code_0() {
    let find = "            return;\n                }\n                if let Some(token) = &token {";
    let replace = "            out.send(json!({\"jsonrpc\": \"2.0\", \"id\": id, \"error\": {\"code\": 0, \"message\": \"Request cancelled\"}}));\n                    return;\n                }\n                if let Some(token) = &token {";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-cancel-code-0",
        &[("src/lib.rs", find, replace)],
        &["cancel (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "cancel (legacy)",
        &[
            "got an error response with code 0",
            "A cancelled request gets no response at all",
        ],
    );
}

/// The countdown run on the loop's own thread: nothing else is read
/// until it ends, so a cancellation cannot stop it.
#[test]
fn m11_countdown_blocks_the_loop() {
    let find = "        std::thread::spawn(move || {\n";
    let replace = "        (move || {\n";
    let end_find = "                out.send(json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": result}));\n            }\n        });\n";
    let end_replace = "                out.send(json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": result}));\n            }\n        })();\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-blocking",
        &[("src/lib.rs", find, replace), ("src/lib.rs", end_find, end_replace)],
        &["progress (modern)", "cancel (legacy)", "cancel (modern)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress (modern)",
        &[
            "was not answered before the countdown finished",
            "Run the countdown on a thread of its own",
        ],
    );
    // The cancel cases name the cause too, not the missing check between
    // steps (a learner trial followed that advice and stayed stuck).
    assert_failed(
        &report,
        "cancel (legacy)",
        &[
            "handle() runs the countdown itself, so the cancel sits unread in stdin",
            "2025-11-25 basic/utilities/cancellation",
        ],
    );
    assert_failed(
        &report,
        "cancel (modern)",
        &[
            "handle() runs the countdown itself",
            "2026-07-28 basic/patterns/cancellation",
        ],
    );
}

/// Modern results without resultType.
#[test]
fn m11_modern_result_without_result_type() {
    let find = "        result[\"resultType\"] = json!(\"complete\");\n";
    let report = check_mutant(CAPSTONE, "mutant-11-no-result-type", &[("src/lib.rs", find, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "tools (modern)",
        &[
            "every 2026-07-28 result carries resultType",
            "the `tools/list` result has none",
        ],
    );
    assert_eq!(
        report.cases.iter().find(|c| c.name == "tools (legacy)").unwrap().status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// Capabilities taken from an earlier request: a modern request without
/// clientCapabilities is served.
#[test]
fn m11_capabilities_not_checked_per_request() {
    let find = "                if !meta.and_then(|m| m.get(META_CAPABILITIES)).is_some_and(Value::is_object) {\n";
    let replace = "                if false {\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-stale-caps",
        &[("src/lib.rs", find, replace)],
        &["no stale _meta"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "no stale _meta",
        &[
            "without io.modelcontextprotocol/clientCapabilities gets -32602",
            "MUST NOT take them from an earlier one",
        ],
    );
}

/// C14: an unknown initialize version echoed back.
#[test]
fn m11_version_echoed() {
    let find = "let version = if LEGACY_VERSIONS.contains(&requested) { requested } else { LEGACY_VERSIONS[0] };";
    let replace = "let version = requested;";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-echo-version",
        &[("src/lib.rs", find, replace)],
        &["counter-offer"],
    );
    assert_caught(&report);
    assert_failed(&report, "counter-offer", &["was echoed back", "Version Negotiation"]);
}

/// notifications/initialized answered with an empty result.
#[test]
fn m11_notification_answered() {
    let find = "            return self.notification(method, &params);\n";
    let replace = "            self.notification(method, &params);\n            return out.send(json!({\"jsonrpc\": \"2.0\", \"result\": {}}));\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-notification-answered",
        &[("src/lib.rs", find, replace)],
        &["handshake (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "handshake (legacy)",
        &[
            "the client sent notifications/initialized, and the server wrote a frame",
            "never answered",
        ],
    );
}

/// C08: an unknown tool reported as a tool error.
#[test]
fn m11_unknown_tool_as_a_tool_error() {
    let find = "        other => Err(RpcError::invalid_params(format!(\"Unknown tool: {other}\"))),\n";
    let replace = "        other => Ok(Call::Done(tool_error(format!(\"Unknown tool: {other}\")))),\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-unknown-tool",
        &[("src/features.rs", find, replace)],
        &["unknown tool: -32602"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "unknown tool: -32602",
        &["got a result with isError: true", "this is a protocol error"],
    );
}

/// The legacy not-found code in the modern era.
#[test]
fn m11_legacy_not_found_code_in_the_modern_era() {
    let find = "            Era::Modern => -32602,\n";
    let replace = "            Era::Modern => RESOURCE_NOT_FOUND,\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-modern-32002",
        &[("src/features.rs", find, replace)],
        &["resource (modern)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "resource (modern)",
        &["-32602 in 2026-07-28, which retired -32002", "got error code -32002"],
    );
}

/// C15: a debug line printed to stdout.
#[test]
fn m11_debug_print_on_stdout() {
    let find = "        let params = message.get(\"params\").cloned().unwrap_or_else(|| json!({}));\n";
    let replace = "        println!(\"got {method}\");\n        let params = message.get(\"params\").cloned().unwrap_or_else(|| json!({}));\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-stdout-junk",
        &[("src/lib.rs", find, replace)],
        &["handshake (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "handshake (legacy)",
        &["is not JSON: `got ping`", "debug output to stderr (eprintln! in Rust"],
    );
}

const ID_CHECK: &str = "        if !(id.is_string() || id.is_i64() || id.is_u64()) {\n";

const BEFORE_REPLY: &str = "        let reply = |outcome: Result<Value, RpcError>| match outcome {\n";

/// Patches that mangle the id after it passed the check: `let id = …;`.
fn mangle(expression: &str) -> String {
    format!("        let id = {expression};\n{BEFORE_REPLY}")
}

/// Integers kept as f64 and written back as integers, as a JavaScript
/// server does: the largest 64-bit integer comes back as 2^63.
#[test]
fn m11_integer_ids_through_f64() {
    let replace = mangle(
        "match id.as_f64() { Some(f) if id.is_number() => if f >= 0.0 { json!(f as u64) } else { json!(f as i64) }, _ => id }",
    );
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-ids-js-numbers",
        &[("src/lib.rs", BEFORE_REPLY, &replace)],
        &["request ids (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "request ids (legacy)",
        &["the largest 64-bit integer", "9223372036854775808", "floating-point"],
    );
}

/// Long string ids cut to 256 characters.
#[test]
fn m11_long_ids_truncated() {
    let replace = mangle("match id.as_str() { Some(s) => json!(s.chars().take(256).collect::<String>()), None => id }");
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-ids-truncated",
        &[("src/lib.rs", BEFORE_REPLY, &replace)],
        &["request ids (modern)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "request ids (modern)",
        &["a 1 KiB string", "cut short", "to 256 characters"],
    );
}

/// Non-ASCII and control characters in string ids escaped the Rust way
/// (`\u{e9}`), so the string changes.
#[test]
fn m11_string_ids_mangled() {
    let replace = mangle("match id.as_str() { Some(s) => json!(s.escape_default().to_string()), None => id }");
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-ids-escaped",
        &[("src/lib.rs", BEFORE_REPLY, &replace)],
        &["request ids (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "request ids (legacy)",
        &["a non-ASCII string", "the string changed on the way"],
    );
}

/// A request whose id is null served, in the modern era.
#[test]
fn m11_null_id_served() {
    let replace = "        if !(id.is_string() || id.is_i64() || id.is_u64() || id.is_null()) {\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-null-id-served",
        &[("src/lib.rs", ID_CHECK, replace)],
        &["request ids (modern)"],
    );
    assert_caught(&report);
    assert_failed(&report, "request ids (modern)", &["whose id is null", "was served"]);
}

/// The refusal of a forbidden id written with `"id": null`, as base
/// JSON-RPC has it; MCP leaves the id out.
#[test]
fn m11_refusal_with_a_null_id() {
    let find = "return out.send(json!({\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32600,";
    let replace = "return out.send(json!({\"jsonrpc\": \"2.0\", \"id\": null, \"error\": {\"code\": -32600,";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-refusal-null-id",
        &[("src/lib.rs", find, replace)],
        &["request ids (legacy)"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "request ids (legacy)",
        &["carries an id (null)", "no `id` member at all"],
    );
}

/// The legacy gate with a hole: prompts/get is routed before the phase
/// check, so it is served before initialize.
#[test]
fn m11_prompt_served_before_initialize() {
    let find = "            (None, \"initialize\" | \"ping\") => Ok(None),\n";
    let replace = "            (None, \"prompts/get\") => Ok(Some(Era::Legacy)),\n            (None, \"initialize\" | \"ping\") => Ok(None),\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-prompt-before-initialize",
        &[("src/lib.rs", find, replace)],
        &["gate before initialize"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "gate before initialize",
        &["`prompts/get` before initialize was served"],
    );
}

const RUNNING_KEY: &str = "        let key = id.to_string();\n";

/// A cancellation looked up by the integer in its requestId: a call whose
/// id is a string cannot be cancelled.
#[test]
fn m11_cancel_looked_up_by_integer() {
    let replace = "let stopped = self.running.lock().unwrap_or_else(|e| e.into_inner()).remove(&id.as_i64().unwrap_or(-1).to_string());";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-cancel-by-integer",
        &[("src/lib.rs", CANCEL_REMOVE, replace)],
        &["cancel (legacy)", "cancel (modern)", "cancel one of two"],
    );
    assert_caught(&report);
    for case in ["cancel (legacy)", "cancel (modern)"] {
        assert_failed(
            &report,
            case,
            &["the countdown went on after notifications/cancelled named it"],
        );
    }
    // An integer id is cancelled as before.
    let one_of_two = report.cases.iter().find(|c| c.name == "cancel one of two").unwrap();
    assert_eq!(one_of_two.status, Status::Passed, "{}", summary(&report));
}

/// Running calls keyed by the id's text without its type: 5 and "5" are
/// one key, so a cancel naming 5 stops "5" too.
#[test]
fn m11_running_calls_keyed_without_type() {
    let key = "        let key = id.as_str().map(str::to_string).unwrap_or_else(|| id.to_string());\n";
    let lookup = "let stopped = self.running.lock().unwrap_or_else(|e| e.into_inner()).remove(&id.as_str().map(str::to_string).unwrap_or_else(|| id.to_string()));";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-keys-without-type",
        &[("src/lib.rs", RUNNING_KEY, key), ("src/lib.rs", CANCEL_REMOVE, lookup)],
        &["cancel (legacy)", "cancel one of two"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "cancel one of two",
        &[
            "countdown 3 with id \"5\" (a string) never answered after notifications/cancelled named request 5",
            "5 and \"5\" are different ids",
        ],
    );
    let legacy = report.cases.iter().find(|c| c.name == "cancel (legacy)").unwrap();
    assert_eq!(legacy.status, Status::Passed, "{}", summary(&report));
}

/// The countdown's thread answers with a digit-string id turned into the
/// number it reads as.
#[test]
fn m11_countdown_id_echoed_as_a_number() {
    let find = "                out.send(json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": result}));\n            }\n        });\n";
    let replace = "                out.send(json!({\"jsonrpc\": \"2.0\", \"id\": id.as_str().and_then(|t| t.parse::<i64>().ok()).map_or(id.clone(), Value::from), \"result\": result}));\n            }\n        });\n";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-countdown-id-as-number",
        &[("src/lib.rs", find, replace)],
        &["cancel one of two"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "cancel one of two",
        &[
            "the response to countdown 3 (id \"5\", sent from its thread) came back, but the response's id is 5, not \"5\"",
            "The string came back as a number",
        ],
    );
}

/// A progress token that reads as a number sent back as that number.
#[test]
fn m11_progress_token_read_as_a_number() {
    let find = "return self.countdown(&id, steps, params.pointer(\"/_meta/progressToken\").cloned(), era, out),";
    let replace = "return self.countdown(&id, steps, params.pointer(\"/_meta/progressToken\").cloned().map(|t| t.as_str().and_then(|x| x.parse::<i64>().ok()).map_or(t, Value::from)), era, out),";
    let report = check_mutant_on(
        CAPSTONE,
        "mutant-11-token-as-number",
        &[("src/lib.rs", find, replace)],
        &["progress (legacy)", "cancel one of two"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "cancel one of two",
        &[
            "carries progressToken 5, but its request asked with \"5\" (a string)",
            "type included",
        ],
    );
    let legacy = report.cases.iter().find(|c| c.name == "progress (legacy)").unwrap();
    assert_eq!(legacy.status, Status::Passed, "{}", summary(&report));
}

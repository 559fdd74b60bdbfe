//! Mutants of 01-encode-frames: the encoders, classify, and
//! accept_response (orphans).
//! Each solution's unmutated control is in `controls`.

use mcplings::check::Status;

use crate::common::summary;
use crate::helpers::{ENCODE, assert_caught, assert_failed, check_mutant, check_mutant_on};

const NOTIFICATION_START: &str =
    "pub fn encode_notification(method: &str, params: Option<Value>) -> String {\n    let mut frame = Map::new();\n";

/// C06: a notification written with `"id": null`.
#[test]
fn m01_notification_with_null_id() {
    let replace = format!("{NOTIFICATION_START}    frame.insert(\"id\".into(), Value::Null);\n");
    let report = check_mutant(
        ENCODE,
        "mutant-01-notification-null-id",
        &[("src/lib.rs", NOTIFICATION_START, &replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "notification has no id",
        &["no id member at all, not even null"],
    );
    let case = report
        .cases
        .iter()
        .find(|c| c.name == "notification has no id")
        .unwrap();
    assert!(
        case.differences.iter().any(|d| d.pointer == "/id"),
        "the difference should point at /id: {:?}",
        case.differences
    );
}

/// A notification without params written with `"params": null`.
#[test]
fn m01_notification_with_null_params() {
    let find = "    frame.insert(\"method\".into(), json!(method));\n    if let Some(params) = params {\n        frame.insert(\"params\".into(), params);\n    }\n    Value::Object(frame).to_string()\n}\n\n// ---------------------------------------------------------------------------\n// Part B";
    let replace = "    frame.insert(\"method\".into(), json!(method));\n    frame.insert(\"params\".into(), json!(params));\n    Value::Object(frame).to_string()\n}\n\n// ---------------------------------------------------------------------------\n// Part B";
    let report = check_mutant(
        ENCODE,
        "mutant-01-notification-null-params",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(&report, "notification has no id", &["no id, no params"]);
    let case = report
        .cases
        .iter()
        .find(|c| c.name == "notification has no id")
        .unwrap();
    assert!(
        case.differences.iter().any(|d| d.pointer == "/params"),
        "the difference should point at /params: {:?}",
        case.differences
    );
}

/// A request with `params: None` written with `"params": null`.
#[test]
fn m01_request_with_null_params() {
    let find = "    if let Some(params) = params {\n        frame.insert(\"params\".into(), params);\n    }\n    Value::Object(frame).to_string()\n}\n\n/// A success response";
    let replace = "    frame.insert(\"params\".into(), json!(params));\n    Value::Object(frame).to_string()\n}\n\n/// A success response";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-request-null-params",
        &[("src/lib.rs", find, replace)],
        &["request frame"],
    );
    assert_caught(&report);
    assert_failed(&report, "request frame", &["should leave the params member out"]);
}

/// A string id that looks like a number sent as a number.
#[test]
fn m01_string_id_turned_into_a_number() {
    let find = "frame.insert(\"id\".into(), id.to_json());";
    let replace = "frame.insert(\"id\".into(), match id { Id::Str(s) => s.parse::<i64>().map(Value::from).unwrap_or_else(|_| json!(s)), Id::Int(n) => json!(n) });";
    let report = check_mutant(
        ENCODE,
        "mutant-01-string-id-as-number",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "ids echoed exactly",
        &["the string id \"11\" must stay the string \"11\""],
    );
    assert_eq!(
        report.cases.iter().find(|c| c.name == "request frame").unwrap().status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// An integer id echoed as a string in a response.
#[test]
fn m01_integer_id_echoed_as_a_string() {
    let find = "json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"result\": result}).to_string()";
    let replace = "json!({\"jsonrpc\": \"2.0\", \"id\": match id { Id::Int(n) => n.to_string(), Id::Str(s) => s.clone() }, \"result\": result}).to_string()";
    let report = check_mutant(ENCODE, "mutant-01-int-id-as-string", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "ids echoed exactly",
        &["the integer id 0", "must be echoed as 0"],
    );
    // The success case blames the id, not "exactly one of result and error".
    assert_failed(
        &report,
        "success response",
        &["encode_result(11, result) gave a different frame: /id: expected 11, got \"11\""],
    );
    let case = report.cases.iter().find(|c| c.name == "ids echoed exactly").unwrap();
    assert!(
        case.differences.iter().any(|d| d.pointer == "/id"),
        "{:?}",
        case.differences
    );
}

/// C18: frames pretty-printed over several lines.
#[test]
fn m01_pretty_printed_frames() {
    let request_find = "    Value::Object(frame).to_string()\n}\n\n/// A success response";
    let request_replace =
        "    serde_json::to_string_pretty(&Value::Object(frame)).unwrap()\n}\n\n/// A success response";
    let result_find = "json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"result\": result}).to_string()";
    let result_replace = "serde_json::to_string_pretty(&json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"result\": result})).unwrap()";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-pretty",
        &[
            ("src/lib.rs", request_find, request_replace),
            ("src/lib.rs", result_find, result_replace),
        ],
        &["request frame", "one frame, one line"],
    );
    assert_caught(&report);
    assert_failed(&report, "request frame", &["spans several lines", "to_string_pretty"]);
    assert_failed(
        &report,
        "one frame, one line",
        &["spans several lines", "to_string_pretty"],
    );
}

/// An encoder that ends its frame with its own `\n` (the transport adds
/// one more, so an empty line follows every frame).
#[test]
fn m01_encoder_adds_its_own_newline() {
    let error_find = "json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"error\": error}).to_string()";
    let error_replace = "format!(\"{}\\n\", json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"error\": error}))";
    let result_find = "json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"result\": result}).to_string()";
    let result_replace = "format!(\"{}\\n\", json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"result\": result}))";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-own-newline",
        &[
            ("src/lib.rs", error_find, error_replace),
            ("src/lib.rs", result_find, result_replace),
        ],
        &["error response", "ids echoed exactly"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "error response",
        &["an empty line on stdout", "ends with its own newline"],
    );
    assert_failed(&report, "ids echoed exactly", &["an empty line on stdout"]);
}

/// A success response written with `"error": null` (a serde struct with an
/// `Option` field and no `skip_serializing_if`). Only the case about
/// result and error may blame result and error; the others must name the
/// null member, not the id or the text, which are right.
#[test]
fn m01_success_response_with_null_error() {
    let find = "json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"result\": result}).to_string()";
    let replace =
        "json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"result\": result, \"error\": null}).to_string()";
    let report = check_mutant(ENCODE, "mutant-01-null-error", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(&report, "success response", &["exactly one of result and error"]);
    assert_failed(
        &report,
        "ids echoed exactly",
        &["encode_result(0, {}) wrote \"error\": null", "left out of the object"],
    );
    assert_failed(&report, "one frame, one line", &["wrote \"error\": null"]);
    for name in ["ids echoed exactly", "one frame, one line"] {
        let reason = report
            .cases
            .iter()
            .find(|c| c.name == name)
            .unwrap()
            .reason
            .clone()
            .unwrap();
        assert!(
            !reason.contains("must be echoed as 0") && !reason.contains("never written raw"),
            "`{name}` blames the wrong member: {reason}"
        );
    }
}

/// `data` put next to `error` instead of inside it.
#[test]
fn m01_error_data_outside_the_error_object() {
    let find = "    if let Some(data) = data {\n        error.insert(\"data\".into(), data);\n    }\n    json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"error\": error}).to_string()";
    let replace = "    let mut frame = json!({\"jsonrpc\": \"2.0\", \"id\": id.to_json(), \"error\": error});\n    if let Some(data) = data {\n        frame[\"data\"] = data;\n    }\n    frame.to_string()";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-data-outside-error",
        &[("src/lib.rs", find, replace)],
        &["error response"],
    );
    assert_caught(&report);
    assert_failed(&report, "error response", &["data goes inside the error object"]);
}

/// C02: a request with `"id": null` taken for a notification.
#[test]
fn m01_null_id_request_classified_as_notification() {
    let find = "Some(Value::Null) => invalid(\"id is null: MCP forbids null ids\"),";
    let replace = "Some(Value::Null) => Kind::Notification { method: method.to_string() },";
    let report = check_mutant(
        ENCODE,
        "mutant-01-null-id-notification",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "null id: not a notification",
        &["classify said `notification`", "but it is invalid", "forbids null ids"],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "classify the four frames")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// C21: a JSON array (a batch) classified as its first message.
#[test]
fn m01_batch_classified_as_its_first_message() {
    let find = "Value::Array(_) => return invalid(\"a batch: batches were removed in 2025-06-18\"),";
    let replace = "Value::Array(items) => return items.first().map(|first| classify(&first.to_string())).unwrap_or_else(|| invalid(\"an empty batch\")),";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-batch",
        &[("src/lib.rs", find, replace)],
        &["invalid lines are named"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "invalid lines are named",
        &["classify said `request`", "batch", "removed in 2025-06-18"],
    );
}

/// A parse error response (`"id": null`) classified as invalid instead of
/// an error response that answers no request.
#[test]
fn m01_error_without_id_classified_invalid() {
    let find = "None | Some(Value::Null) => Kind::Error { id: None, code },";
    let replace = "None | Some(Value::Null) => invalid(\"an error response needs the id of the request it answers\"),";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-error-without-id-invalid",
        &[("src/lib.rs", find, replace)],
        &["null id: not a notification"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "null id: not a notification",
        &["should say `error`", "parse error", "answers no request"],
    );
}

/// A classifier that never checks `"jsonrpc": "2.0"`.
#[test]
fn m01_classify_skips_the_version_check() {
    let find = "    if obj.get(\"jsonrpc\") != Some(&json!(\"2.0\")) {\n        return invalid(\"jsonrpc must be \\\"2.0\\\"\");\n    }\n";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-no-version-check",
        &[("src/lib.rs", find, "")],
        &["invalid lines are named"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "invalid lines are named",
        &[
            "classify said `request` for {\"jsonrpc\":\"1.0\"",
            "\"jsonrpc\" must be exactly \"2.0\"",
        ],
    );
}

const ACCEPT_MATCH: &str =
    "    match in_flight.remove(&id) {\n        Some(method) => Accepted::Matched { id, method },\n";

/// The shipped behaviour: crash (`expect`) on a response nobody waits for.
#[test]
fn m01_accept_response_crashes_on_an_orphan() {
    let replace = "    let method = in_flight.remove(&id).expect(\"a response for an unknown id\");\n    match Some(method) {\n        Some(method) => Accepted::Matched { id, method },\n";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-orphan-crash",
        &[("src/lib.rs", ACCEPT_MATCH, replace)],
        &["orphan logged and dropped"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "orphan logged and dropped",
        &[
            "`accept_response` panicked at ",
            "src/lib.rs:",
            "a response for an unknown id",
        ],
    );
}

/// Guessing: an orphan delivered to some other call in flight.
/// "Log it and drop it": dropping silently loses the clue a hung call needs.
#[test]
fn m01_accept_response_drops_orphans_silently() {
    let find =
        "            eprintln!(\"dropping a response for id {}: no call with that id is in flight\", id.to_json());\n";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-silent-orphan",
        &[("src/lib.rs", find, "")],
        &["orphan logged and dropped"],
    );
    assert_failed(
        &report,
        "orphan logged and dropped",
        &["dropped without a word", "eprintln!"],
    );
}

#[test]
fn m01_accept_response_guesses_a_call_for_an_orphan() {
    let replace = format!(
        "    let id = if in_flight.contains_key(&id) {{ id }} else {{ in_flight.keys().min_by_key(|k| k.to_json().to_string()).cloned().unwrap_or(id) }};\n{ACCEPT_MATCH}"
    );
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-orphan-guess",
        &[("src/lib.rs", ACCEPT_MATCH, &replace)],
        &["orphan logged and dropped"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "orphan logged and dropped",
        &[
            "no call with id 42 is in flight",
            "Guessing a call corrupts correlation",
        ],
    );
}

/// Ids compared as text: the string `"1"` matches the integer call 1.
#[test]
fn m01_accept_response_compares_ids_as_strings() {
    let replace = format!(
        "    let text = |i: &Id| match i {{ Id::Int(n) => n.to_string(), Id::Str(s) => s.clone() }};\n    let id = in_flight.keys().find(|k| text(k) == text(&id)).cloned().unwrap_or(id);\n{ACCEPT_MATCH}"
    );
    let report = check_mutant(
        ENCODE,
        "mutant-01-ids-as-strings",
        &[("src/lib.rs", ACCEPT_MATCH, &replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "ids match exactly",
        &["the string id \"1\" is not the integer id 1", "type included"],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "orphan logged and dropped")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// 01's accept mode never sends a request (or notification) carrying the id
/// of a call in flight, so an `accept_response` that looks the id up before
/// deciding the line is a response at all passes every case. 02 catches
/// the same mistake ("server ping is not a reply").
#[test]
fn m01_accept_response_looks_up_ids_before_the_shape() {
    let find = "pub fn accept_response(in_flight: &mut HashMap<Id, String>, line: &str) -> Accepted {\n";
    let replace = format!(
        "{find}    if let Some(id) = serde_json::from_str::<Value>(line).ok().and_then(|v| v.get(\"id\").and_then(Id::from_json))\n        && let Some(method) = in_flight.remove(&id)\n    {{\n        return Accepted::Matched {{ id, method }};\n    }}\n"
    );
    let report = check_mutant(ENCODE, "mutant-01-accept-id-first", &[("src/lib.rs", find, &replace)]);
    assert_caught(&report);
}

/// classify takes an error object without a message for an error response.
#[test]
fn m01_error_without_message_classified_as_an_error() {
    let find = "            if !obj[\"error\"].get(\"message\").is_some_and(Value::is_string) {\n                return invalid(\"an error object needs a string message\");\n            }\n";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-error-no-message",
        &[("src/lib.rs", find, "")],
        &["invalid lines are named"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "invalid lines are named",
        &["classify said `error`", "\"code\":-32603}}", "this one has no message"],
    );
}

/// classify reads an error code as a float and truncates it.
#[test]
fn m01_fractional_error_code_truncated() {
    let find = "obj[\"error\"].get(\"code\").and_then(Value::as_i64)";
    let replace = "obj[\"error\"].get(\"code\").and_then(Value::as_f64).map(|c| c as i64)";
    let report = check_mutant_on(
        ENCODE,
        "mutant-01-error-code-float",
        &[("src/lib.rs", find, replace)],
        &["invalid lines are named"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "invalid lines are named",
        &["classify said `error`", "Error codes MUST be integers", "not -32603.5"],
    );
}

//! Mutation tests of the checkers.
//!
//! Each test copies a reference solution into a scratch crate, plants one
//! real implementer mistake in it (textual patches that must each match
//! exactly once, see `common::mutant`), runs the exercise's checker on it
//! through the library API, and asserts that the case built for that
//! mistake fails with a reason that names the right diagnosis. The
//! unmutated copies must pass, so a failing mutant is the mutation's doing.
//!
//! Mistake ids (C02, C06, …) refer to the implementer-mistakes log the
//! checkers cite.

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use mcplings::check::{CheckReport, Status};

use common::{Patch, check_dir, mutant, summary};

const ENCODE: &str = "01-encode-frames";
const ROUTER: &str = "02-id-router";
const GATE: &str = "03-handshake-gate";
const PROBE: &str = "04-era-probe";

/// Builds a mutant of `solutions/<exercise>` and checks it.
fn check_mutant(exercise: &str, package: &str, patches: &[Patch<'_>]) -> CheckReport {
    let dir = mutant(exercise, package, patches);
    check_dir(exercise, dir.path())
}

/// The build succeeded, the check ran, and it did not pass.
fn assert_caught(report: &CheckReport) {
    assert!(report.error.is_none(), "the check could not run:\n{}", summary(report));
    assert!(report.build.ok, "the mutant should build:\n{}", summary(report));
    assert!(!report.passed, "the checker passed a mutant:\n{}", summary(report));
}

/// Case `name` exists, failed, and its reason contains every fragment.
fn assert_failed(report: &CheckReport, name: &str, fragments: &[&str]) {
    let case = report
        .cases
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case named `{name}`:\n{}", summary(report)));
    assert_eq!(
        case.status,
        Status::Failed,
        "case `{name}` should fail:\n{}",
        summary(report)
    );
    let reason = case.reason.as_deref().unwrap_or("");
    for fragment in fragments {
        assert!(
            reason.contains(fragment),
            "case `{name}`: the reason should contain {fragment:?} but is:\n  {reason}\n\n{}",
            summary(report)
        );
    }
}

// ---------------------------------------------------------------------------
// The unmutated solutions pass (controls for every mutant below).
// ---------------------------------------------------------------------------

#[test]
fn unmutated_01_encode_frames_passes() {
    let report = check_mutant(ENCODE, "mutant-01-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert_eq!(report.source, "path");
    assert!(report.cases.len() >= 11, "{}", summary(&report));
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.status == Status::Passed && c.reason.is_none()),
        "{}",
        summary(&report)
    );
}

#[test]
fn unmutated_02_id_router_passes() {
    let report = check_mutant(ROUTER, "mutant-02-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 8, "{}", summary(&report));
    assert!(
        report.cases.iter().all(|c| c.status == Status::Passed),
        "{}",
        summary(&report)
    );
}

#[test]
fn unmutated_03_handshake_gate_passes() {
    let report = check_mutant(GATE, "mutant-03-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 11, "{}", summary(&report));
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.status == Status::Passed && c.reason.is_none()),
        "{}",
        summary(&report)
    );
}

#[test]
fn unmutated_04_era_probe_passes() {
    let report = check_mutant(PROBE, "mutant-04-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 11, "{}", summary(&report));
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.status == Status::Passed && c.reason.is_none()),
        "{}",
        summary(&report)
    );
}

// ---------------------------------------------------------------------------
// The patch guard: a mutant whose patch no longer matches must not build.
// ---------------------------------------------------------------------------

#[test]
#[should_panic(expected = "must occur exactly once in src/lib.rs (from solutions/01-encode-frames), found 0 times")]
fn a_patch_that_matches_nothing_is_refused() {
    mutant(
        ENCODE,
        "mutant-01-guard-none",
        &[("src/lib.rs", "this text is not in the solution", "")],
    );
}

#[test]
#[should_panic(expected = "found 2 times")]
fn a_patch_that_matches_twice_is_refused() {
    mutant(
        ENCODE,
        "mutant-01-guard-twice",
        &[("src/lib.rs", "    Value::Object(frame).to_string()\n", "")],
    );
}

// ---------------------------------------------------------------------------
// 01-encode-frames: encoders.
// ---------------------------------------------------------------------------

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
    let report = check_mutant(
        ENCODE,
        "mutant-01-request-null-params",
        &[("src/lib.rs", find, replace)],
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
    let report = check_mutant(
        ENCODE,
        "mutant-01-pretty",
        &[
            ("src/lib.rs", request_find, request_replace),
            ("src/lib.rs", result_find, result_replace),
        ],
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
    let report = check_mutant(
        ENCODE,
        "mutant-01-own-newline",
        &[
            ("src/lib.rs", error_find, error_replace),
            ("src/lib.rs", result_find, result_replace),
        ],
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
    let report = check_mutant(ENCODE, "mutant-01-data-outside-error", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(&report, "error response", &["data goes inside the error object"]);
}

// ---------------------------------------------------------------------------
// 01-encode-frames: classify.
// ---------------------------------------------------------------------------

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
        "null id is not a notification",
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
    let report = check_mutant(ENCODE, "mutant-01-batch", &[("src/lib.rs", find, replace)]);
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
    let report = check_mutant(
        ENCODE,
        "mutant-01-error-without-id-invalid",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "null id is not a notification",
        &["should say `error`", "parse error", "answers no request"],
    );
}

/// A classifier that never checks `"jsonrpc": "2.0"`.
#[test]
fn m01_classify_skips_the_version_check() {
    let find = "    if obj.get(\"jsonrpc\") != Some(&json!(\"2.0\")) {\n        return invalid(\"jsonrpc must be \\\"2.0\\\"\");\n    }\n";
    let report = check_mutant(ENCODE, "mutant-01-no-version-check", &[("src/lib.rs", find, "")]);
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

// ---------------------------------------------------------------------------
// 01-encode-frames: accept_response (orphans).
// ---------------------------------------------------------------------------

const ACCEPT_MATCH: &str =
    "    match in_flight.remove(&id) {\n        Some(method) => Accepted::Matched { id, method },\n";

/// The shipped behaviour: crash (`expect`) on a response nobody waits for.
#[test]
fn m01_accept_response_crashes_on_an_orphan() {
    let replace = "    let method = in_flight.remove(&id).expect(\"a response for an unknown id\");\n    match Some(method) {\n        Some(method) => Accepted::Matched { id, method },\n";
    let report = check_mutant(
        ENCODE,
        "mutant-01-orphan-crash",
        &[("src/lib.rs", ACCEPT_MATCH, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "orphan logged and dropped",
        &[
            "`accept_response` panicked at src/lib.rs:",
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
    let report = check_mutant(ENCODE, "mutant-01-silent-orphan", &[("src/lib.rs", find, "")]);
    assert_failed(
        &report,
        "orphan logged and dropped",
        &["dropped without a word", "eprintln!"],
    );
}

#[test]
fn m02_router_drops_orphans_silently() {
    let find = "                eprintln!(\"dropping a response for id {}: no call with that id is in flight\", id.to_json());\n";
    let report = check_mutant(ROUTER, "mutant-02-silent-orphan", &[("src/lib.rs", find, "")]);
    assert_failed(&report, "orphan logged and dropped", &["dropped without a word"]);
}

#[test]
fn m01_accept_response_guesses_a_call_for_an_orphan() {
    let replace = format!(
        "    let id = if in_flight.contains_key(&id) {{ id }} else {{ in_flight.keys().min_by_key(|k| k.to_json().to_string()).cloned().unwrap_or(id) }};\n{ACCEPT_MATCH}"
    );
    let report = check_mutant(
        ENCODE,
        "mutant-01-orphan-guess",
        &[("src/lib.rs", ACCEPT_MATCH, &replace)],
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

// ---------------------------------------------------------------------------
// 02-id-router.
// ---------------------------------------------------------------------------

const ROUTER_LOOKUP: &str = "        match self.in_flight.remove(&id) {\n";

/// Responses delivered by arrival order (FIFO) instead of by id.
#[test]
fn m02_delivers_by_arrival_order() {
    let report = check_mutant(
        ROUTER,
        "mutant-02-fifo",
        &[
            (
                "src/lib.rs",
                "    in_flight: HashMap<Id, String>,\n}",
                "    in_flight: HashMap<Id, String>,\n    order: Vec<Id>,\n}",
            ),
            (
                "src/lib.rs",
                "        self.in_flight.insert(id.clone(), tag.to_string());\n",
                "        self.in_flight.insert(id.clone(), tag.to_string());\n        self.order.push(id.clone());\n",
            ),
            (
                "src/lib.rs",
                ROUTER_LOOKUP,
                "        let oldest = if self.order.is_empty() { None } else { Some(self.order.remove(0)) };\n        match oldest.and_then(|o| self.in_flight.remove(&o)) {\n",
            ),
        ],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "out-of-order responses",
        &[
            "reached call",
            "c1",
            "not c2",
            "by the response's id, not by arrival order",
        ],
    );
}

/// A notification answered (C04-style `{"id":null,"result":{}}`).
#[test]
fn m02_answers_notifications() {
    let find = "                None => Routed::Notification { method: method.to_string(), params: frame.get(\"params\").cloned() },\n";
    let replace = "                None => Routed::Answer(json!({\"jsonrpc\": \"2.0\", \"id\": null, \"result\": {}}).to_string()),\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-answers-notifications",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "notification not answered",
        &["the router answered the notification", "MUST NOT reply"],
    );
}

/// A server's `ping` with the same id as a call in flight taken for that
/// call's response (ids looked up before the shape is decided).
#[test]
fn m02_server_ping_taken_for_a_response() {
    let find = "        if let Some(method) = frame.get(\"method\").and_then(Value::as_str) {\n";
    let replace = format!(
        "        if let Some(id) = frame.get(\"id\").and_then(Id::from_json)\n            && let Some(tag) = self.in_flight.remove(&id)\n        {{\n            let outcome = match frame.get(\"error\") {{ Some(e) => Err(e.clone()), None => Ok(frame.get(\"result\").cloned().unwrap_or(Value::Null)) }};\n            return Routed::Reply {{ tag, id, outcome }};\n        }}\n{find}"
    );
    let report = check_mutant(ROUTER, "mutant-02-ping-as-response", &[("src/lib.rs", find, &replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "server request is not a response",
        &[
            "the server's ping was taken for the response to c1",
            "same id",
            "own id space",
        ],
    );
    for other in [
        "out-of-order responses",
        "error reaches its call",
        "orphan logged and dropped",
    ] {
        assert_eq!(
            report.cases.iter().find(|c| c.name == other).unwrap().status,
            Status::Passed,
            "{}",
            summary(&report)
        );
    }
}

const NEXT_ID: &str = "        self.next_id += 1;\n        let id = Id::Int(self.next_id);\n";

/// Ids made from the number of calls in flight: a new call takes the id of
/// one still in flight.
#[test]
fn m02_id_from_the_number_of_calls_in_flight() {
    let replace = "        let id = Id::Int(self.in_flight.len() as i64 + 1);\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-id-in-flight-count",
        &[("src/lib.rs", NEXT_ID, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "ids never reused",
        &["which an earlier call already used", "never reused within a session"],
    );
}

/// Ids reused once answered: the smallest id no call in flight uses.
#[test]
fn m02_id_reused_after_its_call_was_answered() {
    let replace = "        let id = Id::Int((1..).find(|n| !self.in_flight.contains_key(&Id::Int(*n))).unwrap());\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-id-smallest-free",
        &[("src/lib.rs", NEXT_ID, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "ids never reused",
        &["c3 got id 1, which an earlier call already used"],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "two calls, two ids")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// C24: a response kept in the table, so a late duplicate is delivered
/// again.
#[test]
fn m02_delivers_a_duplicate_response_again() {
    let replace = "        match self.in_flight.get(&id).cloned() {\n";
    let report = check_mutant(ROUTER, "mutant-02-no-remove", &[("src/lib.rs", ROUTER_LOOKUP, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "orphan logged and dropped",
        &["c1 was already answered", "is an orphan"],
    );
}

/// C02: a request with `"id": null` taken for a notification.
#[test]
fn m02_null_id_request_taken_for_a_notification() {
    let find = "            return match frame.get(\"id\") {\n";
    let replace = "            return match frame.get(\"id\").filter(|id| !id.is_null()) {\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-null-id-notification",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "invalid lines dropped",
        &["a request with a null id is invalid"],
    );
}

/// `params: None` written as `"params": null`.
#[test]
fn m02_call_writes_null_params() {
    let find =
        "        if let Some(params) = params {\n            frame.insert(\"params\".into(), params);\n        }\n";
    let replace = "        frame.insert(\"params\".into(), json!(params));\n";
    let report = check_mutant(ROUTER, "mutant-02-null-params", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "two calls, two ids",
        &["call(\"c3\", …)", "not a valid request", "\"params\" must be an object"],
    );
}

// ---------------------------------------------------------------------------
// 03-handshake-gate.
// ---------------------------------------------------------------------------

const NEGOTIATE: &str =
    "        let version = if SUPPORTED_VERSIONS.contains(&requested) { requested } else { SUPPORTED_VERSIONS[0] };\n";
const PING_ARM: &str = "            // Ping is served in every phase (2025-11-25 basic/utilities/ping).\n            (\"ping\", _) => Ok(json!({})),\n";
const EARLY_REFUSAL_ARM: &str = "            (_, Phase::AwaitingInitialize) => Err((INVALID_REQUEST, format!(\"Invalid Request: `{method}` before initialize; send initialize first\"))),\n";
const SERVE_ARM: &str = "            (method, _) => serve(method, params),\n";

/// C14 force-latest: the server always answers its newest version, even to
/// a client that asked for an older one it implements.
#[test]
fn m03_always_answers_the_newest_version() {
    let replace = "        let version = SUPPORTED_VERSIONS[0];\n";
    let report = check_mutant(GATE, "mutant-03-force-latest", &[("src/lib.rs", NEGOTIATE, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "older supported version echoed",
        &["asked for 2025-06-18, which this server implements", "got 2025-11-25"],
    );
}

/// C14 echo-anything: the server agrees to whatever version it is asked
/// for.
#[test]
fn m03_echoes_any_version() {
    let replace = "        let version = requested;\n";
    let report = check_mutant(GATE, "mutant-03-echo-anything", &[("src/lib.rs", NEGOTIATE, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "unknown version: counter-offer",
        &["echoed 2099-01-01", "a version it does not implement"],
    );
    assert_failed(&report, "retired version: counter-offer", &["echoed 2024-11-05"]);
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "older supported version echoed")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// C14 reject-instead-of-offer: an unsupported version refused with an
/// error.
#[test]
fn m03_refuses_an_unknown_version() {
    let replace = "        if !SUPPORTED_VERSIONS.contains(&requested) {\n            return Err((INVALID_PARAMS, format!(\"Unsupported protocol version: {requested}\")));\n        }\n        let version = requested;\n";
    let report = check_mutant(GATE, "mutant-03-reject-version", &[("src/lib.rs", NEGOTIATE, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "unknown version: counter-offer",
        &["initialize at 2099-01-01 was refused with an error", "is not an error"],
    );
    assert_failed(
        &report,
        "retired version: counter-offer",
        &["initialize at 2024-11-05 was refused with an error"],
    );
}

/// C12: ping refused before initialize (its arm comes after the one that
/// refuses every early request).
#[test]
fn m03_ping_refused_before_initialize() {
    let report = check_mutant(
        GATE,
        "mutant-03-ping-after-refusal",
        &[
            ("src/lib.rs", PING_ARM, ""),
            (
                "src/lib.rs",
                SERVE_ARM,
                &format!("            (\"ping\", _) => Ok(json!({{}})),\n{SERVE_ARM}"),
            ),
        ],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "ping before initialize",
        &["empty result in every phase", "before initialize too"],
    );
}

/// Silence towards a request before initialize: the client waits forever.
#[test]
fn m03_silent_to_early_requests() {
    let replace = "            (_, Phase::AwaitingInitialize) => return None,\n";
    let report = check_mutant(
        GATE,
        "mutant-03-early-silence",
        &[("src/lib.rs", EARLY_REFUSAL_ARM, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "early request refused",
        &[
            "no response to `tools/list` (id 1)",
            "Every request gets exactly one response",
        ],
    );
}

/// No phase check: requests before initialize are served.
#[test]
fn m03_serves_early_requests() {
    let report = check_mutant(GATE, "mutant-03-early-served", &[("src/lib.rs", EARLY_REFUSAL_ARM, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "early request refused",
        &["tools/list before initialize must be refused with an error response"],
    );
}

/// Unknown notifications answered with -32601, as if they were requests.
#[test]
fn m03_answers_unknown_notifications() {
    let find =
        "                return None;\n            }\n            (Some(method), Some(id)) => (method, id.clone()),\n";
    let replace = "                if method == \"notifications/initialized\" {\n                    return None;\n                }\n                return Some(refuse(&Value::Null, METHOD_NOT_FOUND, &format!(\"Method not found: {method}\")));\n            }\n            (Some(method), Some(id)) => (method, id.clone()),\n";
    let report = check_mutant(
        GATE,
        "mutant-03-answers-notifications",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "notifications not answered",
        &["the server answered a notification", "MUST NOT reply"],
    );
}

/// C06: a `notifications/initialized` that carries an id taken for the
/// notification: the session opens and the request gets no response.
#[test]
fn m03_initialized_with_an_id_taken_for_the_notification() {
    let find = "        let params = message.get(\"params\");\n";
    let replace = format!(
        "        if method == \"notifications/initialized\" {{\n            if self.phase == Phase::AwaitingInitialized {{\n                self.phase = Phase::Ready;\n            }}\n            return None;\n        }}\n{find}"
    );
    let report = check_mutant(GATE, "mutant-03-initialized-with-id", &[("src/lib.rs", find, &replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "initialized with an id",
        &["It carries an id, so it is a request", "-32601"],
    );
}

/// C13: a second initialize served like the first: the session is
/// re-negotiated under the client.
#[test]
fn m03_second_initialize_renegotiates() {
    let find = "            (\"initialize\", Phase::AwaitingInitialize) => self.initialize(params),\n";
    let replace = "            (\"initialize\", _) => self.initialize(params),\n";
    let report = check_mutant(GATE, "mutant-03-reinitialize", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "second initialize answered",
        &[
            "re-negotiated the session to another version",
            "keep the first negotiation",
        ],
    );
}

/// C13: a second initialize ignored (no response at all).
#[test]
fn m03_second_initialize_ignored() {
    let find = "            (\"initialize\", _) => Err((INVALID_REQUEST, \"Invalid Request: the session is already initialized\".to_string())),\n";
    let replace = "            (\"initialize\", _) => return None,\n";
    let report = check_mutant(
        GATE,
        "mutant-03-second-initialize-ignored",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "second initialize answered",
        &["no response to `initialize` (id 2)"],
    );
}

/// A method served behind a capability the server did not advertise.
#[test]
fn m03_serves_resources_it_did_not_advertise() {
    let find = "        \"tools/call\" => call_tool(params),\n";
    let replace =
        "        \"tools/call\" => call_tool(params),\n        \"resources/list\" => Ok(json!({\"resources\": []})),\n";
    let report = check_mutant(GATE, "mutant-03-serves-resources", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "serves what it advertised",
        &["resources/list must fail", "did not advertise `resources`"],
    );
}

/// A capability advertised that the server does not serve.
#[test]
fn m03_advertises_resources_it_does_not_serve() {
    let find = "            \"capabilities\": {\"tools\": {}},\n";
    let replace = "            \"capabilities\": {\"tools\": {}, \"resources\": {}},\n";
    let report = check_mutant(GATE, "mutant-03-advertises-resources", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "initialize echoes 2025-11-25",
        &[
            "the capabilities advertise `resources`",
            "advertise only what you implement",
        ],
    );
}

/// The shipped bug in main.rs: `continue` at end of input, so the server
/// spins forever once its client closes stdin.
#[test]
fn m03_spins_at_end_of_input() {
    let report = check_mutant(
        GATE,
        "mutant-03-spin-at-eof",
        &[(
            "src/main.rs",
            "            Ok(0) => break,\n",
            "            Ok(0) => continue,\n",
        )],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "exits when stdin closes",
        &["still running", "after its stdin closed", "Ok(0)"],
    );
}

/// Debug output on stdout in the server: the first answer is preceded by a
/// line that is not JSON.
#[test]
fn m03_debug_println_on_stdout() {
    let find = "    pub fn handle(&mut self, message: &Value) -> Option<Value> {\n";
    let replace = format!("{find}        println!(\"handle got: {{message}}\");\n");
    let report = check_mutant(GATE, "mutant-03-println", &[("src/lib.rs", find, &replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "initialize echoes 2025-11-25",
        &["stdout line 1 is not JSON", "`handle got: ", "eprintln!"],
    );
}

// ---------------------------------------------------------------------------
// 04-era-probe.
// ---------------------------------------------------------------------------

const FALLBACK_TEST: &str = "if error_code(&answer) != Some(UNSUPPORTED_PROTOCOL_VERSION) {";
const LEGACY_ARM: &str = "            Era::Legacy => params,\n";
const MODERN_ARM: &str = "            Era::Modern => Some(with_meta(params, &self.version, &self.client_info)),\n";

/// The fallback keyed to -32601 alone: every other error is taken for
/// -32022 (a modern server) and, with nothing in `data.supported`, ends in
/// an incompatibility error.
#[test]
fn m04_fallback_keyed_to_method_not_found() {
    let replace = "if error_code(&answer) == Some(-32601) {";
    let report = check_mutant(
        PROBE,
        "mutant-04-fallback-on-32601-only",
        &[("src/lib.rs", FALLBACK_TEST, replace)],
    );
    assert_caught(&report);
    for name in ["-32602: fall back", "any other error: fall back"] {
        assert_failed(
            &report,
            name,
            &[
                "the client gave up (`no protocol version in common",
                "where the fallback to initialize was due",
                "the server is legacy (only -32022 or a DiscoverResult would mean modern)",
            ],
        );
    }
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "-32601: fall back")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// Every error means legacy, -32022 included.
#[test]
fn m04_falls_back_on_unsupported_version() {
    let replace = "if error_code(&answer).is_some() {";
    let report = check_mutant(
        PROBE,
        "mutant-04-fallback-on-32022",
        &[("src/lib.rs", FALLBACK_TEST, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "-32022: retry at shared",
        &["-32022 is a modern error", "must not fall back to initialize"],
    );
    assert_failed(
        &report,
        "-32022: nothing shared",
        &["fell back to initialize after -32022"],
    );
}

const PROBE_WAIT: &str = "wait_for(peer, id, config.probe_timeout)";

/// No probe timeout worth the name: a server that does not answer the
/// probe keeps the client waiting (60 s; the case stops it after its 4 s
/// timeout). "slow modern server", the first case whose server stays
/// silent, hangs; the cases after it don't run.
#[test]
fn m04_probe_waits_too_long() {
    let replace = "wait_for(peer, id, Duration::from_secs(60))";
    let dir = mutant(
        PROBE,
        "mutant-04-no-probe-timeout",
        &[("src/lib.rs", PROBE_WAIT, replace)],
    );
    let started = Instant::now();
    let report = check_dir(PROBE, dir.path());
    let checking = started
        .elapsed()
        .saturating_sub(Duration::from_millis(report.build.duration_ms));
    assert_caught(&report);
    assert_failed(
        &report,
        "silence: fall back in time",
        &[
            "the client sent nothing for 4.0 s where the fallback to initialize was due",
            "Every wait needs a timeout",
            "after 300 ms without an answer the server is legacy",
        ],
    );
    let slow = report.cases.iter().find(|c| c.name == "slow modern server").unwrap();
    assert_eq!(slow.status, Status::NotRun, "{}", summary(&report));
    assert!(
        slow.reason.as_deref().unwrap_or("").contains("an earlier case hung"),
        "{}",
        summary(&report)
    );
    // One hung case (4 s), every other case at its usual pace.
    assert!(
        checking < Duration::from_secs(30),
        "checking (without the build) took {checking:?}"
    );
}

/// The probe's timeout treated as a fatal error instead of the sign of a
/// legacy server.
#[test]
fn m04_probe_timeout_is_fatal() {
    let find = "                    // Silence: a legacy server that ignores unknown methods.\n                    Err(ConnectError::Timeout { .. }) => {\n                        step = Step::Initialize(LEGACY_VERSIONS[0].to_string());\n                        continue;\n                    }\n";
    let report = check_mutant(PROBE, "mutant-04-timeout-fatal", &[("src/lib.rs", find, "")]);
    assert_caught(&report);
    for name in ["silence: fall back in time", "slow modern server"] {
        assert_failed(
            &report,
            name,
            &[
                "the client gave up (`no answer to request 1`)",
                "where the fallback to initialize was due",
                "after 300 ms without an answer the server is legacy",
            ],
        );
    }
}

/// initialize sent with the probe's id: a late answer to the probe would
/// be taken for the initialize result.
#[test]
fn m04_initialize_reuses_the_probe_id() {
    let find = "                send(peer, &request(id, \"initialize\", Some(params)))?;\n";
    let replace = format!("                let id = id - 1;\n{find}");
    let report = check_mutant(PROBE, "mutant-04-reused-id", &[("src/lib.rs", find, &replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "-32601: fall back",
        &["initialize reuses the probe's id 1", "fresh id"],
    );
}

/// C06: `notifications/initialized` sent with an id.
#[test]
fn m04_initialized_sent_with_an_id() {
    let find = "    send(peer, &json!({\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}))?;\n";
    let replace = "    send(peer, &request(next_id, \"notifications/initialized\", None))?;\n";
    let report = check_mutant(PROBE, "mutant-04-initialized-with-id", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "-32601: fall back",
        &[
            "notifications/initialized carries an id",
            "A notification has no id member",
        ],
    );
}

/// C14, client side: the version the server chose is never checked, so the
/// client confirms a session at a version it does not speak.
#[test]
fn m04_never_checks_the_counter_offer() {
    let find = "    if !LEGACY_VERSIONS.contains(&version.as_str()) {\n        // A counter-offer this client can't speak: disconnect, and never\n        // confirm the session with `initialized`.\n        return Err(ConnectError::Incompatible { offered: vec![version] });\n    }\n";
    let report = check_mutant(PROBE, "mutant-04-no-version-check", &[("src/lib.rs", find, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "counter-offer refused",
        &[
            "answered initialize with 2024-11-05",
            "yet the client went on",
            "It should disconnect",
        ],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "counter-offer accepted")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// The modern `_meta` without client capabilities (a modern server answers
/// -32602).
#[test]
fn m04_meta_without_client_capabilities() {
    let find = "        meta.insert(META_CLIENT_CAPABILITIES.into(), json!({}));\n";
    let report = check_mutant(PROBE, "mutant-04-no-capabilities", &[("src/lib.rs", find, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "probe first",
        &[
            "the probe needs the modern `params._meta`",
            "`io.modelcontextprotocol/clientCapabilities` is required",
        ],
    );
}

/// The modern `_meta` added in the legacy era too.
#[test]
fn m04_modern_meta_in_the_legacy_era() {
    let replace = "            Era::Legacy => Some(with_meta(params, &self.version, &self.client_info)),\n";
    let report = check_mutant(
        PROBE,
        "mutant-04-meta-in-legacy",
        &[("src/lib.rs", LEGACY_ARM, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "-32601: fall back",
        &["the session is legacy, so requests carry no modern _meta"],
    );
}

/// The modern `_meta` only on the probe: later modern requests go without.
#[test]
fn m04_no_meta_after_discovery() {
    let report = check_mutant(
        PROBE,
        "mutant-04-no-meta-after-discover",
        &[("src/lib.rs", MODERN_ARM, "            Era::Modern => params,\n")],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "modern server: stay modern",
        &[
            "every modern request, tools/list too, needs the modern `params._meta`",
            "`io.modelcontextprotocol/protocolVersion` must be \"2026-07-28\"",
        ],
    );
}

/// The probe at the oldest modern version the client knows instead of the
/// newest.
#[test]
fn m04_probes_with_the_oldest_version() {
    let report = check_mutant(
        PROBE,
        "mutant-04-probe-oldest",
        &[(
            "src/lib.rs",
            "config.modern_versions.first().cloned()",
            "config.modern_versions.last().cloned()",
        )],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "-32022: retry at shared",
        &[
            "`io.modelcontextprotocol/protocolVersion` must be \"2027-03-01\"",
            "probe with the first, the newest",
        ],
    );
}

/// No version in common after -32022, and the client falls back to
/// initialize anyway.
#[test]
fn m04_nothing_shared_falls_back() {
    let find = "        None => Err(ConnectError::Incompatible { offered }),\n";
    let replace = "        None => Ok(Step::Initialize(LEGACY_VERSIONS[0].to_string())),\n";
    let report = check_mutant(
        PROBE,
        "mutant-04-nothing-shared-fallback",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "-32022: nothing shared",
        &[
            "the client fell back to initialize after -32022",
            "a modern server has no initialize",
        ],
    );
}

/// `wait_for` returns the first message whatever it is: a log notification
/// is taken for the initialize result.
#[test]
fn m04_wait_for_takes_the_first_message() {
    let find = "        let is_response = message.get(\"result\").is_some() || message.get(\"error\").is_some();\n";
    let report = check_mutant(
        PROBE,
        "mutant-04-first-message",
        &[("src/lib.rs", find, &format!("        return Ok(message);\n{find}"))],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "log before the result",
        &[
            "the client gave up (`protocol error: initialize failed",
            "a log notification arrived before the initialize result",
        ],
    );
}

// ---------------------------------------------------------------------------
// Hostile programs: hangs, junk on stdout, crashes, early exits, compile
// errors.
// ---------------------------------------------------------------------------

/// A function that never returns: the case fails within the case timeout
/// plus a small margin, the program is killed, and later cases don't run.
#[test]
fn hostile_function_loops_forever() {
    let scratch = tempfile::tempdir().unwrap();
    let pid_file = scratch.path().join("pid");
    let find = "pub fn encode_request(id: &Id, method: &str, params: Option<Value>) -> String {\n";
    let replace = format!(
        "{find}    std::fs::write({:?}, std::process::id().to_string()).unwrap();\n    loop {{\n        std::thread::sleep(std::time::Duration::from_millis(20));\n    }}\n    #[allow(unreachable_code)]\n",
        pid_file.display().to_string()
    );
    let dir = mutant(ENCODE, "mutant-01-hang", &[("src/lib.rs", find, &replace)]);
    let started = Instant::now();
    let report = check_dir(ENCODE, dir.path());
    let checking = started
        .elapsed()
        .saturating_sub(Duration::from_millis(report.build.duration_ms));
    assert_caught(&report);
    assert_failed(&report, "request frame", &["no answer within 3.0 s", "stuck"]);
    assert!(
        report.cases[0]
            .reason
            .as_deref()
            .unwrap()
            .starts_with("no answer within"),
        "{}",
        summary(&report)
    );
    let hung = &report.cases[0];
    assert!(
        hung.duration_ms >= 2900 && hung.duration_ms < 6000,
        "the hung case took {} ms",
        hung.duration_ms
    );
    assert!(
        checking < Duration::from_secs(6),
        "checking (without the build) took {checking:?}"
    );
    for case in &report.cases[1..] {
        assert_eq!(case.status, Status::NotRun, "{}", summary(&report));
        assert!(
            case.reason.as_deref().unwrap_or("").contains("an earlier case hung"),
            "{}",
            summary(&report)
        );
    }
    // The stuck process was killed, not left behind.
    let pid = std::fs::read_to_string(&pid_file).expect("the mutant ran and wrote its pid");
    if cfg!(target_os = "linux") {
        let proc = Path::new("/proc").join(pid.trim());
        assert!(!proc.exists(), "the stuck program (pid {pid}) is still running");
    }
}

/// Debug output on stdout: the reason says the line is not JSON and that
/// debug output belongs on stderr.
#[test]
fn hostile_debug_println_on_stdout() {
    let find = "pub fn classify(line: &str) -> Kind {\n";
    let replace = format!("{find}    println!(\"classify got: {{line}}\");\n");
    let report = check_mutant(ENCODE, "mutant-01-println", &[("src/lib.rs", find, &replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "classify the four frames",
        &["stdout line 1 is not JSON", "`classify got: ", "stderr", "eprintln!"],
    );
    assert_eq!(
        report.cases.iter().find(|c| c.name == "request frame").unwrap().status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// `main` panics before reading anything: every case fails and says where.
#[test]
fn hostile_main_panics_at_start() {
    let find = "fn main() {\n";
    let replace = "fn main() {\n    if std::env::args().len() < 1000 {\n        panic!(\"cannot start: config missing\");\n    }\n";
    let report = check_mutant(ROUTER, "mutant-02-main-panics", &[("src/main.rs", find, replace)]);
    assert_caught(&report);
    for case in &report.cases {
        assert_failed(
            &report,
            &case.name,
            &["the program panicked at src/main.rs:", "cannot start: config missing"],
        );
    }
}

/// `main` returns at once with status 0.
#[test]
fn hostile_main_exits_at_once() {
    let find = "fn main() {\n";
    let replace = "fn main() {\n    if std::env::args().len() < 1000 {\n        return;\n    }\n";
    let report = check_mutant(ROUTER, "mutant-02-main-exits", &[("src/main.rs", find, replace)]);
    assert_caught(&report);
    for case in &report.cases {
        assert_failed(&report, &case.name, &["exited before answering", "keep reading stdin"]);
    }
}

/// A missing semicolon: the build fails, its output shows the error, and
/// no case runs.
#[test]
fn hostile_compile_error() {
    let find = "frame.insert(\"id\".into(), id.to_json());";
    let replace = "frame.insert(\"id\".into(), id.to_json())";
    let report = check_mutant(ENCODE, "mutant-01-compile-error", &[("src/lib.rs", find, replace)]);
    assert!(report.error.is_none(), "{}", summary(&report));
    assert!(!report.build.ok, "{}", summary(&report));
    assert!(!report.passed);
    assert!(
        report.build.output.contains("error"),
        "build output: {}",
        report.build.output
    );
    assert!(
        report.build.output.contains("src/lib.rs"),
        "build output: {}",
        report.build.output
    );
    assert!(!report.cases.is_empty());
    for case in &report.cases {
        assert_eq!(case.status, Status::NotRun, "{}", summary(&report));
        assert!(
            case.reason.as_deref().unwrap_or("").contains("the build failed"),
            "{}",
            summary(&report)
        );
    }
}

// ---------------------------------------------------------------------------
// Mistakes a first version of the checkers missed or explained badly.
// ---------------------------------------------------------------------------

/// 02 has no case where a response carries the right id with the wrong
/// type, so a router that compares ids as text (as a `HashMap<String, _>`
/// keyed by the id's text would) passes every case. 01 catches the same
/// mistake in `accept_response` ("ids match exactly").
#[test]
fn m02_router_compares_ids_as_strings() {
    let replace = "        let text = |i: &Id| match i { Id::Int(n) => n.to_string(), Id::Str(s) => s.clone() };\n        let id = self.in_flight.keys().find(|k| text(k) == text(&id)).cloned().unwrap_or(id);\n        match self.in_flight.remove(&id) {\n";
    let report = check_mutant(
        ROUTER,
        "mutant-02-ids-as-strings",
        &[("src/lib.rs", ROUTER_LOOKUP, replace)],
    );
    assert_caught(&report);
}

/// 01's accept mode never sends a request (or notification) carrying the id
/// of a call in flight, so an `accept_response` that looks the id up before
/// deciding the line is a response at all passes every case. 02 catches
/// the same mistake ("server request is not a response").
#[test]
fn m01_accept_response_looks_up_ids_before_the_shape() {
    let find = "pub fn accept_response(in_flight: &mut HashMap<Id, String>, line: &str) -> Accepted {\n";
    let replace = format!(
        "{find}    if let Some(id) = serde_json::from_str::<Value>(line).ok().and_then(|v| v.get(\"id\").and_then(Id::from_json))\n        && let Some(method) = in_flight.remove(&id)\n    {{\n        return Accepted::Matched {{ id, method }};\n    }}\n"
    );
    let report = check_mutant(ENCODE, "mutant-01-accept-id-first", &[("src/lib.rs", find, &replace)]);
    assert_caught(&report);
}

/// Endless recursion ends in a stack overflow (SIGABRT). The reason only
/// says "the program was killed by a signal before answering"; the cause,
/// "has overflowed its stack", is on stderr but not in the reason.
#[test]
fn hostile_endless_recursion() {
    let find = "Value::Array(_) => return invalid(\"a batch: batches were removed in 2025-06-18\"),";
    let replace = "Value::Array(_) => return classify(line),";
    let report = check_mutant(ENCODE, "mutant-01-recursion", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(&report, "invalid lines are named", &["overflowed its stack"]);
}

/// A -32022 that lists only a legacy version the client speaks is answered
/// as "incompatible" instead of with initialize at that version.
#[test]
fn m04_legacy_version_in_supported_ignored() {
    let find = "    match LEGACY_VERSIONS.iter().find(|v| offered.iter().any(|o| o == *v)) {\n";
    let replace = "    match None::<&&str> {\n";
    let report = check_mutant(
        PROBE,
        "mutant-04-legacy-listed-ignored",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "-32022: legacy version",
        &[
            "the client gave up as incompatible",
            "initialize at 2025-11-25 is the retry",
        ],
    );
}

/// A -32022 in answer to initialize (a modern server that was slow to
/// answer the probe) ends the connection instead of a new probe.
#[test]
fn m04_no_new_probe_after_initialize_refused() {
    let find = "                if error_code(&answer) == Some(UNSUPPORTED_PROTOCOL_VERSION) && !reprobed {\n";
    let replace = "                if false && !reprobed {\n";
    let report = check_mutant(PROBE, "mutant-04-no-reprobe", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "slow modern server",
        &["the client gave up", "where a new probe at 2026-07-28 was due"],
    );
}

// ---------------------------------------------------------------------------
// 05-stdio-codec: the decoder and the encoder.
// ---------------------------------------------------------------------------

const CODEC: &str = "05-stdio-codec";
const FEED_START: &str = "        self.pending.extend_from_slice(bytes);\n";

#[test]
fn unmutated_05_stdio_codec_passes() {
    let report = check_mutant(CODEC, "mutant-05-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 8, "{}", summary(&report));
}

/// Every read decoded on its own, as if it held whole lines: the end of a
/// line cut by the previous read is lost (C17).
#[test]
fn m05_each_read_starts_afresh() {
    let replace = "        self.pending.clear();\n        self.pending.extend_from_slice(bytes);\n";
    let report = check_mutant(CODEC, "mutant-05-read-afresh", &[("src/lib.rs", FEED_START, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "a line split across reads",
        &["the rest of the line completes the message"],
    );
}

/// Each read turned into a String before it is buffered: a read that ends
/// inside a UTF-8 character mangles it.
#[test]
fn m05_reads_decoded_as_text() {
    let replace = "        self.pending.extend_from_slice(String::from_utf8_lossy(bytes).as_bytes());\n";
    let report = check_mutant(CODEC, "mutant-05-text-reads", &[("src/lib.rs", FEED_START, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "split at every byte",
        &["a cut can even fall inside a UTF-8 character, so join bytes, not strings"],
    );
}

/// The `\r` of a CRLF line ending kept on the line (C16).
#[test]
fn m05_carriage_return_kept() {
    let find = "            if let Some(stripped) = line.strip_suffix(b\"\\r\") {\n                line = stripped;\n            }\n";
    let report = check_mutant(CODEC, "mutant-05-cr-kept", &[("src/lib.rs", find, "")]);
    assert_caught(&report);
    assert_failed(&report, "CRLF accepted", &["reported with its \\r still on"]);
}

/// Decoding stops at the first bad line; the lines after it wait forever.
#[test]
fn m05_stops_at_a_bad_line() {
    let find = "            out.push(decode_line(line));\n";
    let replace = "            let decoded = decode_line(line);\n            let bad = decoded.is_err();\n            out.push(decoded);\n            if bad {\n                break;\n            }\n";
    let report = check_mutant(CODEC, "mutant-05-stop-at-bad", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "bad line, then on",
        &["decoding goes on", "must not cost the messages after it"],
    );
}

/// A JSON array passed on as a message, as if batches still existed (C21).
#[test]
fn m05_batch_accepted() {
    let find = "        Ok(Value::Array(_)) => Err(FrameError::Batch),\n";
    let replace = "        Ok(batch @ Value::Array(_)) => Ok(batch),\n";
    let report = check_mutant(CODEC, "mutant-05-batch", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "batch rejected",
        &["a JSON array came out as a message", "removed in 2025-06-18"],
    );
}

/// A buffer capped at 1 MiB: a larger message never completes (C17).
#[test]
fn m05_buffer_capped() {
    let replace =
        "        if self.pending.len() < 1 << 20 {\n            self.pending.extend_from_slice(bytes);\n        }\n";
    let report = check_mutant(CODEC, "mutant-05-capped", &[("src/lib.rs", FEED_START, replace)]);
    assert_caught(&report);
    assert_failed(&report, "large frame", &["Don't cap the buffer"]);
}

const ENCODE_BODY: &str =
    "    let mut bytes = serde_json::to_vec(message).expect(\"a Value always serializes\");\n    bytes.push(b'\\n');\n";

/// Pretty-printed frames (C18).
#[test]
fn m05_pretty_printed() {
    let replace = "    let mut bytes = serde_json::to_vec_pretty(message).expect(\"a Value always serializes\");\n    bytes.push(b'\\n');\n";
    let report = check_mutant(CODEC, "mutant-05-pretty", &[("src/lib.rs", ENCODE_BODY, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "encode: one line",
        &["pretty-printed", "MUST NOT contain embedded newlines"],
    );
}

/// No newline after the frame: the reader waits for it forever.
#[test]
fn m05_no_newline() {
    let replace = "    let bytes = serde_json::to_vec(message).expect(\"a Value always serializes\");\n";
    let report = check_mutant(CODEC, "mutant-05-no-newline", &[("src/lib.rs", ENCODE_BODY, replace)]);
    assert_caught(&report);
    assert_failed(&report, "encode: one line", &["does not end with \\n"]);
}

/// CRLF written on output (C16).
#[test]
fn m05_crlf_written() {
    let replace = "    let mut bytes = serde_json::to_vec(message).expect(\"a Value always serializes\");\n    bytes.extend_from_slice(b\"\\r\\n\");\n";
    let report = check_mutant(CODEC, "mutant-05-crlf-out", &[("src/lib.rs", ENCODE_BODY, replace)]);
    assert_caught(&report);
    assert_failed(&report, "encode: one line", &["ends in \\r\\n"]);
}

/// Strings written out by hand, their newlines raw (C18).
#[test]
fn m05_raw_newline_in_a_string() {
    let replace = "    let mut bytes = serde_json::to_vec(message).expect(\"a Value always serializes\");\n    let text = String::from_utf8(bytes).unwrap().replace(\"\\\\n\", \"\\n\");\n    let mut bytes = text.into_bytes();\n    bytes.push(b'\\n');\n";
    let report = check_mutant(CODEC, "mutant-05-raw-newline", &[("src/lib.rs", ENCODE_BODY, replace)]);
    assert_caught(&report);
    assert_failed(&report, "encode: one line", &["holds a raw newline"]);
}

// ---------------------------------------------------------------------------
// 06-http-front-door: Streamable HTTP, 2026-07-28.
// ---------------------------------------------------------------------------

const HTTP: &str = "06-http-front-door";

#[test]
fn unmutated_06_http_front_door_passes() {
    let report = check_mutant(HTTP, "mutant-06-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 11, "{}", summary(&report));
}

/// A notification answered with 200 and a JSON body (C04).
#[test]
fn m06_notification_answered_with_200() {
    let find = "        return HttpResponse::empty(202);\n";
    let replace = "        return HttpResponse::json(200, &json!({\"jsonrpc\": \"2.0\", \"result\": {}}));\n";
    let report = check_mutant(HTTP, "mutant-06-notification-200", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "notification: 202",
        &["answered with 200", "202 Accepted with no body"],
    );
}

/// GET served like POST (a legacy GET stream that 2026-07-28 removed).
#[test]
fn m06_get_allowed() {
    let report = check_mutant(
        HTTP,
        "mutant-06-get",
        &[(
            "src/lib.rs",
            "    if request.method != \"POST\" {\n",
            "    if request.method == \"DELETE\" {\n",
        )],
    );
    assert_caught(&report);
    assert_failed(&report, "only POST /mcp", &["GET /mcp should get 405"]);
}

/// The headers never compared with the body.
#[test]
fn m06_headers_trusted() {
    let find = "    if let Err(reason) = check_headers(request, &message) {\n";
    let replace = "    if let Err(reason) = Ok::<(), String>(()) {\n";
    let report = check_mutant(HTTP, "mutant-06-headers-trusted", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    for name in [
        "Mcp-Method must match",
        "Mcp-Name must match",
        "version header must match",
    ] {
        assert_failed(&report, name, &["400 with error code -32020"]);
    }
}

/// `_meta` never checked: a request that says nothing of the client's
/// capabilities is served (the 06 solution had this bug until the
/// conformance suite's server-stateless scenario caught it).
#[test]
fn m06_meta_not_required() {
    let find = "    if let Err(reason) = check_meta(&message) {\n";
    let replace = "    if let Err(reason) = Ok::<(), String>(()) {\n";
    let report = check_mutant(HTTP, "mutant-06-meta-trusted", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "_meta fields required",
        &[
            "io.modelcontextprotocol/clientCapabilities in params._meta",
            "400 with error code -32602",
        ],
    );
}

/// Mcp-Name checked for presence only.
#[test]
fn m06_name_not_compared() {
    let report = check_mutant(
        HTTP,
        "mutant-06-name",
        &[(
            "src/lib.rs",
            "        if name != body_name {\n",
            "        if name.is_empty() {\n",
        )],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "Mcp-Name must match",
        &["A gateway may route or authorize by the header"],
    );
}

/// The base64 sentinel compared undecoded.
#[test]
fn m06_base64_not_decoded() {
    let report = check_mutant(
        HTTP,
        "mutant-06-no-base64",
        &[(
            "src/lib.rs",
            "let Some(name) = decode_header_value(header) else",
            "let Some(name) = Some(header.to_string()) else",
        )],
    );
    assert_caught(&report);
    assert_failed(&report, "base64 Mcp-Name decoded", &["is \"echo\" once decoded"]);
}

/// The Origin header ignored (DNS rebinding).
#[test]
fn m06_origin_ignored() {
    let report = check_mutant(
        HTTP,
        "mutant-06-origin",
        &[(
            "src/lib.rs",
            "        && !is_local_origin(origin)\n",
            "        && origin.is_empty()\n",
        )],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "foreign Origin: 403",
        &["must get 403 Forbidden", "DNS rebinding"],
    );
}

/// The right error code with the wrong HTTP status.
#[test]
fn m06_unsupported_version_with_status_200() {
    let find = "        return HttpResponse::json(400, &error_response(Some(id), UNSUPPORTED_PROTOCOL_VERSION,";
    let replace = "        return HttpResponse::json(200, &error_response(Some(id), UNSUPPORTED_PROTOCOL_VERSION,";
    let report = check_mutant(HTTP, "mutant-06-status-200", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "unsupported version",
        &["the error code is right, but the HTTP status is 200, not 400"],
    );
}

/// An unknown method answered 200 with a JSON-RPC error.
#[test]
fn m06_unknown_method_with_status_200() {
    let report = check_mutant(
        HTTP,
        "mutant-06-unknown-200",
        &[(
            "src/lib.rs",
            "        _ => HttpResponse::json(404,",
            "        _ => HttpResponse::json(200,",
        )],
    );
    assert_caught(&report);
    assert_failed(&report, "unknown method: 404", &["HTTP status is 200, not 404"]);
}

/// The response sent first on the SSE stream, the progress after it.
#[test]
fn m06_response_before_progress() {
    let find = "            let mut stream = String::new();\n";
    let replace = "            let mut stream = sse_event(&response);\n";
    let drop_last = (
        "src/lib.rs",
        "            stream.push_str(&sse_event(&response));\n",
        "",
    );
    let report = check_mutant(
        HTTP,
        "mutant-06-response-first",
        &[("src/lib.rs", find, replace), drop_last],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress as an SSE stream",
        &["something came after the response"],
    );
}

// ---------------------------------------------------------------------------
// 07-tool-server: tools, resources and a prompt, in both eras.
// ---------------------------------------------------------------------------

const TOOLS: &str = "07-tool-server";
const UNKNOWN_TOOL_ARM: &str = "        other => Err(RpcError::invalid_params(format!(\"Unknown tool: {other}\"))),\n";

#[test]
fn unmutated_07_tool_server_passes() {
    let report = check_mutant(TOOLS, "mutant-07-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 13, "{}", summary(&report));
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.status == Status::Passed && c.reason.is_none()),
        "{}",
        summary(&report)
    );
}

/// An unknown tool reported as a tool error (`isError: true`), as the
/// Python SDK does: the model is told to fix input that was never wrong.
#[test]
fn m07_unknown_tool_as_a_tool_error() {
    let replace = "        other => Ok(tool_error(format!(\"Unknown tool: {other}\"))),\n";
    let report = check_mutant(
        TOOLS,
        "mutant-07-unknown-tool-iserror",
        &[("src/lib.rs", UNKNOWN_TOOL_ARM, replace)],
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
    let report = check_mutant(
        TOOLS,
        "mutant-07-unknown-tool-32601",
        &[("src/lib.rs", UNKNOWN_TOOL_ARM, replace)],
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
    let report = check_mutant(TOOLS, "mutant-07-content-object", &[("src/lib.rs", find, replace)]);
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
    let report = check_mutant(TOOLS, "mutant-07-no-mirror", &[("src/lib.rs", find, replace)]);
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
    let report = check_mutant(TOOLS, "mutant-07-empty-contents", &[("src/lib.rs", find, replace)]);
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
    let report = check_mutant(TOOLS, "mutant-07-prompt-undefined", &[("src/lib.rs", find, replace)]);
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
    let report = check_mutant(TOOLS, "mutant-07-blob-as-text", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "resources: text, blob, template",
        &["the PNG is binary", "carries `blob`, base64, and no `text`"],
    );
}

// ---------------------------------------------------------------------------
// 08-pagination-walker: a modern client's pages, restarts and cache.
// ---------------------------------------------------------------------------

const WALKER: &str = "08-pagination-walker";
const NEXT_CURSOR_ARM: &str = "                Some(next) => cursor = Some(next.to_string()),\n";
const RESTART_ONCE: &str = "        let (tools, ttl) = match self.walk(peer) {\n            // The server forgot our place: start over, once.\n            Err(WalkError::InvalidCursor(_)) => self.walk(peer)?,\n            other => other?,\n        };\n";
const CACHE_CHECK: &str = "        if let Some(cached) = &self.cache\n            && now < cached.fresh_until\n        {\n            return Ok(cached.tools.clone());\n        }\n";
const OURS: &str =
    "        let ours = self.subscription.is_some() && subscription_of(message) == self.subscription.as_ref();\n";

#[test]
fn unmutated_08_pagination_walker_passes() {
    let report = check_mutant(WALKER, "mutant-08-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 7, "{}", summary(&report));
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.status == Status::Passed && c.reason.is_none()),
        "{}",
        summary(&report)
    );
}

/// C25: an empty-string nextCursor taken for the end of the list.
#[test]
fn m08_stops_at_an_empty_cursor() {
    let end_find = "                None => return Ok((tools, Duration::from_millis(ttl_ms))),\n";
    let end_replace = "                _ => return Ok((tools, Duration::from_millis(ttl_ms))),\n";
    let replace = "                Some(next) if !next.is_empty() => cursor = Some(next.to_string()),\n";
    let report = check_mutant(
        WALKER,
        "mutant-08-empty-cursor-ends",
        &[
            ("src/lib.rs", NEXT_CURSOR_ARM, replace),
            ("src/lib.rs", end_find, end_replace),
        ],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "three pages, cursors verbatim",
        &[
            "the walker stopped after page 1, which ended with nextCursor \"\"",
            "An empty string is a cursor like any other",
            "Test for the field, not for its emptiness",
        ],
    );
}

/// The cursor URL-encoded before it goes back (`+` as `%2B`).
#[test]
fn m08_cursor_url_encoded() {
    let replace = "                Some(next) => cursor = Some(next.replace('+', \"%2B\")),\n";
    let report = check_mutant(
        WALKER,
        "mutant-08-cursor-encoded",
        &[("src/lib.rs", NEXT_CURSOR_ARM, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "three pages, cursors verbatim",
        &[
            "the cursor comes back as \"b/%2B=c== \", but the server handed out \"b/+=c== \"",
            "byte for byte",
        ],
    );
}

/// A -32602 for a cursor ends the listing instead of a fresh walk.
#[test]
fn m08_no_restart_after_invalid_cursor() {
    let replace = "        let (tools, ttl) = self.walk(peer)?;\n";
    let report = check_mutant(WALKER, "mutant-08-no-restart", &[("src/lib.rs", RESTART_ONCE, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "-32602: walk again once",
        &[
            "the client gave up",
            "where a first-page tools/list request was due",
            "walk again from the first page, without a cursor",
        ],
    );
}

/// Walks again after every -32602, without end. The case fails on its own
/// (no report within 2 s), well before the case timeout.
#[test]
fn m08_restarts_forever() {
    let replace = "        let (tools, ttl) = loop {\n            match self.walk(peer) {\n                Err(WalkError::InvalidCursor(_)) => continue,\n                other => break other?,\n            }\n        };\n";
    let report = check_mutant(
        WALKER,
        "mutant-08-restart-forever",
        &[("src/lib.rs", RESTART_ONCE, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "-32602 twice: give up",
        &["the cursor was refused on the fresh walk too", "not walk a third time"],
    );
    let case = report.cases.iter().find(|c| c.name == "-32602 twice: give up").unwrap();
    assert!(
        case.duration_ms < 4000,
        "the case took {} ms (the case timeout is 5 s)",
        case.duration_ms
    );
}

/// No cache: every listing walks the pages.
#[test]
fn m08_no_cache() {
    let report = check_mutant(WALKER, "mutant-08-no-cache", &[("src/lib.rs", CACHE_CHECK, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "fresh cache serves",
        &[
            "list_tools (call 2) sent a request",
            "the second listing, right after the first, comes from the cache",
        ],
    );
}

/// A cache that never expires: ttlMs is ignored.
#[test]
fn m08_cache_never_expires() {
    let replace =
        "        if let Some(cached) = &self.cache {\n            return Ok(cached.tools.clone());\n        }\n";
    let report = check_mutant(
        WALKER,
        "mutant-08-cache-forever",
        &[("src/lib.rs", CACHE_CHECK, replace)],
    );
    assert_caught(&report);
    assert_failed(&report, "stale cache refetches", &["400 ms later the list is stale"]);
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "fresh cache serves")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// An absent ttlMs taken as "keep forever" instead of 0.
#[test]
fn m08_absent_ttl_kept_forever() {
    let find = ".and_then(Value::as_u64).unwrap_or(0));";
    let replace = ".and_then(Value::as_u64).unwrap_or(u64::MAX));";
    let report = check_mutant(WALKER, "mutant-08-absent-ttl-forever", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "absent ttlMs means 0",
        &[
            "the pages carried no ttlMs, which means 0",
            "the second listing walks again",
        ],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "stale cache refetches")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

/// Any list_changed drops the cache: the subscription id is not checked.
#[test]
fn m08_any_list_changed_invalidates() {
    let replace = "        let ours = self.subscription.is_some();\n";
    let report = check_mutant(WALKER, "mutant-08-any-list-changed", &[("src/lib.rs", OURS, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "listen: ours invalidates",
        &[
            "list_tools (call 3) sent a request",
            "tagged with another subscription id",
            "Check the tag",
        ],
    );
}

/// on_message ignores everything: our own list_changed leaves a stale list.
#[test]
fn m08_on_message_ignores_everything() {
    let find = format!(
        "{OURS}        if message.get(\"method\").and_then(Value::as_str) == Some(\"notifications/tools/list_changed\") && ours {{\n            self.cache = None;\n        }} else {{\n            eprintln!(\"ignored: {{message}}\");\n        }}\n"
    );
    let replace = "        eprintln!(\"ignored: {message}\");\n";
    let report = check_mutant(
        WALKER,
        "mutant-08-on-message-ignores",
        &[("src/lib.rs", &find, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "listen: ours invalidates",
        &["tagged with this walker's subscription id makes the cached list stale"],
    );
}

/// listen returns right after sending subscriptions/listen, without waiting
/// for the acknowledgement.
#[test]
fn m08_listen_does_not_wait_for_the_acknowledgement() {
    let find = "        loop {\n            let message = peer.recv(self.timeout).map_err(WalkError::Gone)?;\n            let method = message.get(\"method\").and_then(Value::as_str);\n            if method == Some(\"notifications/subscriptions/acknowledged\")";
    let replace = "        if true {\n            self.subscription = Some(id);\n            return Ok(());\n        }\n        loop {\n            let message = peer.recv(self.timeout).map_err(WalkError::Gone)?;\n            let method = message.get(\"method\").and_then(Value::as_str);\n            if method == Some(\"notifications/subscriptions/acknowledged\")";
    let report = check_mutant(WALKER, "mutant-08-listen-no-ack", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "listen: ours invalidates",
        &["the walker went on before the acknowledgement", "wait for it"],
    );
}

/// A cursor trimmed before it goes back: the trailing space of `"b/+=c== "`
/// is lost.
#[test]
fn m08_cursor_trimmed() {
    let replace = "                Some(next) => cursor = Some(next.trim().to_string()),\n";
    let report = check_mutant(
        WALKER,
        "mutant-08-cursor-trimmed",
        &[("src/lib.rs", NEXT_CURSOR_ARM, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "three pages, cursors verbatim",
        &[
            "the cursor comes back as \"b/+=c==\", but the server handed out \"b/+=c== \"",
            "byte for byte",
            "no trimming",
        ],
    );
}

/// The cache keeps the first page's ttlMs instead of the smallest of all
/// the pages: a list is only as fresh as its stalest page.
#[test]
fn m08_ttl_from_the_first_page_only() {
    let find = "            ttl_ms = ttl_ms.min(result.get(\"ttlMs\").and_then(Value::as_u64).unwrap_or(0));\n";
    let replace = "            if ttl_ms == u64::MAX {\n                ttl_ms = result.get(\"ttlMs\").and_then(Value::as_u64).unwrap_or(0);\n            }\n";
    let report = check_mutant(WALKER, "mutant-08-ttl-first-page", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "stale cache refetches",
        &[
            "400 ms later the list is stale",
            "a list is only as fresh as its stalest page",
        ],
    );
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "fresh cache serves")
            .unwrap()
            .status,
        Status::Passed,
        "{}",
        summary(&report)
    );
}

// ---------------------------------------------------------------------------
// 09-progress-cancel: a client supervisor's tokens, progress, timeouts and
// cancels.
// ---------------------------------------------------------------------------

const SUPERVISOR: &str = "09-progress-cancel";
const SET_TOKEN: &str = "        meta[\"progressToken\"] = token.clone();\n";
const TOKEN_CHECK: &str = "                    if p.get(\"progressToken\") != Some(&token) {\n";
const IDLE_RESET: &str = "                        idle_until = Instant::now() + limits.idle;\n";
const SEND_CANCEL: &str = "                    send(peer, &cancel)?;\n";
const CANCEL: &str = "let cancel = json!({\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", \"params\": {\"requestId\": id, \"reason\": \"timed out\"}});";

#[test]
fn unmutated_09_progress_cancel_passes() {
    let report = check_mutant(SUPERVISOR, "mutant-09-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 7, "{}", summary(&report));
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.status == Status::Passed && c.reason.is_none()),
        "{}",
        summary(&report)
    );
}

/// C23-adjacent: one progress token for every call, so a late progress
/// for an old call is taken for the new one's.
#[test]
fn m09_same_token_for_every_call() {
    let find = "        let token = json!(format!(\"progress-{}\", self.next_token));\n";
    let replace = "        let token = json!(\"progress\");\n";
    let report = check_mutant(SUPERVISOR, "mutant-09-same-token", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "a fresh token per call",
        &[
            "both calls carry the progress token \"progress\"",
            "make every call's token fresh",
        ],
    );
}

/// No progress token at all: the server has nothing to tag its progress
/// with.
#[test]
fn m09_no_progress_token() {
    let report = check_mutant(SUPERVISOR, "mutant-09-no-token", &[("src/lib.rs", SET_TOKEN, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "a fresh token per call",
        &["the request carries no progressToken", "params._meta.progressToken"],
    );
}

/// Progress passed on whatever its token: another call's progress reaches
/// this call's `on_progress`.
#[test]
fn m09_progress_token_not_checked() {
    let report = check_mutant(
        SUPERVISOR,
        "mutant-09-token-unchecked",
        &[("src/lib.rs", TOKEN_CHECK, "                    if false {\n")],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "bad progress not passed on",
        &[
            "progress for the token not-yours reached on_progress",
            "only progress carrying this call's own token",
        ],
    );
}

/// C23: a non-strict check (`<` instead of `<=`): a repeated value is
/// passed on as progress.
#[test]
fn m09_repeated_progress_passed_on() {
    let find = "                    } else if last.is_some_and(|l| value <= l) {\n";
    let replace = "                    } else if last.is_some_and(|l| value < l) {\n";
    let report = check_mutant(SUPERVISOR, "mutant-09-non-strict", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "bad progress not passed on",
        &[
            "a repeated progress value (2, then 2 again) reached on_progress",
            "progress MUST increase",
        ],
    );
}

/// Progress does not restart the idle timer: a call that keeps moving is
/// cancelled at its first idle timeout.
#[test]
fn m09_progress_does_not_reset_idle() {
    let report = check_mutant(
        SUPERVISOR,
        "mutant-09-idle-not-reset",
        &[("src/lib.rs", IDLE_RESET, "")],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress resets idle, not the cap",
        &[
            "although progress came every 150 ms",
            "Each valid progress notification restarts the idle timer",
        ],
    );
}

/// Progress restarts the cap as well as the idle timer: a call that keeps
/// moving is never cut off.
#[test]
fn m09_progress_resets_the_cap_too() {
    let cap_find = "        let cap = started + limits.cap;\n";
    let cap_replace = "        let mut cap = started + limits.cap;\n";
    let reset = format!("{IDLE_RESET}                        cap = Instant::now() + limits.cap;\n");
    let report = check_mutant(
        SUPERVISOR,
        "mutant-09-cap-reset",
        &[
            ("src/lib.rs", cap_find, cap_replace),
            ("src/lib.rs", IDLE_RESET, &reset),
        ],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress resets idle, not the cap",
        &["past its 1 s cap", "keep the cap as a separate deadline"],
    );
}

/// Cancelled twice (e.g. once per deadline, or again on the late response).
#[test]
fn m09_cancel_sent_twice() {
    let replace = format!("{SEND_CANCEL}{SEND_CANCEL}");
    let report = check_mutant(
        SUPERVISOR,
        "mutant-09-cancel-twice",
        &[("src/lib.rs", SEND_CANCEL, &replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "timeout: one cancel",
        &[
            "after its one notifications/cancelled the client sent a second notifications/cancelled",
            "Cancel exactly once",
        ],
    );
}

/// No cancel at the timeout: the call is given up on, but the server goes
/// on working for nobody.
#[test]
fn m09_no_cancel_at_the_timeout() {
    let report = check_mutant(SUPERVISOR, "mutant-09-no-cancel", &[("src/lib.rs", SEND_CANCEL, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "timeout: one cancel",
        &["the client finished without sending notifications/cancelled"],
    );
}

/// The cancel names the progress token instead of the request id.
#[test]
fn m09_cancel_names_the_token() {
    let replace = CANCEL.replace("\"requestId\": id", "\"requestId\": token");
    let report = check_mutant(
        SUPERVISOR,
        "mutant-09-cancel-wrong-id",
        &[("src/lib.rs", CANCEL, &replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "timeout: one cancel",
        &[
            "the cancel must name the request it cancels",
            "params.requestId 1, the call's own id",
        ],
    );
}

/// initialize cancelled like any other call.
#[test]
fn m09_initialize_cancelled() {
    let find = "                    if method == \"initialize\" {\n                        return Ok(Outcome::TimedOut { cancelled: false });\n                    }\n";
    let report = check_mutant(SUPERVISOR, "mutant-09-cancel-initialize", &[("src/lib.rs", find, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "initialize never cancelled",
        &["the client cancelled initialize", "initialize MUST NOT be cancelled"],
    );
}

/// The cancel built as a request (with an id of its own).
#[test]
fn m09_cancel_sent_with_an_id() {
    let replace = CANCEL.replace(
        "\"jsonrpc\": \"2.0\", \"method\"",
        "\"jsonrpc\": \"2.0\", \"id\": self.next_id, \"method\"",
    );
    let report = check_mutant(
        SUPERVISOR,
        "mutant-09-cancel-with-id",
        &[("src/lib.rs", CANCEL, &replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "timeout: one cancel",
        &["notifications/cancelled carries an id", "a notification has none"],
    );
}

// ---------------------------------------------------------------------------
// 10-input-required: input asked for inside the result (modern) and by a
// server request (legacy).
// ---------------------------------------------------------------------------

const ASKING: &str = "10-input-required";
const ECHO_STATE: &str = "            if let Some(state) = result.get(\"requestState\") {\n                params[\"requestState\"] = state.clone();\n            }\n";
const RESULT_TYPE_ARMS: &str =
    "                None | Some(\"complete\") => return Ok(result),\n                Some(\"input_required\") => {}\n";
const SEND_REPLY: &str = "                    peer.send(&reply).map_err(CallError::Gone)?;\n";

#[test]
fn unmutated_10_input_required_passes() {
    let report = check_mutant(ASKING, "mutant-10-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 6, "{}", summary(&report));
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.status == Status::Passed && c.reason.is_none()),
        "{}",
        summary(&report)
    );
}

/// The retry sent with the id of the call it retries.
#[test]
fn m10_retry_reuses_the_id() {
    let report = check_mutant(
        ASKING,
        "mutant-10-same-id",
        &[("src/lib.rs", "        self.next_id += 1;\n", "")],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "one round of input",
        &["the retry reuses id 1", "it needs a fresh id"],
    );
}

/// requestState dropped on the retry: the server loses its place.
#[test]
fn m10_request_state_dropped() {
    let report = check_mutant(ASKING, "mutant-10-state-dropped", &[("src/lib.rs", ECHO_STATE, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "requestState echoed",
        &[
            "the last result carried requestState \"eyJzdGVwIjoxfQ==/+ \"",
            "must echo it in params.requestState",
        ],
    );
}

/// requestState invented when none came (`""` in its place).
#[test]
fn m10_request_state_invented() {
    let replace =
        "            params[\"requestState\"] = result.get(\"requestState\").cloned().unwrap_or(json!(\"\"));\n";
    let report = check_mutant(
        ASKING,
        "mutant-10-state-invented",
        &[("src/lib.rs", ECHO_STATE, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "one round of input",
        &[
            "no requestState came with the last result, so the retry carries none",
            "never the client's invention",
        ],
    );
}

/// requestState trimmed before it goes back.
#[test]
fn m10_request_state_trimmed() {
    let replace = "            if let Some(state) = result.get(\"requestState\") {\n                params[\"requestState\"] = json!(state.as_str().unwrap_or_default().trim());\n            }\n";
    let report = check_mutant(
        ASKING,
        "mutant-10-state-trimmed",
        &[("src/lib.rs", ECHO_STATE, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "requestState echoed",
        &["requestState is opaque", "byte for byte", "trimming"],
    );
}

/// The answers merged into the tool's arguments on the retry.
#[test]
fn m10_answers_merged_into_the_arguments() {
    let find = "            params = json!({\"name\": name, \"arguments\": arguments});\n";
    let replace = "            params = json!({\"name\": name, \"arguments\": Value::Object(responses.clone())});\n";
    let report = check_mutant(ASKING, "mutant-10-arguments-changed", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "one round of input",
        &["the call is greet with empty arguments", "a retry keeps both exactly"],
    );
}

/// A result without resultType taken for input_required: a server of an
/// earlier revision is called again and again.
#[test]
fn m10_absent_result_type_retried() {
    let replace = "                Some(\"complete\") => return Ok(result),\n                None | Some(\"input_required\") => {}\n";
    let report = check_mutant(
        ASKING,
        "mutant-10-absent-type-retried",
        &[("src/lib.rs", RESULT_TYPE_ARMS, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "absent resultType: done",
        &["the result had no resultType, which means complete", "nothing to retry"],
    );
}

/// No round limit: a server that asks forever keeps the client forever.
/// The case fails at the fifth request, well before the case timeout.
#[test]
fn m10_no_round_limit() {
    let find = "            if rounds == self.max_rounds {\n                return Err(CallError::TooManyRounds(rounds));\n            }\n";
    let report = check_mutant(ASKING, "mutant-10-no-round-limit", &[("src/lib.rs", find, "")]);
    assert_caught(&report);
    assert_failed(
        &report,
        "rounds are bounded",
        &[
            "a fifth request after the call and its three allowed retries",
            "stops after max_rounds",
        ],
    );
    let case = report.cases.iter().find(|c| c.name == "rounds are bounded").unwrap();
    assert!(
        case.duration_ms < 3000,
        "the case took {} ms (the case timeout is 4 s)",
        case.duration_ms
    );
}

/// An input request the handler cannot answer skipped, and the call
/// retried without its answer.
#[test]
fn m10_unknown_input_method_skipped() {
    let find = "                let answer = handler(method, input.get(\"params\").unwrap_or(&Value::Null)).ok_or_else(|| CallError::UnknownInputMethod(method.to_string()))?;\n                responses.insert(key.clone(), answer);\n";
    let replace = "                if let Some(answer) = handler(method, input.get(\"params\").unwrap_or(&Value::Null)) {\n                    responses.insert(key.clone(), answer);\n                }\n";
    let report = check_mutant(ASKING, "mutant-10-unknown-skipped", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "unknown input method",
        &[
            "the handler cannot answer sampling/createMessage, yet the client called again",
            "CallError::UnknownInputMethod",
        ],
    );
}

/// Legacy: messages matched by id alone, so the server's elicitation/create
/// (same id as the call, in the server's own id space) is taken for the
/// call's response.
#[test]
fn m10_legacy_server_request_taken_for_the_response() {
    let find = "                (None, Some(got)) if *got == id => {\n";
    let replace = "                (_, Some(got)) if *got == id => {\n";
    let report = check_mutant(ASKING, "mutant-10-legacy-id-only", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "legacy: answer the server",
        &[
            "The server's ping is a request of its own",
            "even when it equals your call's id",
        ],
    );
}

/// Legacy: the server's elicitation/create never answered; the server
/// waits for the answer, the client for its result.
#[test]
fn m10_legacy_server_request_unanswered() {
    let replace = "                    eprintln!(\"not answered: {reply}\");\n";
    let report = check_mutant(
        ASKING,
        "mutant-10-legacy-unanswered",
        &[("src/lib.rs", SEND_REPLY, replace)],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "legacy: answer the server",
        &["where the response to the server's elicitation/create (id"],
    );
}

/// The modern `_meta` without the elicitation capability: a real server
/// may not ask for input and answers -32021.
#[test]
fn m10_no_elicitation_capability() {
    let find = "                \"io.modelcontextprotocol/clientCapabilities\": capabilities(),\n";
    let replace = "                \"io.modelcontextprotocol/clientCapabilities\": {},\n";
    let report = check_mutant(ASKING, "mutant-10-no-capability", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "one round of input",
        &["the call's _meta must declare the elicitation capability", "-32021"],
    );
}

// ---------------------------------------------------------------------------
// Schema fidelity: frames that every hand-written case accepts but that
// break the official types of their revision (check::schema).
// ---------------------------------------------------------------------------

/// serverInfo without its required `version` (Implementation, 2025-11-25).
#[test]
fn schema_03_server_info_without_version() {
    let find = "            \"serverInfo\": {\"name\": \"handshake-gate\", \"version\": \"0.1.0\"},\n";
    let replace = "            \"serverInfo\": {\"name\": \"handshake-gate\"},\n";
    let report = check_mutant(GATE, "mutant-03-schema-server-info", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    // The first case checks serverInfo by hand; every later case meets the
    // same frame through the schema check.
    assert_failed(
        &report,
        "older supported version echoed",
        &["breaks the official MCP schema at result.serverInfo: missing `version` (InitializeResult, 2025-11-25)"],
    );
}

/// A listed resource without its required `name`: no hand-written case
/// looks at resource names, the schema does (Resource, 2025-11-25).
#[test]
fn schema_07_resource_without_name() {
    let find =
        "        json!({\"uri\": \"file:///images/pixel.png\", \"name\": \"pixel\", \"mimeType\": \"image/png\"}),\n";
    let replace = "        json!({\"uri\": \"file:///images/pixel.png\", \"mimeType\": \"image/png\"}),\n";
    let report = check_mutant(
        TOOLS,
        "mutant-07-schema-resource-name",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    let reasons: Vec<&str> = report.cases.iter().filter_map(|c| c.reason.as_deref()).collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.contains("result.resources[1]: missing `name` (ListResourcesResult, 2025-11-25)")),
        "{}",
        summary(&report)
    );
}

/// A cancellation whose reason is a number, not a string.
#[test]
fn schema_09_cancel_reason_not_a_string() {
    let find = "\"params\": {\"requestId\": id, \"reason\": \"timed out\"}";
    let replace = "\"params\": {\"requestId\": id, \"reason\": 408}";
    let report = check_mutant(
        SUPERVISOR,
        "mutant-09-schema-cancel-reason",
        &[("src/lib.rs", find, replace)],
    );
    assert_caught(&report);
    let reasons: Vec<&str> = report.cases.iter().filter_map(|c| c.reason.as_deref()).collect();
    assert!(
        reasons
            .iter()
            .any(|r| r
                .contains("params.reason: is the integer 408, expected a string (CancelledNotification, 2025-11-25)")),
        "{}",
        summary(&report)
    );
}

// ---------------------------------------------------------------------------
// 11-capstone-server: the learner's own dual-era server, progress and
// cancellation included.
// ---------------------------------------------------------------------------

const CAPSTONE: &str = "11-capstone-server";
const PROGRESS_PARAMS: &str = "let params = json!({\"progressToken\": token, \"progress\": step, \"total\": steps, \"message\": format!(\"step {step} of {steps}\")});";
const CANCEL_REMOVE: &str =
    "let stopped = self.running.lock().unwrap_or_else(|e| e.into_inner()).remove(&id.to_string());";

#[test]
fn unmutated_11_capstone_server_passes() {
    let report = check_mutant(CAPSTONE, "mutant-11-none", &[]);
    assert!(
        report.passed,
        "the scratch copy of the solution should pass:\n{}",
        summary(&report)
    );
    assert!(report.cases.len() >= 17, "{}", summary(&report));
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.status == Status::Passed && c.reason.is_none()),
        "{}",
        summary(&report)
    );
}

/// The request's id echoed as the progress token instead of the token the
/// request carried.
#[test]
fn m11_progress_tagged_with_the_request_id() {
    let find = "return self.countdown(&id, steps, params.pointer(\"/_meta/progressToken\").cloned(), era, out),";
    let replace =
        "return self.countdown(&id, steps, params.pointer(\"/_meta/progressToken\").map(|_| id.clone()), era, out),";
    let report = check_mutant(CAPSTONE, "mutant-11-token-is-id", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "progress (legacy)",
        &["carries the request's id (2) as its token", "\"tok-legacy\""],
    );
}

/// C23: the same progress value sent every step.
#[test]
fn m11_progress_that_repeats() {
    let replace = "let params = json!({\"progressToken\": token, \"progress\": 1, \"total\": steps, \"message\": format!(\"step {step} of {steps}\")});";
    let report = check_mutant(
        CAPSTONE,
        "mutant-11-progress-repeats",
        &[("src/lib.rs", PROGRESS_PARAMS, replace)],
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
    let report = check_mutant(
        CAPSTONE,
        "mutant-11-progress-after-result",
        &[("src/lib.rs", find, replace), ("src/lib.rs", end_find, end_replace)],
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
    let report = check_mutant(CAPSTONE, "mutant-11-unasked-progress", &[("src/lib.rs", find, replace)]);
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
    let report = check_mutant(
        CAPSTONE,
        "mutant-11-cancel-ignored",
        &[("src/lib.rs", CANCEL_REMOVE, "let stopped = false;")],
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
    let report = check_mutant(CAPSTONE, "mutant-11-cancel-code-0", &[("src/lib.rs", find, replace)]);
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
    let report = check_mutant(
        CAPSTONE,
        "mutant-11-blocking",
        &[("src/lib.rs", find, replace), ("src/lib.rs", end_find, end_replace)],
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
    let report = check_mutant(CAPSTONE, "mutant-11-stale-caps", &[("src/lib.rs", find, replace)]);
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
    let report = check_mutant(CAPSTONE, "mutant-11-echo-version", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(&report, "counter-offer", &["was echoed back", "Version Negotiation"]);
}

/// notifications/initialized answered with an empty result.
#[test]
fn m11_notification_answered() {
    let find = "            return self.notification(method, &params);\n";
    let replace = "            self.notification(method, &params);\n            return out.send(json!({\"jsonrpc\": \"2.0\", \"result\": {}}));\n";
    let report = check_mutant(
        CAPSTONE,
        "mutant-11-notification-answered",
        &[("src/lib.rs", find, replace)],
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
    let report = check_mutant(
        CAPSTONE,
        "mutant-11-unknown-tool",
        &[("src/features.rs", find, replace)],
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
    let report = check_mutant(
        CAPSTONE,
        "mutant-11-modern-32002",
        &[("src/features.rs", find, replace)],
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
    let report = check_mutant(CAPSTONE, "mutant-11-stdout-junk", &[("src/lib.rs", find, replace)]);
    assert_caught(&report);
    assert_failed(
        &report,
        "handshake (legacy)",
        &["is not JSON: `got ping`", "debug output to stderr (eprintln!)"],
    );
}

//! Mutants of 03-handshake-gate.
//! Each solution's unmutated control is in `controls`.

use mcplings::check::Status;

use crate::common::summary;
use crate::helpers::{GATE, assert_caught, assert_failed, check_mutant, check_mutant_on};

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
    let report = check_mutant_on(
        GATE,
        "mutant-03-force-latest",
        &[("src/lib.rs", NEGOTIATE, replace)],
        &["older supported: echoed"],
    );
    assert_caught(&report);
    assert_eq!(
        report.cases.len(),
        1,
        "only the targeted case runs:\n{}",
        summary(&report)
    );
    assert_failed(
        &report,
        "older supported: echoed",
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
        "unknown: counter-offer",
        &["echoed 2099-01-01", "a version it does not implement"],
    );
    assert_failed(&report, "retired: counter-offer", &["echoed 2024-11-05"]);
    assert_eq!(
        report
            .cases
            .iter()
            .find(|c| c.name == "older supported: echoed")
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
    let report = check_mutant_on(
        GATE,
        "mutant-03-reject-version",
        &[("src/lib.rs", NEGOTIATE, replace)],
        &["unknown: counter-offer", "retired: counter-offer"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "unknown: counter-offer",
        &["initialize at 2099-01-01 was refused with an error", "is not an error"],
    );
    assert_failed(
        &report,
        "retired: counter-offer",
        &["initialize at 2024-11-05 was refused with an error"],
    );
}

/// C12: ping refused before initialize (its arm comes after the one that
/// refuses every early request).
#[test]
fn m03_ping_refused_before_initialize() {
    let report = check_mutant_on(
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
        &["ping before initialize"],
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
    let report = check_mutant_on(
        GATE,
        "mutant-03-early-silence",
        &[("src/lib.rs", EARLY_REFUSAL_ARM, replace)],
        &["early request refused"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "early request refused",
        &["no response to `tools/list` (id 1)", "Every request gets a response"],
    );
}

/// No phase check: requests before initialize are served.
#[test]
fn m03_serves_early_requests() {
    let report = check_mutant_on(
        GATE,
        "mutant-03-early-served",
        &[("src/lib.rs", EARLY_REFUSAL_ARM, "")],
        &["early request refused"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "early request refused",
        &[
            "`tools/list` before initialize was served",
            "MUST be the first interaction",
        ],
    );
}

/// Unknown notifications answered with -32601, as if they were requests.
#[test]
fn m03_answers_unknown_notifications() {
    let find =
        "                return None;\n            }\n            (Some(method), Some(id)) => (method, id.clone()),\n";
    let replace = "                if method == \"notifications/initialized\" {\n                    return None;\n                }\n                return Some(refuse(&Value::Null, METHOD_NOT_FOUND, &format!(\"Method not found: {method}\")));\n            }\n            (Some(method), Some(id)) => (method, id.clone()),\n";
    let report = check_mutant_on(
        GATE,
        "mutant-03-answers-notifications",
        &[("src/lib.rs", find, replace)],
        &["notifications not answered"],
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
    let report = check_mutant_on(
        GATE,
        "mutant-03-initialized-with-id",
        &[("src/lib.rs", find, &replace)],
        &["initialized with an id"],
    );
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
    let report = check_mutant_on(
        GATE,
        "mutant-03-reinitialize",
        &[("src/lib.rs", find, replace)],
        &["second initialize answered"],
    );
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
    let report = check_mutant_on(
        GATE,
        "mutant-03-second-initialize-ignored",
        &[("src/lib.rs", find, replace)],
        &["second initialize answered"],
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
    let report = check_mutant_on(
        GATE,
        "mutant-03-serves-resources",
        &[("src/lib.rs", find, replace)],
        &["serves what it advertised"],
    );
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
    let report = check_mutant_on(
        GATE,
        "mutant-03-advertises-resources",
        &[("src/lib.rs", find, replace)],
        &["initialize: echo 2025-11-25"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "initialize: echo 2025-11-25",
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
    let report = check_mutant_on(
        GATE,
        "mutant-03-spin-at-eof",
        &[(
            "src/main.rs",
            "            Ok(0) => break,\n",
            "            Ok(0) => continue,\n",
        )],
        &["exits when stdin closes"],
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
    let report = check_mutant_on(
        GATE,
        "mutant-03-println",
        &[("src/lib.rs", find, &replace)],
        &["initialize: echo 2025-11-25"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "initialize: echo 2025-11-25",
        &["stdout line 1 is not JSON", "`handle got: ", "eprintln!"],
    );
}

const ID_CHECK: &str = "        if !(id.is_string() || id.is_i64() || id.is_u64()) {\n";

const RESPOND: &str = "    json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": result})\n";

/// A server that writes every id back as a string: integers become
/// strings.
#[test]
fn m03_ids_turned_into_strings() {
    let replace = "    let id = match id { Value::String(_) => id.clone(), other => json!(other.to_string()) };\n    json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": result})\n";
    let report = check_mutant_on(
        GATE,
        "mutant-03-ids-as-strings",
        &[("src/lib.rs", RESPOND, replace)],
        &["request ids"],
    );
    assert_caught(&report);
    assert_failed(&report, "request ids", &["whose id is zero", "came back as a string"]);
}

/// A server that serves a request whose id is null (the reference did,
/// before issue 17).
#[test]
fn m03_null_id_served() {
    let replace = "        if !(id.is_string() || id.is_i64() || id.is_u64() || id.is_null()) {\n";
    let report = check_mutant_on(
        GATE,
        "mutant-03-null-id-served",
        &[("src/lib.rs", ID_CHECK, replace)],
        &["request ids"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "request ids",
        &["whose id is null", "was served", "MUST NOT be null"],
    );
}

/// A server that refuses a forbidden id with the wrong code.
#[test]
fn m03_forbidden_id_refused_with_the_wrong_code() {
    let find = "\"error\": {\"code\": -32600, \"message\": \"Invalid Request: the id must be a string or an integer\"}";
    let replace =
        "\"error\": {\"code\": -32602, \"message\": \"Invalid Request: the id must be a string or an integer\"}";
    let report = check_mutant_on(
        GATE,
        "mutant-03-bad-id-32602",
        &[("src/lib.rs", find, replace)],
        &["request ids"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "request ids",
        &["its error code is -32600 Invalid Request", "got -32602"],
    );
}

/// The "not initialized" refusal in the fallback arm only: tools/call,
/// which has an arm of its own, is served before initialize.
#[test]
fn m03_early_refusal_in_the_fallback_arm_only() {
    let replace = format!("            (\"tools/call\", _) => serve(method, params),\n{EARLY_REFUSAL_ARM}");
    let report = check_mutant_on(
        GATE,
        "mutant-03-early-fallback-only",
        &[("src/lib.rs", EARLY_REFUSAL_ARM, &replace)],
        &["early request refused"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "early request refused",
        &["`tools/call` before initialize was served", "not in the fallback arm"],
    );
}

/// Error responses without a message: the official types require one,
/// and the schema check after the case says so.
#[test]
fn m03_error_without_message() {
    let find = "    json!({\"jsonrpc\": \"2.0\", \"id\": id, \"error\": {\"code\": code, \"message\": message}})\n";
    let replace = "    let _ = message;\n    json!({\"jsonrpc\": \"2.0\", \"id\": id, \"error\": {\"code\": code}})\n";
    let report = check_mutant_on(
        GATE,
        "mutant-03-error-no-message",
        &[("src/lib.rs", find, replace)],
        &["early request refused"],
    );
    assert_caught(&report);
    assert_failed(&report, "early request refused", &["message"]);
}

/// The same mutant in the first case: the response to initialize is there
/// with its id changed, and the reason names the change (not "a response
/// that answers no request"); the differences show it at `/id`.
#[test]
fn m03_ids_turned_into_strings_named_in_any_case() {
    let replace = "    let id = match id { Value::String(_) => id.clone(), other => json!(other.to_string()) };\n    json!({\"jsonrpc\": \"2.0\", \"id\": id, \"result\": result})\n";
    let report = check_mutant_on(
        GATE,
        "mutant-03-ids-as-strings",
        &[("src/lib.rs", RESPOND, replace)],
        &["initialize: echo 2025-11-25"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "initialize: echo 2025-11-25",
        &[
            "the response to `initialize` came back, but the response's id is \"1\", not 1",
            "The integer came back as a string",
        ],
    );
    let case = &report.cases[0];
    let differences: Vec<String> = case.differences.iter().map(|d| d.describe()).collect();
    assert_eq!(differences, ["/id: expected 1, got \"1\""], "{}", summary(&report));
}

/// A server name and version of the learner's choice: only a string is
/// required, so the differences never hold the reference's name up as
/// expected. (The version here is a number, to make the case fail.)
#[test]
fn m03_server_info_of_its_own() {
    let find = "            \"serverInfo\": {\"name\": \"handshake-gate\", \"version\": \"0.1.0\"},\n";
    let replace = "            \"serverInfo\": {\"name\": \"my-server\", \"version\": 1},\n";
    let report = check_mutant_on(
        GATE,
        "mutant-03-server-info",
        &[("src/lib.rs", find, replace)],
        &["initialize: echo 2025-11-25"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "initialize: echo 2025-11-25",
        &["serverInfo with a string name and version"],
    );
    let differences: Vec<String> = report.cases[0].differences.iter().map(|d| d.describe()).collect();
    assert_eq!(
        differences,
        ["/serverInfo/version: expected ‹any string›, got 1"],
        "{}",
        summary(&report)
    );
}

/// Requests refused between the initialize response and
/// notifications/initialized: the client's limit ended with the response
/// (2025-11-25 basic/lifecycle › Initialization), so such a request is
/// served.
#[test]
fn m03_refuses_requests_before_initialized() {
    let replace = "            (_, Phase::AwaitingInitialized) => Err((INVALID_REQUEST, \"Invalid Request: send notifications/initialized first\".to_string())),\n            (method, _) => serve(method, params),\n";
    let report = check_mutant_on(
        GATE,
        "mutant-03-refuses-before-initialized",
        &[("src/lib.rs", SERVE_ARM, replace)],
        &["serves what it advertised"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "serves what it advertised",
        &[
            "before notifications/initialized, was refused",
            "The client SHOULD NOT send requests other than pings before the server has responded to the initialize request",
        ],
    );
}

//! Mutants of 04-era-probe.
//! Each solution's unmutated control is in `controls`.

use std::time::{Duration, Instant};

use mcplings::check::Status;

use crate::common::{check_dir, mutant, summary};
use crate::helpers::{PROBE, assert_caught, assert_failed, check_mutant, check_mutant_on};

const FALLBACK_TEST: &str =
    "if !error_code(&answer).is_some_and(|code| MODERN_ERRORS.contains(&code) && code != URL_ELICITATION_REQUIRED) {";

const LEGACY_ARM: &str = "            Era::Legacy => params,\n";

const MODERN_ARM: &str = "            Era::Modern => Some(with_meta(params, &self.version, &self.client_info)),\n";

/// The fallback keyed to -32601 alone: every other error is taken for a
/// modern one, and connect gives up with a protocol error.
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
                "the client gave up (`protocol error: server/discover refused",
                "where the fallback to initialize was due",
                "the server is legacy (only a modern error, -32020 to -32099, or a DiscoverResult would mean modern)",
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
    let report = check_mutant_on(
        PROBE,
        "mutant-04-fallback-on-32022",
        &[("src/lib.rs", FALLBACK_TEST, replace)],
        &["-32022: retry at shared", "-32022: nothing shared"],
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

/// Only -32022 taken for a modern error: a probe refused with -32021 falls
/// back to initialize, though only a modern server sends that code.
#[test]
fn m04_only_32022_is_modern() {
    let replace = "if error_code(&answer) != Some(UNSUPPORTED_PROTOCOL_VERSION) {";
    let report = check_mutant_on(
        PROBE,
        "mutant-04-only-32022-modern",
        &[("src/lib.rs", FALLBACK_TEST, replace)],
        &["-32021: modern, no fallback", "-32022: retry at shared"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "-32021: modern, no fallback",
        &[
            "fell back to initialize after -32021",
            "2026-07-28 basic/index › Error Codes",
        ],
    );
    let shared = report
        .cases
        .iter()
        .find(|c| c.name == "-32022: retry at shared")
        .unwrap();
    assert_eq!(shared.status, Status::Passed, "{}", summary(&report));
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
    // One hung case (4 s), every other case at its usual pace; the bound
    // stretches with the load, as the cases' own deadlines do.
    let bound =
        mcplings::check::session::slack::stretch(Duration::from_secs(30), mcplings::check::session::slack::scale());
    assert!(
        checking < bound,
        "checking (without the build) took {checking:?}, over {bound:?}"
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
    let report = check_mutant_on(
        PROBE,
        "mutant-04-reused-id",
        &[("src/lib.rs", find, &replace)],
        &["-32601: fall back"],
    );
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
    let report = check_mutant_on(
        PROBE,
        "mutant-04-initialized-with-id",
        &[("src/lib.rs", find, replace)],
        &["-32601: fall back"],
    );
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
    let report = check_mutant_on(
        PROBE,
        "mutant-04-no-capabilities",
        &[("src/lib.rs", find, "")],
        &["probe first"],
    );
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
    let report = check_mutant_on(
        PROBE,
        "mutant-04-meta-in-legacy",
        &[("src/lib.rs", LEGACY_ARM, replace)],
        &["-32601: fall back"],
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
    let report = check_mutant_on(
        PROBE,
        "mutant-04-no-meta-after-discover",
        &[("src/lib.rs", MODERN_ARM, "            Era::Modern => params,\n")],
        &["modern server: stay modern"],
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
    let report = check_mutant_on(
        PROBE,
        "mutant-04-probe-oldest",
        &[(
            "src/lib.rs",
            "config.modern_versions.first().cloned()",
            "config.modern_versions.last().cloned()",
        )],
        &["-32022: retry at shared"],
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
    let report = check_mutant_on(
        PROBE,
        "mutant-04-nothing-shared-fallback",
        &[("src/lib.rs", find, replace)],
        &["-32022: nothing shared"],
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
    let find =
        "        match (message.get(\"method\").and_then(Value::as_str), message.get(\"id\")) {\n            // Only";
    let report = check_mutant_on(
        PROBE,
        "mutant-04-first-message",
        &[("src/lib.rs", find, &format!("        return Ok(message);\n{find}"))],
        &["log before the result"],
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

/// A -32022 that lists only a legacy version the client speaks is answered
/// as "incompatible" instead of with initialize at that version.
#[test]
fn m04_legacy_version_in_supported_ignored() {
    let find = "    match LEGACY_VERSIONS.iter().find(|v| offered.iter().any(|o| o == *v)) {\n";
    let replace = "    match None::<&&str> {\n";
    let report = check_mutant_on(
        PROBE,
        "mutant-04-legacy-listed-ignored",
        &[("src/lib.rs", find, replace)],
        &["-32022: legacy version"],
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
    let report = check_mutant_on(
        PROBE,
        "mutant-04-no-reprobe",
        &[("src/lib.rs", find, replace)],
        &["slow modern server"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "slow modern server",
        &["the client gave up", "where a new probe at 2026-07-28 was due"],
    );
}

const TAKEN: &str =
    "            (None, Some(got)) if *got == json!(id) && well_formed(&message) => return Ok(message),\n";
const MALFORMED: &[&str] = &["malformed reply: not modern", "malformed reply: not legacy"];

/// The old `wait_for`: any frame with the probe's id and a `result` or an
/// `error` is its answer, so one with both reads as a DiscoverResult.
#[test]
fn m04_both_members_read_as_a_result() {
    let replace = "            (None, Some(got)) if *got == json!(id) && (message.get(\"result\").is_some() || message.get(\"error\").is_some()) => return Ok(message),\n";
    let report = check_mutant_on(
        PROBE,
        "mutant-04-both-members",
        &[("src/lib.rs", TAKEN, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed reply: not modern",
        &[
            "took the answer with both result and error for a DiscoverResult",
            "MUST NOT be included",
        ],
    );
    assert_failed(
        &report,
        "malformed reply: not legacy",
        &["took the answer with both result and error for a DiscoverResult"],
    );
}

/// A `wait_for` that never looks at `jsonrpc`.
#[test]
fn m04_jsonrpc_ignored() {
    let find = "    message.get(\"jsonrpc\") == Some(&json!(\"2.0\"))\n        && match";
    let report = check_mutant_on(
        PROBE,
        "mutant-04-jsonrpc-ignored",
        &[("src/lib.rs", find, "    match")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed reply: not modern",
        &[
            "took the answer with jsonrpc \"1.0\" for a DiscoverResult",
            "MUST be exactly 2.0",
        ],
    );
}

/// A `wait_for` that takes any `error` member for an error object: an
/// error without a code reads as "not -32022", so legacy.
#[test]
fn m04_any_error_member_is_an_error() {
    let find = "            (None, Some(error)) => error_object(error),\n";
    let replace = "            (None, Some(error)) => error_object(error) || error.is_object() || error.is_string(),\n";
    let report = check_mutant_on(
        PROBE,
        "mutant-04-error-unchecked",
        &[("src/lib.rs", find, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed reply: not legacy",
        &[
            "fell back to initialize",
            "error without code",
            "Error codes MUST be integers",
        ],
    );
}

/// A `wait_for` that takes the next well-formed response, whatever its id:
/// a result with `"id": null` becomes the probe's answer.
#[test]
fn m04_any_id_is_the_answer() {
    let replace = "            (None, Some(_)) if well_formed(&message) => return Ok(message),\n";
    let report = check_mutant_on(PROBE, "mutant-04-any-id", &[("src/lib.rs", TAKEN, replace)], MALFORMED);
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed reply: not modern",
        &[
            "took the answer with id null for a DiscoverResult",
            "MUST include the same ID",
        ],
    );
}

/// A `wait_for` that checks ids but takes a second answer to the probe for
/// the answer to initialize (it matches the oldest id it has sent).
#[test]
fn m04_second_probe_answer_taken_for_initialize() {
    let replace = "            (None, Some(got)) if (*got == json!(id) || *got == json!(1)) && well_formed(&message) => return Ok(message),\n";
    let report = check_mutant_on(
        PROBE,
        "mutant-04-duplicate",
        &[("src/lib.rs", TAKEN, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed reply: not modern",
        &["a second answer to the probe", "not initialize's answer"],
    );
}

/// The old `wait_for` with a `connect` that reads `error` first: a frame
/// with both members reads as -32601, so legacy.
#[test]
fn m04_both_members_read_as_an_error() {
    let replace = "            (None, Some(got)) if *got == json!(id) && (message.get(\"result\").is_some() || message.get(\"error\").is_some()) => return Ok(message),\n";
    let find_result =
        "                if let Some(result) = answer.get(\"result\") {\n                    return Ok(Connection {";
    let replace_result = "                if let Some(result) = answer.get(\"result\").filter(|_| answer.get(\"error\").is_none()) {\n                    return Ok(Connection {";
    let report = check_mutant_on(
        PROBE,
        "mutant-04-both-members-error",
        &[
            ("src/lib.rs", TAKEN, replace),
            ("src/lib.rs", find_result, replace_result),
        ],
        &["malformed reply: not legacy"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed reply: not legacy",
        &[
            "fell back to initialize",
            "both result and error",
            "exactly one of result and error",
        ],
    );
}

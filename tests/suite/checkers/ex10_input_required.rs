//! Mutants of 10-input-required: input asked for inside the result (modern)
//! and by a server request (legacy).
//! Each solution's unmutated control is in `controls`.

use crate::helpers::{ASKING, assert_caught, assert_failed, check_mutant, check_mutant_on};

const ECHO_STATE: &str = "            if let Some(state) = result.get(\"requestState\") {\n                params[\"requestState\"] = state.clone();\n            }\n";

const RESULT_TYPE_ARMS: &str =
    "                None | Some(\"complete\") => return Ok(result),\n                Some(\"input_required\") => {}\n";

const SEND_REPLY: &str = "                    peer.send(&reply).map_err(CallError::Gone)?;\n";

/// The retry sent with the id of the call it retries.
#[test]
fn m10_retry_reuses_the_id() {
    let report = check_mutant_on(
        ASKING,
        "mutant-10-same-id",
        &[("src/lib.rs", "        self.next_id += 1;\n", "")],
        &["one round of input"],
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
    let report = check_mutant_on(
        ASKING,
        "mutant-10-state-dropped",
        &[("src/lib.rs", ECHO_STATE, "")],
        &["requestState echoed"],
    );
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
    let report = check_mutant_on(
        ASKING,
        "mutant-10-state-invented",
        &[("src/lib.rs", ECHO_STATE, replace)],
        &["one round of input"],
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
    let report = check_mutant_on(
        ASKING,
        "mutant-10-state-trimmed",
        &[("src/lib.rs", ECHO_STATE, replace)],
        &["requestState echoed"],
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
    let report = check_mutant_on(
        ASKING,
        "mutant-10-arguments-changed",
        &[("src/lib.rs", find, replace)],
        &["one round of input"],
    );
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
    let report = check_mutant_on(
        ASKING,
        "mutant-10-absent-type-retried",
        &[("src/lib.rs", RESULT_TYPE_ARMS, replace)],
        &["absent resultType: done"],
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
    // Both the case's timeout and this bound stretch with the load.
    let scale = mcplings::check::session::slack::scale();
    assert!(
        (case.duration_ms as f64) < 3000.0 * scale,
        "the case took {} ms (the case timeout is 4 s, ×{scale} for the load)",
        case.duration_ms
    );
}

/// An input request the handler cannot answer skipped, and the call
/// retried without its answer.
#[test]
fn m10_unknown_input_method_skipped() {
    let find = "                let answer = handler(method, input.get(\"params\").unwrap_or(&Value::Null)).ok_or_else(|| CallError::UnknownInputMethod(method.to_string()))?;\n                responses.insert(key.clone(), answer);\n";
    let replace = "                if let Some(answer) = handler(method, input.get(\"params\").unwrap_or(&Value::Null)) {\n                    responses.insert(key.clone(), answer);\n                }\n";
    let report = check_mutant_on(
        ASKING,
        "mutant-10-unknown-skipped",
        &[("src/lib.rs", find, replace)],
        &["unknown input method"],
    );
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
    let replace = "                (_, Some(got)) if *got == id => {\n";
    let report = check_mutant_on(
        ASKING,
        "mutant-10-legacy-id-only",
        &[("src/lib.rs", ANSWER, replace)],
        &["legacy: answer the server"],
    );
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
    let report = check_mutant_on(
        ASKING,
        "mutant-10-legacy-unanswered",
        &[("src/lib.rs", SEND_REPLY, replace)],
        &["legacy: answer the server"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "legacy: answer the server",
        // The same bug reads "…where the response to the server's
        // elicitation/create (id …" while the client still waits, and
        // "…without sending the response to …" when it gave up first (its
        // own timeout, which a loaded machine reaches sooner): both name it.
        &["the response to the server's elicitation/create (id"],
    );
}

/// The modern `_meta` without the elicitation capability: a real server
/// may not ask for input and answers -32021.
#[test]
fn m10_no_elicitation_capability() {
    let find = "                \"io.modelcontextprotocol/clientCapabilities\": capabilities(),\n";
    let replace = "                \"io.modelcontextprotocol/clientCapabilities\": {},\n";
    let report = check_mutant_on(
        ASKING,
        "mutant-10-no-capability",
        &[("src/lib.rs", find, replace)],
        &["one round of input"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "one round of input",
        &["the call's _meta must declare the elicitation capability", "-32021"],
    );
}

const ANSWER: &str = "                (None, Some(got)) if *got == id && well_formed(&message) => {\n";
const MALFORMED: &[&str] = &["malformed responses skipped"];

/// The old `request`: any frame with the call's id is its answer, `result`
/// first, so one with both members is a result.
#[test]
fn m10_both_members_read_as_a_result() {
    let replace = "                (None, Some(got)) if *got == id => {\n";
    let report = check_mutant_on(
        ASKING,
        "mutant-10-both-members",
        &[("src/lib.rs", ANSWER, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses skipped",
        &[
            "took the response with both result and error for its call's answer",
            "MUST NOT be included",
        ],
    );
}

/// A client that never looks at `jsonrpc`.
#[test]
fn m10_jsonrpc_ignored() {
    let find = "    message.get(\"jsonrpc\") == Some(&json!(\"2.0\"))\n        && match";
    let report = check_mutant_on(
        ASKING,
        "mutant-10-jsonrpc-ignored",
        &[("src/lib.rs", find, "    match")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses skipped",
        &["took the response with jsonrpc \"1.0\"", "MUST be exactly 2.0"],
    );
}

/// A client that takes any `error` member for an error object.
#[test]
fn m10_any_error_member_is_an_error() {
    let find = "            (None, Some(error)) => error_object(error),\n";
    let report = check_mutant_on(
        ASKING,
        "mutant-10-error-unchecked",
        &[("src/lib.rs", find, "            (None, Some(_)) => true,\n")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses skipped",
        &[
            "took the response with error without code",
            "Error codes MUST be integers",
        ],
    );
}

/// A client that takes any well-formed response, whatever its id: a result
/// with `"id": null` is taken.
#[test]
fn m10_any_id_is_the_answer() {
    let replace = "                (None, Some(_)) if well_formed(&message) => {\n";
    let report = check_mutant_on(
        ASKING,
        "mutant-10-any-id",
        &[("src/lib.rs", ANSWER, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses skipped",
        &["took the response with id null", "MUST include the same ID"],
    );
}

/// A client that takes the first well-formed response with an integer id:
/// a second response to the first call answers the retry.
#[test]
fn m10_duplicate_answers_the_retry() {
    let replace = "                (None, Some(got)) if got.is_i64() && well_formed(&message) => {\n";
    let report = check_mutant_on(
        ASKING,
        "mutant-10-duplicate",
        &[("src/lib.rs", ANSWER, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses skipped",
        &[
            "returned a second response to the first call as the retry's answer",
            "Match the id exactly",
        ],
    );
}

/// The server's request answered with its id read as a number where it
/// reads as one: the ping whose id is the call's retyped ("2" for 2) gets
/// the number back.
#[test]
fn m10_server_id_read_as_a_number() {
    let find = "                        Some(result) => json!({\"jsonrpc\": \"2.0\", \"id\": server_id, \"result\": result}),\n";
    let replace = "                        Some(result) => json!({\"jsonrpc\": \"2.0\", \"id\": server_id.as_str().and_then(|t| t.parse::<i64>().ok()).map_or(server_id.clone(), Value::from), \"result\": result}),\n";
    let report = check_mutant_on(
        ASKING,
        "mutant-10-server-id-as-number",
        &[("src/lib.rs", find, replace)],
        &["legacy: answer the server"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "legacy: answer the server",
        &[
            "the server's ping was answered, but the response's id is ",
            "The string came back as a number",
        ],
    );
}

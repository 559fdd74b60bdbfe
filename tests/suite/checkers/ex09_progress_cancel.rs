//! Mutants of 09-progress-cancel: a client supervisor's tokens, progress,
//! timeouts and cancels.
//! Each solution's unmutated control is in `controls`.

use crate::helpers::{SUPERVISOR, assert_caught, assert_failed, check_mutant_on};

const SET_TOKEN: &str = "        meta[\"progressToken\"] = token.clone();\n";

const TOKEN_CHECK: &str = "                    if p.get(\"progressToken\") != Some(&token) {\n";

const IDLE_RESET: &str = "                        idle_until = Instant::now() + limits.idle;\n";

const SEND_CANCEL: &str = "                    send(peer, &cancel)?;\n";

const CANCEL: &str = "let cancel = json!({\"jsonrpc\": \"2.0\", \"method\": \"notifications/cancelled\", \"params\": {\"requestId\": id, \"reason\": \"timed out\"}});";

/// C23-adjacent: one progress token for every call, so a late progress
/// for an old call is taken for the new one's.
#[test]
fn m09_same_token_for_every_call() {
    let find = "        let token = json!(format!(\"progress-{}\", self.next_token));\n";
    let replace = "        let token = json!(\"progress\");\n";
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-same-token",
        &[("src/lib.rs", find, replace)],
        &["a fresh token per call"],
    );
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
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-no-token",
        &[("src/lib.rs", SET_TOKEN, "")],
        &["a fresh token per call"],
    );
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
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-token-unchecked",
        &[("src/lib.rs", TOKEN_CHECK, "                    if false {\n")],
        &["bad progress not passed on"],
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
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-non-strict",
        &[("src/lib.rs", find, replace)],
        &["bad progress not passed on"],
    );
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
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-idle-not-reset",
        &[("src/lib.rs", IDLE_RESET, "")],
        &["progress resets idle only"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress resets idle only",
        &[
            "although progress came every 50 ms",
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
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-cap-reset",
        &[
            ("src/lib.rs", cap_find, cap_replace),
            ("src/lib.rs", IDLE_RESET, &reset),
        ],
        &["progress resets idle only"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress resets idle only",
        &["past its 0.6 s cap", "keep the cap as a separate deadline"],
    );
}

/// Cancelled twice (e.g. once per deadline, or again on the late response).
#[test]
fn m09_cancel_sent_twice() {
    let replace = format!("{SEND_CANCEL}{SEND_CANCEL}");
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-cancel-twice",
        &[("src/lib.rs", SEND_CANCEL, &replace)],
        &["timeout: one cancel"],
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
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-no-cancel",
        &[("src/lib.rs", SEND_CANCEL, "")],
        &["timeout: one cancel"],
    );
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
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-cancel-wrong-id",
        &[("src/lib.rs", CANCEL, &replace)],
        &["timeout: one cancel"],
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
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-cancel-initialize",
        &[("src/lib.rs", find, "")],
        &["initialize never cancelled"],
    );
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
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-cancel-with-id",
        &[("src/lib.rs", CANCEL, &replace)],
        &["timeout: one cancel"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "timeout: one cancel",
        &["notifications/cancelled carries an id", "a notification has none"],
    );
}

const VIOLATION: &str =
    "                None if !well_formed(&message) => on_violation(format!(\"a malformed response: {message}\")),\n";
const MALFORMED: &[&str] = &["malformed responses flagged"];

/// The old supervisor: any frame with the call's id ends it, `result`
/// first, so one with both members is the call's result.
#[test]
fn m09_both_members_end_the_call() {
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-both-members",
        &[("src/lib.rs", VIOLATION, "")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses flagged",
        &[
            "the call ended with the response with both result and error",
            "MUST NOT be included",
        ],
    );
}

/// A supervisor that never looks at `jsonrpc`.
#[test]
fn m09_jsonrpc_ignored() {
    let find = "    message.get(\"jsonrpc\") == Some(&json!(\"2.0\"))\n        && match";
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-jsonrpc-ignored",
        &[("src/lib.rs", find, "    match")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses flagged",
        &[
            "the call ended with the response with jsonrpc \"1.0\"",
            "MUST be exactly 2.0",
        ],
    );
}

/// A supervisor that takes any `error` member for an error object.
#[test]
fn m09_any_error_member_is_an_error() {
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-error-unchecked",
        &[("src/lib.rs", "error_object(error) && (id_ok", "(id_ok")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses flagged",
        &[
            "the call ended with the response with error without code",
            "Error codes MUST be integers",
        ],
    );
}

/// A supervisor that drops a response with a forbidden id as an orphan,
/// silently, instead of reporting it.
#[test]
fn m09_forbidden_id_not_reported() {
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-forbidden-id-silent",
        &[(
            "src/lib.rs",
            "            (Some(_), None) => id_ok,\n",
            "            (Some(_), None) => true,\n",
        )],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses flagged",
        &[
            "of 15 malformed responses with the call's id, 9 reached on_violation",
            "id null",
        ],
    );
}

/// A supervisor that takes any well-formed response for the call's: a
/// second response to call 1 ends call 2.
#[test]
fn m09_duplicate_ends_the_next_call() {
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-duplicate",
        &[(
            "src/lib.rs",
            "                None if message.get(\"id\") == Some(&id) => {\n",
            "                None => {\n",
        )],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed responses flagged",
        &[
            "call 2 (id 2) ended with a second response to call 1 (id 1)",
            "Match the id exactly",
        ],
    );
}

/// A supervisor that takes progress for any token it ever made, so a
/// finished call's progress counts for the running one.
#[test]
fn m09_finished_calls_token_accepted() {
    let replace = "                    if !p.get(\"progressToken\").and_then(Value::as_str).is_some_and(|t| t.starts_with(\"progress-\")) {\n";
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-any-own-token",
        &[("src/lib.rs", TOKEN_CHECK, replace)],
        &["a finished call's token"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "a finished call's token",
        &[
            "the token of call 1",
            "reached on_progress during call 2",
            "MUST only reference tokens",
        ],
    );
}

const LOOK_ALIKES: &str = "look-alike ids are others";

/// A response matched to the call by the id's text, without its type: the
/// error with id "1" ends call 1.
#[test]
fn m09_response_matched_by_id_text() {
    let find = "None if message.get(\"id\") == Some(&id) => {";
    let replace = "None if message.get(\"id\").map(|i| i.as_str().map(str::to_string).unwrap_or_else(|| i.to_string())) == Some(id.to_string()) => {";
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-id-by-text",
        &[("src/lib.rs", find, replace)],
        &[LOOK_ALIKES],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        LOOK_ALIKES,
        &[
            "an error response with id \"1\" ended the call whose id is 1",
            "a string and an integer are different ids",
        ],
    );
}

/// Integer progress tokens, compared by their text: progress for "1" is
/// taken for the call whose token is 1.
#[test]
fn m09_progress_token_matched_by_text() {
    let token_find = "let token = json!(format!(\"progress-{}\", self.next_token));";
    let token_replace = "let token = json!(self.next_token);";
    let check_find = "if p.get(\"progressToken\") != Some(&token) {";
    let check_replace = "if p.get(\"progressToken\").map(|t| t.as_str().map(str::to_string).unwrap_or_else(|| t.to_string())) != Some(token.to_string()) {";
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-token-by-text",
        &[
            ("src/lib.rs", token_find, token_replace),
            ("src/lib.rs", check_find, check_replace),
        ],
        &[LOOK_ALIKES],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        LOOK_ALIKES,
        &[
            "progress for the token \"1\" reached on_progress, but the call's token is 1",
            "different tokens",
        ],
    );
}

/// The cancel names the request by its id turned into a string: "1" for
/// the call whose id is 1.
#[test]
fn m09_cancel_names_the_id_as_a_string() {
    let find = "\"params\": {\"requestId\": id, \"reason\": \"timed out\"}";
    let replace = "\"params\": {\"requestId\": id.to_string(), \"reason\": \"timed out\"}";
    let report = check_mutant_on(
        SUPERVISOR,
        "mutant-09-cancel-id-as-string",
        &[("src/lib.rs", find, replace)],
        &["timeout: one cancel"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "timeout: one cancel",
        &[
            "the cancel must name the request it cancels: params.requestId 1",
            "in type and value",
        ],
    );
}

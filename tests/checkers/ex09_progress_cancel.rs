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
        &["progress resets idle, not the cap"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress resets idle, not the cap",
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
        &["progress resets idle, not the cap"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "progress resets idle, not the cap",
        &["past its 0.7 s cap", "keep the cap as a separate deadline"],
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

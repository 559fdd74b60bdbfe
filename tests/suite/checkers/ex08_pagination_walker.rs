//! Mutants of 08-pagination-walker: a modern client's pages, restarts and
//! cache.
//! Each solution's unmutated control is in `controls`.

use mcplings::check::Status;

use crate::common::summary;
use crate::helpers::{WALKER, assert_caught, assert_failed, check_mutant, check_mutant_on};

const NEXT_CURSOR_ARM: &str = "                Some(next) => cursor = Some(next.to_string()),\n";

const RESTART_ONCE: &str = "        let (tools, ttl) = match self.walk(peer) {\n            // The server forgot our place: start over, once.\n            Err(WalkError::InvalidCursor(_)) => self.walk(peer)?,\n            other => other?,\n        };\n";

const CACHE_CHECK: &str = "        if let Some(cached) = &self.cache\n            && now < cached.fresh_until\n        {\n            return Ok(cached.tools.clone());\n        }\n";

const OURS: &str =
    "        let ours = self.subscription.is_some() && subscription_of(message) == self.subscription.as_ref();\n";

/// C25: an empty-string nextCursor taken for the end of the list.
#[test]
fn m08_stops_at_an_empty_cursor() {
    let end_find = "                None => return Ok((tools, Duration::from_millis(ttl_ms))),\n";
    let end_replace = "                _ => return Ok((tools, Duration::from_millis(ttl_ms))),\n";
    let replace = "                Some(next) if !next.is_empty() => cursor = Some(next.to_string()),\n";
    let report = check_mutant_on(
        WALKER,
        "mutant-08-empty-cursor-ends",
        &[
            ("src/lib.rs", NEXT_CURSOR_ARM, replace),
            ("src/lib.rs", end_find, end_replace),
        ],
        &["three pages, exact cursors"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "three pages, exact cursors",
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
    let report = check_mutant_on(
        WALKER,
        "mutant-08-cursor-encoded",
        &[("src/lib.rs", NEXT_CURSOR_ARM, replace)],
        &["three pages, exact cursors"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "three pages, exact cursors",
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
    let report = check_mutant_on(
        WALKER,
        "mutant-08-no-restart",
        &[("src/lib.rs", RESTART_ONCE, replace)],
        &["-32602: walk again once"],
    );
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
    // Windows stretch on a loaded machine (check::session::slack), so does this bound.
    let scale = mcplings::check::session::slack::scale();
    assert!(
        case.duration_ms < (4000.0 * scale) as u64,
        "the case took {} ms (the case timeout is 5 s)",
        case.duration_ms
    );
}

/// No cache: every listing walks the pages.
#[test]
fn m08_no_cache() {
    let report = check_mutant_on(
        WALKER,
        "mutant-08-no-cache",
        &[("src/lib.rs", CACHE_CHECK, "")],
        &["fresh cache serves"],
    );
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
    assert_failed(
        &report,
        "stale cache refetches",
        &["ms later the list is stale: one of its pages said ttlMs"],
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
    let report = check_mutant_on(
        WALKER,
        "mutant-08-any-list-changed",
        &[("src/lib.rs", OURS, replace)],
        &["listen: ours invalidates"],
    );
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
    let report = check_mutant_on(
        WALKER,
        "mutant-08-on-message-ignores",
        &[("src/lib.rs", &find, replace)],
        &["listen: ours invalidates"],
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
    let report = check_mutant_on(
        WALKER,
        "mutant-08-listen-no-ack",
        &[("src/lib.rs", find, replace)],
        &["listen: ours invalidates"],
    );
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
    let report = check_mutant_on(
        WALKER,
        "mutant-08-cursor-trimmed",
        &[("src/lib.rs", NEXT_CURSOR_ARM, replace)],
        &["three pages, exact cursors"],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "three pages, exact cursors",
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
            "ms later the list is stale: one of its pages said ttlMs",
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

const ANSWER: &str =
    "            if message.get(\"method\").is_none() && message.get(\"id\") == Some(&id) && well_formed(&message) {\n";
const MALFORMED: &[&str] = &["malformed pages skipped"];

/// The old `request`: any frame with the id is the answer, and `result` is
/// looked at first, so one with both members is a page.
#[test]
fn m08_both_members_read_as_a_page() {
    let replace = "            if message.get(\"method\").is_none() && message.get(\"id\") == Some(&id) {\n";
    let report = check_mutant_on(
        WALKER,
        "mutant-08-both-members",
        &[("src/lib.rs", ANSWER, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed pages skipped",
        &[
            "took the response with both result and error for page 1",
            "MUST NOT be included",
        ],
    );
}

/// A walker that never looks at `jsonrpc`.
#[test]
fn m08_jsonrpc_ignored() {
    let find = "    message.get(\"jsonrpc\") == Some(&json!(\"2.0\"))\n        && match";
    let report = check_mutant_on(
        WALKER,
        "mutant-08-jsonrpc-ignored",
        &[("src/lib.rs", find, "    match")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed pages skipped",
        &[
            "took the response with jsonrpc \"1.0\" for page 1",
            "MUST be exactly 2.0",
        ],
    );
}

/// A walker that takes any `error` member for an error object.
#[test]
fn m08_any_error_member_is_an_error() {
    let find = "            (None, Some(error)) => error_object(error),\n";
    let report = check_mutant_on(
        WALKER,
        "mutant-08-error-unchecked",
        &[("src/lib.rs", find, "            (None, Some(_)) => true,\n")],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed pages skipped",
        &[
            "took the response with error without code for page 1",
            "Error codes MUST be integers",
        ],
    );
}

/// A walker that takes the first well-formed response with an integer id,
/// whichever: the second response to page 1 becomes page 2.
#[test]
fn m08_duplicate_taken_for_the_next_page() {
    let replace = "            if message.get(\"method\").is_none() && message.get(\"id\").is_some_and(Value::is_i64) && well_formed(&message) {\n";
    let report = check_mutant_on(
        WALKER,
        "mutant-08-duplicate",
        &[("src/lib.rs", ANSWER, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed pages skipped",
        &[
            "took a second response to page 1",
            "for page 2's",
            "Match the id exactly",
        ],
    );
}

/// A walker that takes any well-formed response, whatever its id: a page
/// with `"id": null` is taken.
#[test]
fn m08_any_id_is_the_answer() {
    let replace = "            if message.get(\"method\").is_none() && well_formed(&message) {\n";
    let report = check_mutant_on(
        WALKER,
        "mutant-08-any-id",
        &[("src/lib.rs", ANSWER, replace)],
        MALFORMED,
    );
    assert_caught(&report);
    assert_failed(
        &report,
        "malformed pages skipped",
        &["took the response with id null for page 1", "MUST include the same ID"],
    );
}

const OPAQUE: &str = "opaque cursors, any value";

const END_ARM: &str = "                None => return Ok((tools, Duration::from_millis(ttl_ms))),\n";

const END_ANY: &str = "                _ => return Ok((tools, Duration::from_millis(ttl_ms))),\n";

const CURSOR_PARAM: &str = "                params[\"cursor\"] = json!(c);\n";

/// A walker that ends the list at a cursor of its choosing: `guard` added
/// to the arm that follows a cursor, so every other cursor still goes back.
fn ends_at(package: &str, guard: &str) -> mcplings::check::CheckReport {
    let replace = format!("                Some(next) if {guard} => cursor = Some(next.to_string()),\n");
    check_mutant_on(
        WALKER,
        package,
        &[
            ("src/lib.rs", NEXT_CURSOR_ARM, &replace),
            ("src/lib.rs", END_ARM, END_ANY),
        ],
        &[OPAQUE],
    )
}

/// A cursor that reads as a number sent back as one (`0`, not `"0"`).
#[test]
fn m08_numeric_cursor_sent_as_a_number() {
    let replace = "                params[\"cursor\"] = c.parse::<i64>().map_or_else(|_| json!(c), |n| json!(n));\n";
    let report = check_mutant_on(
        WALKER,
        "mutant-08-cursor-as-number",
        &[("src/lib.rs", CURSOR_PARAM, replace)],
        &[OPAQUE],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        OPAQUE,
        &[
            "the cursor comes back as 0, but the server handed out \"0\"",
            "as the string it is",
        ],
    );
}

/// The text `"null"` taken for no cursor: the list ends there.
#[test]
fn m08_null_text_ends_the_list() {
    let report = ends_at("mutant-08-null-text-ends", "next != \"null\"");
    assert_caught(&report);
    assert_failed(
        &report,
        OPAQUE,
        &[
            "the walker stopped after page 2, whose nextCursor looks like JSON null (\"null\")",
            "Don't make any determination based on cursor value",
        ],
    );
}

/// A cursor that holds a JSON object parsed and sent as the object (to
/// read the page number in it).
#[test]
fn m08_json_cursor_parsed() {
    let replace = "                params[\"cursor\"] = if c.starts_with('{') { serde_json::from_str(c).unwrap_or_else(|_| json!(c)) } else { json!(c) };\n";
    let report = check_mutant_on(
        WALKER,
        "mutant-08-cursor-parsed",
        &[("src/lib.rs", CURSOR_PARAM, replace)],
        &[OPAQUE],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        OPAQUE,
        &[
            "the cursor comes back as {\"page\":4,\"size\":1}, but the server handed out \"{\\\"page\\\":4,\\\"size\\\":1}\"",
        ],
    );
}

/// A loop guard on the value: the list ends when a cursor repeats.
#[test]
fn m08_repeated_cursor_ends_the_list() {
    let report = ends_at("mutant-08-repeat-ends", "cursor.as_deref() != Some(next)");
    assert_caught(&report);
    assert_failed(
        &report,
        OPAQUE,
        &[
            "the walker stopped after page 4, whose nextCursor repeats the cursor before it",
            "the spec gives no leave to stop on a repeat",
        ],
    );
}

/// Cursors kept in a 1 KiB buffer: a longer one is cut.
#[test]
fn m08_long_cursor_cut() {
    let replace = "                Some(next) => cursor = Some(next.chars().take(1024).collect()),\n";
    let report = check_mutant_on(
        WALKER,
        "mutant-08-long-cursor-cut",
        &[("src/lib.rs", NEXT_CURSOR_ARM, replace)],
        &[OPAQUE],
    );
    assert_caught(&report);
    assert_failed(
        &report,
        OPAQUE,
        &[
            "(1024 characters), but the server handed out \"long-0123456789abcdef",
            "(4105 characters)",
            "no parsing, trimming, cutting or re-encoding",
        ],
    );
}

/// A non-ASCII cursor taken for garbage: the list ends there.
#[test]
fn m08_non_ascii_cursor_ends_the_list() {
    let report = ends_at("mutant-08-non-ascii-ends", "next.is_ascii()");
    assert_caught(&report);
    assert_failed(
        &report,
        OPAQUE,
        &["the walker stopped after page 6, whose nextCursor is not ASCII (\"é✓日本語😀\")"],
    );
}

//! Checker for exercise 08-pagination-walker: the learner's program is a
//! modern (2026-07-28) client that lists tools across pages and caches
//! them; the checker plays the server it launches.
//!
//! Expected behaviour comes from MCP 2026-07-28 server/utilities/pagination
//! (cursors are opaque and passed back exactly; only an absent `nextCursor`
//! ends a list, `""` included; -32602 for a cursor the server no longer
//! accepts), server/utilities/caching (`ttlMs`, absent meaning 0) and
//! basic/patterns/subscriptions (`subscriptions/listen`, the
//! acknowledgement first, notifications tagged with the subscription id).
//! Mistakes it catches: stopping at an empty-string cursor, re-encoding or
//! trimming a cursor, deciding anything from a cursor's value (below), walking again without end after -32602, never
//! reusing or never refreshing the cache, taking any list-changed
//! notification as ours, and taking a malformed response for a page.
//!
//! Rules (2026-07-28) → case; each case's `rules` names them by key, as
//! Part 1 and Part 4 (› Pagination and caching) state them:
//! - pagination: "Clients MUST treat cursors as opaque tokens … an empty
//!   string is a valid cursor and thus MUST NOT be treated as the end of
//!   results" → three pages, exact cursors; "clients MUST NOT assume a
//!   fixed page size" → the same (pages of 3, 2 and 1).
//!
//!   Opaque cursors, the class (2026-07-28 › Implementation Guidelines:
//!   "Don't make any determination based on cursor value other than
//!   whether a non-null value was provided (e.g. an empty string is a valid
//!   cursor and thus MUST NOT be treated as the end of results)"; 2025-11-25
//!   has the first two lines, "Don't make assumptions about cursor format"
//!   and "Don't attempt to parse or modify cursors", not this one). The
//!   spec gives a client no leave to stop on a repeated cursor (a server
//!   may hand out the same one twice), so stopping there is a determination
//!   from the value too. Member → case (mutant):
//!   - `""` → three pages, exact cursors (`m08_stops_at_an_empty_cursor`);
//!   - characters a client re-encodes or trims (`"b/+=c== "`) → the same
//!     (`m08_cursor_url_encoded`, `m08_cursor_trimmed`);
//!   - one that looks like a number (`"0"`) → opaque cursors, any value
//!     (`m08_numeric_cursor_sent_as_a_number`);
//!   - one that looks like JSON null (`"null"`) → the same
//!     (`m08_null_text_ends_the_list`);
//!   - a JSON object's text → the same (`m08_json_cursor_parsed`);
//!   - a repeat of the cursor before it → the same
//!     (`m08_repeated_cursor_ends_the_list`);
//!   - a long one (4 KiB) → the same (`m08_long_cursor_cut`);
//!   - a non-ASCII one → the same (`m08_non_ascii_cursor_ends_the_list`).
//! - pagination › Overview and basic/index › _meta: "Every request MUST
//!   include" the protocol version and client capabilities → every
//!   tools/list request, in every case.
//! - pagination › Error Handling: an invalid cursor SHOULD get -32602, and
//!   caching › Interaction with Pagination: the client SHOULD discard its
//!   pages and fetch from the beginning → -32602: walk again once; `course
//!   rule: one-fresh-walk` (one fresh walk, then the error is reported: a
//!   walk that never ends is the C25 bug) → the same, -32602 twice: give up.
//! - caching: fresh for ttlMs, absent ttlMs means 0 (SHOULDs; the second
//!   also lets a client use its own heuristics, so taking 0 is `course
//!   rule: absent-ttl-stale`) → fresh cache serves, stale cache refetches,
//!   absent ttlMs means 0.
//! - subscriptions: the acknowledgement comes first; "clients MUST use this
//!   field [subscriptionId] to correlate notifications" → listen: ours
//!   invalidates.
//! - JSON-RPC 2.0 §5 and basic/index › Responses (exactly one of result and
//!   error, jsonrpc "2.0", the request's id, an integer code and a string
//!   message) → malformed pages skipped; a second response to page 1 is not
//!   page 2's → the same.
//!
//! Not tested here, with the reason: caching "Clients MUST NOT serve a cached
//! response for a request whose method or parameters differ" (the harness
//! lists one thing, tools, with no parameters; there is no second key to
//! mix up); results of multi round-trip retries "MUST NOT be cached" (no
//! retry here; 10 has them); a negative ttlMs read as 0 (a SHOULD, and the
//! server MUST NOT send one).

mod listen;
mod malformed;
mod opaque;

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::as_server::{frame_or, report, report_or, respond, respond_error};
use crate::check::toolkit::harness::{self, harness_kind};
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;

/// The checker named `pagination-walker`.
pub static CHECKER: Checker = Checker {
    name: "pagination-walker",
    shape: Shape::Client,
    schema: true,
    cases: &[
        Case {
            name: "three pages, exact cursors",
            about: "the walker follows nextCursor \"\" and \"b/+=c== \" exactly, stops where nextCursor is absent, and keeps the order",
            rules: &[
                "2026-07-28 server/utilities/pagination › Implementation Guidelines",
                "2026-07-28 server/utilities/pagination › Pagination Model",
            ],
            args: &[],
            run: three_pages,
        },
        Case {
            name: "opaque cursors, any value",
            about: "seven pages whose cursors are \"0\", \"null\", a JSON object's text, that text again, a 4 KiB string and a non-ASCII one: each goes back exactly, and only the absent nextCursor ends the list",
            rules: &["2026-07-28 server/utilities/pagination › Implementation Guidelines"],
            args: &[],
            run: opaque::cursors,
        },
        Case {
            name: "malformed pages skipped",
            about: "a response with page 1's id that breaks the response rules (both result and error, neither, a wrong or missing jsonrpc, an id of a forbidden type, a broken error object) is skipped, and a second response to page 1 is not page 2's",
            rules: &[
                "2025-11-25 basic/index › Responses",
                "2025-11-25 basic/index › Error Responses",
                "course rule: orphans-dropped",
            ],
            args: &[],
            run: malformed::skipped,
        },
        Case {
            name: "-32602: walk again once",
            about: "when the server refuses a cursor, the walker starts over from the first page, once",
            rules: &[
                "2026-07-28 server/utilities/caching › Interaction with Pagination",
                "course rule: one-fresh-walk",
            ],
            args: &[],
            run: restart_once,
        },
        Case {
            name: "-32602 twice: give up",
            about: "a cursor refused on the fresh walk too ends the listing with an error, not a third walk",
            rules: &["course rule: one-fresh-walk"],
            args: &[],
            run: give_up,
        },
        Case {
            name: "fresh cache serves",
            about: "within ttlMs the second listing comes from the cache, with no request",
            rules: &["2026-07-28 server/utilities/caching › Freshness Calculation"],
            args: &[],
            run: fresh_cache,
        },
        Case {
            name: "stale cache refetches",
            about: "after ttlMs has passed, the listing walks the pages again",
            rules: &["2026-07-28 server/utilities/caching › Freshness Calculation"],
            args: &["--wait-ms", "400"],
            run: stale_cache,
        },
        Case {
            name: "absent ttlMs means 0",
            about: "pages without ttlMs may not be reused: the next listing walks again",
            rules: &[
                "2026-07-28 server/utilities/caching › Cacheable Model",
                "course rule: absent-ttl-stale",
            ],
            args: &[],
            run: no_ttl,
        },
        Case {
            name: "listen: ours invalidates",
            about: "the walker opens subscriptions/listen, waits for the acknowledgement, ignores a list_changed for another subscription and drops its cache on one for its own",
            rules: &[
                "2026-07-28 basic/patterns/subscriptions › Acknowledgment",
                "2026-07-28 basic/patterns/subscriptions › Receiving Notifications",
                "2026-07-28 server/utilities/caching › Interaction with Notifications",
            ],
            args: &["--listen", "--wait-ms", "300"],
            run: listen::listen,
        },
    ],
};

const NAMES: [&str; 6] = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
/// An opaque cursor with the characters clients like to re-encode, and a
/// trailing space they like to trim.
const CURSOR: &str = "b/+=c== ";

fn tools(names: &[&str]) -> Value {
    Value::Array(
        names
            .iter()
            .map(|n| json!({"name": n, "inputSchema": {"type": "object"}}))
            .collect(),
    )
}

/// A `tools/list` page.
pub(super) fn page(names: &[&str], next: Option<&str>, ttl: Option<u64>) -> Value {
    let mut result = json!({"resultType": "complete", "tools": tools(names), "cacheScope": "private"});
    if let Some(next) = next {
        result["nextCursor"] = json!(next);
    }
    if let Some(ttl) = ttl {
        result["ttlMs"] = json!(ttl);
    }
    result
}

/// Reads the next request, which must be a modern `tools/list` with
/// exactly `cursor`; returns its id.
pub(super) fn list_request(s: &mut Session, cursor: Option<&str>) -> Result<Value, Failure> {
    list_request_or(s, cursor, |reason| reason)
}

/// Like [`list_request`], with `on_stall` as for [`frame_or`].
pub(super) fn list_request_or(
    s: &mut Session,
    cursor: Option<&str>,
    on_stall: impl FnOnce(String) -> String,
) -> Result<Value, Failure> {
    let shown = match cursor {
        None => "a first-page tools/list request".to_string(),
        Some(c) => format!("a tools/list request with cursor {}", json!(c)),
    };
    let request = frame_or(s, &shown, on_stall)?;
    let id = match classify(&request) {
        Kind::Request { id, method } if method == "tools/list" => id.to_value(),
        _ => {
            return Err(Failure::showing(
                format!("the walker sent something else where {shown} was due"),
                request,
            ));
        }
    };
    let meta = request.pointer("/params/_meta");
    if meta.and_then(|m| m.get(mcp::meta::PROTOCOL_VERSION)) != Some(&json!(mcp::MODERN))
        || !meta
            .and_then(|m| m.get(mcp::meta::CLIENT_CAPABILITIES))
            .is_some_and(Value::is_object)
    {
        return Err(Failure::showing(
            "every 2026-07-28 request carries params._meta with the protocol version and the client capabilities",
            request,
        ));
    }
    let sent = request.pointer("/params/cursor");
    let expected = cursor.map(|c| json!(c));
    if sent != expected.as_ref() {
        let reason = match (cursor, sent) {
            (None, Some(c)) => format!("the first page is asked for without a cursor, but this request carries {c}"),
            (Some(""), None) => "the previous page ended with nextCursor \"\", yet this request carries no cursor: the walker stopped there, or started over. An empty string is a cursor like any other: only an absent nextCursor ends the list (2026-07-28 server/utilities/pagination), so pass \"\" back in params.cursor".to_string(),
            (Some(c), None) => format!("the previous page ended with nextCursor {}, yet this request carries no cursor: pass the cursor back in params.cursor", json!(c)),
            (Some(c), Some(got)) => format!(
                "the cursor comes back as {got}, but the server handed out {}. A cursor is opaque: pass it back byte for byte, no trimming, decoding or URL-encoding",
                json!(c)
            ),
            (None, None) => unreachable!("equal"),
        };
        return Err(Failure::showing(reason, request));
    }
    Ok(id)
}

/// Serves one whole walk: three pages, with `ttl` on each.
pub(super) fn serve_walk(s: &mut Session, ttl: Option<u64>) -> CaseResult {
    serve_pages(s, [ttl, ttl, ttl])
}

/// Serves one whole walk, with `ttls[i]` on page i.
fn serve_pages(s: &mut Session, ttls: [Option<u64>; 3]) -> CaseResult {
    let [ttl1, ttl2, ttl3] = ttls;
    let id = list_request(s, None)?;
    respond(s, &id, page(&NAMES[..3], Some(""), ttl1))?;
    let id = list_request_or(s, Some(""), |_| {
        "the walker stopped after page 1, which ended with nextCursor \"\". An empty string is a cursor like any other: only an absent nextCursor ends the list (2026-07-28 server/utilities/pagination). Test for the field, not for its emptiness".into()
    })?;
    respond(s, &id, page(&NAMES[3..5], Some(CURSOR), ttl2))?;
    let id = list_request(s, Some(CURSOR))?;
    respond(s, &id, page(&NAMES[5..], None, ttl3))
}

/// Reads the report of listing number `call`; returns the names.
pub(super) fn listed(s: &mut Session, call: u64) -> Result<Vec<String>, Failure> {
    let got = report(s)?;
    if harness_kind(&got) == Some("failed") {
        return Err(Failure::showing(
            format!(
                "list_tools (call {call}) failed: {}",
                got["error"].as_str().unwrap_or("?")
            ),
            got.clone(),
        ));
    }
    if harness_kind(&got) != Some("listed") || got["call"] != json!(call) {
        return Err(Failure::showing(
            format!("expected the result of list_tools call {call}"),
            got,
        ));
    }
    Ok(got["names"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect())
}

/// Listing `call` must hold every tool, in order.
pub(super) fn all_listed(s: &mut Session, call: u64) -> CaseResult {
    let names = listed(s, call)?;
    if names == NAMES {
        return Ok(());
    }
    Err(Failure::mismatch(
        format!("list_tools (call {call}) should return the six tools of the three pages, in the server's order"),
        json!(NAMES),
        json!(names),
    ))
}

/// Nothing may be requested for `window`.
pub(super) fn no_request(s: &mut Session, window: Duration, why: &str) -> CaseResult {
    match s.recv_within(window)? {
        None => Ok(()),
        Some(got) => Err(Failure::showing(why.to_string(), got.value)),
    }
}

/// Listing `call` must come from the cache: its report arrives, and no
/// request comes before it. `why` says why the cache should serve.
pub(super) fn from_cache(s: &mut Session, call: u64, why: &str) -> CaseResult {
    let until = Instant::now() + s.slack(Duration::from_secs(2));
    while Instant::now() < until {
        if let Some(request) = s.recv_within(Duration::from_millis(10))? {
            return Err(Failure::showing(
                format!("list_tools (call {call}) sent a request: {why}"),
                request.value,
            ));
        }
        if let Some(got) = s.recv_output(Duration::from_millis(10))? {
            if harness_kind(&got.value) == Some("panic") {
                return Err(harness::panic_failure(&got.value));
            }
            if harness_kind(&got.value) == Some("listed")
                && got.value["call"] == json!(call)
                && got.value["names"] == json!(NAMES)
            {
                return Ok(());
            }
            return Err(Failure::showing(
                format!("list_tools (call {call}) should return the cached six tools: {why}"),
                got.value,
            ));
        }
    }
    Err(Failure::new(format!(
        "list_tools (call {call}) neither returned nor asked the server for anything"
    )))
}

fn three_pages(s: &mut Session) -> CaseResult {
    serve_walk(s, Some(60_000))?;
    all_listed(s, 1)
}

fn restart_once(s: &mut Session) -> CaseResult {
    let id = list_request(s, None)?;
    respond(s, &id, page(&NAMES[..3], Some(""), Some(60_000)))?;
    let id = list_request(s, Some(""))?;
    respond(s, &id, page(&NAMES[3..5], Some(CURSOR), Some(60_000)))?;
    let id = list_request(s, Some(CURSOR))?;
    respond_error(s, &id, json!({"code": -32602, "message": "Invalid cursor"}))?;
    serve_walk(s, Some(60_000)).map_err(|f| Failure {
        reason: format!("{} (after -32602 for a cursor, the server no longer knows that place in the list: walk again from the first page, without a cursor)", f.reason),
        ..f
    })?;
    all_listed(s, 1)
}

fn give_up(s: &mut Session) -> CaseResult {
    for walk in 1..=2 {
        let id = list_request(s, None).map_err(|f| match walk {
            2 => Failure {
                reason: format!(
                    "{} (after the first -32602 the walker should start over once)",
                    f.reason
                ),
                ..f
            },
            _ => f,
        })?;
        respond(s, &id, page(&NAMES[..3], Some(""), Some(60_000)))?;
        let id = list_request(s, Some(""))?;
        respond_error(s, &id, json!({"code": -32602, "message": "Invalid cursor"}))?;
    }
    let got = report_or(
        s,
        "the cursor was refused on the fresh walk too: list_tools should give up with an error now, not walk a third time",
    )?;
    if harness_kind(&got) != Some("failed") {
        return Err(Failure::showing(
            "after two refusals list_tools returns an error (WalkError::InvalidCursor)",
            got,
        ));
    }
    // A request now may have been sent before the report (two channels):
    // either way it is a third walk.
    no_request(
        s,
        Duration::from_millis(100),
        "the cursor was refused on the fresh walk too, and the walker still sent a request: list_tools should give up with an error now, not walk a third time",
    )
}

fn fresh_cache(s: &mut Session) -> CaseResult {
    serve_walk(s, Some(60_000))?;
    all_listed(s, 1)?;
    from_cache(
        s,
        2,
        "the pages said ttlMs 60000, so for a minute the list may be reused; the second listing, right after the first, comes from the cache",
    )
}

fn stale_cache(s: &mut Session) -> CaseResult {
    // The list is fresh as long as its stalest page: 200 ms here. That is a
    // timer given to the program, as `--wait-ms 400` is: both stretch with
    // the machine's load (`slack`), so a loaded machine cannot let the
    // page go stale before the listing right after the first walk.
    let ttl = s.slack(Duration::from_millis(200)).as_millis() as u64;
    let wait = s.slack(Duration::from_millis(400)).as_millis();
    serve_pages(s, [Some(60_000), Some(ttl), Some(60_000)])?;
    all_listed(s, 1)?;
    from_cache(
        s,
        2,
        &format!("the pages said ttlMs 60000, {ttl} and 60000: a listing right after the first comes from the cache"),
    )?;
    serve_walk(s, Some(ttl)).map_err(|f| Failure {
        reason: format!("{} ({wait} ms later the list is stale: one of its pages said ttlMs {ttl}, and a list is only as fresh as its stalest page, so the listing must walk the pages again)", f.reason),
        ..f
    })?;
    all_listed(s, 3)
}

fn no_ttl(s: &mut Session) -> CaseResult {
    serve_walk(s, None)?;
    all_listed(s, 1)?;
    serve_walk(s, None).map_err(|f| Failure {
        reason: format!("{} (the pages carried no ttlMs, which means 0: the list may not be reused, so the second listing walks again)", f.reason),
        ..f
    })?;
    all_listed(s, 2)
}

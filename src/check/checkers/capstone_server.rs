//! Checker for exercise 11-capstone-server: the learner's program is a
//! complete dual-era stdio server (tools, a resource, a prompt, progress,
//! cancellation); the checker is its client, legacy (after `initialize`)
//! or modern (`_meta` on every request), case by case.
//!
//! Mistakes it catches (implementer-mistakes log): ping refused before
//! initialize (C12), a second initialize accepted (C13), a version not
//! negotiated (C14), an unknown tool as a tool error (C08), bad input as a
//! protocol error (C09), content not a list (C11), progress with the wrong
//! token, repeated or after the response (C23), a response to a cancelled
//! request (C24), stdout junk (C15, through the session), plus a reply to
//! a notification, a gate with a hole for one method, ids changed on the
//! way back or a null id served, modern results without `resultType`,
//! capabilities taken from an earlier request, and a server that blocks on
//! a long call.
//!
//! The server's MUST / MUST NOT rules on the pages its lesson cites, and
//! the case for each:
//!
//! - basic/index › Requests, › Result Responses, › Error Responses (both
//!   eras: string or integer ids, never null, the same id back, an
//!   unusable one refused with -32600 and no id) → `request ids (legacy)`,
//!   `request ids (modern)`; › Notifications, "MUST NOT send a response" →
//!   `handshake (legacy)`.
//! - 2025-11-25 basic/lifecycle: "MUST be the first interaction" → `gate
//!   before initialize` (every legacy method refused, ping answered,
//!   initialize after), `handshake (legacy)`; capabilities and serverInfo,
//!   "MUST respond with the same version", "Otherwise … another protocol
//!   version it supports" → `handshake (legacy)`, `counter-offer`;
//!   basic/utilities/ping, "MUST respond promptly with an empty response" →
//!   `handshake (legacy)`, `gate before initialize`.
//! - server/tools (Output Schema "MUST provide structured results that
//!   conform", Error Handling, "Validate all tool inputs") → `tools
//!   (legacy)`, `tools (modern)`, `unknown tool: -32602`, `bad steps:
//!   isError`.
//! - server/resources (-32002 in 2025-11-25; 2026-07-28 "MUST return a
//!   JSON-RPC error" -32602, "MUST NOT return an empty contents array") →
//!   `resource (legacy)`, `resource (modern)`; server/prompts → `prompt`.
//! - basic/utilities/progress: "MUST only reference tokens" of active
//!   requests, "The progress value MUST increase", "MUST stop after
//!   completion" → `progress (legacy)`, `progress (modern)`, `no token, no
//!   progress`.
//! - Cancellation: 2026-07-28 basic/transports/stdio, the server "MUST NOT
//!   send any further messages for it" → `cancel (modern)`; 2025-11-25
//!   basic/utilities/cancellation (receivers SHOULD not respond; an
//!   unknown id MAY be ignored; "MUST handle these race conditions
//!   gracefully") → `cancel (legacy)`.
//! - Ids of every legal shape wherever an id travels (basic/index ›
//!   Requests: "a string or integer ID"; progress: "Progress tokens MUST be
//!   a string or integer value"; a cancellation's `requestId` names the
//!   request by its id). Every case's client turns through 0, "req-1",
//!   "2", -3, … ([`Client::varied`]). Member → case (mutant in
//!   `tests/suite/checkers/ex11_capstone_server.rs`): a response's id, any
//!   shape → `request ids (legacy)`, `request ids (modern)` (f64, cut and
//!   mangled ids); a countdown's id echoed from its thread, a digit string
//!   → `cancel one of two` (`m11_countdown_id_echoed_as_a_number`); the
//!   `requestId` of a cancel, a string → `cancel (legacy)` ("req-countdown"),
//!   `cancel (modern)` ("0", with 0 in flight beside it)
//!   (`m11_cancel_looked_up_by_integer`); 5 and "5" kept apart →
//!   `cancel one of two` (`m11_running_calls_keyed_without_type`); a
//!   progress token, string or integer → `progress (legacy)` ("tok-legacy"),
//!   `progress (modern)` (77), `cancel one of two` (5 and "5")
//!   (`m11_progress_token_read_as_a_number`).
//! - 2026-07-28 basic/index: "The result MUST include a resultType" → the
//!   modern cases; a request missing a required `_meta` field "MUST" get
//!   -32602 → `no stale _meta`; basic/versioning: "MUST respond with an
//!   UnsupportedProtocolVersionError" → `unsupported version: -32022`;
//!   "Servers MUST implement server/discover" and server/utilities/caching
//!   "MUST include caching hints" → `discover and modern results`, `tools
//!   (modern)`, `resource (modern)`.
//! - basic/transports › stdio (only MCP messages on stdout; 2026-07-28: "MUST
//!   NOT write JSON-RPC requests") → the session, and any request from the
//!   server fails the exchange it interrupts.
//!
//! Not tested, and why:
//! - 2026-07-28 basic/index: "MUST NOT rely on capabilities the client has
//!   not declared" (-32021): no feature of this server needs one.
//! - Progress tokens and cancellations "MUST" be unique / reference issued
//!   requests: the client's rules (the checker cancels an unknown id only
//!   to see it ignored).
//! - Tasks (`tasks/cancel`): not offered by this server.
//! - server/* › Security (access control, rate limits, URI validation): no
//!   observable contract to hold a server to.

mod lifecycle;
mod modern;
mod one_of_two;
mod progress;

use std::time::Duration;

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::as_client::{
    Client, call_tool, content_list, ids_legacy, ids_modern, modern_fields, structured_with_mirror, unknown_tool,
};
use crate::check::toolkit::compare::{self, same};
use crate::check::toolkit::ids;
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use crate::mcp;
use lifecycle::{counter_offer, gate, handshake};
use modern::{discover, no_stale_meta, unsupported_version};
use one_of_two::cancel_one_of_two;
use progress::{cancel_legacy, cancel_modern, no_token, progress_legacy, progress_modern};

/// The checker named `capstone-server`.
pub static CHECKER: Checker = Checker {
    name: "capstone-server",
    shape: Shape::Program,
    schema: true,
    cases: &[
        Case {
            name: "handshake (legacy)",
            about: "ping works before initialize, other requests are refused with their id, initialize settles 2025-11-25, notifications get no reply, and a second initialize is refused",
            rules: &[
                "2025-11-25 basic/lifecycle › Initialization",
                "2025-11-25 basic/utilities/ping › Behavior Requirements",
                "2025-11-25 basic/index › Notifications",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &[],
            run: handshake,
        },
        Case {
            name: "counter-offer",
            about: "initialize at a version the server does not implement gets a result offering 2025-11-25, not an error and not an echo",
            rules: &["2025-11-25 basic/lifecycle › Version Negotiation"],
            args: &[],
            run: counter_offer,
        },
        Case {
            name: "tools (legacy)",
            about: "tools/list names reverse, word_count and countdown; reverse returns a list of one text block; word_count returns structuredContent and its text mirror",
            rules: &[
                "2025-11-25 server/tools › Listing Tools",
                "2025-11-25 server/tools › Tool Result",
                "2025-11-25 server/tools › Structured Content",
                "2025-11-25 server/tools › Output Schema",
            ],
            args: &[],
            run: tools_legacy,
        },
        Case {
            name: "tools (modern)",
            about: "the same tools in 2026-07-28, each result carrying resultType, the list also ttlMs and cacheScope",
            rules: &[
                "2026-07-28 basic/index › ResultType",
                "2025-11-25 server/tools › Structured Content",
            ],
            args: &[],
            run: tools_modern,
        },
        Case {
            name: "unknown tool: -32602",
            about: "a tools/call for a tool that does not exist gets -32602, not a result with isError",
            rules: &["2025-11-25 server/tools › Error Handling"],
            args: &[],
            run: unknown_tool,
        },
        Case {
            name: "bad steps: isError",
            about: "countdown with steps 0 returns a result with isError true and a message, not a JSON-RPC error",
            rules: &["2025-11-25 server/tools › Error Handling"],
            args: &[],
            run: bad_steps,
        },
        Case {
            name: "resource (legacy)",
            about: "resources/list names notes://capstone/about; resources/read returns its text; an unknown URI gets -32002",
            rules: &[
                "2025-11-25 server/resources › Resource Contents",
                "2025-11-25 server/resources › Error Handling",
            ],
            args: &[],
            run: resource_legacy,
        },
        Case {
            name: "resource (modern)",
            about: "the same read in 2026-07-28 with its cache fields; an unknown URI gets -32602",
            rules: &[
                "2026-07-28 basic/index › ResultType",
                "2025-11-25 server/resources › Resource Contents",
            ],
            args: &[],
            run: resource_modern,
        },
        Case {
            name: "prompt",
            about: "prompts/get review_code returns one user message with the code; a missing argument or an unknown prompt gets -32602",
            rules: &["2025-11-25 server/prompts › Error Handling"],
            args: &[],
            run: prompt,
        },
        Case {
            name: "discover and modern results",
            about: "server/discover lists 2026-07-28; prompts in 2026-07-28 carry resultType, and the cacheable ones ttlMs and cacheScope",
            rules: &[
                "2026-07-28 basic/versioning › Protocol Version Negotiation",
                "2026-07-28 basic/index › ResultType",
            ],
            args: &[],
            run: discover,
        },
        Case {
            name: "unsupported version: -32022",
            about: "a modern request at a version the server does not implement gets -32022 listing data.supported and data.requested",
            rules: &["2026-07-28 basic/versioning › Protocol Version Negotiation"],
            args: &[],
            run: unsupported_version,
        },
        Case {
            name: "no stale _meta",
            about: "each modern request stands alone: one without clientCapabilities gets -32602, one without _meta gets an error, whatever came before",
            rules: &["2026-07-28 basic/index › _meta"],
            args: &[],
            run: no_stale_meta,
        },
        Case {
            name: "progress (legacy)",
            about: "countdown 3 with a progressToken sends progress 1, 2, 3 of 3 echoing that token, all before its result, and nothing after",
            rules: &[
                "2025-11-25 basic/utilities/progress › Progress Flow",
                "2025-11-25 basic/utilities/progress › Behavior Requirements",
                "2025-11-25 basic/utilities/progress › Implementation Notes",
            ],
            args: &[],
            run: progress_legacy,
        },
        Case {
            name: "progress (modern)",
            about: "the same in 2026-07-28 with an integer token, while another call is answered at once",
            rules: &[
                "2025-11-25 basic/utilities/progress › Progress Flow",
                "2025-11-25 basic/utilities/progress › Behavior Requirements",
                "2025-11-25 basic/utilities/progress › Implementation Notes",
                "2026-07-28 basic/index › _meta",
            ],
            args: &[],
            run: progress_modern,
        },
        Case {
            name: "no token, no progress",
            about: "a countdown without a progressToken sends no progress, only its result",
            rules: &["2025-11-25 basic/utilities/progress › Progress Flow"],
            args: &[],
            run: no_token,
        },
        Case {
            name: "cancel (legacy)",
            about: "notifications/cancelled stops a running countdown: no more progress, no response; a cancel for an unknown id is ignored; the server stays usable",
            rules: &[
                "2025-11-25 basic/utilities/cancellation › Behavior Requirements",
                "2025-11-25 basic/utilities/cancellation › Timing Considerations",
            ],
            args: &[],
            run: cancel_legacy,
        },
        Case {
            name: "cancel (modern)",
            about: "the same in 2026-07-28 on stdio: the client's notifications/cancelled stops the call, which gets no response",
            rules: &["2026-07-28 basic/transports/stdio › Cancellation"],
            args: &[],
            run: cancel_modern,
        },
        Case {
            name: "cancel one of two",
            about: "countdowns with ids \"5\" and 5 (tokens 5 and \"5\") run at once; a cancel naming 5 stops that one only, and the other ends with its id and token echoed exactly",
            rules: &[
                "2026-07-28 basic/transports/stdio › Cancellation",
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/utilities/progress › Progress Flow",
            ],
            args: &[],
            run: cancel_one_of_two,
        },
        Case {
            name: "gate before initialize",
            about: "before initialize every legacy request but ping (tools, resources, templates, prompts, completion, logging) gets an error with its id; ping is answered and initialize works after",
            rules: &[
                "2025-11-25 basic/lifecycle › Initialization",
                "2025-11-25 basic/utilities/ping › Behavior Requirements",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &[],
            run: gate,
        },
        Case {
            name: "request ids (legacy)",
            about: ids::ABOUT,
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &[],
            run: ids_legacy,
        },
        Case {
            name: "request ids (modern)",
            about: "the same ids on 2026-07-28 requests",
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
                "2026-07-28 basic/index › _meta",
            ],
            args: &[],
            run: ids_modern,
        },
    ],
};

const TOOL_NAMES: [&str; 3] = ["reverse", "word_count", "countdown"];
const ABOUT_URI: &str = "notes://capstone/about";
const ABOUT_TEXT: &str = "The mcplings capstone server: three tools, one resource, one prompt, two eras.";
/// How long a countdown step takes, in milliseconds (the task's 100).
const STEP_MS: u64 = 100;

/// Fails when the program writes anything within `window`; `what` names
/// what was just sent, for the reason.
fn silent(s: &mut Session, window: Duration, what: &str) -> CaseResult {
    match s.recv_within(window)? {
        None => Ok(()),
        Some(got) => Err(Failure::showing(
            format!(
                "{what}, and the server wrote a frame. A notification is never answered, not even with an error (2025-11-25 basic/index › Notifications)"
            ),
            got.value,
        )),
    }
}

/// Lists the tools and checks their names, order and schemas.
fn list_tools(c: &mut Client, s: &mut Session) -> Result<Vec<Value>, Failure> {
    let listed = c.result(s, "tools/list", json!({}))?;
    if c.modern {
        modern_fields(&listed, "tools/list", true)?;
    }
    let tools = listed
        .get("tools")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let names: Vec<&str> = tools
        .iter()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .collect();
    if names != TOOL_NAMES {
        return Err(Failure::mismatch(
            "tools/list names the three tools, in this order",
            json!(TOOL_NAMES),
            json!(names),
        ));
    }
    if let Some(bad) = tools
        .iter()
        .find(|t| t.pointer("/inputSchema/type") != Some(&json!("object")))
    {
        let revision = if c.modern { mcp::MODERN } else { mcp::LEGACY };
        return Err(Failure::partial(
            format!(
                "every tool's inputSchema is a JSON Schema object with \"type\": \"object\" (Tool, {revision} schema)"
            ),
            json!({"inputSchema": {"type": "object"}}),
            bad.clone(),
        ));
    }
    if tools[1].pointer("/outputSchema/type") != Some(&json!("object")) {
        return Err(Failure::partial(
            "word_count declares an outputSchema, an object schema with words and characters",
            json!({"name": "word_count", "outputSchema": {"type": "object"}}),
            tools[1].clone(),
        ));
    }
    Ok(tools)
}

/// word_count on `text`: structuredContent `expected` and its text mirror.
fn word_count(c: &mut Client, s: &mut Session, text: &str, expected: Value) -> CaseResult {
    let result = call_tool(c, s, "word_count", json!({"text": text}))?;
    structured_with_mirror(
        &result,
        &expected,
        &format!("word_count of {text:?} declares an outputSchema"),
    )
}

fn tools_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    list_tools(&mut c, s)?;
    let reversed = call_tool(&mut c, s, "reverse", json!({"text": "Ada"}))?;
    same(
        json!({"content": [{"type": "text", "text": "adA"}], "…": "…"}),
        &reversed,
        "reverse of \"Ada\" is one text block, \"adA\"",
    )?;
    word_count(&mut c, s, "hi there", json!({"words": 2, "characters": 8}))
}

fn tools_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    list_tools(&mut c, s)?;
    let reversed = call_tool(&mut c, s, "reverse", json!({"text": "stressed"}))?;
    same(
        json!({"content": [{"type": "text", "text": "desserts"}], "…": "…"}),
        &reversed,
        "reverse of \"stressed\" is one text block, \"desserts\"",
    )?;
    word_count(&mut c, s, "one two  three", json!({"words": 3, "characters": 14}))
}

fn bad_steps(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let response = c.call(s, "tools/call", json!({"name": "countdown", "arguments": {"steps": 0}}))?;
    let Some(result) = response.get("result").cloned() else {
        return Err(Failure::partial(
            "steps 0 is a valid request with a bad value: a tool error, a result with isError: true and a message the model can act on, not a JSON-RPC error (2025-11-25 server/tools › Error Handling; go-sdk#450)",
            json!({"result": {"content": [{"type": "text", "text": "‹a message naming the range›"}], "isError": true}}),
            response,
        ));
    };
    content_list(&result)?;
    let has_text = result["content"].as_array().is_some_and(|b| {
        b.iter()
            .any(|b| b.get("text").and_then(Value::as_str).is_some_and(|t| !t.is_empty()))
    });
    if result.get("isError") != Some(&json!(true)) || !has_text {
        return Err(Failure::partial(
            "steps 0 is out of range: the result says so with isError: true and a text block naming the range, or the model takes it for success",
            json!({"content": [{"type": "text", "text": "‹a message naming the range›"}], "isError": true}),
            result,
        ));
    }
    modern_fields(&result, "tools/call", false)
}

/// resources/read of the about resource; returns the result.
fn read_about(c: &mut Client, s: &mut Session) -> Result<Value, Failure> {
    let result = c.result(s, "resources/read", json!({"uri": ABOUT_URI}))?;
    let expected = json!({"contents": [{"uri": ABOUT_URI, "mimeType": "text/plain", "text": ABOUT_TEXT}]});
    same(
        compare::open(expected),
        &result,
        "resources/read of notes://capstone/about returns contents: one entry with its uri, mimeType text/plain and ABOUT_TEXT",
    )?;
    Ok(result)
}

fn resource_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    let listed = c.result(s, "resources/list", json!({}))?;
    same(
        compare::open(json!({"resources": [{"uri": ABOUT_URI, "name": "about", "mimeType": "text/plain"}]})),
        &listed,
        "resources/list names the one resource, notes://capstone/about",
    )?;
    read_about(&mut c, s)?;
    c.error(s, "resources/read", json!({"uri": "notes://capstone/missing"}), -32002, "a resource that does not exist gets -32002 Resource not found in the legacy era (2025-11-25 server/resources › Error Handling)")
}

fn resource_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let listed = c.result(s, "resources/list", json!({}))?;
    modern_fields(&listed, "resources/list", true)?;
    let read = read_about(&mut c, s)?;
    modern_fields(&read, "resources/read", true)?;
    c.error(
        s,
        "resources/read",
        json!({"uri": "notes://capstone/missing"}),
        -32602,
        "a resource that does not exist gets -32602 in 2026-07-28, which retired -32002 (2026-07-28 server/resources)",
    )
}

fn prompt(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    let listed = c.result(s, "prompts/list", json!({}))?;
    same(
        compare::open(json!({"prompts": [{"name": "review_code", "arguments": [{"name": "code", "required": true}]}]})),
        &listed,
        "prompts/list names review_code and its required argument code",
    )?;
    let result = c.result(
        s,
        "prompts/get",
        json!({"name": "review_code", "arguments": {"code": "fn main() {}"}}),
    )?;
    let expected = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Please review this code:\n\nfn main() {}"}}]});
    same(
        compare::open(expected),
        &result,
        "prompts/get returns messages: one user message whose content is one text block (an object, not a list): \"Please review this code:\\n\\n\" and the code",
    )?;
    c.error(s, "prompts/get", json!({"name": "review_code", "arguments": {}}), -32602, "prompts/get without the required argument `code` gets -32602 Invalid params (2025-11-25 server/prompts › Error Handling)")?;
    c.error(s, "prompts/get", json!({"name": "write_poem", "arguments": {}}), -32602, "prompts/get for a prompt that does not exist gets -32602 Invalid params (2025-11-25 server/prompts › Error Handling)")
}

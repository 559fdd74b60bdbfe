//! Checker for exercise 03-handshake-gate: the learner's program is a
//! legacy-era stdio server, and the checker drives its lifecycle as a client.
//!
//! Mistakes it catches: C06 (initialized sent with an id), C12 (ping
//! refused before initialize), C13 (a second initialize ignored), C14
//! (force-latest, echo-anything and reject-instead-of-offer negotiation), a
//! gate that lets a method with an arm of its own through before
//! initialize, ids changed on the way back (strings, floats, cut short) or
//! a null id served, silence towards early requests, and a loop that spins
//! at end of input.
//!
//! The server's MUST / MUST NOT rules on the pages its lesson cites
//! (2025-11-25, the revision every case negotiates), and the case that holds
//! the program to each:
//!
//! - basic/index › Requests: "Requests MUST include a string or integer
//!   ID", "the ID MUST NOT be null" → `request ids` (null, 1.5, an object,
//!   an array, true: -32600 without an id, or nothing; never served).
//! - › Result Responses: "MUST include the same ID as the request" →
//!   `request ids` (13 shapes, see [`crate::check::toolkit::ids`]), and
//!   every exchange.
//! - › Error Responses: the same ID, "except … where the ID could not be
//!   read" → `early request refused`, `initialized with an id`, `request
//!   ids`; "an error field with a code and message", "codes MUST be
//!   integers" → the schema check after every case.
//! - › Notifications: "The receiver MUST NOT send a response" →
//!   `notifications not answered`.
//! - basic/lifecycle › Initialization: "The client SHOULD NOT send requests
//!   other than pings before the server has responded to the initialize
//!   request": the limit ends with the response, and nothing lets the
//!   server refuse a request after it, so one sent before `initialized` is
//!   served → `serves what it advertised`.
//! - basic/lifecycle › Initialization: "MUST be the first interaction" →
//!   `early request refused` (tools, resources, templates, prompts,
//!   completion, logging; ping answered, initialize still works); "The
//!   server MUST respond with its own capabilities and information" →
//!   `initialize: echo 2025-11-25`.
//! - › Version Negotiation: "MUST respond with the same version" →
//!   `initialize: echo 2025-11-25`, `older supported: echoed`;
//!   "Otherwise … MUST respond with another protocol version it supports"
//!   → `unknown: counter-offer`, `retired: counter-offer`.
//! - › Operation: "Only use capabilities that were successfully
//!   negotiated" → `initialize: echo 2025-11-25` (only tools advertised),
//!   `serves what it advertised` (-32601 for resources/list).
//! - basic/utilities/ping: "The receiver MUST respond promptly with an
//!   empty response" → `ping before initialize`, `early request refused`.
//! - basic/transports › stdio: "MUST NOT write anything to its stdout that
//!   is not a valid MCP message", "MUST NOT contain embedded newlines",
//!   "MUST be UTF-8 encoded" → the session, in every case (a line that is
//!   not one JSON message stops it); `request ids` sends non-ASCII ids.
//!   Closing stdin ends the session (› Shutdown, the client's SHOULD) →
//!   `exits when stdin closes`.
//! - course rule: second-initialize-answered (the spec is silent; Part 2 ›
//!   A second `initialize`) → `second initialize answered`.
//!
//! Not tested, and why:
//! - "The request ID MUST NOT have been previously used": the requester's
//!   duty; nothing says what a server does about a reused id.
//! - The client's rules (initialized sent, no id on a notification, stdin
//!   holds only MCP messages, initialize never cancelled): the checker keeps
//!   them, except where a case breaks one on purpose to see the server
//!   cope.
//! - "The server SHOULD NOT send requests other than pings and logging
//!   before … initialized": a SHOULD, and this server sends no requests (one
//!   arriving fails any exchange).

use std::time::Duration;

use serde_json::{Value, json};

use crate::check::diff::{ANY_INTEGER, ANY_STRING};
use crate::check::session::Session;
use crate::check::toolkit::as_client::{
    exchange, exchange_err, exchange_ok, gate_holds, ids_kept, initialize_request, next, request, request_line,
};
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape, ids};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;

/// The versions the exercise's server implements, newest first (its
/// `SUPPORTED_VERSIONS`).
const SUPPORTED: [&str; 2] = [mcp::LEGACY, mcp::PREVIOUS_LEGACY];

/// The checker named `handshake-gate`.
pub static CHECKER: Checker = Checker {
    name: "handshake-gate",
    shape: Shape::Program,
    schema: true,
    cases: &[
        Case {
            name: "initialize: echo 2025-11-25",
            about: "initialize at a supported version gets a result with that version, the server's capabilities and its serverInfo",
            rules: &[
                "2025-11-25 basic/lifecycle › Initialization",
                "2025-11-25 basic/lifecycle › Version Negotiation",
            ],
            args: &[],
            run: echoes_latest,
        },
        Case {
            name: "older supported: echoed",
            about: "initialize at 2025-06-18, which the server also implements, is answered with 2025-06-18, not the server's newest",
            rules: &["2025-11-25 basic/lifecycle › Version Negotiation"],
            args: &[],
            run: echoes_older,
        },
        Case {
            name: "unknown: counter-offer",
            about: "initialize at a version the server does not implement gets a result with the server's newest version, not an echo and not an error",
            rules: &["2025-11-25 basic/lifecycle › Version Negotiation"],
            args: &[],
            run: counter_offer_future,
        },
        Case {
            name: "retired: counter-offer",
            about: "initialize at 2024-11-05, which this server does not implement, also gets the server's newest version",
            rules: &["2025-11-25 basic/lifecycle › Version Negotiation"],
            args: &[],
            run: counter_offer_retired,
        },
        Case {
            name: "ping before initialize",
            about: "a ping before initialize is answered with an empty result, and initialize still works after it",
            rules: &["2025-11-25 basic/utilities/ping › Behavior Requirements"],
            args: &[],
            run: ping_first,
        },
        Case {
            name: "early request refused",
            about: "every request but ping before initialize (tools/list, tools/call, resources, prompts, completion, logging) gets an error response with its id, never silence and never a result; ping is answered and initialize works after",
            rules: &[
                "2025-11-25 basic/lifecycle › Initialization",
                "2025-11-25 basic/index › Error Responses",
                "2025-11-25 basic/utilities/ping › Behavior Requirements",
            ],
            args: &[],
            run: early_request,
        },
        Case {
            name: "notifications not answered",
            about: "notifications/initialized, a cancel of initialize and an unknown notification get no reply",
            rules: &[
                "2025-11-25 basic/index › Notifications",
                "2025-11-25 basic/utilities/cancellation › Behavior Requirements",
            ],
            args: &[],
            run: notifications_silent,
        },
        Case {
            name: "initialized with an id",
            about: "a notifications/initialized that carries an id is a request for an unknown method: it gets an error response",
            rules: &[
                "2025-11-25 basic/index › Notifications",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &[],
            run: initialized_with_id,
        },
        Case {
            name: "second initialize answered",
            about: "a second initialize gets a response with its id (an error is best) and the session keeps working",
            rules: &[
                "course rule: second-initialize-answered",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &[],
            run: second_initialize,
        },
        Case {
            name: "serves what it advertised",
            about: "tools/list is served once initialize is answered, before notifications/initialized too; tools/call runs one; resources/list, not advertised, gets -32601",
            rules: &[
                "2025-11-25 basic/lifecycle › Initialization",
                "2025-11-25 basic/lifecycle › Operation",
            ],
            args: &[],
            run: ready,
        },
        Case {
            name: "exits when stdin closes",
            about: "when the client closes stdin the server exits promptly",
            rules: &["2025-11-25 basic/lifecycle › Shutdown"],
            args: &[],
            run: exits_at_eof,
        },
        Case {
            name: "request ids",
            about: ids::ABOUT,
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &[],
            run: request_ids,
        },
    ],
};

/// Runs the handshake at 2025-11-25: initialize, then initialized.
fn handshake(s: &mut Session) -> Result<Value, Failure> {
    let result = exchange_ok(s, &initialize_request(1, SUPPORTED[0]))?;
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    Ok(result)
}

/// Checks the version an initialize result chose.
fn version_is(result: &Value, requested: &str, expected: &str) -> CaseResult {
    let chosen = result.get("protocolVersion");
    if chosen == Some(&json!(expected)) {
        return Ok(());
    }
    let reason = match chosen.and_then(Value::as_str) {
        None => "the initialize result has no protocolVersion string: the client can't tell which revision the session speaks".to_string(),
        Some(v) if v == requested => format!(
            "the server echoed {requested}, a version it does not implement. Echo only a supported version; otherwise answer with one you support, your newest (2025-11-25 basic/lifecycle › Version Negotiation). A server that echoes anything promises rules it won't keep"
        ),
        Some(v) if requested == expected => format!(
            "the client asked for {requested}, which this server implements, and got {v}. A supported version MUST be echoed (2025-11-25 basic/lifecycle › Version Negotiation); answering your newest regardless turns away clients that can't speak it"
        ),
        Some(v) => format!("the server answered {v}; for a request of {requested} it should offer its newest version, {expected}"),
    };
    Err(Failure::mismatch(
        reason,
        json!({"protocolVersion": expected}),
        json!({"protocolVersion": chosen}),
    ))
}

fn echoes_latest(s: &mut Session) -> CaseResult {
    let result = exchange_ok(s, &initialize_request(1, SUPPORTED[0]))?;
    version_is(&result, SUPPORTED[0], SUPPORTED[0])?;
    let tools = result.pointer("/capabilities/tools");
    if !tools.is_some_and(Value::is_object) {
        return Err(Failure::mismatch(
            "the result's capabilities must advertise `tools` as an object (`\"tools\": {}`): this server offers tools, and a client uses only what was advertised (2025-11-25 basic/lifecycle › Capability Negotiation)",
            json!({"capabilities": {"tools": {}}}),
            json!({"capabilities": result.get("capabilities")}),
        ));
    }
    for other in ["resources", "prompts", "logging", "completions"] {
        if result["capabilities"].get(other).is_some() {
            return Err(Failure::new(format!(
                "the capabilities advertise `{other}`, which this server does not serve. A client that believes it will call {other} methods and get -32601; advertise only what you implement"
            )));
        }
    }
    let info = result.get("serverInfo");
    if !info
        .is_some_and(|i| i.get("name").is_some_and(Value::is_string) && i.get("version").is_some_and(Value::is_string))
    {
        return Err(Failure::mismatch(
            "the result needs serverInfo with a string name and version (InitializeResult, 2025-11-25 schema)",
            json!({"serverInfo": {"name": ANY_STRING, "version": ANY_STRING}}),
            json!({"serverInfo": info}),
        ));
    }
    Ok(())
}

fn echoes_older(s: &mut Session) -> CaseResult {
    let result = exchange_ok(s, &initialize_request(1, SUPPORTED[1]))?;
    version_is(&result, SUPPORTED[1], SUPPORTED[1])
}

fn counter_offer(s: &mut Session, requested: &str) -> CaseResult {
    let response = exchange(s, &initialize_request(1, requested))?;
    match response.get("result") {
        Some(result) => version_is(result, requested, SUPPORTED[0]),
        None => Err(Failure::mismatch(
            format!(
                "initialize at {requested} was refused with an error. An unknown version is not an error: answer with a version you do support, your newest, and let the client decide whether it can speak it (2025-11-25 basic/lifecycle › Version Negotiation)"
            ),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": SUPPORTED[0], "…": "…"}}),
            response,
        )),
    }
}

fn counter_offer_future(s: &mut Session) -> CaseResult {
    counter_offer(s, mcp::FUTURE)
}

fn counter_offer_retired(s: &mut Session) -> CaseResult {
    counter_offer(s, mcp::RETIRED)
}

fn ping_first(s: &mut Session) -> CaseResult {
    let response = exchange(s, &request("p-1", "ping", None))?;
    if response != json!({"jsonrpc": "2.0", "id": "p-1", "result": {}}) {
        return Err(Failure::mismatch(
            "a ping is answered with an empty result in every phase, before initialize too (2025-11-25 basic/utilities/ping; one SDK shipped a server that refused it, rust-sdk#488, and clients that probe with a ping could never connect)",
            json!({"jsonrpc": "2.0", "id": "p-1", "result": {}}),
            response,
        ));
    }
    let result = exchange_ok(s, &initialize_request(1, SUPPORTED[0]))?;
    version_is(&result, SUPPORTED[0], SUPPORTED[0])
}

fn early_request(s: &mut Session) -> CaseResult {
    let result = gate_holds(s, SUPPORTED[0])?;
    version_is(&result, SUPPORTED[0], SUPPORTED[0])
}

/// Sends `notifications`, then a ping; the first thing back must be the
/// ping's response. Whatever comes before it answered a notification.
fn silent_to(s: &mut Session, notifications: &[Value]) -> CaseResult {
    for n in notifications {
        s.send_json(n)?;
    }
    let sentinel = json!("after-notifications");
    s.send_json(&request(sentinel.clone(), "ping", None))?;
    loop {
        let Some(got) = next(s)? else { return Ok(()) };
        match classify(&got.value) {
            Kind::Success { id } | Kind::Error { id: Some(id), .. } if id.to_value() == sentinel => return Ok(()),
            Kind::Notification { .. } => continue,
            _ => {
                return Err(Failure::showing(
                    "the server answered a notification. Nobody waits for an answer to a notification, and the receiver MUST NOT reply, not even with an error (2025-11-25 basic/index › Notifications). A frame without an id gets no response",
                    got.value,
                ));
            }
        }
    }
}

fn notifications_silent(s: &mut Session) -> CaseResult {
    exchange_ok(s, &initialize_request(1, SUPPORTED[0]))?;
    // Blank lines carry no message: a server skips them and reads on.
    s.send("")?;
    s.send("   ")?;
    silent_to(
        s,
        &[
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            // initialize MUST NOT be cancelled; a receiver ignores it.
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "changed my mind"}}),
            json!({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}),
        ],
    )?;
    let result = exchange_ok(s, &request(2, "tools/list", None))?;
    tools_listed(&result)
}

fn initialized_with_id(s: &mut Session) -> CaseResult {
    exchange_ok(s, &initialize_request(1, SUPPORTED[0]))?;
    let with_id = request(2, "notifications/initialized", None);
    exchange_err(
        s,
        &with_id,
        "this frame carries an id, so it is a request, for a method no server implements: answer it with an error (-32601). A server that takes it for the notification, or ignores it, leaves the client waiting (clients that added an id broke spec-compliant servers)",
    )
    .map_err(|f| match f.reason.starts_with("no response") {
        true => Failure {
            reason: format!("no response to {with_id}. It carries an id, so it is a request, not the initialized notification, whatever its method says: answer it with an error (-32601 Method not found). Silence leaves the client waiting for id 2"),
            ..f
        },
        false => f,
    })?;
    Ok(())
}

fn second_initialize(s: &mut Session) -> CaseResult {
    handshake(s)?;
    let response = exchange(s, &initialize_request(2, SUPPORTED[1]))?;
    if let Some(result) = response.get("result") {
        // Answering again is what some SDKs do; re-negotiating is the bug.
        if result.get("protocolVersion") != Some(&json!(SUPPORTED[0])) {
            return Err(Failure::mismatch(
                "the second initialize re-negotiated the session to another version while the client's first session goes on. Refuse it with an error (-32600, as several SDKs do) and keep the first negotiation",
                json!({"jsonrpc": "2.0", "id": 2, "error": {"code": ANY_INTEGER, "message": ANY_STRING}}),
                response,
            ));
        }
    }
    let result = exchange_ok(s, &request(3, "tools/list", None)).map_err(|f| Failure {
        reason: format!("after a second initialize the session must keep working: {}", f.reason),
        ..f
    })?;
    tools_listed(&result)
}

/// Checks a tools/list result: a non-empty list of tools with a name and an
/// object input schema each.
fn tools_listed(result: &Value) -> CaseResult {
    let tools = result.get("tools").and_then(Value::as_array);
    let ok = tools.is_some_and(|t| {
        !t.is_empty()
            && t.iter().all(|tool| {
                tool.get("name").is_some_and(Value::is_string)
                    && tool.pointer("/inputSchema/type") == Some(&json!("object"))
            })
    });
    if ok {
        Ok(())
    } else {
        Err(Failure::mismatch(
            "tools/list must return the server's tools: an array of objects with a name and an inputSchema of type object",
            json!({"tools": [{"name": ANY_STRING, "inputSchema": {"type": "object", "…": "…"}, "…": "…"}]}),
            result.clone(),
        ))
    }
}

fn ready(s: &mut Session) -> CaseResult {
    exchange_ok(s, &initialize_request(1, SUPPORTED[0]))?;
    // Between the initialize response and `initialized` (the server's
    // AwaitingInitialized phase) a request is the client's right: its limit
    // ends with the response, and no rule lets the server refuse.
    let response = exchange(s, &request(2, "tools/list", None))?;
    if response.get("result").is_none() {
        return Err(Failure::mismatch(
            "tools/list, sent after the initialize response but before notifications/initialized, was refused. The client's limit ends with the response: \"The client SHOULD NOT send requests other than pings before the server has responded to the initialize request\" (2025-11-25 basic/lifecycle › Initialization), and no rule lets a server refuse a request after it: in the AwaitingInitialized phase, serve requests as in Ready",
            json!({"jsonrpc": "2.0", "id": 2, "result": "…"}),
            response,
        ));
    }
    tools_listed(&response["result"])?;
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    let result = exchange_ok(
        s,
        &request(
            3,
            "tools/call",
            Some(json!({"name": "echo", "arguments": {"text": "hello"}})),
        ),
    )?;
    if result.pointer("/content/0/text") != Some(&json!("hello")) {
        return Err(Failure::mismatch(
            "tools/call of echo returns the text in a text content block",
            json!({"content": [{"type": "text", "text": "hello"}]}),
            result,
        ));
    }
    let error = exchange_err(
        s,
        &request(4, "resources/list", None),
        "resources/list must fail: this server did not advertise `resources`, so the method does not exist here",
    )?;
    if error.get("code") != Some(&json!(-32601)) {
        return Err(Failure::mismatch(
            "a method behind a capability the server did not advertise is an unknown method here: -32601 (Method not found)",
            json!({"code": -32601, "message": ANY_STRING}),
            error,
        ));
    }
    Ok(())
}

fn exits_at_eof(s: &mut Session) -> CaseResult {
    handshake(s)?;
    exchange_ok(s, &request(2, "tools/list", None))?;
    s.close_stdin();
    let within = Duration::from_millis(1000);
    if s.exited_within(within).is_some() {
        return Ok(());
    }
    Err(Failure::new(format!(
        "the server was still running {:.1} s after its stdin closed. On stdio, closing stdin is how the client ends the session (2025-11-25 basic/lifecycle › Shutdown); read_line returning Ok(0) means end of input: leave the loop there",
        within.as_secs_f64()
    ))
    .within(within))
}

fn request_ids(s: &mut Session) -> CaseResult {
    exchange_ok(s, &initialize_request("ids-1", SUPPORTED[0]))?;
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    ids_kept(s, &|id| request_line(id, "tools/list", None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_echo_of_an_unsupported_version_is_named_as_such() {
        let f = version_is(&json!({"protocolVersion": mcp::FUTURE}), mcp::FUTURE, mcp::LEGACY).unwrap_err();
        assert!(
            f.reason
                .starts_with("the server echoed 2099-01-01, a version it does not implement"),
            "{}",
            f.reason
        );
        let f = version_is(
            &json!({"protocolVersion": mcp::LEGACY}),
            mcp::PREVIOUS_LEGACY,
            mcp::PREVIOUS_LEGACY,
        )
        .unwrap_err();
        assert!(
            f.reason
                .starts_with("the client asked for 2025-06-18, which this server implements, and got 2025-11-25"),
            "{}",
            f.reason
        );
        assert!(version_is(&json!({"protocolVersion": mcp::LEGACY}), mcp::FUTURE, mcp::LEGACY).is_ok());
    }
}

//! Checker for exercise 04-era-probe: the learner's program is a dual-era
//! client; the checker plays the server it launches, modern or legacy.
//!
//! Expected behaviour comes from MCP 2026-07-28 basic/versioning and
//! basic/transports/stdio › Backward Compatibility (probe with
//! `server/discover`; a recognised modern error such as -32022 means a
//! modern server: retry with a mutual version, never fall back; any other
//! error or silence means legacy), 2026-07-28 basic/index › _meta (protocol
//! version and client capabilities on every modern request) and 2025-11-25
//! basic/lifecycle (initialize, then initialized without an id; the client
//! disconnects when it can't speak the server's counter-offer). Mistakes it
//! catches: keying the fallback on one error code, falling back on -32022,
//! waiting forever for a silent legacy server, reusing the probe's id for
//! initialize, C06 (initialized with an id), C14 on the client side (never
//! checking the negotiated version), modern `_meta` missing in the modern
//! era or sent in the legacy one, and a malformed answer taken for one.
//!
//! Rules → case:
//! - 2026-07-28 basic/index › _meta: required fields "MUST be included on
//!   every request" → probe first, modern server: stay modern, -32022: retry
//!   at shared, slow modern server.
//! - 2026-07-28 stdio › Backward Compatibility: "Do not fall back to
//!   initialize" on a recognised modern error → -32022: retry at shared,
//!   -32022: nothing shared, slow modern server, -32021: modern, no
//!   fallback; "The fallback MUST NOT be
//!   keyed to one specific error code" → -32601 / -32602 / any other error:
//!   fall back; silence → silence: fall back in time.
//! - 2025-11-25 basic/lifecycle › Initialization: "The client MUST initiate
//!   this phase by sending an initialize request containing" a supported
//!   version, capabilities and client info → every fallback case; "the
//!   client MUST send an initialized notification" → the same, and
//!   log before the result; "The initialization phase MUST be the first
//!   interaction" (after the probe) → a tools/list before initialize fails
//!   every fallback case.
//! - 2025-11-25 basic/lifecycle › Version Negotiation: "the client MUST send
//!   a protocol version it supports" → -32022: legacy version; "Both parties
//!   MUST respect the negotiated protocol version" → counter-offer accepted;
//!   the client SHOULD disconnect on a version it can't speak → counter-offer
//!   refused.
//! - 2025-11-25 basic/index › Requests: an id is never reused → the reuse
//!   checks in every case that sends two requests.
//! - 2025-11-25 basic/index › Notifications: "Notifications MUST NOT include
//!   an ID" → initialized with an id fails every fallback case.
//! - 2026-07-28 basic/index › Error Codes: -32020 to -32099 "defined
//!   exclusively by the MCP specification" → -32021: modern, no fallback;
//!   course rule: other-modern-error-stops (a modern code other than
//!   -32022 ends `connect` with an error naming it) → the same.
//! - course rule: listed-legacy-retry (a -32022 that shares only a legacy
//!   version: `initialize` at it is the retry, Part 2 › The probe on
//!   stdio) → -32022: legacy version; course rule: reprobe-after-32022 (a
//!   -32022 in answer to `initialize` is modern evidence, Part 2 › Rules
//!   that keep the probe honest) → slow modern server.
//! - JSON-RPC 2.0 §5 and 2025-11-25 / 2026-07-28 basic/index › Responses (one
//!   of result and error, jsonrpc "2.0", the request's id, an integer code and
//!   a message) → malformed reply: not modern, malformed reply: not legacy;
//!   a second answer to the probe is not initialize's → malformed answer: not
//!   modern.
//!
//! Not tested here, with the reason: 2026-07-28 stdio "The client MUST NOT
//! write JSON-RPC responses" (a modern server sends no requests on stdio, so
//! there is nothing to answer; a legacy server's ping is answered, as
//! 2025-11-25 asks); "Clients MUST correlate" subscription notifications (no
//! subscription here; 08 covers it); UTF-8 and one line per message (the
//! harness does the framing; 05 covers it).

mod legacy;
mod malformed;

use std::time::Duration;

use serde_json::{Value, json};

use crate::check::session::Session;
use crate::check::toolkit::as_server::{frame, report_or, respond, respond_error};
use crate::check::toolkit::compare::same;
use crate::check::toolkit::harness::{harness_kind, panic_failure};
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;
use crate::mcp::meta::{
    CLIENT_CAPABILITIES as META_CAPABILITIES, CLIENT_INFO as META_CLIENT_INFO, PROTOCOL_VERSION as META_VERSION,
    SERVER_INFO,
};
use legacy::{
    counter_offer_accepted, counter_offer_refused, fallback_invalid_params, fallback_method_not_found,
    fallback_other_error, log_before_result, other_modern_error, silence, slow_modern, unsupported_but_legacy,
};

/// The checker named `era-probe`.
pub static CHECKER: Checker = Checker {
    name: "era-probe",
    shape: Shape::Client,
    schema: true,
    cases: &[
        Case {
            name: "probe first",
            about: "the first frame is a server/discover request carrying the modern _meta: protocol version, client capabilities and client info",
            rules: &[
                "2026-07-28 basic/transports/stdio › Backward Compatibility",
                "2026-07-28 basic/index › _meta",
            ],
            args: &[],
            run: probe_first,
        },
        Case {
            name: "modern server: stay modern",
            about: "after a DiscoverResult, later requests carry the modern _meta and no initialize is sent; the era, version and capabilities are reported",
            rules: &[
                "2026-07-28 basic/transports/stdio › Backward Compatibility",
                "2026-07-28 basic/index › _meta",
                "2025-11-25 basic/index › Requests",
            ],
            args: &[],
            run: modern_server,
        },
        Case {
            name: "-32022: retry at shared",
            about: "an UnsupportedProtocolVersionError means a modern server: retry with the newest version both sides know, never fall back",
            rules: &[
                "2026-07-28 basic/transports/stdio › Backward Compatibility",
                "2026-07-28 basic/versioning › Protocol Version Negotiation",
            ],
            args: &["--modern-versions", "2027-03-01,2026-07-28"],
            run: retry_shared,
        },
        Case {
            name: "-32022: nothing shared",
            about: "when the server supports no modern version the client knows, the client stops with an incompatibility error and sends no initialize",
            rules: &[
                "2026-07-28 basic/transports/stdio › Backward Compatibility",
                "2026-07-28 basic/versioning › Protocol Version Negotiation",
            ],
            args: &[],
            run: nothing_shared,
        },
        Case {
            name: "-32021: modern, no fallback",
            about: "any code from -32020 to -32099 is a modern error: a probe refused with -32021 gets no initialize, and connect returns ConnectError::Protocol naming the code",
            rules: &[
                "2026-07-28 basic/transports/stdio › Backward Compatibility",
                "2026-07-28 basic/index › Error Codes",
                "course rule: other-modern-error-stops",
            ],
            args: &[],
            run: other_modern_error,
        },
        Case {
            name: "-32022: legacy version",
            about: "a dual-era server that lists only 2025-11-25 as shared gets initialize at that version: the retry, in the legacy era",
            rules: &[
                "course rule: listed-legacy-retry",
                "2025-11-25 basic/lifecycle › Initialization",
            ],
            args: &[],
            run: unsupported_but_legacy,
        },
        Case {
            name: "-32601: fall back",
            about: "a Method not found answer means a legacy server: initialize with a fresh id, then notifications/initialized, then requests without modern _meta",
            rules: &[
                "2026-07-28 basic/transports/stdio › Backward Compatibility",
                "2025-11-25 basic/lifecycle › Initialization",
                "2025-11-25 basic/index › Notifications",
            ],
            args: &[],
            run: fallback_method_not_found,
        },
        Case {
            name: "-32602: fall back",
            about: "an Invalid params answer also means legacy: the fallback is not keyed to one error code",
            rules: &[
                "2026-07-28 basic/transports/stdio › Backward Compatibility",
                "2025-11-25 basic/lifecycle › Initialization",
            ],
            args: &[],
            run: fallback_invalid_params,
        },
        Case {
            name: "any other error: fall back",
            about: "an implementation-defined error (-32000) means legacy as well",
            rules: &[
                "2026-07-28 basic/transports/stdio › Backward Compatibility",
                "2025-11-25 basic/lifecycle › Initialization",
            ],
            args: &[],
            run: fallback_other_error,
        },
        Case {
            name: "malformed reply: not modern",
            about: "answers to the probe that carry a result but break the response rules (both members, a wrong or missing jsonrpc, an id of a forbidden type) are skipped: the -32601 after them means legacy, and a second answer to the probe is not initialize's",
            rules: &["2025-11-25 basic/index › Responses"],
            args: &[],
            run: malformed::not_modern,
        },
        Case {
            name: "malformed reply: not legacy",
            about: "answers to the probe that are error-ish but break the response rules (both members, neither, an error without an integer code or a string message) are skipped: the DiscoverResult after them means modern",
            rules: &["2025-11-25 basic/index › Responses"],
            args: &[],
            run: malformed::not_legacy,
        },
        Case {
            name: "log before the result",
            about: "a log notification that arrives before the initialize result is skipped, not taken for the result",
            rules: &[
                "2025-11-25 basic/index › Notifications",
                "2025-11-25 basic/lifecycle › Initialization",
            ],
            args: &[],
            run: log_before_result,
        },
        Case {
            name: "counter-offer accepted",
            about: "a legacy server that answers initialize with 2025-06-18, which the client speaks, gets a session at 2025-06-18",
            rules: &["2025-11-25 basic/lifecycle › Version Negotiation"],
            args: &[],
            run: counter_offer_accepted,
        },
        Case {
            name: "counter-offer refused",
            about: "a legacy server that answers with a version the client does not speak gets no initialized: the client disconnects with an incompatibility error",
            rules: &["2025-11-25 basic/lifecycle › Version Negotiation"],
            args: &[],
            run: counter_offer_refused,
        },
        Case {
            name: "silence: fall back in time",
            about: "a server that never answers the probe is legacy: after the probe timeout (300 ms here) the client falls back to initialize",
            rules: &["2026-07-28 basic/transports/stdio › Backward Compatibility"],
            args: &["--probe-timeout-ms", "300"],
            run: silence,
        },
        Case {
            name: "slow modern server",
            about: "a modern server that answers the probe late and refuses initialize with -32022 is modern after all: probe again and stay modern",
            rules: &[
                "course rule: reprobe-after-32022",
                "2026-07-28 basic/transports/stdio › Backward Compatibility",
            ],
            args: &["--probe-timeout-ms", "300"],
            run: slow_modern,
        },
    ],
};

fn server_info() -> Value {
    mcp::checker_info()
}

fn discover_result(versions: &[&str]) -> Value {
    json!({
        "resultType": "complete",
        "supportedVersions": versions,
        "capabilities": {"tools": {"listChanged": true}},
        "ttlMs": 0,
        "cacheScope": "private",
        "_meta": {SERVER_INFO: server_info()}
    })
}

fn tools() -> Value {
    json!([{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}])
}

fn initialize_result(version: &str) -> Value {
    json!({"protocolVersion": version, "capabilities": {"tools": {}, "logging": {}}, "serverInfo": server_info()})
}

/// The request's `params._meta`, or null.
fn meta(frame: &Value) -> &Value {
    frame.pointer("/params/_meta").unwrap_or(&Value::Null)
}

/// Checks that `frame` is a request for `method`; returns its id.
fn request_for(frame: &Value, method: &str, why: &str) -> Result<Value, Failure> {
    match classify(frame) {
        Kind::Request { id, method: m } if m == method => Ok(id.to_value()),
        Kind::Request { method: m, .. } => Err(Failure::showing(
            format!("the client sent `{m}` where {why}"),
            frame.clone(),
        )),
        Kind::Invalid { reason } => Err(Failure::showing(
            format!("the client sent a frame that is not a valid request ({reason}) where {why}"),
            frame.clone(),
        )),
        other => Err(Failure::showing(
            format!("the client sent a {} where {why}", other.name()),
            frame.clone(),
        )),
    }
}

/// Checks the modern request `_meta`: the protocol version `version`,
/// client capabilities and client info.
fn modern_meta(frame: &Value, version: &str, what: &str) -> CaseResult {
    let meta = meta(frame);
    let version_ok = meta.get(META_VERSION) == Some(&json!(version));
    let capabilities_ok = meta.get(META_CAPABILITIES).is_some_and(Value::is_object);
    let info_ok = meta
        .get(META_CLIENT_INFO)
        .is_some_and(|i| i.get("name").is_some_and(Value::is_string) && i.get("version").is_some_and(Value::is_string));
    if version_ok && capabilities_ok && info_ok {
        return Ok(());
    }
    let missing = if !version_ok {
        format!("`{META_VERSION}` must be \"{version}\"")
    } else if !capabilities_ok {
        format!(
            "`{META_CAPABILITIES}` is required, an object (`{{}}` when the client offers nothing optional); without it a modern server answers -32602"
        )
    } else {
        format!("`{META_CLIENT_INFO}` should name the client (`name` and `version` strings) on every request")
    };
    Err(Failure::mismatch(
        format!("{what} needs the modern `params._meta` (2026-07-28 basic/index › _meta): {missing}"),
        json!({META_VERSION: version, META_CAPABILITIES: {}, META_CLIENT_INFO: {"name": "…", "version": "…"}}),
        meta.clone(),
    ))
}

/// Reads the probe and checks it; returns its id.
fn probe(s: &mut Session, version: &str) -> Result<Value, Failure> {
    let first = frame(s, "the server/discover probe")?;
    if first.get("method") == Some(&json!("initialize")) {
        return Err(Failure::showing(
            "the client opened with initialize. A dual-era client on stdio probes with server/discover first, and initialize is only the fallback for a legacy server (2026-07-28 basic/versioning › Backward Compatibility)",
            first,
        ));
    }
    let id = request_for(
        &first,
        "server/discover",
        "the first frame should be the server/discover probe",
    )?;
    modern_meta(&first, version, "the probe")?;
    Ok(id)
}

/// Reads the client's modern tools/list, checks it, answers it, and checks
/// the report. `earlier` are the ids used before.
fn modern_tools_list(s: &mut Session, version: &str, earlier: &[Value]) -> CaseResult {
    let next = frame(s, "a tools/list request")?;
    if next.get("method") == Some(&json!("initialize")) {
        return Err(Failure::showing(
            "the server answered the probe as a modern server, yet the client sent initialize. A modern server has no handshake; stay modern and cache the era",
            next,
        ));
    }
    let id = request_for(&next, "tools/list", "Connection::request(\"tools/list\", None) was due")?;
    if earlier.contains(&id) {
        return Err(Failure::new(format!(
            "tools/list reuses id {id}, already used for the probe: every request gets a fresh id"
        )));
    }
    modern_meta(&next, version, "every modern request, tools/list too,")?;
    respond(
        s,
        &id,
        json!({"resultType": "complete", "tools": tools(), "ttlMs": 0, "cacheScope": "private", "_meta": {SERVER_INFO: server_info()}}),
    )?;
    let got = report_or(
        s,
        "the client printed no report: it should finish once its tools/list is answered",
    )?;
    same(
        json!({"harness": "connected", "era": "modern", "version": version, "serverCapabilities": discover_result(&[]).get("capabilities"), "serverInfo": server_info(), "tools": tools()}),
        &got,
        "the connection should report the modern era, the version in use, and the capabilities and serverInfo from the DiscoverResult",
    )
}

fn probe_first(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    respond(s, &id, discover_result(&[mcp::MODERN]))
}

fn modern_server(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    respond(s, &id, discover_result(&[mcp::MODERN]))?;
    modern_tools_list(s, mcp::MODERN, &[id])
}

fn retry_shared(s: &mut Session) -> CaseResult {
    let first = probe(s, mcp::NEXT).map_err(|f| Failure {
        reason: format!("{} (this case starts the client with --modern-versions 2027-03-01,2026-07-28: probe with the first, the newest)", f.reason),
        ..f
    })?;
    respond_error(
        s,
        &first,
        json!({"code": -32022, "message": "Unsupported protocol version", "data": {"supported": [mcp::MODERN, mcp::LEGACY], "requested": mcp::NEXT}}),
    )?;
    let retry = frame(s, "a retry of server/discover at 2026-07-28")?;
    if retry.get("method") == Some(&json!("initialize")) {
        return Err(Failure::showing(
            "-32022 is a modern error: only a modern server sends it, so the client must not fall back to initialize. Retry with the newest version in error.data.supported that the client also knows, here 2026-07-28 (2026-07-28 basic/versioning › Backward Compatibility)",
            retry,
        ));
    }
    let second = request_for(&retry, "server/discover", "the probe should be retried at 2026-07-28")?;
    if second == first {
        return Err(Failure::new(format!(
            "the retry reuses the probe's id {first}: every request gets a fresh id"
        )));
    }
    modern_meta(&retry, mcp::MODERN, "the retried probe")?;
    respond(s, &second, discover_result(&[mcp::MODERN]))?;
    modern_tools_list(s, mcp::MODERN, &[first, second])
}

fn nothing_shared(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    respond_error(
        s,
        &id,
        json!({"code": -32022, "message": "Unsupported protocol version", "data": {"supported": [mcp::NEXT], "requested": mcp::MODERN}}),
    )?;
    let got = incompatible(
        s,
        |sent| match sent.get("method") == Some(&json!("initialize")) {
            true => {
                "the client fell back to initialize after -32022. That error proves the server is modern, and a modern server has no initialize; with no version in common, stop and say so"
            }
            false => {
                "the server shares no version with this client (it supports only 2027-03-01), so nothing more should be sent: stop with an incompatibility error"
            }
        },
        mcp::NEXT,
        "with no version in common, connect returns ConnectError::Incompatible listing what the server offered",
        "the client neither sent anything nor reported: after a -32022 with no shared version, connect should return ConnectError::Incompatible",
    )?;
    same(
        json!([mcp::NEXT]),
        &got["offered"],
        "ConnectError::Incompatible should carry the versions the server offered, so the user can see them",
    )
}

/// After an answer that leaves no version in common, the client sends
/// nothing more and reports `ConnectError::Incompatible` (its report is
/// returned). `sent` explains a frame it sent anyway; `offered` is the
/// version the failure shows; `why` explains another report, `silent` none.
fn incompatible(
    s: &mut Session,
    sent: impl FnOnce(&Value) -> &'static str,
    offered: &str,
    why: &str,
    silent: &str,
) -> Result<Value, Failure> {
    let got = s.recv_output(s.slack(Duration::from_secs(2)))?;
    if let Some(frame) = s.recv_within(Duration::from_millis(100))? {
        let reason = sent(&frame.value);
        return Err(Failure::showing(reason, frame.value));
    }
    match got {
        Some(r) if harness_kind(&r.value) == Some("panic") => Err(panic_failure(&r.value)),
        Some(r) if r.value["incompatible"] == json!(true) => Ok(r.value),
        Some(r) => Err(Failure::mismatch(
            why,
            json!({"harness": "failed", "error": "…", "incompatible": true, "offered": [offered]}),
            r.value,
        )),
        None => Err(Failure::new(silent)),
    }
}

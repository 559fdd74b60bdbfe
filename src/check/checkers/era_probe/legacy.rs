//! The probe's fallback: a server that answers the probe as a legacy one
//! gets `initialize` (with a fresh id), `notifications/initialized`, and
//! requests without the modern `_meta`; the counter-offer cases; and a
//! modern error other than -32022, which gets no fallback.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{
    discover_result, incompatible, initialize_result, meta, modern_meta, modern_tools_list, probe, request_for,
    server_info, tools,
};
use crate::check::session::Session;
use crate::check::toolkit::as_server::{frame, frame_or, report_or, respond, respond_error};
use crate::check::toolkit::compare::same;
use crate::check::toolkit::harness::{harness_kind, panic_failure};
use crate::check::toolkit::{CaseResult, Failure};
use crate::jsonrpc::{Kind, classify};
use crate::mcp;
use crate::mcp::meta::{
    CLIENT_CAPABILITIES as META_CAPABILITIES, CLIENT_INFO as META_CLIENT_INFO, PROTOCOL_VERSION as META_VERSION,
};

/// Reads the fallback `initialize` and checks it; returns its id.
pub(super) fn fallback_initialize(s: &mut Session, after: &str, probe_id: &Value) -> Result<Value, Failure> {
    initialize_at(s, after, probe_id, mcp::LEGACY)
}

/// Reads an `initialize` at `version` and checks it; returns its id.
pub(super) fn initialize_at(s: &mut Session, after: &str, probe_id: &Value, version: &str) -> Result<Value, Failure> {
    let next = frame_or(s, "the fallback to initialize", |reason| {
        format!(
            "{reason}: {after} the server is legacy (only a modern error, -32020 to -32099, or a DiscoverResult would mean modern)"
        )
    })?;
    check_initialize(next, after, probe_id, version)
}

/// Checks that `next` is the fallback `initialize` at `version`; returns
/// its id.
pub(super) fn check_initialize(next: Value, after: &str, probe_id: &Value, version: &str) -> Result<Value, Failure> {
    if next.get("method") == Some(&json!("server/discover")) {
        return Err(Failure::showing(
            format!(
                "{after} the client probed again. Only -32022 (or another recognised modern error) means a modern server; any other answer means legacy: fall back to initialize"
            ),
            next,
        ));
    }
    if next.get("method") == Some(&json!("tools/list")) {
        return Err(Failure::showing(
            format!(
                "{after} the client went on with tools/list. The server is legacy: it needs the initialize handshake before anything else"
            ),
            next,
        ));
    }
    let id = request_for(
        &next,
        "initialize",
        &format!("{after} the fallback to initialize was due"),
    )?;
    if &id == probe_id {
        return Err(Failure::new(format!(
            "initialize reuses the probe's id {id}. If the legacy server answers the probe late, that answer would be taken for the initialize result: give initialize a fresh id"
        )));
    }
    let params = &next["params"];
    if params.get("protocolVersion") != Some(&json!(version))
        || !params.get("capabilities").is_some_and(Value::is_object)
        || !params.get("clientInfo").is_some_and(Value::is_object)
    {
        return Err(Failure::mismatch(
            format!(
                "initialize needs params with protocolVersion {version} (the client's newest legacy version that the server can speak), the client's capabilities and its clientInfo (InitializeRequest, 2025-11-25 basic/lifecycle › Initialization)"
            ),
            json!({"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "…", "version": "…"}}),
            params.clone(),
        ));
    }
    Ok(id)
}

/// Reads `notifications/initialized` and checks it.
pub(super) fn initialized(s: &mut Session) -> CaseResult {
    let next = frame(s, "notifications/initialized")?;
    match classify(&next) {
        Kind::Notification { method } if method == "notifications/initialized" => Ok(()),
        Kind::Request { method, .. } if method == "notifications/initialized" => Err(Failure::mismatch(
            "notifications/initialized carries an id, which makes it a request for a method no server has. A notification has no id member (2025-11-25 basic/index › Notifications)",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            next,
        )),
        _ => Err(Failure::mismatch(
            "after the initialize result the client MUST send notifications/initialized before anything else (2025-11-25 basic/lifecycle › Initialization)",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            next,
        )),
    }
}

/// Reads the client's legacy tools/list, checks it, answers it, and checks
/// the report.
pub(super) fn legacy_tools_list(s: &mut Session, version: &str) -> CaseResult {
    let next = frame(s, "a tools/list request")?;
    let id = request_for(&next, "tools/list", "Connection::request(\"tools/list\", None) was due")?;
    let meta = meta(&next);
    if [META_VERSION, META_CAPABILITIES, META_CLIENT_INFO]
        .iter()
        .any(|k| meta.get(k).is_some())
    {
        return Err(Failure::mismatch(
            "the session is legacy, so requests carry no modern _meta: the version and capabilities were settled by initialize, and a legacy server doesn't read these fields",
            json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}),
            next,
        ));
    }
    respond(s, &id, json!({"tools": tools()}))?;
    let got = report_or(
        s,
        "the client printed no report: it should finish once its tools/list is answered",
    )?;
    same(
        json!({"harness": "connected", "era": "legacy", "version": version, "serverCapabilities": initialize_result(version)["capabilities"], "serverInfo": server_info(), "tools": tools()}),
        &got,
        "the connection should report the legacy era, the version the server chose, and the capabilities and serverInfo from the initialize result",
    )
}

/// A full fallback after the probe is answered with `probe_error`.
pub(super) fn fallback(s: &mut Session, probe_error: Value, after: &str) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    respond_error(s, &id, probe_error)?;
    let init = fallback_initialize(s, after, &id)?;
    respond(s, &init, initialize_result(mcp::LEGACY))?;
    initialized(s)?;
    legacy_tools_list(s, mcp::LEGACY)
}

pub(super) fn fallback_method_not_found(s: &mut Session) -> CaseResult {
    fallback(
        s,
        json!({"code": -32601, "message": "Method not found"}),
        "after -32601 (how most legacy servers answer an unknown method)",
    )
}

pub(super) fn fallback_invalid_params(s: &mut Session) -> CaseResult {
    fallback(
        s,
        json!({"code": -32602, "message": "Invalid request parameters"}),
        "after -32602 (how the Python SDK's legacy servers answer a request before initialize)",
    )
}

pub(super) fn fallback_other_error(s: &mut Session) -> CaseResult {
    fallback(
        s,
        json!({"code": -32000, "message": "Server not initialized"}),
        "after -32000 (an implementation-defined error)",
    )
}

pub(super) fn log_before_result(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    respond_error(s, &id, json!({"code": -32601, "message": "Method not found"}))?;
    let init = fallback_initialize(s, "after -32601", &id)?;
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "warming up"}}))?;
    respond(s, &init, initialize_result(mcp::LEGACY))?;
    initialized(s).map_err(|f| Failure { reason: format!("{} (a log notification arrived before the initialize result: skip it and keep waiting for the response with initialize's id)", f.reason), ..f })?;
    legacy_tools_list(s, mcp::LEGACY)
}

pub(super) fn counter_offer_accepted(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    respond_error(s, &id, json!({"code": -32601, "message": "Method not found"}))?;
    let init = fallback_initialize(s, "after -32601", &id)?;
    respond(s, &init, initialize_result(mcp::PREVIOUS_LEGACY))?;
    initialized(s)?;
    legacy_tools_list(s, mcp::PREVIOUS_LEGACY)
}

pub(super) fn counter_offer_refused(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    respond_error(s, &id, json!({"code": -32601, "message": "Method not found"}))?;
    let init = fallback_initialize(s, "after -32601", &id)?;
    respond(s, &init, initialize_result(mcp::RETIRED))?;
    incompatible(
        s,
        |_| "the server answered initialize with 2024-11-05, which this client does not speak (its LEGACY_VERSIONS), yet the client went on. It should disconnect: no initialized, no requests (2025-11-25 basic/lifecycle › Version Negotiation)",
        mcp::RETIRED,
        "a counter-offer the client can't speak ends the connection with ConnectError::Incompatible",
        "the client neither sent anything nor reported after an unusable counter-offer: connect should return ConnectError::Incompatible",
    )?;
    Ok(())
}

pub(super) fn silence(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    let probed = Instant::now();
    let init = fallback_initialize(s, "after 300 ms without an answer", &id)?;
    let waited = probed.elapsed();
    if waited < s.slack(Duration::from_millis(200)) {
        return Err(Failure::new(format!(
            "initialize came {} ms after the probe, before its timeout, 300 ms here. Wait for the probe's answer until config.probe_timeout; a client that doesn't wait speaks both eras at once",
            waited.as_millis()
        ))
        .within(Duration::from_millis(300)));
    }
    respond(s, &init, initialize_result(mcp::LEGACY))?;
    initialized(s)?;
    legacy_tools_list(s, mcp::LEGACY)
}

pub(super) fn unsupported_but_legacy(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    respond_error(
        s,
        &id,
        json!({"code": -32022, "message": "Unsupported protocol version", "data": {"supported": [mcp::LEGACY], "requested": mcp::MODERN}}),
    )?;
    let got = s.recv_within(s.slack(Duration::from_millis(1500)))?;
    let Some(got) = got else {
        let report = s.recv_output(s.slack(Duration::from_millis(200)))?.map(|r| r.value);
        let rule = "the server lists 2025-11-25, which this client speaks: it is a dual-era server, and initialize at 2025-11-25 is the retry the -32022 asks for (\"retry with a supported version\", 2026-07-28 basic/versioning › Backward Compatibility)";
        let reason = match &report {
            Some(r) if harness_kind(r) == Some("panic") => return Err(panic_failure(r)),
            Some(r) if r["incompatible"] == json!(true) => format!(
                "the client gave up as incompatible, but {rule}. Incompatible is only for a list with nothing in common"
            ),
            Some(r) if harness_kind(r) == Some("failed") => format!(
                "the client gave up (`{}`), but {rule}",
                r["error"].as_str().unwrap_or("?")
            ),
            _ => format!("the client sent nothing more, but {rule}"),
        };
        return Err(Failure {
            actual: report,
            ..Failure::new(reason)
        });
    };
    // Put the frame back in the flow the other cases read.
    let init = match classify(&got.value) {
        Kind::Request { id: init, method } if method == "initialize" => {
            if got.value.pointer("/params/protocolVersion") != Some(&json!(mcp::LEGACY)) {
                return Err(Failure::mismatch(
                    "initialize should ask for 2025-11-25, the version the server listed",
                    json!({"protocolVersion": mcp::LEGACY}),
                    got.value["params"].clone(),
                ));
            }
            init.to_value()
        }
        _ => {
            return Err(Failure::showing(
                "after a -32022 that lists only 2025-11-25, the next frame should be initialize at 2025-11-25",
                got.value,
            ));
        }
    };
    if init == id {
        return Err(Failure::new(format!(
            "initialize reuses the probe's id {id}: give it a fresh id"
        )));
    }
    respond(s, &init, initialize_result(mcp::LEGACY))?;
    initialized(s)?;
    legacy_tools_list(s, mcp::LEGACY)
}

pub(super) fn slow_modern(s: &mut Session) -> CaseResult {
    let probe_id = probe(s, mcp::MODERN)?;
    let init = fallback_initialize(s, "after 300 ms without an answer", &probe_id)?;
    // The modern server answers the probe late, then refuses initialize.
    respond(s, &probe_id, discover_result(&[mcp::MODERN]))?;
    respond_error(
        s,
        &init,
        json!({"code": -32022, "message": "Unsupported protocol version", "data": {"supported": [mcp::MODERN], "requested": mcp::LEGACY}}),
    )?;
    let next = frame(s, "a new probe at 2026-07-28")?;
    match next.get("method").and_then(Value::as_str) {
        Some("server/discover") => {
            let again = request_for(&next, "server/discover", "a new probe was due")?;
            if again == probe_id || again == init {
                return Err(Failure::new(format!(
                    "the new probe reuses id {again}: every request gets a fresh id"
                )));
            }
            modern_meta(&next, mcp::MODERN, "the new probe")?;
            respond(s, &again, discover_result(&[mcp::MODERN]))?;
            modern_tools_list(s, mcp::MODERN, &[probe_id, init, again])
        }
        Some("notifications/initialized") => Err(Failure::showing(
            "initialize failed with -32022, yet the client sent initialized: there is no session to confirm. -32022 is a modern error: the server is modern after all (it was slow to answer the probe), so probe again",
            next,
        )),
        _ => Err(Failure::showing(
            "initialize was refused with -32022, a modern error: the server is modern after all, only slow to answer the probe. Probe again with server/discover at a version from error.data.supported, once",
            next,
        )),
    }
}

/// A modern error other than -32022 answers the probe: the client sends
/// nothing more and returns `ConnectError::Protocol` naming the code.
pub(super) fn other_modern_error(s: &mut Session) -> CaseResult {
    let id = probe(s, mcp::MODERN)?;
    let error = json!({"code": -32021, "message": "Missing required client capability", "data": {"requiredCapabilities": {"elicitation": {}}}});
    respond_error(s, &id, error)?;
    let got = s.recv_output(s.slack(Duration::from_secs(2)))?;
    if let Some(frame) = s.recv_within(Duration::from_millis(100))? {
        let reason = match frame.value.get("method") == Some(&json!("initialize")) {
            true => {
                "the client fell back to initialize after -32021. Every code from -32020 to -32099 is defined only by the MCP specification, so only a modern server sends one (2026-07-28 basic/index › Error Codes): never fall back on it"
            }
            false => {
                "after -32021 the client sent more. The server is modern but refused the probe: stop with ConnectError::Protocol naming the code"
            }
        };
        return Err(Failure::showing(reason, frame.value));
    }
    match got {
        Some(r) if harness_kind(&r.value) == Some("panic") => Err(panic_failure(&r.value)),
        Some(r)
            if r.value["incompatible"] == json!(false)
                && r.value["error"]
                    .as_str()
                    .is_some_and(|e| e.starts_with("protocol error") && e.contains("-32021")) =>
        {
            Ok(())
        }
        Some(r) => Err(Failure::mismatch(
            "a probe refused with a modern error other than -32022 ends connect with ConnectError::Protocol, its message naming the code (-32021)",
            json!({"harness": "failed", "error": "protocol error: … -32021 …", "incompatible": false, "offered": null}),
            r.value,
        )),
        None => Err(Failure::new(
            "the client neither sent anything nor reported after -32021: connect should return ConnectError::Protocol",
        )),
    }
}

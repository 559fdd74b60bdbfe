//! 11's legacy lifecycle cases (2025-11-25 basic/lifecycle,
//! basic/utilities/ping): the handshake, the counter-offer, and the gate
//! before `initialize`.

use std::time::Duration;

use serde_json::{Value, json};

use super::silent;
use crate::check::diff::{ANY_INTEGER, ANY_STRING};
use crate::check::session::Session;
use crate::check::toolkit::as_client::{Client, gate_holds, initialize_params};
use crate::check::toolkit::compare::{self, same};
use crate::check::toolkit::{CaseResult, Failure};
use crate::mcp;

pub(super) fn handshake(s: &mut Session) -> CaseResult {
    let mut c = Client::before_initialize().varied();
    let ping = c.call(s, "ping", json!({}))?;
    if ping.get("result") != Some(&json!({})) {
        return Err(Failure::partial(
            "ping is answered with an empty result in every phase, before initialize too (2025-11-25 basic/utilities/ping; rust-sdk#488)",
            json!({"result": {}}),
            ping,
        ));
    }
    let early = c.call(s, "tools/list", json!({}))?;
    if early.get("error").is_none() {
        return Err(Failure::partial(
            "tools/list before initialize was served: a legacy server has no session yet, so it refuses with an error response carrying the request's id (2025-11-25 basic/lifecycle › Initialization)",
            json!({"error": {"code": ANY_INTEGER, "message": ANY_STRING}}),
            early,
        ));
    }
    let result = c.result(s, "initialize", initialize_params(mcp::LEGACY))?;
    let expected = json!({"protocolVersion": mcp::LEGACY, "capabilities": {"tools": {}, "resources": {}, "prompts": {}}, "serverInfo": {"name": "capstone-server", "version": "0.1.0"}});
    same(
        compare::open(expected),
        &result,
        "initialize at 2025-11-25 gets that version, the tools, resources and prompts capabilities, and serverInfo",
    )?;
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    silent(
        s,
        Duration::from_millis(300),
        "the client sent notifications/initialized",
    )?;
    let again = c.call(s, "initialize", initialize_params(mcp::LEGACY))?;
    if again.get("error").is_none() {
        return Err(Failure::partial(
            "a second initialize on the same session is refused with an error response: the session exists already (2025-11-25 basic/lifecycle; csharp-sdk#1422)",
            json!({"error": {"code": ANY_INTEGER, "message": ANY_STRING}}),
            again,
        ));
    }
    c.result(s, "tools/list", json!({})).map(|_| ())
}

pub(super) fn counter_offer(s: &mut Session) -> CaseResult {
    let mut c = Client::before_initialize().varied();
    let response = c.call(s, "initialize", initialize_params(mcp::FUTURE))?;
    let offered = response.pointer("/result/protocolVersion").cloned();
    if offered == Some(json!(mcp::LEGACY)) {
        return Ok(());
    }
    let why = match offered {
        Some(Value::String(v)) if v == mcp::FUTURE => {
            "initialize at 2099-01-01 was echoed back: the server does not implement it. Answer with a version it does implement, its newest, and let the client decide (2025-11-25 basic/lifecycle › Version Negotiation; swift-sdk#106)"
        }
        Some(_) => {
            "initialize at 2099-01-01 gets a counter-offer: the newest version the server implements, \"2025-11-25\""
        }
        None => {
            "initialize at an unknown version is not an error: the server offers the newest version it implements in a result, and the client decides (2025-11-25 basic/lifecycle › Version Negotiation)"
        }
    };
    Err(Failure::partial(
        why,
        json!({"result": {"protocolVersion": mcp::LEGACY}}),
        response,
    ))
}

pub(super) fn gate(s: &mut Session) -> CaseResult {
    let result = gate_holds(s, mcp::LEGACY)?;
    same(
        compare::open(json!({"protocolVersion": mcp::LEGACY})),
        &result,
        "initialize at 2025-11-25 after the refused requests settles 2025-11-25",
    )
}

//! Doctor's lifecycle checks: the legacy handshake's version negotiation,
//! the gate before `initialize` and `ping` (2025-11-25 basic/lifecycle,
//! basic/utilities/ping); the modern `server/discover`, the required
//! `_meta` fields and an unsupported version (2026-07-28 server/discover,
//! basic/index › _meta, basic/versioning). The handshake itself is
//! detection's (`detect.rs`).

use serde_json::{Value, json};

use super::detect::discover;
use super::{Check, Checked, Ctx, Era, Finding, Outcome, rules};
use crate::check::session::Session;
use crate::check::toolkit::Failure;
use crate::check::toolkit::as_client::{Client, exchange, exchange_within, initialize_request, request};
use crate::mcp;

/// The lifecycle checks, in report order.
pub(super) static CHECKS: &[Check] = &[
    Check {
        id: "version-negotiation",
        name: "version negotiation",
        about: "initialize offering a version no server implements (2099-01-01) gets a result naming another version, one the server supports",
        rule: &rules::NEGOTIATION,
        eras: &[Era::Legacy],
        schema: true,
        run: negotiation,
    },
    Check {
        id: "requests-before-initialize",
        name: "requests before initialize",
        about: "tools/list before initialize is refused with an error, not served",
        rule: &rules::GATE,
        eras: &[Era::Legacy],
        schema: true,
        run: gate,
    },
    Check {
        id: "ping",
        name: "ping",
        about: "ping after the handshake gets an empty result, {}",
        rule: &rules::PING,
        eras: &[Era::Legacy],
        schema: true,
        run: ping,
    },
    Check {
        id: "server-discover",
        name: "server/discover",
        about: "server/discover gets a result with resultType, supportedVersions (2026-07-28 among them) and capabilities",
        rule: &rules::DISCOVER,
        eras: &[Era::Modern],
        schema: true,
        run: discovered,
    },
    Check {
        id: "meta-required",
        name: "_meta required",
        about: "a request without io.modelcontextprotocol/clientCapabilities in its _meta is refused with -32602",
        rule: &rules::META_REQUIRED,
        eras: &[Era::Modern],
        schema: true,
        run: meta_required,
    },
    Check {
        id: "unsupported-version",
        name: "unsupported version",
        about: "a request at a version no server implements (2099-01-01) gets -32022 with data.supported listing the server's versions",
        rule: &rules::UNSUPPORTED_VERSION,
        eras: &[Era::Modern],
        schema: true,
        run: unsupported_version,
    },
];

/// Opens a conversation in the check's era: the legacy handshake, or
/// nothing (modern requests carry their `_meta`), the first answer due
/// within the startup window ([`Client::first_within`]); on the shared
/// process, the conversation opened there goes on.
pub(super) fn open(s: &mut Session, ctx: &Ctx) -> Result<Client, Failure> {
    if let Some(client) = ctx.continued() {
        return Ok(client);
    }
    match ctx.era {
        Era::Legacy => Client::legacy_within(s, ctx.startup),
        Era::Modern => Ok(Client::modern().first_within(ctx.startup)),
    }
}

fn negotiation(s: &mut Session, ctx: &Ctx) -> Checked {
    let frame = initialize_request("doctor-future", mcp::FUTURE);
    let response = exchange_within(s, &frame, ctx.startup)?;
    let expected = json!({"jsonrpc": "2.0", "id": "doctor-future", "result": {"protocolVersion": "(a version the server supports)"}});
    let version = response.pointer("/result/protocolVersion").and_then(Value::as_str);
    match version {
        None => Err(Failure::partial(
            format!(
                "initialize offering {} got no result with a protocolVersion: a server that does not support the offered version answers with one it does",
                mcp::FUTURE
            ),
            expected,
            response,
        )
        .into()),
        Some(v) if v == mcp::FUTURE => Err(Failure::partial(
            format!(
                "initialize offering {} got {v} back: no server implements that version, so echoing it claims support the server does not have",
                mcp::FUTURE
            ),
            expected,
            response,
        )
        .into()),
        Some(v) => Ok(Outcome::Note(format!("offered {}, the server answered {v}", mcp::FUTURE))),
    }
}

fn gate(s: &mut Session, ctx: &Ctx) -> Checked {
    let frame = request("doctor-early", "tools/list", Some(json!({})));
    let response = exchange_within(s, &frame, ctx.startup)?;
    if response.get("result").is_some() {
        return Err(Failure::partial(
            "tools/list before initialize was served (refuse it with an error carrying its id: -32600 is common)",
            json!({"jsonrpc": "2.0", "id": "doctor-early", "error": {"code": -32600, "message": "…"}}),
            response,
        )
        .into());
    }
    Ok(Outcome::Pass)
}

fn ping(s: &mut Session, ctx: &Ctx) -> Checked {
    open(s, ctx).map_err(super::setup)?;
    let response = exchange(s, &request("doctor-ping", "ping", None))?;
    if response.get("result") != Some(&json!({})) {
        return Err(Failure::mismatch(
            "ping must get an empty result",
            json!({"jsonrpc": "2.0", "id": "doctor-ping", "result": {}}),
            response,
        )
        .into());
    }
    Ok(Outcome::Pass)
}

fn discovered(s: &mut Session, ctx: &Ctx) -> Checked {
    let response = exchange_within(s, &discover("doctor-discover", mcp::MODERN), ctx.startup)?;
    let Some(result) = response.get("result") else {
        return Err(Failure::showing("server/discover got an error", response).into());
    };
    if result.get("resultType").is_none() {
        return Err(Finding::under(
            &rules::RESULT_TYPE,
            Failure::partial(
                "the server/discover result has no resultType (\"complete\" for a finished result)",
                json!({"resultType": "complete"}),
                result.clone(),
            ),
        ));
    }
    let versions = result["supportedVersions"].as_array().cloned().unwrap_or_default();
    if !versions.contains(&json!(mcp::MODERN)) {
        return Err(Failure::partial(
            format!(
                "server/discover was asked at {} and answered, but its supportedVersions do not list {}",
                mcp::MODERN,
                mcp::MODERN
            ),
            json!({"supportedVersions": [mcp::MODERN]}),
            result.clone(),
        )
        .into());
    }
    Ok(Outcome::Note(format!(
        "supportedVersions {}, capabilities {}",
        result["supportedVersions"], result["capabilities"]
    )))
}

fn meta_required(s: &mut Session, ctx: &Ctx) -> Checked {
    let meta = json!({mcp::meta::PROTOCOL_VERSION: mcp::MODERN, mcp::meta::CLIENT_INFO: mcp::checker_info()});
    let frame = request("doctor-no-caps", "server/discover", Some(json!({"_meta": meta})));
    let response = exchange_within(s, &frame, ctx.startup)?;
    if response.pointer("/error/code") != Some(&json!(-32602)) {
        return Err(Failure::partial(
            "server/discover without io.modelcontextprotocol/clientCapabilities in its _meta is malformed and must be refused with -32602 Invalid params",
            json!({"jsonrpc": "2.0", "id": "doctor-no-caps", "error": {"code": -32602}}),
            response,
        )
        .into());
    }
    Ok(Outcome::Pass)
}

fn unsupported_version(s: &mut Session, ctx: &Ctx) -> Checked {
    let response = exchange_within(s, &discover("doctor-future", mcp::FUTURE), ctx.startup)?;
    let supported = response.pointer("/error/data/supported").and_then(Value::as_array);
    if response.pointer("/error/code") != Some(&json!(-32022)) || supported.is_none_or(Vec::is_empty) {
        return Err(Failure::partial(
            format!(
                "server/discover at {} must get UnsupportedProtocolVersionError: code -32022 and data.supported listing the versions the server implements",
                mcp::FUTURE
            ),
            json!({"jsonrpc": "2.0", "id": "doctor-future", "error": {"code": -32022, "data": {"supported": ["…"]}}}),
            response,
        )
        .into());
    }
    Ok(Outcome::Pass)
}

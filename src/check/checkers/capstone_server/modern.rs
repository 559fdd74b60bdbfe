//! 11's modern-era cases (2026-07-28 server/discover, basic/index,
//! basic/versioning): `server/discover` and the modern results' fields, an
//! unsupported version, and `_meta` that no earlier request can stand in
//! for.

use serde_json::{Value, json};

use crate::check::diff::{ANY_INTEGER, ANY_STRING};
use crate::check::session::Session;
use crate::check::toolkit::as_client::{Client, expect_error, modern_fields, response_to};
use crate::check::toolkit::{CaseResult, Failure};
use crate::mcp;

pub(super) fn discover(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let found = c.result(s, "server/discover", json!({}))?;
    let versions_ok = found
        .get("supportedVersions")
        .and_then(Value::as_array)
        .is_some_and(|v| v.contains(&json!(mcp::MODERN)));
    if !versions_ok || !found.get("capabilities").is_some_and(Value::is_object) {
        return Err(Failure::partial(
            "server/discover returns supportedVersions (listing 2026-07-28) and capabilities (2026-07-28 server/discover)",
            json!({"supportedVersions": [mcp::MODERN, mcp::LEGACY, mcp::PREVIOUS_LEGACY], "capabilities": {"tools": {}, "resources": {}, "prompts": {}}}),
            found,
        ));
    }
    modern_fields(&found, "server/discover", true)?;
    let listed = c.result(s, "prompts/list", json!({}))?;
    modern_fields(&listed, "prompts/list", true)?;
    let got = c.result(
        s,
        "prompts/get",
        json!({"name": "review_code", "arguments": {"code": "x = 1"}}),
    )?;
    modern_fields(&got, "prompts/get", false)
}

pub(super) fn unsupported_version(s: &mut Session) -> CaseResult {
    let mut meta = mcp::request_meta(mcp::MODERN);
    meta[mcp::meta::PROTOCOL_VERSION] = json!(mcp::FUTURE);
    s.send_json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}))?;
    let response = response_to(s.recv()?.value, &json!(1), "tools/list")?;
    expect_error(
        response.clone(),
        -32022,
        "a modern request at a version the server does not implement gets -32022 UnsupportedProtocolVersionError (2026-07-28 basic/index)",
    )?;
    let supported = response
        .pointer("/error/data/supported")
        .and_then(Value::as_array)
        .is_some_and(|v| v.contains(&json!(mcp::MODERN)));
    if !supported || response.pointer("/error/data/requested") != Some(&json!(mcp::FUTURE)) {
        return Err(Failure::partial(
            "the -32022 error's data lists the versions the server supports and the one requested, so the client can pick a shared version and retry (UnsupportedProtocolVersionError, 2026-07-28 schema)",
            json!({"error": {"code": -32022, "data": {"supported": [mcp::MODERN, mcp::LEGACY, mcp::PREVIOUS_LEGACY], "requested": mcp::FUTURE}}}),
            response,
        ));
    }
    Ok(())
}

pub(super) fn no_stale_meta(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    c.result(s, "tools/list", json!({}))?;
    let mut meta = mcp::request_meta(mcp::MODERN);
    meta.as_object_mut().map(|m| m.remove(mcp::meta::CLIENT_CAPABILITIES));
    s.send_json(&json!({"jsonrpc": "2.0", "id": "no-caps", "method": "tools/list", "params": {"_meta": meta}}))?;
    let response = response_to(s.recv()?.value, &json!("no-caps"), "tools/list")?;
    expect_error(
        response,
        -32602,
        "a modern request without io.modelcontextprotocol/clientCapabilities gets -32602: capabilities are declared on every request, and a server MUST NOT take them from an earlier one (RequestMetaObject, 2026-07-28 schema)",
    )?;
    s.send_json(&json!({"jsonrpc": "2.0", "id": "bare", "method": "tools/list", "params": {}}))?;
    let response = response_to(s.recv()?.value, &json!("bare"), "tools/list")?;
    if response.get("error").is_none() {
        return Err(Failure::partial(
            "tools/list with no _meta and no initialize was served: it is neither a modern request (no version in _meta) nor part of a legacy session. Each modern request stands alone; an earlier one opens nothing, so refuse it with an error",
            json!({"error": {"code": ANY_INTEGER, "message": ANY_STRING}}),
            response,
        ));
    }
    Ok(())
}

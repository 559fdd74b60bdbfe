//! Doctor's checks of the request metadata headers over modern Streamable
//! HTTP (2026-07-28 basic/transports/streamable-http › Standard Request
//! Headers, › Server Validation): `Mcp-Method` and `Mcp-Name` missing or
//! disagreeing with the body get 400 and -32020; and of a body that is not
//! JSON in a legacy (2025-11-25) session.

use serde_json::{Value, json};

use super::features::Caller;
use super::http::{HttpConn, discover, message, shown};
use super::http_legacy::Legacy;
use super::{Checked, Ctx, Finding, Outcome, rules};
use crate::check::http::{self as wire, Reply};
use crate::check::toolkit::Failure;
use crate::mcp;

/// HeaderMismatch (2026-07-28 basic/transports/streamable-http › Server
/// Validation).
const HEADER_MISMATCH: i64 = -32020;

/// `frame`'s conforming headers with `name` left out, or set to `value`.
fn headers_with(frame: &Value, name: &str, value: Option<&str>) -> Vec<(String, String)> {
    let mut headers = wire::headers_for(frame);
    headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    if let Some(value) = value {
        headers.push((name.to_string(), value.to_string()));
    }
    headers
}

/// Whether `reply` is 400 with a JSON-RPC error -32020.
fn refused(reply: &Reply) -> bool {
    reply.status == 400
        && message(reply).and_then(|m| m.pointer("/error/code").cloned()) == Some(json!(HEADER_MISMATCH))
}

/// A finding under `rule`: `what` did not get 400 and -32020.
fn not_refused(rule: &'static rules::Rule, what: &str, reply: &Reply) -> Finding {
    Finding::under(
        rule,
        Failure::mismatch(
            format!("{what} must get 400 Bad Request and a JSON-RPC error -32020 (HeaderMismatch)"),
            json!({"status": 400, "body": {"error": {"code": HEADER_MISMATCH}}}),
            shown(reply),
        ),
    )
}

pub(super) fn method_header(c: &mut HttpConn, _: &Ctx) -> Checked {
    let frame = discover("doctor-no-method", mcp::request_meta(mcp::MODERN));
    let reply = c.post_text(headers_with(&frame, "Mcp-Method", None), &frame.to_string())?;
    if !refused(&reply) {
        return Err(not_refused(
            &rules::HEADER_MISSING,
            "server/discover without the Mcp-Method header",
            &reply,
        ));
    }
    let frame = discover("doctor-wrong-method", mcp::request_meta(mcp::MODERN));
    let reply = c.post_text(
        headers_with(&frame, "Mcp-Method", Some("tools/list")),
        &frame.to_string(),
    )?;
    if !refused(&reply) {
        return Err(not_refused(
            &rules::HEADER_MISMATCH,
            "server/discover with Mcp-Method: tools/list",
            &reply,
        ));
    }
    Ok(Outcome::Pass)
}

/// A request that carries `Mcp-Name` and has no side effect: reading the
/// first resource listed, getting the first prompt that needs no
/// arguments, else calling a tool that does not exist (`real` false: a
/// refusal of it shows nothing about the header).
struct Named {
    method: &'static str,
    params: Value,
    real: bool,
}

/// The first item of `method`'s first page whose `field` is a string
/// and that `fits`.
fn first(c: &mut dyn Caller, method: &str, key: &str, field: &str, fits: fn(&Value) -> bool) -> Option<String> {
    let response = c.call(method, json!({})).ok()?;
    let list = response.pointer(&format!("/result/{key}"))?.as_array()?.clone();
    list.iter()
        .filter(|i| fits(i))
        .find_map(|i| i[field].as_str().map(str::to_string))
}

fn named(c: &mut HttpConn, ctx: &Ctx) -> Named {
    if ctx.declares("resources")
        && let Some(uri) = first(c, "resources/list", "resources", "uri", |_| true)
    {
        return Named {
            method: "resources/read",
            params: json!({"uri": uri}),
            real: true,
        };
    }
    let no_arguments = |p: &Value| {
        p["arguments"]
            .as_array()
            .is_none_or(|args| !args.iter().any(|a| a["required"] == json!(true)))
    };
    if ctx.declares("prompts")
        && let Some(name) = first(c, "prompts/list", "prompts", "name", no_arguments)
    {
        return Named {
            method: "prompts/get",
            params: json!({"name": name}),
            real: true,
        };
    }
    Named {
        method: "tools/call",
        params: json!({"name": "doctor-no-such-tool", "arguments": {}}),
        real: false,
    }
}

pub(super) fn name_header(c: &mut HttpConn, ctx: &Ctx) -> Checked {
    let target = named(c, ctx);
    let mut params = target.params.clone();
    params["_meta"] = mcp::request_meta(mcp::MODERN);
    let shown_name = params.get("uri").or(params.get("name")).cloned().unwrap_or_default();
    for (id, value, rule) in [
        ("doctor-no-name", None, &rules::HEADER_MISSING),
        ("doctor-wrong-name", Some("doctor-other-name"), &rules::HEADER_MISMATCH),
    ] {
        let frame = json!({"jsonrpc": "2.0", "id": id, "method": target.method, "params": params});
        let reply = c.post_text(headers_with(&frame, "Mcp-Name", value), &frame.to_string())?;
        if refused(&reply) {
            continue;
        }
        let what = match value {
            None => format!("{} of {shown_name} without the Mcp-Name header", target.method),
            Some(v) => format!("{} of {shown_name} with Mcp-Name: {v}", target.method),
        };
        if !target.real {
            return Ok(Outcome::Unverified(format!(
                "{what} got {}: the server lists no resource and no prompt without arguments to read, and its refusal of a tool that does not exist shows nothing about the header (doctor calls no real tool unasked)",
                reply.status
            )));
        }
        return Err(not_refused(rule, &what, &reply));
    }
    Ok(Outcome::Note(format!("checked on {} of {shown_name}", target.method)))
}

pub(super) fn legacy_not_json(c: &mut HttpConn, _: &Ctx) -> Checked {
    let mut s = Legacy::open(c)?;
    let text = json!({"jsonrpc": "2.0", "id": "doctor-cut", "method": "ping"}).to_string();
    let reply = s.post(&text[..text.len() - 1])?;
    let _ = s.end();
    let parse_error = message(&reply).and_then(|m| m.pointer("/error/code").cloned()) == Some(json!(-32700));
    if reply.status >= 400 || parse_error {
        return Ok(Outcome::Pass);
    }
    Err(Failure::mismatch(
        "a body that is not JSON (cut short) got neither an HTTP error status nor -32700 Parse error",
        json!({"status": 400, "body": {"error": {"code": -32700}}}),
        shown(&reply),
    )
    .into())
}

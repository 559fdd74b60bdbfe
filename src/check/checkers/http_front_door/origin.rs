//! 06's Origin cases (2026-07-28 basic/transports/streamable-http ›
//! Security & Endpoint): a foreign `Origin` gets 403 whatever the `Host`
//! header says; a loopback one is served; and the headers in any case
//! (› Case Sensitivity), a foreign `ORIGIN` among them.

use serde_json::{Value, json};

use super::requests::{headers_for, ok_reply, post, shown, tool_call, with_header};
use crate::check::http::Request;
use crate::check::session::Session;
use crate::check::toolkit::raw_http as raw;
use crate::check::toolkit::{CaseResult, Failure};
use crate::mcp;

/// The foreign origins a request may carry, each with the `Host` header it
/// comes with: a DNS-rebinding request names the attacker's site in both.
fn foreign_origins(port: u16) -> Vec<(String, String)> {
    let local = format!("127.0.0.1:{port}");
    vec![
        (format!("http://evil.example:{port}"), format!("evil.example:{port}")),
        ("http://evil.example".into(), local.clone()),
        ("https://localhost.evil.example".into(), "localhost.evil.example".into()),
        (
            format!("http://127.0.0.1.evil.example:{port}"),
            format!("127.0.0.1.evil.example:{port}"),
        ),
        ("null".into(), local),
    ]
}

/// The loopback origins a local page may carry (http or https;
/// `localhost`, `127.0.0.1` or `[::1]`; any port or none), each with a
/// `Host` naming this machine.
fn loopback_origins(port: u16) -> Vec<(String, String)> {
    vec![
        (format!("http://localhost:{port}"), format!("localhost:{port}")),
        (format!("http://127.0.0.1:{port}"), format!("127.0.0.1:{port}")),
        (format!("http://[::1]:{port}"), format!("[::1]:{port}")),
        ("https://localhost:8443".into(), format!("localhost:{port}")),
        ("https://127.0.0.1".into(), format!("127.0.0.1:{port}")),
        ("http://localhost".into(), format!("localhost:{port}")),
    ]
}

/// `headers` with `Origin` and `Host` set.
fn from_origin(headers: Vec<(String, String)>, origin: &str, host: &str) -> Vec<(String, String)> {
    with_header(with_header(headers, "Origin", Some(origin)), "Host", Some(host))
}

pub(super) fn origin(s: &mut Session) -> CaseResult {
    let body = tool_call(9, "echo", json!({"text": "hi"}), mcp::MODERN);
    let port = s.port().unwrap_or(0);
    for (origin, host) in foreign_origins(port) {
        let reply = post(s, from_origin(headers_for(&body), &origin, &host), &body)?;
        if reply.status == 403 {
            continue;
        }
        let why = if host.starts_with("127.0.0.1:") {
            format!(
                "a request with Origin {origin} must get 403 Forbidden: only a page on this machine (http or https on localhost, 127.0.0.1 or [::1]) may drive a local server. A web page on any site can make a browser POST to 127.0.0.1; the Origin header is how a local server tells (2026-07-28 basic/transports/streamable-http › Security & Endpoint: \"If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden\")"
            )
        } else {
            format!(
                "a request with Origin {origin} and Host {host} must get 403 Forbidden. This is DNS rebinding: the attacker's name now resolves to 127.0.0.1, so the browser sends the attacker's name in Host too, and an Origin that matches the Host proves nothing. Compare the Origin's host with the loopback names exactly (localhost, 127.0.0.1, [::1]), never with Host, never by prefix or substring (2026-07-28 basic/transports/streamable-http › Security & Endpoint)"
            )
        };
        return Err(Failure::mismatch(why, json!({"status": 403, "…": "…"}), shown(&reply)));
    }
    Ok(())
}

pub(super) fn loopback_origin(s: &mut Session) -> CaseResult {
    let body = tool_call(14, "echo", json!({"text": "hi"}), mcp::MODERN);
    for (origin, host) in loopback_origins(s.port().unwrap_or(0)) {
        let reply = post(s, from_origin(headers_for(&body), &origin, &host), &body)?;
        ok_reply(
            &reply,
            14,
            &format!(
                "a request with Origin {origin} comes from this machine (http or https; localhost, 127.0.0.1 or [::1]; any port or none) and is served as usual"
            ),
        )?;
    }
    Ok(())
}

/// How a case spells a header name.
type Spelling = fn(&str) -> String;

/// The request headers of a `tools/call` of echo, each name spelled by
/// `spell` (lower case, UPPER case, or as the spec writes it).
fn spelled(body: &Value, spell: Spelling) -> Vec<(String, String)> {
    headers_for(body).into_iter().map(|(n, v)| (spell(&n), v)).collect()
}

pub(super) fn any_case(s: &mut Session) -> CaseResult {
    let body = tool_call(30, "echo", json!({"text": "hi"}), mcp::MODERN);
    let spellings: [(&str, Spelling); 3] = [
        (
            "in lower case (mcp-protocol-version, mcp-method, mcp-name)",
            str::to_ascii_lowercase,
        ),
        (
            "in UPPER case (MCP-PROTOCOL-VERSION, MCP-METHOD, MCP-NAME)",
            str::to_ascii_uppercase,
        ),
        (
            "as the spec writes them (MCP-Protocol-Version, Mcp-Method, Mcp-Name)",
            str::to_string,
        ),
    ];
    for (what, spell) in spellings {
        let request = Request {
            method: "POST",
            path: "/mcp",
            headers: spelled(&body, spell),
            body: Some(body.to_string().into_bytes()),
        };
        let reply = raw::send(s, &request)?;
        ok_reply(
            &reply,
            30,
            &format!(
                "a tools/call whose header names are {what} is the same request: \"Clients and servers MUST use case-insensitive comparisons for header names\" (2026-07-28 basic/transports/streamable-http › Case Sensitivity), so it is served"
            ),
        )?;
    }
    let mut foreign = spelled(&body, str::to_string);
    foreign.push(("ORIGIN".into(), "http://evil.example".into()));
    let request = Request {
        method: "POST",
        path: "/mcp",
        headers: foreign,
        body: Some(body.to_string().into_bytes()),
    };
    let reply = raw::send(s, &request)?;
    if reply.status != 403 {
        return Err(Failure::mismatch(
            "ORIGIN: http://evil.example is an Origin header like any other spelling (2026-07-28 basic/transports/streamable-http › Case Sensitivity), and a foreign one gets 403: \"If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden\" (› Security & Endpoint). A server that looks for one spelling lets the page in",
            json!({"status": 403, "…": "…"}),
            shown(&reply),
        ));
    }
    Ok(())
}

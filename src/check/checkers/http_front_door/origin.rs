//! 06's Origin cases (2026-07-28 basic/transports/streamable-http ›
//! Security & Endpoint): a foreign `Origin` gets 403 whatever the `Host`
//! header says; a loopback one is served.

use serde_json::json;

use super::requests::{headers_for, ok_reply, post, shown, tool_call, with_header};
use crate::check::session::Session;
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

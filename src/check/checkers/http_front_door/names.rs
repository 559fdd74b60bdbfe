//! 06's case on `Mcp-Name` for `resources/read`, which mirrors `params.uri`,
//! not `params.name` (2026-07-28 basic/transports/streamable-http ›
//! Standard Request Headers; issue 34 item 1). This server offers no
//! resources, so a `resources/read` whose headers agree with its body
//! passes the header checks and meets the method check: 404 with -32601
//! (› Protocol Version Header); one whose `Mcp-Name` names another URI
//! stops at the header checks: 400 with -32020 (› Server Validation). The
//! header values come from [`mcp::header_value`], Base64 sentinel included.

use serde_json::{Value, json};

use super::requests::{error_reply, headers_for, post, with_header};
use crate::check::session::Session;
use crate::check::toolkit::CaseResult;
use crate::mcp;

/// A modern `resources/read` of `uri`.
fn read(id: u64, uri: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "resources/read", "params": {"uri": uri, "_meta": mcp::request_meta(mcp::MODERN)}})
}

pub(super) fn uri_name(s: &mut Session) -> CaseResult {
    for (id, uri, shown) in [
        (31, "file:///notes/today.txt", "Mcp-Name: file:///notes/today.txt"),
        (
            32,
            "file:///notes/météo.txt",
            "Mcp-Name: =?base64?…?= (the URI holds é)",
        ),
    ] {
        let body = read(id, uri);
        let reply = post(s, headers_for(&body), &body)?;
        error_reply(
            &reply,
            404,
            -32601,
            &format!(
                "a resources/read of {uri} with {shown}: on resources/read, Mcp-Name mirrors params.uri (2026-07-28 basic/transports/streamable-http › Standard Request Headers), decoded first when it is in the Base64 sentinel, so the headers agree with the body; this server offers no resources, so the method check answers, and a method the server does not implement gets"
            ),
        )?;
    }
    let body = read(33, "file:///notes/today.txt");
    let headers = with_header(headers_for(&body), "Mcp-Name", Some("file:///notes/other.txt"));
    let reply = post(s, headers, &body)?;
    error_reply(
        &reply,
        400,
        -32020,
        "a resources/read of file:///notes/today.txt whose Mcp-Name says file:///notes/other.txt: on resources/read, Mcp-Name mirrors params.uri, and a server that reads the body MUST reject a disagreement (2026-07-28 basic/transports/streamable-http › Server Validation), before any method check, so it gets",
    )?;
    Ok(())
}

//! 12's case on what HTTP makes case-insensitive: header names ("Clients
//! and servers MUST use case-insensitive comparisons for header names",
//! 2026-07-28 basic/transports/streamable-http › Case Sensitivity; RFC 9110
//! § 5.1) and the auth scheme (RFC 9110 § 11.1, RFC 6750 § 2.1). The
//! requests go out byte for byte ([`raw`]), as the checkers' HTTP client
//! writes every name in lower case.
//!
//! The class "tokens the RFCs make case-insensitive", each member with the
//! request that catches it:
//!
//! - the scheme compared with `Bearer` exactly → `authorization: bearer …`;
//! - header names compared with one spelling (`Authorization`, or the
//!   lower case every other case sends) → `authorization: bearer …`,
//!   `AUTHORIZATION: BEARER …`, and `Authorization: Bearer …` with the MCP
//!   headers in other cases;
//! - the Authorization headers counted by one spelling, so that
//!   `Authorization` and `authorization` pass as one → the last request.

use super::wire::{refused, served};
use super::world::World;
use super::{INVALID_REQUEST, tools_list};
use crate::check::http::Request;
use crate::check::session::Session;
use crate::check::toolkit::CaseResult;
use crate::check::toolkit::raw_http as raw;
use crate::mcp;

/// A POST of `body` with the MCP headers spelled in other cases, and
/// `authorization` headers as given (name, value).
fn request(body: &serde_json::Value, authorization: &[(&str, String)]) -> Request {
    let mut headers: Vec<(String, String)> = vec![
        ("content-type".into(), "application/json".into()),
        ("ACCEPT".into(), "application/json, text/event-stream".into()),
        ("mcp-protocol-version".into(), mcp::MODERN.into()),
        ("MCP-METHOD".into(), body["method"].as_str().unwrap_or("").into()),
    ];
    headers.extend(authorization.iter().map(|(n, v)| (n.to_string(), v.clone())));
    Request {
        method: "POST",
        path: "/mcp",
        headers,
        body: Some(body.to_string().into_bytes()),
    }
}

pub(super) fn any_case(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let token = world.token("notes:read");
    let body = tools_list(25);
    let spellings = [
        ("authorization", format!("bearer {token}")),
        ("AUTHORIZATION", format!("BEARER {token}")),
        ("Authorization", format!("Bearer {token}")),
    ];
    for (name, value) in spellings {
        let shown = value.replace(&token, "<token>");
        let reply = raw::send(s, &request(&body, &[(name, value)]))?;
        served(
            &reply,
            25,
            &format!(
                "{name}: {shown}, with mcp-protocol-version and MCP-METHOD: \"Clients and servers MUST use case-insensitive comparisons for header names\" (2026-07-28 basic/transports/streamable-http › Case Sensitivity), and the auth scheme is case-insensitive too (RFC 9110 § 11.1): bearer and BEARER are Bearer. A live token, so tools/list gets"
            ),
        )?;
    }
    let twice = [
        ("Authorization", format!("Bearer {token}")),
        ("authorization", format!("Bearer {token}")),
    ];
    let reply = raw::send(s, &request(&body, &twice))?;
    refused(
        &reply,
        &INVALID_REQUEST,
        "Authorization and authorization are one header name, so this request carries two Authorization headers: a malformed authorization request, \"400 | Bad Request | Malformed authorization request\" (2026-07-28 basic/authorization › Error Handling). Count the headers case-insensitively; it needs",
    )?;
    Ok(())
}

//! 12's cases on which verdict wins when a request has more than one thing
//! wrong (course rule: check-order): Origin, then the HTTP method, then the
//! token (401, 400 for a malformed header), then its scope (403), then the
//! MCP checks of exercise 06 (400); and the 503 a request gets when the
//! token could not be judged (course rule: introspection-down).
//!
//! The class "authorization verdicts in the right order", each member with
//! the step that catches it:
//!
//! - the scope checked before the expiry, the audience or `active`: an
//!   expired, foreign or revoked token without the scope gets 403 →
//!   `invalid token: 401 first`, one step each;
//! - the MCP headers checked before the token is validated (after its
//!   presence only) → `invalid token: 401 first`, an expired token on a
//!   request without `Mcp-Method`;
//! - the body judged before the token → `invalid token: 401 first`, an
//!   expired token with a body that is not JSON;
//! - the MCP headers checked before the scope → `too narrow: 403 first`;
//! - the metadata route served before the Origin check, the MCP headers
//!   before the token's presence → `check order`.

use serde_json::{Value, json};

use super::wire::{Refusal, call, headers, post, refused, send, shown};
use super::world::{Outage, World, now};
use super::{INVALID_TOKEN, TOKEN_HANDLING, tools_list, unauthenticated};
use crate::check::http::Request;
use crate::check::session::Session;
use crate::check::toolkit::raw_http as raw;
use crate::check::toolkit::{CaseResult, Failure};
use crate::mcp;

/// The security-considerations sentence the 401-first steps follow.
const BEFORE_PROCESSING: &str = "\"MCP servers MUST validate access tokens before processing the request\" (2026-07-28 basic/authorization/security-considerations › Access Token Privilege Restriction)";

/// The 403 a live token without the scope gets.
pub(super) fn step_up(world: &World) -> Refusal<'_> {
    Refusal {
        status: 403,
        error: Some("insufficient_scope"),
        metadata: Some(&world.metadata_url),
        shape: "with WWW-Authenticate: Bearer error=\"insufficient_scope\", scope=\"…\", resource_metadata=\"…\"",
    }
}

/// `headers` with the MCP headers gone wrong: no `Mcp-Method`, and a
/// version no one speaks.
fn wrong_mcp_headers(mut headers: Vec<(String, String)>) -> Vec<(String, String)> {
    headers.retain(|(n, _)| n != "Mcp-Method" && n != "MCP-Protocol-Version");
    headers.push(("MCP-Protocol-Version".into(), mcp::FUTURE.into()));
    headers
}

pub(super) fn invalid_first(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let add = call(20, "add_note", json!({"text": "buy milk"}));
    let spoiled = [
        ("expired (exp two minutes ago)", "exp", json!(now() - 120)),
        (
            "issued for another resource (aud is another server)",
            "aud",
            json!("http://127.0.0.1:1/notes-service"),
        ),
        ("revoked (introspection says active: false)", "active", json!(false)),
    ];
    for (what, claim, value) in spoiled {
        let mut claims = world.claims("notes:read");
        claims[claim] = value;
        let token = world.mint(claims);
        let reply = post(s, &add, Some(&token))?;
        refused(
            &reply,
            &INVALID_TOKEN,
            &format!(
                "add_note with a token that is {what} and has only notes:read: two things are wrong, and the token decides. {TOKEN_HANDLING}, a MUST whatever else the request lacks, while the 403 for a missing scope is for a valid token that is too narrow (2026-07-28 basic/authorization › Scope Challenge Handling): a 403 here sends the client to ask for more scope on a token that is no good. Check active, aud and exp before the scope; it needs"
            ),
        )?;
    }
    let mut claims = world.claims("notes:read notes:write");
    claims["exp"] = json!(now() - 120);
    let expired = world.mint(claims);
    let body = tools_list(21);
    let reply = send(
        s,
        "POST",
        "/mcp",
        wrong_mcp_headers(headers(&body, Some(&expired))),
        Some(&body),
    )?;
    refused(
        &reply,
        &INVALID_TOKEN,
        &format!(
            "an expired token on a request whose MCP headers are wrong too (no Mcp-Method, a version no one speaks): {BEFORE_PROCESSING}, so the token decides before any MCP check (course rule: check-order); a 400 about headers would answer a caller the server cannot vouch for. It needs"
        ),
    )?;
    let request = Request {
        method: "POST",
        path: "/mcp",
        headers: headers(&body, Some(&expired)),
        body: Some(b"{\"jsonrpc\":\"2.0\",\"id\":22,".to_vec()),
    };
    let reply = raw::send(s, &request)?;
    refused(
        &reply,
        &INVALID_TOKEN,
        &format!(
            "an expired token with a body that is not JSON: {BEFORE_PROCESSING}, and reading the body is processing it, so the token decides (course rule: check-order); it needs"
        ),
    )?;
    Ok(())
}

pub(super) fn scope_first(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let reader = world.token("notes:read");
    let add = call(23, "add_note", json!({"text": "buy milk"}));
    let mut sent = headers(&add, Some(&reader));
    sent.retain(|(n, _)| n != "MCP-Protocol-Version");
    sent.push(("MCP-Protocol-Version".into(), mcp::LEGACY.into()));
    let reply = send(s, "POST", "/mcp", sent, Some(&add))?;
    refused(
        &reply,
        &step_up(&world),
        "add_note with a live notes:read token, and an MCP-Protocol-Version header (2025-11-25) that disagrees with the body: the token is good but too narrow, and authorization comes before the MCP checks of exercise 06 (course rule: check-order), so the scope decides: the server \"SHOULD respond with: HTTP 403 Forbidden\" (2026-07-28 basic/authorization › Runtime Insufficient Scope Errors). A 400 -32020 would tell a caller not allowed to write what this server runs; it needs",
    )?;
    Ok(())
}

pub(super) fn introspection_down(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    // Unreachable first: a server that keeps the metadata it read first
    // keeps an endpoint where nothing listens.
    let outages = [
        (
            Outage::Unreachable,
            "the introspection endpoint the authorization server's metadata names does not answer (nothing listens there)",
        ),
        (Outage::Error, "the introspection endpoint answered 500"),
    ];
    for (outage, what) in outages {
        world.break_introspection(outage);
        let token = world.token("notes:read");
        let reply = post(s, &tools_list(24), Some(&token))?;
        if reply.status == 503 {
            continue;
        }
        let told = match reply.status {
            401 => {
                " A 401 says the token is bad, and sends the client to re-authorize for nothing: the token may be fine, the check is what failed."
            }
            200 => " It was served: a token nobody vouched for let the request in.",
            _ => "",
        };
        return Err(Failure::mismatch(
            format!(
                "{what}, so the token was not judged: refuse the request, and say the failure is the server's, not the token's: 503 Service Unavailable (course rule: introspection-down); got {}.{told}",
                reply.status
            ),
            json!({"status": 503, "…": "…"}),
            shown(&reply),
        ));
    }
    Ok(())
}

pub(super) fn order(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let origin = ("Origin".to_string(), "http://evil.example".to_string());
    let reply = send(
        s,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        vec![("Accept".into(), "application/json".into()), origin.clone()],
        None,
    )?;
    if reply.status != 403 {
        return Err(Failure::mismatch(
            format!(
                "a GET of the Protected Resource Metadata from a foreign Origin gets 403 too: \"Servers MUST validate the Origin header on all incoming connections\" (2026-07-28 basic/transports/streamable-http › Security & Endpoint), the metadata path included, so Origin comes before every route; got {}",
                reply.status
            ),
            json!({"status": 403, "…": "…"}),
            shown(&reply),
        ));
    }
    let body = tools_list(14);
    let mut foreign = headers(&body, None);
    foreign.push(origin);
    let reply = send(s, "POST", "/mcp", foreign, Some(&body))?;
    if reply.status != 403 {
        return Err(Failure::mismatch(
            format!(
                "a request from a foreign Origin, without a token, gets 403 before anything else: \"If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden\" (2026-07-28 basic/transports/streamable-http › Security & Endpoint). A 401 would hand a page on any site the way to your authorization server; got {}",
                reply.status
            ),
            json!({"status": 403, "…": "…"}),
            shown(&reply),
        ));
    }
    let reply = send(
        s,
        "GET",
        "/mcp",
        vec![("Accept".into(), "text/event-stream".into())],
        None,
    )?;
    if reply.status != 405 {
        return Err(Failure::mismatch(
            format!(
                "GET /mcp without a token gets 405: the method is checked before authorization, as no token could make a GET valid here (2026-07-28 basic/transports/streamable-http › Backward Compatibility); got {}",
                reply.status
            ),
            json!({"status": 405, "…": "…"}),
            shown(&reply),
        ));
    }
    let wrong = wrong_mcp_headers(headers(&body, None));
    let reply = send(s, "POST", "/mcp", wrong.clone(), Some(&body))?;
    refused(
        &reply,
        &unauthenticated(&world),
        &format!(
            "a request without a token, whose MCP headers are wrong too (no Mcp-Method, a version no one speaks), gets 401: {BEFORE_PROCESSING}, and a 400 about headers would tell an unauthenticated client what the server runs. It needs"
        ),
    )?;
    let token = world.token("notes:read");
    let mut wrong = wrong;
    wrong.push(("Authorization".into(), format!("Bearer {token}")));
    let reply = send(s, "POST", "/mcp", wrong, Some(&body))?;
    let code = reply
        .json()
        .and_then(|b| b.pointer("/error/code").and_then(Value::as_i64));
    if reply.status != 400 || code != Some(-32020) {
        return Err(Failure::mismatch(
            "with a live token the same request passes authorization and meets the MCP checks of exercise 06: Mcp-Method is missing, so 400 with -32020 HeaderMismatch (2026-07-28 basic/transports/streamable-http › Server Validation)",
            json!({"status": 400, "body": {"error": {"code": -32020, "message": "…"}}}),
            shown(&reply),
        ));
    }
    Ok(())
}

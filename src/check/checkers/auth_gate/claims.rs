//! 12's cases on what the token says (2026-07-28 basic/authorization ›
//! Token Handling, › Scope Challenge Handling; RFC 7662 § 2.2, § 4): an
//! inactive, foreign or expired token is 401 `invalid_token`; a token
//! without the scopes needed is 403 `insufficient_scope`.

use serde_json::{Value, json};

use super::wire::{Refusal, call, post, refused, shown};
use super::world::{World, now};
use super::{INVALID_TOKEN, TOKEN_HANDLING, tools_list};
use crate::check::session::Session;
use crate::check::toolkit::{CaseResult, Failure};

pub(super) fn inactive(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    // Revoked, though the answer still names this server and a future exp
    // (RFC 7662 § 2.2 only says it SHOULD NOT): `active` alone decides.
    let mut claims = world.claims("notes:read");
    claims["active"] = json!(false);
    let revoked = world.mint(claims);
    for (what, token) in [
        ("a revoked token", revoked.as_str()),
        ("a token the authorization server never issued", "at-forged-0000"),
    ] {
        let reply = post(s, &tools_list(5), Some(token))?;
        refused(
            &reply,
            &INVALID_TOKEN,
            &format!(
                "{what}: introspection answers {{\"active\": false}} (RFC 7662 § 2.2), and {TOKEN_HANDLING}; it needs"
            ),
        )?;
    }
    Ok(())
}

pub(super) fn audience(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let other = "http://127.0.0.1:1/notes-service";
    let mut claims = world.claims("notes:read");
    let tokens = [
        ("another resource", json!(other)),
        ("a list of other resources", json!([other, "http://127.0.0.1:2/mcp"])),
        ("none (no aud at all)", Value::Null),
    ];
    for (what, aud) in tokens {
        if let Some(claims) = claims.as_object_mut() {
            match aud {
                Value::Null => claims.remove("aud"),
                aud => claims.insert("aud".into(), aud),
            };
        }
        let token = world.mint(claims.clone());
        let reply = post(s, &tools_list(6), Some(&token))?;
        refused(
            &reply,
            &INVALID_TOKEN,
            &format!(
                "a live token whose aud is {what}, not this server's canonical URI {}: \"MCP servers MUST validate that access tokens were issued specifically for them as the intended audience\" (2026-07-28 basic/authorization › Token Handling). Accepted, a token for another service could be replayed here by that service or whoever broke into it; it needs",
                world.resource
            ),
        )?;
    }
    Ok(())
}

pub(super) fn expired(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let mut claims = world.claims("notes:read");
    claims["exp"] = json!(now() - 120);
    let token = world.mint(claims);
    let reply = post(s, &tools_list(7), Some(&token))?;
    refused(
        &reply,
        &INVALID_TOKEN,
        &format!(
            "introspection said active, but exp is two minutes ago: a resource server checks exp itself (RFC 7662 § 4: an answer may come from a cache, and clocks differ), and {TOKEN_HANDLING}; it needs"
        ),
    )?;
    Ok(())
}

pub(super) fn insufficient_scope(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let step_up = Refusal {
        status: 403,
        error: Some("insufficient_scope"),
        metadata: Some(&world.metadata_url),
        shape: "with WWW-Authenticate: Bearer error=\"insufficient_scope\", scope=\"…\", resource_metadata=\"…\"",
    };
    let why = "the token is good but does not have the scope this request needs: the server \"SHOULD respond with: HTTP 403 Forbidden\", error=\"insufficient_scope\", the scopes it needs in scope, and resource_metadata (2026-07-28 basic/authorization › Scope Challenge Handling › Runtime Insufficient Scope Errors). 401 would send the client to get the same token again; this needs";
    let reader = world.token("notes:read");
    let body = call(8, "add_note", json!({"text": "buy milk"}));
    let reply = post(s, &body, Some(&reader))?;
    let challenge = refused(&reply, &step_up, &format!("add_note with a notes:read token: {why}"))?;
    let scope: Vec<&str> = challenge.param("scope").unwrap_or("").split(' ').collect();
    if !(scope.contains(&"notes:read") && scope.contains(&"notes:write")) {
        return Err(Failure::mismatch(
            "the 403's scope names every scope add_note needs, notes:read and notes:write: a client re-authorizes with the union of what it had and what the challenge names, and servers SHOULD name all the scopes an operation needs in one challenge (2026-07-28 basic/authorization › Scope Challenge Handling)",
            json!({"status": 403, "www-authenticate": "Bearer error=\"insufficient_scope\", scope=\"notes:read notes:write\", resource_metadata=\"…\""}),
            shown(&reply),
        ));
    }
    let profile = world.token("profile");
    let reply = post(s, &tools_list(9), Some(&profile))?;
    let challenge = refused(
        &reply,
        &step_up,
        &format!("tools/list with a token whose scope is only profile: {why}"),
    )?;
    if !challenge
        .param("scope")
        .unwrap_or("")
        .split(' ')
        .any(|s| s == "notes:read")
    {
        return Err(Failure::mismatch(
            "the 403's scope names what tools/list needs, notes:read (RFC 6750 § 3.1: scope lists the scopes necessary to access the resource)",
            json!({"status": 403, "www-authenticate": "Bearer error=\"insufficient_scope\", scope=\"notes:read\", resource_metadata=\"…\""}),
            shown(&reply),
        ));
    }
    Ok(())
}

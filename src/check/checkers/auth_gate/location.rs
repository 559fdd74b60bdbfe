//! 12's cases on where the token is (2026-07-28 basic/authorization ›
//! Token Requirements, › Error Handling; RFC 6750 § 2, § 3.1): none or
//! only in the query string is 401 with the `resource_metadata`
//! challenge; a malformed header or a token in two places is 400
//! `invalid_request`.

use serde_json::json;

use super::wire::{headers, post, refused, send, shown};
use super::world::{QUERY_PATH, World};
use super::{INVALID_REQUEST, tools_list, unauthenticated};
use crate::check::session::Session;
use crate::check::toolkit::{CaseResult, Failure};

pub(super) fn no_token(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let body = tools_list(1);
    let reply = post(s, &body, None)?;
    let challenge = refused(
        &reply,
        &unauthenticated(&world),
        "\"authorization MUST be included in every HTTP request\" (2026-07-28 basic/authorization › Token Requirements); one without it gets 401, and the server names its metadata \"in the WWW-Authenticate HTTP header under resource_metadata when returning 401 Unauthorized\" (authorization-server-discovery › Protected Resource Metadata Discovery Requirements), so a request without a token needs",
    )?;
    if challenge.param("error").is_some() {
        return Err(Failure::mismatch(
            "a request that carries no token at all gets a challenge without an error code: \"If the request lacks any authentication information … the resource server SHOULD NOT include an error code\" (RFC 6750 § 3.1). invalid_token is for a token that was sent and is bad",
            json!({"status": 401, "www-authenticate": format!("Bearer resource_metadata=\"{}\"", world.metadata_url)}),
            shown(&reply),
        ));
    }
    let mut basic = headers(&body, None);
    basic.push(("Authorization".into(), "Basic YWRhOmxvdmVsYWNl".into()));
    let reply = send(s, "POST", "/mcp", basic, Some(&body))?;
    refused(
        &reply,
        &unauthenticated(&world),
        "Authorization: Basic … carries a password, not a bearer token: for this server the request has no token, so it needs the same",
    )?;
    Ok(())
}

pub(super) fn query_token(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let body = tools_list(2);
    let reply = send(s, "POST", QUERY_PATH, headers(&body, None), Some(&body))?;
    refused(
        &reply,
        &unauthenticated(&world),
        "\"Access tokens MUST NOT be included in the URI query string\" (2026-07-28 basic/authorization › Token Requirements): URLs end up in logs and histories. A token there is no token, so the request needs",
    )?;
    Ok(())
}

pub(super) fn malformed(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let token = world.token("notes:read");
    let body = tools_list(3);
    let cases: [(&str, Vec<String>); 3] = [
        ("Authorization: Bearer (and no token)", vec!["Bearer".into()]),
        (
            "Authorization: Bearer with two words after it",
            vec![format!("Bearer {token} extra")],
        ),
        (
            "two Authorization headers",
            vec![format!("Bearer {token}"), format!("Bearer {token}")],
        ),
    ];
    for (what, values) in cases {
        let mut sent = headers(&body, None);
        sent.extend(values.into_iter().map(|v| ("Authorization".to_string(), v)));
        let reply = send(s, "POST", "/mcp", sent, Some(&body))?;
        refused(
            &reply,
            &INVALID_REQUEST,
            &format!(
                "{what} is a malformed authorization request: \"400 | Bad Request | Malformed authorization request\" (2026-07-28 basic/authorization › Error Handling), error=\"invalid_request\" (RFC 6750 § 3.1). The credentials are `Bearer`, one space, one token (RFC 6750 § 2.1); this request needs"
            ),
        )?;
    }
    Ok(())
}

pub(super) fn two_places(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let token = world.token("notes:read");
    let body = tools_list(4);
    let reply = send(s, "POST", QUERY_PATH, headers(&body, Some(&token)), Some(&body))?;
    refused(
        &reply,
        &INVALID_REQUEST,
        "a token in the Authorization header and another in the query string: \"Clients MUST NOT use more than one method to transmit the token in each request\" (RFC 6750 § 2), and a request that \"uses more than one method for including an access token\" is invalid_request with 400 (§ 3.1), so it needs",
    )?;
    Ok(())
}

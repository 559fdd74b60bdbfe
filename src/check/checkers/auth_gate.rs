//! Checker for exercise 12-auth-gate: the learner's program is a modern
//! (2026-07-28) Streamable HTTP server on a loopback port that is an OAuth
//! resource server. The checker plays its client, and on a second loopback
//! port its authorization server (RFC 8414 metadata, RFC 7662
//! introspection) and the upstream notes API it calls (`auth_gate/world.rs`).
//! The cases on where the token is are in `auth_gate/location.rs`, on what
//! it says in `auth_gate/claims.rs`, on which verdict wins when more than
//! one thing is wrong in `auth_gate/verdicts.rs`, on what HTTP makes
//! case-insensitive in `auth_gate/spelling.rs`; the rest are here.
//!
//! Mistakes it catches: a token read from the query string, a malformed
//! header taken as no header (or as a token), a token trusted without
//! asking the authorization server, an introspection request without the
//! server's credentials, `active` trusted without the audience or the
//! expiry, 401 where a scope is missing (the client re-authorizes in a
//! loop) or 403 without the scopes, the client's token passed upstream,
//! authorization checked after the MCP headers (an unauthenticated
//! client learns what the server runs), a scope checked before the token
//! is known good, `bearer` or `authorization` refused, and a failed
//! introspection answered 401 (the client re-authorizes for nothing).
//!
//! Two classes of mistakes, each member with its case (the module docs of
//! `verdicts.rs` and `spelling.rs` name the step that catches it):
//!
//! - Authorization verdicts in the right order: the scope checked before
//!   the expiry, the audience or `active` → `invalid token: 401 first`;
//!   the MCP headers checked before the token is validated, or the body
//!   judged before it → `invalid token: 401 first`; the MCP headers
//!   checked before the scope → `too narrow: 403 first`; the metadata
//!   route before the Origin check, the MCP headers before the token's
//!   presence → `check order`.
//! - Tokens the RFCs make case-insensitive: the `Bearer` scheme compared
//!   exactly, header names compared with one spelling, the
//!   `Authorization` headers counted by one spelling → `Bearer in any
//!   case`.
//!
//! The rules (2026-07-28 basic/authorization pages unless named; 2025-11-25
//! basic/authorization says the same), and the case for each:
//!
//! - authorization-server-discovery › Authorization Server Location: "The
//!   Protected Resource Metadata document returned by the MCP server MUST
//!   include the `authorization_servers` field"; › Protected Resource
//!   Metadata Discovery Requirements, the well-known URI "At the path of the
//!   server's MCP endpoint" (RFC 9728 § 3.1), serving both mechanisms being
//!   this course's choice → `Protected Resource Metadata`.
//! - › Access Token Usage › Token Requirements: "authorization MUST be
//!   included in every HTTP request"; a request without a token gets 401
//!   with "the resource metadata URL in the `WWW-Authenticate` HTTP header
//!   under `resource_metadata` when returning `401 Unauthorized`"
//!   (authorization-server-discovery) → `no token: 401`.
//! - "Access tokens MUST NOT be included in the URI query string" → `token
//!   in the query string` (it is no token: 401 as above).
//! - › Error Handling: "400 | Bad Request | Malformed authorization
//!   request"; RFC 6750 § 3.1 `invalid_request` → `malformed Authorization:
//!   400`; RFC 6750 § 2: "Clients MUST NOT use more than one method to
//!   transmit the token in each request" → `token in two places: 400`.
//! - › Token Handling: "Invalid or expired tokens MUST receive a HTTP 401
//!   response", RFC 6750 § 3.1 `invalid_token`; RFC 7662 § 2.2 `active` →
//!   `inactive token: 401`; "MCP servers MUST validate that access tokens
//!   were issued specifically for them as the intended audience" →
//!   `other resource's token: 401`; RFC 7662 § 4, the resource server
//!   checks `exp` itself → `expired token: 401`.
//! - › Scope Challenge Handling › Runtime Insufficient Scope Errors: "the
//!   server SHOULD respond with: HTTP 403 Forbidden", `error=
//!   "insufficient_scope"`, `scope`, `resource_metadata`; 2026-07-28 asks
//!   for every scope the operation needs → `insufficient scope: 403`.
//! - › Token Handling: "MUST validate access tokens"; a live token for this
//!   server is served → `a valid token is served`.
//! - RFC 7662 § 2.1: the introspection request is a POST of `token`, and
//!   "the endpoint MUST also require some form of authorization" (this
//!   server's client credentials) → `introspection per RFC 7662`.
//! - security-considerations › Access Token Privilege Restriction: "The MCP
//!   server MUST NOT pass through the token it received from the MCP
//!   client" → `no token passthrough`.
//! - security-considerations: "MCP servers MUST validate access tokens before
//!   processing the request"; basic/transports/streamable-http › Security &
//!   Endpoint: "Servers MUST validate the Origin header on all incoming
//!   connections", the metadata route included; the course's order: Origin,
//!   HTTP method, the token (401, 400), its scope (403), then the MCP
//!   checks (400) → `check order`, `invalid token: 401 first` (› Token
//!   Handling: "Invalid or expired tokens MUST receive a HTTP 401
//!   response", whatever else is wrong), `too narrow: 403 first`.
//! - streamable-http › Case Sensitivity: "Clients and servers MUST use
//!   case-insensitive comparisons for header names"; RFC 9110 § 11.1, the
//!   auth scheme is a case-insensitive token → `Bearer in any case`.
//! - The spec says nothing of an introspection that fails; the course
//!   answers 503, since the token was not judged and a 401 `invalid_token`
//!   would send the client to re-authorize for nothing (course rule:
//!   introspection-down) → `introspection down: 503`.
//!
//! Not tested, and why:
//! - HTTPS ("All authorization server endpoints MUST be served over
//!   HTTPS"): the exercise runs on loopback, the one place the course
//!   relaxes it.
//! - Token signatures (JWT): the checker's tokens are opaque, so
//!   introspection is the only way to validate them.
//! - How long a server may cache an introspection answer (RFC 7662 § 4
//!   leaves it to the server): every case mints fresh tokens.

mod claims;
mod location;
mod spelling;
mod verdicts;
mod wire;
mod world;

use serde_json::{Value, json};

use crate::check::http::Reply;
use crate::check::session::Session;
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use claims::{audience, expired, inactive, insufficient_scope};
use location::{malformed, no_token, query_token, two_places};
use spelling::any_case;
use verdicts::{introspection_down, invalid_first, order, scope_first};
use wire::{Refusal, call, post, request, send, served, shown};
use world::{ARGS, CLIENT_ID, UPSTREAM_TOKEN, World, client_basic};

/// The checker named `auth-gate`.
pub static CHECKER: Checker = Checker {
    name: "auth-gate",
    shape: Shape::Http,
    schema: false,
    cases: &[
        Case {
            name: "Protected Resource Metadata",
            about: "GET /.well-known/oauth-protected-resource/mcp gives resource (the canonical URI), authorization_servers, scopes_supported and bearer_methods_supported [\"header\"]",
            rules: &[
                "2026-07-28 basic/authorization/authorization-server-discovery › Authorization Server Location",
                "2026-07-28 basic/authorization/authorization-server-discovery › Protected Resource Metadata Discovery Requirements",
                "2026-07-28 basic/authorization › Canonical Server URI",
                "course rule: serve-both",
            ],
            args: ARGS,
            run: resource_metadata,
        },
        Case {
            name: "no token: 401",
            about: "a request without a bearer token (none, or Basic credentials) gets 401 with WWW-Authenticate: Bearer resource_metadata=\"…\"",
            rules: &[
                "2026-07-28 basic/authorization › Token Requirements",
                "2026-07-28 basic/authorization/authorization-server-discovery › Protected Resource Metadata Discovery Requirements",
            ],
            args: ARGS,
            run: no_token,
        },
        Case {
            name: "token in the query string",
            about: "a token only in the query string (?access_token=…) is no token: 401 with the resource_metadata challenge, never served",
            rules: &["2026-07-28 basic/authorization › Token Requirements"],
            args: ARGS,
            run: query_token,
        },
        Case {
            name: "malformed auth header: 400",
            about: "an Authorization header that is not Bearer and one token (Bearer alone, two words, two headers) gets 400 with error=\"invalid_request\"",
            rules: &["2026-07-28 basic/authorization › Error Handling"],
            args: ARGS,
            run: malformed,
        },
        Case {
            name: "token in two places: 400",
            about: "a token in the Authorization header and in the query string gets 400 with error=\"invalid_request\"",
            rules: &["2026-07-28 basic/authorization › Error Handling"],
            args: ARGS,
            run: two_places,
        },
        Case {
            name: "inactive token: 401",
            about: "a token introspection calls inactive (revoked, or unknown) gets 401 with error=\"invalid_token\"",
            rules: &[
                "2026-07-28 basic/authorization › Token Handling",
                "course rule: introspection",
            ],
            args: ARGS,
            run: inactive,
        },
        Case {
            name: "other resource's token: 401",
            about: "an active token whose aud is not this server's canonical URI (another server, a list without it, none) gets 401 with error=\"invalid_token\"",
            rules: &["2026-07-28 basic/authorization › Token Handling"],
            args: ARGS,
            run: audience,
        },
        Case {
            name: "expired token: 401",
            about: "a token whose exp has passed gets 401 with error=\"invalid_token\", even though introspection said active",
            rules: &["2026-07-28 basic/authorization › Token Handling"],
            args: ARGS,
            run: expired,
        },
        Case {
            name: "insufficient scope: 403",
            about: "a live token without the scopes a request needs gets 403 with error=\"insufficient_scope\", scope=\"…\" (all it needs) and resource_metadata",
            rules: &["2026-07-28 basic/authorization › Runtime Insufficient Scope Errors"],
            args: ARGS,
            run: insufficient_scope,
        },
        Case {
            name: "a valid token is served",
            about: "a live token for this server with the scopes needed is served: tools/list, and add_note with aud as a list",
            rules: &["2026-07-28 basic/authorization › Token Handling"],
            args: ARGS,
            run: valid,
        },
        Case {
            name: "introspection per RFC 7662",
            about: "the server asks the introspection endpoint from the authorization server's metadata: a POST of token=…, with its client credentials",
            rules: &["course rule: introspection"],
            args: ARGS,
            run: introspection,
        },
        Case {
            name: "no token passthrough",
            about: "list_notes calls the notes API with the server's own credential, never the client's token",
            rules: &["2026-07-28 basic/authorization/security-considerations › Access Token Privilege Restriction"],
            args: ARGS,
            run: passthrough,
        },
        Case {
            name: "check order",
            about: "Origin first, for the metadata route too, then the HTTP method, then authorization, then the MCP headers and version: 403, 405, 401, then 400 -32020",
            rules: &[
                "course rule: check-order",
                "2026-07-28 basic/transports/streamable-http › Security & Endpoint",
            ],
            args: ARGS,
            run: order,
        },
        Case {
            name: "invalid token: 401 first",
            about: "an expired, foreign or revoked token gets 401 invalid_token though the scope is missing too, or the MCP headers are wrong, or the body is not JSON",
            rules: &[
                "2026-07-28 basic/authorization › Token Handling",
                "2026-07-28 basic/authorization/security-considerations › Access Token Privilege Restriction",
                "course rule: check-order",
            ],
            args: ARGS,
            run: invalid_first,
        },
        Case {
            name: "too narrow: 403 first",
            about: "a live token without the scope gets 403 insufficient_scope though its MCP-Protocol-Version header disagrees with the body",
            rules: &[
                "2026-07-28 basic/authorization › Runtime Insufficient Scope Errors",
                "course rule: check-order",
            ],
            args: ARGS,
            run: scope_first,
        },
        Case {
            name: "Bearer in any case",
            about: "authorization: bearer …, AUTHORIZATION: BEARER … and Authorization: Bearer … are served; Authorization and authorization together are two headers: 400",
            rules: &[
                "2026-07-28 basic/transports/streamable-http › Case Sensitivity",
                "2026-07-28 basic/authorization › Token Requirements",
                "2026-07-28 basic/authorization › Error Handling",
            ],
            args: ARGS,
            run: any_case,
        },
        Case {
            name: "introspection down: 503",
            about: "when the introspection endpoint does not answer, or answers 500, the token was not judged: 503, not 401 and never served",
            rules: &["course rule: introspection-down"],
            args: ARGS,
            run: introspection_down,
        },
    ],
};
/// RFC 9728 § 3.1, as the reasons quote it.
const WELL_KNOWN: &str = "the well-known path /.well-known/oauth-protected-resource followed by the endpoint's path, /mcp (RFC 9728 § 3.1; 2026-07-28 basic/authorization/authorization-server-discovery › Protected Resource Metadata Discovery Requirements)";
/// The 401 rule, as the reasons quote it.
const TOKEN_HANDLING: &str = "\"Invalid or expired tokens MUST receive a HTTP 401 response\" (2026-07-28 basic/authorization › Token Handling), with error=\"invalid_token\" (RFC 6750 § 3.1)";

/// The 401 a request without a usable token gets.
fn unauthenticated(world: &World) -> Refusal<'_> {
    Refusal {
        status: 401,
        error: None,
        metadata: Some(&world.metadata_url),
        shape: "with WWW-Authenticate: Bearer resource_metadata=\"…\"",
    }
}

/// The 401 an invalid token gets.
const INVALID_TOKEN: Refusal<'static> = Refusal {
    status: 401,
    error: Some("invalid_token"),
    metadata: None,
    shape: "with WWW-Authenticate: Bearer error=\"invalid_token\"",
};

/// The 400 a malformed request gets.
const INVALID_REQUEST: Refusal<'static> = Refusal {
    status: 400,
    error: Some("invalid_request"),
    metadata: None,
    shape: "with WWW-Authenticate: Bearer error=\"invalid_request\"",
};

fn tools_list(id: u64) -> Value {
    request(id, "tools/list", json!({}))
}

fn resource_metadata(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let reply = send(
        s,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        vec![("Accept".into(), "application/json".into())],
        None,
    )?;
    let expected = json!({
        "resource": world.resource,
        "authorization_servers": [world.issuer()],
        "scopes_supported": ["notes:read", "notes:write"],
        "bearer_methods_supported": ["header"],
    });
    let Some(document) = reply.json().filter(|_| reply.status == 200) else {
        return Err(Failure::mismatch(
            format!(
                "the Protected Resource Metadata is served at {WELL_KNOWN}: 200 and a JSON document, with no token needed (a client reads it to learn where to get one); got {}",
                reply.status
            ),
            json!({"status": 200, "body": expected}),
            shown(&reply),
        ));
    };
    if document.get("resource") != Some(&json!(world.resource)) {
        return Err(Failure::partial(
            "resource is this server's canonical URI, exactly the --resource it was given: clients ask for tokens for that URI (RFC 8707), and check that it matches the server they called (RFC 9728 § 3.3)",
            expected,
            document,
        ));
    }
    let servers = document.get("authorization_servers").and_then(Value::as_array);
    if !servers.is_some_and(|s| s.contains(&json!(world.issuer()))) {
        return Err(Failure::partial(
            "\"The Protected Resource Metadata document returned by the MCP server MUST include the authorization_servers field containing at least one authorization server\" (2026-07-28 basic/authorization/authorization-server-discovery › Authorization Server Location): here the --authorization-server it was given",
            expected,
            document,
        ));
    }
    let scopes = document.get("scopes_supported").and_then(Value::as_array);
    if !scopes.is_some_and(|s| s.contains(&json!("notes:read")) && s.contains(&json!("notes:write"))) {
        return Err(Failure::partial(
            "scopes_supported lists the scopes this server knows, notes:read and notes:write (RFC 9728 § 2): a client with no scope in the challenge asks for these (2026-07-28 basic/authorization › Scope Selection Strategy)",
            expected,
            document,
        ));
    }
    if document.get("bearer_methods_supported") != Some(&json!(["header"])) {
        return Err(Failure::partial(
            "bearer_methods_supported is [\"header\"]: the Authorization header is the one way this server takes a token (RFC 9728 § 2), and \"Access tokens MUST NOT be included in the URI query string\" (2026-07-28 basic/authorization › Token Requirements)",
            expected,
            document,
        ));
    }
    Ok(())
}

/// Why a live token was not served, with what the authorization server saw
/// when that explains it.
fn not_served(world: &World, reply: &Reply, id: u64, why: &str) -> Failure {
    let asked = world.requests_to("/introspect");
    let detail = match asked.last() {
        None => " The server never called the introspection endpoint: it cannot know the token is live without asking (or never found the endpoint: introspection_endpoint in the metadata at /.well-known/oauth-authorization-server).".to_string(),
        Some(r) if r.header("Authorization") != Some(client_basic().as_str()) => format!(
            " Its introspection request was refused with 401: it carried {}, and the endpoint wants this server's client credentials, Authorization: Basic base64(\"{CLIENT_ID}:<secret>\") (RFC 7662 § 2.1).",
            r.header("Authorization").map_or("no Authorization header".to_string(), |a| format!("Authorization: {a}"))
        ),
        Some(_) => String::new(),
    };
    let mut failure = served(reply, id, why).err().unwrap_or_else(|| Failure::new(why));
    if !detail.is_empty() && !failure.reason.ends_with('.') {
        failure.reason.push('.');
    }
    failure.reason.push_str(&detail);
    failure
}

fn valid(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let reader = world.token("notes:read");
    let reply = post(s, &tools_list(10), Some(&reader))?;
    if served(&reply, 10, "").is_err() {
        return Err(not_served(
            &world,
            &reply,
            10,
            "a live token for this server, with notes:read, issued for its canonical URI, is served: tools/list gets",
        ));
    }
    let mut claims = world.claims("notes:read notes:write");
    claims["aud"] = json!(["http://127.0.0.1:1/notes-service", world.resource]);
    let writer = world.mint(claims);
    let reply = post(s, &call(11, "add_note", json!({"text": "buy milk"})), Some(&writer))?;
    let result = served(&reply, 11, "").map_err(|_| {
        not_served(
            &world,
            &reply,
            11,
            "a live token with notes:read and notes:write whose aud is a list holding this server's canonical URI is for this server (aud is \"a string or list of strings\", RFC 7662 § 2.2): add_note gets",
        )
    })?;
    if result.get("isError") == Some(&json!(true)) {
        return Err(Failure::showing(
            "add_note was served but failed: its call to the notes API did not go through (see no token passthrough)",
            result,
        ));
    }
    Ok(())
}

fn introspection(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let token = world.token("notes:read");
    let reply = post(s, &tools_list(12), Some(&token))?;
    let why = "the server validates the token with the authorization server's introspection endpoint (RFC 7662 § 2.1): a POST, form-encoded, of token=<the token>, authenticated with the server's own client credentials (\"the endpoint MUST also require some form of authorization\"); the endpoint is introspection_endpoint in the metadata at /.well-known/oauth-authorization-server (RFC 8414 § 3). Then the request gets";
    if served(&reply, 12, "").is_err() {
        return Err(not_served(&world, &reply, 12, why));
    }
    let asked = world.requests_to("/introspect");
    let Some(last) = asked.last() else {
        return Err(Failure::new(
            "the request was served, but the server never asked the introspection endpoint: an opaque token means nothing until the authorization server says it is active, for whom, until when, with which scope (RFC 7662 § 2). A server that trusts any token lets anyone in",
        ));
    };
    let form = last.form();
    if last.method != "POST" || !form.iter().any(|(n, v)| n == "token" && *v == token) {
        return Err(Failure::showing(
            "the introspection request is a POST whose form body holds token=<the access token> (RFC 7662 § 2.1)",
            json!({"method": last.method, "path": last.path, "form": form}),
        ));
    }
    Ok(())
}

fn passthrough(s: &mut Session) -> CaseResult {
    let world = World::start(s)?;
    let token = world.token("notes:read");
    let reply = post(s, &call(13, "list_notes", json!({})), Some(&token))?;
    let calls = world.requests_to("/upstream/notes");
    let bad = calls
        .iter()
        .find(|c| c.header("Authorization") != Some(&format!("Bearer {UPSTREAM_TOKEN}")));
    if let Some(bad) = bad {
        let sent = bad.header("Authorization").unwrap_or("no Authorization header");
        let passed = if sent.contains(&token) {
            "the client's token, passed through"
        } else {
            "not the server's own credential"
        };
        return Err(Failure::mismatch(
            format!(
                "the notes API got Authorization: {sent}, {passed}. \"The MCP server MUST NOT pass through the token it received from the MCP client\" (2026-07-28 basic/authorization/security-considerations › Access Token Privilege Restriction): that token was issued for this server, and the upstream call uses the server's own credential, --upstream-token"
            ),
            json!({"Authorization": "Bearer <--upstream-token>"}),
            json!({"Authorization": sent}),
        ));
    }
    let why = "list_notes with a live notes:read token gets";
    let result = served(&reply, 13, why).map_err(|f| {
        if calls.is_empty() {
            not_served(&world, &reply, 13, why)
        } else {
            f
        }
    })?;
    let text = result.pointer("/content/0/text").and_then(Value::as_str).unwrap_or("");
    if calls.is_empty() || !text.contains(&world.note) {
        return Err(Failure::mismatch(
            "list_notes returns the notes the notes API holds: the server calls GET <--upstream>/notes with its own credential and returns them as text",
            json!({"content": [{"type": "text", "text": world.note}]}),
            result,
        ));
    }
    Ok(())
}

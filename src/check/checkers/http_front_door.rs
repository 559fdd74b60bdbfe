//! Checker for exercise 06-http-front-door: the learner's program is a
//! modern (2026-07-28) Streamable HTTP server on a loopback port, and the
//! checker sends it real HTTP requests.
//!
//! Mistakes it catches: C04 (200 or 204 for a notification), trusting
//! headers without comparing them to the body (or only when present), an
//! Origin check by prefix or against the Host header (DNS rebinding), a
//! loopback origin refused, ids changed on the way back or a null id
//! served, errors without a message, a missing server/discover or cache
//! hints, and streams that send the response first or go on after it.
//!
//! The server's MUST / MUST NOT rules (2026-07-28; pages
//! basic/transports/streamable-http unless named), and the case for each:
//!
//! - › Security & Endpoint: "Servers MUST validate the Origin header";
//!   present and invalid: "MUST respond with HTTP 403" → `foreign Origin:
//!   403` (also with a matching foreign Host, a null Origin, look-alike
//!   hosts), `loopback Origin served` (http or https; localhost, 127.0.0.1,
//!   [::1]; any port). No Origin is served in every other case.
//! - "MUST provide a single HTTP endpoint path … that supports POST" →
//!   `only POST /mcp`, `POST answered with JSON`.
//! - › Sending Messages 5, an accepted notification: "MUST return HTTP
//!   status code 202 Accepted with no body" → `notification: 202`; 6, a
//!   request: "MUST return either … application/json … or
//!   text/event-stream" → `POST answered with JSON`, `progress as an SSE
//!   stream` (notifications first, the response last).
//! - › Protocol Version Header: "MUST match" the body's version, a request
//!   without it "MUST" be rejected → `version header must match`; a version
//!   not implemented → "MUST respond with 400 … UnsupportedProtocolVersion
//!   Error" → `unsupported version`; a method not implemented → "MUST
//!   respond with 404 … -32601" → `unknown method: 404`.
//! - › Standard Request Headers, › Server Validation (-32020) → `Mcp-Method
//!   must match`, `Mcp-Name must match` (missing or different), `Mcp-Name
//!   from params.uri` (resources/read mirrors `params.uri`: a server that
//!   compares `params.name`, or checks Mcp-Name on tools/call only,
//!   fails it); › Value Encoding, servers "MUST decode" the sentinel →
//!   `base64 Mcp-Name decoded`.
//! - basic/index › Requests: "a string or integer ID", "MUST NOT be null";
//!   › Result Responses: "the same ID" → `request ids` (a forbidden id gets
//!   a 4xx, its body if any -32600 without an id); › Error Responses: "an
//!   error field with a code and message" → every error case; "The result
//!   MUST include a resultType" → `POST answered with JSON`, `server/discover
//!   and cache hints`; › _meta: a request missing a required field "MUST"
//!   get -32602, on HTTP 400 → `_meta fields required`. The spec orders
//!   this and -32020 nowhere; a missing `_meta` version also disagrees with
//!   the header, so that case expects `_meta` checked first (course rule:
//!   meta-before-headers).
//! - basic/versioning: "Servers MUST implement server/discover";
//!   server/utilities/caching: "MUST include caching hints", "ttlMs … >= 0"
//!   → `discover and cache hints`.
//! - › Backward Compatibility (a SHOULD): GET and DELETE get 405 → `only
//!   POST /mcp`.
//! - › Case Sensitivity: "Clients and servers MUST use case-insensitive
//!   comparisons for header names" → `header names in any case`. The
//!   checkers' HTTP client writes every name in lower case, so this case
//!   sends its requests byte for byte (`toolkit::raw_http`). The class "header names
//!   the RFCs make case-insensitive", each member with its step: names
//!   compared with the spec's spelling (`MCP-Protocol-Version`) → the
//!   lower-case request; names compared in lower case only → the UPPER
//!   case request and the spec's spelling; `Origin` looked up by one
//!   spelling, so a foreign `ORIGIN` is served → the last step.
//!
//! Not tested, and why:
//! - › Cancellation: closing the SSE stream "MUST be treated … as
//!   cancellation", and the server "MUST NOT send any further messages for
//!   it": once the client has closed the stream nothing the server does is
//!   observable, and this server's calls finish at once.
//! - "MUST NOT send independent JSON-RPC requests on this stream": this
//!   server has nothing to ask; the SSE case reads only progress and the
//!   response.
//! - basic/index: "MUST NOT rely on capabilities the client has not
//!   declared" (-32021): no method here needs a client capability.
//! - Mcp-Param-{Name} and x-mcp-header: this server's tools declare none.
//! - caching: "the same cacheScope to all response pages": tools/list is
//!   one page.

mod messages;
mod names;
mod origin;
mod requests;

use serde_json::{Value, json};

use crate::check::http::Request;
use crate::check::session::Session;
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use crate::mcp;
use messages::{discover, request_ids, sse_progress};
use names::uri_name;
use origin::{any_case, loopback_origin, origin};
use requests::{error_reply, exchange, headers_for, ok_reply, post, send, shown, tool_call, with_header};

/// The checker named `http-front-door`.
pub static CHECKER: Checker = Checker {
    name: "http-front-door",
    shape: Shape::Http,
    schema: false,
    cases: &[
        Case {
            name: "POST answered with JSON",
            about: "a tools/call POST with every header right gets 200, application/json, and a response with resultType complete",
            rules: &["2026-07-28 basic/transports/streamable-http › Sending Messages"],
            args: &[],
            run: post_ok,
        },
        Case {
            name: "notification: 202",
            about: "a POSTed notification gets 202 Accepted and an empty body",
            rules: &["2026-07-28 basic/transports/streamable-http › Sending Messages"],
            args: &[],
            run: notification,
        },
        Case {
            name: "only POST /mcp",
            about: "another path gets 404; GET and DELETE get 405, as the modern endpoint has no GET stream and no sessions to DELETE",
            rules: &[
                "2026-07-28 basic/transports/streamable-http › Sending Messages",
                "2026-07-28 basic/transports/streamable-http › Earlier Streamable HTTP Revisions",
            ],
            args: &[],
            run: not_allowed,
        },
        Case {
            name: "Mcp-Method must match",
            about: "a request without the Mcp-Method header, or with one naming another method than the body, gets 400 with -32020 HeaderMismatch",
            rules: &[
                "2026-07-28 basic/transports/streamable-http › Standard Request Headers",
                "2026-07-28 basic/transports/streamable-http › Server Validation",
            ],
            args: &[],
            run: method_header,
        },
        Case {
            name: "Mcp-Name must match",
            about: "a tools/call without Mcp-Name, or whose Mcp-Name names another tool than the body, gets 400 with -32020",
            rules: &[
                "2026-07-28 basic/transports/streamable-http › Standard Request Headers",
                "2026-07-28 basic/transports/streamable-http › Server Validation",
            ],
            args: &[],
            run: name_mismatch,
        },
        Case {
            name: "Mcp-Name from params.uri",
            about: "a resources/read whose Mcp-Name is its params.uri (plain, or in the Base64 sentinel) passes the header checks (this server has no resources: 404 -32601); one naming another URI gets 400 -32020",
            rules: &[
                "2026-07-28 basic/transports/streamable-http › Standard Request Headers",
                "2026-07-28 basic/transports/streamable-http › Server Validation",
                "2026-07-28 basic/transports/streamable-http › Protocol Version Header",
            ],
            args: &[],
            run: uri_name,
        },
        Case {
            name: "_meta fields required",
            about: "a request whose _meta lacks clientCapabilities, or the protocol version, gets 400 with -32602 Invalid params",
            rules: &["2026-07-28 basic/index › _meta", "course rule: meta-before-headers"],
            args: &[],
            run: meta_required,
        },
        Case {
            name: "version header must match",
            about: "an MCP-Protocol-Version header that is missing or disagrees with the body's _meta version gets 400 with -32020",
            rules: &[
                "2026-07-28 basic/transports/streamable-http › Protocol Version Header",
                "2026-07-28 basic/transports/streamable-http › Server Validation",
            ],
            args: &[],
            run: version_mismatch,
        },
        Case {
            name: "unsupported version",
            about: "a version the server does not implement gets 400 with -32022 listing data.supported and data.requested",
            rules: &["2026-07-28 basic/transports/streamable-http › Protocol Version Header"],
            args: &[],
            run: unsupported_version,
        },
        Case {
            name: "unknown method: 404",
            about: "a method the server does not implement gets 404 with -32601",
            rules: &["2026-07-28 basic/transports/streamable-http › Protocol Version Header"],
            args: &[],
            run: unknown_method,
        },
        Case {
            name: "foreign Origin: 403",
            about: "a request from a foreign Origin gets 403, also when its Host names the same foreign site (DNS rebinding)",
            rules: &["2026-07-28 basic/transports/streamable-http › Security & Endpoint"],
            args: &[],
            run: origin,
        },
        Case {
            name: "loopback Origin served",
            about: "a request whose Origin is this machine (http or https; localhost, 127.0.0.1 or [::1]; any port) is served",
            rules: &[
                "2026-07-28 basic/transports/streamable-http › Security & Endpoint",
                "course rule: loopback-origins",
            ],
            args: &[],
            run: loopback_origin,
        },
        Case {
            name: "header names in any case",
            about: "the request headers spelled in lower case, UPPER case or as the spec writes them are served alike; ORIGIN: http://evil.example gets 403",
            rules: &[
                "2026-07-28 basic/transports/streamable-http › Case Sensitivity",
                "2026-07-28 basic/transports/streamable-http › Security & Endpoint",
            ],
            args: &[],
            run: any_case,
        },
        Case {
            name: "base64 Mcp-Name decoded",
            about: "an Mcp-Name in the =?base64?…?= sentinel is decoded before it is compared with the body",
            rules: &["2026-07-28 basic/transports/streamable-http › Value Encoding"],
            args: &[],
            run: base64_name,
        },
        Case {
            name: "progress as an SSE stream",
            about: "a call that asks for progress gets text/event-stream: the progress notifications first, then the response, then the end",
            rules: &["2026-07-28 basic/transports/streamable-http › Receiving Messages"],
            args: &[],
            run: sse_progress,
        },
        Case {
            name: "discover and cache hints",
            about: "server/discover lists 2026-07-28 and the tools capability; it and tools/list carry resultType complete, ttlMs (>= 0) and cacheScope",
            rules: &[
                "2026-07-28 changelog › Major changes",
                "2026-07-28 server/utilities/caching › Cacheable Results",
            ],
            args: &[],
            run: discover,
        },
        Case {
            name: "request ids",
            about: "every string and integer id comes back exactly (empty, 1 KiB, non-ASCII, escaped, 64-bit extremes); a null, fractional, object, array or boolean id gets 400, never a result",
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Result Responses",
            ],
            args: &[],
            run: request_ids,
        },
    ],
};

fn post_ok(s: &mut Session) -> CaseResult {
    let body = tool_call(1, "echo", json!({"text": "hello"}), mcp::MODERN);
    let reply = post(s, headers_for(&body), &body)?;
    let result = ok_reply(&reply, 1, "a well-formed tools/call is served")?;
    if result.get("resultType") != Some(&json!("complete")) {
        return Err(Failure::mismatch(
            "every 2026-07-28 result carries resultType; a finished call says \"complete\" (2026-07-28 basic/index)",
            json!({"resultType": "complete", "content": [{"type": "text", "text": "hello"}]}),
            result,
        ));
    }
    if result.pointer("/content/0/text") != Some(&json!("hello")) {
        return Err(Failure::mismatch(
            "echo returns its text in a text content block",
            json!({"content": [{"type": "text", "text": "hello"}]}),
            result,
        ));
    }
    Ok(())
}

fn notification(s: &mut Session) -> CaseResult {
    let body = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "no longer needed"}});
    let reply = post(s, headers_for(&body), &body)?;
    if reply.status == 202 && reply.body.is_empty() {
        return Ok(());
    }
    let why = match reply.status {
        200 => {
            "a notification was answered with 200. Nobody waits for an answer to a notification: the server MUST return 202 Accepted with no body (2026-07-28 basic/transports/streamable-http › Sending Messages, a conformance test server got this wrong and broke clients)"
        }
        204 => {
            "204 No Content is not the answer to a notification: the spec names 202 Accepted, and clients check for it"
        }
        202 => "202 is right, but the body must be empty: a notification gets no JSON-RPC response",
        _ => "a notification the server accepts gets 202 Accepted with no body",
    };
    Err(Failure::mismatch(
        why,
        json!({"status": 202, "body": "", "…": "…"}),
        shown(&reply),
    ))
}

fn not_allowed(s: &mut Session) -> CaseResult {
    let body = tool_call(13, "echo", json!({"text": "hi"}), mcp::MODERN);
    let reply = send(
        s,
        &Request {
            method: "POST",
            path: "/elsewhere",
            headers: headers_for(&body),
            body: Some(body.to_string().into_bytes()),
        },
    )?;
    if reply.status != 404 {
        return Err(Failure::mismatch(
            "POST /elsewhere should get 404: the server has one MCP endpoint, /mcp, and nothing else answers as MCP",
            json!({"status": 404, "…": "…"}),
            shown(&reply),
        ));
    }
    for method in ["GET", "DELETE"] {
        let reply = exchange(
            s,
            method,
            vec![
                ("Accept".into(), "text/event-stream".into()),
                ("MCP-Protocol-Version".into(), mcp::MODERN.into()),
            ],
            None,
        )?;
        if reply.status != 405 {
            return Err(Failure::mismatch(
                format!(
                    "{method} /mcp should get 405 Method Not Allowed: in 2026-07-28 the endpoint takes POST only. There is no GET stream and no session to DELETE (2026-07-28 basic/transports/streamable-http › Backward Compatibility)"
                ),
                json!({"status": 405, "…": "…"}),
                shown(&reply),
            ));
        }
    }
    Ok(())
}

fn method_header(s: &mut Session) -> CaseResult {
    let body =
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list", "params": {"_meta": mcp::request_meta(mcp::MODERN)}});
    let reply = post(s, with_header(headers_for(&body), "Mcp-Method", None), &body)?;
    error_reply(
        &reply,
        400,
        -32020,
        "Mcp-Method is required on every request, and a request without it gets",
    )?;
    let call = tool_call(12, "echo", json!({"text": "hi"}), mcp::MODERN);
    let reply = post(
        s,
        with_header(headers_for(&call), "Mcp-Method", Some("tools/list")),
        &call,
    )?;
    error_reply(
        &reply,
        400,
        -32020,
        "Mcp-Method says tools/list but the body is a tools/call. A gateway may route or rate-limit by the header while the server runs the body, so present is not enough: it must equal the body's method, and a mismatch gets",
    )?;
    Ok(())
}

fn name_mismatch(s: &mut Session) -> CaseResult {
    let body = tool_call(5, "echo", json!({"text": "hi"}), mcp::MODERN);
    let reply = post(s, with_header(headers_for(&body), "Mcp-Name", Some("count")), &body)?;
    error_reply(
        &reply,
        400,
        -32020,
        "Mcp-Name says count but the body calls echo. A gateway may route or authorize by the header while the server runs the body, so a mismatch is rejected with",
    )?;
    let reply = post(s, with_header(headers_for(&body), "Mcp-Name", None), &body)?;
    error_reply(
        &reply,
        400,
        -32020,
        "a tools/call carries an Mcp-Name header naming its tool (2026-07-28 basic/transports/streamable-http › Standard Request Headers), so one without it is rejected with",
    )?;
    Ok(())
}

/// Every modern request carries the protocol version and the client
/// capabilities in `params._meta` (2026-07-28 schema, `RequestMetaObject`);
/// without them the server cannot tell what the client can do. The
/// conformance suite's stateless mock answers 400 with -32602.
fn meta_required(s: &mut Session) -> CaseResult {
    for (id, missing) in [(20, mcp::meta::CLIENT_CAPABILITIES), (21, mcp::meta::PROTOCOL_VERSION)] {
        let mut body = tool_call(id, "echo", json!({"text": "hi"}), mcp::MODERN);
        let headers = headers_for(&body);
        body["params"]["_meta"]
            .as_object_mut()
            .expect("meta is an object")
            .remove(missing);
        let reply = post(s, headers, &body)?;
        error_reply(
            &reply,
            400,
            -32602,
            &format!(
                "every modern request carries {missing} in params._meta (2026-07-28 schema, RequestMetaObject); a request without it gets"
            ),
        )?;
    }
    Ok(())
}

fn version_mismatch(s: &mut Session) -> CaseResult {
    let body = tool_call(6, "echo", json!({"text": "hi"}), mcp::MODERN);
    let reply = post(
        s,
        with_header(headers_for(&body), "MCP-Protocol-Version", Some(mcp::LEGACY)),
        &body,
    )?;
    error_reply(
        &reply,
        400,
        -32020,
        "the MCP-Protocol-Version header (2025-11-25) must equal the body's _meta version (2026-07-28); a mismatch gets",
    )?;
    let reply = post(s, with_header(headers_for(&body), "MCP-Protocol-Version", None), &body)?;
    error_reply(
        &reply,
        400,
        -32020,
        "every POST carries an MCP-Protocol-Version header, and a server that does not take pre-2025-06-18 clients \"MUST reject a request without the header\" (2026-07-28 basic/transports/streamable-http › Protocol Version Header); a request without it gets",
    )?;
    Ok(())
}

fn unsupported_version(s: &mut Session) -> CaseResult {
    let body = tool_call(7, "echo", json!({"text": "hi"}), mcp::FUTURE);
    let reply = post(s, headers_for(&body), &body)?;
    let error = error_reply(&reply, 400, -32022, "a version this server does not implement gets")?;
    let data = error.pointer("/error/data").cloned().unwrap_or(Value::Null);
    let supported = data.get("supported").and_then(Value::as_array);
    if supported.is_some_and(|v| v.contains(&json!(mcp::MODERN))) && data.get("requested") == Some(&json!(mcp::FUTURE))
    {
        return Ok(());
    }
    Err(Failure::mismatch(
        "the -32022 error's data lists the versions the server supports and the one requested, so the client can pick a mutual version and retry (UnsupportedProtocolVersionError, 2026-07-28 schema)",
        json!({"supported": [mcp::MODERN], "requested": mcp::FUTURE}),
        data,
    ))
}

fn unknown_method(s: &mut Session) -> CaseResult {
    let body = json!({"jsonrpc": "2.0", "id": 8, "method": "widgets/list", "params": {"_meta": mcp::request_meta(mcp::MODERN)}});
    let reply = post(s, headers_for(&body), &body)?;
    error_reply(
        &reply,
        404,
        -32601,
        "a method the server does not implement (2026-07-28 basic/transports/streamable-http › Request Metadata) gets a 404 whose JSON-RPC body tells it apart from a server with no MCP endpoint at all, so the answer is",
    )?;
    Ok(())
}

fn base64_name(s: &mut Session) -> CaseResult {
    let body = tool_call(10, "echo", json!({"text": "hi"}), mcp::MODERN);
    // "echo" and "count" in the base64 sentinel (Value Encoding).
    let reply = post(
        s,
        with_header(headers_for(&body), "Mcp-Name", Some("=?base64?ZWNobw==?=")),
        &body,
    )?;
    ok_reply(
        &reply,
        10,
        "Mcp-Name =?base64?ZWNobw==?= is \"echo\" once decoded, the same as the body, so the call is served",
    )?;
    let reply = post(
        s,
        with_header(headers_for(&body), "Mcp-Name", Some("=?base64?Y291bnQ=?=")),
        &body,
    )?;
    error_reply(
        &reply,
        400,
        -32020,
        "Mcp-Name =?base64?Y291bnQ=?= decodes to \"count\", not the body's \"echo\": decode, then compare, and a mismatch gets",
    )?;
    Ok(())
}

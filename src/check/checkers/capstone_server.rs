//! Checker for exercise 11-capstone-server: the learner's program is a
//! complete dual-era stdio server (tools, a resource, a prompt, progress,
//! cancellation); the checker is its client, legacy (after `initialize`)
//! or modern (`_meta` on every request), case by case.
//!
//! Expected behaviour comes from MCP 2025-11-25 basic/lifecycle (version
//! negotiation, ping before initialize, one initialize), basic/index
//! (notifications get no reply), server/tools, server/resources,
//! server/prompts, basic/utilities/progress and cancellation; and from
//! 2026-07-28 basic/index (`_meta` on every request, capabilities per
//! request, `resultType`, -32022), server/discover, server/utilities/caching
//! and basic/patterns/cancellation (on stdio the client sends
//! `notifications/cancelled`; the server stops and sends no response).
//! Mistakes it catches (implementer-mistakes log): ping refused before
//! initialize (C12), a second initialize accepted (C13), a version not
//! negotiated (C14), an unknown tool as a tool error (C08), bad input as a
//! protocol error (C09), content not a list (C11), progress with the wrong
//! token, repeated or after the response (C23), a response to a cancelled
//! request (C24), stdout junk (C15, through the session), plus a reply to
//! a notification, modern results without `resultType`, capabilities taken
//! from an earlier request, and a server that blocks on a long call.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::server_client::{
    Client, META_VERSION, as_result, call_tool, content_list, expect_error, initialize_params, modern_fields,
    modern_meta, response_to, structured_with_mirror, unknown_tool,
};
use super::{Case, CaseResult, Checker, Failure, Shape, same};
use crate::check::session::Session;
use crate::jsonrpc::{Kind, classify};

/// The checker named `capstone-server`.
pub static CHECKER: Checker = Checker {
    name: "capstone-server",
    shape: Shape::Program,
    schema: true,
    cases: &[
        Case {
            name: "handshake (legacy)",
            about: "ping works before initialize, other requests are refused with their id, initialize settles 2025-11-25, notifications get no reply, and a second initialize is refused",
            args: &[],
            run: handshake,
        },
        Case {
            name: "counter-offer",
            about: "initialize at a version the server does not implement gets a result offering 2025-11-25, not an error and not an echo",
            args: &[],
            run: counter_offer,
        },
        Case {
            name: "tools (legacy)",
            about: "tools/list names reverse, word_count and countdown; reverse returns a list of one text block; word_count returns structuredContent and its text mirror",
            args: &[],
            run: tools_legacy,
        },
        Case {
            name: "tools (modern)",
            about: "the same tools in 2026-07-28, each result carrying resultType, the list also ttlMs and cacheScope",
            args: &[],
            run: tools_modern,
        },
        Case {
            name: "unknown tool: -32602",
            about: "a tools/call for a tool that does not exist gets -32602, not a result with isError",
            args: &[],
            run: unknown_tool,
        },
        Case {
            name: "bad steps: isError",
            about: "countdown with steps 0 returns a result with isError true and a message, not a JSON-RPC error",
            args: &[],
            run: bad_steps,
        },
        Case {
            name: "resource (legacy)",
            about: "resources/list names notes://capstone/about; resources/read returns its text; an unknown URI gets -32002",
            args: &[],
            run: resource_legacy,
        },
        Case {
            name: "resource (modern)",
            about: "the same read in 2026-07-28 with its cache fields; an unknown URI gets -32602",
            args: &[],
            run: resource_modern,
        },
        Case {
            name: "prompt",
            about: "prompts/get review_code returns one user message with the code; a missing argument or an unknown prompt gets -32602",
            args: &[],
            run: prompt,
        },
        Case {
            name: "discover and modern results",
            about: "server/discover lists 2026-07-28; prompts in 2026-07-28 carry resultType, and the cacheable ones ttlMs and cacheScope",
            args: &[],
            run: discover,
        },
        Case {
            name: "unsupported version: -32022",
            about: "a modern request at a version the server does not implement gets -32022 listing data.supported and data.requested",
            args: &[],
            run: unsupported_version,
        },
        Case {
            name: "no stale _meta",
            about: "each modern request stands alone: one without clientCapabilities gets -32602, one without _meta gets an error, whatever came before",
            args: &[],
            run: no_stale_meta,
        },
        Case {
            name: "progress (legacy)",
            about: "countdown 3 with a progressToken sends progress 1, 2, 3 of 3 echoing that token, all before its result, and nothing after",
            args: &[],
            run: progress_legacy,
        },
        Case {
            name: "progress (modern)",
            about: "the same in 2026-07-28 with an integer token, while another call is answered at once",
            args: &[],
            run: progress_modern,
        },
        Case {
            name: "no token, no progress",
            about: "a countdown without a progressToken sends no progress, only its result",
            args: &[],
            run: no_token,
        },
        Case {
            name: "cancel (legacy)",
            about: "notifications/cancelled stops a running countdown: no more progress, no response; a cancel for an unknown id is ignored; the server stays usable",
            args: &[],
            run: cancel_legacy,
        },
        Case {
            name: "cancel (modern)",
            about: "the same in 2026-07-28 on stdio: the client's notifications/cancelled stops the call, which gets no response",
            args: &[],
            run: cancel_modern,
        },
    ],
};

const TOOL_NAMES: [&str; 3] = ["reverse", "word_count", "countdown"];
const ABOUT_URI: &str = "notes://capstone/about";
const ABOUT_TEXT: &str = "The mcplings capstone server: three tools, one resource, one prompt, two eras.";
/// How long a countdown step takes, in milliseconds (the task's 200).
const STEP_MS: u64 = 200;

/// Fails when the program writes anything within `window`; `what` names
/// what was just sent, for the reason.
fn silent(s: &mut Session, window: Duration, what: &str) -> CaseResult {
    match s.recv_within(window)? {
        None => Ok(()),
        Some(got) => Err(Failure {
            actual: Some(got.value),
            ..Failure::new(format!(
                "{what}, and the server wrote a frame. A notification is never answered, not even with an error (2025-11-25 basic/index › Notifications)"
            ))
        }),
    }
}

fn handshake(s: &mut Session) -> CaseResult {
    let mut c = Client::before_initialize();
    let ping = c.call(s, "ping", json!({}))?;
    if ping.get("result") != Some(&json!({})) {
        return Err(Failure::partial(
            "ping is answered with an empty result in every phase, before initialize too (2025-11-25 basic/utilities/ping; rust-sdk#488)",
            json!({"result": {}}),
            ping,
        ));
    }
    let early = c.call(s, "tools/list", json!({}))?;
    if early.get("error").is_none() {
        return Err(Failure::partial(
            "tools/list before initialize was served: a legacy server has no session yet, so it refuses with an error response carrying the request's id (2025-11-25 basic/lifecycle › Initialization)",
            json!({"error": {"code": -32600, "message": "…"}}),
            early,
        ));
    }
    let result = c.result(s, "initialize", initialize_params("2025-11-25"))?;
    let expected = json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}, "resources": {}, "prompts": {}}, "serverInfo": {"name": "capstone-server", "version": "0.1.0"}});
    same(
        super::open(expected),
        &result,
        "initialize at 2025-11-25 gets that version, the tools, resources and prompts capabilities, and serverInfo",
    )?;
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
    silent(
        s,
        Duration::from_millis(300),
        "the client sent notifications/initialized",
    )?;
    let again = c.call(s, "initialize", initialize_params("2025-11-25"))?;
    if again.get("error").is_none() {
        return Err(Failure::partial(
            "a second initialize on the same session is refused with an error response: the session exists already (2025-11-25 basic/lifecycle; csharp-sdk#1422)",
            json!({"error": {"code": -32600, "message": "…"}}),
            again,
        ));
    }
    c.result(s, "tools/list", json!({})).map(|_| ())
}

fn counter_offer(s: &mut Session) -> CaseResult {
    let mut c = Client::before_initialize();
    let response = c.call(s, "initialize", initialize_params("2099-01-01"))?;
    let offered = response.pointer("/result/protocolVersion").cloned();
    if offered == Some(json!("2025-11-25")) {
        return Ok(());
    }
    let why = match offered {
        Some(Value::String(v)) if v == "2099-01-01" => {
            "initialize at 2099-01-01 was echoed back: the server does not implement it. Answer with a version it does implement, its newest, and let the client decide (2025-11-25 basic/lifecycle › Version Negotiation; swift-sdk#106)"
        }
        Some(_) => {
            "initialize at 2099-01-01 gets a counter-offer: the newest version the server implements, \"2025-11-25\""
        }
        None => {
            "initialize at an unknown version is not an error: the server offers the newest version it implements in a result, and the client decides (2025-11-25 basic/lifecycle › Version Negotiation)"
        }
    };
    Err(Failure::partial(
        why,
        json!({"result": {"protocolVersion": "2025-11-25"}}),
        response,
    ))
}

/// Lists the tools and checks their names, order and schemas.
fn list_tools(c: &mut Client, s: &mut Session) -> Result<Vec<Value>, Failure> {
    let listed = c.result(s, "tools/list", json!({}))?;
    if c.modern {
        modern_fields(&listed, "tools/list", true)?;
    }
    let tools = listed
        .get("tools")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let names: Vec<&str> = tools
        .iter()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .collect();
    if names != TOOL_NAMES {
        return Err(Failure::mismatch(
            "tools/list names the three tools, in this order",
            json!(TOOL_NAMES),
            json!(names),
        ));
    }
    if let Some(bad) = tools
        .iter()
        .find(|t| t.pointer("/inputSchema/type") != Some(&json!("object")))
    {
        let revision = if c.modern { "2026-07-28" } else { "2025-11-25" };
        return Err(Failure::partial(
            format!(
                "every tool's inputSchema is a JSON Schema object with \"type\": \"object\" (Tool, {revision} schema)"
            ),
            json!({"inputSchema": {"type": "object"}}),
            bad.clone(),
        ));
    }
    if tools[1].pointer("/outputSchema/type") != Some(&json!("object")) {
        return Err(Failure::partial(
            "word_count declares an outputSchema, an object schema with words and characters",
            json!({"name": "word_count", "outputSchema": {"type": "object"}}),
            tools[1].clone(),
        ));
    }
    Ok(tools)
}

/// word_count on `text`: structuredContent `expected` and its text mirror.
fn word_count(c: &mut Client, s: &mut Session, text: &str, expected: Value) -> CaseResult {
    let result = call_tool(c, s, "word_count", json!({"text": text}))?;
    structured_with_mirror(
        &result,
        &expected,
        &format!("word_count of {text:?} declares an outputSchema"),
    )
}

fn tools_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy(s)?;
    list_tools(&mut c, s)?;
    let reversed = call_tool(&mut c, s, "reverse", json!({"text": "Ada"}))?;
    same(
        json!({"content": [{"type": "text", "text": "adA"}], "…": "…"}),
        &reversed,
        "reverse of \"Ada\" is one text block, \"adA\"",
    )?;
    word_count(&mut c, s, "hi there", json!({"words": 2, "characters": 8}))
}

fn tools_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern();
    list_tools(&mut c, s)?;
    let reversed = call_tool(&mut c, s, "reverse", json!({"text": "stressed"}))?;
    same(
        json!({"content": [{"type": "text", "text": "desserts"}], "…": "…"}),
        &reversed,
        "reverse of \"stressed\" is one text block, \"desserts\"",
    )?;
    word_count(&mut c, s, "one two  three", json!({"words": 3, "characters": 14}))
}

fn bad_steps(s: &mut Session) -> CaseResult {
    let mut c = Client::modern();
    let response = c.call(s, "tools/call", json!({"name": "countdown", "arguments": {"steps": 0}}))?;
    let Some(result) = response.get("result").cloned() else {
        return Err(Failure::partial(
            "steps 0 is a valid request with a bad value: a tool error, a result with isError: true and a message the model can act on, not a JSON-RPC error (2025-11-25 server/tools › Error Handling; go-sdk#450)",
            json!({"result": {"content": [{"type": "text", "text": "steps 0 is out of range: use 1 to 10"}], "isError": true}}),
            response,
        ));
    };
    content_list(&result)?;
    let has_text = result["content"].as_array().is_some_and(|b| {
        b.iter()
            .any(|b| b.get("text").and_then(Value::as_str).is_some_and(|t| !t.is_empty()))
    });
    if result.get("isError") != Some(&json!(true)) || !has_text {
        return Err(Failure::partial(
            "steps 0 is out of range: the result says so with isError: true and a text block naming the range, or the model takes it for success",
            json!({"content": [{"type": "text", "text": "steps 0 is out of range: use 1 to 10"}], "isError": true}),
            result,
        ));
    }
    modern_fields(&result, "tools/call", false)
}

/// resources/read of the about resource; returns the result.
fn read_about(c: &mut Client, s: &mut Session) -> Result<Value, Failure> {
    let result = c.result(s, "resources/read", json!({"uri": ABOUT_URI}))?;
    let expected = json!({"contents": [{"uri": ABOUT_URI, "mimeType": "text/plain", "text": ABOUT_TEXT}]});
    same(
        super::open(expected),
        &result,
        "resources/read of notes://capstone/about returns contents: one entry with its uri, mimeType text/plain and ABOUT_TEXT",
    )?;
    Ok(result)
}

fn resource_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy(s)?;
    let listed = c.result(s, "resources/list", json!({}))?;
    same(
        super::open(json!({"resources": [{"uri": ABOUT_URI, "name": "about", "mimeType": "text/plain"}]})),
        &listed,
        "resources/list names the one resource, notes://capstone/about",
    )?;
    read_about(&mut c, s)?;
    c.error(s, "resources/read", json!({"uri": "notes://capstone/missing"}), -32002, "a resource that does not exist gets -32002 Resource not found in the legacy era (2025-11-25 server/resources › Error Handling)")
}

fn resource_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern();
    let listed = c.result(s, "resources/list", json!({}))?;
    modern_fields(&listed, "resources/list", true)?;
    let read = read_about(&mut c, s)?;
    modern_fields(&read, "resources/read", true)?;
    c.error(
        s,
        "resources/read",
        json!({"uri": "notes://capstone/missing"}),
        -32602,
        "a resource that does not exist gets -32602 in 2026-07-28, which retired -32002 (2026-07-28 server/resources)",
    )
}

fn prompt(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy(s)?;
    let listed = c.result(s, "prompts/list", json!({}))?;
    same(
        super::open(json!({"prompts": [{"name": "review_code", "arguments": [{"name": "code", "required": true}]}]})),
        &listed,
        "prompts/list names review_code and its required argument code",
    )?;
    let result = c.result(
        s,
        "prompts/get",
        json!({"name": "review_code", "arguments": {"code": "fn main() {}"}}),
    )?;
    let expected = json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Please review this code:\n\nfn main() {}"}}]});
    same(
        super::open(expected),
        &result,
        "prompts/get returns messages: one user message whose content is one text block (an object, not a list): \"Please review this code:\\n\\n\" and the code",
    )?;
    c.error(s, "prompts/get", json!({"name": "review_code", "arguments": {}}), -32602, "prompts/get without the required argument `code` gets -32602 Invalid params (2025-11-25 server/prompts › Error Handling)")?;
    c.error(s, "prompts/get", json!({"name": "write_poem", "arguments": {}}), -32602, "prompts/get for a prompt that does not exist gets -32602 Invalid params (2025-11-25 server/prompts › Error Handling)")
}

fn discover(s: &mut Session) -> CaseResult {
    let mut c = Client::modern();
    let found = c.result(s, "server/discover", json!({}))?;
    let versions_ok = found
        .get("supportedVersions")
        .and_then(Value::as_array)
        .is_some_and(|v| v.contains(&json!("2026-07-28")));
    if !versions_ok || !found.get("capabilities").is_some_and(Value::is_object) {
        return Err(Failure::partial(
            "server/discover returns supportedVersions (listing 2026-07-28) and capabilities (2026-07-28 server/discover)",
            json!({"supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18"], "capabilities": {"tools": {}, "resources": {}, "prompts": {}}}),
            found,
        ));
    }
    modern_fields(&found, "server/discover", true)?;
    let listed = c.result(s, "prompts/list", json!({}))?;
    modern_fields(&listed, "prompts/list", true)?;
    let got = c.result(
        s,
        "prompts/get",
        json!({"name": "review_code", "arguments": {"code": "x = 1"}}),
    )?;
    modern_fields(&got, "prompts/get", false)
}

fn unsupported_version(s: &mut Session) -> CaseResult {
    let mut meta = modern_meta();
    meta[META_VERSION] = json!("2099-01-01");
    s.send_json(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}))?;
    let response = response_to(s.recv()?.value, &json!(1), "tools/list")?;
    expect_error(
        response.clone(),
        -32022,
        "a modern request at a version the server does not implement gets -32022 UnsupportedProtocolVersionError (2026-07-28 basic/index)",
    )?;
    let supported = response
        .pointer("/error/data/supported")
        .and_then(Value::as_array)
        .is_some_and(|v| v.contains(&json!("2026-07-28")));
    if !supported || response.pointer("/error/data/requested") != Some(&json!("2099-01-01")) {
        return Err(Failure::partial(
            "the -32022 error's data lists the versions the server supports and the one requested, so the client can pick a shared version and retry (UnsupportedProtocolVersionError, 2026-07-28 schema)",
            json!({"error": {"code": -32022, "data": {"supported": ["2026-07-28", "2025-11-25", "2025-06-18"], "requested": "2099-01-01"}}}),
            response,
        ));
    }
    Ok(())
}

fn no_stale_meta(s: &mut Session) -> CaseResult {
    let mut c = Client::modern();
    c.result(s, "tools/list", json!({}))?;
    let mut meta = modern_meta();
    meta.as_object_mut()
        .map(|m| m.remove("io.modelcontextprotocol/clientCapabilities"));
    s.send_json(&json!({"jsonrpc": "2.0", "id": "no-caps", "method": "tools/list", "params": {"_meta": meta}}))?;
    let response = response_to(s.recv()?.value, &json!("no-caps"), "tools/list")?;
    expect_error(
        response,
        -32602,
        "a modern request without io.modelcontextprotocol/clientCapabilities gets -32602: capabilities are declared on every request, and a server MUST NOT take them from an earlier one (RequestMetaObject, 2026-07-28 schema)",
    )?;
    s.send_json(&json!({"jsonrpc": "2.0", "id": "bare", "method": "tools/list", "params": {}}))?;
    let response = response_to(s.recv()?.value, &json!("bare"), "tools/list")?;
    if response.get("error").is_none() {
        return Err(Failure::partial(
            "tools/list with no _meta and no initialize was served: it is neither a modern request (no version in _meta) nor part of a legacy session. Each modern request stands alone; an earlier one opens nothing, so refuse it with an error",
            json!({"error": {"code": -32600, "message": "…"}}),
            response,
        ));
    }
    Ok(())
}

/// Reads frames until the response to `id`; returns the frames before it
/// (notifications, other responses) and the response.
fn until_response(s: &mut Session, id: &Value, method: &str) -> Result<(Vec<Value>, Value), Failure> {
    let mut before = Vec::new();
    loop {
        let got = s.recv()?.value;
        let mine = match classify(&got) {
            Kind::Success { id: got_id } | Kind::Error { id: Some(got_id), .. } => got_id.to_value() == *id,
            _ => false,
        };
        if mine {
            return Ok((before, response_to(got, id, method)?));
        }
        before.push(got);
    }
}

fn is_progress(frame: &Value) -> bool {
    frame.get("method") == Some(&json!("notifications/progress"))
}

/// Checks the progress frames of a countdown of `steps` that asked with
/// `token`: each echoes the token, and the values go 1, 2, … `steps`, of
/// `total` steps.
fn check_progress(frames: &[Value], token: &Value, id: &Value, steps: u64) -> CaseResult {
    let progress: Vec<&Value> = frames.iter().filter(|f| is_progress(f)).collect();
    if let Some(wrong) = progress
        .iter()
        .find(|p| p.pointer("/params/progressToken") != Some(token))
    {
        let got = wrong.pointer("/params/progressToken").cloned().unwrap_or(Value::Null);
        let why = if got == *id {
            format!(
                "the progress carries the request's id ({id}) as its token: echo the token the request carried in params._meta.progressToken, {token}; the two are different values (2025-11-25 basic/utilities/progress)"
            )
        } else {
            format!(
                "the progress carries progressToken {got}, but the request asked with {token}: echo that token exactly, or the client cannot tell which call it belongs to (2025-11-25 basic/utilities/progress)"
            )
        };
        return Err(Failure::partial(
            why,
            json!({"method": "notifications/progress", "params": {"progressToken": token}}),
            (*wrong).clone(),
        ));
    }
    let values: Vec<Value> = progress
        .iter()
        .map(|p| p.pointer("/params/progress").cloned().unwrap_or(Value::Null))
        .collect();
    let expected: Vec<Value> = (1..=steps).map(|n| json!(n)).collect();
    if values.iter().map(Value::as_f64).collect::<Vec<_>>() != expected.iter().map(Value::as_f64).collect::<Vec<_>>() {
        let numbers: Vec<f64> = values.iter().filter_map(Value::as_f64).collect();
        let why = if numbers.windows(2).any(|w| w[1] <= w[0]) {
            "progress MUST increase with every notification (2025-11-25 basic/utilities/progress › Progress Flow; typescript-sdk#1001): a value that repeats or goes back can hold a client's timeout open forever".to_string()
        } else {
            format!("countdown {steps} reports progress after each step, 1 to {steps}, all before its result")
        };
        return Err(Failure::mismatch(why, json!(expected), json!(values)));
    }
    if let Some(bad) = progress
        .iter()
        .find(|p| p.pointer("/params/total").and_then(Value::as_f64) != Some(steps as f64))
    {
        return Err(Failure::partial(
            format!("each progress of countdown {steps} carries total {steps}"),
            json!({"params": {"total": steps}}),
            (*bad).clone(),
        ));
    }
    Ok(())
}

/// After a countdown's response: nothing more about it may come.
fn nothing_after(s: &mut Session) -> CaseResult {
    match s.recv_within(Duration::from_millis(2 * STEP_MS))? {
        None => Ok(()),
        Some(got) if is_progress(&got.value) => Err(Failure {
            actual: Some(got.value),
            ..Failure::new(
                "progress came after the countdown's result: progress MUST stop once the response is sent, since the token is dead then (2025-11-25 basic/utilities/progress › Behavior Requirements). Send the last progress, then the result",
            )
        }),
        Some(got) => Err(Failure {
            actual: Some(got.value),
            ..Failure::new("after the countdown's result nothing more was due")
        }),
    }
}

/// When fewer than `steps` progress frames came before a countdown's
/// result, fails if the rest come after it.
fn early_result(s: &mut Session, before: &[Value], steps: usize) -> CaseResult {
    if before.iter().filter(|f| is_progress(f)).count() < steps {
        nothing_after(s)
    } else {
        Ok(())
    }
}

/// Checks a finished countdown of `steps`.
fn liftoff(response: Value, steps: u64, modern: bool) -> CaseResult {
    let result = as_result(
        response,
        "tools/call",
        &json!({"name": "countdown"}),
        if modern { "2026-07-28" } else { "2025-11-25" },
    )?;
    same(
        json!({"content": [{"type": "text", "text": format!("Liftoff after {steps} steps.")}], "…": "…"}),
        &result,
        &format!("countdown {steps} ends with one text block, \"Liftoff after {steps} steps.\""),
    )?;
    if modern {
        modern_fields(&result, "tools/call", false)?;
    }
    Ok(())
}

fn countdown(c: &mut Client, s: &mut Session, steps: u64, token: Option<Value>) -> Result<Value, Failure> {
    let mut params = json!({"name": "countdown", "arguments": {"steps": steps}});
    if let Some(token) = token {
        params["_meta"] = json!({"progressToken": token});
    }
    c.send(s, "tools/call", params)
}

fn progress_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy(s)?;
    let token = json!("tok-legacy");
    let id = countdown(&mut c, s, 3, Some(token.clone()))?;
    let (before, response) = until_response(s, &id, "tools/call")?;
    early_result(s, &before, 3)?;
    check_progress(&before, &token, &id, 3)?;
    liftoff(response, 3, false)?;
    nothing_after(s)
}

fn progress_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern();
    let token = json!(77);
    let id = countdown(&mut c, s, 3, Some(token.clone()))?;
    let first = s.recv()?.value;
    if !is_progress(&first) {
        if first.get("id") == Some(&id) {
            early_result(s, &[], 3)?;
        }
        let reason = match classify(&first) {
            Kind::Success { .. } | Kind::Error { .. } => {
                "the countdown answered before any progress: with a progressToken in its _meta, countdown 3 sends progress after each 200 ms step, then its result"
            }
            _ => "the first frame after countdown 3 is its first progress",
        };
        return Err(Failure::partial(
            reason,
            json!({"method": "notifications/progress", "params": {"progressToken": 77, "progress": 1, "total": 3}}),
            first,
        ));
    }
    let other = c.send(
        s,
        "tools/call",
        json!({"name": "reverse", "arguments": {"text": "live"}}),
    )?;
    let (mut before, response) = until_response(s, &id, "tools/call")?;
    before.insert(0, first);
    let answered = before.iter().position(|f| f.get("id") == Some(&other));
    let Some(at) = answered else {
        return Err(Failure::new(
            "reverse, sent while countdown 3 ran, was not answered before the countdown finished: handle() waited for the countdown. Run the countdown on a thread of its own, so the loop keeps reading and answering (and can see a cancellation)",
        ));
    };
    let reversed = before.remove(at);
    same(
        json!({"jsonrpc": "2.0", "id": other, "result": {"content": [{"type": "text", "text": "evil"}], "resultType": "complete", "…": "…"}}),
        &reversed,
        "reverse of \"live\" is \"evil\", with its resultType",
    )?;
    check_progress(&before, &token, &id, 3)?;
    liftoff(response, 3, true)?;
    nothing_after(s)
}

fn no_token(s: &mut Session) -> CaseResult {
    let mut c = Client::modern();
    let id = countdown(&mut c, s, 2, None)?;
    let (before, response) = until_response(s, &id, "tools/call")?;
    if let Some(progress) = before.iter().find(|f| is_progress(f)) {
        return Err(Failure {
            actual: Some(progress.clone()),
            ..Failure::new(
                "the request carried no progressToken, yet progress came: progress is opt-in, and without a token there is nothing to tag it with (2025-11-25 basic/utilities/progress)",
            )
        });
    }
    liftoff(response, 2, true)
}

/// Starts countdown 5 with a token, waits for its first progress, cancels
/// it, and checks that neither progress nor a response follows for it.
/// The cancellation rules of the era in play, `rules` citing them.
fn cancelled(c: &mut Client, s: &mut Session, rules: &str) -> CaseResult {
    let token = json!("tok-cancel");
    let id = countdown(c, s, 5, Some(token.clone()))?;
    let first = s.recv()?.value;
    if !is_progress(&first) {
        return Err(Failure::partial(
            "countdown 5 with a progressToken first sends progress 1 of 5, after its first 200 ms step",
            json!({"method": "notifications/progress", "params": {"progressToken": token, "progress": 1}}),
            first,
        ));
    }
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id, "reason": "the user pressed Esc"}}))?;
    let sent = Instant::now();
    // A quick call right behind the cancel: a server that reads while the
    // countdown runs answers it at once; one whose handle() runs the
    // countdown itself reads both only when the countdown is over.
    let quick = c.send(s, "tools/call", json!({"name": "reverse", "arguments": {"text": "on"}}))?;
    let mut answered_quick = false;
    // The rest of the countdown would take 4 steps; wait past them.
    let until = sent + Duration::from_millis(5 * STEP_MS + 300);
    while let Some(got) = s.recv_within(until.saturating_duration_since(Instant::now()))? {
        let frame = got.value;
        if frame.get("id") == Some(&quick) && frame.get("method").is_none() {
            let text = frame.pointer("/result/content/0/text").cloned().unwrap_or(Value::Null);
            if text != json!("no") {
                return Err(Failure::partial(
                    "a call sent right after the cancel is served as usual: reverse of \"on\" is \"no\"",
                    json!({"id": quick, "result": {"content": [{"type": "text", "text": "no"}], "…": "…"}}),
                    frame,
                ));
            }
            answered_quick = true;
            continue;
        }
        // A progress already on its way when the cancel was sent is the
        // normal race (› Timing Considerations).
        if is_progress(&frame) && sent.elapsed() < Duration::from_millis(STEP_MS / 2) {
            continue;
        }
        let blocked = !answered_quick && (is_progress(&frame) || frame.get("id") == Some(&id));
        let why = if blocked {
            format!(
                "the countdown went on after notifications/cancelled named it, and a call sent right behind the cancel waited for it: handle() runs the countdown itself, so the cancel sits unread in stdin until the countdown is over, and the receiver SHOULD stop the work ({rules}). Run the countdown on a thread of its own and keep reading; the thread checks between steps whether the call was cancelled"
            )
        } else if is_progress(&frame) {
            format!(
                "the countdown went on after notifications/cancelled named it: the receiver SHOULD stop the work and free its resources ({rules}). Check between steps whether the call was cancelled"
            )
        } else if frame.get("id") == Some(&id) && frame.pointer("/error/code") == Some(&json!(0)) {
            format!(
                "the cancelled request {id} got an error response with code 0. A cancelled request gets no response at all ({rules}; python-sdk#2480, where a client reconnected on every cancel), and code 0 means nothing in JSON-RPC"
            )
        } else if frame.get("id") == Some(&id) {
            format!(
                "the cancelled request {id} got a response. The receiver of notifications/cancelled sends no response for that request ({rules}): the client has forgotten it and would take it for an orphan"
            )
        } else {
            "after notifications/cancelled nothing was due: a notification is never answered".to_string()
        };
        return Err(Failure {
            actual: Some(frame),
            ..Failure::new(why)
        });
    }
    if !answered_quick {
        return Err(Failure::new(format!(
            "a tools/call sent right after the cancel got no response within {} ms",
            5 * STEP_MS + 300
        )));
    }
    s.send_json(&json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 999, "reason": "no such call"}}))?;
    silent(
        s,
        Duration::from_millis(200),
        "the client cancelled request 999, which never existed (such a cancel SHOULD be ignored, › Error Handling)",
    )?;
    let after = call_tool(c, s, "reverse", json!({"text": "on"}))?;
    same(
        json!({"content": [{"type": "text", "text": "no"}], "…": "…"}),
        &after,
        "after a cancellation the server stays usable: reverse of \"on\" is \"no\"",
    )
}

fn cancel_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy(s)?;
    cancelled(
        &mut c,
        s,
        "2025-11-25 basic/utilities/cancellation › Behavior Requirements",
    )
}

fn cancel_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern();
    cancelled(
        &mut c,
        s,
        "2026-07-28 basic/patterns/cancellation › Behavior Requirements",
    )
}

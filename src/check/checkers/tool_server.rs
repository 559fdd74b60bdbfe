//! Checker for exercise 07-tool-server: the learner's program is a
//! dual-era stdio server with tools, resources and a prompt; the checker is
//! its client, legacy (after `initialize`) or modern (`_meta` on every
//! request), case by case.
//!
//! Mistakes it catches: an unknown tool reported as a tool error, bad
//! input as a protocol error with code 0, `content` that is not a list, a
//! structured result without its text mirror, an empty `contents` for a
//! missing resource, the wrong era's not-found code, a cursor that never
//! ends or is not checked, modern results without their fields or cache
//! hints, ids changed on the way back or a null id served.
//!
//! The server's MUST / MUST NOT rules on the pages its lesson cites
//! (2025-11-25 and 2026-07-28 alike unless a revision is named), and the
//! case for each; each case's `rules` names them by key, as the sections
//! exercise 07 needs (Parts 1 and 4) state them:
//!
//! - basic/index › Requests and › Result Responses (string or integer ids,
//!   never null, the same id back) → `request ids (legacy)`, `request ids
//!   (modern)`. Ids of every legal shape wherever an id travels: the
//!   response to every request of every case, whose client turns through
//!   0, "req-1", "2", -3, … (`Client::varied`), and the 13 shapes of the id
//!   cases (`m07_ids_through_f64`, `m07_digit_strings_turned_into_numbers`,
//!   `m07_null_id_served`). No progress or cancellation here (11 has them).
//! - server/tools › Listing Tools (2026-07-28): "MUST respond to tools/list
//!   with the set of tools …", "MUST NOT vary per-connection or as a side
//!   effect of other requests" → `tools in pages (legacy)`, `tools in pages
//!   (modern)` (the same order every time); inputSchema "MUST be a valid
//!   JSON Schema object" → the schema check on tools/list.
//! - server/tools › Output Schema: "Servers MUST provide structured results
//!   that conform to this schema" → `add: structured + mirror`.
//! - server/tools › Error Handling and › Security ("Validate all tool
//!   inputs") → `unknown tool: -32602`, `out of range: isError`,
//!   `schema-breaking arguments`; content blocks → `greet: text`,
//!   `describe: four kinds`.
//! - server/utilities/pagination (cursors opaque, the last page without
//!   nextCursor, an invalid cursor -32602) → `tools in pages (legacy)`,
//!   `invalid cursor: -32602`.
//! - server/resources: "Binary data MUST be properly encoded" →
//!   `read text, blob, template`; not found: -32002 (2025-11-25),
//!   "MUST return a JSON-RPC error" -32602 and "MUST NOT return an empty
//!   contents array" (2026-07-28) → `missing resource (legacy)`, `missing
//!   resource (modern)`.
//! - server/prompts (a missing required argument is -32602) → `prompt and
//!   its argument`.
//! - 2026-07-28 basic/index: "The result MUST include a resultType" →
//!   every modern case; server/utilities/caching: "Servers MUST include
//!   caching hints" on the cacheable results → `tools in pages (modern)`,
//!   `cache hints (modern)`, `prompt and its argument`; basic/versioning:
//!   "Servers MUST implement server/discover" → `cache hints (modern)`.
//! - basic/transports › stdio (only MCP messages on stdout, one per line)
//!   → the session, in every case.
//!
//! Not tested, and why:
//! - server/resources › Security: "MUST validate all resource URIs", "MUST
//!   sanitize file paths": this server reads no files; its template only
//!   fills a name into a fixed text.
//! - server/tools › Security: access control, rate limits, sanitized
//!   outputs: no observable contract to hold a server to.
//! - The lifecycle gate, -32022 for an unsupported modern version and -32602
//!   for missing `_meta` fields: in the given era plumbing; 11's checker
//!   holds the learner's own to them.
//! - caching: "the same cacheScope to all response pages": the pages come
//!   from one `finish`, which cannot tell them apart.

mod resources;

use serde_json::{Value, json};

use crate::check::diff::ANY_STRING;
use crate::check::session::Session;
use crate::check::toolkit::as_client::{
    Client, call_tool, ids_legacy, ids_modern, modern_fields, structured_with_mirror, unknown_tool,
};
use crate::check::toolkit::{Case, CaseResult, Checker, Failure, Shape};
use crate::check::toolkit::{compare, ids};
use resources::{cache_hints, missing_legacy, missing_modern, resources_ok};

/// The placeholder for the text of a tool error about a range.
const RANGE_MESSAGE: &str = "‹a message naming the range›";

/// The checker named `tool-server`.
pub static CHECKER: Checker = Checker {
    name: "tool-server",
    shape: Shape::Program,
    schema: true,
    cases: &[
        Case {
            name: "tools in pages (legacy)",
            about: "tools/list gives 3 tools and a nextCursor, the cursor gives the last tool and no nextCursor, and the order is the same every time",
            rules: &[
                "2026-07-28 server/utilities/pagination › Implementation Guidelines",
                "2026-07-28 server/tools › Capabilities",
            ],
            args: &[],
            run: pages_legacy,
        },
        Case {
            name: "tools in pages (modern)",
            about: "the same pages in 2026-07-28, each carrying resultType, ttlMs and cacheScope",
            rules: &[
                "2026-07-28 server/utilities/pagination › Implementation Guidelines",
                "2026-07-28 server/tools › Capabilities",
                "2026-07-28 server/utilities/caching › Cacheable Results",
                "2026-07-28 basic/index › ResultType",
            ],
            args: &[],
            run: pages_modern,
        },
        Case {
            name: "invalid cursor: -32602",
            about: "a cursor the server never handed out gets -32602",
            rules: &["2025-11-25 server/utilities/pagination › Error Handling"],
            args: &[],
            run: invalid_cursor,
        },
        Case {
            name: "greet: text",
            about: "greet returns its greeting in a list holding one text block",
            rules: &[
                "2025-11-25 server/tools › Calling Tools",
                "2025-11-25 server/tools › Tool Result",
            ],
            args: &[],
            run: greet,
        },
        Case {
            name: "describe: four kinds",
            about: "describe returns text, image, resource_link and embedded resource blocks, each with its required fields",
            rules: &["2025-11-25 server/tools › Tool Result"],
            args: &[],
            run: describe,
        },
        Case {
            name: "add: structured + mirror",
            about: "add returns structuredContent that fits its outputSchema, and the same JSON as text",
            rules: &[
                "2025-11-25 server/tools › Structured Content",
                "2025-11-25 server/tools › Output Schema",
            ],
            args: &[],
            run: add,
        },
        Case {
            name: "out of range: isError",
            about: "set_volume with level 11 returns a result with isError true and a message, not a JSON-RPC error",
            rules: &["2025-11-25 server/tools › Error Handling"],
            args: &[],
            run: out_of_range,
        },
        Case {
            name: "unknown tool: -32602",
            about: "a tools/call for a tool that does not exist gets a -32602 error",
            rules: &["2025-11-25 server/tools › Error Handling"],
            args: &[],
            run: unknown_tool,
        },
        Case {
            name: "schema-breaking arguments",
            about: "arguments of the wrong type get -32602 or isError (SDKs differ), never a result that pretends it worked",
            rules: &["2025-11-25 server/tools › Error Handling"],
            args: &[],
            run: bad_arguments,
        },
        Case {
            name: "read text, blob, template",
            about: "resources/list and templates/list name them; reads return text, a base64 blob, and a filled-in template",
            rules: &[
                "2025-11-25 server/resources › Listing Resources",
                "2025-11-25 server/resources › Resource Templates",
                "2025-11-25 server/resources › Resource Contents",
            ],
            args: &[],
            run: resources_ok,
        },
        Case {
            name: "missing resource (legacy)",
            about: "a read of an unknown URI gets -32002 in the legacy era, never an empty contents",
            rules: &["2025-11-25 server/resources › Error Handling"],
            args: &[],
            run: missing_legacy,
        },
        Case {
            name: "missing resource (modern)",
            about: "a read of an unknown URI gets -32602 in the modern era",
            rules: &[
                "2026-07-28 server/resources › Error Handling",
                "2026-07-28 server/utilities/caching › Cacheable Results",
            ],
            args: &[],
            run: missing_modern,
        },
        Case {
            name: "prompt and its argument",
            about: "prompts/get returns messages with the text; without the required argument it gets -32602",
            rules: &[
                "2025-11-25 server/prompts › Getting a Prompt",
                "2025-11-25 server/prompts › PromptMessage",
                "2025-11-25 server/prompts › Error Handling",
                "2026-07-28 server/utilities/caching › Cacheable Results",
            ],
            args: &[],
            run: prompt,
        },
        Case {
            name: "cache hints (modern)",
            about: "in 2026-07-28 server/discover, resources/list, resources/templates/list and resources/read carry resultType, ttlMs and cacheScope; tools/call carries resultType",
            rules: &[
                "2026-07-28 server/utilities/caching › Cacheable Results",
                "2026-07-28 basic/index › ResultType",
            ],
            args: &[],
            run: cache_hints,
        },
        Case {
            name: "request ids (legacy)",
            about: ids::ABOUT,
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
                "2025-11-25 basic/transports › stdio",
            ],
            args: &[],
            run: ids_legacy,
        },
        Case {
            name: "request ids (modern)",
            about: "the same ids on 2026-07-28 requests",
            rules: &[
                "2025-11-25 basic/index › Requests",
                "2025-11-25 basic/index › Result Responses",
                "2025-11-25 basic/index › Error Responses",
            ],
            args: &[],
            run: ids_modern,
        },
    ],
};

const TOOL_NAMES: [&str; 4] = ["greet", "describe", "add", "set_volume"];

fn names(page: &Value) -> Vec<String> {
    page.get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("name").and_then(Value::as_str))
        .map(str::to_string)
        .collect()
}

/// Lists every tool, checking the pages; returns the tools.
fn walk(c: &mut Client, s: &mut Session) -> Result<Vec<Value>, Failure> {
    let first = c.result(s, "tools/list", json!({}))?;
    if c.modern {
        modern_fields(&first, "tools/list", true)?;
    }
    let Some(cursor) = first.get("nextCursor").and_then(Value::as_str).map(str::to_string) else {
        return Err(Failure::partial(
            format!(
                "the first page should hold 3 tools (PAGE_SIZE) and a nextCursor, since a fourth tool follows; got {} tools and no cursor",
                names(&first).len()
            ),
            json!({"tools": ["greet", "describe", "add"], "nextCursor": ANY_STRING}),
            first,
        ));
    };
    if names(&first) != TOOL_NAMES[..3] {
        return Err(Failure::mismatch(
            "the first page holds the first three tools, in order",
            json!(TOOL_NAMES[..3]),
            json!(names(&first)),
        ));
    }
    let second = c.result(s, "tools/list", json!({"cursor": cursor}))?;
    if c.modern {
        modern_fields(&second, "tools/list", true)?;
    }
    if names(&second) != TOOL_NAMES[3..] {
        return Err(Failure::mismatch(
            "the cursor from page 1 gives the rest: set_volume",
            json!(TOOL_NAMES[3..]),
            json!(names(&second)),
        ));
    }
    if let Some(more) = second.get("nextCursor") {
        let reason = match more {
            Value::Null => "the last page carries \"nextCursor\": null. A cursor is a string or absent, never null: only an absent nextCursor ends the list, so leave the field out".to_string(),
            _ => format!("the last page still carries nextCursor {more}. Only an absent nextCursor ends the list, and a client follows any cursor it gets (even \"\", a valid cursor in 2026-07-28), so it would ask forever; leave the field out"),
        };
        return Err(Failure::mismatch(reason, json!({"tools": "…", "…": "…"}), second));
    }
    let mut all: Vec<Value> = first["tools"].as_array().cloned().unwrap_or_default();
    all.extend(second["tools"].as_array().cloned().unwrap_or_default());
    Ok(all)
}

fn pages_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    walk(&mut c, s)?;
    let again = c.result(s, "tools/list", json!({}))?;
    if names(&again) != TOOL_NAMES[..3] {
        return Err(Failure::mismatch(
            "a second listing returns the same order: clients page with cursors and cache by position",
            json!(TOOL_NAMES[..3]),
            json!(names(&again)),
        ));
    }
    Ok(())
}

fn pages_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    walk(&mut c, s)?;
    Ok(())
}

fn invalid_cursor(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    c.error(s, "tools/list", json!({"cursor": "no-such-cursor"}), -32602, "a cursor the server never handed out gets -32602 Invalid params (2025-11-25 server/utilities/pagination › Error Handling)")
}

fn greet(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    let result = call_tool(&mut c, s, "greet", json!({"name": "Ada"}))?;
    compare::same(
        json!({"content": [{"type": "text", "text": "Hello, Ada!"}], "…": "…"}),
        &result,
        "greet returns one text block, \"Hello, Ada!\"",
    )
}

fn describe(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let result = call_tool(&mut c, s, "describe", json!({}))?;
    let blocks = result["content"].as_array().cloned().unwrap_or_default();
    let kinds: Vec<&str> = blocks
        .iter()
        .filter_map(|b| b.get("type").and_then(Value::as_str))
        .collect();
    if kinds != ["text", "image", "resource_link", "resource"] {
        return Err(Failure::mismatch(
            "describe returns four blocks: text, image, resource_link, resource",
            json!(["text", "image", "resource_link", "resource"]),
            json!(kinds),
        ));
    }
    let required: [(&str, &[&str]); 4] = [
        ("text", &["/text"]),
        ("image", &["/data", "/mimeType"]),
        ("resource_link", &["/uri", "/name"]),
        ("resource", &["/resource/uri"]),
    ];
    for ((kind, pointers), block) in required.iter().zip(&blocks) {
        if let Some(missing) = pointers
            .iter()
            .find(|p| block.pointer(p).is_none_or(|v| !v.is_string()))
        {
            return Err(Failure::partial(
                format!("the {kind} block needs a string at {missing} (ContentBlock, 2026-07-28 schema)"),
                json!({"type": kind}),
                block.clone(),
            ));
        }
    }
    let embedded = &blocks[3]["resource"];
    if embedded.get("text").is_none() && embedded.get("blob").is_none() {
        return Err(Failure::partial(
            "an embedded resource carries its contents: text or a base64 blob",
            json!({"uri": "…", "text": "…"}),
            embedded.clone(),
        ));
    }
    Ok(())
}

fn add(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    let tools = walk(&mut c, s)?;
    let schema = tools
        .iter()
        .find(|t| t["name"] == "add")
        .and_then(|t| t.get("outputSchema"))
        .cloned()
        .unwrap_or(Value::Null);
    let result = call_tool(&mut c, s, "add", json!({"a": 2, "b": 3}))?;
    structured_with_mirror(
        &result,
        &json!({"sum": 5}),
        &format!("add declares an outputSchema ({schema})"),
    )
}

fn out_of_range(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let response = c.call(
        s,
        "tools/call",
        json!({"name": "set_volume", "arguments": {"level": 11}}),
    )?;
    let result = match response.get("result") {
        Some(result) => result.clone(),
        None => {
            return Err(Failure::partial(
                "level 11 is a valid request with a bad value: that is a tool error, a result with isError: true and a message the model can read and act on, not a JSON-RPC error (since 2025-11-25, server/tools › Error Handling)",
                json!({"result": {"content": [{"type": "text", "text": RANGE_MESSAGE}], "isError": true}}),
                response,
            ));
        }
    };
    let has_text = result["content"].as_array().is_some_and(|b| {
        b.iter()
            .any(|b| b.get("text").and_then(Value::as_str).is_some_and(|t| !t.is_empty()))
    });
    if result.get("isError") != Some(&json!(true)) || !has_text {
        return Err(Failure::partial(
            "level 11 is out of range: the result says so with isError: true and a text block explaining the range, or the model takes it for success",
            json!({"content": [{"type": "text", "text": RANGE_MESSAGE}], "isError": true}),
            result,
        ));
    }
    modern_fields(&result, "tools/call", false)?;
    let fine = call_tool(&mut c, s, "set_volume", json!({"level": 5}))?;
    if fine.get("isError") == Some(&json!(true)) {
        return Err(Failure::partial(
            "level 5 is in range and succeeds",
            json!({"content": [{"type": "text", "text": ANY_STRING}], "isError": false}),
            fine,
        ));
    }
    Ok(())
}

fn bad_arguments(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let response = c.call(
        s,
        "tools/call",
        json!({"name": "set_volume", "arguments": {"level": "loud"}}),
    )?;
    if response.pointer("/error/code") == Some(&json!(-32602))
        || response.pointer("/result/isError") == Some(&json!(true))
    {
        return Ok(());
    }
    let why = match response.pointer("/error/code") {
        Some(code) => format!("arguments that break the inputSchema got error code {code}: use -32602 Invalid params (the spec's own example), or, as the SDKs do since 2025-11-25, a result with isError: true"),
        None => "\"loud\" is not an integer level, yet the call reported success: arguments that break the inputSchema get -32602, or a result with isError: true".to_string(),
    };
    Err(Failure::partial(
        why,
        json!({"result": {"content": ["…"], "isError": true}}),
        response,
    ))
}

fn prompt(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let listed = c.result(s, "prompts/list", json!({}))?;
    modern_fields(&listed, "prompts/list", true)?;
    let result = c.result(
        s,
        "prompts/get",
        json!({"name": "summarize", "arguments": {"text": "MCP has two eras."}}),
    )?;
    modern_fields(&result, "prompts/get", false)?;
    let message = result.pointer("/messages/0").cloned().unwrap_or(Value::Null);
    let text_ok = message
        .pointer("/content/text")
        .and_then(Value::as_str)
        .is_some_and(|t| t.contains("MCP has two eras."));
    if message.get("role") != Some(&json!("user"))
        || message.pointer("/content/type") != Some(&json!("text"))
        || !text_ok
    {
        return Err(Failure::partial(
            "prompts/get returns messages: a user message whose content is one text block (an object, not a list) holding the text to summarize",
            json!({"messages": [{"role": "user", "content": {"type": "text", "text": "‹a text that holds “MCP has two eras.”›"}}]}),
            result,
        ));
    }
    c.error(s, "prompts/get", json!({"name": "summarize", "arguments": {}}), -32602, "prompts/get without the required argument `text` gets -32602 Invalid params (2025-11-25 server/prompts › Error Handling)")
}

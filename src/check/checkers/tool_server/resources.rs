//! 07's resource cases (2025-11-25 and 2026-07-28 server/resources), and
//! the cache hints every cacheable modern result carries (2026-07-28
//! server/utilities/caching).

use serde_json::{Value, json};

use crate::check::diff::ANY_STRING;
use crate::check::session::Session;
use crate::check::toolkit::as_client::{Client, modern_fields};
use crate::check::toolkit::{CaseResult, Failure};

fn read(c: &mut Client, s: &mut Session, uri: &str) -> Result<Value, Failure> {
    let result = c.result(s, "resources/read", json!({"uri": uri}))?;
    let first = result.pointer("/contents/0").cloned().unwrap_or(Value::Null);
    if first.get("uri") != Some(&json!(uri)) {
        return Err(Failure::partial(
            format!("resources/read of {uri} returns contents, a list whose entries carry the uri they hold"),
            json!({"contents": [{"uri": uri, "…": "…"}]}),
            result,
        ));
    }
    Ok(first)
}

pub(super) fn resources_ok(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    let listed = c.result(s, "resources/list", json!({}))?;
    let uris: Vec<&str> = listed["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| r.get("uri").and_then(Value::as_str))
        .collect();
    if uris != ["file:///notes/readme.md", "file:///images/pixel.png"] {
        return Err(Failure::mismatch(
            "resources/list names both resources",
            json!(["file:///notes/readme.md", "file:///images/pixel.png"]),
            json!(uris),
        ));
    }
    let templates = c.result(s, "resources/templates/list", json!({}))?;
    if templates.pointer("/resourceTemplates/0/uriTemplate") != Some(&json!("weather://forecast/{city}")) {
        return Err(Failure::partial(
            "resources/templates/list names the forecast template",
            json!({"resourceTemplates": [{"uriTemplate": "weather://forecast/{city}"}]}),
            templates,
        ));
    }
    let text = read(&mut c, s, "file:///notes/readme.md")?;
    if !text.get("text").is_some_and(Value::is_string) {
        return Err(Failure::partial(
            "the readme is text: its contents entry carries `text`",
            json!({"uri": "file:///notes/readme.md", "mimeType": "text/markdown", "text": "…"}),
            text,
        ));
    }
    let blob = read(&mut c, s, "file:///images/pixel.png")?;
    if !blob.get("blob").is_some_and(Value::is_string) || blob.get("text").is_some() {
        return Err(Failure::partial(
            "the PNG is binary: its contents entry carries `blob`, base64, and no `text`",
            json!({"uri": "file:///images/pixel.png", "mimeType": "image/png", "blob": ANY_STRING}),
            blob,
        ));
    }
    let forecast = read(&mut c, s, "weather://forecast/paris")?;
    if !forecast
        .get("text")
        .and_then(Value::as_str)
        .is_some_and(|t| t.contains("paris"))
    {
        return Err(Failure::partial(
            "weather://forecast/paris fills the template's {city}: its text names paris",
            json!({"uri": "weather://forecast/paris", "text": "‹a text that names paris›"}),
            forecast,
        ));
    }
    Ok(())
}

pub(super) fn missing_legacy(s: &mut Session) -> CaseResult {
    let mut c = Client::legacy_varied(s)?;
    c.error(s, "resources/read", json!({"uri": "file:///notes/missing.md"}), -32002, "a resource that does not exist gets -32002 Resource not found in the legacy era (2025-11-25 server/resources › Error Handling)")
}

pub(super) fn missing_modern(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    c.error(
        s,
        "resources/read",
        json!({"uri": "file:///notes/missing.md"}),
        -32602,
        "a resource that does not exist gets -32602 in 2026-07-28, which retired -32002 (2026-07-28 server/resources)",
    )?;
    let result = c.result(s, "resources/read", json!({"uri": "file:///notes/readme.md"}))?;
    modern_fields(&result, "resources/read", true)
}

/// "Servers MUST include caching hints on results with `resultType:
/// "complete"`" of the cacheable operations (2026-07-28
/// server/utilities/caching); every modern result carries resultType
/// (2026-07-28 basic/index › Result Responses).
pub(super) fn cache_hints(s: &mut Session) -> CaseResult {
    let mut c = Client::modern().varied();
    let calls = [
        ("server/discover", json!({}), true),
        ("resources/list", json!({}), true),
        ("resources/templates/list", json!({}), true),
        ("resources/read", json!({"uri": "file:///notes/readme.md"}), true),
        (
            "tools/call",
            json!({"name": "greet", "arguments": {"name": "Ada"}}),
            false,
        ),
    ];
    for (method, params, cacheable) in calls {
        let result = c.result(s, method, params)?;
        modern_fields(&result, method, cacheable)?;
    }
    Ok(())
}

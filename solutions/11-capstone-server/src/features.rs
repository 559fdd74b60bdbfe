//! What the server offers: three tools, one resource, one prompt
//! (2025-11-25 server/tools, server/resources, server/prompts; the same
//! shapes in 2026-07-28). Every function here is the same in both eras,
//! except where an `Era` is passed in.

use serde_json::{Value, json};

use crate::{Era, RpcError};

/// The longest countdown, in steps.
pub const MAX_STEPS: i64 = 10;
/// How long each countdown step takes, in milliseconds.
pub const STEP_MS: u64 = 100;
/// The one resource's URI.
pub const ABOUT_URI: &str = "notes://capstone/about";
/// The one resource's text.
pub const ABOUT_TEXT: &str = "The mcplings capstone server: three tools, one resource, one prompt, two eras.";

/// The tools, in their stable order (`tools/list`, one page).
pub fn tools() -> Vec<Value> {
    let text_input = json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
    vec![
        json!({"name": "reverse", "description": "Reverses a text, character by character.", "inputSchema": text_input}),
        json!({
            "name": "word_count",
            "description": "Counts the words and characters of a text.",
            "inputSchema": text_input,
            "outputSchema": {"type": "object", "properties": {"words": {"type": "integer"}, "characters": {"type": "integer"}}, "required": ["words", "characters"]}
        }),
        json!({
            "name": "countdown",
            "description": "Counts down, one step every 100 ms, reporting progress when asked to.",
            "inputSchema": {"type": "object", "properties": {"steps": {"type": "integer", "minimum": 1, "maximum": MAX_STEPS}}, "required": ["steps"]}
        }),
    ]
}

/// A text content block.
pub fn text(text: impl Into<String>) -> Value {
    json!({"type": "text", "text": text.into()})
}

/// A tool error the model can read and correct (`isError: true`,
/// 2025-11-25 server/tools › Error Handling).
pub fn tool_error(message: impl Into<String>) -> Value {
    json!({"content": [text(message)], "isError": true})
}

/// What a `tools/call` asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// A result to send at once.
    Done(Value),
    /// A countdown of this many steps (1 to [`MAX_STEPS`]): the caller runs
    /// it, with progress, and finishes it with [`countdown_result`].
    Countdown(i64),
}

/// Runs `tools/call` for `name`. Wrong input is a tool error
/// (`isError: true`); only an unknown tool is a protocol error.
///
/// Errors: -32602 for a tool that does not exist (tools/call itself exists,
/// so not -32601; 2025-11-25 server/tools › Error Handling).
pub fn call_tool(name: &str, arguments: &Value) -> Result<Call, RpcError> {
    let text_argument = arguments.get("text").and_then(Value::as_str);
    match name {
        "reverse" => Ok(Call::Done(match text_argument {
            Some(t) => json!({"content": [text(t.chars().rev().collect::<String>())]}),
            None => tool_error("reverse needs a string argument `text`"),
        })),
        "word_count" => Ok(Call::Done(match text_argument {
            Some(t) => {
                let structured = json!({"words": t.split_whitespace().count(), "characters": t.chars().count()});
                // The text mirror: the same JSON for clients that read only content.
                json!({"content": [text(structured.to_string())], "structuredContent": structured})
            }
            None => tool_error("word_count needs a string argument `text`"),
        })),
        "countdown" => Ok(match arguments.get("steps").and_then(Value::as_i64) {
            Some(steps @ 1..=MAX_STEPS) => Call::Countdown(steps),
            Some(steps) => Call::Done(tool_error(format!("steps {steps} is out of range: use 1 to {MAX_STEPS}"))),
            None => Call::Done(tool_error("countdown needs an integer argument `steps`")),
        }),
        other => Err(RpcError::invalid_params(format!("Unknown tool: {other}"))),
    }
}

/// The result of a countdown that ran to the end.
pub fn countdown_result(steps: i64) -> Value {
    json!({"content": [text(format!("Liftoff after {steps} steps."))]})
}

/// The resources `resources/list` names.
pub fn resources() -> Vec<Value> {
    vec![json!({"uri": ABOUT_URI, "name": "about", "mimeType": "text/plain"})]
}

/// -32002 Resource not found: the legacy era's code (2025-11-25
/// server/resources › Error Handling); 2026-07-28 uses -32602 instead.
pub const RESOURCE_NOT_FOUND: i64 = -32002;

/// Runs `resources/read`: `{"contents": [{uri, mimeType, text}]}`.
///
/// Errors: an unknown URI is -32002 in the legacy era and -32602 in the
/// modern one (2026-07-28 server/resources). Never an empty `contents`.
pub fn read_resource(uri: &str, era: Era) -> Result<Value, RpcError> {
    if uri != ABOUT_URI {
        let code = match era {
            Era::Legacy => RESOURCE_NOT_FOUND,
            Era::Modern => -32602,
        };
        return Err(RpcError { code, message: format!("Resource not found: {uri}") });
    }
    Ok(json!({"contents": [{"uri": uri, "mimeType": "text/plain", "text": ABOUT_TEXT}]}))
}

/// The prompts `prompts/list` names.
pub fn prompts() -> Vec<Value> {
    vec![json!({"name": "review_code", "description": "Asks for a review of a piece of code.", "arguments": [{"name": "code", "description": "The code to review.", "required": true}]})]
}

/// Runs `prompts/get`: one user message holding the code.
///
/// Errors: -32602 for an unknown prompt or a missing required argument
/// (2025-11-25 server/prompts › Error Handling).
pub fn get_prompt(name: &str, arguments: &Value) -> Result<Value, RpcError> {
    if name != "review_code" {
        return Err(RpcError::invalid_params(format!("Unknown prompt: {name}")));
    }
    let Some(code) = arguments.get("code").and_then(Value::as_str) else {
        return Err(RpcError::invalid_params("Missing required argument: code"));
    };
    Ok(json!({
        "description": "A code review request.",
        "messages": [{"role": "user", "content": text(format!("Please review this code:\n\n{code}"))}]
    }))
}

//! Exercise 01 · Encode the four frames (reference solution).
//!
//! Every MCP message is a JSON-RPC 2.0 message on one line. This crate
//! writes the four frames of Part 1, classifies any line a peer might send,
//! and decides what a client does with a response nobody is waiting for.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

/// A JSON-RPC request id. MCP allows a string or an integer, never null
/// (2025-11-25 basic/index › Requests).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Id {
    /// An integer id such as `11`.
    Int(i64),
    /// A string id such as `"req-7"`.
    Str(String),
}

impl Id {
    /// The id as JSON: `11` stays a number, `"11"` stays a string.
    pub fn to_json(&self) -> Value {
        match self {
            Id::Int(n) => json!(n),
            Id::Str(s) => json!(s),
        }
    }

    /// Reads an id from JSON: a string or an integer; anything else is `None`.
    pub fn from_json(value: &Value) -> Option<Id> {
        match value {
            Value::String(s) => Some(Id::Str(s.clone())),
            Value::Number(n) => n.as_i64().map(Id::Int),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------
// Part A: encode the four frames.
// Each function returns exactly one line of compact JSON, without a line ending.
// ---------------------------------------------------------------------------

/// A request: `{"jsonrpc":"2.0","id":…,"method":…,"params":…}`.
/// `params: None` leaves the `params` member out.
pub fn encode_request(id: &Id, method: &str, params: Option<Value>) -> String {
    let mut frame = Map::new();
    frame.insert("jsonrpc".into(), json!("2.0"));
    frame.insert("id".into(), id.to_json());
    frame.insert("method".into(), json!(method));
    if let Some(params) = params {
        frame.insert("params".into(), params);
    }
    Value::Object(frame).to_string()
}

/// A success response: `{"jsonrpc":"2.0","id":…,"result":…}`.
pub fn encode_result(id: &Id, result: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id.to_json(), "result": result}).to_string()
}

/// An error response: `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}`,
/// with `data` inside the error object only when given.
pub fn encode_error(id: &Id, code: i64, message: &str, data: Option<Value>) -> String {
    let mut error = Map::new();
    error.insert("code".into(), json!(code));
    error.insert("message".into(), json!(message));
    if let Some(data) = data {
        error.insert("data".into(), data);
    }
    json!({"jsonrpc": "2.0", "id": id.to_json(), "error": error}).to_string()
}

/// A notification: `{"jsonrpc":"2.0","method":…,"params":…}` and no `id`
/// member at all. `params: None` leaves `params` out.
pub fn encode_notification(method: &str, params: Option<Value>) -> String {
    let mut frame = Map::new();
    frame.insert("jsonrpc".into(), json!("2.0"));
    frame.insert("method".into(), json!(method));
    if let Some(params) = params {
        frame.insert("params".into(), params);
    }
    Value::Object(frame).to_string()
}

// ---------------------------------------------------------------------------
// Part B: classify any incoming line.
// ---------------------------------------------------------------------------

/// What one incoming line is.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// `method` and a string or integer `id`.
    Request { id: Id, method: String },
    /// `method` and no `id` member.
    Notification { method: String },
    /// `result` and the id of the request it answers.
    Success { id: Id },
    /// `error`; `id` is `None` when it is absent or null (a parse error
    /// that answers no request).
    Error { id: Option<Id>, code: i64 },
    /// Anything else, with the rule it breaks.
    Invalid { reason: String },
}

fn invalid(reason: &str) -> Kind {
    Kind::Invalid { reason: reason.to_string() }
}

/// Classifies one line (without its line ending).
pub fn classify(line: &str) -> Kind {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(_) => return invalid("not JSON: a parse error (-32700)"),
    };
    let obj = match value {
        Value::Object(obj) => obj,
        Value::Array(_) => return invalid("a batch: batches were removed in 2025-06-18"),
        _ => return invalid("not a JSON object"),
    };
    if obj.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid("jsonrpc must be \"2.0\"");
    }
    let id = obj.get("id");
    let has_result = obj.contains_key("result");
    let has_error = obj.contains_key("error");
    if let Some(method) = obj.get("method") {
        let Some(method) = method.as_str() else { return invalid("method must be a string") };
        if has_result || has_error {
            return invalid("a request or notification has no result or error");
        }
        return match id {
            None => Kind::Notification { method: method.to_string() },
            Some(Value::Null) => invalid("id is null: MCP forbids null ids"),
            Some(id) => match Id::from_json(id) {
                Some(id) => Kind::Request { id, method: method.to_string() },
                None => invalid("id must be a string or an integer"),
            },
        };
    }
    match (has_result, has_error) {
        (true, true) => invalid("a response has exactly one of result and error"),
        (true, false) => match id.and_then(Id::from_json) {
            Some(id) => Kind::Success { id },
            None => invalid("a success response needs the string or integer id it answers"),
        },
        (false, true) => {
            let Some(code) = obj["error"].get("code").and_then(Value::as_i64) else {
                return invalid("an error object needs an integer code");
            };
            if !obj["error"].get("message").is_some_and(Value::is_string) {
                return invalid("an error object needs a string message");
            }
            match id {
                None | Some(Value::Null) => Kind::Error { id: None, code },
                Some(id) => match Id::from_json(id) {
                    Some(id) => Kind::Error { id: Some(id), code },
                    None => invalid("id must be a string or an integer"),
                },
            }
        }
        (false, false) => invalid("no method, result or error"),
    }
}

// ---------------------------------------------------------------------------
// Part C: a response whose id matches nothing.
// ---------------------------------------------------------------------------

/// What the client did with an incoming line.
#[derive(Debug, Clone, PartialEq)]
pub enum Accepted {
    /// A response to the in-flight call `id` (which was a `method` call); the
    /// call is no longer in flight.
    Matched { id: Id, method: String },
    /// A response no in-flight call is waiting for: logged and dropped.
    Orphan { id: Option<Id> },
    /// Not a response at all (a request, a notification, or invalid).
    NotAResponse,
}

/// Takes one incoming line. `in_flight` maps each request id the client has
/// sent and not yet seen answered to its method.
pub fn accept_response(in_flight: &mut HashMap<Id, String>, line: &str) -> Accepted {
    let id = match classify(line) {
        Kind::Success { id } | Kind::Error { id: Some(id), .. } => id,
        Kind::Error { id: None, .. } => {
            eprintln!("dropping an error response with no id: it answers no request: {line}");
            return Accepted::Orphan { id: None };
        }
        _ => return Accepted::NotAResponse,
    };
    match in_flight.remove(&id) {
        Some(method) => Accepted::Matched { id, method },
        None => {
            // Guessing which call it belonged to would corrupt correlation, and
            // a retry would repeat work; a late answer after a cancellation is
            // normal. Log it and carry on.
            eprintln!("dropping a response for id {}: no call with that id is in flight", id.to_json());
            Accepted::Orphan { id: Some(id) }
        }
    }
}

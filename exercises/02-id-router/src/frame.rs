//! Given: exercise 01's classifier. YOU DO NOT NEED TO EDIT THIS FILE: your
//! work is in `src/lib.rs`.
//!
//! The classifier you wrote in exercise 01, done for you: [`classify`] tells
//! what one incoming line is, by the rules of Part 1 and in the same order,
//! and [`Kind`] carries the members a router acts on (a response's `result`
//! or `error`, a notification's `params`). A line that breaks a rule is
//! [`Kind::Invalid`], with the rule it breaks.
//!
//! `src/lib.rs` brings it in with `mod frame;`: this file is its child
//! module, `frame`, and `use frame::{Id, Kind, classify};` names what it
//! gives.

use serde_json::{Value, json};

/// A JSON-RPC request id. MCP allows a string or an integer, never null
/// (2025-11-25 basic/index › Requests). Two ids are equal only when their
/// JSON is: the integer `1` and the string `"1"` are different ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Id {
    /// An integer id such as `1`.
    Int(i64),
    /// A string id such as `"c1"`.
    Str(String),
}

impl Id {
    /// The id as JSON: `1` stays a number, `"1"` stays a string.
    pub fn to_json(&self) -> Value {
        match self {
            Id::Int(n) => json!(n),
            Id::Str(s) => json!(s),
        }
    }

    /// Reads an id from JSON: a string or an integer; anything else (null,
    /// `1.5`, an array, an object, a boolean) is `None`.
    pub fn from_json(value: &Value) -> Option<Id> {
        match value {
            Value::String(s) => Some(Id::Str(s.clone())),
            Value::Number(n) => n.as_i64().map(Id::Int),
            _ => None,
        }
    }
}

/// What one incoming line is, with the members a router acts on.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// `method` and a string or integer `id`: the peer asks for something
    /// and waits for one response with this `id`. The id is the peer's own,
    /// numbered in its own id space: it is not one of your calls' ids.
    Request { id: Id, method: String, params: Option<Value> },
    /// `method` and no `id` member: nobody waits for an answer, and the
    /// receiver MUST NOT send one (2025-11-25 basic/index › Notifications).
    /// `params` is `None` when the frame has no `params` member.
    Notification { method: String, params: Option<Value> },
    /// `result` and the string or integer `id` of the request it answers.
    Success { id: Id, result: Value },
    /// `error`: an error object with an integer `code` and a string
    /// `message` (and maybe `data`), as it came. `id` is the id of the
    /// request it answers, or `None` when the `id` member is absent or null:
    /// the peer could not read the request's id (a parse error), so this
    /// error answers no request (2025-11-25 basic/index › Error Responses).
    Error { id: Option<Id>, error: Value },
    /// Anything else: not a JSON-RPC 2.0 message MCP allows. `reason` names
    /// the rule it breaks.
    Invalid { reason: String },
}

fn invalid(reason: &str) -> Kind {
    Kind::Invalid { reason: reason.to_string() }
}

/// Classifies one line (without its line ending) by the members present,
/// in this order:
///
/// 1. not a single JSON object with `"jsonrpc": "2.0"` (bad JSON, a batch,
///    another `jsonrpc`): invalid;
/// 2. `method` (a string): with `result` or `error` as well, invalid; with a
///    string or integer `id`, a request; with no `id` member, a
///    notification; with any other `id` (null, 1.5, an object), invalid;
/// 3. `result` and `error` both: invalid (JSON-RPC 2.0 § 5: exactly one);
/// 4. `result` with a string or integer `id`: a success response; with any
///    other `id`, or none, invalid (2025-11-25 basic/index › Responses);
/// 5. `error`: an error object with an integer `code` and a string
///    `message`, else invalid; its `id` a string or an integer, or absent or
///    null (an error that answers no request); any other `id`, invalid;
/// 6. none of `method`, `result` and `error`: invalid.
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
    let params = obj.get("params").cloned();
    let result = obj.get("result");
    let error = obj.get("error");
    if let Some(method) = obj.get("method") {
        let Some(method) = method.as_str() else { return invalid("method must be a string") };
        if result.is_some() || error.is_some() {
            return invalid("a request or notification has no result or error");
        }
        let method = method.to_string();
        return match id {
            None => Kind::Notification { method, params },
            Some(Value::Null) => invalid("id is null: MCP forbids null ids"),
            Some(id) => match Id::from_json(id) {
                Some(id) => Kind::Request { id, method, params },
                None => invalid("id must be a string or an integer"),
            },
        };
    }
    match (result, error) {
        (Some(_), Some(_)) => invalid("a response has exactly one of result and error"),
        (Some(result), None) => match id.and_then(Id::from_json) {
            Some(id) => Kind::Success { id, result: result.clone() },
            None => invalid("a success response needs the string or integer id it answers"),
        },
        (None, Some(error)) => {
            if !error.get("code").is_some_and(Value::is_i64) {
                return invalid("an error object needs an integer code");
            }
            if !error.get("message").is_some_and(Value::is_string) {
                return invalid("an error object needs a string message");
            }
            let error = error.clone();
            match id {
                None | Some(Value::Null) => Kind::Error { id: None, error },
                Some(id) => match Id::from_json(id) {
                    Some(id) => Kind::Error { id: Some(id), error },
                    None => invalid("id must be a string or an integer"),
                },
            }
        }
        (None, None) => invalid("no method, result or error"),
    }
}

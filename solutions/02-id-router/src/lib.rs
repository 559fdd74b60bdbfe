//! Exercise 02 · A router that matches ids (reference solution).
//!
//! A client sends calls and keeps a table of the ones in flight. Whatever
//! arrives next is routed by its shape and its id: a response goes to the
//! call whose id it carries, whatever order responses come in; a
//! notification goes to a handler and is never answered; a request from the
//! peer (legacy servers send `ping`) is answered; anything else is logged
//! and dropped.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

/// A JSON-RPC request id. MCP allows a string or an integer, never null
/// (2025-11-25 basic/index › Requests).
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

    /// Reads an id from JSON: a string or an integer; anything else is `None`.
    pub fn from_json(value: &Value) -> Option<Id> {
        match value {
            Value::String(s) => Some(Id::Str(s.clone())),
            Value::Number(n) => n.as_i64().map(Id::Int),
            _ => None,
        }
    }
}

/// Where one incoming line went.
#[derive(Debug, Clone, PartialEq)]
pub enum Routed {
    /// A response reached the call it answers. `tag` is the caller's name
    /// for the call (given to [`Router::call`]); `outcome` is the `result`,
    /// or the `error` object.
    Reply { tag: String, id: Id, outcome: Result<Value, Value> },
    /// A notification, handed to the notification handler. Never answered.
    Notification { method: String, params: Option<Value> },
    /// A request from the peer. Send this line back as the answer.
    Answer(String),
    /// A response no call in flight is waiting for: logged and dropped.
    Orphan { id: Option<Id> },
    /// Not a valid JSON-RPC message: logged and dropped.
    Invalid { reason: String },
}

/// A client-side router: a table of calls in flight, keyed by request id.
#[derive(Debug, Default)]
pub struct Router {
    next_id: i64,
    in_flight: HashMap<Id, String>,
}

impl Router {
    /// A router with nothing in flight.
    pub fn new() -> Router {
        Router::default()
    }

    /// The calls in flight, as (id, tag) pairs in no particular order.
    pub fn in_flight(&self) -> Vec<(Id, String)> {
        self.in_flight.iter().map(|(id, tag)| (id.clone(), tag.clone())).collect()
    }

    /// Starts a call: picks an id never used before in this session
    /// (2025-11-25 basic/index › Requests), records the call under `tag`,
    /// and returns the request line to send.
    pub fn call(&mut self, tag: &str, method: &str, params: Option<Value>) -> String {
        // A counter never repeats, so an id is never reused, even after its
        // call was answered: a late duplicate can't reach a newer call.
        self.next_id += 1;
        let id = Id::Int(self.next_id);
        self.in_flight.insert(id.clone(), tag.to_string());
        let mut frame = Map::new();
        frame.insert("jsonrpc".into(), json!("2.0"));
        frame.insert("id".into(), id.to_json());
        frame.insert("method".into(), json!(method));
        if let Some(params) = params {
            frame.insert("params".into(), params);
        }
        Value::Object(frame).to_string()
    }

    /// Routes one incoming line (without its line ending).
    pub fn receive(&mut self, line: &str) -> Routed {
        let Ok(Value::Object(frame)) = serde_json::from_str::<Value>(line) else {
            return invalid(line, "not a JSON object");
        };
        if frame.get("jsonrpc") != Some(&json!("2.0")) {
            return invalid(line, "jsonrpc must be \"2.0\"");
        }
        if let Some(method) = frame.get("method").and_then(Value::as_str) {
            return match frame.get("id") {
                None => Routed::Notification { method: method.to_string(), params: frame.get("params").cloned() },
                Some(id) => match Id::from_json(id) {
                    // The peer's request ids are its own: id 1 from the server
                    // and our call 1 are different things.
                    Some(id) => Routed::Answer(answer(&id, method)),
                    None => invalid(line, "a request id must be a string or an integer"),
                },
            };
        }
        // A response carries exactly one of result and error (JSON-RPC 2.0
        // §5), and an error object an integer code and a string message
        // (2025-11-25 basic/index › Responses).
        let outcome = match (frame.get("result"), frame.get("error")) {
            (Some(result), None) => Ok(result.clone()),
            (None, Some(error)) if error_object(error) => Err(error.clone()),
            (None, Some(_)) => return invalid(line, "an error object needs an integer code and a string message"),
            (Some(_), Some(_)) => return invalid(line, "a response carries result or error, not both"),
            (None, None) => return invalid(line, "neither a request, a notification nor a response"),
        };
        let id = match frame.get("id") {
            // An error that answers no request (the peer could not read one).
            None | Some(Value::Null) if outcome.is_err() => {
                eprintln!("dropping a response that answers no request: {line}");
                return Routed::Orphan { id: None };
            }
            Some(id) => match Id::from_json(id) {
                Some(id) => id,
                None => return invalid(line, "a response id must be a string or an integer"),
            },
            None => return invalid(line, "a result response must carry its request's id"),
        };
        match self.in_flight.remove(&id) {
            Some(tag) => Routed::Reply { tag, id, outcome },
            None => {
                eprintln!("dropping a response for id {}: no call with that id is in flight", id.to_json());
                Routed::Orphan { id: Some(id) }
            }
        }
    }
}

/// Whether `error` is an error object: an integer `code` and a string `message`.
fn error_object(error: &Value) -> bool {
    error.get("code").is_some_and(|c| c.is_i64()) && error.get("message").is_some_and(Value::is_string)
}

fn invalid(line: &str, reason: &str) -> Routed {
    eprintln!("dropping an invalid line ({reason}): {line}");
    Routed::Invalid { reason: reason.to_string() }
}

/// This client answers `ping` and knows no other server-to-client method.
fn answer(id: &Id, method: &str) -> String {
    let frame = if method == "ping" {
        json!({"jsonrpc": "2.0", "id": id.to_json(), "result": {}})
    } else {
        json!({"jsonrpc": "2.0", "id": id.to_json(), "error": {"code": -32601, "message": "Method not found"}})
    };
    frame.to_string()
}

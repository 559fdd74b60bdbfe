//! Exercise 01 · Encode the four frames
//!
//! Every MCP message is a JSON-RPC 2.0 message on one line. Your job, in
//! three parts:
//!
//! - A. Write the four frames exactly: request, success response, error
//!   response, notification. One compact line each, ids echoed exactly.
//! - B. Classify any line a peer might send.
//! - C. Decide what the client does with a response nobody is waiting for.
//!
//! Work through the `TODO`s in order. Save the file: mcplings rebuilds and
//! checks it, and each failing case tells you what to change next.
//! `serde_json` is already a dependency (`json!`, `Value`, `Map`).

use std::collections::HashMap;

#[allow(unused_imports)]
use serde_json::{Map, Value, json};

/// A JSON-RPC request id. MCP allows a string or an integer, never null
/// (2025-11-25 basic/index › Requests). This type is done for you.
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
    // TODO: build the request object and return it as one line of JSON.
    let _ = (id, method, params);
    todo!("encode a request")
}

/// A success response: `{"jsonrpc":"2.0","id":…,"result":…}`.
pub fn encode_result(id: &Id, result: Value) -> String {
    // TODO: the id must be the request's id, exactly (a string stays a string).
    let _ = (id, result);
    todo!("encode a success response")
}

/// An error response: `{"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}`,
/// with `data` inside the error object only when given.
pub fn encode_error(id: &Id, code: i64, message: &str, data: Option<Value>) -> String {
    // TODO: an error response has `error` and never `result`.
    let _ = (id, code, message, data);
    todo!("encode an error response")
}

/// A notification: `{"jsonrpc":"2.0","method":…,"params":…}`.
/// `params: None` leaves `params` out.
pub fn encode_notification(method: &str, params: Option<Value>) -> String {
    // TODO: nobody answers a notification. How does the frame say so?
    let _ = (method, params);
    todo!("encode a notification")
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
    /// Anything else, with the rule it breaks (your own words).
    Invalid { reason: String },
}

/// Classifies one line (without its line ending).
///
/// Go by which members are *present* (`method`, `id`, `result`, `error`),
/// and check `"jsonrpc": "2.0"`. Lines that are not JSON, JSON that is not
/// an object, and objects that fit no shape are `Invalid`.
pub fn classify(line: &str) -> Kind {
    // TODO: parse the line with serde_json::from_str::<Value> and decide.
    let _ = line;
    todo!("classify a line")
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
        // TODO: an error response without an id answers no request. What
        // should the client do with it? (Not crash.)
        Kind::Error { id: None, .. } => panic!("TODO: an error response without an id"),
        _ => return Accepted::NotAResponse,
    };
    // TODO: this client crashes when a response matches no call in flight.
    // Should it crash, retry the call, or log the response and drop it?
    // Decide, and make the code do that (log to stderr with eprintln!).
    let method = in_flight.remove(&id).expect("a response for an unknown id");
    Accepted::Matched { id, method }
}

//! Exercise 02 · A router that matches ids (reference solution).
//!
//! A client sends calls and keeps a table of the ones in flight. Whatever
//! arrives next is classified by the given `frame::classify` and routed by
//! what it is and by its id: a response goes to the call whose id it
//! carries, whatever order responses come in; a notification goes to a
//! handler and is never answered; a request from the peer (legacy servers
//! send `ping`) is answered; anything else is logged and dropped.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

// The classifier, given (`src/frame.rs`).
mod frame;
use frame::{Id, Kind, classify};

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
        // What the line is comes first; only a response has an id to look up.
        match classify(line) {
            // The peer's request ids are its own: id 1 from the server and
            // our call 1 are different things.
            Kind::Request { id, method, .. } => Routed::Answer(answer(&id, &method)),
            Kind::Notification { method, params } => Routed::Notification { method, params },
            Kind::Success { id, result } => self.complete(id, Ok(result)),
            Kind::Error { id: Some(id), error } => self.complete(id, Err(error)),
            // An error that answers no request (the peer could not read one).
            Kind::Error { id: None, .. } => {
                eprintln!("dropping an error response that answers no request: {line}");
                Routed::Orphan { id: None }
            }
            // Not a response at all, whatever its id: the call it names
            // stays in flight for its real response.
            Kind::Invalid { reason } => {
                eprintln!("dropping an invalid line ({reason}): {line}");
                Routed::Invalid { reason }
            }
        }
    }

    /// Hands a response to the call in flight with its id, which is then no
    /// longer in flight; a response nobody waits for is an orphan.
    fn complete(&mut self, id: Id, outcome: Result<Value, Value>) -> Routed {
        match self.in_flight.remove(&id) {
            Some(tag) => Routed::Reply { tag, id, outcome },
            None => {
                eprintln!("dropping a response for id {}: no call with that id is in flight", id.to_json());
                Routed::Orphan { id: Some(id) }
            }
        }
    }
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

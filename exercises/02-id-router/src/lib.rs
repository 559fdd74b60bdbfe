//! Exercise 02 · A router that matches ids
//!
//! A client sends calls and keeps a table of the ones in flight. Whatever
//! arrives next must be routed by what it is and by its id:
//!
//! - a response goes to the call whose id it carries, whatever order
//!   responses arrive in, and that call is then no longer in flight;
//! - a response nobody waits for is an orphan: logged to stderr and
//!   dropped. So is an error response whose id is null or absent: it
//!   answers no request;
//! - a notification goes to the notification handler and is never answered;
//! - a request from the peer (a legacy server may send `ping`) is answered:
//!   `ping` with an empty result, anything else with -32601. Its id is the
//!   peer's own, not one of your calls' ids;
//! - anything invalid is logged to stderr and dropped, even when its id is
//!   one of your calls' ids: that call stays in flight.
//!
//! Given, in `src/frame.rs` (read it; you do not need to edit it): `Id`,
//! and `classify(line)`, exercise 01's classifier, which says what a line
//! is (`Kind::Request`, `Notification`, `Success`, `Error` or `Invalid`)
//! and hands you its members. Also given: `Routed`, `Router`'s fields,
//! `new` and `in_flight`.
//!
//! Yours to write: `Router::call` and `Router::receive`. Save the file:
//! mcplings rebuilds and checks it, and each failing case tells you what
//! to change.

use std::collections::HashMap;

#[allow(unused_imports)]
use serde_json::{Map, Value, json};

// The classifier, given (`src/frame.rs`).
mod frame;
#[allow(unused_imports)]
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
    /// and returns the request line to send (one line of JSON;
    /// `params: None` leaves `params` out).
    pub fn call(&mut self, tag: &str, method: &str, params: Option<Value>) -> String {
        // TODO: pick a fresh id, remember which tag it belongs to, and encode
        // the request.
        let _ = (tag, method, params, self.next_id);
        todo!("start a call")
    }

    /// Routes one incoming line (without its line ending).
    pub fn receive(&mut self, line: &str) -> Routed {
        // TODO: `classify(line)` first, then one route per `Kind`. Only a
        // response (`Success`, or `Error` with an id) is looked up in the
        // table of calls in flight, by its id.
        let _ = line;
        todo!("route an incoming line")
    }
}
